//! `hastings review --session …`: the positions a chosen session draws, in order, as
//! JSON, against a direct computation on the repertoire fixture and a review log made
//! here; the window draws its sessions through the same core function.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::collections::BTreeSet;

use serde_json::Value;
use shakmaty::{Chess, Color, Position};

use crate::common;
use common::hastings;
use hastings::review::{CardKey, Rating, ReviewRecord, Timestamp};
use hastings::workspace::review_store::ReviewStore;

const REPERTOIRE: &str = "tests/fixtures/repertoire.pgn";
const NOW: &str = "2025-06-10T10:00:00+00:00";

fn session(log: &std::path::Path, session: &str) -> Value {
    let args = [
        "review",
        "--pgn",
        REPERTOIRE,
        "--no-eco",
        "--color",
        "white",
        "--progress",
        log.to_str().unwrap(),
        "--now",
        NOW,
        "--session",
        session,
        "--json",
    ];
    let (code, out, err) = hastings(&args);
    assert_eq!(code, 0, "{session}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn lines(q: &Value) -> Vec<String> {
    q["next"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["line"].as_str().unwrap().to_owned())
        .collect()
}

/// The positions before a White move in game `game` of the fixture, walked here.
fn white_positions_of_game(game: u32) -> BTreeSet<String> {
    let import = common::import_fixture("repertoire.pgn", hastings::book::ImportMode::Repertoire);
    let mut keys = BTreeSet::new();
    for line in &import.lines {
        if matches!(line.source, hastings::book::LineSource::Pgn { game: g, .. } if g == game) {
            let mut pos = Chess::default();
            for &mv in &line.moves {
                if pos.turn() == Color::White {
                    keys.insert(CardKey::from_position(&pos).to_string());
                }
                pos.play_unchecked(mv);
            }
        }
    }
    keys
}

/// A log: Again on 1.e4 c5, Good on the Italian's 3.Bc4 position, Easy on 2.Nf3 after
/// 1.e4 e5, all a day before now.
fn made_log(name: &str) -> std::path::PathBuf {
    let dir = common::temp_dir(&format!("review_cli_session_{name}"));
    let path = dir.join("reviews.log");
    let mut store = ReviewStore::open(&path).unwrap();
    let time = Timestamp::parse_rfc3339(NOW).unwrap().plus_days(-1);
    for (moves, rating) in [
        ("e4 c5", Rating::Again),
        ("e4 e5 Nf3 Nc6", Rating::Good),
        ("e4 e5", Rating::Easy),
    ] {
        store
            .append(&ReviewRecord {
                time,
                color: Color::White,
                rating,
                seconds: 4.0,
                fuzz: false,
                card: CardKey::from_position(&common::position_after(moves)),
            })
            .unwrap();
    }
    path
}

#[test]
fn a_chapter_a_branch_and_the_whole_repertoire_list_their_positions_in_order() {
    let log = made_log("tree");
    let chapter = session(&log, "chapter:2");
    let keys: BTreeSet<String> = chapter["next"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["epd"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(keys, white_positions_of_game(2));
    let depth = |l: &String| l.split_whitespace().count();
    let listed = lines(&chapter);
    assert!(listed.windows(2).all(|w| depth(&w[0]) <= depth(&w[1])));

    let branch = lines(&session(&log, "branch:\"e4 c5\""));
    assert!(branch.len() >= 3);
    assert!(branch.iter().all(|l| l.starts_with("e4 c5")), "{branch:?}");
    let sicilian: BTreeSet<String> = white_positions_of_game(2);
    assert_eq!(
        branch.len(),
        sicilian.len() - 1,
        "all of chapter 2 but the start"
    );

    let all = session(&log, "all");
    assert_eq!(
        all["next"].as_array().unwrap().len() as u64,
        all["cards"].as_u64().unwrap()
    );
    let reasons: BTreeSet<&str> = all["next"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons, BTreeSet::from(["due", "early", "new"]));
}

#[test]
fn the_hardest_the_week_and_the_most_common_follow_the_log_and_the_drill() {
    let log = made_log("log");
    let hard = session(&log, "difficult:2");
    assert_eq!(lines(&hard), ["e4 c5", "e4 e5 Nf3 Nc6"], "Again, then Good");
    let d: Vec<f64> = hard["next"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["difficulty"].as_f64().unwrap())
        .collect();
    assert!(d[0] > d[1]);

    // Due this week: the Again card (due now) and the Good one (due in about two days);
    // the Easy one is due later.
    let week = session(&log, "week");
    assert_eq!(lines(&week), ["e4 c5", "e4 e5 Nf3 Nc6"]);
    let due: Vec<&str> = week["next"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["due"].as_str().unwrap())
        .collect();
    assert!(due[0] <= due[1]);

    // The most common: the start (every drill), then reach never grows.
    let common = session(&log, "common:4");
    let listed = lines(&common);
    assert_eq!(listed.len(), 4);
    assert_eq!(listed[0], "");
    let reach: Vec<f64> = common["next"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["reach"].as_f64().unwrap())
        .collect();
    assert!((reach[0] - 1.0).abs() < 1e-9);
    assert!(reach.windows(2).all(|w| w[0] >= w[1]), "{reach:?}");
}

#[test]
fn an_unknown_session_says_what_it_takes() {
    let dir = common::temp_dir("review_cli_session_bad");
    let log = dir.join("reviews.log");
    let (code, _, err) = hastings(&[
        "review",
        "--pgn",
        REPERTOIRE,
        "--no-eco",
        "--progress",
        log.to_str().unwrap(),
        "--session",
        "soon",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("common:N"), "{err}");
}
