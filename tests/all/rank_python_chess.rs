//! Ranked moves survive another tool: `tests/fixtures/french_advance_marked.pgn` (the
//! Advance French fixture ranked by `hastings repertoire mark`) read and written back by
//! python-chess 1.11.2 (`docs/rank_marks_python_chess.py`, whose output is committed as
//! `tests/fixtures/french_advance_marked.python-chess.pgn`) still reads, with the same
//! ranks and the same lines: python-chess keeps `[%hastings alt]` and
//! `[%hastings paused]` as comment text.

#![allow(clippy::unwrap_used)]

use hastings::book::repertoire::{Document, Rank, Standing};
use hastings::book::{ImportMode, MoveMark};

use crate::common;

const FORK: &str = "1. e4 e6 2. d4 d5 3. e5 c5 4. c3";

fn standings(bytes: &[u8]) -> Vec<(String, Standing)> {
    let doc = Document::read(bytes);
    assert!(doc.issues().is_empty(), "{:?}", doc.issues());
    let tree = doc.tree(0).unwrap();
    let fork = doc.node_at(0, FORK).unwrap();
    tree.node(fork)
        .unwrap()
        .children()
        .iter()
        .map(|&c| {
            let san = tree.node(c).unwrap().mv().unwrap().1.to_string();
            (san, tree.standing(c).unwrap())
        })
        .collect()
}

#[test]
fn the_marked_fixture_is_the_document_models_ranking() {
    let mut doc = Document::read(&common::fixture_bytes("french_advance_ranked.pgn"));
    let at = |doc: &Document, san: &str| doc.node_at(0, &format!("{FORK} {san}")).unwrap();
    let (cxd4, qb6, nc6) = (at(&doc, "cxd4"), at(&doc, "Qb6"), at(&doc, "Nc6"));
    doc.mark(0, cxd4, Rank::Main).unwrap();
    doc.mark(0, qb6, Rank::Unpause).unwrap();
    doc.mark(0, nc6, Rank::Pause).unwrap();
    doc.mark(0, qb6, Rank::Alternative).unwrap();
    assert_eq!(
        doc.to_pgn(),
        common::fixture_bytes("french_advance_marked.pgn")
    );
}

#[test]
fn python_chess_keeps_the_marks() {
    let ours = common::fixture_bytes("french_advance_marked.pgn");
    let theirs = common::fixture_bytes("french_advance_marked.python-chess.pgn");
    assert_ne!(ours, theirs, "python-chess writes its own layout");
    let expected = [
        ("cxd4".to_owned(), Standing::Main),
        ("Nc6".to_owned(), Standing::Paused),
        ("Qb6".to_owned(), Standing::Alternative),
    ];
    assert_eq!(standings(&ours), expected);
    assert_eq!(standings(&theirs), expected);
    // The same lines, the paused one left out, with the same marks and comments.
    let ours = common::import_fixture("french_advance_marked.pgn", ImportMode::Auto);
    let theirs = common::import_fixture("french_advance_marked.python-chess.pgn", ImportMode::Auto);
    assert_eq!(ours.report.issues, []);
    assert_eq!(theirs.report.issues, []);
    let lines = |import: &hastings::book::PgnImport| {
        import
            .lines
            .iter()
            .map(|l| (l.moves.clone(), l.annotations.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&ours), lines(&theirs));
    assert_eq!(ours.lines.len(), 4, "4...Nc6 and its line are paused");
    assert!(
        ours.lines
            .iter()
            .flat_map(|l| &l.annotations)
            .any(|a| a.mark == Some(MoveMark::Alternative)
                && a.comment.as_deref() == Some("Not now."))
    );
}
