//! `hastings check` lists which line to learn next, as the window's Coverage tab does
//! (both run [`hastings::workspace::check`]): checked by a real `hastings uci` process,
//! ranked by the review log's recall (graded with `hastings review`), in JSON and text.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic
#![cfg(unix)]

use crate::common;

use std::path::{Path, PathBuf};

use common::{fixture, hastings, temp_dir};
use serde_json::Value;

/// A script that runs `hastings uci` (the CLI takes an engine's path, not its arguments).
fn hastings_uci(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("hastings-uci");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nexec '{}' uci \"$@\"\n",
            env!("CARGO_BIN_EXE_hastings")
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// `hastings check` of the planted repertoire for Black by `hastings uci`, the review
/// log `log`, and more arguments: (exit code, stdout, stderr).
fn check(dir: &Path, log: &Path, more: &[&str]) -> (i32, String, String) {
    let engine = hastings_uci(dir);
    let pgn = fixture("check_planted.pgn");
    let cache = dir.join("analysis");
    let mut args = vec![
        "check",
        "--color",
        "black",
        "--pgn",
        pgn.to_str().unwrap(),
        "--engine",
        engine.to_str().unwrap(),
        "--depth",
        "2",
        "--plies",
        "4",
        "--threads",
        "2",
        "--cache",
        cache.to_str().unwrap(),
        "--progress",
        log.to_str().unwrap(),
    ];
    args.extend_from_slice(more);
    hastings(&args)
}

fn check_json(dir: &Path, log: &Path) -> Value {
    let (code, out, err) = check(dir, log, &["--json"]);
    assert_eq!(code, 0, "hastings check failed: {err}");
    serde_json::from_str(&out).unwrap()
}

fn learn(json: &Value) -> &Vec<Value> {
    json["learn_next"].as_array().unwrap()
}

#[test]
fn check_ranks_what_to_learn_next_and_a_graded_line_falls() {
    let dir = temp_dir("check-learn-next");
    let log = dir.join("reviews.log");
    let first = check_json(&dir, &log);
    let rows = learn(&first);
    assert!(!rows.is_empty() && rows.len() <= 10, "{rows:?}");
    // Never reviewed: recall 0, so priority = reach × stake, highest first.
    for r in rows {
        assert_eq!(r["recall"].as_f64().unwrap(), 0.0);
        let (reach, stake) = (
            r["reach"].as_f64().unwrap(),
            r["stake_cp"].as_i64().unwrap(),
        );
        assert!(stake >= 100, "{r}");
        let expected = reach * stake as f64 / 100.0;
        assert!(
            (r["priority"].as_f64().unwrap() - expected).abs() < 1e-9,
            "{r}"
        );
        let (moves, answer) = (r["moves"].as_str().unwrap(), r["answer"].as_str().unwrap());
        // Numbered as players write moves: "1.e4 e5 2.Nf3: 2...Nc6".
        let (way, numbered) = r["text"].as_str().unwrap().split_once(": ").unwrap();
        assert_eq!(common::without_move_numbers(way), moves, "{r}");
        assert!(way.starts_with("1."), "{r}");
        assert_eq!(common::without_move_numbers(numbered), answer, "{r}");
        assert!(numbered.contains('.'), "{r}");
    }
    let priorities: Vec<f64> = rows
        .iter()
        .map(|r| r["priority"].as_f64().unwrap())
        .collect();
    assert!(
        priorities.windows(2).all(|w| w[0] >= w[1]),
        "{priorities:?}"
    );
    // A move the check reports as losing needs mending, not learning.
    for b in first["blunders"].as_array().unwrap() {
        assert!(
            !rows
                .iter()
                .any(|r| r["epd"] == b["epd"] && r["answer"] == b["played"]),
            "{b} is both a blunder and a line to learn"
        );
    }

    // Grade the first line "good" now: remembered, it is worth less to learn.
    let top = &rows[0];
    let pgn = fixture("check_planted.pgn");
    let (code, _, err) = hastings(&[
        "review",
        "--color",
        "black",
        "--progress",
        log.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
        "--grade",
        top["moves"].as_str().unwrap(),
        "--rating",
        "good",
    ]);
    assert_eq!(code, 0, "hastings review failed: {err}");
    let second = check_json(&dir, &log);
    assert_eq!(second["positions_analysed"], 0, "the cache answers all");
    let graded = learn(&second).iter().find(|r| r["epd"] == top["epd"]);
    if let Some(g) = graded {
        assert!(g["recall"].as_f64().unwrap() > 0.5, "{g}");
        assert!(g["priority"].as_f64().unwrap() < top["priority"].as_f64().unwrap());
    }
    assert_ne!(learn(&second)[0]["epd"], top["epd"]);
    // The other lines keep their rank among themselves.
    let others = |json: &Value| -> Vec<Value> {
        learn(json)
            .iter()
            .filter(|r| r["epd"] != top["epd"])
            .map(|r| r["epd"].clone())
            .collect()
    };
    let (before, after) = (others(&first), others(&second));
    assert_eq!(before[..], after[..before.len().min(after.len())]);
}

#[test]
fn the_text_report_ends_with_what_to_learn_next() {
    let dir = temp_dir("check-learn-next-text");
    let log = dir.join("reviews.log");
    let json = check_json(&dir, &log);
    let (code, out, err) = check(&dir, &log, &[]);
    assert_eq!(code, 0, "hastings check failed: {err}");
    let (_, section) = out
        .split_once("\nlearn next, where it pays most")
        .unwrap_or_else(|| panic!("no learn next section in {out}"));
    let lines: Vec<&str> = section.lines().skip(1).collect();
    assert_eq!(lines.len(), learn(&json).len(), "{section}");
    for (line, row) in lines.iter().zip(learn(&json)) {
        let text = row["text"].as_str().unwrap();
        assert!(line.contains(text), "{line:?} lacks {text:?}");
        assert!(line.contains("not reviewed yet"), "{line:?}");
        assert!(!line.contains("recall"), "{line:?}");
    }
}
