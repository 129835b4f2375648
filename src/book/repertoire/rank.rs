//! A move's rank among the moves of its position: the main move, an alternative, or a
//! paused alternative (kept in the file, in no drill).
//!
//! The first move at a position in the file's order is the main move, the later ones
//! alternatives; a move marked `[%hastings alt]` in its comment is an alternative even
//! when it comes first (a user reordered the moves in another tool), and one marked
//! `[%hastings paused]` is paused. Both commands are kept by other PGN tools and never
//! shown as comment text. [`Op::Mark`](super::Op::Mark) changes a rank as one undoable
//! step: [`Rank::Main`] moves the move first and takes its mark away.

use serde::{Deserialize, Serialize};

use super::error::EditError;
use super::tree::{GameTree, Node, NodeId};
use super::undo::Edit;
use super::{Change, Document};
use crate::book::line::MoveMark;
use crate::book::pgn::{parse_comment, with_mark};

/// What [`Op::Mark`](super::Op::Mark) makes a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rank {
    /// The main move: first at its position, without a mark.
    Main,
    /// An alternative (`[%hastings alt]`).
    Alternative,
    /// Paused (`[%hastings paused]`): kept in the file, not drilled.
    Pause,
    /// No longer paused: an alternative again.
    Unpause,
}

/// Where a move stands among the moves of its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Standing {
    /// The main move: the first move there without a mark.
    Main,
    /// An alternative: a later move, or one marked `[%hastings alt]`.
    Alternative,
    /// Paused (`[%hastings paused]`).
    Paused,
}

impl Standing {
    /// The words the window and the command line use.
    pub const fn label(self) -> &'static str {
        match self {
            Standing::Main => "main move",
            Standing::Alternative => "alternative",
            Standing::Paused => "paused",
        }
    }
}

impl Node {
    /// The mark in the move's comment (`[%hastings alt]`, `[%hastings paused]`).
    pub fn mark(&self) -> Option<MoveMark> {
        self.comment
            .as_deref()
            .and_then(|c| parse_comment(c.as_bytes()))
            .and_then(|n| n.mark)
    }
}

impl GameTree {
    /// Where move `id` stands among its siblings (`None` for the root or a node not in
    /// the arena).
    pub fn standing(&self, id: NodeId) -> Option<Standing> {
        let node = self.node(id)?;
        let parent = self.node(node.parent()?)?;
        match node.mark() {
            Some(MoveMark::Paused) => return Some(Standing::Paused),
            Some(MoveMark::Alternative) => return Some(Standing::Alternative),
            None => {}
        }
        let main = parent
            .children()
            .iter()
            .copied()
            .find(|&c| self.node(c).is_some_and(|n| n.mark().is_none()));
        Some(if main == Some(id) {
            Standing::Main
        } else {
            Standing::Alternative
        })
    }
}

impl Document {
    /// Ranks a move ([`Op::Mark`](super::Op::Mark)).
    ///
    /// # Errors
    ///
    /// As [`Document::apply`]; [`EditError::AlreadyRanked`] when the move is ranked so
    /// already.
    pub fn mark(&mut self, chapter: usize, node: NodeId, rank: Rank) -> Result<Change, EditError> {
        self.apply(&super::Op::Mark {
            chapter,
            node,
            rank,
        })
    }

    /// [`Op::Mark`](super::Op::Mark): the edits that rank the move, as one step.
    pub(super) fn op_mark(
        &mut self,
        chapter: usize,
        node: NodeId,
        rank: Rank,
    ) -> Result<Change, EditError> {
        let (parent, index) = self.place(chapter, node)?;
        let old = self.live_node(chapter, node)?.comment.clone();
        let current = self.live_node(chapter, node)?.mark();
        let standing = self.tree(chapter)?.standing(node);
        let already = |rank: &'static str| EditError::AlreadyRanked {
            chapter: chapter + 1,
            san: self.san(chapter, node),
            rank,
        };
        let (reorder, mark) = match rank {
            Rank::Main if standing == Some(Standing::Main) => {
                return Err(already("the main move"));
            }
            Rank::Main => (index != 0, None),
            Rank::Alternative if current == Some(MoveMark::Alternative) => {
                return Err(already("an alternative"));
            }
            Rank::Alternative => (false, Some(MoveMark::Alternative)),
            Rank::Pause if current == Some(MoveMark::Paused) => return Err(already("paused")),
            Rank::Pause => (false, Some(MoveMark::Paused)),
            Rank::Unpause if current != Some(MoveMark::Paused) => {
                return Err(already("not paused"));
            }
            // First at its position, it needs the mark to stay an alternative.
            Rank::Unpause => (false, (index == 0).then_some(MoveMark::Alternative)),
        };
        let mut edits = Vec::new();
        if reorder {
            edits.push(Edit::Reorder {
                chapter,
                parent,
                from: index,
                to: 0,
            });
        }
        if mark != current {
            let new = with_mark(old.as_deref(), mark);
            edits.push(Edit::Comment {
                chapter,
                node,
                starting: false,
                old,
                new,
            });
        }
        Ok(self.perform(Edit::Group(edits)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRENCH: &str = "[Event \"French\"]\n[Orientation \"black\"]\n\n1. e4 e6 2. d4 d5 3. e5 c5 4. c3 Nc6 (4... cxd4 5. cxd4 Bb4+) (4... Qb6 { Sharp }) *\n";

    fn standings(doc: &Document, at: &str) -> Vec<(String, Standing)> {
        let tree = doc.tree(0).unwrap();
        let node = doc.node_at(0, at).unwrap();
        tree.node(node)
            .unwrap()
            .children()
            .iter()
            .map(|&c| {
                let san = tree.node(c).unwrap().mv().unwrap().1.to_string();
                (san, tree.standing(c).unwrap())
            })
            .collect()
    }

    #[test]
    fn marks_are_read_written_and_undone_to_the_bytes_read() {
        let mut doc = Document::read(FRENCH.as_bytes());
        let at = "1. e4 e6 2. d4 d5 3. e5 c5 4. c3";
        use Standing::*;
        assert_eq!(
            standings(&doc, at),
            [
                ("Nc6".into(), Main),
                ("cxd4".into(), Alternative),
                ("Qb6".into(), Alternative)
            ]
        );
        let qb6 = doc.node_at(0, &format!("{at} Qb6")).unwrap();
        let cxd4 = doc.node_at(0, &format!("{at} cxd4")).unwrap();
        doc.mark(0, qb6, Rank::Pause).unwrap();
        doc.mark(0, cxd4, Rank::Main).unwrap();
        let text = String::from_utf8(doc.to_pgn()).unwrap();
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains("4. c3 cxd4 (4... Nc6) (4... Qb6 {[%hastings paused] Sharp}) 5. cxd4"),
            "{text}"
        );
        // Read back: the same standings.
        let again = Document::read(text.as_bytes());
        assert_eq!(
            standings(&again, at),
            [
                ("cxd4".into(), Main),
                ("Nc6".into(), Alternative),
                ("Qb6".into(), Paused)
            ]
        );
        // An explicit alt mark wins over the order.
        doc.mark(0, cxd4, Rank::Alternative).unwrap();
        assert_eq!(
            standings(&doc, at),
            [
                ("cxd4".into(), Alternative),
                ("Nc6".into(), Main),
                ("Qb6".into(), Paused)
            ]
        );
        assert!(matches!(
            doc.mark(0, qb6, Rank::Pause),
            Err(EditError::AlreadyRanked { rank: "paused", .. })
        ));
        doc.mark(0, qb6, Rank::Unpause).unwrap();
        assert_eq!(standings(&doc, at)[2], ("Qb6".into(), Alternative));
        // Main on a marked first move takes the mark away, one step.
        doc.mark(0, cxd4, Rank::Main).unwrap();
        assert_eq!(standings(&doc, at)[0], ("cxd4".into(), Main));
        for _ in 0..5 {
            doc.undo().unwrap();
        }
        assert_eq!(doc.to_pgn(), FRENCH.as_bytes());
        assert!(!doc.is_dirty());
        doc.redo().unwrap();
        doc.redo().unwrap();
        assert_eq!(standings(&doc, at)[0], ("cxd4".into(), Main));
    }

    /// The journal of unsaved edits records a rank as it records every op (JSON), and
    /// the op read back makes the same edit.
    #[test]
    fn a_journaled_rank_replays() {
        let op = super::super::Op::Mark {
            chapter: 0,
            node: NodeId(9),
            rank: Rank::Pause,
        };
        let text = serde_json::to_string(&op).unwrap();
        let back: super::super::Op = serde_json::from_str(&text).unwrap();
        assert_eq!(back, op);
        let mut a = Document::read(FRENCH.as_bytes());
        let mut b = Document::read(FRENCH.as_bytes());
        let at = a
            .node_at(0, "1. e4 e6 2. d4 d5 3. e5 c5 4. c3 cxd4")
            .unwrap();
        let op = super::super::Op::Mark {
            chapter: 0,
            node: at,
            rank: Rank::Main,
        };
        a.apply(&op).unwrap();
        let line = serde_json::to_string(&op).unwrap();
        b.apply(&serde_json::from_str(&line).unwrap()).unwrap();
        assert_eq!(a.to_pgn(), b.to_pgn());
    }

    #[test]
    fn paused_moves_leave_the_lines() {
        let mut doc = Document::read(FRENCH.as_bytes());
        let at = "1. e4 e6 2. d4 d5 3. e5 c5 4. c3";
        let cxd4 = doc.node_at(0, &format!("{at} cxd4")).unwrap();
        let source = crate::book::LineSource::Pgn {
            source: crate::book::SourceId(1),
            game: 1,
        };
        assert_eq!(doc.tree(0).unwrap().opening_lines(source).len(), 3);
        doc.mark(0, cxd4, Rank::Pause).unwrap();
        let lines = doc.tree(0).unwrap().opening_lines(source);
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| l.moves.len() == 8));
        // The importer reads the saved text as the tree gives it.
        let reimport = |doc: &Document| {
            crate::book::pgn::read_pgn(
                &doc.to_pgn()[..],
                crate::book::SourceId(1),
                &crate::book::ImportOptions::default(),
                None,
            )
            .unwrap()
        };
        let import = reimport(&doc);
        let moves = |ls: &[crate::book::OpeningLine]| {
            ls.iter().map(|l| l.moves.clone()).collect::<Vec<_>>()
        };
        assert_eq!(moves(&import.lines), moves(&lines));
        assert_eq!(import.report.lines, 2);
        // Every move at the fork paused: the line ends before them, once.
        let nc6 = doc
            .node_at(0, "1. e4 e6 2. d4 d5 3. e5 c5 4. c3 Nc6")
            .unwrap();
        let qb6 = doc
            .node_at(0, "1. e4 e6 2. d4 d5 3. e5 c5 4. c3 Qb6")
            .unwrap();
        doc.mark(0, nc6, Rank::Pause).unwrap();
        doc.mark(0, qb6, Rank::Pause).unwrap();
        let lines = doc.tree(0).unwrap().opening_lines(source);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].moves.len(), 7);
        let import = reimport(&doc);
        assert_eq!(moves(&import.lines), moves(&lines));
        assert_eq!(import.report.lines, 1);
    }
}
