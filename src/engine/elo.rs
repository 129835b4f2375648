//! Match statistics: the score, the Elo difference it implies and its error margin
//! (computed as cutechess-cli does).

use std::fmt;

/// Wins, draws and losses of one side of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The Elo difference for an expected score `p` (0 < p < 1): `−400·log10(1/p − 1)`.
///
/// ```
/// use hastings::engine::elo::elo_difference;
/// assert_eq!(elo_difference(0.5), 0.0);
/// assert!((elo_difference(0.75) - 190.85).abs() < 0.01);
/// ```
pub fn elo_difference(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score as a fraction: (wins + draws / 2) / games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n))
    }

    /// The Elo difference the score implies; `None` with no games or a score of 0 or
    /// 100 % (infinite).
    pub fn elo(&self) -> Option<f64> {
        let p = self.score()?;
        (p > 0.0 && p < 1.0).then(|| elo_difference(p))
    }

    /// Half the width of the 95 % confidence interval of [`Tally::elo`]: the per-game
    /// score's standard deviation gives the score's standard error, and the interval
    /// `p ± 1.96·se` is mapped through [`elo_difference`].
    pub fn margin(&self) -> Option<f64> {
        let p = self.score()?;
        let n = f64::from(self.games());
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        let variance = w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2);
        let delta = 1.959_964 * (variance / n).sqrt();
        let (lo, hi) = (p - delta, p + delta);
        (lo > 0.0 && hi < 1.0).then(|| (elo_difference(hi) - elo_difference(lo)) / 2.0)
    }
}

impl fmt::Display for Tally {
    /// `+12 =5 -3, score 72.5 %, Elo +168 ± 120` (or `Elo +inf` for a clean sweep).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)?;
        let Some(p) = self.score() else {
            return Ok(());
        };
        write!(f, ", score {:.1} %", p * 100.0)?;
        match (self.elo(), self.margin()) {
            (Some(e), Some(m)) => write!(f, ", Elo {e:+.0} ± {m:.0}"),
            (Some(e), None) => write!(f, ", Elo {e:+.0} (margin unbounded)"),
            (None, _) if p >= 1.0 => write!(f, ", Elo +inf"),
            (None, _) => write!(f, ", Elo -inf"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_match_has_zero_elo_and_a_margin() {
        let t = Tally {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        assert_eq!(t.elo(), Some(0.0));
        // σ² = 0.3·0.25 + 0.3·0.25 = 0.15; se = √(0.15/100) = 0.0387; p ± 0.0759:
        // Elo(0.5759) = 53.0 → margin ≈ 53.
        let m = t.margin().unwrap();
        assert!((m - 53.0).abs() < 1.0, "{m}");
    }

    #[test]
    fn a_clean_sweep_is_infinite() {
        let t = Tally {
            wins: 10,
            draws: 0,
            losses: 0,
        };
        assert_eq!(t.score(), Some(1.0));
        assert_eq!(t.elo(), None);
        assert!(t.to_string().ends_with("Elo +inf"), "{t}");
    }

    #[test]
    fn display_shows_tally_score_and_elo() {
        let t = Tally {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        let s = t.to_string();
        assert!(s.starts_with("+6 =2 -2, score 70.0 %, Elo +147 ± "), "{s}");
    }
}
