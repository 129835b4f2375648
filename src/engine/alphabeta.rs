//! The built-in α-β engine: [`Searcher`] plus a skill level and a seeded generator
//! for the weaker levels' choices.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::Engine;
use super::Search;
use super::error::EngineError;
use super::evaluation::Evaluation;
use super::info::SearchResult;
use super::search::Searcher;
use super::strength::{MAX_SKILL, Strength, choose, skill_options};

/// The built-in α-β engine.
#[derive(Debug)]
pub struct AlphaBeta {
    searcher: Searcher,
    skill: u8,
    max_depth: Option<u32>,
    rng: ChaCha8Rng,
}

impl Default for AlphaBeta {
    fn default() -> Self {
        AlphaBeta::new(16, 0)
    }
}

impl AlphaBeta {
    /// A full-strength engine with a `hash_mb` MB table; `seed` fixes the weaker
    /// levels' choices.
    pub fn new(hash_mb: usize, seed: u64) -> AlphaBeta {
        AlphaBeta::with_evaluation(hash_mb, seed, Evaluation::default())
    }

    /// [`AlphaBeta::new`] searching with `evaluation`.
    pub fn with_evaluation(hash_mb: usize, seed: u64, evaluation: Evaluation) -> AlphaBeta {
        AlphaBeta {
            searcher: Searcher::with_evaluation(hash_mb, evaluation),
            skill: MAX_SKILL,
            max_depth: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The evaluation it searches with.
    pub fn evaluation(&self) -> &Evaluation {
        self.searcher.evaluation()
    }

    /// Sets the skill level, 0–20 (20: full strength).
    pub fn set_skill(&mut self, level: u8) {
        self.skill = level.min(MAX_SKILL);
    }

    /// Never searches deeper than `depth` (`None`: as the limits say).
    pub fn set_max_depth(&mut self, depth: Option<u32>) {
        self.max_depth = depth;
    }

    /// The skill level.
    pub fn skill(&self) -> u8 {
        self.skill
    }

    /// Restarts the generator of the weaker levels' choices.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// Replaces the transposition table by one of `hash_mb` MB.
    pub fn resize_hash(&mut self, hash_mb: usize) {
        let evaluation = self.searcher.evaluation().clone();
        self.searcher = Searcher::with_evaluation(hash_mb, evaluation);
    }
}

impl Engine for AlphaBeta {
    fn name(&self) -> String {
        let base = match self.searcher.evaluation() {
            Evaluation::Tapered => "hastings alphabeta",
            Evaluation::Tuned(_) => "hastings eval (genetically tuned)",
        };
        if self.skill == MAX_SKILL {
            base.to_string()
        } else {
            format!("{base} (skill {})", self.skill)
        }
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.searcher.clear();
        Ok(())
    }

    fn set_strength(&mut self, strength: Strength) -> Result<(), EngineError> {
        match strength {
            Strength::Full => self.skill = MAX_SKILL,
            Strength::Skill(level) => self.set_skill(level),
            Strength::Elo(_) => {
                return Err(EngineError::Option {
                    engine: self.name(),
                    reason: "the built-in engine has skill levels 0-20, not an Elo setting"
                        .to_string(),
                });
            }
        }
        Ok(())
    }

    fn search(&mut self, search: Search<'_>) -> Result<SearchResult, EngineError> {
        let (game, limits, stop, on_info) = search.into_parts();
        let mut options = skill_options(self.skill);
        if let Some(cap) = self.max_depth {
            options.max_depth = Some(options.max_depth.map_or(cap, |d| d.min(cap)));
        }
        let outcome = self.searcher.search(game, limits, &options, stop, on_info);
        let best = if options.margin > 0 {
            choose(&outcome.root_moves, options.margin, &mut self.rng).or(outcome.best)
        } else {
            outcome.best
        };
        let ponder = if best == outcome.best {
            outcome.pv.get(1).copied()
        } else {
            None
        };
        Ok(SearchResult {
            best,
            ponder,
            info: outcome.info,
        })
    }
}
