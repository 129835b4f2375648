//! The headless commands, run as the user runs them.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod common;
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
