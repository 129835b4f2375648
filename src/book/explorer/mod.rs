//! The opening explorer's core: for every position reached in the first plies of a
//! collection of games, the moves played there with how they scored, kept per rating
//! band, speed, year and player so that filters are sums.
//!
//! - Counting ([`read_explorer_games`]): a finished game (`1-0`, `0-1`, `1/2-1/2`)
//!   counts once per position it reaches, with the move it played at the first
//!   occurrence. Positions are Polyglot keys ([`key`](crate::book::polyglot::key)), so
//!   transpositions merge.
//! - What a game is ([`ExplorerGame`], [`tags`]): its rating band (the mean of
//!   `WhiteElo` and `BlackElo`, lichess's bands), its speed (`TimeControl`,
//!   lichess's estimate `base + 40 × inc`), its year (`Date`).
//! - Records ([`ExplorerRecord`]): games, results and rating sum of one
//!   `(position, partition, move, cell, year)`; they are the unit of the external
//!   sort that builds an index ([`RunRecord`](crate::book::polyglot::RunRecord)), and a
//!   query adds up those that pass an [`ExplorerFilter`] ([`PositionTally`]).
//! - As popularity ([`ExplorerCounts`]): what the sampler reads of an explorer, the
//!   moves at a position with their games under a filter chosen beforehand.
//!
//! Like the rest of the book, this module opens no files: the index on disk is
//! `workspace::explorer`.
//!
//! Files: `read` (the games' mainlines read), `tags` and `game` (what a game is),
//! `record` (the unit of counting), `filter`, `stats` (a position's answer),
//! `performance` (a move's performance rating, lichess's formula), `counts`
//! (the explorer as popularity), `shown` (one game of a PGN text found by its number,
//! for the top-game window).
//!
//! ```
//! use hastings::book::explorer::{
//!     ExplorerFilter, ExplorerRecord, Players, PositionTally, read_explorer_games,
//! };
//! use hastings::book::polyglot::key;
//! use shakmaty::Chess;
//!
//! let pgn = "[WhiteElo \"1650\"]\n[BlackElo \"1750\"]\n[TimeControl \"180+2\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
//!            [Result \"0-1\"]\n\n1. e4 c5 0-1\n";
//! let mut games = Vec::new();
//! read_explorer_games(pgn.as_bytes(), 50, &mut games)?;
//! let mut tally = PositionTally::new(ExplorerFilter::default().with_speeds("blitz")?);
//! let mut parts = Vec::new();
//! for (i, (game, positions)) in games.iter().enumerate() {
//!     Players::default().partitions(game, &mut parts);
//!     for r in ExplorerRecord::of_game(game, positions, &parts, i as u64) {
//!         if r.key == key(&Chess::default()) {
//!             tally.add(0, &r);
//!         }
//!     }
//! }
//! let stats = tally.finish();
//! assert_eq!(stats.moves.len(), 1); // the second game has no TimeControl: unknown speed
//! assert_eq!((stats.moves[0].white, stats.moves[0].average_rating()), (1, Some(1700)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod counts;
mod filter;
mod game;
mod performance;
mod read;
mod record;
mod shown;
mod stats;
pub mod tags;

pub use counts::{ExplorerCounts, describe_move, group_digits};
pub use filter::{ExplorerFilter, FilterError};
pub use game::{ExplorerGame, Players, outcome_name};
pub use performance::{MIN_PERFORMANCE_GAMES, performance, performance_of, rating_difference};
pub use read::{DEFAULT_EXPLORER_PLIES, ExplorerReport, GameSink, read_explorer_games};
pub use record::{BestGame, Cell, ExplorerRecord, Partition, Tally};
pub use shown::{ShownGame, read_shown_game};
pub use stats::{MoveStats, PositionStats, PositionTally, TOP_GAMES, TopCandidate};
pub use tags::{BAND_BOUNDS, RatingBand, Speed};
