//! A repertoire file as an editable document: one tree of moves per chapter (PGN
//! game), edited by operations that can all be undone, written back so that what was
//! not edited keeps its bytes.
//!
//! # Model
//!
//! [`Document::read`] cuts the file into the text before the first game and one
//! [`Chapter`] per game (the games pgn-reader sees: see `scan`), each keeping its
//! bytes as read, up to the next game. Each chapter is read into a [`GameTree`]: its
//! tags in order (unknown ones too), its moves with the variations in order, the
//! comments as written (commands such as `[%cal …]`, `[%csl …]`, `[%clk …]`,
//! `[%eval …]` kept verbatim), the NAGs and the result token. A chapter that cannot be
//! read (a token that is not PGN, an illegal move, a bad FEN) is kept as written, with
//! a [`ReadIssue`] (chapter, ply, move, reason), and cannot be edited; the others load.
//!
//! # Writing
//!
//! [`Document::to_pgn`] writes the text before the first game as read, then each
//! chapter: as read when it was not edited (or every edit was undone), else from its
//! tree by the program's one game writer, with the normalisation described in `write`
//! (line breaks, move numbers, `{text}` spacing, `$n` for glyphs). A chapter that
//! follows another than in the file (moved, added, or after a deleted one) starts
//! after a blank line. So an unedited document writes the bytes it was read from, and
//! undoing every edit gives them back.
//!
//! # Editing
//!
//! Every edit is an [`Op`] ([`Document::apply`]) or a method that makes one
//! ([`Document::add_move`], …); each returns a [`Change`] saying what changed, or an
//! [`EditError`] leaving the document unchanged, and is recorded for
//! [`Document::undo`] and [`Document::redo`]. [`Document::is_dirty`] says whether
//! there are edits since [`Document::mark_saved`].
//!
//! # Files
//!
//! `scan` (a file cut into games, a game into tokens), `parse` (tokens played into a
//! tree), `tree` (a chapter's arena of nodes), `ops` (the edits as values), `undo` (steps
//! that invert themselves), `write` (a chapter as PGN), `lines` (a chapter's tree as the
//! opening lines the importer reads), `rank` (main moves, alternatives and paused ones:
//! [`Rank`]), `error`.
//!
//! ```
//! use hastings::book::repertoire::{Document, GameTree};
//!
//! let text = "[Event \"Mine\"]\n\n1. e4 e5 2. Nf3 { [%clk 0:03:00] } Nc6 *\n";
//! let mut doc = Document::read(text.as_bytes());
//! let nf3 = doc.node_at(0, "1. e4 e5 2. Nf3")?;
//! let added = doc.add_move(0, nf3, "d6")?;
//! assert!(String::from_utf8(doc.to_pgn())?.contains("2. Nf3 {[%clk 0:03:00]} 2... Nc6 (2... d6) *"));
//! doc.set_comment(0, added.node.unwrap_or(GameTree::ROOT), "Philidor")?;
//! doc.undo()?;
//! doc.undo()?;
//! assert_eq!(doc.to_pgn(), text.as_bytes());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod lines;
mod marks;
mod ops;
mod parse;
mod rank;
mod scan;
mod tree;
mod undo;
mod write;

use std::borrow::Cow;
use std::sync::Arc;

use shakmaty::Chess;

pub use error::{EditError, ReadIssue};
pub use marks::{Arrow, Circle};
pub use ops::Op;
pub use rank::{Rank, Standing};
pub use tree::{GameTree, Node, NodeId};

use super::chapters::title_from_tags;
use super::side::{Side, side_from_tags};
use super::tags::GameTags;
use undo::History;

/// One chapter (PGN game) of a document.
#[derive(Debug, Clone)]
pub struct Chapter {
    /// The bytes as read (for a chapter made here: `None`).
    original: Option<Vec<u8>>,
    /// Its place in the file as read.
    origin: Option<usize>,
    /// Shared with the copies taken for other threads ([`Chapter::shared_tree`]); an
    /// edit copies it only while one is still held.
    tree: Result<Arc<GameTree>, ReadIssue>,
    /// Whether the tree differs from the bytes as read.
    modified: bool,
}

impl Chapter {
    /// The tree of moves; `None` when the chapter could not be read.
    pub fn tree(&self) -> Option<&GameTree> {
        self.tree.as_deref().ok()
    }

    /// The tree, shared (no copy): for work on another thread.
    pub fn shared_tree(&self) -> Option<Arc<GameTree>> {
        self.tree.as_ref().ok().map(Arc::clone)
    }

    /// Why the chapter could not be read (it is kept as written).
    pub fn issue(&self) -> Option<&ReadIssue> {
        self.tree.as_ref().err()
    }

    /// Whether the chapter is written from its tree rather than as read.
    pub fn is_modified(&self) -> bool {
        self.modified || self.original.is_none()
    }

    /// Its title (see [`title_from_tags`]); `number` is its place from 1, for
    /// "Game N".
    pub fn title(&self, number: usize) -> String {
        let game = u32::try_from(number).unwrap_or(u32::MAX);
        title_from_tags(self.tree().map(GameTree::tags), game)
    }

    /// The side its tags say it is for (`[Orientation]`, or a name).
    pub fn side(&self) -> Option<Side> {
        self.tree().and_then(|t| side_from_tags(t.tags()))
    }

    /// The chapter's PGN text as it would be saved.
    pub fn text(&self) -> Cow<'_, [u8]> {
        match (&self.original, &self.tree) {
            (Some(bytes), _) if !self.modified => Cow::Borrowed(bytes),
            (_, Ok(tree)) => Cow::Owned(write::write_tree(tree).into_bytes()),
            (Some(bytes), Err(_)) => Cow::Borrowed(bytes),
            (None, Err(_)) => Cow::Borrowed(&[]),
        }
    }

    /// A new chapter with `tags` and no moves.
    fn new(tags: GameTags) -> Chapter {
        let mut tree = GameTree::new(tags, Chess::default());
        tree.result = Some("*".to_owned());
        Chapter {
            original: None,
            origin: None,
            tree: Ok(Arc::new(tree)),
            modified: true,
        }
    }
}

/// What an edit (or its undo) changed, for the window to redraw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// The chapter (index from 0) changed, added, removed or moved to.
    pub chapter: Option<usize>,
    /// The move added, selected, deleted, moved or annotated.
    pub node: Option<NodeId>,
    /// What happened.
    pub kind: ChangeKind,
}

/// The kinds of [`Change`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// A move was added (or a deleted one put back).
    MoveAdded,
    /// The move existed: it is selected, nothing changed (not recorded for undo).
    MoveSelected,
    /// A move and its subtree were taken out (its node is kept: its parent is known).
    MoveDeleted,
    /// A move changed place among its siblings.
    Reordered,
    /// A comment changed (text, arrows or circles).
    Comment,
    /// The NAGs changed.
    Nags,
    /// A move's rank changed (main, alternative, paused).
    Ranked,
    /// The chapter's tags changed (renamed).
    Tags,
    /// A chapter was added (or a deleted one put back).
    ChapterAdded,
    /// A chapter was removed.
    ChapterRemoved,
    /// A chapter moved.
    ChapterMoved,
}

/// A repertoire file being edited (see the [module docs](self)).
#[derive(Debug, Clone, Default)]
pub struct Document {
    preamble: Vec<u8>,
    chapters: Vec<Chapter>,
    history: History,
}

impl Document {
    /// Reads a PGN file's bytes. Never fails: a chapter that cannot be read is kept as
    /// written ([`Chapter::issue`]); an empty file has no chapters.
    pub fn read(bytes: &[u8]) -> Document {
        let (preamble, spans) = scan::split(bytes);
        let chapters = spans
            .into_iter()
            .enumerate()
            .map(|(i, span)| {
                let text = &bytes[span];
                Chapter {
                    tree: parse::parse_chapter(i + 1, text).map(Arc::new),
                    original: Some(text.to_vec()),
                    origin: Some(i),
                    modified: false,
                }
            })
            .collect();
        Document {
            preamble: bytes[..preamble].to_vec(),
            chapters,
            history: History::default(),
        }
    }

    /// A new repertoire for `side`: one chapter with no moves, tagged
    /// `[Event "title"]`, `[Result "*"]` and `[Orientation "white"]` or `"black"` (as
    /// lichess marks a study chapter's side, which the import reads back).
    pub fn new_repertoire(side: Side, title: &str) -> Document {
        Document {
            preamble: Vec::new(),
            chapters: vec![Chapter::new(new_tags(title, side))],
            history: History::default(),
        }
    }

    /// The chapters, in order.
    pub fn chapters(&self) -> &[Chapter] {
        &self.chapters
    }

    /// The chapter at `index` (from 0).
    pub fn chapter(&self, index: usize) -> Option<&Chapter> {
        self.chapters.get(index)
    }

    /// The chapters that could not be read, with why.
    pub fn issues(&self) -> Vec<&ReadIssue> {
        self.chapters.iter().filter_map(Chapter::issue).collect()
    }

    /// The document as PGN (see the [module docs](self) for what keeps its bytes).
    pub fn to_pgn(&self) -> Vec<u8> {
        let mut out = self.preamble.clone();
        let mut previous: Option<&Chapter> = None;
        for chapter in &self.chapters {
            if let Some(before) = previous {
                let adjacent = !before.modified
                    && before.original.is_some()
                    && matches!((before.origin, chapter.origin), (Some(a), Some(b)) if a + 1 == b);
                if !adjacent {
                    while !out.ends_with(b"\n\n") && !out.is_empty() {
                        out.push(b'\n');
                    }
                }
            }
            out.extend_from_slice(&chapter.text());
            previous = Some(chapter);
        }
        out
    }

    /// The node reached by the SAN moves of `path` from the start of chapter `chapter`
    /// (from 0); move numbers (`1.`, `2...`), glyphs and results in it are skipped. An
    /// empty path is the root.
    ///
    /// # Errors
    ///
    /// [`EditError::NotFound`] naming the first move that is not in the tree (or not a
    /// move there), [`EditError::NoChapter`], [`EditError::Unreadable`].
    pub fn node_at(&self, chapter: usize, path: &str) -> Result<NodeId, EditError> {
        let tree = self.tree(chapter)?;
        let mut at = GameTree::ROOT;
        let mut after: Vec<String> = Vec::new();
        for (i, token) in path_tokens(path).into_iter().enumerate() {
            let not_found = || EditError::NotFound {
                chapter: chapter + 1,
                index: i + 1,
                san: token.to_owned(),
                after: after.join(" "),
            };
            let pos = tree.node(at).map(Node::position).ok_or_else(not_found)?;
            let mv = ops::parse_move(pos, token).map_err(|_| not_found())?;
            at = tree.child_by_move(at, mv).ok_or_else(not_found)?;
            after.push(token.to_owned());
        }
        Ok(at)
    }

    /// The tree of chapter `chapter` (from 0).
    ///
    /// # Errors
    ///
    /// [`EditError::NoChapter`], or [`EditError::Unreadable`] for a chapter kept as
    /// written.
    pub fn tree(&self, chapter: usize) -> Result<&GameTree, EditError> {
        let c = self.chapters.get(chapter).ok_or(EditError::NoChapter {
            chapter: chapter + 1,
            count: self.chapters.len(),
        })?;
        c.tree.as_deref().map_err(|issue| EditError::Unreadable {
            chapter: chapter + 1,
            issue: issue.clone(),
        })
    }

    fn tree_mut(&mut self, chapter: usize) -> Option<&mut GameTree> {
        self.chapters
            .get_mut(chapter)?
            .tree
            .as_mut()
            .ok()
            .map(Arc::make_mut)
    }
}

/// The tags of a new chapter titled `title` for `side`.
fn new_tags(title: &str, side: Side) -> GameTags {
    let orientation = match side {
        Side::White => "white",
        Side::Black => "black",
    };
    [
        ("Event", title),
        ("Result", "*"),
        ("Orientation", orientation),
    ]
    .into_iter()
    .collect()
}

/// The moves of a SAN path: move numbers, glyphs and results left out.
fn path_tokens(path: &str) -> Vec<&str> {
    path.split_whitespace()
        .map(|t| super::movelist::strip_move_number(t).trim_end_matches(['!', '?']))
        .filter(|t| !t.is_empty() && !matches!(*t, "*" | "1-0" | "0-1" | "1/2-1/2"))
        .collect()
}
