//! The agent of seed 003 (Klevansky, Ostroff and Offen, "Determining the Optimal Tradeoff
//! for building Chess Playing Agents: Genetically Tuned vs. Neural Features", Technion,
//! 2023; `ARCHITECTURE.md`, References): the tuned evaluation's α-β search and the move
//! predictor, blended at the root by `λ`.
//!
//! Every root move is scored by the search with the tuned evaluation; the predictor's
//! most likely move gets `λ × 3000` added ([`Bonus::Top`], the seed's definition), or,
//! as an option, every move gets `λ × 3000 × p(move)` ([`Bonus::Probability`]). The
//! move with the highest sum is played: `λ = 0` plays the evaluation's move, `λ = 1`
//! the predictor's, unless the evaluation sees it lose more than 3000 (more than a
//! queen with the seed's weights: a mate or a queen left hanging). A mate found by the
//! search always wins, as the seed wants.
//!
//! The search scores exactly every root move within `λ × 3000` of the best (the other
//! moves cannot win however much they get), so the blend costs one wider root search,
//! not one search per move. With a temperature `T > 0` the move is drawn with
//! probability `∝ exp(sum / (100 T))` among the moves scored exactly (within a further
//! `1000 T` of the best), so `T = 1` treats a pawn's worth of score as a factor `e`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::Move;

use super::Engine;
use super::Search;
use super::choice::UnknownChoice;
use super::error::EngineError;
use super::evaluation::Evaluation;
use super::game::Game;
use super::human::{MAX_TEMPERATURE, sample_move};
use super::info::{SearchInfo, SearchResult};
use super::limits::Limits;
use super::predictor::{PredictedMove, Predictor};
use super::score::{MATE_BOUND, Score};
use super::search::{Outcome, RootMove, SearchOptions, Searcher};
use super::tuned::TunedEval;

/// The score `λ = 1` adds to the predictor's move.
pub const LAMBDA_SCALE: f64 = 3000.0;

/// How the predictor's opinion enters the sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bonus {
    /// `λ × 3000` for its most likely move (the seed's blend).
    #[default]
    Top,
    /// `λ × 3000 × p` for every move.
    Probability,
}

impl std::str::FromStr for Bonus {
    type Err = UnknownChoice;

    /// `top` or `probability`.
    fn from_str(s: &str) -> Result<Bonus, UnknownChoice> {
        match s.trim().to_ascii_lowercase().as_str() {
            "top" => Ok(Bonus::Top),
            "probability" | "p" => Ok(Bonus::Probability),
            other => Err(UnknownChoice {
                setting: "the bonus is",
                choices: "top or probability",
                given: other.to_owned(),
            }),
        }
    }
}

impl std::fmt::Display for Bonus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Bonus::Top => "top",
            Bonus::Probability => "probability",
        })
    }
}

/// The blend's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlendSettings {
    /// The predictor's share, 0 to 1.
    pub lambda: f64,
    /// How the predictor's opinion is added.
    pub bonus: Bonus,
    /// 0 plays the best sum; higher samples more widely.
    pub temperature: f64,
    /// The search depth (`None`: as the limits say).
    pub depth: Option<u32>,
}

impl Default for BlendSettings {
    /// λ = 0.2 (first in the λ round robin with the shipped predictor, and the best
    /// top-move bonus at move matching: `docs/seed003.md`; the seed's best was 0.5),
    /// top-move bonus, temperature 0, depth 1.
    fn default() -> Self {
        BlendSettings {
            lambda: 0.2,
            bonus: Bonus::Top,
            temperature: 0.0,
            depth: Some(1),
        }
    }
}

impl BlendSettings {
    /// The settings with every number in range (λ in 0–1, the temperature in
    /// 0–[`MAX_TEMPERATURE`], a depth of at least 1).
    pub fn clamped(self) -> BlendSettings {
        BlendSettings {
            lambda: if self.lambda.is_finite() {
                self.lambda.clamp(0.0, 1.0)
            } else {
                0.0
            },
            temperature: if self.temperature.is_finite() {
                self.temperature.clamp(0.0, MAX_TEMPERATURE)
            } else {
                0.0
            },
            depth: self.depth.map(|d| d.max(1)),
            ..self
        }
    }
}

/// The blended engine.
#[derive(Debug)]
pub struct Blend {
    searcher: Searcher,
    predictor: Option<Arc<Predictor>>,
    settings: BlendSettings,
    rng: ChaCha8Rng,
}

impl Blend {
    /// The blend of `eval`'s search and `predictor` (which may be left out when λ stays
    /// 0); `seed` fixes the draws at a temperature.
    pub fn new(
        eval: Arc<TunedEval>,
        predictor: Option<Arc<Predictor>>,
        settings: BlendSettings,
        seed: u64,
    ) -> Blend {
        Blend {
            searcher: Searcher::with_evaluation(16, Evaluation::Tuned(eval)),
            predictor,
            settings: settings.clamped(),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The settings.
    pub fn settings(&self) -> BlendSettings {
        self.settings
    }

    /// Changes the settings.
    pub fn set_settings(&mut self, settings: BlendSettings) {
        self.settings = settings.clamped();
    }

    /// Gives the engine the predictor (when λ becomes positive).
    pub fn set_predictor(&mut self, predictor: Arc<Predictor>) {
        self.predictor = Some(predictor);
    }

    /// Restarts the draws from `seed`.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// Replaces the transposition table by one of `hash_mb` MB.
    pub fn resize_hash(&mut self, hash_mb: usize) {
        let evaluation = self.searcher.evaluation().clone();
        self.searcher = Searcher::with_evaluation(hash_mb, evaluation);
    }
}

/// One root search and one prediction, from which the blend's choice follows for any λ
/// up to the margin's.
struct RootScores {
    outcome: Outcome,
    /// The margin the search scored exactly.
    margin: i32,
    /// The root moves scored exactly (within the margin of the best), best first.
    exact: Vec<RootMove>,
    /// The predictor's distribution (empty when not asked).
    predicted: Vec<PredictedMove>,
}

impl RootScores {
    /// Each exactly scored move with its sum `score + bonus` at `lambda`, best sum
    /// first; on a tie the larger bonus, then the search's order.
    fn sums(&self, lambda: f64, bonus: Bonus) -> Vec<(RootMove, f64)> {
        let scale = lambda * LAMBDA_SCALE;
        let top = self.predicted.first().map(|p| p.mv);
        let mut sums: Vec<(RootMove, f64, f64)> = self
            .exact
            .iter()
            .map(|r| {
                let b = match bonus {
                    Bonus::Top => {
                        if top == Some(r.mv) {
                            scale
                        } else {
                            0.0
                        }
                    }
                    Bonus::Probability => {
                        self.predicted
                            .iter()
                            .find(|p| p.mv == r.mv)
                            .map_or(0.0, |p| p.p)
                            * scale
                    }
                };
                // A mate is decided by the search: no bonus moves it.
                let b = if r.score.abs() > MATE_BOUND { 0.0 } else { b };
                (*r, f64::from(r.score) + b, b)
            })
            .collect();
        sums.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.total_cmp(&a.2)));
        sums.into_iter().map(|(r, sum, _)| (r, sum)).collect()
    }
}

impl Blend {
    /// Searches the root with every move within `margin` of the best scored exactly, and
    /// asks the predictor when a bonus can count (unless its answer is given).
    fn score_root(
        &mut self,
        game: &Game,
        limits: &Limits,
        margin: i32,
        predicted: Option<&[PredictedMove]>,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> RootScores {
        let options = SearchOptions {
            max_depth: self.settings.depth,
            margin,
        };
        let outcome = self.searcher.search(game, limits, &options, stop, on_info);
        let best_score = outcome.root_moves.first().map_or(0, |r| r.score);
        let exact = outcome
            .root_moves
            .iter()
            .copied()
            .filter(|r| r.score >= best_score.saturating_sub(margin))
            .collect();
        let predicted = match (predicted, &self.predictor) {
            (_, _) if margin == 0 => Vec::new(),
            (Some(given), _) => given.to_vec(),
            (None, Some(p)) => p.predict(game.position()),
            (None, None) => Vec::new(),
        };
        RootScores {
            outcome,
            margin,
            exact,
            predicted,
        }
    }

    /// The moves the blend plays at temperature 0, from a new game, for each of
    /// `lambdas` × `bonuses` (λ-major): a search for each λ as [`Engine::search`] does
    /// (each from a cleared table), one prediction for all, so the moves are those of
    /// separate blends at a fraction of the cost (the prediction is most of it at low
    /// depth).
    pub fn sweep(
        &mut self,
        game: &Game,
        limits: &Limits,
        lambdas: &[f64],
        bonuses: &[Bonus],
    ) -> Vec<Option<Move>> {
        let predicted = match &self.predictor {
            Some(p) if lambdas.iter().any(|&l| l > 0.0) => p.predict(game.position()),
            _ => Vec::new(),
        };
        let mut out = Vec::with_capacity(lambdas.len() * bonuses.len());
        for &lambda in lambdas {
            let settings = BlendSettings {
                lambda,
                temperature: 0.0,
                ..self.settings
            }
            .clamped();
            self.searcher.clear();
            let never = AtomicBool::new(false);
            let scored = self.score_root(
                game,
                limits,
                margin(&settings),
                Some(&predicted),
                &never,
                &mut |_| {},
            );
            for &bonus in bonuses {
                let best = if scored.margin == 0 {
                    scored.outcome.best
                } else {
                    scored
                        .sums(settings.lambda, bonus)
                        .first()
                        .map(|(r, _)| r.mv)
                };
                out.push(best.or(scored.outcome.best));
            }
        }
        out
    }
}

/// The margin within which root moves need exact scores.
fn margin(settings: &BlendSettings) -> i32 {
    let bonus = settings.lambda * LAMBDA_SCALE;
    let spread = 1000.0 * settings.temperature;
    (bonus + spread).ceil() as i32
}

impl Engine for Blend {
    fn name(&self) -> String {
        format!("hastings blend (λ {})", self.settings.lambda)
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.searcher.clear();
        Ok(())
    }

    // No `set_strength`: the blend's strength is its λ, depth and temperature, set
    // apart (the trait's default ignores it).

    fn search(&mut self, search: Search<'_>) -> Result<SearchResult, EngineError> {
        let (game, limits, stop, on_info) = search.into_parts();
        let settings = self.settings;
        let scored = self.score_root(game, limits, margin(&settings), None, stop, on_info);
        let best = if scored.margin == 0 {
            // λ = 0 at temperature 0: the evaluation's move, as its search found it.
            scored.outcome.best
        } else {
            let sums = scored.sums(settings.lambda, settings.bonus);
            let top = sums.first().map_or(0.0, |s| s.1);
            let weighted: Vec<PredictedMove> = sums
                .iter()
                .map(|(r, sum)| PredictedMove {
                    mv: r.mv,
                    p: ((sum - top) / 100.0).exp(),
                })
                .collect();
            sample_move(&weighted, settings.temperature, &mut self.rng).or(scored.outcome.best)
        };
        let outcome = scored.outcome;
        let info = outcome.info.map(|mut info| {
            if let Some(r) = outcome.root_moves.iter().find(|r| Some(r.mv) == best) {
                info.score = Some(Score::from_internal(r.score));
                if best != outcome.best {
                    info.pv = best.into_iter().collect();
                }
            }
            info
        });
        let ponder = if best == outcome.best {
            outcome.pv.get(1).copied()
        } else {
            None
        };
        Ok(SearchResult { best, ponder, info })
    }
}
