//! The performance rating of a move's games, against a computation by hand from the
//! lichess fixture's own tags and first moves (lichess's formula: the average rating
//! plus FIDE's `dp` for the score, linear between whole percents); `explorer query
//! --json` gives it per move, and its top games in SAN with their move numbers.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use hastings::book::explorer::ExplorerFilter;
use shakmaty::{Chess, Color};

use crate::common;
use common::{fixture, hastings, temp_dir};

/// FIDE's dp from 50 % to 100 % (FIDE Handbook B.02, table 8.1.a), typed in anew.
const DP: [f64; 51] = [
    0.0, 7.0, 14.0, 21.0, 29.0, 36.0, 43.0, 50.0, 57.0, 65.0, 72.0, 80.0, 87.0, 95.0, 102.0, 110.0,
    117.0, 125.0, 133.0, 141.0, 149.0, 158.0, 166.0, 175.0, 184.0, 193.0, 202.0, 211.0, 220.0,
    230.0, 240.0, 251.0, 262.0, 273.0, 284.0, 296.0, 309.0, 322.0, 336.0, 351.0, 366.0, 383.0,
    401.0, 422.0, 444.0, 470.0, 501.0, 538.0, 589.0, 677.0, 800.0,
];

fn dp(p: usize) -> f64 {
    if p >= 50 { DP[p - 50] } else { -DP[50 - p] }
}

/// One game of the fixture as read by hand: its first move, result (White's points
/// ×2) and the mean of its ratings.
struct HandGame {
    first: String,
    white_points2: u64,
    mean: Option<u64>,
}

fn tag<'a>(game: &'a str, name: &str) -> Option<&'a str> {
    let start = game.find(&format!("[{name} \""))? + name.len() + 3;
    let end = game[start..].find('"')? + start;
    Some(&game[start..end])
}

fn hand_games(file: &str) -> Vec<HandGame> {
    let text = std::fs::read_to_string(fixture(file)).unwrap();
    text.split("[Event ")
        .skip(1)
        .filter_map(|game| {
            let white_points2 = match tag(game, "Result")? {
                "1-0" => 2,
                "1/2-1/2" => 1,
                "0-1" => 0,
                _ => return None,
            };
            let rating = |n| tag(game, n).and_then(|r| r.parse::<u64>().ok());
            let mean = rating("WhiteElo")
                .zip(rating("BlackElo"))
                .map(|(w, b)| (w + b) / 2);
            let moves = &game[game.find("\n1. ")? + 4..];
            let first = moves.split_whitespace().next()?.to_owned();
            Some(HandGame {
                first,
                white_points2,
                mean,
            })
        })
        .collect()
}

#[test]
fn the_performance_of_a_first_move_matches_a_computation_by_hand() {
    let games = hand_games("lichess_db_100k.pgn");
    let (dir, index) =
        common::explorer::make_index("explorer-performance", "lichess_db_100k.pgn", &[]);
    let start = Chess::default();
    let stats = index
        .query_position(&start, &ExplorerFilter::default())
        .unwrap();
    let mut checked = 0;
    for first in ["e4", "d4"] {
        let of: Vec<&HandGame> = games.iter().filter(|g| g.first == first).collect();
        let rated: Vec<u64> = of.iter().filter_map(|g| g.mean).collect();
        let average = rated.iter().sum::<u64>() as f64 / rated.len() as f64;
        let points2: u64 = of.iter().map(|g| g.white_points2).sum();
        let percent = 50.0 * points2 as f64 / of.len() as f64;
        let (whole, fraction) = (percent.trunc() as usize, percent.fract());
        let by_hand =
            (average + dp(whole) * (1.0 - fraction) + dp(whole + 1) * fraction).round() as i32;

        let san = shakmaty::san::San::from_ascii(first.as_bytes()).unwrap();
        let mv = san.to_move(&start).unwrap();
        let m = stats
            .moves
            .iter()
            .find(|m| m.raw_move.to_move(&start).ok() == Some(mv))
            .unwrap();
        assert_eq!(m.games(), of.len() as u64, "{first}");
        assert!(m.games() >= 5, "{first}: enough games for a performance");
        assert_eq!(m.performance(Color::White), Some(by_hand), "{first}");

        // And `explorer query --json` says the same.
        let (code, stdout, stderr) =
            hastings(&["explorer", "query", dir.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "{stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let row = json["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["san"] == first)
            .unwrap();
        assert_eq!(row["performance"].as_i64(), Some(i64::from(by_hand)));
        checked += 1;
    }
    assert_eq!(checked, 2);
    // Under 5 games, no performance.
    for m in stats.moves.iter().filter(|m| m.games() < 5) {
        assert_eq!(m.performance(Color::White), None);
    }
}

#[test]
fn query_gives_each_moves_performance_and_the_top_games_in_numbered_san() {
    let dir = temp_dir("explorer-performance-cli").join("games.explorer");
    let lichess = fixture("lichess_db_100k.pgn");
    let (code, _, stderr) = hastings(&[
        "explorer",
        "make",
        lichess.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = hastings(&[
        "explorer",
        "query",
        dir.to_str().unwrap(),
        "--moves",
        "e4",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    for m in json["moves"].as_array().unwrap() {
        let games = m["games"].as_u64().unwrap();
        assert!(m.get("performance").is_some(), "{m}");
        assert_eq!(m["performance"].is_i64(), games >= 5, "{m}");
    }
    let tops = json["top_games"].as_array().unwrap();
    assert!(!tops.is_empty());
    for t in tops {
        let san = t["san"].as_str().unwrap();
        assert!(
            san.starts_with("1..."),
            "Black's first move numbered: {san}"
        );
        assert!(
            !san.contains(t["uci"].as_str().unwrap()),
            "{san} is not UCI"
        );
    }
    // The table too: the top games' moves in SAN with their numbers, not in UCI.
    let (code, table, _) = hastings(&["explorer", "query", dir.to_str().unwrap(), "--moves", "e4"]);
    assert_eq!(code, 0);
    let top = &table[table.find("top games").unwrap()..];
    for t in tops {
        assert!(top.contains(t["san"].as_str().unwrap()), "{top}");
        assert!(!top.contains(t["uci"].as_str().unwrap()), "{top}");
    }
    assert!(table.contains("perf"), "{table}");
}

#[test]
fn query_eval_gives_the_engines_evaluation_after_each_move_from_whites_side() {
    use hastings::engine::analysis::analyse;
    use hastings::engine::{AlphaBeta, Limits};
    use shakmaty::Position as _;

    let (dir, _) =
        common::explorer::make_index("explorer-performance-eval", "lichess_db_100k.pgn", &[]);
    let cache = temp_dir("explorer-performance-eval-cache");
    let args = [
        "explorer",
        "query",
        dir.to_str().unwrap(),
        "--moves",
        "e4",
        "--json",
        "--eval",
        "--engine",
        "builtin",
        "--depth",
        "2",
        "--cache",
        cache.to_str().unwrap(),
    ];
    let (code, stdout, stderr) = hastings(&args);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let after_e4 = common::position_after("e4");
    let moves = json["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for m in moves {
        let uci: shakmaty::uci::UciMove = m["uci"].as_str().unwrap().parse().unwrap();
        let mut pos = after_e4.clone();
        pos.play_unchecked(uci.to_move(&after_e4).unwrap());
        let stop = std::sync::atomic::AtomicBool::new(false);
        let a = analyse(
            &mut AlphaBeta::default(),
            &pos,
            &Limits::depth(2).unwrap(),
            &stop,
        )
        .unwrap();
        let white = a.score_for(Color::White, pos.turn());
        assert_eq!(m["eval"].as_str(), Some(white.to_string().as_str()), "{m}");
    }
    // Kept in the cache: a second run reads them from there.
    assert!(
        std::fs::read_dir(&cache).unwrap().count() > 0,
        "a cache file"
    );
    let (code, again, _) = hastings(&args);
    assert_eq!(code, 0);
    assert_eq!(again, stdout);
    // Without --eval, no evaluation.
    let (_, plain, _) = hastings(&[
        "explorer",
        "query",
        dir.to_str().unwrap(),
        "--moves",
        "e4",
        "--json",
    ]);
    let plain: serde_json::Value = serde_json::from_str(&plain).unwrap();
    assert!(plain["moves"][0]["eval"].is_null());
}
