//! Looking back: an earlier position shown read-only, what the board draws, taking
//! back a move and continuing from the position viewed.

use shakmaty::{Chess, Move, Position};

use super::Session;
use crate::trainer::Phase;

impl Session {
    /// The position to draw: an earlier one while viewing, the position after an
    /// out-of-book attempt while it is shown, else the current one.
    pub fn display_position(&self) -> Chess {
        if let Some(ply) = self.viewing {
            return self.positions[ply].clone();
        }
        let mut pos = self.position().clone();
        if let Phase::OutOfBook { attempted, .. } = &self.phase {
            pos.play_unchecked(*attempted);
        }
        pos
    }

    /// The last move on the displayed board, for highlighting.
    pub fn display_last_move(&self) -> Option<Move> {
        if let Some(ply) = self.viewing {
            return ply.checked_sub(1).map(|i| self.moves[i].mv);
        }
        if let Phase::OutOfBook { attempted, .. } = &self.phase {
            return Some(*attempted);
        }
        self.moves.last().map(|m| m.mv)
    }

    /// The ply being viewed read-only, if the learner is looking at an earlier position.
    pub fn viewing(&self) -> Option<usize> {
        self.viewing
    }

    /// Takes back the learner's last move and the computer's reply to it.
    /// Returns whether anything was taken back.
    pub fn take_back(&mut self) -> bool {
        if matches!(self.phase, Phase::OutOfBook { .. }) {
            self.try_again();
            return true;
        }
        let Some(last_learner) = self.moves.iter().rposition(|m| m.by_learner) else {
            return false;
        };
        if last_learner < self.fixed {
            return false;
        }
        self.truncate(last_learner);
        true
    }

    /// Shows the position after `ply` moves read-only (`ply == moves().len()` returns to
    /// the game).
    pub fn view(&mut self, ply: usize) {
        self.viewing = (ply < self.moves.len()).then_some(ply);
    }

    /// Continues the drill from the position being viewed, dropping the later moves.
    pub fn continue_from_here(&mut self) {
        if let Some(ply) = self.viewing {
            self.truncate(ply);
            self.fixed = self.fixed.min(ply);
        }
    }
}
