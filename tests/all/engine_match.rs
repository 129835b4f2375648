//! `hastings match` as the user runs it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;
use common::hastings;

#[test]
fn match_against_a_random_mover_is_won_and_reported() {
    let dir = std::env::temp_dir().join(format!("hastings-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let (code, out, err) = hastings(&[
        "match",
        "--engine",
        "builtin",
        "--engine",
        "random",
        "--games",
        "4",
        "--depth",
        "3",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("match: builtin vs random, 4 games, depth 3, ECO openings"));
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("game ")).count(),
        4,
        "{out}"
    );
    let result = lines.last().unwrap();
    assert!(
        result
            .starts_with("result: hastings alphabeta vs random: +4 =0 -0, score 100.0 %, Elo +inf"),
        "{result}"
    );
    // Both colours of each opening, and the book part marked in the PGN.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event \"hastings match\"]").count(), 4);
    assert_eq!(text.matches("{end of book}").count(), 4);
    assert_eq!(text.matches("[White \"builtin\"]").count(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn match_with_a_missing_engine_fails_with_a_message() {
    let (code, _, err) = hastings(&["match", "--engine", "/nonexistent/engine", "--games", "2"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot start /nonexistent/engine"), "{err}");
}

#[test]
fn match_rejects_a_malformed_engine_option() {
    let (code, _, err) = hastings(&["match", "--engine", "builtin,Skill", "--games", "2"]);
    assert_eq!(code, 2, "clap usage error");
    assert!(err.contains("NAME=VALUE"), "{err}");
}
