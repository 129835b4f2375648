//! Built-in engine speed: α-β nodes per second on fixed positions at a fixed depth,
//! and MCTS iterations per second.
//!
//! Each search starts from a fresh table (made outside the timed part), so the node
//! count is the same every iteration and criterion's throughput is the nps.
//! Run: `nice -n 19 cargo bench -p hastings-bench --bench engine`.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)] // a benchmark

use std::sync::atomic::AtomicBool;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use hastings::engine::evaluation::Evaluation;
use hastings::engine::{Engine, Limits, Mcts, Search};

#[path = "shared/engine_positions.rs"]
mod engine_positions;
use engine_positions::{POSITIONS, alphabeta_group, game};

fn alphabeta(c: &mut Criterion) {
    alphabeta_group(c, "alphabeta", Evaluation::Tapered, 0);
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
                m.search(Search {
                    game: &g,
                    limits: &Limits::nodes(ITERATIONS).unwrap(),
                    stop: &AtomicBool::new(false),
                    on_info: &mut |_| {},
                })
            },
            BatchSize::LargeInput,
        );
    });
    group.finish();
}

criterion_group!(benches, alphabeta, mcts);
criterion_main!(benches);
