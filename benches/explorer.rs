//! The opening explorer: query latency on an index made from generated games, and
//! opening an index cold.
//!
//! `cargo bench -p hastings-bench --bench explorer` makes an index of `EXPLORER_BENCH_GAMES` generated
//! games (default 20,000) in the temporary directory and measures one query (every move
//! of one position, with and without filters) at positions along a main line. Before
//! criterion's means it prints the latency percentiles of 4,000 queries at positions of
//! random walks through the index (each move as often as its games, 0 to 24 plies; every
//! other query filtered), and the window's frame times while the Explorer tab follows a
//! drill (egui_kittest, 1280×800: each frame's logic, the panel's query when the position
//! changed, layout and tessellation). The same binary writes the generated games for
//! `docs/explorer_bench.sh`:
//!
//!     cargo bench -p hastings-bench --bench explorer -- --write-pgn /tmp/explorer-1m.pgn 1000000
//!
//! Games are walks of the gnuchess book from the start (each move with the probability
//! of its weight), then uniformly random legal moves, 60 plies; with lichess-like tags:
//! ratings 800–2700, a time control among bullet, blitz, rapid and classical ones, a
//! date from 2013 to 2024, one of 5,000 player names, results 38 % 1-0, 32 % ½-½,
//! 30 % 0-1; a fixed seed, so the file is the same every time.

#![allow(clippy::unwrap_used, clippy::expect_used)] // benches may panic

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use criterion::{Criterion, criterion_group};
use hastings::book::explorer::ExplorerFilter;
use hastings::job::JobProgress;
use hastings::workspace::explorer::{ExplorerIndex, MakeOptions, make_explorer};
use shakmaty::{Chess, Position};

#[path = "shared/generated_games.rs"]
mod generated_games;
use generated_games::generate_games;

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

/// The latency of one query (every move of a position) at 4,000 positions of random
/// walks through the index, half of them filtered: median, 99th percentile, longest.
fn query_percentiles(index: &ExplorerIndex, filtered: &ExplorerFilter) {
    use rand::{RngExt as _, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let mut times = Vec::new();
    for i in 0..4_000 {
        let mut pos = Chess::default();
        for _ in 0..rng.random_range(0..25) {
            let stats = index
                .query_position(&pos, &ExplorerFilter::default())
                .unwrap();
            let total = stats.total().games();
            if total == 0 {
                break;
            }
            let mut pick = rng.random_range(0..total);
            let Some(m) = stats.moves.iter().find(|m| {
                let hit = pick < m.games();
                pick = pick.saturating_sub(m.games());
                hit
            }) else {
                break;
            };
            let Ok(mv) = m.raw_move.to_move(&pos) else {
                break;
            };
            pos.play_unchecked(mv);
        }
        let filter = if i % 2 == 0 {
            ExplorerFilter::default()
        } else {
            *filtered
        };
        let t = Instant::now();
        black_box(index.query_position(&pos, &filter).unwrap());
        times.push(t.elapsed());
    }
    times.sort();
    eprintln!(
        "explorer query at 4,000 random positions: median {:.1?}, 99th percentile {:.1?}, \
         longest {:.1?}",
        times[times.len() / 2],
        times[times.len() * 99 / 100],
        times[times.len() - 1]
    );
}

/// The window's frames while the Explorer tab, with this index open, follows a drill:
/// "Show me" plays the learner's book move, the computer answers, a new line at the
/// end; every frame timed.
fn window_frames(dir: &std::path::Path) {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable as _;
    use hastings::coach::Command;
    use hastings::coach::command::Action;
    use hastings::coach::explorer::ExplorerCommand;
    use hastings::coach::settings::Settings;
    use hastings::ui::TrainerApp;
    let graph = std::sync::Arc::new(hastings::book::PositionGraph::eco().unwrap());
    let settings = Settings {
        seed: "3".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        hide_answer: false,
        ..Settings::default()
    };
    let mut h = Harness::builder()
        .with_size(eframe::egui::vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, app: &mut TrainerApp| app.frame_ui(ui),
            TrainerApp::new(graph, settings),
        );
    h.run();
    h.state_mut()
        .coach_mut()
        .apply(Command::Explorer(ExplorerCommand::Open(dir.to_path_buf())));
    h.get_by_label("Explorer").click();
    h.run();
    let mut frames = Vec::new();
    let mut moves = 0;
    for _ in 0..400 {
        let action = if h.state().coach().is_enabled(Action::ShowMe) {
            moves += 1;
            Action::ShowMe
        } else {
            Action::NewLine
        };
        let t = Instant::now();
        h.state_mut().coach_mut().apply(Command::Action(action));
        h.step();
        frames.push(t.elapsed());
        let t = Instant::now();
        h.step();
        frames.push(t.elapsed());
    }
    frames.sort();
    eprintln!(
        "window with the Explorer tab following a drill ({moves} learner moves, {} frames): \
         median {:.2?}, 99th percentile {:.2?}, longest {:.2?}",
        frames.len(),
        frames[frames.len() / 2],
        frames[frames.len() * 99 / 100],
        frames[frames.len() - 1]
    );
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
    query_percentiles(&index, &filtered);
    window_frames(index.dir());
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
