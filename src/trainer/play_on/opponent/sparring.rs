//! Sparring in a play-on game: the games' move played at once where enough games reach
//! the position, the model's source and the switch announced where they do not
//! ([`crate::trainer::spar`]).

use super::{Opponent, PlayOn, PlayOnEvent};
use crate::trainer::spar::{Spar, SparSource};

impl PlayOn {
    /// The sparring opponent's choice, when sparring.
    pub fn spar(&self) -> Option<&Spar> {
        self.spar.as_ref()
    }

    /// Sets the sparring model's temperature (a fit finished); the engine, which plays
    /// the model's moves, is the human-like one at `opponent` (restarted if it changed).
    pub fn set_spar_temperature(&mut self, temperature: f64, opponent: Opponent) {
        if let Some(spar) = &mut self.spar {
            spar.set_temperature(temperature);
        }
        self.set_opponent(opponent);
    }

    /// Spars with `spar` from the engine's next move (`None`: the engine alone); a
    /// search for the engine's move starts again.
    pub fn set_spar(&mut self, spar: Option<Spar>) {
        self.spar = spar;
        if self.is_thinking() {
            if let Some(handle) = &mut self.handle {
                handle.stop();
            }
            self.running = None;
            self.next_search();
        }
    }

    /// Where the engine's moves came from while sparring: each move's ply (its index in
    /// [`PlayOnGame::moves`](crate::trainer::play_on::PlayOnGame::moves)) and source.
    pub fn sources(&self) -> &[(usize, SparSource)] {
        &self.sources
    }

    /// Sparring, on the engine's turn: plays the games' move at once when enough games
    /// reach the position (and returns true), else leaves the move to the engine.
    pub(super) fn spar_move(&mut self) -> bool {
        let pos = self.game.position().clone();
        let Some((mv, source)) = self.spar.as_mut().and_then(|s| s.explorer_move(&pos)) else {
            return false;
        };
        if let Some(handle) = &mut self.handle {
            handle.stop();
        }
        self.running = None;
        let mut out = std::mem::take(&mut self.pending);
        // The games' move, then the next search (the learner's analysis).
        self.engine_moved(Some(mv), None, Some(source), &mut out);
        self.pending.append(&mut out);
        true
    }

    /// Sparring, at the start of the engine's search: where its move comes from (the
    /// model), the switch announced the first time.
    pub(super) fn model_source(&mut self) -> Option<SparSource> {
        let spar = self.spar.as_mut()?;
        let source = spar.model_source(self.game.position());
        if let SparSource::Model { games, .. } = source
            && let Some(text) = spar.switch_text(games)
        {
            self.pending.push(PlayOnEvent::SparSwitched(text));
        }
        Some(source)
    }
}
