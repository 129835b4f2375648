//! Issue 42's target: a paste of a 500-game PGN into a repertoire in ≤ 1 s. The work
//! the window does after Ctrl+V, without the window: the clipboard's text recognised
//! (`read_paste`, which reads the games once to tell a repertoire from games), kept as a
//! file in the data folder, imported as a repertoire and the book rebuilt with it (ECO
//! as the theory it is compared with), until the new book is ready.
//!
//! `cargo bench -p hastings-bench --bench paste`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // benches may panic

use std::sync::Arc;

#[path = "shared/fixture_games.rs"]
mod fixture_games;

use criterion::{Criterion, criterion_group, criterion_main};
use fixture_games::fixture_games;
use hastings::job::Wake;
use hastings::workspace::paste::{Pasted, read_paste};
use hastings::workspace::{BookChoice, FileMode, Workspace, WorkspaceEvent};

/// `n` games: the TWIC and lichess fixtures' games, cycled.
fn games(n: usize) -> String {
    let games = fixture_games(&["twic1599_100k.pgn", "lichess_db_100k.pgn"]);
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&games[i % games.len()]);
        text.push('\n');
    }
    text
}

fn paste(c: &mut Criterion) {
    let text = games(500);
    let dir = std::env::temp_dir().join(format!("hastings-paste-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pasted.pgn");
    let wake: Wake = Arc::new(|| {});
    let mut group = c.benchmark_group("paste");
    group.sample_size(10);
    group.bench_function("500 games recognised", |b| {
        b.iter(|| assert!(matches!(read_paste(&text), Ok(Pasted::Pgn { .. }))))
    });
    group.bench_function("500 games pasted into a repertoire, book rebuilt", |b| {
        b.iter(|| {
            let Ok(Pasted::Pgn { text, .. }) = read_paste(&text) else {
                panic!("not PGN");
            };
            std::fs::write(&file, text).unwrap();
            // Repertoire mode: the file alone is drilled, ECO is the theory.
            let choice = BookChoice {
                eco: false,
                ..BookChoice::default()
            };
            let mut ws = Workspace::new(choice).unwrap();
            ws.open(vec![file.clone()], FileMode::Repertoire);
            let mut built = false;
            while ws.is_busy() {
                for event in ws.poll(true, &wake) {
                    built |= matches!(event, WorkspaceEvent::Built { .. });
                }
            }
            assert!(built);
        })
    });
    group.finish();
    std::fs::remove_dir_all(&dir).ok();
}

criterion_group!(benches, paste);
criterion_main!(benches);
