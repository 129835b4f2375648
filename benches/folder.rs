//! Issue 42's target: a folder of 100 PGN files read at the import speed of one file of
//! the same size. The workspace the window uses imports (a) one file of the TWIC
//! fixture repeated to `FOLDER_BENCH_GAMES` games (100,000 by default), read in parts on
//! every core, and (b) the same games cut into 100 files in one folder ("Open a
//! folder…"), in games mode; the time is until the last file is imported (the book
//! built afterwards is the same for both and is not counted).
//!
//! `cargo bench -p hastings-bench --bench folder` (criterion), or `FOLDER_BENCH_GAMES=20000` for a quick run.

#![allow(clippy::unwrap_used, clippy::expect_used)] // benches may panic

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

#[path = "shared/fixture_games.rs"]
mod fixture_games;

use criterion::{Criterion, criterion_group, criterion_main};
use fixture_games::fixture_games;
use hastings::job::Wake;
use hastings::workspace::folders::expand_folders;
use hastings::workspace::{BookChoice, FileMode, Workspace, WorkspaceEvent};

/// Writes `total` games (the fixture's, cycled) into `files` files under `dir`.
fn write_games(dir: &Path, files: usize, total: usize, games: &[String]) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).unwrap();
    let per_file = total.div_ceil(files);
    let mut paths = Vec::new();
    let mut i = 0;
    for f in 0..files {
        let mut text = String::new();
        for _ in 0..per_file.min(total - i) {
            text.push_str(&games[i % games.len()]);
            text.push('\n');
            i += 1;
        }
        let path = dir.join(format!("part{f:03}.pgn"));
        std::fs::write(&path, text).unwrap();
        paths.push(path);
    }
    paths
}

/// Imports `paths` in a fresh workspace; returns when the last one is imported.
fn import_all(paths: Vec<PathBuf>) {
    let wake: Wake = Arc::new(|| {});
    let mut ws = Workspace::new(BookChoice::default()).unwrap();
    let mut left = paths.len();
    ws.open(paths, FileMode::Games);
    while left > 0 {
        for event in ws.poll(false, &wake) {
            match event {
                WorkspaceEvent::Imported { .. } => left -= 1,
                WorkspaceEvent::ImportFailed { error, .. } => panic!("{error}"),
                _ => {}
            }
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    ws.cancel_all();
}

fn folder(c: &mut Criterion) {
    let total: usize = std::env::var("FOLDER_BENCH_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let games = fixture_games(&["twic1599_100k.pgn"]);
    let dir = std::env::temp_dir().join(format!("hastings-folder-bench-{}", std::process::id()));
    let one = write_games(&dir.join("one"), 1, total, &games);
    let hundred = dir.join("hundred");
    write_games(&hundred, 100, total, &games);
    let mut group = c.benchmark_group("folder");
    group.sample_size(10);
    group.bench_function(format!("one file of {total} games"), |b| {
        b.iter(|| import_all(one.clone()))
    });
    group.bench_function(format!("a folder of 100 files, {total} games"), |b| {
        b.iter(|| import_all(expand_folders(vec![hundred.clone()]).unwrap()))
    });
    group.finish();
    std::fs::remove_dir_all(&dir).ok();
}

criterion_group!(benches, folder);
criterion_main!(benches);
