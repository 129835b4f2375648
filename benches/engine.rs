//! Built-in engine speed: α-β nodes per second on fixed positions at a fixed depth,
//! and MCTS iterations per second.
//!
//! Each search starts from a fresh table (made outside the timed part), so the node
//! count is the same every iteration and criterion's throughput is the nps.
//! Run: `nice -n 19 cargo bench --bench engine`.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)] // a benchmark

use std::sync::atomic::AtomicBool;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use hastings::engine::search::{SearchOptions, Searcher};
use hastings::engine::{Engine, Game, Limits, Mcts};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// (name, FEN, depth): an opening, a busy middlegame, an endgame.
const POSITIONS: [(&str, &str, u32); 4] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        7,
    ),
    (
        "qgd",
        "rnbqkb1r/ppp2ppp/4pn2/3p2B1/2PP4/2N5/PP2PPPP/R2QKBNR b KQkq - 3 4",
        7,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        6,
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 10),
];

fn game(fen: &str) -> Game {
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    Game::new(pos)
}

fn nodes(g: &Game, depth: u32) -> u64 {
    Searcher::new(16)
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
    let mut group = c.benchmark_group("alphabeta");
    group.sample_size(10);
    for (name, fen, depth) in POSITIONS {
        let g = game(fen);
        let n = nodes(&g, depth);
        println!("{name}: depth {depth}, {n} nodes");
        group.throughput(Throughput::Elements(n));
        group.bench_function(format!("{name}/depth{depth}"), |b| {
            b.iter_batched(
                || Searcher::new(16),
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

fn mcts(c: &mut Criterion) {
    const ITERATIONS: u64 = 1_000;
    let mut group = c.benchmark_group("mcts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ITERATIONS));
    let g = game(POSITIONS[1].1);
    group.bench_function("qgd/1000", |b| {
        b.iter_batched(
            Mcts::default,
            |mut m| {
                m.search(
                    &g,
                    &Limits::nodes(ITERATIONS),
                    &AtomicBool::new(false),
                    &mut |_| {},
                )
            },
            BatchSize::LargeInput,
        );
    });
    group.finish();
}

criterion_group!(benches, alphabeta, mcts);
criterion_main!(benches);
