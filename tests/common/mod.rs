//! Helpers shared by the integration tests: games written as SAN.

#![allow(dead_code, clippy::unwrap_used)] // not every test file uses every helper

use std::process::Command;

use hastings::book::{NodeId, PositionGraph};
use shakmaty::{Chess, Move, Position, san::San};

/// The moves of `sans` ("e4 e5 Nf3") played from the standard position.
pub fn san_moves(sans: &str) -> Vec<Move> {
    let mut pos = Chess::default();
    sans.split_whitespace()
        .map(|s| {
            let m = San::from_ascii(s.as_bytes())
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(m);
            m
        })
        .collect()
}

/// The position after `sans` from the standard position.
pub fn position_after(sans: &str) -> Chess {
    let mut pos = Chess::default();
    for m in san_moves(sans) {
        pos.play_unchecked(m);
    }
    pos
}

/// The nodes of the game `sans`, the start first.
pub fn history(graph: &PositionGraph, sans: &str) -> Vec<NodeId> {
    let mut pos = Chess::default();
    let mut out = vec![graph.lookup(&pos).unwrap()];
    for m in san_moves(sans) {
        pos.play_unchecked(m);
        out.push(graph.lookup(&pos).unwrap());
    }
    out
}

/// Runs the `hastings` binary: (exit code, stdout, stderr).
pub fn hastings(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hastings"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
