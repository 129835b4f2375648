//! The weakest opponent: a uniformly random legal move (for tests and matches).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Engine;
use super::Search;
use super::error::EngineError;
use super::info::SearchResult;

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

    fn search(&mut self, search: Search<'_>) -> Result<SearchResult, EngineError> {
        let game = search.game;
        use shakmaty::Position;
        let moves = game.position().legal_moves();
        let best = (!moves.is_empty()).then(|| moves[self.rng.random_range(0..moves.len())]);
        Ok(SearchResult {
            best,
            ..SearchResult::default()
        })
    }
}
