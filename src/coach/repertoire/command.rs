//! What the Repertoire tab can ask of the repertoire editor.

use std::path::PathBuf;

use shakmaty::{Move, Square};

use crate::book::Side;
use crate::book::repertoire::{Arrow, Circle, NodeId, Rank};

pub use crate::coach::notice::RepertoireTarget;

impl RepertoireTarget {
    /// The command for the path chosen.
    pub fn chosen(self, path: PathBuf) -> RepertoireCommand {
        match self {
            RepertoireTarget::Open => RepertoireCommand::Open(path),
            RepertoireTarget::New(side) => RepertoireCommand::New(side, path),
            RepertoireTarget::SaveAs => RepertoireCommand::SaveAs(path),
        }
    }
}

/// What the Repertoire tab can ask.
#[derive(Debug, Clone, PartialEq)]
pub enum RepertoireCommand {
    /// Create a new repertoire for this side at this path (which must not exist) and
    /// open it.
    New(Side, PathBuf),
    /// Let the user choose a file (a file dialog) for this.
    Choose(RepertoireTarget),
    /// Open this PGN file in the repertoire editor (asks first when it has unsaved edits from an
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
    /// Rank a move: the main move, an alternative, paused or not.
    Mark(NodeId, Rank),
    /// Set the text of this move's comment (empty: cleared).
    Comment(NodeId, String),
    /// Add this NAG to the move, or remove it when the move has it.
    ToggleNag(NodeId, u8),
    /// Set the arrows (`Ge2e4`) and circles (`Rd5`) of this move.
    Marks(NodeId, Vec<Arrow>, Vec<Circle>),
    /// Draw this arrow (colour letter `G`, `R`, `B`, `Y`; from; to) on the move shown, or
    /// take it away when it is there in that colour (saved as `[%cal]`).
    ToggleArrow(char, Square, Square),
    /// Draw this circle on the move shown, or take it away (saved as `[%csl]`).
    ToggleCircle(char, Square),
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
    /// Save to another file, which the repertoire editor then edits.
    SaveAs(PathBuf),
    /// Close the question without doing anything.
    Dismiss,
    /// Open the file with the unsaved edits of the earlier run.
    Recover,
    /// Throw the unsaved edits of the earlier run away and open the file as saved.
    DiscardRecovery,
    /// Put this backup (its path) back as the file and open it (refused while there
    /// are unsaved edits); the version it replaces becomes a backup too.
    RestoreBackup(PathBuf),
    /// Add a chapter at the end, for this side.
    AddChapter(String, Side),
    /// Leave this chapter (index from 0) out of "Train this", or take it in again.
    ToggleTrainChapter(usize),
    /// Whether the replies the repertoire misses come from the Explorer tab's games.
    GapsFromExplorer(bool),
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
