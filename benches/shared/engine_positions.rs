//! The built-in engine benches' positions (`benches/engine.rs`, `benches/tuned_eval.rs`):
//! an opening, a busy middlegame, an endgame, each with the depth the tapered
//! evaluation's search is timed at.

use std::sync::atomic::AtomicBool;

use criterion::{BatchSize, Criterion, Throughput};
use hastings::engine::evaluation::Evaluation;
use hastings::engine::search::{SearchOptions, Searcher};
use hastings::engine::{Game, Limits};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// (name, FEN, depth).
pub const POSITIONS: [(&str, &str, u32); 4] = [
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

/// The position of `fen`.
pub fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// A game starting at `fen`.
pub fn game(fen: &str) -> Game {
    Game::new(position(fen))
}

/// Searches `g` to `depth` with `evaluation` from a fresh 16 MB table.
fn search(evaluation: &Evaluation, g: &Game, depth: u32) -> u64 {
    Searcher::with_evaluation(16, evaluation.clone())
        .search(
            g,
            &Limits::depth(depth).unwrap(),
            &SearchOptions::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .nodes
}

/// The α-β search with `evaluation` on [`POSITIONS`], `shallower` plies less deep than
/// listed: each search from a fresh table (made outside the timed part), so the node
/// count is the same every iteration and criterion's throughput is the nps.
pub fn alphabeta_group(c: &mut Criterion, group: &str, evaluation: Evaluation, shallower: u32) {
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    for (name, fen, depth) in POSITIONS {
        let depth = depth - shallower;
        let g = game(fen);
        let n = search(&evaluation, &g, depth);
        println!("{name}: depth {depth}, {n} nodes");
        group.throughput(Throughput::Elements(n));
        group.bench_function(format!("{name}/depth{depth}"), |b| {
            b.iter_batched(
                || Searcher::with_evaluation(16, evaluation.clone()),
                |mut s| {
                    s.search(
                        &g,
                        &Limits::depth(depth).unwrap(),
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
