//! What a popularity source needs of an opening explorer: the moves played at a
//! position with their games and results, under a filter chosen beforehand.
//!
//! The sampler (which may not open files) draws its shares from any
//! [`ExplorerCounts`]; `workspace::explorer` implements it for an index on disk and a
//! filter.

use std::fmt;

use shakmaty::{Chess, Color};

use super::stats::{MoveStats, PositionStats};

/// The games of an explorer at a position, under a filter its maker chose.
///
/// An implementation that cannot read the position (a damaged index) answers no move
/// and keeps the error for its owner to report.
pub trait ExplorerCounts: fmt::Debug + Send + Sync {
    /// The moves played at `pos` with their games and results (none when no game
    /// reached it).
    fn stats_at(&self, pos: &Chess) -> PositionStats;

    /// The games that reached `pos` (every move's games added up).
    fn games_at(&self, pos: &Chess) -> u64 {
        self.stats_at(pos).total().games()
    }
}

/// `n` with a comma between each group of three digits: `1,234,567`.
///
/// ```
/// use hastings::book::explorer::group_digits;
///
/// assert_eq!(group_digits(1234567), "1,234,567");
/// assert_eq!(group_digits(999), "999");
/// ```
pub fn group_digits(n: impl std::fmt::Display) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// How `mover`'s move `stats` scored, as the reply's explanation says it:
/// `"1,234 of 5,678 games, White scores 54% (+40% =28% -32%)"`, the wins, draws and
/// losses being the mover's; `total` is the games at the position.
///
/// ```
/// use hastings::book::explorer::{MoveStats, describe_move};
/// use shakmaty::Color;
///
/// let stats = MoveStats { white: 6, draws: 2, black: 2, ..MoveStats::default() };
/// assert_eq!(
///     describe_move(&stats, 40, Color::White),
///     "10 of 40 games, White scores 70% (+60% =20% -20%)"
/// );
/// ```
pub fn describe_move(stats: &MoveStats, total: u64, mover: Color) -> String {
    let games = stats.games();
    let (won, lost) = match mover {
        Color::White => (stats.white, stats.black),
        Color::Black => (stats.black, stats.white),
    };
    let percent = |n: f64| {
        if games == 0 {
            0.0
        } else {
            100.0 * n / games as f64
        }
    };
    let side = match mover {
        Color::White => "White",
        Color::Black => "Black",
    };
    format!(
        "{} of {} games, {side} scores {:.0}% (+{:.0}% ={:.0}% -{:.0}%)",
        group_digits(games),
        group_digits(total),
        percent(won as f64 + stats.draws as f64 / 2.0),
        percent(won as f64),
        percent(stats.draws as f64),
        percent(lost as f64),
    )
}
