//! Blindfold training: the pieces hidden after move N of the line (the board drawn empty,
//! the moves entered by typing or on the empty squares), shown again after a mistake
//! until the learner's next right move.
//!
//! Why until the next right move and not for a moment: after a wrong move the learner
//! needs the position to find the right one, however long that takes; a picture that
//! vanishes after a second or two is gone before a club player has looked at it (and
//! would hurry the answer that review mode times). The right move is the natural moment
//! to go blind again: the learner has just shown they know where they are.

use shakmaty::Position;

use super::Session;
use crate::trainer::Phase;

/// The blindfold's state in a drill.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Blindfold {
    /// Hide the pieces once the move number passes this (`None`: never).
    after_move: Option<u32>,
    /// Shown again after a mistake, until the learner's next right move.
    revealed: bool,
}

impl Session {
    /// Sets the blindfold: the pieces are hidden from the position after Black's move
    /// `after_move` (0: from the start), or never with `None`. Nothing else changes.
    pub fn set_blindfold(&mut self, after_move: Option<u32>) {
        self.blind.after_move = after_move;
    }

    /// The move after which the pieces are hidden, if the blindfold is on.
    pub fn blindfold(&self) -> Option<u32> {
        self.blind.after_move
    }

    /// Shows the pieces again until the learner's next right move (after a mistake the
    /// session does not see, such as a lesson's wrong move).
    pub fn reveal(&mut self) {
        self.blind.revealed = true;
    }

    /// Whether the board is drawn without its pieces now: the blindfold is on, the
    /// position shown is past its move, and no mistake is being shown (a move outside
    /// the book, or a wrong move since the learner's last right one).
    pub fn hides_pieces(&self) -> bool {
        let Some(after) = self.blind.after_move else {
            return false;
        };
        if self.blind.revealed || matches!(self.phase, Phase::OutOfBook { .. }) {
            return false;
        }
        self.display_position().fullmoves().get() > after
    }

    /// A learner's move was wrong (the pieces come back) or right (they go again).
    pub(super) fn blindfold_after_move(&mut self, right: bool) {
        self.blind.revealed = !right;
    }

    /// A new line: the pieces hidden again.
    pub(super) fn blindfold_new_line(&mut self) {
        self.blind.revealed = false;
    }
}
