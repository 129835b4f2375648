//! Move predictor speed: the forward pass and the distribution over legal moves at
//! batch 1 and batch 256, on one thread.
//!
//! Run: `nice -n 19 cargo bench -p hastings-bench --bench predictor`. `PREDICTOR_WEIGHTS=FILE` measures
//! another weights file (a trainer's `predictor.safetensors`) instead of the shipped one,
//! which is how the network's size was chosen (`docs/human.md`).

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)] // a benchmark

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hastings::engine::predictor::{PLANES, Predictor, Scratch, encode_board};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Position};

fn predictor() -> Predictor {
    match std::env::var_os("PREDICTOR_WEIGHTS") {
        Some(path) => Predictor::from_safetensors(&std::fs::read(path).unwrap()).unwrap(),
        None => Predictor::shipped().unwrap(),
    }
}

/// Positions from random games of 10–60 plies.
fn positions(n: usize) -> Vec<Chess> {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    (0..n)
        .map(|_| {
            let mut pos = Chess::default();
            for _ in 0..rng.random_range(10..60) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            pos
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let predictor = predictor();
    let net = predictor.network();
    let name = format!("{}x{}", net.blocks(), net.channels());
    let positions = positions(256);
    let boards: Vec<[u64; PLANES]> = positions.iter().map(encode_board).collect();
    let mut scratch = Scratch::default();
    let mut out = Vec::new();
    let mut group = c.benchmark_group(format!("predictor {name}"));
    group.throughput(Throughput::Elements(1));
    group.bench_function("forward, batch 1", |b| {
        b.iter(|| net.forward(black_box(&boards[..1]), &mut scratch, &mut out));
    });
    group.bench_function("predict (legal moves, softmax), batch 1", |b| {
        b.iter(|| predictor.predict(black_box(&positions[7])));
    });
    // A cold `predict --fen`: the weights read (the Winograd ones are not made for
    // one position) and one position predicted.
    group.bench_function("load and predict one position", |b| {
        b.iter(|| self::predictor().predict(black_box(&positions[7])));
    });
    group.throughput(Throughput::Elements(256));
    group.sample_size(20);
    group.bench_function("forward, batch 256", |b| {
        b.iter(|| net.forward(black_box(&boards), &mut scratch, &mut out));
    });
    group.bench_function("predict_batch, batch 256", |b| {
        b.iter(|| predictor.predict_batch(black_box(&positions), &mut scratch));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
