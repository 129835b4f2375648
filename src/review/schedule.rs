//! Card states and the FSRS-6 scheduler (the `fsrs` crate), replayed from the log.
//!
//! - A new card answered right graduates at once: Good gives FSRS's first interval
//!   (2 days with the default parameters); there are no learning steps.
//! - Again makes the card due at once (the same day): the drill brings it back later in
//!   the same session. Again on a card that had been recalled before counts a lapse.
//! - Intervals are whole days, at least 1 (`round(interval)`), and are fuzzed as py-fsrs
//!   and Anki fuzz them when the review asks for it. The fuzz is drawn from a generator
//!   seeded by the card and the time of the review, so replaying the log gives the same
//!   due dates every time.
//! - Elapsed time is counted in the learner's days ([`Timestamp::day`]): two reviews on
//!   the same day are a short-term review in FSRS-6.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use fsrs::{FSRS, FSRSItem, FSRSReview, MemoryState};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::Color;
use thiserror::Error;

use super::card::{CardKey, Rating};
use super::log::ReviewRecord;
use super::time::Timestamp;

/// The default desired retention: the probability of recall at which a card falls due.
pub const DEFAULT_RETENTION: f32 = 0.9;

/// The longest interval, in days (100 years, as py-fsrs).
pub const MAX_INTERVAL_DAYS: i64 = 36_500;

/// FSRS parameters that the `fsrs` crate refused.
#[derive(Debug, Error)]
pub enum ScheduleError {
    /// The parameters are not 0, 17, 19 or 21 finite numbers.
    #[error("invalid FSRS parameters ({count} numbers): {reason}")]
    Parameters {
        /// How many numbers were given.
        count: usize,
        /// What fsrs said.
        reason: String,
    },
    /// The desired retention is outside 0.7–0.99.
    #[error("desired retention {0} is outside 0.70–0.99")]
    Retention(f32),
}

/// The FSRS-6 scheduler with the learner's parameters and desired retention.
#[derive(Clone, Debug)]
pub struct Scheduler {
    fsrs: FSRS,
    parameters: [f32; 21],
    retention: f32,
    /// `0.9^(−1/decay) − 1`, the forgetting curve's factor.
    factor: f64,
}

/// The factor of FSRS-6's forgetting curve `R(t) = (1 + factor · t / S)^(−decay)`,
/// chosen so that `R(S) = 0.9`.
fn curve_factor(decay: f32) -> f64 {
    0.9f64.powf(-1.0 / f64::from(decay)) - 1.0
}

impl Default for Scheduler {
    /// The default FSRS-6 parameters and a desired retention of 0.9.
    fn default() -> Scheduler {
        Scheduler {
            fsrs: FSRS::default(),
            parameters: fsrs::DEFAULT_PARAMETERS,
            retention: DEFAULT_RETENTION,
            factor: curve_factor(fsrs::DEFAULT_PARAMETERS[20]),
        }
    }
}

impl Scheduler {
    /// A scheduler with `parameters` (empty for the defaults; 17 or 19 numbers of older
    /// FSRS versions are filled up as the `fsrs` crate does) and `retention`.
    ///
    /// # Errors
    ///
    /// [`ScheduleError`] when fsrs refuses the parameters or the retention is outside
    /// 0.70–0.99.
    pub fn new(parameters: &[f32], retention: f32) -> Result<Scheduler, ScheduleError> {
        if !(0.7..=0.99).contains(&retention) {
            return Err(ScheduleError::Retention(retention));
        }
        let bad = |reason: String| ScheduleError::Parameters {
            count: parameters.len(),
            reason,
        };
        if parameters.iter().any(|p| !p.is_finite()) {
            return Err(bad("not a finite number".to_owned()));
        }
        let filled = fsrs::check_and_fill_parameters(parameters).map_err(|e| bad(e.to_string()))?;
        let fsrs = FSRS::new(&filled).map_err(|e| bad(e.to_string()))?;
        let parameters: [f32; 21] = filled
            .try_into()
            .map_err(|v: Vec<f32>| bad(format!("{} numbers after filling", v.len())))?;
        Ok(Scheduler {
            fsrs,
            factor: curve_factor(parameters[20]),
            parameters,
            retention,
        })
    }

    /// The 21 FSRS-6 parameters.
    pub fn parameters(&self) -> &[f32; 21] {
        &self.parameters
    }

    /// The desired retention.
    pub fn retention(&self) -> f32 {
        self.retention
    }

    /// The forgetting curve's decay (parameter 20).
    pub fn decay(&self) -> f32 {
        self.parameters[20]
    }

    /// The probability of recalling a card with `stability` after `days`: FSRS-6's
    /// forgetting curve (as `fsrs::current_retrievability`, in f64 with its factor
    /// computed once).
    pub fn retrievability(&self, stability: f32, days: f64) -> f64 {
        let s = f64::from(stability.max(fsrs_min_stability()));
        (1.0 + self.factor * days.max(0.0) / s).powf(-f64::from(self.decay()))
    }

    /// The card's state after `review`, from its state before (`None` for a new card).
    pub fn review(&self, before: Option<&CardState>, review: &ReviewRecord) -> CardState {
        let memory = before.and_then(|c| c.memory);
        let elapsed = match before.and_then(|c| c.last_review) {
            Some(last) => {
                u32::try_from((review.time.day() - last.day()).max(0)).unwrap_or(u32::MAX)
            }
            None => 0,
        };
        let fallback = MemoryState {
            stability: 0.1,
            difficulty: 5.0,
        };
        // One FSRS step from the state before (fsrs's `memory_state` of a one-review
        // history; the same step `next_states` takes for each of the four ratings).
        let item = FSRSItem {
            reviews: vec![FSRSReview {
                rating: review.rating.number(),
                delta_t: elapsed,
            }],
        };
        let next = self.fsrs.memory_state(item, memory.map(to_fsrs)).map(|m| {
            let interval =
                self.fsrs
                    .next_interval(Some(m.stability), self.retention, review.rating.number());
            (m, interval)
        });
        let (state, interval) = match next {
            Ok(s) => s,
            // fsrs refuses only non-finite states; keep the card schedulable.
            Err(_) => (memory.map(to_fsrs).unwrap_or(fallback), 1.0),
        };
        let mut days = (interval.round() as i64).clamp(1, MAX_INTERVAL_DAYS);
        if review.fuzz {
            days = fuzzed_interval(f64::from(interval), &review.card, review.time).max(1);
        }
        let due = if review.rating == Rating::Again {
            review.time
        } else {
            review.time.plus_days(days)
        };
        let recalled_before = before.is_some_and(|c| c.last_rating.is_some_and(Rating::is_pass));
        CardState {
            memory: Some(Memory {
                stability: state.stability,
                difficulty: state.difficulty,
            }),
            last_review: Some(review.time),
            first_review: Some(before.and_then(|c| c.first_review).unwrap_or(review.time)),
            due: Some(due),
            reps: before.map_or(0, |c| c.reps) + 1,
            lapses: before.map_or(0, |c| c.lapses)
                + u32::from(review.rating == Rating::Again && recalled_before),
            last_rating: Some(review.rating),
            interval_days: if review.rating == Rating::Again {
                0
            } else {
                days
            },
        }
    }
}

/// The smallest stability fsrs uses.
fn fsrs_min_stability() -> f32 {
    0.001
}

fn to_fsrs(m: Memory) -> MemoryState {
    MemoryState {
        stability: m.stability,
        difficulty: m.difficulty,
    }
}

/// A card's memory in FSRS terms.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Memory {
    /// Days until the probability of recall falls to 90%.
    pub stability: f32,
    /// 1 (easy) to 10 (hard).
    pub difficulty: f32,
}

/// What the log says about one card.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CardState {
    /// The memory state; `None` while the card is new.
    pub memory: Option<Memory>,
    /// The last review.
    pub last_review: Option<Timestamp>,
    /// The first review (when the card was learned).
    pub first_review: Option<Timestamp>,
    /// When the card is due.
    pub due: Option<Timestamp>,
    /// Reviews so far.
    pub reps: u32,
    /// Times the card was forgotten after it had been recalled.
    pub lapses: u32,
    /// The last grade.
    pub last_rating: Option<Rating>,
    /// The interval the last review scheduled, in days (0 after Again).
    pub interval_days: i64,
}

impl CardState {
    /// Whether the card was never reviewed.
    pub fn is_new(&self) -> bool {
        self.reps == 0
    }

    /// Whether the card is due on the learner's day of `now` (or earlier).
    pub fn is_due(&self, now: Timestamp) -> bool {
        self.due
            .is_some_and(|d| d.with_offset(now.offset_minutes()).day() <= now.day())
    }

    /// The probability of recall at `now` (1 right after a review; 0 for a new card).
    pub fn retrievability(&self, scheduler: &Scheduler, now: Timestamp) -> f64 {
        match (self.memory, self.last_review) {
            (Some(m), Some(last)) => scheduler.retrievability(m.stability, now.days_since(last)),
            _ => 0.0,
        }
    }
}

/// The interval py-fsrs and Anki would choose with fuzz on: a whole number of days drawn
/// uniformly from a range around `interval` (±15% from 2.5 to 7 days, ±10% to 20, ±5%
/// beyond, plus a day), never below 2 days. Intervals under 2.5 days are not fuzzed.
fn fuzzed_interval(interval: f64, card: &CardKey, time: Timestamp) -> i64 {
    let rounded = (interval.round() as i64).clamp(1, MAX_INTERVAL_DAYS);
    if interval < 2.5 {
        return rounded;
    }
    let ranges = [
        (2.5, 7.0, 0.15),
        (7.0, 20.0, 0.1),
        (20.0, f64::INFINITY, 0.05),
    ];
    let delta = 1.0
        + ranges
            .iter()
            .map(|(start, end, factor)| factor * (interval.min(*end) - start).max(0.0))
            .sum::<f64>();
    let max = ((interval + delta).round() as i64).min(MAX_INTERVAL_DAYS);
    let min = ((interval - delta).round() as i64).max(2).min(max);
    let mut rng = ChaCha8Rng::seed_from_u64(fnv1a(card.as_str().as_bytes(), time.unix_ms()));
    rng.random_range(min..=max)
}

/// FNV-1a over `bytes` and `extra`: a hash fixed by its definition (never a library's
/// hash, which may change between versions and would move replayed due dates).
fn fnv1a(bytes: &[u8], extra: i64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes.iter().chain(&extra.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn side(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The states of every card in the log, and the counts the progress view needs.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    /// Per learner colour (white first), the states by card.
    cards: [FxHashMap<CardKey, CardState>; 2],
    /// Per learner colour and day: cards seen for the first time.
    new_per_day: BTreeMap<(usize, i64), u32>,
    /// Reviews of cards that had been reviewed on an earlier day: (all, recalled).
    retention_counts: (u32, u32),
    reviews: usize,
}

impl Schedule {
    /// The states after replaying `records` in order through `scheduler`.
    pub fn replay<'a>(
        scheduler: &Scheduler,
        records: impl IntoIterator<Item = &'a ReviewRecord>,
    ) -> Schedule {
        let mut s = Schedule::default();
        for r in records {
            s.apply(scheduler, r);
        }
        s
    }

    /// Applies one review and returns the card's new state.
    pub fn apply(&mut self, scheduler: &Scheduler, review: &ReviewRecord) -> &CardState {
        let cards = &mut self.cards[side(review.color)];
        let before = cards.get(&review.card);
        match before.and_then(|c| c.last_review) {
            None => {
                *self
                    .new_per_day
                    .entry((side(review.color), review.time.day()))
                    .or_default() += 1
            }
            Some(last) if last.day() < review.time.day() => {
                self.retention_counts.0 += 1;
                self.retention_counts.1 += u32::from(review.rating.is_pass());
            }
            Some(_) => {}
        }
        let after = scheduler.review(before, review);
        self.reviews += 1;
        let slot = cards.entry(review.card.clone()).or_default();
        *slot = after;
        slot
    }

    /// The state of a card (`None` if it was never reviewed).
    pub fn card(&self, color: Color, key: &CardKey) -> Option<&CardState> {
        self.cards[side(color)].get(key)
    }

    /// Every reviewed card of `color`, in no particular order.
    pub fn cards(&self, color: Color) -> impl Iterator<Item = (&CardKey, &CardState)> {
        self.cards[side(color)].iter()
    }

    /// Reviews replayed.
    pub fn review_count(&self) -> usize {
        self.reviews
    }

    /// Cards of `color` seen for the first time on the learner's day `day`.
    pub fn new_on_day(&self, color: Color, day: i64) -> u32 {
        self.new_per_day
            .get(&(side(color), day))
            .copied()
            .unwrap_or(0)
    }

    /// Measured retention: the share of reviews on a later day than the card's previous
    /// review that were recalled, and how many such reviews there were.
    pub fn measured_retention(&self) -> (Option<f64>, u32) {
        let (all, recalled) = self.retention_counts;
        ((all > 0).then(|| f64::from(recalled) / f64::from(all)), all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retrievability_is_fsrs_forgetting_curve() {
        let s = Scheduler::default();
        for (stability, days) in [(2.3065f32, 0.0), (2.3065, 2.3065), (10.0, 3.5), (0.2, 40.0)] {
            let theirs = fsrs::current_retrievability(
                MemoryState {
                    stability,
                    difficulty: 5.0,
                },
                days as f32,
                s.decay(),
            );
            let ours = s.retrievability(stability, days);
            assert!(
                (ours - f64::from(theirs)).abs() < 1e-5,
                "{stability} {days}: {ours} vs {theirs}"
            );
        }
        assert!((s.retrievability(7.0, 7.0) - 0.9).abs() < 1e-9);
    }
}
