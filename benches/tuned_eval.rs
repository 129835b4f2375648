//! Seed 003's evaluation: evaluations per second on one core, the α-β search's nodes
//! per second with it (the positions of `benches/engine.rs`, a ply shallower), and one
//! generation of the GA on master moves (75 organisms × 1,000 positions at depth 1, on
//! two threads).
//!
//! Run: `nice -n 19 cargo bench --bench tuned_eval`.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)] // a benchmark

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use hastings::book::polyglot::{PlySink, RawMove, read_games};
use hastings::engine::evaluation::Evaluation;
use hastings::engine::search::{SearchOptions, Searcher};
use hastings::engine::tuned::TunedEval;
use hastings::engine::tuning::{MoveMatching, Sample, random_population};
use hastings::engine::{Game, Limits};
use hastings::genetic::Problem;
use shakmaty::{Chess, Move, Position};

#[path = "shared/engine_positions.rs"]
mod engine_positions;
use engine_positions::{POSITIONS, position as pos};

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
    // A ply shallower than the tapered evaluation's bench: the tuned weights search more.
    for (name, fen, depth) in POSITIONS.map(|(n, f, d)| (n, f, d - 1)) {
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

/// Every third position from ply 8 on of the fixtures' games, up to `count`.
fn fixture_positions(count: usize) -> Vec<Sample> {
    struct Every {
        out: Vec<Sample>,
    }
    impl PlySink for Every {
        type Ply = ();
        fn ply(&mut self, _: u64, ply: u32, pos: &Chess, mv: Move, _: RawMove) {
            if ply >= 8 && ply.is_multiple_of(3) {
                self.out.push((pos.clone(), mv));
            }
        }
        fn add(&mut self, (): (), _: u8) {}
    }
    let mut sink = Every { out: Vec::new() };
    for name in ["twic1599_100k.pgn", "lichess_db_100k.pgn"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name);
        let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
        read_games(file, u32::MAX, &mut sink).unwrap();
    }
    sink.out.truncate(count);
    assert_eq!(sink.out.len(), count);
    sink.out
}

fn ga_generation(c: &mut Criterion) {
    let positions = fixture_positions(1000);
    let mut problem = MoveMatching::new(&positions, 1, 2);
    let organisms = random_population(&problem, 75, 1);
    let mut group = c.benchmark_group("ga");
    group.sample_size(10);
    group.throughput(Throughput::Elements((75 * positions.len()) as u64));
    group.bench_function("generation_75x1000_depth1_2threads", |b| {
        b.iter(|| problem.score(&organisms));
    });
    group.finish();
}

criterion_group!(benches, evaluations, alphabeta, ga_generation);
criterion_main!(benches);
