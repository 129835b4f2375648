//! A fetch streams to disk: 10,000 games from the local server within 50 MB of peak
//! memory (the process's maximum resident set, as `/usr/bin/time` reports it; the
//! test is skipped where that program is missing).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::fetch_server;

use std::fs;
use std::path::Path;
use std::process::Command;

use fetch_server::{Reply, Server, fixture, games_of};

/// `n` games: the fixture's lichess games over and over, each with a `[Site]` of its own.
fn games(n: usize) -> String {
    let games = games_of(&fixture("lichess_db_100k.pgn"));
    (0..n)
        .map(|k| {
            let g = &games[k % games.len()];
            g.replace(
                "[Site \"https://lichess.org/",
                &format!("[Site \"https://lichess.org/{k}x"),
            )
        })
        .collect()
}

/// Peak resident memory in KB of `hastings fetch lichess-games` for `n` games, and the
/// games the file holds.
fn peak_kb(n: usize, dir: &Path) -> Option<(u64, usize)> {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        return None;
    }
    let body = games(n);
    let server = Server::start(move |_, _| Reply::Chunked {
        content_type: "application/x-chess-pgn",
        body: body.clone().into_bytes(),
        chunk: 16 << 10,
        cut_after: None,
    });
    let out = dir.join(format!("{n}.pgn"));
    let output = Command::new(time)
        .args(["-f", "peak-kb %M"])
        .arg(env!("CARGO_BIN_EXE_hastings"))
        .args(["fetch", "lichess-games", "many", "-o"])
        .arg(&out)
        .args(["--lichess-url", &server.url])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let kb = stderr
        .lines()
        .find_map(|l| l.strip_prefix("peak-kb "))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let written = fs::read_to_string(&out)
        .unwrap()
        .matches("[Site \"https://lichess.org/")
        .count();
    Some((kb, written))
}

#[test]
fn ten_thousand_games_are_fetched_within_50_mb() {
    let dir = std::env::temp_dir().join(format!("hastings-fetch-mem-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let Some((small, n_small)) = peak_kb(100, &dir) else {
        eprintln!("skipped: no /usr/bin/time to measure the peak memory");
        return;
    };
    let (large, n_large) = peak_kb(10_000, &dir).unwrap();
    assert_eq!((n_small, n_large), (100, 10_000));
    eprintln!("peak memory: 100 games {small} KB, 10,000 games {large} KB");
    assert!(large <= 50 * 1024, "10,000 games took {large} KB");
    fs::remove_dir_all(&dir).unwrap();
}
