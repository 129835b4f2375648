//! A move outside the book that an engine found as good as the book's: the mistake
//! counted for it is taken back.

use super::Session;
use crate::trainer::Phase;

impl Session {
    /// Takes back the mistake counted for the move outside the book being shown (an
    /// engine found it as good as the book's move): the line's and the session's
    /// mistakes go down by one. Returns whether there was one to take back. The phase
    /// does not change: the move is still not kept. Call it at most once per move.
    pub fn forgive_mistake(&mut self) -> bool {
        if !matches!(self.phase, Phase::OutOfBook { .. }) || self.mistakes_in_line == 0 {
            return false;
        }
        self.mistakes_in_line -= 1;
        self.mistakes_total = self.mistakes_total.saturating_sub(1);
        true
    }
}
