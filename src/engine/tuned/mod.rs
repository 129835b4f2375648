//! The evaluation of seed 003 (Klevansky, Ostroff and Offen, "Determining the Optimal
//! Tradeoff for building Chess Playing Agents: Genetically Tuned vs. Neural Features",
//! Technion, 2023; `ARCHITECTURE.md`, References): 37 hand-crafted features whose integer
//! weights a genetic algorithm tunes (Klevansky, Ostroff and Offen, after David, Koppel
//! and Netanyahu).
//!
//! - [`feature`]: the features as data (name, what is counted, bonus or penalty, gene
//!   width, the seed's values);
//! - `counts`: counting them for each side from bitboards ([`count_features`]);
//! - [`weights`]: the weights, their chromosome (244 bits) and their file;
//! - [`TunedEval`]: the evaluation, `Σ sign × weight × (White's count − Black's)`, the
//!   piece-square sums in tenths (weight 10 adds Michniewski's table as printed), from
//!   the side to move's point of view. The α-β search uses it through
//!   [`Evaluation::Tuned`](crate::engine::evaluation::Evaluation).
//!
//! Its unit is the pawn's 100, but the other weights are free, so a score is not in
//! centipawns unless the weights say so (the seed's knight is worth 1339).
//!
//! The checkmate feature scores a position whose side to move is mated. Inside a search
//! a mate is scored by the search itself (a mate is found before the evaluation is
//! asked, and beats every evaluation), so the gene only matters when a mated position
//! is evaluated alone.
//!
//! ```
//! use hastings::engine::tuned::{TunedEval, Weights};
//! use shakmaty::Chess;
//!
//! let eval = TunedEval::new(Weights::seed_coevolved());
//! // The start position is symmetric.
//! assert_eq!(eval.evaluate(&Chess::default()), 0);
//! ```

mod counts;
pub mod feature;
pub mod weights;

use std::sync::{Arc, OnceLock};

use shakmaty::{Chess, Color, Position, Role};

pub use counts::{ENDGAME_PHASE, count_features};
pub use feature::{FEATURES, Feature, FeatureInfo, PerFeature};
pub use weights::{PAWN, Weights, WeightsError, WeightsFile};

/// The largest score the evaluation gives, so that it stays clear of mate scores.
pub const LIMIT: i32 = 30_000;

/// The weights shipped in `assets/eval/seed003.ron` (see `assets/README.md` for the
/// command that made them).
pub const SHIPPED: &str = include_str!("../../../assets/eval/seed003.ron");

/// The evaluation with a set of weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TunedEval {
    weights: Weights,
    /// Sign × weight, ×10 for the features that are not tables (the sum is in tenths).
    factors: [i32; FEATURES],
}

impl TunedEval {
    /// The evaluation with `weights`.
    pub fn new(weights: Weights) -> TunedEval {
        let factors = Feature::ALL.map(|f| {
            let w = f.info().sign * weights.get(f);
            if f.is_table() { w } else { 10 * w }
        });
        TunedEval { weights, factors }
    }

    /// The shipped tuned weights' evaluation, read once.
    ///
    /// # Errors
    ///
    /// [`WeightsError`] if the shipped file is broken (a test proves it is not).
    pub fn shipped() -> Result<Arc<TunedEval>, WeightsError> {
        static SHARED: OnceLock<Result<Arc<TunedEval>, WeightsError>> = OnceLock::new();
        SHARED
            .get_or_init(|| Weights::from_ron(SHIPPED).map(|(w, _)| Arc::new(TunedEval::new(w))))
            .clone()
    }

    /// Its weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The score from White's point of view, within ±[`LIMIT`].
    pub fn white_score(&self, pos: &Chess) -> i32 {
        let counts = count_features(pos);
        let mut tenths: i64 = 0;
        for ((factor, w), b) in self
            .factors
            .iter()
            .zip(counts.white.0.iter())
            .zip(counts.black.0.iter())
        {
            tenths += i64::from(*factor) * i64::from(w - b);
        }
        let score = (tenths / 10).clamp(i64::from(-LIMIT), i64::from(LIMIT));
        i32::try_from(score).unwrap_or(0)
    }

    /// The score from the side to move's point of view.
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        let white = self.white_score(pos);
        match pos.turn() {
            Color::White => white,
            Color::Black => -white,
        }
    }

    /// What a piece is worth to it (for the search's delta pruning).
    pub fn piece_value(&self, role: Role) -> i32 {
        match role {
            Role::Pawn => PAWN,
            Role::Knight => self.weights.get(Feature::Knight),
            Role::Bishop => self.weights.get(Feature::Bishop),
            Role::Rook => self.weights.get(Feature::Rook),
            Role::Queen => self.weights.get(Feature::Queen),
            Role::King => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_weights_load() {
        let (w, file) = Weights::from_ron(SHIPPED).unwrap();
        assert!(
            !file.made_by.is_empty(),
            "the shipped file says how it was made"
        );
        assert_eq!(TunedEval::shipped().unwrap().weights(), &w);
    }
}
