//! The one reader of games' mainlines, move by move: what `book make`
//! ([`read_games`](super::read_games)), the explorer
//! ([`read_explorer_games`](crate::book::explorer::read_explorer_games)) and the
//! predictor's training set share.
//!
//! Each game's mainline is played from its start (the standard position, or the
//! `[FEN]` of a standard-chess game) up to a ply limit; variations are skipped. A game
//! of another variant or with a bad start is skipped, an illegal, ambiguous or null move
//! ends the game's plies there, and a movetext without a result token is reported as
//! cut short: each gives one [`GameIssue`] and reading goes on. The result is the
//! `[Result]` tag's, else the movetext's result token. What is done with the plies is
//! the [`Mainlines`] implementation's.

use std::io::{self, Read};
use std::ops::ControlFlow;

use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::san::{San, SanError};
use shakmaty::{Chess, Color, KnownOutcome, Move, Position};

use super::games::{GameIssue, GameIssueReason, GamesReport, MAX_KEPT_ISSUES};
use super::moves::RawMove;
use crate::book::pgn::start_from_tags;

/// What a reader of mainlines does with the games read by [`read_mainlines`].
pub trait Mainlines {
    /// The tags it keeps, besides `FEN`, `Variant` and `Result` (read for every game).
    type Tags: Default;

    /// A tag of the game being read (every tag, `FEN`, `Variant` and `Result` too).
    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) {
        let _ = (tags, name, value);
    }

    /// The movetext of game `game` (1-based, in the text read) begins at a playable
    /// start: the plies that follow belong to it.
    fn begin(&mut self, game: u64, tags: Self::Tags);

    /// The `ply`-th ply (from 0) of game `game`: `mv`, encoded as `raw_move`, about to
    /// be played at `pos`.
    fn ply(&mut self, game: u64, ply: u32, pos: &Chess, mv: Move, raw_move: RawMove);

    /// The game is over for the reader (read to its end, or to the ply limit with its
    /// result known): `result` is the tag's, else the movetext's token (`None`: neither
    /// says). Returns how many plies it gave on ([`GamesReport::plies`]).
    fn end(&mut self, result: Option<Outcome>) -> u64;
}

/// Reads every game of `pgn` and gives the first `max_plies` plies of each mainline to
/// `games`: the mainline of each game from its start, variations skipped; a bad start
/// or move, or a movetext cut short, is a [`GameIssue`] and reading goes on.
///
/// # Errors
///
/// Only the reader's I/O errors; problems in games are [`GamesReport::issues`].
pub fn read_mainlines<M: Mainlines>(
    pgn: impl Read,
    max_plies: u32,
    games: &mut M,
) -> io::Result<GamesReport> {
    let mut visitor = MainlineVisitor {
        games,
        max_plies,
        report: GamesReport::default(),
    };
    let mut reader = Reader::new(pgn);
    while reader.read_game(&mut visitor)?.is_some() {}
    Ok(visitor.report)
}

/// A `[Result]` tag's value as an outcome (`*` and anything else: unknown).
fn outcome_from_tag(value: &[u8]) -> Outcome {
    match value.trim_ascii() {
        b"1-0" => Outcome::Known(KnownOutcome::Decisive {
            winner: Color::White,
        }),
        b"0-1" => Outcome::Known(KnownOutcome::Decisive {
            winner: Color::Black,
        }),
        b"1/2-1/2" => Outcome::Known(KnownOutcome::Draw),
        _ => Outcome::Unknown,
    }
}

/// The tags every game is read with, and the reader's own.
#[derive(Debug, Default)]
struct Tags<T> {
    fen: Option<Vec<u8>>,
    variant: Option<String>,
    result: Option<Outcome>,
    theirs: T,
}

struct Game {
    pos: Chess,
    /// Plies read (played or not).
    sans: u32,
    /// No more plies are taken (limit reached or a bad move).
    stopped: bool,
    /// From the tag, else from the movetext's result token.
    result: Option<Outcome>,
    /// The movetext had a result token.
    ended: bool,
}

struct MainlineVisitor<'g, M: Mainlines> {
    games: &'g mut M,
    max_plies: u32,
    report: GamesReport,
}

impl<M: Mainlines> MainlineVisitor<'_, M> {
    fn issue(&mut self, ply: u32, san: String, reason: GameIssueReason) {
        self.report.issue_count += 1;
        if self.report.issues.len() < MAX_KEPT_ISSUES {
            self.report.issues.push(GameIssue {
                game: self.report.games,
                ply,
                san,
                reason,
            });
        }
    }

    fn end(&mut self, result: Option<Outcome>) {
        self.report.plies += self.games.end(result);
    }
}

impl<M: Mainlines> Visitor for MainlineVisitor<'_, M> {
    type Tags = Tags<M::Tags>;
    type Movetext = Game;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Self::Tags> {
        self.report.games += 1;
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        match name {
            b"FEN" => tags.fen = Some(value.as_bytes().to_vec()),
            b"Variant" => tags.variant = Some(value.decode_utf8_lossy().into_owned()),
            b"Result" => tags.result = Some(outcome_from_tag(value.as_bytes())),
            _ => {}
        }
        self.games.tag(&mut tags.theirs, name, value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<(), Game> {
        let fen = tags.fen.as_deref().map(String::from_utf8_lossy);
        let pos = match start_from_tags(tags.variant.as_deref(), fen.as_deref()) {
            Ok(pos) => pos.unwrap_or_default(),
            Err(issue) => {
                self.issue(0, String::new(), issue.into());
                return ControlFlow::Break(());
            }
        };
        self.games.begin(self.report.games, tags.theirs);
        ControlFlow::Continue(Game {
            pos,
            sans: 0,
            stopped: false,
            result: tags.result,
            ended: false,
        })
    }

    fn san(&mut self, game: &mut Game, san_plus: SanPlus) -> ControlFlow<()> {
        game.sans += 1;
        if game.stopped || game.sans > self.max_plies {
            game.stopped = true;
            // With the result known there is nothing left to read in this game.
            return match game.result {
                Some(result) => {
                    self.end(Some(result));
                    ControlFlow::Break(())
                }
                None => ControlFlow::Continue(()),
            };
        }
        let played = match san_plus.san {
            San::Null => Err(GameIssueReason::NullMove),
            san => san.to_move(&game.pos).map_err(|e| match e {
                SanError::IllegalSan => GameIssueReason::IllegalMove,
                SanError::AmbiguousSan => GameIssueReason::AmbiguousMove,
            }),
        };
        // A standard-chess move always has an encoding; `None` would be a bug upstream.
        let encoded = played.and_then(|mv| {
            RawMove::from_move(mv)
                .map(|raw| (mv, raw))
                .ok_or(GameIssueReason::IllegalMove)
        });
        match encoded {
            Ok((mv, raw)) => {
                self.games
                    .ply(self.report.games, game.sans - 1, &game.pos, mv, raw);
                game.pos.play_unchecked(mv);
            }
            Err(reason) => {
                game.stopped = true;
                self.issue(game.sans, san_plus.to_string(), reason);
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut Game) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, game: &mut Game, outcome: Outcome) -> ControlFlow<()> {
        game.ended = true;
        if game.result.is_none() {
            game.result = Some(outcome);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Game) {
        if !game.ended {
            self.issue(game.sans, String::new(), GameIssueReason::Truncated);
        }
        self.end(game.result);
    }
}
