//! "Human-like": an opponent that plays what strong players play, sampled from the
//! move predictor's distribution with a temperature (its strength setting: 0 always
//! plays the most likely move, 1 plays each move as often as the network expects
//! players to, higher flattens the choice towards random).

use std::sync::Arc;

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::Move;

use super::Engine;
use super::Search;
use super::error::EngineError;
use super::info::SearchResult;
use super::predictor::{PredictedMove, Predictor};

/// The temperature when none is set.
pub const DEFAULT_TEMPERATURE: f64 = 1.0;

/// The highest temperature accepted.
pub const MAX_TEMPERATURE: f64 = 10.0;

/// The human-like engine.
#[derive(Debug, Clone)]
pub struct HumanLike {
    predictor: Arc<Predictor>,
    temperature: f64,
    rng: ChaCha8Rng,
}

impl HumanLike {
    /// A human-like engine over `predictor`, its random choices fixed by `seed`.
    pub fn new(predictor: Arc<Predictor>, temperature: f64, seed: u64) -> HumanLike {
        HumanLike {
            predictor,
            temperature: temperature.clamp(0.0, MAX_TEMPERATURE),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The temperature.
    pub fn temperature(&self) -> f64 {
        self.temperature
    }

    /// Sets the temperature (clamped to `0..=MAX_TEMPERATURE`).
    pub fn set_temperature(&mut self, temperature: f64) {
        self.temperature = temperature.clamp(0.0, MAX_TEMPERATURE);
    }

    /// Restarts the random choices from `seed`.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
}

/// The probabilities of `moves` at `temperature`: `p^(1/T)` normalised; at 0, all on
/// the most likely move (the first of the highest).
///
/// ```
/// use hastings::engine::human::tempered;
///
/// let sharp = tempered(&[0.6, 0.3, 0.1], 0.0);
/// assert_eq!(sharp, [1.0, 0.0, 0.0]);
/// let same = tempered(&[0.6, 0.3, 0.1], 1.0);
/// assert!((same[1] - 0.3).abs() < 1e-12);
/// ```
pub fn tempered(p: &[f64], temperature: f64) -> Vec<f64> {
    let best = p
        .iter()
        .enumerate()
        .fold(None, |best: Option<(usize, f64)>, (i, &x)| match best {
            Some((_, b)) if b >= x => best,
            _ => Some((i, x)),
        });
    if temperature <= 1e-6 {
        return (0..p.len())
            .map(|i| {
                if Some(i) == best.map(|b| b.0) {
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
    }
    // In logs, so small probabilities at low temperatures do not underflow to 0 / 0.
    let logs: Vec<f64> = p
        .iter()
        .map(|x| x.max(f64::MIN_POSITIVE).ln() / temperature)
        .collect();
    let max = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = logs.iter().map(|l| (l - max).exp()).collect();
    let total: f64 = weights.iter().sum();
    weights.iter().map(|w| w / total).collect()
}

/// Draws one of `moves` with the tempered probabilities.
pub fn sample_move(moves: &[PredictedMove], temperature: f64, rng: &mut impl Rng) -> Option<Move> {
    let p: Vec<f64> = moves.iter().map(|m| m.p).collect();
    let weights = tempered(&p, temperature);
    let mut left = rng.random::<f64>();
    for (m, w) in moves.iter().zip(&weights) {
        if left < *w {
            return Some(m.mv);
        }
        left -= w;
    }
    // Rounding left a sliver: the last move with any weight.
    moves
        .iter()
        .zip(&weights)
        .rev()
        .find(|(_, w)| **w > 0.0)
        .map(|(m, _)| m.mv)
}

impl Engine for HumanLike {
    fn name(&self) -> String {
        "Human-like".to_string()
    }

    // No `new_game` (it keeps nothing between moves) nor `set_strength` (its strength is
    // its temperature, set apart): the trait's defaults.

    fn search(&mut self, search: Search<'_>) -> Result<SearchResult, EngineError> {
        let game = search.game;
        let moves = self.predictor.predict(game.position());
        let best = sample_move(&moves, self.temperature, &mut self.rng);
        Ok(SearchResult {
            best,
            ..SearchResult::default()
        })
    }
}
