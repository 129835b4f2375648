//! Personal FSRS parameters fitted to a synthetic review log.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::Arc;

use hastings::job::{Job, JobProgress};
use hastings::review::optimize::{MIN_REVIEWS, OptimizeError, optimize, training_items};
use hastings::review::{CardKey, Rating, ReviewRecord, Schedule, Scheduler, Timestamp};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Color, Position};

/// A learner whose memory lasts three times longer than FSRS's defaults assume,
/// reviewed by the default scheduler for 200 days: every card is answered when due;
/// recall is drawn from the learner's own forgetting curve (seeded).
fn synthetic_log(cards: usize) -> Vec<ReviewRecord> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let scheduler = Scheduler::default();
    let mut schedule = Schedule::default();
    let t0 = Timestamp::parse_rfc3339("2025-01-01T10:00:00Z").unwrap();
    let keys: Vec<CardKey> = {
        let pos = Chess::default();
        let mut out = Vec::new();
        for a in pos.legal_moves() {
            let mut p = pos.clone();
            p.play_unchecked(a);
            for b in p.legal_moves() {
                let mut q = p.clone();
                q.play_unchecked(b);
                out.push(CardKey::from_position(&q));
            }
        }
        out.truncate(cards);
        out
    };
    // (card, time) of the next review of each card: new cards start a day apart.
    let mut next: Vec<(usize, Timestamp)> = (0..keys.len())
        .map(|i| (i, t0.plus_days(i as i64 / 20)))
        .collect();
    let mut records = Vec::new();
    let end = t0.plus_days(200);
    while let Some(k) = (0..next.len()).min_by_key(|&k| next[k].1.unix_ms()) {
        let (card, time) = next[k];
        if time.unix_ms() > end.unix_ms() {
            break;
        }
        let state = schedule.card(Color::White, &keys[card]).cloned();
        let rating = match &state {
            None => Rating::Good,
            Some(s) => {
                let true_stability = 3.0 * s.memory.unwrap().stability;
                let r = scheduler
                    .retrievability(true_stability, time.days_since(s.last_review.unwrap()));
                if rng.random::<f64>() < r {
                    Rating::Good
                } else {
                    Rating::Again
                }
            }
        };
        let record = ReviewRecord {
            time,
            color: Color::White,
            rating,
            seconds: 2.0,
            fuzz: false,
            card: keys[card].clone(),
        };
        let after = schedule.apply(&scheduler, &record).clone();
        records.push(record);
        // Again: relearn the next day.
        let due = if rating == Rating::Again {
            time.plus_days(1)
        } else {
            after.due.unwrap()
        };
        next[k] = (card, due);
    }
    records
}

#[test]
fn too_short_a_log_is_refused() {
    let log = synthetic_log(120);
    let short = &log[..MIN_REVIEWS - 1];
    let err = optimize(short, &[], &JobProgress::new()).unwrap_err();
    assert!(
        matches!(err, OptimizeError::NotEnoughReviews { have, need: 400 } if have == 399),
        "{err}"
    );
}

#[test]
fn fitted_parameters_predict_the_learner_better_than_the_defaults() {
    let log = synthetic_log(120);
    assert!(log.len() >= MIN_REVIEWS, "{} reviews", log.len());
    assert!(training_items(&log).len() > 300);
    let job = Job::spawn("optimise", Arc::new(|| {}), move |p| optimize(&log, &[], p)).unwrap();
    let progress = Arc::clone(job.progress());
    let result = job.wait().unwrap().unwrap();
    assert_eq!(result.old, fsrs::DEFAULT_PARAMETERS.to_vec());
    assert_eq!(result.new.len(), 21);
    assert_ne!(result.new, result.old);
    assert!(
        result.new_log_loss < result.old_log_loss,
        "log-loss {} (new) vs {} (defaults)",
        result.new_log_loss,
        result.old_log_loss
    );
    // The learner remembers longer than the defaults assume: the first Good's stability grows.
    assert!(result.new[2] > result.old[2], "{:?}", result.new);
    eprintln!(
        "{} reviews, {} items: log-loss {:.4} -> {:.4}; new parameters {:?}",
        result.reviews, result.items, result.old_log_loss, result.new_log_loss, result.new
    );
    let s = progress.snapshot();
    assert!(s.total > 0 && s.done == s.total, "{s:?}");
    // The fitted parameters make a valid scheduler.
    Scheduler::new(&result.new, 0.9).unwrap();
}

#[test]
fn a_cancelled_optimisation_says_so() {
    let log = synthetic_log(120);
    let progress = JobProgress::new();
    progress.cancel();
    let err = optimize(&log, &[], &progress).unwrap_err();
    assert!(matches!(err, OptimizeError::Cancelled), "{err}");
}
