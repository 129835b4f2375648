//! One reply (exact table + MH step) and sampled lines.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hastings::book::PositionGraph;
use hastings::sampler::{Distribution, ExploreLimits, Style, explore};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Position, san::San};

fn play(moves: &str) -> Chess {
    let mut pos = Chess::default();
    for san in moves.split_whitespace() {
        let Ok(mv) = San::from_ascii(san.as_bytes())
            .map_err(|_| ())
            .and_then(|s| s.to_move(&pos).map_err(|_| ()))
        else {
            panic!("bad bench move {san}");
        };
        pos.play_unchecked(mv);
    }
    pos
}

fn bench(c: &mut Criterion) {
    let Ok(graph) = PositionGraph::eco() else {
        panic!("the embedded book builds");
    };
    let style = Style::presets()[1].style.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for (name, moves) in [
        ("start", ""),
        (
            "narrow (after 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6)",
            "e4 e5 Nf3 Nc6 Bb5 a6",
        ),
    ] {
        let pos = play(moves);
        let Some(node) = graph.lookup(&pos) else {
            panic!("bench position in book");
        };
        c.bench_function(&format!("reply: exact table + MH step, {name}"), |b| {
            b.iter(|| {
                let d = Distribution::at(&graph, node, &pos, &style, 1.0);
                black_box(d.step(&mut rng))
            })
        });
    }
    let start = graph.start().unwrap_or(hastings::book::NodeId(0));
    let mut group = c.benchmark_group("explore");
    group.sample_size(20);
    group.bench_function("10,000 sampled lines from the start", |b| {
        b.iter(|| {
            let limits = ExploreLimits {
                iterations: 10_000,
                ply_limit: 40,
            };
            black_box(explore(
                &graph,
                start,
                &Chess::default(),
                &style,
                1.0,
                limits,
                &mut rng,
            ))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
