//! The repertoire editor (the Repertoire tab's core): the learner's own PGN file open
//! for editing, the chapter and the move shown, walking the move tree, the edits with
//! undo and redo, saving with the conflict question, and recovering unsaved edits.
//!
//! The file is a [`RepertoireFile`]: every edit goes through [`RepertoireFile::edit`]
//! (journaled when there is a data folder), and saving never overwrites a file that
//! changed on disk since it was read: the outcome [`SaveOutcome::Conflict`] becomes a
//! [`Question::Conflict`], answered by reload, overwrite or save as. Opening a file
//! whose journal holds unsaved edits asks first ([`Question::Recover`]).
//!
//! The cursor is a node of the chapter's tree and, past it, moves that are not in the
//! tree ([`RepertoireState::beyond`]): a move played on the board with "Add moves" off,
//! or the way to a gap ([`gaps`]). With "Add moves" on, a move played
//! is added at the cursor (the moves beyond first), an existing one is selected.
//!
//! What the tab shows of the book (the replies the repertoire does not answer, the
//! next gap) is in [`gaps`]; "Train this" in `train.rs`; the feature's state, the
//! editor with its book, is [`RepertoireTab`] (`tab.rs`: its commands, reopening the
//! last file).
//!
//! [`SaveOutcome::Conflict`]: crate::workspace::repertoire_file::SaveOutcome::Conflict

use std::path::{Path, PathBuf};

use shakmaty::{Chess, Move, Position, Square};

mod command;
mod file;
pub mod gaps;
mod navigate;
mod tab;
mod train;

pub use command::{RepertoireCommand, RepertoireTarget};
pub use file::backup_time;
pub use gaps::{GapsState, MissingHere, MissingReply, RepertoireBook};
pub use tab::RepertoireTab;

use crate::book::Side;
use crate::book::repertoire::{Change, Document, GameTree, Node, NodeId, Op};
use crate::workspace::backups::Backup;
use crate::workspace::repertoire_file::{Recoverable, RepertoireFile, RepertoireFileError};

/// Why an edit of the repertoire was not made (the tab says it).
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    /// No file is open in the tab.
    #[error("Open or create a repertoire first.")]
    NoFile,
    /// The document refused the edit, or the journal could not keep it (the file and
    /// why).
    #[error("{0}")]
    File(#[source] RepertoireFileError),
}

/// What the repertoire editor asks before going on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Question {
    /// The file changed on disk since it was read or saved: reload, overwrite, save as?
    Conflict {
        /// The file.
        path: PathBuf,
        /// Whether the file is gone.
        gone: bool,
    },
    /// The file has unsaved edits from an earlier run: recover or discard them?
    Recover(Recoverable),
}

/// The open repertoire file, the cursor and what the tab asks (runtime only).
#[derive(Debug)]
pub struct RepertoireState {
    pub(crate) file: Option<RepertoireFile>,
    chapter: usize,
    node: NodeId,
    beyond: Vec<Move>,
    add_moves: bool,
    question: Option<Question>,
    /// What the last action said (an error, or "Saved").
    message: Option<String>,
    /// Where backups and the journal go (`None`: neither).
    pub(crate) data_dir: Option<PathBuf>,
    /// Counts the document's changes (the graph and the gaps follow it).
    pub(crate) generation: u64,
    /// The open file's backups, newest first (read after opening and saving).
    backups: Vec<Backup>,
    /// Counts the writes of the file (saves and restores).
    pub(crate) writes: u64,
    /// The sides the learner set for the file's chapters (game number from 1), from
    /// the book's settings of the file ([`crate::workspace::BookFile::chapter_sides`]).
    pub(crate) chapter_sides: std::collections::BTreeMap<u32, Side>,
}

impl Default for RepertoireState {
    fn default() -> RepertoireState {
        RepertoireState::with_data_dir(None)
    }
}

impl RepertoireState {
    /// An editor whose backups and journal go to `data_dir`.
    pub fn with_data_dir(data_dir: Option<PathBuf>) -> RepertoireState {
        RepertoireState {
            file: None,
            chapter: 0,
            node: GameTree::ROOT,
            beyond: Vec::new(),
            add_moves: false,
            question: None,
            message: None,
            data_dir,
            generation: 0,
            backups: Vec::new(),
            writes: 0,
            chapter_sides: std::collections::BTreeMap::new(),
        }
    }

    /// The data folder for backups and the journal.
    pub fn data_dir(&self) -> Option<&Path> {
        self.data_dir.as_deref()
    }

    /// The open file.
    pub fn file(&self) -> Option<&RepertoireFile> {
        self.file.as_ref()
    }

    /// The open document.
    pub fn document(&self) -> Option<&Document> {
        self.file.as_ref().map(RepertoireFile::document)
    }

    /// The chapter shown (index from 0).
    pub fn chapter(&self) -> usize {
        self.chapter
    }

    /// The tree of the chapter shown (`None`: no file, no chapter, or one that could
    /// not be read).
    pub fn tree(&self) -> Option<&GameTree> {
        self.document()?.tree(self.chapter).ok()
    }

    /// The move at the cursor (the root: the chapter's start).
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The moves past the cursor's node that are not in the tree.
    pub fn beyond(&self) -> &[Move] {
        &self.beyond
    }

    /// Whether a move played on the board is added.
    pub fn adds_moves(&self) -> bool {
        self.add_moves
    }

    /// The question asked, if any.
    pub fn question(&self) -> Option<&Question> {
        self.question.as_ref()
    }

    /// What the last action said.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The open file's backups, newest first (as of the last open, save or restore).
    pub fn backups(&self) -> &[Backup] {
        &self.backups
    }

    /// Whether there are edits not saved.
    pub fn is_dirty(&self) -> bool {
        self.document().is_some_and(Document::is_dirty)
    }

    /// Whether there is an edit to undo.
    pub fn can_undo(&self) -> bool {
        self.document().is_some_and(Document::can_undo)
    }

    /// Whether there is an edit to redo.
    pub fn can_redo(&self) -> bool {
        self.document().is_some_and(Document::can_redo)
    }

    /// The side the chapter shown is for, else the first chapter that says, else
    /// `None`.
    pub fn side(&self) -> Option<Side> {
        let doc = self.document()?;
        self.chapter_side(self.chapter)
            .or_else(|| (0..doc.chapters().len()).find_map(|i| self.chapter_side(i)))
    }

    /// The side chapter `index` (from 0) is for: the one the learner set, else its
    /// tags'.
    pub fn chapter_side(&self, index: usize) -> Option<Side> {
        let game = u32::try_from(index + 1).ok()?;
        self.chapter_sides
            .get(&game)
            .copied()
            .or_else(|| self.document()?.chapter(index)?.side())
    }

    /// The side chapter `index` (from 0) looks like it is for: its tags or name say,
    /// else the shape of its tree (see [`crate::book::side::guess_side`]).
    pub fn suggested_side(&self, index: usize) -> Option<Side> {
        let chapter = self.document()?.chapter(index)?;
        chapter.side().or_else(|| {
            let game = u32::try_from(index + 1).ok()?;
            let source = crate::book::LineSource::Pgn {
                source: crate::book::SourceId(1),
                game,
            };
            crate::book::side::guess_side(&chapter.tree()?.opening_lines(source))
        })
    }

    /// Whether the learner set the side of chapter `index` (from 0).
    pub fn chapter_side_set(&self, index: usize) -> bool {
        u32::try_from(index + 1).is_ok_and(|game| self.chapter_sides.contains_key(&game))
    }

    /// The cursor's node in the tree.
    fn cursor_node(&self) -> Option<&Node> {
        self.tree()?.node(self.node)
    }

    /// The position at the cursor (after the moves beyond the node).
    pub fn position(&self) -> Option<Chess> {
        let mut pos = self.cursor_node()?.position().clone();
        for &mv in &self.beyond {
            pos.play_unchecked(mv);
        }
        Some(pos)
    }

    /// The last move to the cursor.
    pub fn last_move(&self) -> Option<Move> {
        self.beyond
            .last()
            .copied()
            .or_else(|| self.cursor_node().and_then(Node::mv).map(|(m, _)| m))
    }

    /// The moves from the chapter's start to the cursor.
    pub fn moves(&self) -> Vec<Move> {
        let Some(tree) = self.tree() else {
            return Vec::new();
        };
        let mut moves: Vec<Move> = tree
            .path(self.node)
            .into_iter()
            .filter_map(|n| tree.node(n).and_then(Node::mv).map(|(m, _)| m))
            .collect();
        moves.extend_from_slice(&self.beyond);
        moves
    }

    /// Whether the chapter shown starts from the standard position.
    pub fn starts_at_standard(&self) -> bool {
        self.tree()
            .is_some_and(|t| t.root().position().board() == Chess::default().board())
    }

    // ----- opening and closing -----

    /// Carries out one command that needs nothing but the repertoire editor (every one except
    /// [`RepertoireCommand::NextGap`] and [`RepertoireCommand::TrainThis`]).
    pub fn apply(&mut self, command: RepertoireCommand) {
        use RepertoireCommand as C;
        match command {
            C::New(side, path) => self.create(side, &path),
            C::Open(path) => self.open(&path),
            C::Chapter(index) => {
                if self.document().is_some_and(|d| index < d.chapters().len()) {
                    self.chapter = index;
                    self.go(GameTree::ROOT);
                }
            }
            C::Goto(node) => {
                if self.tree().is_some_and(|t| t.contains(node)) {
                    self.go(node);
                }
            }
            C::GoToMoves(moves) => self.go_to_moves(&moves),
            C::Forward => self.forward(),
            C::Back => self.back(),
            C::PreviousVariation => self.switch_variation(false),
            C::NextVariation => self.switch_variation(true),
            C::ToStart => self.go(GameTree::ROOT),
            C::ToEnd => {
                if let Some(last) = self
                    .tree()
                    .and_then(|t| t.main_line(self.node).last().copied())
                {
                    self.go(last);
                }
            }
            C::SetAddMoves(on) => self.add_moves = on,
            C::Play(mv) => self.play(mv),
            C::Delete(node) => self.delete(node),
            C::Promote(node) => self.edit(&Op::Promote {
                chapter: self.chapter,
                node,
            }),
            C::PromoteToMain(node) => self.edit(&Op::PromoteToMain {
                chapter: self.chapter,
                node,
            }),
            C::Mark(node, rank) => self.edit(&Op::Mark {
                chapter: self.chapter,
                node,
                rank,
            }),
            C::Comment(node, text) => self.edit(&Op::SetComment {
                chapter: self.chapter,
                node,
                text,
            }),
            C::ToggleNag(node, nag) => {
                let has = self
                    .tree()
                    .and_then(|t| t.node(node))
                    .is_some_and(|n| n.nags().contains(&nag));
                let chapter = self.chapter;
                self.edit(&if has {
                    Op::RemoveNag { chapter, node, nag }
                } else {
                    Op::AddNag { chapter, node, nag }
                });
            }
            C::Marks(node, arrows, circles) => self.edit(&Op::SetMarks {
                chapter: self.chapter,
                node,
                arrows,
                circles,
            }),
            C::ToggleArrow(colour, from, to) => self.toggle_mark(colour, from, Some(to)),
            C::ToggleCircle(colour, square) => self.toggle_mark(colour, square, None),
            C::Undo => self.history(true),
            C::Redo => self.history(false),
            C::Save => self.save(),
            C::Reload => self.reload(),
            C::Overwrite => self.finish_save(RepertoireFile::save_overwrite),
            C::SaveAs(path) => self.finish_save(|f| f.save_as(&path)),
            C::Dismiss => self.question = None,
            C::Recover => self.recover(),
            C::RestoreBackup(path) => self.restore_backup(&path),
            C::DiscardRecovery => self.discard_recovery(),
            C::AddChapter(title, side) => {
                let index = self.document().map_or(0, |d| d.chapters().len());
                self.edit(&Op::AddChapter { index, title, side });
            }
            C::RenameChapter(chapter, title) => self.edit(&Op::RenameChapter { chapter, title }),
            C::RemoveChapter(chapter) => self.edit(&Op::RemoveChapter { chapter }),
            C::MoveChapter(from, to) => self.edit(&Op::MoveChapter { from, to }),
            // The coach carries these out (they need the book, the drill, a dialog).
            C::NextGap
            | C::TrainThis
            | C::ToggleTrainChapter(_)
            | C::GapsFromExplorer(_)
            | C::Choose(_) => {}
        }
    }

    pub(super) fn changed(&mut self) {
        self.generation += 1;
    }

    /// Shows `text` as what the last action said.
    pub(crate) fn set_message(&mut self, text: String) {
        self.message = Some(text);
    }

    // ----- editing -----

    fn play(&mut self, mv: Move) {
        let Some(pos) = self.position() else {
            return;
        };
        if !pos.is_legal(mv) {
            return;
        }
        if self.beyond.is_empty()
            && let Some(child) = self.tree().and_then(|t| t.child_by_move(self.node, mv))
        {
            self.node = child;
            return;
        }
        if !self.add_moves {
            self.beyond.push(mv);
            return;
        }
        let mut moves = std::mem::take(&mut self.beyond);
        moves.push(mv);
        for (i, mv) in moves.iter().enumerate() {
            let op = Op::PlayMove {
                chapter: self.chapter,
                at: self.node,
                mv: *mv,
            };
            match self.edit_file(&op) {
                Ok(change) => {
                    if let Some(node) = change.node {
                        self.node = node;
                    }
                }
                Err(e) => {
                    // The moves not added stay on the board.
                    self.beyond = moves[i..].to_vec();
                    self.message = Some(e.to_string());
                    return;
                }
            }
        }
    }

    /// Toggles an arrow (`to` given) or a circle on the move at the cursor: one of the
    /// same squares and colour goes, one of the same squares in another colour changes
    /// colour, else it is added.
    fn toggle_mark(&mut self, colour: char, from: Square, to: Option<Square>) {
        if !self.beyond.is_empty() {
            self.message = Some(
                "Marks go on a move of the repertoire: add the moves on the board first."
                    .to_owned(),
            );
            return;
        }
        let Some(node) = self.cursor_node() else {
            return;
        };
        let note = node.annotation();
        let mut arrows = note.arrows;
        let mut circles = note.circles;
        match to {
            Some(to) => {
                let same = arrows.contains(&(colour, from, to));
                arrows.retain(|&(_, f, t)| (f, t) != (from, to));
                if !same {
                    arrows.push((colour, from, to));
                }
            }
            None => {
                let same = circles.contains(&(colour, from));
                circles.retain(|&(_, sq)| sq != from);
                if !same {
                    circles.push((colour, from));
                }
            }
        }
        let op = Op::SetMarks {
            chapter: self.chapter,
            node: self.node,
            arrows,
            circles,
        };
        self.edit(&op);
    }

    fn delete(&mut self, node: NodeId) {
        let parent = self
            .tree()
            .and_then(|t| t.node(node))
            .and_then(Node::parent);
        let cursor_inside = self
            .tree()
            .is_some_and(|t| t.path(self.node).contains(&node));
        self.edit(&Op::Delete {
            chapter: self.chapter,
            node,
        });
        if cursor_inside
            && let Some(parent) = parent
            && !self.tree().is_some_and(|t| t.contains(self.node))
        {
            self.go(parent);
        }
    }

    /// Applies `op`; a refusal or a journal failure is the message.
    fn edit(&mut self, op: &Op) {
        if let Err(e) = self.edit_file(op) {
            self.message = Some(e.to_string());
        }
    }

    /// Applies `op` to the file; the error is what the tab says.
    fn edit_file(&mut self, op: &Op) -> Result<Change, EditError> {
        let Some(file) = &mut self.file else {
            return Err(EditError::NoFile);
        };
        let result = file.edit(op).map_err(EditError::File);
        if let Ok(change) = &result {
            self.message = None;
            self.follow(change);
        }
        // An edit made but not journaled still changed the document.
        self.changed();
        result
    }

    fn history(&mut self, undo: bool) {
        let Some(file) = &mut self.file else {
            return;
        };
        let result = if undo { file.undo() } else { file.redo() };
        self.changed();
        match result {
            Ok(change) => {
                self.message = None;
                self.follow(&change);
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// Keeps the cursor on the chapter and move an edit (or its undo) touched, and on a
    /// move still in the tree.
    fn follow(&mut self, change: &Change) {
        let count = self.document().map_or(0, |d| d.chapters().len());
        if let Some(chapter) = change.chapter {
            if chapter != self.chapter {
                self.chapter = chapter.min(count.saturating_sub(1));
                self.go(GameTree::ROOT);
            }
        } else if self.chapter >= count {
            self.chapter = count.saturating_sub(1);
            self.go(GameTree::ROOT);
        }
        let Some(tree) = self.tree() else {
            self.go(GameTree::ROOT);
            return;
        };
        if let Some(node) = change.node
            && tree.contains(node)
            && matches!(
                change.kind,
                crate::book::repertoire::ChangeKind::MoveAdded
                    | crate::book::repertoire::ChangeKind::MoveSelected
            )
        {
            self.go(node);
            return;
        }
        if !tree.contains(self.node) {
            // Up to the nearest move still in the tree.
            let mut at = change.node.unwrap_or(self.node);
            while !tree.contains(at) {
                match tree.node(at).and_then(Node::parent) {
                    Some(p) => at = p,
                    None => {
                        at = GameTree::ROOT;
                        break;
                    }
                }
            }
            self.go(at);
        }
    }
}

#[cfg(test)]
mod tests;
