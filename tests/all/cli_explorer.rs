//! `hastings explorer`: make, add and query through the binary; an `add` killed at any
//! point leaves an index that opens and holds exactly the committed games.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{fixture, hastings, temp_dir};
use hastings::book::explorer::ExplorerFilter;
use hastings::workspace::explorer::{ExplorerIndex, LOCK_FILE};
use shakmaty::Chess;

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn make(dir: &Path, files: &[&str]) {
    let mut args = vec!["explorer", "make"];
    let paths: Vec<String> = files
        .iter()
        .map(|f| fixture(f).display().to_string())
        .collect();
    args.extend(paths.iter().map(String::as_str));
    args.extend(["-o", path(dir), "--max-plies", "20"]);
    let (code, stdout, stderr) = hastings(&args);
    assert_eq!(code, 0, "{stdout}{stderr}");
}

/// Games in the index, and at the start position under no filter.
fn games(dir: &Path) -> (u64, u64) {
    let index = ExplorerIndex::open(dir).unwrap();
    let start = index
        .query_position(&Chess::default(), &ExplorerFilter::default())
        .unwrap();
    (index.games(), start.total().games())
}

#[test]
fn query_json_lists_moves_by_games_then_uci_with_filters() {
    let dir = temp_dir("cli-explorer-query").join("games.explorer");
    make(&dir, &["lichess_db_100k.pgn", "twic1599_100k.pgn"]);
    let (code, stdout, stderr) =
        hastings(&["explorer", "query", path(&dir), "--moves", "e4", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let moves = json["moves"].as_array().unwrap();
    let sum: u64 = moves.iter().map(|m| m["games"].as_u64().unwrap()).sum();
    assert_eq!(json["total"]["games"].as_u64().unwrap(), sum);
    for w in moves.windows(2) {
        let key = |m: &serde_json::Value| {
            (
                std::cmp::Reverse(m["games"].as_u64().unwrap()),
                m["uci"].as_str().unwrap().to_owned(),
            )
        };
        assert!(key(&w[0]) <= key(&w[1]), "{w:?}");
    }
    for m in moves {
        let (w, d, b) = (
            m["white"].as_u64(),
            m["draws"].as_u64(),
            m["black"].as_u64(),
        );
        assert_eq!(
            w.unwrap() + d.unwrap() + b.unwrap(),
            m["games"].as_u64().unwrap()
        );
        assert!(m["san"].is_string() && m["avg_rating"].is_u64());
    }
    assert_eq!(moves[0]["san"], "e5");

    // A filter keeps a subset: blitz and rapid 1600–2000 games only.
    let (code, filtered, stderr) = hastings(&[
        "explorer",
        "query",
        path(&dir),
        "--moves",
        "e4",
        "--ratings",
        "1600-2000",
        "--speeds",
        "blitz,rapid",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let filtered: serde_json::Value = serde_json::from_str(&filtered).unwrap();
    let n = filtered["total"]["games"].as_u64().unwrap();
    assert!(n > 0 && n < sum, "{n} of {sum}");
    for m in filtered["moves"].as_array().unwrap() {
        let r = m["avg_rating"].as_u64().unwrap();
        assert!((1600..2000).contains(&r), "{m}");
    }

    // The readable table.
    let (code, table, _) = hastings(&[
        "explorer",
        "query",
        path(&dir),
        "--fen",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ]);
    assert_eq!(code, 0);
    assert!(
        table.contains("e5") && table.contains("top games"),
        "{table}"
    );

    // Bad options say why.
    let (code, _, stderr) = hastings(&["explorer", "query", path(&dir), "--ratings", "1700"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("1700") && stderr.contains("rating band"),
        "{stderr}"
    );
    let (code, _, stderr) = hastings(&[
        "explorer",
        "query",
        path(&dir),
        "--player",
        "Carlsen",
        "--color",
        "white",
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("Carlsen"), "{stderr}");
    let (code, _, stderr) = hastings(&["explorer", "query", path(&dir.with_extension("missing"))]);
    assert_eq!(code, 1);
    assert!(stderr.contains("not an explorer index"), "{stderr}");
}

#[test]
fn a_player_tree_is_queried_by_colour() {
    let dir = temp_dir("cli-explorer-player").join("kasparov.explorer");
    let (code, stdout, stderr) = hastings(&[
        "explorer",
        "make",
        path(&fixture("style_training.pgn")),
        "-o",
        path(&dir),
        "--player",
        "KASPAROV",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let total = |color: &str, years: Option<&str>| {
        let mut args = vec![
            "explorer",
            "query",
            path(&dir),
            "--player",
            "kasparov",
            "--color",
            color,
            "--json",
        ];
        if let Some(y) = years {
            args.extend(["--years", y]);
        }
        let (code, stdout, stderr) = hastings(&args);
        assert_eq!(code, 0, "{stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        json["total"]["games"].as_u64().unwrap()
    };
    let (white, black) = (total("white", None), total("black", None));
    // docs/explorer_reference.py: Kasparov's finished games in style_training.pgn, from
    // the start position (the sum of his first moves' counts in explorer_counts_12.tsv).
    assert!(white > 900 && black > 800, "{white} {black}");
    let some_years = total("white", Some("1985-1990"));
    assert!(some_years > 0 && some_years < white);
}

fn add(dir: &Path, file: &str, crash_at: Option<&str>) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hastings"));
    cmd.args(["explorer", "add", path(dir), path(&fixture(file))]);
    if let Some(point) = crash_at {
        cmd.env("HASTINGS_EXPLORER_CRASH_AT", point);
    }
    cmd.output().unwrap()
}

#[test]
fn an_add_aborted_at_any_step_keeps_exactly_the_committed_games() {
    let base = temp_dir("cli-explorer-crash");
    let whole = base.join("whole.explorer");
    make(&whole, &["lichess_db_100k.pgn", "twic1599_100k.pgn"]);
    let after = games(&whole);
    let before_dir = base.join("before.explorer");
    make(&before_dir, &["lichess_db_100k.pgn"]);
    let before = games(&before_dir);
    assert!(after.0 > before.0);
    for (point, committed) in [
        ("segment-written", false),
        ("segment-renamed", false),
        ("manifest-write", false),
        ("manifest-renamed", true),
    ] {
        let dir = base.join(format!("{point}.explorer"));
        make(&dir, &["lichess_db_100k.pgn"]);
        let out = add(&dir, "twic1599_100k.pgn", Some(point));
        assert!(!out.status.success(), "{point}: the add was aborted");
        let expected = if committed { after } else { before };
        assert_eq!(games(&dir), expected, "{point}");
        // The next add cleans up and commits.
        let out = add(&dir, "twic1599_100k.pgn", None);
        assert!(
            out.status.success(),
            "{point}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let segments = if committed { 3 } else { 2 };
        // The segments, the manifest and the writers' lock file.
        assert!(names.iter().any(|n| n == LOCK_FILE), "{names:?}");
        assert_eq!(
            names.len(),
            segments + 2,
            "{point}: no leftovers: {names:?}"
        );
    }
}

#[test]
fn an_add_aborted_while_merging_segments_keeps_the_index_as_it_was() {
    let dir = temp_dir("cli-explorer-crash-merge").join("merge.explorer");
    make(&dir, &["lichess_db_100k.pgn"]);
    for _ in 0..7 {
        assert!(add(&dir, "lichess_db_100k.pgn", None).status.success());
    }
    let eight = games(&dir);
    let out = add(&dir, "lichess_db_100k.pgn", Some("merged-segment"));
    assert!(!out.status.success());
    // The add commits once, after its merge: aborted before, it added nothing.
    assert_eq!(games(&dir), eight);
    assert_eq!(
        ExplorerIndex::open(&dir).unwrap().manifest().segments.len(),
        8
    );
    assert!(add(&dir, "lichess_db_100k.pgn", None).status.success());
    let index = ExplorerIndex::open(&dir).unwrap();
    assert_eq!(index.manifest().segments.len(), 1);
    assert_eq!(
        games(&dir).0,
        eight.0 / 8 * 9,
        "the retry added its games once"
    );
    // The retired segments and the crashed add's files are gone.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}

#[test]
fn an_add_killed_at_random_moments_leaves_the_old_or_the_new_index() {
    let base = temp_dir("cli-explorer-kill");
    let dir = base.join("kill.explorer");
    make(&dir, &["lichess_db_100k.pgn"]);
    let alone = base.join("alone.explorer");
    make(&alone, &["style_training.pgn"]);
    let added = games(&alone);
    let mut states = vec![games(&dir)];
    for delay_ms in [0u64, 5, 20, 50, 100, 200, 400, 800] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hastings"))
            .args([
                "explorer",
                "add",
                path(&dir),
                path(&fixture("style_training.pgn")),
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill(); // SIGKILL on Unix
        let _ = child.wait();
        let now = games(&dir);
        // Either the add was not committed (the games so far) or it was (plus the games
        // of style_training.pgn).
        let last = *states.last().unwrap();
        let with = (last.0 + added.0, last.1 + added.1);
        assert!(
            now == last || now == with,
            "{delay_ms} ms: {now:?} after {last:?}"
        );
        if now != last {
            states.push(now);
        }
    }
}

#[test]
fn the_memory_bound_is_memory_mb_and_too_little_is_refused_by_that_name() {
    let base = temp_dir("cli-explorer-memory");
    let lichess = fixture("lichess_db_100k.pgn");
    // `--memory-mb`, and the older `--memory` still accepted: the same index.
    let mut counted = Vec::new();
    for (flag, name) in [("--memory-mb", "a.explorer"), ("--memory", "b.explorer")] {
        let dir = base.join(name);
        let (code, stdout, stderr) = hastings(&[
            "explorer",
            "make",
            path(&lichess),
            "-o",
            path(&dir),
            flag,
            "32",
        ]);
        assert_eq!(code, 0, "{flag}: {stdout}{stderr}");
        counted.push(games(&dir));
    }
    assert!(counted[0].0 > 0 && counted[0] == counted[1], "{counted:?}");
    let dir = base.join("c.explorer");
    let (code, _, stderr) = hastings(&[
        "explorer",
        "make",
        path(&lichess),
        "-o",
        path(&dir),
        "--memory-mb",
        "8",
    ]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("--memory-mb 8 MB is too little"),
        "{stderr}"
    );
    assert!(!dir.exists(), "a refused make leaves no folder");
    // The default is the explorer's own, shown by --help.
    let (_, help, _) = hastings(&["explorer", "make", "--help"]);
    assert!(
        help.contains("--memory-mb <MB>") && help.contains("[default: 256]"),
        "{help}"
    );
}
