//! The repertoire workshop (the Repertoire tab's core): the learner's own PGN file open
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
//! tree ([`WorkshopState::beyond`]): a move played on the board with "Add moves" off,
//! or the way to a gap ([`super::workshop_gaps`]). With "Add moves" on, a move played
//! is added at the cursor (the moves beyond first), an existing one is selected.
//!
//! What the tab shows of the book (the replies the repertoire does not answer, the
//! next gap) and "Train this" are in [`super::workshop_gaps`].

use std::path::{Path, PathBuf};

use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

use super::Coach;
use crate::book::Side;
use crate::book::document::{Change, Document, GameTree, Node, NodeId, Op};
use crate::workspace::repertoire_file::{
    Recoverable, RepertoireFile, RepertoireFileError, SaveOutcome, discard, recover, recoverable,
};

/// What the Repertoire tab can ask.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkshopCommand {
    /// Create a new repertoire for this side at this path (which must not exist) and
    /// open it.
    New(Side, PathBuf),
    /// Open this PGN file in the workshop (asks first when it has unsaved edits from an
    /// earlier run).
    Open(PathBuf),
    /// Show this chapter (index from 0), at its start.
    Chapter(usize),
    /// Go to this move of the chapter shown.
    Goto(NodeId),
    /// Go to the position after these moves from the standard position (in the chapter
    /// that holds most of them; the others past the tree).
    GoToMoves(Vec<Move>),
    /// One move forward along the main line from the cursor (→).
    Forward,
    /// One move back (←).
    Back,
    /// The previous variation (↑): the sibling before the move, or before the nearest
    /// move above it that has siblings.
    PreviousVariation,
    /// The next variation (↓).
    NextVariation,
    /// The chapter's start position.
    ToStart,
    /// The end of the main line from the cursor.
    ToEnd,
    /// Whether a move played on the board is added to the repertoire.
    SetAddMoves(bool),
    /// A move played on the board.
    Play(Move),
    /// Delete this move and everything after it.
    Delete(NodeId),
    /// Move this variation one place up.
    Promote(NodeId),
    /// Make this variation the main line.
    PromoteToMain(NodeId),
    /// Set the text of this move's comment (empty: cleared).
    Comment(NodeId, String),
    /// Add this NAG to the move, or remove it when the move has it.
    ToggleNag(NodeId, u8),
    /// Set the arrows (`Ge2e4`) and circles (`Rd5`) of this move.
    Marks(NodeId, Vec<String>, Vec<String>),
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Save to the file (asks when it changed on disk).
    Save,
    /// After a conflict: read the file again, dropping the unsaved edits.
    Reload,
    /// After a conflict: write over the file on disk.
    Overwrite,
    /// Save to another file, which the workshop then edits.
    SaveAs(PathBuf),
    /// Close the question without doing anything.
    Dismiss,
    /// Open the file with the unsaved edits of the earlier run.
    Recover,
    /// Throw the unsaved edits of the earlier run away and open the file as saved.
    DiscardRecovery,
    /// Add a chapter at the end, for this side.
    AddChapter(String, Side),
    /// Rename a chapter.
    RenameChapter(usize, String),
    /// Delete a chapter (undo puts it back).
    RemoveChapter(usize),
    /// Move a chapter from one place to another.
    MoveChapter(usize, usize),
    /// Go to the most likely position where the repertoire has no answer.
    NextGap,
    /// Drill the subtree under the cursor.
    TrainThis,
}

/// What the workshop asks before going on.
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
pub struct WorkshopState {
    pub(crate) file: Option<RepertoireFile>,
    chapter: usize,
    node: NodeId,
    beyond: Vec<Move>,
    add_moves: bool,
    question: Option<Question>,
    /// What the last action said (an error, or "Saved").
    message: Option<String>,
    /// Where backups and the journal go (`None`: neither).
    data_dir: Option<PathBuf>,
    /// Counts the document's changes (the graph and the gaps follow it).
    pub(crate) generation: u64,
}

impl Default for WorkshopState {
    fn default() -> WorkshopState {
        WorkshopState::with_data_dir(None)
    }
}

impl WorkshopState {
    /// A workshop whose backups and journal go to `data_dir`.
    pub fn with_data_dir(data_dir: Option<PathBuf>) -> WorkshopState {
        WorkshopState {
            file: None,
            chapter: 0,
            node: GameTree::ROOT,
            beyond: Vec::new(),
            add_moves: false,
            question: None,
            message: None,
            data_dir,
            generation: 0,
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
        doc.chapter(self.chapter)
            .and_then(|c| c.side())
            .or_else(|| doc.chapters().iter().find_map(|c| c.side()))
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

    /// Carries out one command that needs nothing but the workshop (every one except
    /// [`WorkshopCommand::NextGap`] and [`WorkshopCommand::TrainThis`]).
    pub fn apply(&mut self, command: WorkshopCommand) {
        use WorkshopCommand as C;
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
            C::Undo => self.history(true),
            C::Redo => self.history(false),
            C::Save => self.save(),
            C::Reload => self.reload(),
            C::Overwrite => self.finish_save(RepertoireFile::save_overwrite),
            C::SaveAs(path) => self.finish_save(|f| f.save_as(&path)),
            C::Dismiss => self.question = None,
            C::Recover => self.recover(),
            C::DiscardRecovery => self.discard_recovery(),
            C::AddChapter(title, side) => {
                let index = self.document().map_or(0, |d| d.chapters().len());
                self.edit(&Op::AddChapter { index, title, side });
            }
            C::RenameChapter(chapter, title) => self.edit(&Op::RenameChapter { chapter, title }),
            C::RemoveChapter(chapter) => self.edit(&Op::RemoveChapter { chapter }),
            C::MoveChapter(from, to) => self.edit(&Op::MoveChapter { from, to }),
            // The coach carries these out (they need the book and the drill).
            C::NextGap | C::TrainThis => {}
        }
    }

    fn create(&mut self, side: Side, path: &Path) {
        let title = format!("{} repertoire", side.name());
        let doc = Document::new_repertoire(side, &title);
        match RepertoireFile::create(path, &doc, self.data_dir.as_deref()) {
            Ok(file) => {
                self.replace(file);
                self.message = Some(format!(
                    "New {} repertoire: {}",
                    side.name(),
                    path.display()
                ));
            }
            Err(e) => self.message = Some(format!("Cannot create the repertoire: {e}")),
        }
    }

    fn open(&mut self, path: &Path) {
        if let Some(dir) = &self.data_dir {
            match recoverable(dir, path) {
                Ok(Some(found)) => {
                    self.question = Some(Question::Recover(found));
                    return;
                }
                Ok(None) => {}
                Err(e) => {
                    self.message = Some(format!(
                        "The unsaved edits of {} cannot be read: {e}",
                        path.display()
                    ));
                }
            }
        }
        match RepertoireFile::open(path, self.data_dir.as_deref()) {
            Ok(file) => {
                let issues = file.document().issues().len();
                self.replace(file);
                self.message = (issues > 0).then(|| {
                    format!("{issues} chapter(s) cannot be read; they are kept as written.")
                });
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    fn recover(&mut self) {
        let (Some(dir), Some(Question::Recover(found))) = (self.data_dir.clone(), &self.question)
        else {
            return;
        };
        let path = found.path.clone();
        self.question = None;
        match recover(&dir, &path) {
            Ok(file) => {
                self.replace(file);
                self.message =
                    Some("The unsaved edits were recovered; save to keep them.".to_owned());
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    fn discard_recovery(&mut self) {
        let (Some(dir), Some(Question::Recover(found))) = (self.data_dir.clone(), &self.question)
        else {
            return;
        };
        let path = found.path.clone();
        self.question = None;
        match discard(&dir, &path) {
            Ok(()) => self.open(&path),
            Err(e) => self.message = Some(format!("The unsaved edits were not discarded: {e}")),
        }
    }

    /// Makes `file` the open one (closing the last), at its first chapter's start.
    fn replace(&mut self, file: RepertoireFile) {
        self.close();
        self.file = Some(file);
        self.chapter = 0;
        self.node = GameTree::ROOT;
        self.beyond.clear();
        self.question = None;
        self.changed();
    }

    /// Closes the file: with nothing unsaved its journal goes; else it stays for the
    /// next start.
    pub fn close(&mut self) {
        if let Some(old) = self.file.take()
            && let Err(e) = old.close()
        {
            self.message = Some(e.to_string());
        }
    }

    fn changed(&mut self) {
        self.generation += 1;
    }

    /// Shows `text` as what the last action said.
    pub(crate) fn set_message(&mut self, text: String) {
        self.message = Some(text);
    }

    /// Goes to the position after `moves` from the standard position: in the chapter
    /// (of the workshop's side, from the standard position) whose tree holds most of
    /// them, the current one first; the moves not in it are past the cursor's node.
    pub(crate) fn go_to_moves(&mut self, moves: &[Move]) {
        let Some(doc) = self.document() else {
            return;
        };
        let side = self.side();
        let standard = Chess::default();
        let mut best: Option<(usize, NodeId, usize)> = None;
        let order = std::iter::once(self.chapter).chain(0..doc.chapters().len());
        for index in order {
            let Some(chapter) = doc.chapter(index) else {
                continue;
            };
            let Some(tree) = chapter.tree() else {
                continue;
            };
            if tree.root().position().board() != standard.board()
                || (side.is_some() && chapter.side().is_some_and(|s| Some(s) != side))
            {
                continue;
            }
            let mut at = GameTree::ROOT;
            let mut depth = 0;
            for &mv in moves {
                match tree.child_by_move(at, mv) {
                    Some(next) => {
                        at = next;
                        depth += 1;
                    }
                    None => break,
                }
            }
            if best.is_none_or(|(_, _, d)| depth > d) {
                best = Some((index, at, depth));
            }
        }
        let Some((chapter, node, depth)) = best else {
            return;
        };
        self.chapter = chapter;
        self.node = node;
        self.beyond = moves[depth..].to_vec();
    }

    // ----- walking -----

    fn go(&mut self, node: NodeId) {
        self.node = node;
        self.beyond.clear();
    }

    fn forward(&mut self) {
        if !self.beyond.is_empty() {
            return;
        }
        if let Some(&next) = self.cursor_node().and_then(|n| n.children().first()) {
            self.node = next;
        }
    }

    fn back(&mut self) {
        if self.beyond.pop().is_none()
            && let Some(parent) = self.cursor_node().and_then(Node::parent)
        {
            self.node = parent;
        }
    }

    fn switch_variation(&mut self, next: bool) {
        let Some(tree) = self.tree() else {
            return;
        };
        let mut at = self.node;
        while let Some(parent) = tree.node(at).and_then(Node::parent) {
            let siblings = tree.node(parent).map(Node::children).unwrap_or_default();
            if siblings.len() > 1 {
                let Some(i) = siblings.iter().position(|&c| c == at) else {
                    return;
                };
                let j = if next {
                    (i + 1) % siblings.len()
                } else {
                    (i + siblings.len() - 1) % siblings.len()
                };
                let target = siblings[j];
                self.go(target);
                return;
            }
            at = parent;
        }
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
            let Some(pos) = self.cursor_node().map(|n| n.position().clone()) else {
                return;
            };
            let san = San::from_move(&pos, *mv).to_string();
            let op = Op::AddMove {
                chapter: self.chapter,
                at: self.node,
                san,
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

    fn edit_file(&mut self, op: &Op) -> Result<Change, RepertoireFileError> {
        let Some(file) = &mut self.file else {
            return Err(RepertoireFileError::NothingToRecover {
                path: PathBuf::new(),
            });
        };
        let result = file.edit(op);
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
                crate::book::document::ChangeKind::MoveAdded
                    | crate::book::document::ChangeKind::MoveSelected
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

    // ----- saving -----

    fn save(&mut self) {
        self.finish_save(RepertoireFile::save);
    }

    fn finish_save(
        &mut self,
        how: impl FnOnce(&mut RepertoireFile) -> Result<SaveOutcome, RepertoireFileError>,
    ) {
        let Some(file) = &mut self.file else {
            return;
        };
        let result = how(file);
        let path = file.path().to_owned();
        match result {
            Ok(SaveOutcome::Saved { .. }) => {
                self.question = None;
                self.message = Some(format!("Saved {}", path.display()));
            }
            Ok(SaveOutcome::Conflict { on_disk }) => {
                self.question = Some(Question::Conflict {
                    path,
                    gone: on_disk.is_none(),
                });
            }
            Err(e) => self.message = Some(format!("Not saved: {e}")),
        }
    }

    fn reload(&mut self) {
        let Some(path) = self.file.as_ref().map(|f| f.path().to_owned()) else {
            return;
        };
        // The unsaved edits are dropped, their journal too.
        self.file = None;
        if let Some(dir) = &self.data_dir
            && let Err(e) = discard(dir, &path)
        {
            self.message = Some(format!("The unsaved edits were not discarded: {e}"));
        }
        let chapter = self.chapter;
        self.question = None;
        self.open(&path);
        if self
            .document()
            .is_some_and(|d| chapter < d.chapters().len())
        {
            self.chapter = chapter;
        }
    }
}

impl Coach {
    /// The Repertoire tab's workshop.
    pub fn workshop(&self) -> &WorkshopState {
        &self.workshop
    }

    /// Sets the folder for the workshop's backups and journal (the window's data
    /// folder; tests use a temporary one).
    pub fn set_workshop_data_dir(&mut self, dir: Option<PathBuf>) {
        self.workshop.data_dir = dir;
    }

    /// Carries out a command of the Repertoire tab.
    pub(crate) fn apply_workshop(&mut self, command: WorkshopCommand) {
        match command {
            WorkshopCommand::NextGap => self.next_gap(),
            WorkshopCommand::TrainThis => self.train_this(),
            command => {
                self.workshop.apply(command);
                let path = self.workshop.file().map(|f| f.path().to_owned());
                if path.is_some() {
                    self.settings.workshop_file = path;
                }
            }
        }
        self.request_repaint();
    }

    /// Opens the file the workshop had at the last run (asking first when it has
    /// unsaved edits).
    pub(crate) fn reopen_workshop(&mut self) {
        if let Some(path) = self.settings.workshop_file.clone()
            && path.exists()
        {
            self.workshop.open(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Square;

    use super::*;

    fn mv(pos: &Chess, san: &str) -> Move {
        san.parse::<San>().unwrap().to_move(pos).unwrap()
    }

    fn play(w: &mut WorkshopState, san: &str) {
        let pos = w.position().unwrap();
        w.apply(WorkshopCommand::Play(mv(&pos, san)));
    }

    fn temp() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "hastings-workshop-{}-{}",
            std::process::id(),
            rand::random::<u64>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn new_white(dir: &Path) -> WorkshopState {
        let mut w = WorkshopState::with_data_dir(Some(dir.join("data")));
        w.apply(WorkshopCommand::New(Side::White, dir.join("rep.pgn")));
        assert!(w.file().is_some(), "{:?}", w.message());
        w
    }

    #[test]
    fn moves_are_added_only_with_add_moves_on() {
        let dir = temp();
        let mut w = new_white(&dir);
        play(&mut w, "e4");
        assert_eq!(w.beyond().len(), 1, "browsing adds nothing");
        assert!(!w.is_dirty());
        w.apply(WorkshopCommand::Back);
        w.apply(WorkshopCommand::SetAddMoves(true));
        for san in ["e4", "e5", "Nf3"] {
            play(&mut w, san);
        }
        assert!(w.beyond().is_empty());
        assert_eq!(w.tree().unwrap().path_sans(w.node()), ["e4", "e5", "Nf3"]);
        // An existing move is selected, not added again.
        w.apply(WorkshopCommand::ToStart);
        play(&mut w, "e4");
        assert_eq!(w.tree().unwrap().root().children().len(), 1);
        assert!(w.is_dirty());
    }

    #[test]
    fn moves_beyond_the_tree_are_added_with_the_move_played() {
        let dir = temp();
        let mut w = new_white(&dir);
        play(&mut w, "d4");
        play(&mut w, "d5");
        w.apply(WorkshopCommand::SetAddMoves(true));
        play(&mut w, "c4");
        assert_eq!(w.tree().unwrap().path_sans(w.node()), ["d4", "d5", "c4"]);
    }

    #[test]
    fn arrows_walk_the_main_line_and_the_variations() {
        let dir = temp();
        let mut w = new_white(&dir);
        w.apply(WorkshopCommand::SetAddMoves(true));
        for san in ["e4", "e5", "Nf3"] {
            play(&mut w, san);
        }
        w.apply(WorkshopCommand::Back);
        w.apply(WorkshopCommand::Back);
        play(&mut w, "c5");
        w.apply(WorkshopCommand::Back);
        play(&mut w, "e6");
        let sans = |w: &WorkshopState| w.tree().unwrap().path_sans(w.node());
        assert_eq!(sans(&w), ["e4", "e6"]);
        w.apply(WorkshopCommand::NextVariation);
        assert_eq!(sans(&w), ["e4", "e5"], "↓ wraps to the main line");
        w.apply(WorkshopCommand::PreviousVariation);
        assert_eq!(sans(&w), ["e4", "e6"]);
        w.apply(WorkshopCommand::PreviousVariation);
        assert_eq!(sans(&w), ["e4", "c5"]);
        w.apply(WorkshopCommand::ToStart);
        w.apply(WorkshopCommand::ToEnd);
        assert_eq!(sans(&w), ["e4", "e5", "Nf3"]);
        w.apply(WorkshopCommand::Forward);
        assert_eq!(sans(&w), ["e4", "e5", "Nf3"], "the end stays");
    }

    #[test]
    fn undo_restores_the_bytes_and_the_cursor_stays_in_the_tree() {
        let dir = temp();
        let mut w = new_white(&dir);
        let original = std::fs::read(dir.join("rep.pgn")).unwrap();
        w.apply(WorkshopCommand::SetAddMoves(true));
        for san in ["e4", "e5", "Nf3", "Nc6"] {
            play(&mut w, san);
        }
        let e5 = w.document().unwrap().node_at(0, "e4 e5").unwrap();
        w.apply(WorkshopCommand::Comment(e5, "Open game".into()));
        w.apply(WorkshopCommand::ToggleNag(e5, 1));
        w.apply(WorkshopCommand::Delete(e5));
        assert_eq!(w.tree().unwrap().path_sans(w.node()), ["e4"]);
        while w.can_undo() {
            w.apply(WorkshopCommand::Undo);
            assert!(w.tree().unwrap().contains(w.node()));
        }
        assert_eq!(w.document().unwrap().to_pgn(), original);
        assert!(!w.is_dirty());
    }

    #[test]
    fn a_file_changed_on_disk_is_not_overwritten_without_asking() {
        let dir = temp();
        let mut w = new_white(&dir);
        let path = dir.join("rep.pgn");
        w.apply(WorkshopCommand::SetAddMoves(true));
        play(&mut w, "e4");
        std::fs::write(&path, "[Event \"Elsewhere\"]\n\n1. d4 *\n").unwrap();
        w.apply(WorkshopCommand::Save);
        assert!(matches!(w.question(), Some(Question::Conflict { .. })));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "[Event \"Elsewhere\"]\n\n1. d4 *\n"
        );
        w.apply(WorkshopCommand::SaveAs(dir.join("mine.pgn")));
        assert!(w.question().is_none());
        assert!(
            std::fs::read_to_string(dir.join("mine.pgn"))
                .unwrap()
                .contains("1. e4")
        );
        assert_eq!(w.file().unwrap().path(), dir.join("mine.pgn"));
    }

    #[test]
    fn reload_drops_the_edits_and_overwrite_writes() {
        let dir = temp();
        let mut w = new_white(&dir);
        let path = dir.join("rep.pgn");
        w.apply(WorkshopCommand::SetAddMoves(true));
        play(&mut w, "e4");
        std::fs::write(&path, "[Event \"Elsewhere\"]\n\n1. d4 *\n").unwrap();
        w.apply(WorkshopCommand::Save);
        w.apply(WorkshopCommand::Reload);
        assert!(w.question().is_none());
        assert!(!w.is_dirty());
        let tree = w.tree().unwrap();
        assert_eq!(tree.path_sans(tree.main_line(GameTree::ROOT)[0]), ["d4"]);
        w.apply(WorkshopCommand::Forward);
        play(&mut w, "d5");
        std::fs::write(&path, "changed again\n").unwrap();
        w.apply(WorkshopCommand::Save);
        w.apply(WorkshopCommand::Overwrite);
        assert!(std::fs::read_to_string(&path).unwrap().contains("1. d4 d5"));
    }

    #[test]
    fn unsaved_edits_are_offered_at_the_next_open() {
        let dir = temp();
        let path = dir.join("rep.pgn");
        {
            let mut w = new_white(&dir);
            w.apply(WorkshopCommand::SetAddMoves(true));
            play(&mut w, "e4");
            // Dropped without saving or closing, as a crash would.
            std::mem::forget(w);
        }
        let mut w = WorkshopState::with_data_dir(Some(dir.join("data")));
        w.apply(WorkshopCommand::Open(path.clone()));
        assert!(matches!(w.question(), Some(Question::Recover(r)) if r.unsaved == 1));
        w.apply(WorkshopCommand::Recover);
        assert!(w.is_dirty());
        assert!(w.document().unwrap().node_at(0, "e4").is_ok());
        w.close();
        let mut again = WorkshopState::with_data_dir(Some(dir.join("data")));
        again.apply(WorkshopCommand::Open(path));
        assert!(again.question().is_some(), "still unsaved: asked again");
        again.apply(WorkshopCommand::DiscardRecovery);
        assert!(again.question().is_none());
        assert!(again.document().unwrap().node_at(0, "e4").is_err());
    }

    #[test]
    fn chapters_are_added_renamed_moved_and_deleted_with_undo() {
        let dir = temp();
        let mut w = new_white(&dir);
        w.apply(WorkshopCommand::AddChapter("Sicilian".into(), Side::White));
        assert_eq!(w.chapter(), 1);
        w.apply(WorkshopCommand::RenameChapter(1, "Anti-Sicilian".into()));
        w.apply(WorkshopCommand::MoveChapter(1, 0));
        let doc = w.document().unwrap();
        assert_eq!(doc.chapter(0).unwrap().title(1), "Anti-Sicilian");
        w.apply(WorkshopCommand::RemoveChapter(0));
        assert_eq!(w.document().unwrap().chapters().len(), 1);
        w.apply(WorkshopCommand::Undo);
        assert_eq!(w.document().unwrap().chapters().len(), 2);
        assert!(w.chapter() < 2);
    }

    #[test]
    fn marks_are_saved_in_the_comment() {
        let dir = temp();
        let mut w = new_white(&dir);
        w.apply(WorkshopCommand::SetAddMoves(true));
        play(&mut w, "e4");
        let node = w.node();
        w.apply(WorkshopCommand::Marks(
            node,
            vec!["Gg1f3".into()],
            vec!["Rd5".into()],
        ));
        let a = w.tree().unwrap().node(node).unwrap().annotation();
        assert_eq!(a.arrows, [('G', Square::G1, Square::F3)]);
    }
}
