//! The grade of an answer: from the first try, the help asked for, and the time taken.
//!
//! | the learner…                                              | rating |
//! |-----------------------------------------------------------|--------|
//! | plays a wrong move first                                  | Again  |
//! | plays the right move after a hint or "Show me"            | Hard   |
//! | plays the right move at the first try, slower than `slow` | Hard   |
//! | plays the right move at the first try in time             | Good   |
//!
//! (Easy is the learner's own call, after a Good.)

use super::card::Rating;

/// The seconds after which a right answer counts Hard, by default.
pub const DEFAULT_SLOW_SECONDS: f32 = 15.0;

/// How answers are graded.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct GradeSettings {
    /// A right first-try answer that took longer than this many seconds is Hard (0:
    /// time is not counted).
    pub slow_seconds: f32,
}

impl Default for GradeSettings {
    /// [`DEFAULT_SLOW_SECONDS`].
    fn default() -> GradeSettings {
        GradeSettings {
            slow_seconds: DEFAULT_SLOW_SECONDS,
        }
    }
}

impl GradeSettings {
    /// The rating of an answer with `wrong` wrong moves first, with help or not, given
    /// after `seconds` (see the [module docs](self)).
    pub fn rating(&self, wrong: u32, helped: bool, seconds: f32) -> Rating {
        if wrong > 0 {
            Rating::Again
        } else if helped || (self.slow_seconds > 0.0 && seconds > self.slow_seconds) {
            Rating::Hard
        } else {
            Rating::Good
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_try_the_help_and_the_time_grade() {
        let g = GradeSettings { slow_seconds: 10.0 };
        assert_eq!(g.rating(0, false, 3.0), Rating::Good);
        assert_eq!(g.rating(0, false, 10.5), Rating::Hard);
        assert_eq!(g.rating(0, true, 1.0), Rating::Hard);
        assert_eq!(g.rating(1, false, 1.0), Rating::Again);
        assert_eq!(g.rating(1, true, 30.0), Rating::Again);
        let untimed = GradeSettings { slow_seconds: 0.0 };
        assert_eq!(untimed.rating(0, false, 600.0), Rating::Good);
    }
}
