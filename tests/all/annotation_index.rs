//! The annotation index built with the graph finds, for every book move, what the old
//! per-frame replay of the lines through it found: on the shipped ECO data, on real
//! PGN fixtures with comments, and on books that mix them (so that a commented move is
//! reached by many uncommented lines and through transpositions).
// Helpers of a test file are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

#[path = "../../benches/shared/annotation_replay.rs"]
mod annotation_replay;

use annotation_replay::replayed_annotation;
use common::import_fixture;
use hastings::book::annotation::move_annotation;
use hastings::book::{ImportMode, OpeningLine, PositionGraph, eco};

/// The fixtures with comments, NAGs or marks, each read as its importer decides.
const COMMENTED: [&str; 5] = [
    "study_chapters.pgn",
    "repertoire.pgn",
    "check_planted.pgn",
    "uci_moves.pgn",
    "lichess_db_100k.pgn",
];

fn fixture_lines(name: &str) -> Vec<OpeningLine> {
    import_fixture(name, ImportMode::Auto).lines
}

/// Checks every continuation of every node of the graph of `lines`: the index gives
/// what the uncapped replay gives, and what the drill panel's capped replay (200
/// lines) gave whenever that found something. Returns how many moves have an
/// annotation.
fn compare(what: &str, lines: Vec<OpeningLine>) -> usize {
    let graph = PositionGraph::build(lines).graph;
    let mut found = 0;
    for node in graph.node_ids() {
        let pos = graph.position(node);
        for c in graph.continuations(node) {
            let index = move_annotation(&graph, &pos, c.mv);
            let replay = replayed_annotation(&graph, &pos, c.mv, usize::MAX);
            let san = graph.san(node, c.mv);
            assert_eq!(
                index,
                replay.as_ref(),
                "{what}: {san} at {}",
                graph.fen(node)
            );
            if let Some(capped) = replayed_annotation(&graph, &pos, c.mv, 200) {
                assert_eq!(index, Some(&capped), "{what}: {san} at {}", graph.fen(node));
            }
            found += usize::from(index.is_some());
        }
    }
    found
}

#[test]
fn the_shipped_eco_data_says_the_same_through_the_index() {
    // The ECO rows carry no comments: every move has none, by index and by replay.
    assert_eq!(compare("eco", eco::embedded().lines), 0);
}

#[test]
fn each_commented_fixture_says_the_same_through_the_index() {
    for name in COMMENTED {
        let lines = fixture_lines(name);
        let commented = lines.iter().filter(|l| !l.annotations.is_empty()).count();
        let found = compare(name, lines);
        assert_eq!(found > 0, commented > 0, "{name}: {found} annotated moves");
    }
}

#[test]
fn commented_fixtures_after_the_eco_rows_say_the_same_through_the_index() {
    // Thousands of ECO lines play the study's first moves before any study line does.
    let mut lines = eco::embedded().lines;
    for name in COMMENTED {
        lines.extend(fixture_lines(name));
    }
    let study_lines = fixture_lines("study_chapters.pgn");
    let found = compare("eco + fixtures", lines);
    assert!(found > 0);
    // And the lines in the other order: the first line to speak wins.
    let mut reversed: Vec<OpeningLine> = study_lines.into_iter().rev().collect();
    reversed.extend(fixture_lines("repertoire.pgn"));
    let found = compare("study reversed + repertoire", reversed);
    assert!(found > 0);
}
