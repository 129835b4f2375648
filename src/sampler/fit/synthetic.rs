//! Games sampled under a known style: the data of recovery tests and benchmarks.
//!
//! Each game is one chain of the sampler (docs/sampler.md §4) from the standard position:
//! every move, of either side, is a Metropolis–Hastings step under the style, carrying
//! `s_prev` along as the drill does, until the book ends or the ply limit. The games
//! are written as PGN text, so a test can read them back through the importer and fit
//! them with the whole path exercised.
//!
//! The `*_from` functions sample from a [`MoveSource`] (the graph and Polyglot books
//! under a popularity blend), carrying the game's ECO name along for the flags of book
//! moves as [`MoveSource::explore`] does; a game stops where the source does not know
//! the position ([`MoveSource::knows`]) or has no candidate.

use std::sync::Arc;

use rand::Rng;
use shakmaty::{Chess, Move, Position};

use crate::book::export::{ExportError, write_pgn};
use crate::book::{GameTags, LineSource, OpeningLine, PositionGraph, SourceId};
use crate::sampler::{MoveSource, Style};

/// One sampled game from the graph alone: the moves from the standard position.
pub fn sample_game(
    graph: &PositionGraph,
    style: &Style,
    plies: usize,
    rng: &mut impl Rng,
) -> Vec<Move> {
    sample_game_from(&MoveSource::graph(graph), style, plies, rng)
}

/// One sampled game from `source`: the moves from the standard position.
pub fn sample_game_from(
    source: &MoveSource<'_>,
    style: &Style,
    plies: usize,
    rng: &mut impl Rng,
) -> Vec<Move> {
    let graph = source.graph_ref();
    let mut pos = Chess::default();
    let mut s_prev = 1.0;
    let mut named = None;
    let mut moves = Vec::new();
    while moves.len() < plies {
        if !source.knows(&pos) {
            break;
        }
        if let Some(line) = graph.lookup(&pos).and_then(|n| graph.name(n)) {
            named = Some(line);
        }
        let dist = source.distribution(&pos, style, s_prev, named);
        let Some(step) = dist.step(rng) else {
            break;
        };
        let c = &dist.candidates[step.index];
        s_prev = c.share;
        moves.push(c.mv);
        pos.play_unchecked(c.mv);
    }
    moves
}

/// `n` games sampled under `style` from `source` ([`sample_game_from`]; a graph:
/// `MoveSource::graph`) as PGN text. The player named `player` has White in the
/// even-numbered games (0, 2, …) and Black in the others; the other side is
/// `"Opponent"`. Every game's result is `*`: read them in games mode.
///
/// # Errors
///
/// [`ExportError`] only if writing to memory fails (it does not).
pub fn sample_games_pgn_from(
    source: &MoveSource<'_>,
    style: &Style,
    n: usize,
    plies: usize,
    player: &str,
    rng: &mut impl Rng,
) -> Result<String, ExportError> {
    let mut lines = Vec::with_capacity(n);
    for i in 0..n {
        let moves = sample_game_from(source, style, plies, rng);
        let (white, black) = if i % 2 == 0 {
            (player, "Opponent")
        } else {
            ("Opponent", player)
        };
        let game = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let tags: GameTags = [
            ("Event", format!("Sampled game {game}")),
            ("White", white.to_owned()),
            ("Black", black.to_owned()),
            ("Result", "*".to_owned()),
        ]
        .iter()
        .map(|(k, v)| (*k, v.as_str()))
        .collect();
        let source = LineSource::Pgn {
            source: SourceId(1),
            game,
        };
        lines.push(OpeningLine {
            tags: Some(Arc::new(tags)),
            ..OpeningLine::new(source, moves)
        });
    }
    let mut out = Vec::new();
    write_pgn(&lines, &mut out)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}
