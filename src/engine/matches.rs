//! Engine matches: two engines play each opening with both colours, the games are
//! adjudicated by the rules and a move cap, and the result is a W/D/L tally with the
//! Elo difference and its margin.
//!
//! Openings come from the embedded ECO list (lichess-org/chess-openings): a seeded
//! choice of distinct lines, each played twice, so colour and opening advantages
//! cancel.

use std::io::{self, Write};
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Color, KnownOutcome, Position};
use thiserror::Error;

use super::Engine;
use super::Search;
use super::adjudicate::{GameEnd, adjudicate};
use super::choice::UnknownChoice;
use super::elo::Tally;
use super::error::EngineError;
use super::game::Game;
use super::limits::Limits;
use super::spec::EngineSpec;
use crate::book::eco;
use crate::book::export::GameWriter;
use crate::book::movelist::parse_moves;

/// Where the games start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Openings {
    /// Lines of the embedded ECO list.
    #[default]
    Eco,
    /// The standard starting position every time.
    StartPosition,
    /// Seed 003's ten: the start, 1.e4, French, Sicilian, Caro-Kann, Queen's Gambit,
    /// Nimzo-Indian, Nimzo-Larsen, King's Indian, English ([`SEED003_OPENINGS`]), in
    /// that order.
    Seed003,
}

/// Seed 003's ten opening positions (its §5.1), as (name, moves).
pub const SEED003_OPENINGS: [(&str, &str); 10] = [
    ("start position", ""),
    ("King's pawn", "e4"),
    ("French", "e4 e6"),
    ("Sicilian", "e4 c5"),
    ("Caro-Kann", "e4 c6"),
    ("Queen's Gambit", "d4 d5 c4"),
    ("Nimzo-Indian", "d4 Nf6 c4 e6 Nc3 Bb4"),
    ("Nimzo-Larsen", "b3"),
    ("King's Indian", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6"),
    ("English", "c4"),
];

impl FromStr for Openings {
    type Err = UnknownChoice;

    fn from_str(s: &str) -> Result<Openings, UnknownChoice> {
        match s.to_ascii_lowercase().as_str() {
            "eco" => Ok(Openings::Eco),
            "start" | "startpos" => Ok(Openings::StartPosition),
            "seed003" => Ok(Openings::Seed003),
            _ => Err(UnknownChoice {
                setting: "openings are",
                choices: "`eco`, `start` or `seed003`",
                given: s.to_owned(),
            }),
        }
    }
}

/// How a match is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// Games to play (an odd number leaves the last opening with one colour).
    pub games: u32,
    /// The limits of every move.
    pub limits: Limits,
    /// Where games start.
    pub openings: Openings,
    /// A game reaching this many plies (openings included) is a draw.
    pub max_plies: usize,
    /// Fixes the choice of openings and the built-in engines' random choices.
    pub seed: u64,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            games: 10,
            limits: Limits::movetime_ms(100).unwrap_or(Limits::ONE_PLY),
            openings: Openings::Eco,
            max_plies: 300,
            seed: 1,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game's number, from 1.
    pub number: u32,
    /// The opening's name (`"C60 Ruy Lopez"`, or `"start position"`).
    pub opening: String,
    /// Plies of the opening (played from the book, not by the engines).
    pub opening_plies: usize,
    /// Whether the first engine had White.
    pub first_is_white: bool,
    /// The moves.
    pub game: Game,
    /// How it ended.
    pub end: GameEnd,
}

impl GameRecord {
    /// The first engine's points: 1, ½ or 0.
    pub fn first_points(&self) -> f64 {
        match self.end.outcome() {
            KnownOutcome::Draw => 0.5,
            KnownOutcome::Decisive { winner } => {
                if (winner == Color::White) == self.first_is_white {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }

    /// The result as PGN writes it: `1-0`, `0-1`, `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        crate::book::explorer::outcome_name(self.end.outcome())
    }
}

/// A finished match, from the first engine's point of view.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The first engine's name.
    pub first: String,
    /// The second engine's name.
    pub second: String,
    /// The first engine's wins, draws and losses.
    pub tally: Tally,
    /// The games.
    pub games: Vec<GameRecord>,
}

/// What ends a match early.
#[derive(Debug, Error)]
pub enum MatchError {
    /// An engine could not be started (or restarted after it failed).
    #[error("cannot start {spec}: {source}")]
    Start {
        /// The engine's spec.
        spec: String,
        /// Why.
        source: EngineError,
    },
    /// The embedded openings could not be read (a bug in the shipped data).
    #[error("the ECO openings cannot be replayed: {0}")]
    Openings(String),
    /// Writing the report failed.
    #[error("cannot write the match report: {0}")]
    Write(#[from] io::Error),
}

/// `count` distinct openings (name, game), chosen with `seed`.
///
/// # Errors
///
/// [`MatchError::Openings`] if an embedded line does not replay.
pub fn openings(
    kind: Openings,
    count: usize,
    seed: u64,
) -> Result<Vec<(String, Game)>, MatchError> {
    match kind {
        Openings::StartPosition => {
            return Ok(vec![("start position".to_string(), Game::default()); count]);
        }
        Openings::Seed003 => {
            let ten = SEED003_OPENINGS
                .iter()
                .map(|(name, moves)| {
                    let start = Chess::default();
                    let moves = parse_moves(&start, moves)
                        .map_err(|e| MatchError::Openings(format!("{name}: {e}")))?;
                    let game = Game::from_moves(start, &moves)
                        .map_err(|i| MatchError::Openings(format!("{name}: move {}", i + 1)))?;
                    Ok((name.to_string(), game))
                })
                .collect::<Result<Vec<_>, MatchError>>()?;
            return Ok(ten.into_iter().cycle().take(count).collect());
        }
        Openings::Eco => {}
    }
    let mut lines = eco::embedded().lines;
    lines.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    lines
        .iter()
        .cycle()
        .take(count)
        .map(|line| {
            let game = Game::from_moves(Chess::default(), &line.moves)
                .map_err(|i| MatchError::Openings(format!("{}: move {}", line.title(), i + 1)))?;
            Ok((line.title(), game))
        })
        .collect()
}

/// Plays one game from `opening`: each engine searches its moves within `limits`
/// until [`adjudicate`] ends it. An engine that fails forfeits.
pub fn play_game(
    white: &mut dyn Engine,
    black: &mut dyn Engine,
    opening: &Game,
    limits: &Limits,
    max_plies: usize,
) -> (Game, GameEnd) {
    let mut game = opening.clone();
    let never = AtomicBool::new(false);
    if let Err(e) = white.new_game() {
        return (game, forfeit(Color::White, &e));
    }
    if let Err(e) = black.new_game() {
        return (game, forfeit(Color::Black, &e));
    }
    loop {
        if let Some(end) = adjudicate(&game, max_plies) {
            return (game, end);
        }
        let turn = game.position().turn();
        let engine: &mut dyn Engine = match turn {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        match engine.search(Search {
            game: &game,
            limits,
            stop: &never,
            on_info: &mut |_| {},
        }) {
            Ok(result) => match result.best {
                Some(m) if game.play(m) => {}
                other => {
                    let reason = format!("no legal move given ({other:?})");
                    return (
                        game,
                        GameEnd::Forfeit {
                            loser: turn,
                            reason,
                        },
                    );
                }
            },
            Err(e) => return (game, forfeit(turn, &e)),
        }
    }
}

fn forfeit(loser: Color, e: &EngineError) -> GameEnd {
    GameEnd::Forfeit {
        loser,
        reason: e.to_string(),
    }
}

/// Plays a match between the engines of `first` and `second`, calling `on_game` after
/// each game. An engine that fails loses that game and is restarted.
///
/// # Errors
///
/// [`MatchError`] when an engine cannot be started.
pub fn play_match(
    first: &EngineSpec,
    second: &EngineSpec,
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameRecord, &Tally),
) -> Result<MatchReport, MatchError> {
    let start = |spec: &EngineSpec, seed: u64| {
        spec.start(seed).map_err(|source| MatchError::Start {
            spec: spec.text.clone(),
            source,
        })
    };
    let mut a = start(first, config.seed)?;
    let mut b = start(second, config.seed.wrapping_add(1))?;
    let openings = openings(
        config.openings,
        config.games.div_ceil(2) as usize,
        config.seed,
    )?;
    let mut report = MatchReport {
        first: a.name(),
        second: b.name(),
        tally: Tally::default(),
        games: Vec::new(),
    };
    for number in 1..=config.games {
        let (opening, start_game) = &openings[(number as usize - 1) / 2];
        let first_is_white = number % 2 == 1;
        let (game, end) = if first_is_white {
            play_game(
                a.as_mut(),
                b.as_mut(),
                start_game,
                &config.limits,
                config.max_plies,
            )
        } else {
            play_game(
                b.as_mut(),
                a.as_mut(),
                start_game,
                &config.limits,
                config.max_plies,
            )
        };
        if let GameEnd::Forfeit { loser, .. } = &end {
            let first_failed = (*loser == Color::White) == first_is_white;
            if first_failed {
                a = start(first, config.seed.wrapping_add(u64::from(number) * 2))?;
            } else {
                b = start(second, config.seed.wrapping_add(u64::from(number) * 2 + 1))?;
            }
        }
        let record = GameRecord {
            number,
            opening: opening.clone(),
            opening_plies: start_game.moves().len(),
            first_is_white,
            game,
            end,
        };
        let points = record.first_points();
        if points == 1.0 {
            report.tally.wins += 1;
        } else if points == 0.0 {
            report.tally.losses += 1;
        } else {
            report.tally.draws += 1;
        }
        on_game(&record, &report.tally);
        report.games.push(record);
    }
    Ok(report)
}

/// The game as PGN movetext with headers; the book moves and the engines' moves are
/// told apart by a comment.
pub fn to_pgn(record: &GameRecord, first: &str, second: &str) -> String {
    let (white, black) = if record.first_is_white {
        (first, second)
    } else {
        (second, first)
    };
    let mut out = GameWriter::new();
    out.tag("Event", "hastings match");
    out.tag("Round", &record.number.to_string());
    out.tag("White", white);
    out.tag("Black", black);
    out.tag("Result", record.result());
    out.tag("Opening", &record.opening);
    out.tag("Termination", &record.end.to_string());
    let mut pos = record.game.start().clone();
    for (i, &m) in record.game.moves().iter().enumerate() {
        out.san(&pos, m);
        if i + 1 == record.opening_plies {
            out.comment("end of book");
        }
        pos.play_unchecked(m);
    }
    out.finish(record.result())
}

/// Plays a match and prints it to `out`: a header, one line per game with the running
/// tally, and the result with the Elo difference; each game also goes to `pgn` when
/// given.
///
/// # Errors
///
/// [`MatchError`] when an engine cannot be started or writing fails.
pub fn run_and_print(
    first: &EngineSpec,
    second: &EngineSpec,
    config: &MatchConfig,
    mut pgn: Option<&mut dyn Write>,
    out: &mut impl Write,
) -> Result<MatchReport, MatchError> {
    let limits = describe_limits(&config.limits);
    let openings = match config.openings {
        Openings::Eco => "ECO openings",
        Openings::StartPosition => "start position",
        Openings::Seed003 => "the ten openings of Klevansky, Ostroff and Offen (2023)",
    };
    writeln!(
        out,
        "match: {} vs {}, {} games, {limits}, {openings}, move cap {} plies, seed {}",
        first.text, second.text, config.games, config.max_plies, config.seed
    )?;
    out.flush()?;
    let mut failure: Option<io::Error> = None;
    let (first_name, second_name) = (first.text.clone(), second.text.clone());
    let report = play_match(first, second, config, |record, tally| {
        let side = if record.first_is_white {
            "white"
        } else {
            "black"
        };
        let line = format!(
            "game {:>3}  {:<40}  {first_name} {side:<5}  {:<7}  {}, {} plies  {tally_short}",
            record.number,
            truncate(&record.opening, 40),
            record.result(),
            record.end,
            record.game.moves().len(),
            tally_short = format_args!("+{} ={} -{}", tally.wins, tally.draws, tally.losses),
        );
        let written = writeln!(out, "{line}").and_then(|()| out.flush());
        let pgn_written = match pgn.as_mut() {
            Some(w) => write!(w, "{}", to_pgn(record, &first_name, &second_name)),
            None => Ok(()),
        };
        if let Err(e) = written.and(pgn_written) {
            failure.get_or_insert(e);
        }
    })?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    writeln!(
        out,
        "result: {} vs {}: {} ({} games)",
        report.first,
        report.second,
        report.tally,
        report.tally.games()
    )?;
    Ok(report)
}

fn describe_limits(limits: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(t) = limits.movetime_limit() {
        parts.push(format!("{} ms/move", t.as_millis()));
    }
    if let Some(d) = limits.depth_limit() {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = limits.nodes_limit() {
        parts.push(format!("{n} nodes/move"));
    }
    if parts.is_empty() {
        "no limit".to_string()
    } else {
        parts.join(", ")
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}
