//! What the Explorer tab shows at the position on the board ([`ExplorerView`]): the
//! moves with their games and results, and the top games; and the tab's year fields
//! read ([`parse_years`]).

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position as _};

#[cfg(doc)]
use crate::book::explorer::MIN_PERFORMANCE_GAMES;
use crate::book::explorer::{ExplorerFilter, MoveStats, PositionStats};
use crate::engine::Score;
use crate::workspace::explorer::{ExplorerError, ExplorerIndex, TopGame};

/// A move's games at a position and how they ended, as the tab and `hastings explorer
/// query --json` show them.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MoveGames {
    /// The move in SAN.
    pub san: String,
    /// Games.
    pub games: u64,
    /// White wins.
    pub white: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black: u64,
    /// The rated games' average mean rating.
    pub avg_rating: Option<u64>,
    /// The performance rating of the side that played it, from
    /// [`MIN_PERFORMANCE_GAMES`] games on (lichess's formula: the rated games' average
    /// rating plus FIDE's `dp` for its score,
    /// [`MoveStats::performance`](crate::book::explorer::MoveStats::performance)).
    pub performance: Option<i32>,
}

impl MoveGames {
    /// The move of `stats` at `pos` and its games; `None` for a record whose move is not
    /// legal there (a key collision: left out).
    pub fn at(pos: &Chess, stats: &MoveStats) -> Option<(Move, MoveGames)> {
        let mv = stats.raw_move.to_move(pos).ok()?;
        Some((
            mv,
            MoveGames {
                san: SanPlus::from_move(pos.clone(), mv).to_string(),
                games: stats.games(),
                white: stats.white,
                draws: stats.draws,
                black: stats.black,
                avg_rating: stats.average_rating(),
                performance: stats.performance(pos.turn()),
            },
        ))
    }
}

/// One move of the tab: the games it was played in and how they ended.
#[derive(Debug, Clone, PartialEq)]
pub struct ExplorerRow {
    /// The move.
    pub mv: Move,
    /// Its games and results.
    pub counts: MoveGames,
    /// Its share of the games at the position.
    pub share: f64,
    /// The engine's evaluation of the position after it, from White's point of view,
    /// once analysed (on a background thread, kept in the analysis cache).
    pub eval: Option<Score>,
}

/// One of the position's top games (the highest rated that pass the filter).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplorerTopGame {
    /// The move it played at the position, in SAN.
    pub san: String,
    /// Players, result, year, rating, and where it is.
    pub game: TopGame,
}

/// What the tab shows at the position on the board.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExplorerView {
    /// Hidden while the learner is to move (it would give the answer away).
    pub hidden: bool,
    /// Games at the position.
    pub games: u64,
    /// White wins, draws and Black wins of all the games here.
    pub results: [u64; 3],
    /// The moves, most played first.
    pub rows: Vec<ExplorerRow>,
    /// The top games, best first.
    pub top: Vec<ExplorerTopGame>,
    /// An error reading the index at this position.
    pub error: Option<String>,
    /// The position the view is of.
    pub position: Chess,
}

impl ExplorerView {
    /// The view of `index` at `pos` under `filter` (the source's filter, or why there
    /// is none).
    pub(super) fn at(
        index: &ExplorerIndex,
        filter: Result<ExplorerFilter, ExplorerError>,
        pos: &Chess,
    ) -> ExplorerView {
        let stats = filter.and_then(|filter| index.query_position(pos, &filter));
        match stats {
            Ok(stats) => {
                let total = stats.total();
                let games = total.games();
                let mut rows: Vec<ExplorerRow> = stats
                    .moves
                    .iter()
                    .filter(|m| m.games() > 0)
                    .filter_map(|m| {
                        let (mv, counts) = MoveGames::at(pos, m)?;
                        Some(ExplorerRow {
                            mv,
                            share: counts.games as f64 / games.max(1) as f64,
                            counts,
                            eval: None,
                        })
                    })
                    .collect();
                rows.sort_by(|a, b| {
                    (b.counts.games.cmp(&a.counts.games)).then(a.counts.san.cmp(&b.counts.san))
                });
                let (top, error) = match top_games(index, &stats, pos) {
                    Ok(top) => (top, None),
                    Err(e) => (Vec::new(), Some(format!("Cannot read the top games: {e}"))),
                };
                ExplorerView {
                    hidden: false,
                    games,
                    results: [total.white, total.draws, total.black],
                    rows,
                    top,
                    error,
                    position: pos.clone(),
                }
            }
            Err(error) => ExplorerView {
                error: Some(error.to_string()),
                ..ExplorerView::default()
            },
        }
    }
}

/// The top games of `stats` at `pos`, looked up in the index's games tables.
fn top_games(
    index: &ExplorerIndex,
    stats: &PositionStats,
    pos: &Chess,
) -> Result<Vec<ExplorerTopGame>, ExplorerError> {
    stats
        .top
        .iter()
        .map(|candidate| {
            let game = index.top_game(candidate)?;
            let san = match game.raw_move.to_move(pos) {
                Ok(mv) => SanPlus::from_move(pos.clone(), mv).to_string(),
                Err(_) => game.raw_move.to_string(),
            };
            Ok(ExplorerTopGame { san, game })
        })
        .collect()
}

/// Why the Explorer tab's year fields give no years.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum YearsError {
    /// A field holds no year.
    #[error("`{0}` is not a year.")]
    NotAYear(String),
    /// "From" is after "to".
    #[error("{from} is after {to}.")]
    Reversed {
        /// The "from" year.
        from: u16,
        /// The "to" year.
        to: u16,
    },
}

/// The years of the tab's "from" and "to" fields: both empty for every game, one empty
/// for no bound on that side.
///
/// ```
/// use hastings::coach::explorer::parse_years;
///
/// assert_eq!(parse_years("", ""), Ok(None));
/// assert_eq!(parse_years("1985", " 1990 "), Ok(Some((1985, 1990))));
/// assert_eq!(parse_years("", "1990"), Ok(Some((1, 1990))));
/// let reversed = parse_years("1990", "1985").unwrap_err();
/// assert_eq!(reversed.to_string(), "1990 is after 1985.");
/// let typo = parse_years("19x5", "").unwrap_err();
/// assert_eq!(typo.to_string(), "`19x5` is not a year.");
/// ```
///
/// # Errors
///
/// [`YearsError`] (a sentence for the learner) when a field holds no year or "from"
/// is after "to".
pub fn parse_years(from: &str, to: &str) -> Result<Option<(u16, u16)>, YearsError> {
    let year = |s: &str, unset: u16| {
        let s = s.trim();
        if s.is_empty() {
            return Ok(unset);
        }
        s.parse::<u16>()
            .ok()
            .filter(|&y| y > 0)
            .ok_or_else(|| YearsError::NotAYear(s.to_owned()))
    };
    if from.trim().is_empty() && to.trim().is_empty() {
        return Ok(None);
    }
    let (from, to) = (year(from, 1)?, year(to, u16::MAX)?);
    if to < from {
        return Err(YearsError::Reversed { from, to });
    }
    Ok(Some((from, to)))
}
