//! The opening explorer: query latency on an index made from generated games, and
//! opening an index cold.
//!
//! `cargo bench --bench explorer` makes an index of `EXPLORER_BENCH_GAMES` generated
//! games (default 20,000) in the temporary directory and measures one query (every move
//! of one position, with and without filters) at positions along a main line. The same
//! binary writes the generated games for `docs/explorer_bench.sh`:
//!
//!     cargo bench --bench explorer -- --write-pgn /tmp/explorer-1m.pgn 1000000
//!
//! Games are walks of the gnuchess book from the start (each move with the probability
//! of its weight), then uniformly random legal moves, 60 plies; with lichess-like tags:
//! ratings 800–2700, a time control among bullet, blitz, rapid and classical ones, a
//! date from 2013 to 2024, one of 5,000 player names, results 38 % 1-0, 32 % ½-½,
//! 30 % 0-1; a fixed seed, so the file is the same every time.

#![allow(clippy::unwrap_used, clippy::expect_used)] // benches may panic

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group};
use hastings::book::explorer::ExplorerFilter;
use hastings::book::polyglot::gnuchess;
use hastings::job::JobProgress;
use hastings::workspace::explorer::{ExplorerIndex, MakeOptions, make_explorer};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

const TIME_CONTROLS: [&str; 8] = [
    "60+0", "120+1", "180+0", "300+3", "600+0", "600+5", "900+10", "1800+20",
];

/// `n` generated games as PGN text (see the module docs).
fn generate_games(n: usize, seed: u64, mut out: impl std::io::Write) {
    let book = gnuchess().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut text = String::with_capacity(2048);
    for game in 1..=n {
        let result = match rng.random_range(0..100) {
            0..38 => "1-0",
            38..70 => "1/2-1/2",
            _ => "0-1",
        };
        text.clear();
        let white_elo: i32 = rng.random_range(800..2700);
        let black_elo = (white_elo + rng.random_range(-200..200)).clamp(600, 2900);
        let _ = write!(
            text,
            "[Event \"Generated\"]\n[Site \"?\"]\n[Date \"{}.{:02}.{:02}\"]\n[Round \"{game}\"]\n\
             [White \"player{}\"]\n[Black \"player{}\"]\n[Result \"{result}\"]\n\
             [WhiteElo \"{white_elo}\"]\n[BlackElo \"{black_elo}\"]\n[TimeControl \"{}\"]\n\n",
            rng.random_range(2013..2025),
            rng.random_range(1..13),
            rng.random_range(1..29),
            rng.random_range(0..5000),
            rng.random_range(0..5000),
            TIME_CONTROLS[rng.random_range(0..TIME_CONTROLS.len())],
        );
        let mut pos = Chess::default();
        let mut line = 0;
        for ply in 0..60 {
            let book_moves = book.moves(&pos);
            let mv = if book_moves.is_empty() {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                legal[rng.random_range(0..legal.len())]
            } else {
                let total = book_moves.total_weight();
                let mut pick = rng.random_range(0..total);
                let mut chosen = book_moves.moves[0].mv;
                for m in &book_moves.moves {
                    if pick < u64::from(m.weight) {
                        chosen = m.mv;
                        break;
                    }
                    pick -= u64::from(m.weight);
                }
                chosen
            };
            let token = if ply % 2 == 0 {
                format!("{}. {} ", ply / 2 + 1, SanPlus::from_move(pos.clone(), mv))
            } else {
                format!("{} ", SanPlus::from_move(pos.clone(), mv))
            };
            if line + token.len() > 79 {
                text.push('\n');
                line = 0;
            }
            line += token.len();
            text.push_str(&token);
            pos.play_unchecked(mv);
        }
        let _ = writeln!(text, "{result}\n");
        out.write_all(text.as_bytes()).unwrap();
    }
}

fn index_for_bench() -> (PathBuf, ExplorerIndex) {
    let games: usize = std::env::var("EXPLORER_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let base = std::env::temp_dir().join(format!("hastings-explorer-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let pgn = base.join("games.pgn");
    generate_games(
        games,
        7,
        std::io::BufWriter::new(std::fs::File::create(&pgn).unwrap()),
    );
    let dir = base.join("games.explorer");
    make_explorer(&[pgn], &dir, &MakeOptions::default(), &JobProgress::new()).unwrap();
    let index = ExplorerIndex::open(&dir).unwrap();
    (base, index)
}

fn bench_queries(c: &mut Criterion) {
    let (base, index) = index_for_bench();
    // Positions along 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6: from thousands of games to few.
    let mut positions = vec![Chess::default()];
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"] {
        let mut pos = positions.last().unwrap().clone();
        let mv = san
            .parse::<shakmaty::san::San>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(mv);
        positions.push(pos);
    }
    let filtered = ExplorerFilter::default()
        .with_ratings("1600-2000")
        .unwrap()
        .with_speeds("blitz,rapid")
        .unwrap()
        .with_years("2015-2020")
        .unwrap();
    let mut group = c.benchmark_group("explorer query");
    for (name, filter) in [
        ("all games", ExplorerFilter::default()),
        ("filtered", filtered),
    ] {
        group.bench_function(format!("start position, {name}"), |b| {
            b.iter(|| black_box(index.query_position(&positions[0], &filter).unwrap()))
        });
        group.bench_function(format!("six positions of the Ruy Lopez, {name}"), |b| {
            b.iter(|| {
                for pos in &positions {
                    black_box(index.query_position(pos, &filter).unwrap());
                }
            })
        });
    }
    group.finish();
    c.bench_function("explorer open", |b| {
        b.iter(|| black_box(ExplorerIndex::open(index.dir()).unwrap()))
    });
    let _ = std::fs::remove_dir_all(base);
}

criterion_group!(benches, bench_queries);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--write-pgn") {
        let path = args.get(i + 1).expect("--write-pgn FILE GAMES");
        let n: usize = args
            .get(i + 2)
            .and_then(|n| n.parse().ok())
            .unwrap_or(1_000_000);
        let out = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path).unwrap());
        generate_games(n, 7, out);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
