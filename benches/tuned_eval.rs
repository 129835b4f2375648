//! Seed 003's evaluation: evaluations per second on one core, and the α-β search's
//! nodes per second with it (the positions and depths of `benches/engine.rs`, a ply
//! shallower where the tuned weights search more nodes).
//!
//! Run: `nice -n 19 cargo bench --bench tuned_eval`.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)] // a benchmark

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use hastings::engine::evaluation::Evaluation;
use hastings::engine::search::{SearchOptions, Searcher};
use hastings::engine::tuned::TunedEval;
use hastings::engine::{Game, Limits};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// (name, FEN, depth).
const POSITIONS: [(&str, &str, u32); 4] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        "qgd",
        "rnbqkb1r/ppp2ppp/4pn2/3p2B1/2PP4/2N5/PP2PPPP/R2QKBNR b KQkq - 3 4",
        6,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 9),
];

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// The four positions and every position one legal move from them: a mix of openings,
/// middlegames and endgames.
fn sample() -> Vec<Chess> {
    let mut out = Vec::new();
    for (_, fen, _) in POSITIONS {
        let p = pos(fen);
        for m in p.legal_moves() {
            let mut child = p.clone();
            child.play_unchecked(m);
            out.push(child);
        }
        out.push(p);
    }
    out
}

fn tuned() -> Evaluation {
    Evaluation::Tuned(TunedEval::shipped().unwrap())
}

fn evaluations(c: &mut Criterion) {
    let positions = sample();
    let mut group = c.benchmark_group("tuned_eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let eval = TunedEval::shipped().unwrap();
    group.bench_function("evaluate", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| eval.evaluate(black_box(p)))
                .fold(0i64, |a, s| a + i64::from(s))
        });
    });
    let tapered = Evaluation::Tapered;
    group.bench_function("evaluate_tapered", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| tapered.evaluate(black_box(p)))
                .fold(0i64, |a, s| a + i64::from(s))
        });
    });
    group.finish();
}

fn search(evaluation: &Evaluation, g: &Game, depth: u32) -> u64 {
    Searcher::with_evaluation(16, evaluation.clone())
        .search(
            g,
            &Limits::depth(depth),
            &SearchOptions::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .nodes
}

fn alphabeta(c: &mut Criterion) {
    let mut group = c.benchmark_group("alphabeta_tuned");
    group.sample_size(10);
    let evaluation = tuned();
    for (name, fen, depth) in POSITIONS {
        let g = Game::new(pos(fen));
        let n = search(&evaluation, &g, depth);
        println!("{name}: depth {depth}, {n} nodes");
        group.throughput(Throughput::Elements(n));
        group.bench_function(format!("{name}/depth{depth}"), |b| {
            b.iter_batched(
                || Searcher::with_evaluation(16, evaluation.clone()),
                |mut s| {
                    s.search(
                        &g,
                        &Limits::depth(depth),
                        &SearchOptions::default(),
                        &AtomicBool::new(false),
                        &mut |_| {},
                    )
                },
                BatchSize::LargeInput,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, evaluations, alphabeta);
criterion_main!(benches);
