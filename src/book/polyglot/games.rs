//! Games read for a book: the mainline of every game up to a ply limit, as one
//! `(key, move, score)` record per ply.
//!
//! The score is `polyglot make-book`'s: 2 when the side that moved won the game, 1 for a
//! draw, 0 for a loss. Like polyglot, a game without a known result (`*`, no `Result`
//! tag) scores 1. The `[Result]` tag decides; without it, the result token at the end
//! of the movetext. A position that comes back within the ply limit counts every time,
//! as in polyglot.
//!
//! Variations are skipped. A game from a `[FEN]` start counts from that position (a
//! book is keyed by positions). A game of another variant, with a bad FEN or with
//! Chess960 castling rights is skipped; a game with an illegal, ambiguous or null move
//! keeps the plies before it. Each such game gives a [`GameIssue`], and reading goes on.

use std::io::{self, Read};

use pgn_reader::Outcome;
use shakmaty::{Chess, Color, KnownOutcome, Move, Position};
use thiserror::Error;

use super::key::key;
use super::mainline::{Mainlines, read_mainlines};
use super::moves::RawMove;
use crate::book::pgn::StartIssue;

/// The ply limit of `hastings book make` when none is given.
pub const DEFAULT_MAX_PLIES: u32 = 30;

/// At most this many issues are kept in a [`GamesReport`]; the rest are only counted.
pub const MAX_KEPT_ISSUES: usize = 1000;

/// Receives the plies of the games read: one call per ply, in game order.
pub trait MoveSink {
    /// The position `key`, the move played there, and the game's score for the side
    /// that moved (2 win, 1 draw or unknown, 0 loss).
    fn add(&mut self, key: u64, raw_move: RawMove, score: u8);
}

impl MoveSink for Vec<(u64, RawMove, u8)> {
    fn add(&mut self, key: u64, raw_move: RawMove, score: u8) {
        self.push((key, raw_move, score));
    }
}

/// Receives the plies of the games read with the position they were played in: what a
/// book needs ([`MoveSink`], through the blanket implementation) or more (a training
/// set's boards and legal moves).
pub trait PlySink {
    /// What is kept of a ply until its game's result is known.
    type Ply;
    /// The ply `mv` (encoded as `raw_move`), about to be played at `pos`: the
    /// `ply`-th of game `game` (the game's 1-based number in the text read; plies from 0).
    fn ply(&mut self, game: u64, ply: u32, pos: &Chess, mv: Move, raw_move: RawMove) -> Self::Ply;
    /// A ply of a game that has ended, with the game's score for the side that moved
    /// (2 win, 1 draw or unknown, 0 loss), in game order.
    fn add(&mut self, ply: Self::Ply, score: u8);
}

impl<S: MoveSink> PlySink for S {
    type Ply = (u64, RawMove);

    fn ply(&mut self, _: u64, _: u32, pos: &Chess, _: Move, raw_move: RawMove) -> Self::Ply {
        (key(pos), raw_move)
    }

    fn add(&mut self, (key, raw_move): Self::Ply, score: u8) {
        MoveSink::add(self, key, raw_move, score);
    }
}

/// Why a game, or its rest, was left out.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameIssueReason {
    /// No legal move matches the SAN; the plies before it count.
    #[error("illegal move")]
    IllegalMove,
    /// Several legal moves match the SAN; the plies before it count.
    #[error("ambiguous move")]
    AmbiguousMove,
    /// A null move (`--`, `Z0`); the plies before it count.
    #[error("null move")]
    NullMove,
    /// The start position from the `[Variant]` and `[FEN]` tags cannot be played (another
    /// variant, a bad FEN, Chess960 castling rights); the game is skipped.
    #[error(transparent)]
    Start(#[from] StartIssue),
    /// The movetext ends without a result token (`1-0`, `0-1`, `1/2-1/2`, `*`): the
    /// game may be cut short. Its plies count. (Checked only for games read to their
    /// end, not for those stopped at the ply limit.)
    #[error("the game text ends without a result: the game may be truncated")]
    Truncated,
}

/// A problem with one game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("game {game}{}: {reason}", self.at())]
pub struct GameIssue {
    /// The 1-based number of the game in the text read.
    pub game: u64,
    /// The 1-based ply of the move, 0 when not about a move.
    pub ply: u32,
    /// The move as written; empty when not about a move.
    pub san: String,
    /// What is wrong.
    pub reason: GameIssueReason,
}

impl GameIssue {
    fn at(&self) -> String {
        match self.ply {
            0 => String::new(),
            ply => format!(", {}", crate::book::pgn::ply_and_move(ply, &self.san)),
        }
    }
}

/// What [`read_games`] read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GamesReport {
    /// Games (every stretch of text the PGN reader takes for a game).
    pub games: u64,
    /// Plies given to the sink.
    pub plies: u64,
    /// The first [`MAX_KEPT_ISSUES`] issues.
    pub issues: Vec<GameIssue>,
    /// How many issues there were.
    pub issue_count: u64,
}

impl GamesReport {
    /// Adds the counts and issues of `other`, whose game numbers start after
    /// `games_before` games.
    pub fn absorb(&mut self, other: GamesReport, games_before: u64) {
        self.games += other.games;
        self.plies += other.plies;
        self.issue_count += other.issue_count;
        let room = MAX_KEPT_ISSUES.saturating_sub(self.issues.len());
        self.issues
            .extend(other.issues.into_iter().take(room).map(|mut issue| {
                issue.game += games_before;
                issue
            }));
    }
}

/// Reads every game of `pgn` and gives the first `max_plies` plies of each mainline to
/// `sink`.
///
/// ```
/// use hastings::book::polyglot::{RawMove, key, read_games};
/// use shakmaty::Chess;
///
/// let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n";
/// let mut plies: Vec<(u64, RawMove, u8)> = Vec::new();
/// let report = read_games(pgn.as_bytes(), 2, &mut plies)?;
/// assert_eq!((report.games, report.plies), (1, 2));
/// assert_eq!(plies[0], (key(&Chess::default()), RawMove(0x031c), 2)); // White won.
/// assert_eq!(plies[1].2, 0); // Black lost.
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
///
/// Only the reader's I/O errors; problems in games are [`GamesReport::issues`].
pub fn read_games<S: PlySink>(
    pgn: impl Read,
    max_plies: u32,
    sink: &mut S,
) -> io::Result<GamesReport> {
    let mut games = BookGames {
        sink,
        plies: Vec::with_capacity(max_plies.min(1024) as usize),
    };
    read_mainlines(pgn, max_plies, &mut games)
}

/// Polyglot's score for the side `mover` in a game of `result` (unknown: a draw).
fn score(result: Option<Outcome>, mover: Color) -> u8 {
    match result {
        Some(Outcome::Known(KnownOutcome::Decisive { winner })) if winner == mover => 2,
        Some(Outcome::Known(KnownOutcome::Decisive { .. })) => 0,
        _ => 1,
    }
}

/// The plies of a book's games, kept until the game's result scores them.
struct BookGames<'s, S: PlySink> {
    sink: &'s mut S,
    /// The current game's plies, as the sink keeps them, and the side that moved.
    plies: Vec<(S::Ply, Color)>,
}

impl<S: PlySink> Mainlines for BookGames<'_, S> {
    type Tags = ();

    fn begin(&mut self, _: u64, (): ()) {
        self.plies.clear();
    }

    fn ply(&mut self, game: u64, ply: u32, pos: &Chess, mv: Move, raw_move: RawMove) {
        let kept = self.sink.ply(game, ply, pos, mv, raw_move);
        self.plies.push((kept, pos.turn()));
    }

    fn end(&mut self, result: Option<Outcome>) -> u64 {
        let count = self.plies.len() as u64;
        for (ply, mover) in self.plies.drain(..) {
            self.sink.add(ply, score(result, mover));
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(pgn: &str, max_plies: u32) -> (Vec<(u64, RawMove, u8)>, GamesReport) {
        let mut plies = Vec::new();
        let report = read_games(pgn.as_bytes(), max_plies, &mut plies).unwrap();
        (plies, report)
    }

    fn scores(plies: &[(u64, RawMove, u8)]) -> Vec<u8> {
        plies.iter().map(|p| p.2).collect()
    }

    #[test]
    fn scores_follow_the_result_for_the_side_that_moved() {
        let games = "[Result \"0-1\"]\n\n1. d4 d5 2. c4 0-1\n\n\
                     [Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n\
                     [Event \"?\"]\n\n1. c4 *\n\n\
                     1. Nf3 Nf6 1-0\n";
        let (plies, report) = read(games, 30);
        assert_eq!(report.games, 4);
        assert_eq!(report.plies, 8);
        assert_eq!(scores(&plies), [0, 2, 0, 1, 1, 1, 2, 0]);
        assert!(report.issues.is_empty());
    }

    #[test]
    fn the_result_tag_wins_over_the_movetext_token() {
        let (plies, _) = read("[Result \"1-0\"]\n\n1. e4 e5 0-1\n", 30);
        assert_eq!(scores(&plies), [2, 0]);
    }

    #[test]
    fn only_the_mainline_up_to_the_limit_is_read() {
        let pgn = "1. e4 (1. d4 d5) e5 2. Nf3 Nc6 3. Bb5 1-0\n\n1. d4 Nf6 1-0\n";
        let (plies, report) = read(pgn, 3);
        assert_eq!(report.games, 2);
        assert_eq!(plies.len(), 5);
        assert_eq!(plies[0].1.to_string(), "e2e4");
        assert_eq!(plies[1].1.to_string(), "e7e5");
        assert_eq!(plies[2].1.to_string(), "g1f3");
        assert_eq!(plies[3].1.to_string(), "d2d4");
        // The result at the end of a game cut short still counts.
        assert_eq!(scores(&plies), [2, 0, 2, 2, 0]);
    }

    #[test]
    fn an_illegal_move_keeps_the_plies_before_it_and_is_reported() {
        let pgn = "1. e4 e5 2. Ke3 Nc6 1-0\n\n1. d4 1-0\n";
        let (plies, report) = read(pgn, 30);
        assert_eq!(plies.len(), 3);
        assert_eq!(report.issue_count, 1);
        let issue = &report.issues[0];
        assert_eq!((issue.game, issue.ply, issue.san.as_str()), (1, 3, "Ke3"));
        assert_eq!(issue.reason, GameIssueReason::IllegalMove);
        assert_eq!(issue.to_string(), "game 1, ply 3 `Ke3`: illegal move");
    }

    #[test]
    fn fen_starts_count_from_their_position_and_bad_starts_are_skipped() {
        let pgn = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *\n\n\
                   [FEN \"not a fen\"]\n\n1. e4 *\n\n\
                   [Variant \"Atomic\"]\n\n1. e4 *\n";
        let (plies, report) = read(pgn, 30);
        assert_eq!(report.games, 3);
        assert_eq!(plies.len(), 1);
        let start = shakmaty::fen::Fen::from_ascii(b"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
            .unwrap()
            .into_position::<Chess>(shakmaty::CastlingMode::Standard)
            .unwrap();
        assert_eq!(plies[0].0, key(&start));
        assert_eq!(report.issue_count, 2);
        assert!(matches!(
            report.issues[0].reason,
            GameIssueReason::Start(StartIssue::BadFen { .. })
        ));
        assert_eq!(
            report.issues[1].reason,
            GameIssueReason::Start(StartIssue::Variant("Atomic".into()))
        );
    }

    #[test]
    fn a_game_cut_short_counts_and_is_reported() {
        let (plies, report) = read("[Result \"1-0\"]\n\n1. e4 e5 2. N", 30);
        assert_eq!(scores(&plies), [2, 0]);
        assert_eq!(report.issue_count, 1);
        assert_eq!(report.issues[0].reason, GameIssueReason::Truncated);
        assert_eq!(
            report.issues[0].to_string(),
            "game 1, ply 2: the game text ends without a result: the game may be truncated"
        );
    }

    #[test]
    fn a_repeated_position_counts_every_time() {
        let (plies, _) = read("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 *\n", 30);
        assert_eq!(plies.len(), 5);
        assert_eq!(plies[0].0, plies[4].0);
        assert_eq!(plies[0].1, plies[4].1);
    }
}
