//! Reading games for the explorer: for each finished game, the first `max_plies` plies
//! of its mainline as one `(position, move)` per position reached, with the move played
//! at the position's first occurrence (a game counts once per position).
//!
//! The rules are `book make`'s ([`read_games`](crate::book::polyglot::read_games)) for
//! what is read — the mainline only, a game from a `[FEN]` start counts from there,
//! another variant or a bad start is skipped and reported, an illegal, ambiguous or
//! null move keeps the plies before it — with the explorer's for what counts: only
//! finished games (`1-0`, `0-1`, `1/2-1/2` in the `Result` tag, else the movetext's
//! result), each position once.

use std::io::{self, Read};

use pgn_reader::{Outcome, RawTag};
use shakmaty::{Chess, KnownOutcome, Move};

use super::game::ExplorerGame;
use super::tags::{Speed, rating_from_tag, year_from_date};
use crate::book::polyglot::{GamesReport, Mainlines, RawMove, key, read_mainlines};

/// The ply limit of `hastings explorer make` when none is given.
pub const DEFAULT_EXPLORER_PLIES: u32 = 50;

/// Receives the finished games read.
pub trait GameSink {
    /// A finished game, and each position it reached in its first plies with the move
    /// played at its first occurrence, in game order.
    fn game(&mut self, game: &ExplorerGame, positions: &[(u64, RawMove)]);
}

impl GameSink for Vec<(ExplorerGame, Vec<(u64, RawMove)>)> {
    fn game(&mut self, game: &ExplorerGame, positions: &[(u64, RawMove)]) {
        self.push((game.clone(), positions.to_vec()));
    }
}

/// What [`read_explorer_games`] read: the games (every one, finished or not), the
/// positions given to the sink in [`GamesReport::plies`], the problems; and the
/// finished games counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExplorerReport {
    /// Games, positions and problems.
    pub games: GamesReport,
    /// Finished games given to the sink.
    pub counted: u64,
}

/// Reads every game of `pgn` and gives each finished one to `sink`.
///
/// ```
/// use hastings::book::explorer::read_explorer_games;
/// use hastings::book::polyglot::key;
/// use shakmaty::Chess;
///
/// let pgn = "[Result \"1-0\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. e4 1-0\n\n[Result \"*\"]\n\n1. d4 *\n";
/// let mut games = Vec::new();
/// let report = read_explorer_games(pgn.as_bytes(), 50, &mut games)?;
/// assert_eq!((report.games.games, report.counted), (2, 1));
/// let (_, positions) = &games[0];
/// // The start position came back after 2...Ng8: it counts once, with 1. Nf3.
/// assert_eq!(positions.len(), 4);
/// assert_eq!(positions[0].0, key(&Chess::default()));
/// assert_eq!(positions[0].1.to_string(), "g1f3");
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
///
/// Only the reader's I/O errors; problems in games are in [`GamesReport::issues`].
pub fn read_explorer_games<S: GameSink>(
    pgn: impl Read,
    max_plies: u32,
    sink: &mut S,
) -> io::Result<ExplorerReport> {
    let mut games = ExplorerGames {
        sink,
        counted: 0,
        positions: Vec::with_capacity(max_plies.min(1024) as usize),
        info: None,
    };
    let games_report = read_mainlines(pgn, max_plies, &mut games)?;
    Ok(ExplorerReport {
        games: games_report,
        counted: games.counted,
    })
}

/// The tags the explorer keeps of a game.
#[derive(Debug, Default)]
pub struct ExplorerTags {
    white: String,
    black: String,
    white_elo: Option<u16>,
    black_elo: Option<u16>,
    time_control: Option<String>,
    date: Option<u16>,
    utc_date: Option<u16>,
}

/// The positions of the game being read, given to the sink once it is known finished.
struct ExplorerGames<'s, S: GameSink> {
    sink: &'s mut S,
    counted: u64,
    /// Each position reached, with the move played at its first occurrence.
    positions: Vec<(u64, RawMove)>,
    /// The game being read.
    info: Option<ExplorerGame>,
}

impl<S: GameSink> Mainlines for ExplorerGames<'_, S> {
    type Tags = ExplorerTags;

    fn tag(&mut self, tags: &mut ExplorerTags, name: &[u8], value: RawTag<'_>) {
        let text = || value.decode_utf8_lossy().into_owned();
        match name {
            b"White" => tags.white = text(),
            b"Black" => tags.black = text(),
            b"WhiteElo" => tags.white_elo = rating_from_tag(&text()),
            b"BlackElo" => tags.black_elo = rating_from_tag(&text()),
            b"TimeControl" => tags.time_control = Some(text()),
            b"Date" => tags.date = year_from_date(&text()),
            b"UTCDate" => tags.utc_date = year_from_date(&text()),
            _ => {}
        }
    }

    fn begin(&mut self, game: u64, tags: ExplorerTags) {
        self.positions.clear();
        self.info = Some(ExplorerGame {
            number: game,
            white: tags.white,
            black: tags.black,
            outcome: KnownOutcome::Draw,
            white_elo: tags.white_elo,
            black_elo: tags.black_elo,
            speed: Speed::from_time_control(tags.time_control.as_deref()),
            year: tags.date.or(tags.utc_date),
        });
    }

    fn ply(&mut self, _: u64, _: u32, pos: &Chess, _: Move, raw_move: RawMove) {
        let here = key(pos);
        if !self.positions.iter().any(|&(k, _)| k == here) {
            self.positions.push((here, raw_move));
        }
    }

    /// Only a finished game counts.
    fn end(&mut self, result: Option<Outcome>) -> u64 {
        let (Some(Outcome::Known(outcome)), Some(mut info)) = (result, self.info.take()) else {
            return 0;
        };
        info.outcome = outcome;
        self.counted += 1;
        self.sink.game(&info, &self.positions);
        self.positions.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;

    type Games = Vec<(ExplorerGame, Vec<(u64, RawMove)>)>;

    fn read(pgn: &str, max_plies: u32) -> (Games, ExplorerReport) {
        let mut games = Vec::new();
        let report = read_explorer_games(pgn.as_bytes(), max_plies, &mut games).unwrap();
        (games, report)
    }

    #[test]
    fn only_finished_games_count() {
        let pgn = "[Result \"*\"]\n\n1. e4 *\n\n[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2\n\n1. c4 0-1\n\n1. Nf3\n";
        let (games, report) = read(pgn, 50);
        assert_eq!(report.games.games, 4);
        assert_eq!(report.counted, 2);
        assert_eq!(games[0].0.outcome, KnownOutcome::Draw);
        assert_eq!(games[0].0.number, 2);
        assert_eq!(
            games[1].0.outcome,
            KnownOutcome::Decisive {
                winner: Color::Black
            }
        );
        assert_eq!(report.games.issue_count, 1, "the last game is truncated");
    }

    #[test]
    fn tags_give_band_speed_and_year() {
        let pgn = "[White \"a\"]\n[Black \"B\"]\n[WhiteElo \"1700\"]\n[BlackElo \"1901\"]\n\
                   [TimeControl \"600+5\"]\n[UTCDate \"2019.01.01\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n";
        let (games, _) = read(pgn, 50);
        let g = &games[0].0;
        assert_eq!(g.rating(), Some(1800));
        assert_eq!(g.band().lower_bound(), Some(1800));
        assert_eq!(g.speed, Speed::Rapid);
        assert_eq!(g.year, Some(2019));
        assert_eq!((g.white.as_str(), g.black.as_str()), ("a", "B"));
    }

    #[test]
    fn the_ply_limit_stops_reading_and_the_result_still_counts() {
        let (games, _) = read("[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 0-1\n", 3);
        assert_eq!(games[0].1.len(), 3);
    }
}
