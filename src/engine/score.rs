//! Scores: centipawns or a mate distance, from the side to move's point of view.

use std::fmt;

/// The largest score magnitude; a mate at ply `n` from the root scores `MATE - n`.
pub const MATE: i32 = 32_000;

/// Scores beyond this magnitude are mates (the search never goes deeper than
/// [`MAX_PLY`]).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// The deepest ply any search reaches (the length of the per-ply tables).
pub const MAX_PLY: usize = 128;

/// An evaluation as engines report it (`info score cp …` / `score mate …`), from the
/// point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns: positive means the side to move is better.
    Cp(i32),
    /// Mate in this many moves (not plies); negative when the side to move gets mated.
    Mate(i32),
}

impl Score {
    /// The score of an internal search value (centipawns, or `±(MATE - ply)`).
    ///
    /// ```
    /// use hastings::engine::score::{MATE, Score};
    /// assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
    /// assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
    /// assert_eq!(Score::from_internal(35), Score::Cp(35));
    /// ```
    pub fn from_internal(value: i32) -> Score {
        if value > MATE_BOUND {
            Score::Mate((MATE - value + 1) / 2)
        } else if value < -MATE_BOUND {
            Score::Mate(-(MATE + value) / 2)
        } else {
            Score::Cp(value)
        }
    }

    /// The score from the other side's point of view.
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// A number for sorting and for an evaluation bar: centipawns, with mates mapped
    /// beyond ±10,000 (nearer mates further out).
    pub fn to_centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp.clamp(-9_999, 9_999),
            Score::Mate(n) if n > 0 => 20_000 - n,
            Score::Mate(n) => -20_000 - n,
        }
    }

    /// The expected score (0 = loss, 1 = win) of the side to move, by the logistic
    /// curve that maps 400 centipawns to 10:1 odds (the Elo curve).
    pub fn win_probability(self) -> f64 {
        match self {
            Score::Cp(cp) => 1.0 / (1.0 + 10f64.powf(-f64::from(cp) / 400.0)),
            Score::Mate(n) if n > 0 => 1.0,
            Score::Mate(_) => 0.0,
        }
    }
}

impl fmt::Display for Score {
    /// `+0.35`, `-1.20`, `#3`, `#-2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "{:+.2}", f64::from(*cp) / 100.0),
            Score::Mate(n) => write!(f, "#{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_at_odd_and_even_plies_counts_moves() {
        // Mate delivered at ply 1 is mate in 1; being mated at ply 2 is mated in 1.
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(-(MATE - 4)), Score::Mate(-2));
        assert_eq!(Score::from_internal(MATE - 5), Score::Mate(3));
    }

    #[test]
    fn scores_print_like_a_gui() {
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Cp(-120).to_string(), "-1.20");
        assert_eq!(Score::Mate(-2).to_string(), "#-2");
    }

    #[test]
    fn nearer_mates_sort_further_out() {
        assert!(Score::Mate(1).to_centipawns() > Score::Mate(3).to_centipawns());
        assert!(Score::Mate(-1).to_centipawns() < Score::Mate(-3).to_centipawns());
        assert!(Score::Mate(9).to_centipawns() > Score::Cp(5000).to_centipawns());
    }
}
