//! Coverage goals people can read: presets from "Basic" to "Bulletproof", each the
//! share of games below which a position need not be covered ("1 in 75 games" … "1 in
//! 400 games"), with how many of the learner's positions each needs, how many the
//! repertoire covers, and an estimate of the study time at the learner's pace.
//!
//! A position is **needed** by a goal when the learner is to move there, before the
//! depth limit, a drill reaches it at least as often as the goal's share, and the drill
//! goes on there: the repertoire has a move (it is **covered**) or the theory has one
//! (it is a gap, **missing**). Counts are summed per position over every path and ply,
//! as the gaps are ([`Exposure::gaps`]).

use rustc_hash::FxHashMap;

use super::Exposure;
use super::expand::Outcome;
use crate::book::NodeKey;

/// A coverage goal: its name and the share of games it covers down to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Goal {
    /// Its name ("Basic", …, "Bulletproof").
    pub name: &'static str,
    /// Positions met in at least 1 game in this many are covered.
    pub one_in: u32,
}

impl Goal {
    /// The share of games, as a probability (1 / `one_in`).
    pub fn threshold(self) -> f64 {
        1.0 / f64::from(self.one_in)
    }

    /// The share of games in percent, as the Coverage tab's threshold keeps it.
    pub fn percent(self) -> f64 {
        100.0 / f64::from(self.one_in)
    }

    /// The goal whose threshold is `percent` (within rounding), if one is.
    pub fn of_percent(percent: f64) -> Option<Goal> {
        GOALS
            .into_iter()
            .find(|g| (g.percent() - percent).abs() < 1e-6)
    }
}

/// The presets, from the fewest positions to the most.
pub const GOALS: [Goal; 4] = [
    Goal {
        name: "Basic",
        one_in: 75,
    },
    Goal {
        name: "Solid",
        one_in: 150,
    },
    Goal {
        name: "Strong",
        one_in: 250,
    },
    Goal {
        name: "Bulletproof",
        one_in: 400,
    },
];

/// Reviews a new position takes in its first weeks before it is known (FSRS's first
/// intervals at the default parameters: a day, a few days, a week or two, a month).
pub const REVIEWS_TO_LEARN: u32 = 5;

/// Seconds an answer takes when the review log has none to go by.
pub const DEFAULT_SECONDS_PER_ANSWER: f64 = 10.0;

/// What a goal asks of the repertoire.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoalCount {
    /// The goal.
    pub goal: Goal,
    /// The learner's positions it needs.
    pub needed: usize,
    /// Those the repertoire has a move for.
    pub covered: usize,
}

impl GoalCount {
    /// The needed positions the repertoire has no move for (gaps).
    pub fn missing(&self) -> usize {
        self.needed - self.covered
    }

    /// Whether the repertoire covers every position the goal needs.
    pub fn reached(&self) -> bool {
        self.missing() == 0
    }

    /// Minutes of answers to learn every needed position from scratch:
    /// [`REVIEWS_TO_LEARN`] answers each at `seconds_per_answer`.
    pub fn study_minutes(&self, seconds_per_answer: f64) -> f64 {
        self.needed as f64 * f64::from(REVIEWS_TO_LEARN) * seconds_per_answer / 60.0
    }
}

impl Exposure {
    /// What `goal` asks of the repertoire: its needed positions (the learner's, within
    /// the depth, reached at least as often as the goal's share, where the drill goes
    /// on) and those covered; exact when the exposure's minimum mass is below the
    /// goal's share.
    pub fn goal_count(&self, goal: Goal) -> GoalCount {
        let depth = self.options.depth as usize;
        let learner = self.options.learner;
        // Per position: its reach, and whether the repertoire has a move there.
        let mut positions: FxHashMap<NodeKey, (f64, bool)> = FxHashMap::default();
        for layer in self.layers.iter().take(depth) {
            for s in layer {
                if shakmaty::Position::turn(&s.pos) != learner {
                    continue;
                }
                let covered = !s.repertoire.is_empty();
                let gap = s.outcome == Outcome::RepertoireEnds && s.theory_moves;
                if !covered && !gap {
                    continue;
                }
                let entry = positions.entry(s.key).or_insert((0.0, covered));
                entry.0 += s.reach;
                entry.1 |= covered;
            }
        }
        let t = goal.threshold();
        let needed: Vec<bool> = positions
            .into_values()
            .filter(|(reach, _)| *reach >= t)
            .map(|(_, covered)| covered)
            .collect();
        GoalCount {
            goal,
            needed: needed.len(),
            covered: needed.iter().filter(|c| **c).count(),
        }
    }

    /// [`Exposure::goal_count`] for every preset, in order.
    pub fn goal_counts(&self) -> Vec<GoalCount> {
        GOALS.iter().map(|&g| self.goal_count(g)).collect()
    }
}

/// The learner's pace: the median of the answer times in `seconds` (the review log's),
/// `None` when there is none.
pub fn seconds_per_answer(seconds: impl IntoIterator<Item = f32>) -> Option<f64> {
    let mut all: Vec<f64> = seconds
        .into_iter()
        .map(f64::from)
        .filter(|s| s.is_finite() && *s > 0.0)
        .collect();
    if all.is_empty() {
        return None;
    }
    all.sort_by(f64::total_cmp);
    let mid = all.len() / 2;
    Some(if all.len().is_multiple_of(2) {
        f64::midpoint(all[mid - 1], all[mid])
    } else {
        all[mid]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_presets_go_from_fewest_to_most_positions() {
        assert!(GOALS.windows(2).all(|w| w[0].one_in < w[1].one_in));
        assert_eq!(GOALS[0].name, "Basic");
        assert_eq!(GOALS[3].name, "Bulletproof");
        assert_eq!(Goal::of_percent(GOALS[1].percent()), Some(GOALS[1]));
        assert_eq!(Goal::of_percent(0.5), None);
    }

    #[test]
    fn the_pace_is_the_median_answer_time() {
        assert_eq!(seconds_per_answer([]), None);
        assert_eq!(seconds_per_answer([3.0, 30.0, 5.0]), Some(5.0));
        assert_eq!(seconds_per_answer([4.0, 6.0, 0.0]), Some(5.0));
        let c = GoalCount {
            goal: GOALS[0],
            needed: 12,
            covered: 10,
        };
        assert_eq!(c.missing(), 2);
        assert!(!c.reached());
        assert!((c.study_minutes(6.0) - 6.0).abs() < 1e-9);
    }
}
