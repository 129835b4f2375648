//! Seed 003's evaluation: evaluations per second on one core, the α-β search's nodes
//! per second with it (the positions of `benches/engine.rs`, a ply shallower), and one
//! generation of the GA on master moves (75 organisms × 1,000 positions at depth 1, on
//! two threads).
//!
//! Run: `nice -n 19 cargo bench -p hastings-bench --bench tuned_eval`.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)] // a benchmark

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hastings::book::polyglot::{PlySink, RawMove, read_games};
use hastings::engine::evaluation::Evaluation;
use hastings::engine::tuned::TunedEval;
use hastings::engine::tuning::{MoveMatching, Sample, random_population};
use hastings::genetic::Problem;
use shakmaty::{Chess, Move, Position};

#[path = "shared/engine_positions.rs"]
mod engine_positions;
use engine_positions::{POSITIONS, alphabeta_group, position as pos};

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

fn alphabeta(c: &mut Criterion) {
    // A ply shallower than the tapered evaluation's bench: the tuned weights search more.
    alphabeta_group(c, "alphabeta_tuned", tuned(), 1);
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
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
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
