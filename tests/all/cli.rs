//! The headless commands, run as the user runs them.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;
use common::hastings;

#[test]
fn stats_json_prints_the_reference_counts() {
    let (code, out, _) = hastings(&["stats", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        [
            "book_edges",
            "build_ms",
            "implied_transpositions",
            "lines",
            "max_depth",
            "merge_points",
            "nodes"
        ]
    );
    assert_eq!(v["lines"], 3807);
    assert_eq!(v["nodes"], 7851);
    assert_eq!(v["book_edges"], 8055);
    assert_eq!(v["merge_points"], 193);
    assert_eq!(v["implied_transpositions"], 952);
    assert!(v["build_ms"].as_f64().unwrap() > 0.0);
}

#[test]
fn stats_filters_select_a_subsample() {
    let (code, out, _) = hastings(&["stats", "--json", "--min-moves", "5"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["lines"], 1747);
    let (_, out, _) = hastings(&["stats", "--json", "--volumes", "B", "--name", "sicilian"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["lines"].as_u64().unwrap() > 100 && v["lines"].as_u64().unwrap() < 769);
}

#[test]
fn sample_json_is_reproducible_with_a_seed() {
    let args = [
        "sample",
        "--json",
        "--moves",
        "e4 e5 Nf3",
        "--params",
        "1,0,0,0,0",
        "--tau",
        "0",
        "--iterations",
        "2000",
        "--seed",
        "9",
    ];
    let (code, first, _) = hastings(&args);
    assert_eq!(code, 0);
    let (_, second, _) = hastings(&args);
    assert_eq!(first, second);
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["seed"], 9);
    assert_eq!(v["iterations"], 2000);
    assert!((v["s_prev"].as_f64().unwrap() - 0.6705).abs() < 1e-4);
    let c = &v["candidates"][0];
    assert_eq!(c["san"], "Nc6");
    assert_eq!(c["uci"], "b8c6");
    assert_eq!(c["kind"], "book");
    assert!((c["p"].as_f64().unwrap() - 0.2660).abs() < 1e-4);
    for key in ["share", "bonus", "acceptance", "sampled"] {
        assert!(c[key].is_number(), "{key}");
    }
    let sampled: f64 = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["sampled"].as_f64().unwrap())
        .sum();
    assert!((sampled - 1.0).abs() < 1e-9);
    let reached = v["reached"].as_array().unwrap();
    assert_eq!(reached.len(), 10);
    assert!(reached[0]["name"].is_string() && reached[0]["count"].is_number());
}

#[test]
fn sample_reports_transpositions_and_bad_moves() {
    let (_, out, _) = hastings(&[
        "sample",
        "--json",
        "--moves",
        "d4 Nf6 c4",
        "--seed",
        "1",
        "--iterations",
        "10",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["kind"] == "transposition")
    );
    let (code, _, err) = hastings(&["sample", "--moves", "e4 Ke7"]);
    assert_ne!(code, 0);
    assert!(err.contains("--moves: ply 2 `Ke7`: illegal move"), "{err}");
    let (code, _, err) = hastings(&["sample", "--weights", "0.4,0.4,0.4,0.4,1.5"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("1.e4 lines weight must be a number from 0 to 1, got 1.5"),
        "{err}"
    );
}

#[test]
fn sample_refuses_zero_iterations() {
    let (code, out, err) = hastings(&["sample", "--iterations", "0"]);
    assert_eq!(code, 2, "clap refuses it: {out}{err}");
    assert!(err.contains("--iterations"), "{err}");
    assert!(err.contains("0 is not in 1.."), "{err}");
}

/// Depth, move time, node and ply counts of 0 are refused by every command that takes
/// them, naming the option (Stockfish reads `go depth 0` as no limit and never answers;
/// the built-in engine took 0 for 1; a ply cap of 0 read nothing), as are a drill
/// mass that is no probability. Clap exits 2 before anything runs.
#[test]
fn zero_limits_and_bad_probabilities_are_refused_naming_the_option() {
    let dir = common::temp_dir("cli-zero-limits");
    let out = |name: &str| dir.join(name).display().to_string();
    let pgn = common::fixture("check_planted.pgn").display().to_string();
    let games = common::fixture("garbage.pgn").display().to_string();
    let (book, explorer, weights) = (out("b.bin"), out("x.explorer"), out("w.ron"));
    let check = ["check", "--pgn", &pgn, "--engine", "builtin", "--no-cache"];
    let matches = [
        "match", "--engine", "builtin", "--engine", "random", "--games", "1",
    ];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        ([&check[..], &["--depth", "0"]].concat(), "--depth"),
        ([&check[..], &["--movetime", "0"]].concat(), "--movetime"),
        (
            vec![
                "check",
                "--pgn",
                &pgn,
                "--engine",
                "stockfish",
                "--depth",
                "0",
            ],
            "--depth",
        ),
        ([&matches[..], &["--depth", "0"]].concat(), "--depth"),
        ([&matches[..], &["--movetime", "0"]].concat(), "--movetime"),
        (
            [&matches[..], &["--max-plies", "0"]].concat(),
            "--max-plies",
        ),
        (
            vec![
                "predict",
                "--eval",
                &games,
                "--agent",
                "alphabeta",
                "--depth",
                "0",
            ],
            "--depth",
        ),
        (
            vec![
                "predict",
                "--eval",
                &games,
                "--agent",
                "stockfish",
                "--depth",
                "0",
            ],
            "--depth",
        ),
        (vec!["uci", "--agent", "eval", "--depth", "0"], "--depth"),
        (
            vec![
                "train", "eval", "--games", &games, "-o", &weights, "--depth", "0",
            ],
            "--depth",
        ),
        (
            vec!["book", "make", &games, "-o", &book, "--max-plies", "0"],
            "--max-plies",
        ),
        (
            vec![
                "explorer",
                "make",
                &games,
                "-o",
                &explorer,
                "--max-plies",
                "0",
            ],
            "--max-plies",
        ),
        (
            vec!["import", &games, "--games", "--max-plies", "0"],
            "--max-plies",
        ),
        (
            vec![
                "fit",
                "--games",
                &games,
                "--player",
                "Alice",
                "--max-plies",
                "0",
            ],
            "--max-plies",
        ),
    ];
    for (args, option) in &cases {
        let (code, stdout, err) = hastings(args);
        assert_eq!(code, 2, "{args:?}: {stdout}{err}");
        assert!(
            err.contains(option) && err.contains("0 is no limit"),
            "{args:?}: {err}"
        );
    }
    for mass in ["nan", "2", "-0.5", "inf"] {
        let option = format!("--min-mass={mass}");
        let args = [&check[..], &[option.as_str()]].concat();
        let (code, stdout, err) = hastings(&args);
        assert_eq!(code, 2, "{args:?}: {stdout}{err}");
        assert!(
            err.contains("--min-mass") && err.contains("from 0 to 1"),
            "{args:?}: {err}"
        );
    }
    // Nothing was written.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

/// `predict --eval` of a file with no game says so and fails (it printed "0
/// positions" and exited 0); of a missing file says it cannot be read (it said
/// "cannot create").
#[test]
fn predict_eval_refuses_empty_garbage_and_missing_files() {
    let dir = common::temp_dir("cli-predict-eval");
    let junk = dir.join("junk.pgn");
    std::fs::write(&junk, b"\x89PNG\r\n\x1a\n not a game at all \xff\xfe\n").unwrap();
    let empty = common::fixture("empty.pgn");
    for file in [&empty, &junk] {
        let path = file.display().to_string();
        let (code, out, err) = hastings(&["predict", "--eval", &path]);
        assert_ne!(code, 0, "{path}: {out}{err}");
        assert!(!out.contains("positions"), "{out}");
        assert!(
            err.contains(&path) && err.contains("no game in it"),
            "{path}: {err}"
        );
    }
    let missing = dir.join("missing.pgn").display().to_string();
    let (code, out, err) = hastings(&["predict", "--eval", &missing]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(&format!("cannot read {missing}: not found")),
        "{err}"
    );
    let (code, out, err) = hastings(&["predict", "--weights", &missing]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains(&format!("cannot read {missing}: not found")),
        "{err}"
    );
    // Games that all end before --min-ply: no position to score is said too.
    let games = common::fixture("garbage.pgn").display().to_string();
    let (code, out, err) = hastings(&["predict", "--eval", &games, "--min-ply", "400"]);
    assert_ne!(code, 0, "{out}{err}");
    assert!(err.contains("--min-ply"), "{err}");
}

#[test]
fn sample_finds_an_opening_by_name_or_code_and_says_when_nothing_matches() {
    let (code, out, err) = hastings(&[
        "sample",
        "--opening",
        "najdorf",
        "--iterations",
        "50",
        "--seed",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap();
    assert_eq!(
        first,
        "opening   B90 Sicilian Defense: Najdorf Variation (e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6)"
    );
    // The same position as the moves give.
    let (_, by_moves, _) = hastings(&[
        "sample",
        "--moves",
        "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6",
        "--iterations",
        "50",
        "--seed",
        "3",
    ]);
    assert_eq!(
        out.lines().skip(1).collect::<Vec<_>>(),
        by_moves.lines().collect::<Vec<_>>()
    );
    let (code, out, _) = hastings(&["sample", "--opening", "C65", "--json", "--iterations", "10"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["fen"],
        "r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    );
    let (code, _, err) = hastings(&["sample", "--opening", "xyzzy"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("No opening in the book is called \"xyzzy\""),
        "{err}"
    );
}
