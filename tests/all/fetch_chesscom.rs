//! `hastings fetch chesscom-games` against a local server that answers as chess.com's
//! Published-Data API does: the archives list, then each month's PGN; a second fetch
//! asks only for the months that may have changed.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::fetch_server;

use std::fs;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use fetch_server::{Reply, Server, fetch, fixture, games_of, keys, temp_dir};

/// chess.com games: the fixture's lichess games with chess.com's `[Link]` and played in
/// the month given.
fn chesscom_month(games: &[String], month: u32) -> String {
    games
        .iter()
        .map(|g| {
            let id = g
                .lines()
                .find_map(|l| l.strip_prefix("[Site \"https://lichess.org/"))
                .unwrap()
                .trim_end_matches("\"]");
            g.replace(
                &format!("[Site \"https://lichess.org/{id}\"]"),
                &format!("[Site \"Chess.com\"]\n[Link \"https://www.chess.com/game/live/{id}\"]"),
            )
            .replace("2025.05.01", &format!("2025.{month:02}.01"))
        })
        .collect()
}

#[test]
fn chesscom_months_already_complete_are_not_asked_again() {
    let games = games_of(&fixture("lichess_db_100k.pgn"));
    let months = Arc::new(AtomicUsize::new(2));
    let in_feb = Arc::new(AtomicUsize::new(10));
    let (m, f) = (Arc::clone(&months), Arc::clone(&in_feb));
    let total = games.len();
    let server = Server::start(move |got, _| {
        let base = "/pub/player/bob/games";
        let shown = m.load(Ordering::SeqCst);
        if got.path == format!("{base}/archives") {
            // As documented, with chess.com's own addresses.
            let list: Vec<String> = (1..=shown)
                .map(|k| format!("\"https://api.chess.com{base}/2025/{k:02}\""))
                .collect();
            return Reply::json(format!("{{\"archives\":[{}]}}", list.join(",")));
        }
        match got.path.strip_prefix(&format!("{base}/2025/")) {
            Some("01/pgn") => Reply::pgn(chesscom_month(&games[..20], 1)),
            Some("02/pgn") => {
                Reply::pgn(chesscom_month(&games[20..20 + f.load(Ordering::SeqCst)], 2))
            }
            Some("03/pgn") if shown >= 3 => Reply::pgn(chesscom_month(&games[40..], 3)),
            _ => Reply::status(
                404,
                "application/json",
                r#"{"code":0,"message":"not found"}"#,
            ),
        }
    });
    let dir = temp_dir("chesscom");
    let out = dir.join("bob.pgn");
    let out = out.to_str().unwrap();
    let args = [
        "chesscom-games",
        "Bob",
        "-o",
        out,
        "--chesscom-url",
        &server.url,
    ];
    let (code, stdout, stderr) = fetch(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("30 games written"), "{stdout}");
    let paths: Vec<String> = server.got().iter().map(|g| g.path.clone()).collect();
    assert_eq!(
        paths,
        [
            "/pub/player/bob/games/archives",
            "/pub/player/bob/games/2025/01/pgn",
            "/pub/player/bob/games/2025/02/pgn"
        ]
    );

    // February goes on, March begins: January is not asked again.
    months.store(3, Ordering::SeqCst);
    in_feb.store(20, Ordering::SeqCst);
    let (code, stdout, stderr) = fetch(&args);
    assert_eq!(code, 0, "{stderr}");
    let added = 10 + (total - 40);
    assert!(
        stdout.contains(&format!("{added} new games added to 30, 10 already there")),
        "{stdout}"
    );
    let paths: Vec<String> = server.got()[3..].iter().map(|g| g.path.clone()).collect();
    assert_eq!(
        paths,
        [
            "/pub/player/bob/games/archives",
            "/pub/player/bob/games/2025/02/pgn",
            "/pub/player/bob/games/2025/03/pgn"
        ]
    );
    assert_eq!(keys(&fs::read_to_string(out).unwrap()).len(), total);

    // --since: only from that month on.
    let fresh = dir.join("since.pgn");
    let (code, _, stderr) = fetch(&[
        "chesscom-games",
        "bob",
        "-o",
        fresh.to_str().unwrap(),
        "--since",
        "2025-03",
        "--chesscom-url",
        &server.url,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let last = server.got().last().unwrap().path.clone();
    assert_eq!(last, "/pub/player/bob/games/2025/03/pgn");
    assert_eq!(server.got().len(), 8);
}
