//! The graph keeps each line's moves as the reader played them: legal moves whose SAN,
//! read again from the line's start, gives the same moves, for the shipped ECO data and
//! real PGN fixtures (a FEN start among them), in the graph's line order.
// Helpers of a test file are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::import_fixture;
use hastings::book::line::san_path;
use hastings::book::{ImportMode, LineId, PositionGraph, eco};

#[test]
fn every_line_keeps_the_moves_its_san_plays() {
    let mut lines = eco::embedded().lines;
    for name in ["fen_start.pgn", "study_chapters.pgn", "lichess_db_100k.pgn"] {
        lines.extend(import_fixture(name, ImportMode::Auto).lines);
    }
    let build = PositionGraph::build(lines);
    // The "Bad" rows and games are not in the graph; every line that is keeps its moves.
    let graph = build.graph;
    let mut plies = 0;
    let mut from_fen = 0;
    for (i, line) in graph.lines().iter().enumerate() {
        let id = LineId(u32::try_from(i).unwrap());
        let replayed = san_path(&line.start_position(), &line.sans()).unwrap();
        assert_eq!(graph.line_moves(id), replayed, "line {i}: {}", line.source);
        plies += replayed.len();
        from_fen += usize::from(line.start.is_some());
    }
    assert!(plies > graph.lines().len());
    assert!(from_fen > 0, "a line from a FEN start is among them");
}
