//! The human-like model's temperature fitted to an explorer's games of one band (or one
//! player): the positions the games reach are walked from the start ([`band_positions`]),
//! the predictor gives each its distribution once ([`score_positions`]), and the
//! temperature `T` of `softmax(logits / T)` that gives the games' moves the highest
//! likelihood is found by a 1-D search ([`fit_temperature`]). The mean log-likelihood
//! is concave in `1/T` (a log-sum-exp minus a linear term), so a golden-section search
//! over it finds the one maximum.
//!
//! [`fit_band`] fits on part of the positions and measures on the rest (those whose key
//! is a multiple of 3: a fixed split): the share of the games' moves that are the
//! model's top choice and the mean log-likelihood of the games' moves, at the fitted
//! temperature and at the default one.

use std::collections::{HashSet, VecDeque};

use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, Position};
use thiserror::Error;

use crate::book::explorer::ExplorerCounts;
use crate::book::polyglot::key;
use crate::engine::human::{DEFAULT_TEMPERATURE, MAX_TEMPERATURE, tempered};
use crate::engine::predictor::{Predictor, Scratch};
use crate::job::JobProgress;

/// The lowest temperature the fit considers.
pub const MIN_FIT_TEMPERATURE: f64 = 0.05;

/// The most positions a fit walks by default.
pub const DEFAULT_FIT_POSITIONS: usize = 3000;

/// Positions scored in one forward pass.
const BATCH: usize = 64;

/// Why a temperature could not be fitted.
#[derive(Debug, Error, PartialEq)]
pub enum FitError {
    /// No position of the games has a move to fit to.
    #[error("{whose} {} no game in this explorer to fit the temperature to", super::have(.whose))]
    NoGames {
        /// Whose games.
        whose: String,
    },
    /// The move predictor's weights cannot be read (a build bug).
    #[error("the move predictor cannot be loaded: {0}")]
    Predictor(String),
    /// The fit was cancelled.
    #[error("the fit was cancelled")]
    Cancelled,
}

/// A position the games reach and the moves they played there, with their games.
#[derive(Debug, Clone, PartialEq)]
pub struct BandPosition {
    /// The position.
    pub position: Chess,
    /// The moves played, with their games.
    pub moves: Vec<(Move, u64)>,
}

/// The positions of `counts`' games, from the start, nearest first: each reached by a
/// move with at least `min_games` games, at most `max_positions` of them (each
/// position once, transpositions merged). Stops early, with what it has, when
/// `progress` is cancelled.
pub fn band_positions(
    counts: &dyn ExplorerCounts,
    min_games: u64,
    max_positions: usize,
    progress: &JobProgress,
) -> Vec<BandPosition> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([Chess::default()]);
    seen.insert(key(&Chess::default()));
    while let Some(pos) = queue.pop_front() {
        if out.len() >= max_positions || progress.is_cancelled() {
            break;
        }
        let stats = counts.stats_at(&pos);
        let moves: Vec<(Move, u64)> = stats
            .moves
            .iter()
            .filter(|m| m.games() > 0)
            .filter_map(|m| Some((m.raw_move.to_move(&pos).ok()?, m.games())))
            .collect();
        if moves.is_empty() {
            continue;
        }
        for (mv, n) in &moves {
            if *n < min_games.max(1) {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(*mv);
            if seen.insert(key(&next)) {
                queue.push_back(next);
            }
        }
        out.push(BandPosition {
            position: pos,
            moves,
        });
    }
    out
}

/// A position's distribution from the predictor and the games of each of its moves.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredPosition {
    /// The predictor's probabilities (at temperature 1), most likely first.
    pub probs: Vec<f64>,
    /// The games that played each move of `probs`.
    pub games: Vec<u64>,
}

impl ScoredPosition {
    /// The games at the position.
    pub fn total(&self) -> u64 {
        self.games.iter().sum()
    }
}

/// The predictor's distributions at `positions` (in batches), each with the games of
/// its moves; advances `progress` by one a position. `None` when cancelled.
pub fn score_positions(
    predictor: &Predictor,
    positions: &[BandPosition],
    progress: &JobProgress,
) -> Option<Vec<ScoredPosition>> {
    let mut scratch = Scratch::default();
    let mut out = Vec::with_capacity(positions.len());
    for chunk in positions.chunks(BATCH) {
        if progress.is_cancelled() {
            return None;
        }
        let boards: Vec<Chess> = chunk.iter().map(|p| p.position.clone()).collect();
        for (band, predicted) in chunk
            .iter()
            .zip(predictor.predict_batch(&boards, &mut scratch))
        {
            let games = predicted
                .iter()
                .map(|p| {
                    band.moves
                        .iter()
                        .find(|(mv, _)| *mv == p.mv)
                        .map_or(0, |(_, n)| *n)
                })
                .collect();
            out.push(ScoredPosition {
                probs: predicted.iter().map(|p| p.p).collect(),
                games,
            });
        }
        progress.advance(chunk.len() as u64);
    }
    Some(out)
}

/// The mean log-likelihood (natural log, per game move) of the games' moves under the
/// model at `temperature`; 0 without games.
pub fn mean_log_likelihood(scored: &[ScoredPosition], temperature: f64) -> f64 {
    let mut sum = 0.0;
    let mut games = 0u64;
    for s in scored {
        let q = tempered(&s.probs, temperature);
        for (q, &n) in q.iter().zip(&s.games) {
            if n > 0 {
                sum += n as f64 * q.max(f64::MIN_POSITIVE).ln();
                games += n;
            }
        }
    }
    if games == 0 { 0.0 } else { sum / games as f64 }
}

/// The share of the games' moves that are the model's top choice (the same at every
/// temperature above 0).
pub fn top_choice_share(scored: &[ScoredPosition]) -> f64 {
    let games: u64 = scored.iter().map(ScoredPosition::total).sum();
    let top: u64 = scored.iter().filter_map(|s| s.games.first()).sum();
    if games == 0 {
        0.0
    } else {
        top as f64 / games as f64
    }
}

/// The temperature that maximises [`mean_log_likelihood`], between
/// [`MIN_FIT_TEMPERATURE`] and [`MAX_TEMPERATURE`]: a golden-section search over
/// `ln(1/T)`, where the likelihood has one maximum.
pub fn fit_temperature(scored: &[ScoredPosition]) -> f64 {
    let f = |log_beta: f64| mean_log_likelihood(scored, (-log_beta).exp());
    let (mut lo, mut hi) = (
        (1.0 / MAX_TEMPERATURE).ln(),
        (1.0 / MIN_FIT_TEMPERATURE).ln(),
    );
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..60 {
        if fa < fb {
            lo = a;
            a = b;
            fa = fb;
            b = lo + ratio * (hi - lo);
            fb = f(b);
        } else {
            hi = b;
            b = a;
            fb = fa;
            a = hi - ratio * (hi - lo);
            fa = f(a);
        }
    }
    (-(lo + hi) / 2.0).exp()
}

/// A fitted temperature and how well it predicts the games it was not fitted to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BandFit {
    /// The fitted temperature.
    pub temperature: f64,
    /// The positions fitted on.
    pub fit_positions: usize,
    /// The game moves fitted on.
    pub fit_moves: u64,
    /// The positions measured on (held out of the fit).
    pub held_out_positions: usize,
    /// The game moves measured on.
    pub held_out_moves: u64,
    /// The share of the held-out moves that are the model's top choice.
    pub top_choice: f64,
    /// The mean log-likelihood of the held-out moves at the fitted temperature.
    pub log_likelihood: f64,
    /// The same at the default temperature.
    pub default_log_likelihood: f64,
}

/// Fits on `fit` and measures on `held_out`.
pub fn fit_and_measure(fit: &[ScoredPosition], held_out: &[ScoredPosition]) -> BandFit {
    let temperature = fit_temperature(fit);
    let moves = |s: &[ScoredPosition]| s.iter().map(ScoredPosition::total).sum();
    BandFit {
        temperature,
        fit_positions: fit.len(),
        fit_moves: moves(fit),
        held_out_positions: held_out.len(),
        held_out_moves: moves(held_out),
        top_choice: top_choice_share(held_out),
        log_likelihood: mean_log_likelihood(held_out, temperature),
        default_log_likelihood: mean_log_likelihood(held_out, DEFAULT_TEMPERATURE),
    }
}

/// Whether a position is held out of the fit, to measure on (a third of them, by key).
pub fn is_held_out(pos: &Chess) -> bool {
    key(pos).is_multiple_of(3)
}

/// Walks and scores the positions of `counts` (`whose`: whose games, for the error).
///
/// # Errors
///
/// [`FitError::Cancelled`] when `progress` is cancelled.
pub fn scored_positions(
    counts: &dyn ExplorerCounts,
    predictor: &Predictor,
    max_positions: usize,
    progress: &JobProgress,
) -> Result<(Vec<BandPosition>, Vec<ScoredPosition>), FitError> {
    let positions = band_positions(counts, 1, max_positions, progress);
    progress.set_total(positions.len() as u64);
    let scored = score_positions(predictor, &positions, progress).ok_or(FitError::Cancelled)?;
    Ok((positions, scored))
}

/// The temperature fitted to `counts`' games (`whose` they are, for the error): fitted
/// on two thirds of at most `max_positions` positions, measured on the rest (when
/// there are too few to split, on the same ones).
///
/// # Errors
///
/// [`FitError::NoGames`] when no game is there to fit to, [`FitError::Cancelled`] when `progress` is cancelled.
pub fn fit_band(
    counts: &dyn ExplorerCounts,
    whose: &str,
    predictor: &Predictor,
    max_positions: usize,
    progress: &JobProgress,
) -> Result<BandFit, FitError> {
    let (positions, scored) = scored_positions(counts, predictor, max_positions, progress)?;
    let (mut fit, mut held_out) = (Vec::new(), Vec::new());
    for (p, s) in positions.iter().zip(scored) {
        if is_held_out(&p.position) {
            held_out.push(s);
        } else {
            fit.push(s);
        }
    }
    if fit.is_empty() && held_out.is_empty() {
        return Err(FitError::NoGames {
            whose: whose.to_owned(),
        });
    }
    // Too few positions to split: fitted and measured on the same ones (the counts say).
    if fit.is_empty() {
        fit.clone_from(&held_out);
    } else if held_out.is_empty() {
        held_out.clone_from(&fit);
    }
    Ok(fit_and_measure(&fit, &held_out))
}
