//! Building the position graph of the embedded ECO list, finding what its lines say
//! about a move (the annotation index against the replay it replaced), and finding an
//! opening by name.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hastings::book::annotation::move_annotation;
use hastings::book::search::OpeningIndex;
use hastings::book::{MoveAnnotation, OpeningLine, PositionGraph, eco};
use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

#[path = "shared/annotation_replay.rs"]
mod annotation_replay;

fn build(c: &mut Criterion) {
    c.bench_function("eco parse (3,807 rows)", |b| {
        b.iter(|| black_box(eco::embedded()))
    });
    let lines = eco::embedded().lines;
    c.bench_function(
        "eco graph build (parsed lines, transpositions included)",
        |b| b.iter(|| black_box(PositionGraph::build(lines.iter().cloned()))),
    );
    c.bench_function("eco graph from embedded text (parse + build)", |b| {
        b.iter(|| black_box(PositionGraph::eco()))
    });
}

/// The ECO lines as an annotated repertoire: each line's last move carries its name as
/// a comment, as a study chapter says what a line is where it ends.
fn annotated_eco() -> Vec<OpeningLine> {
    eco::embedded()
        .lines
        .into_iter()
        .map(|line| {
            let ply = line.moves.len().saturating_sub(1) as u32;
            let comment = Some(line.name.clone());
            OpeningLine {
                annotations: vec![MoveAnnotation {
                    ply,
                    comment,
                    ..MoveAnnotation::default()
                }],
                ..line
            }
        })
        .collect()
}

/// What the drill panel looks up in one frame at `pos`: the annotation of every book
/// move there (the list after a wrong move), each found by `find`.
fn frame(graph: &PositionGraph, pos: &Chess, find: impl Fn(Move) -> bool) -> usize {
    let Some(node) = graph.lookup(pos) else {
        return 0;
    };
    graph
        .continuations(node)
        .iter()
        .filter(|c| find(c.mv))
        .count()
}

fn annotations(c: &mut Criterion) {
    let graph = PositionGraph::build(annotated_eco()).graph;
    let start = Chess::default();
    let after_e4 = {
        let mut pos = start.clone();
        let e4 = San::from_ascii(b"e4").unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(e4);
        pos
    };
    for (name, pos) in [("the start", &start), ("1.e4", &after_e4)] {
        let index = |mv| move_annotation(&graph, pos, mv).is_some();
        let replay = |mv| annotation_replay::replayed_annotation(&graph, pos, mv, 200).is_some();
        assert_eq!(frame(&graph, pos, index), frame(&graph, pos, replay));
        c.bench_function(
            &format!("one frame's annotations at {name} (annotated ECO): index"),
            |b| b.iter(|| black_box(frame(&graph, pos, index))),
        );
        c.bench_function(
            &format!("one frame's annotations at {name} (annotated ECO): replay"),
            |b| b.iter(|| black_box(frame(&graph, pos, replay))),
        );
    }
}

/// "Find an opening": the index made when the book changes, and one search per
/// keystroke on the whole ECO (the eight results the top bar lists).
fn search(c: &mut Criterion) {
    let graph = PositionGraph::eco().unwrap();
    c.bench_function("opening index of the ECO graph (3,807 lines)", |b| {
        b.iter(|| black_box(OpeningIndex::new(&graph)))
    });
    let index = OpeningIndex::new(&graph);
    for query in [
        "n",
        "Najdorf",
        "sicilian najdorf",
        "C65",
        "B90-B99",
        "xyzzy",
    ] {
        c.bench_function(&format!("opening search {query:?} (8 results)"), |b| {
            b.iter(|| black_box(index.search(&graph, query, 8)))
        });
    }
}

criterion_group!(benches, build, annotations, search);
criterion_main!(benches);
