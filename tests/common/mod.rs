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

// ---------------------------------------------------------------------------------------
// Fixtures and PGN imports (tests/book_pgn*.rs).

/// The path of a file in `tests/fixtures`.
pub fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The bytes of a file in `tests/fixtures`.
pub fn fixture_bytes(name: &str) -> Vec<u8> {
    let path = fixture(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The embedded ECO graph, built once per test binary.
pub fn eco_graph() -> &'static PositionGraph {
    static ECO: std::sync::LazyLock<PositionGraph> =
        std::sync::LazyLock::new(|| PositionGraph::eco().unwrap());
    &ECO
}

/// Import options: `mode`, no ply limit of its own.
pub fn import_options(mode: hastings::book::ImportMode) -> hastings::book::ImportOptions {
    hastings::book::ImportOptions {
        mode,
        max_plies: None,
    }
}

/// A fixture imported as source 1 in `mode`, named by the ECO graph.
pub fn import_fixture(name: &str, mode: hastings::book::ImportMode) -> hastings::book::PgnImport {
    let bytes = fixture_bytes(name);
    let options = import_options(mode);
    hastings::book::pgn::read_pgn(
        &bytes[..],
        hastings::book::SourceId(1),
        &options,
        Some(eco_graph()),
    )
    .unwrap()
}

/// The moves of a line in SAN, separated by spaces.
pub fn line_sans(line: &hastings::book::OpeningLine) -> String {
    line.moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
