//! The performance rating of a move's games, as lichess's opening explorer computes it
//! (`Stats::performance` in lila-openingexplorer's model/stats.rs,
//! github.com/lichess-org/lila-openingexplorer): the average
//! rating of the games plus FIDE's rating difference `dp` for the score, read from the
//! table of the FIDE Handbook (B.02, "Table 8.1.a"), linearly between whole percents.
//!
//! lichess computes it in a player's explorer, where the average is the opponents'. An
//! index of all games keeps each game's mean rating (both players'), which stands in for
//! the opponents' average there: players meet opponents near their own rating.

use shakmaty::Color;

/// The fewest games a performance is shown for (fewer say little).
pub const MIN_PERFORMANCE_GAMES: u64 = 5;

/// FIDE's `dp` for a score of 50 % to 100 %, one entry per percent (FIDE Handbook
/// B.02, table 8.1.a); below 50 % it is the negative of the mirrored score's.
const DP_FROM_50: [i32; 51] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// FIDE's `dp` at a whole percent `p` (0 to 100).
fn dp_at(p: usize) -> f64 {
    let p = p.min(100);
    let dp = if p >= 50 {
        DP_FROM_50[p - 50]
    } else {
        -DP_FROM_50[50 - p]
    };
    f64::from(dp)
}

/// FIDE's `dp` for a score of `percent` (0 to 100), linear between whole percents.
///
/// ```
/// use hastings::book::explorer::rating_difference;
///
/// assert_eq!(rating_difference(50.0), 0.0);
/// assert_eq!(rating_difference(100.0), 800.0);
/// assert_eq!(rating_difference(5.0), -470.0);
/// assert_eq!(rating_difference(75.5), 197.5); // between 193 (75 %) and 202 (76 %)
/// ```
pub fn rating_difference(percent: f64) -> f64 {
    let percent = percent.clamp(0.0, 100.0);
    let whole = percent.trunc();
    let fraction = percent - whole;
    let at = whole as usize;
    dp_at(at) * (1.0 - fraction) + dp_at(at + 1) * fraction
}

/// The performance of the side `color` over games it won `wins`, drew `draws` and lost
/// `losses`, against an average rating of `average`, rounded; `None` without games.
///
/// ```
/// use hastings::book::explorer::performance;
///
/// // One win at 1500: 1500 + 800 (lichess's own test).
/// assert_eq!(performance(1500.0, 1, 0, 0), Some(2300));
/// // 5 % of the points: −470.
/// assert_eq!(performance(0.0, 5, 0, 95), Some(-470));
/// assert_eq!(performance(1800.0, 0, 0, 0), None);
/// ```
pub fn performance(average: f64, wins: u64, draws: u64, losses: u64) -> Option<i32> {
    let games = wins + draws + losses;
    if games == 0 {
        return None;
    }
    let percent = (100 * wins + 50 * draws) as f64 / games as f64;
    Some((average + rating_difference(percent)).round() as i32)
}

/// The performance of `color` in games White won `white`, drew `draws` and Black won
/// `black`, against an average rating of `average`.
pub fn performance_of(
    color: Color,
    average: f64,
    white: u64,
    draws: u64,
    black: u64,
) -> Option<i32> {
    let (wins, losses) = match color {
        Color::White => (white, black),
        Color::Black => (black, white),
    };
    performance(average, wins, draws, losses)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_score_is_the_average_whichever_side() {
        for color in [Color::White, Color::Black] {
            assert_eq!(performance_of(color, 987.0, 123, 10, 123), Some(987));
        }
    }

    #[test]
    fn the_table_is_symmetric_and_rises() {
        for p in 0..=100 {
            assert_eq!(dp_at(p), -dp_at(100 - p));
            if p > 0 {
                assert!(dp_at(p) > dp_at(p - 1), "{p}");
            }
        }
    }
}
