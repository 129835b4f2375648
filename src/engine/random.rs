//! The weakest opponent: a uniformly random legal move (for tests and matches).

use std::sync::atomic::AtomicBool;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Engine;
use super::error::EngineError;
use super::game::Game;
use super::info::{SearchInfo, SearchResult};
use super::limits::Limits;

/// Plays a random legal move, from a seeded generator.
#[derive(Debug)]
pub struct RandomMover {
    rng: ChaCha8Rng,
}

impl RandomMover {
    /// A random mover whose moves are fixed by `seed`.
    pub fn new(seed: u64) -> RandomMover {
        RandomMover {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Engine for RandomMover {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn search(
        &mut self,
        game: &Game,
        _limits: &Limits,
        _stop: &AtomicBool,
        _on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SearchResult, EngineError> {
        use shakmaty::Position;
        let moves = game.position().legal_moves();
        let best = (!moves.is_empty()).then(|| moves[self.rng.random_range(0..moves.len())]);
        Ok(SearchResult {
            best,
            ..SearchResult::default()
        })
    }
}
