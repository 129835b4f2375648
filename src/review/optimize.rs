//! Personal parameters: fit FSRS-6 to the learner's own review log (the `fsrs` crate's
//! optimiser), and compare the log-loss of the old and the new parameters.

use std::sync::Arc;
use std::time::Duration;

use fsrs::{CombinedProgressState, ComputeParametersInput, FSRS, FSRSItem, FSRSReview};
use rustc_hash::FxHashMap;
use shakmaty::Color;
use thiserror::Error;

use super::card::CardKey;
use super::log::ReviewRecord;
use crate::job::JobProgress;

/// The fewest reviews the optimiser accepts.
pub const MIN_REVIEWS: usize = 400;

/// Why no parameters were fitted.
#[derive(Debug, Error)]
pub enum OptimizeError {
    /// The log is too short.
    #[error("{have} reviews in the log; optimising needs at least {need}")]
    NotEnoughReviews {
        /// Reviews in the log.
        have: usize,
        /// Reviews needed.
        need: usize,
    },
    /// The reviews span too few days to learn from (no card was reviewed on two days).
    #[error("no card was reviewed on two different days yet")]
    NoLongTermReviews,
    /// The learner cancelled.
    #[error("optimising was cancelled")]
    Cancelled,
    /// The fsrs crate failed.
    #[error("the FSRS optimiser failed: {0}")]
    Fsrs(String),
}

/// Old and new parameters and how well each predicts the log.
#[derive(Clone, Debug, PartialEq)]
pub struct Optimized {
    /// The parameters before.
    pub old: Vec<f32>,
    /// The fitted parameters.
    pub new: Vec<f32>,
    /// Log-loss of the old parameters on the log (lower is better).
    pub old_log_loss: f32,
    /// Log-loss of the new parameters on the log.
    pub new_log_loss: f32,
    /// Reviews in the log.
    pub reviews: usize,
    /// Training items (reviews on a later day than the card's previous review).
    pub items: usize,
}

/// The log as fsrs training items: per card, one item per review that came on a later
/// day than the card's previous one, holding the card's history up to it (elapsed days
/// counted in the learner's days).
pub fn training_items(records: &[ReviewRecord]) -> Vec<FSRSItem> {
    let mut histories: FxHashMap<(Color, &CardKey), Vec<&ReviewRecord>> = FxHashMap::default();
    let mut order: Vec<(Color, &CardKey)> = Vec::new();
    for r in records {
        let key = (r.color, &r.card);
        histories
            .entry(key)
            .or_insert_with(|| {
                order.push(key);
                Vec::new()
            })
            .push(r);
    }
    let mut items = Vec::new();
    for key in order {
        let Some(history) = histories.get(&key) else {
            continue;
        };
        let mut reviews = Vec::with_capacity(history.len());
        let mut last_day = None;
        for r in history {
            let day = r.time.day();
            let delta = last_day.map_or(0, |d: i64| (day - d).max(0));
            last_day = Some(day);
            reviews.push(FSRSReview {
                rating: r.rating.number(),
                delta_t: u32::try_from(delta).unwrap_or(u32::MAX),
            });
            if delta > 0 {
                items.push(FSRSItem {
                    reviews: reviews.clone(),
                });
            }
        }
    }
    items
}

/// Fits FSRS parameters to `records`, starting from `current` (empty for the defaults),
/// reporting progress on `progress` and stopping when it is cancelled.
///
/// # Errors
///
/// [`OptimizeError`] when the log has fewer than [`MIN_REVIEWS`] reviews or no
/// long-term review, when cancelled, or when fsrs fails.
pub fn optimize(
    records: &[ReviewRecord],
    current: &[f32],
    progress: &JobProgress,
) -> Result<Optimized, OptimizeError> {
    if records.len() < MIN_REVIEWS {
        return Err(OptimizeError::NotEnoughReviews {
            have: records.len(),
            need: MIN_REVIEWS,
        });
    }
    let items = training_items(records);
    if items.is_empty() {
        return Err(OptimizeError::NoLongTermReviews);
    }
    let fsrs_err = |e: fsrs::FSRSError| match e {
        fsrs::FSRSError::Interrupted => OptimizeError::Cancelled,
        other => OptimizeError::Fsrs(other.to_string()),
    };
    let old = fsrs::check_and_fill_parameters(current).map_err(fsrs_err)?;
    // Three stages, in units of items: evaluate the old parameters, train, evaluate the new.
    let n = items.len() as u64;
    progress.set_total(n * 7);
    let not_cancelled = |_| !progress.is_cancelled();
    let old_log_loss = FSRS::new(&old)
        .map_err(fsrs_err)?
        .evaluate(items.clone(), not_cancelled)
        .map_err(fsrs_err)?
        .log_loss;
    progress.advance(n);

    let shared = CombinedProgressState::new_shared();
    let input = ComputeParametersInput {
        train_set: items.clone(),
        progress: Some(Arc::clone(&shared)),
        ..ComputeParametersInput::default()
    };
    let new = std::thread::scope(|scope| {
        let worker = scope.spawn(move || fsrs::compute_parameters(input));
        let mut shown = 0u64;
        while !worker.is_finished() {
            std::thread::sleep(Duration::from_millis(20));
            if let Ok(mut state) = shared.lock() {
                if progress.is_cancelled() {
                    state.want_abort = true;
                }
                let total = state.total().max(1) as u64;
                let done = (state.current() as u64 * n * 5 / total).min(n * 5);
                if done > shown {
                    progress.advance(done - shown);
                    shown = done;
                }
            }
        }
        let result = worker
            .join()
            .map_err(|_| OptimizeError::Fsrs("the optimiser thread panicked".to_owned()))?;
        progress.advance((n * 5).saturating_sub(shown));
        result.map_err(fsrs_err)
    })?;
    if progress.is_cancelled() {
        return Err(OptimizeError::Cancelled);
    }
    let new_log_loss = FSRS::new(&new)
        .map_err(fsrs_err)?
        .evaluate(items.clone(), not_cancelled)
        .map_err(fsrs_err)?
        .log_loss;
    progress.advance(n);
    Ok(Optimized {
        old,
        new,
        old_log_loss,
        new_log_loss,
        reviews: records.len(),
        items: items.len(),
    })
}
