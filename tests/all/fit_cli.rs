//! `hastings fit` end to end: JSON keys, the profile it writes, `sample --style`.

#![allow(clippy::unwrap_used)]

use crate::common;

use common::{fixture, hastings};

/// A quick fit (5 generations of 10) of praggnanandhaa's games in `games`, as JSON,
/// with `extra` arguments.
fn quick_fit<'a>(games: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "fit",
        "--games",
        games,
        "--player",
        "praggnanandhaa",
        "--generations",
        "5",
        "--population",
        "10",
        "--json",
    ];
    args.extend(extra);
    args
}

#[test]
fn fit_json_has_exactly_the_documented_keys_in_order() {
    let games = fixture("twic1599_100k.pgn");
    let (code, out, err) = hastings(&quick_fit(games.to_str().unwrap(), &[]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut expected = [
        "params",
        "weights",
        "tau",
        "popularity",
        "log_likelihood",
        "log_likelihood_neutral",
        "moves_scored",
        "moves_out_of_book",
        "top1",
        "top1_neutral",
    ];
    // serde_json's map is sorted unless preserve_order: compare as sets, then the text order.
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    expected.sort_unstable();
    assert_eq!(sorted, expected);
    let positions: Vec<usize> = [
        "\"params\"",
        "\"weights\"",
        "\"tau\"",
        "\"popularity\"",
        "\"log_likelihood\"",
        "\"log_likelihood_neutral\"",
        "\"moves_scored\"",
        "\"moves_out_of_book\"",
        "\"top1\"",
        "\"top1_neutral\"",
    ]
    .iter()
    .map(|k| out.find(k).unwrap())
    .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{out}");
    assert_eq!(v["params"].as_array().unwrap().len(), 5);
    assert_eq!(v["popularity"], "eco");
    // The player's 10 games in this file: 35 moves in ECO, 4 leaving it.
    assert_eq!(v["moves_scored"], 35);
    assert_eq!(v["moves_out_of_book"], 4);
    assert!(v["log_likelihood"].as_f64().unwrap() >= v["log_likelihood_neutral"].as_f64().unwrap());
}

#[test]
fn the_fitted_profile_loads_in_sample() {
    let dir = std::env::temp_dir().join(format!("hastings-fit-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let profile = dir.join("p.ron");
    let games = fixture("twic1599_100k.pgn");
    let (code, out, err) = hastings(&[
        "fit",
        "--games",
        games.to_str().unwrap(),
        "--player",
        "abdusattorov",
        "--generations",
        "5",
        "--population",
        "10",
        "--json",
        "-o",
        profile.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let fitted: serde_json::Value = serde_json::from_str(&out).unwrap();
    let (code, out, err) = hastings(&[
        "sample",
        "--style",
        profile.to_str().unwrap(),
        "--iterations",
        "10",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let sampled: serde_json::Value = serde_json::from_str(&out).unwrap();
    // The same P as with the fitted vectors given on the command line.
    let params: Vec<String> = fitted["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.to_string())
        .collect();
    let weights: Vec<String> = fitted["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.to_string())
        .collect();
    let tau = fitted["tau"].to_string();
    let (code, out, err) = hastings(&[
        "sample",
        "--params",
        &params.join(","),
        "--weights",
        &weights.join(","),
        "--tau",
        &tau,
        "--iterations",
        "10",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let direct: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(sampled["candidates"], direct["candidates"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_corrupt_profile_is_an_error_with_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("hastings-fit-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(
        &bad,
        "(\n    format: 1,\n    name: \"x\",\n    gambits: (on: maybe, weight: 0.1),\n)\n",
    )
    .unwrap();
    let (code, _, err) = hastings(&["sample", "--style", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.ron: line 4, column"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fit_names_the_players_it_knows_when_the_name_is_missing() {
    let games = fixture("twic1599_100k.pgn");
    let (code, _, err) = hastings(&[
        "fit",
        "--games",
        games.to_str().unwrap(),
        "--player",
        "Fischer",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("no game has a White or Black tag containing `Fischer`"),
        "{err}"
    );
    assert!(err.contains("Praggnanandhaa,R (10)"), "{err}");
    let (code, _, err) = hastings(&[
        "fit",
        "--games",
        games.to_str().unwrap(),
        "--player",
        "x",
        "--theory",
        "book.bin",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("book.bin"), "{err}");
    let (code, _, err) = hastings(&[
        "fit",
        "--games",
        games.to_str().unwrap(),
        "--player",
        "x",
        "--theory",
        "polyglot",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("expected eco, gnuchess or a Polyglot book"),
        "{err}"
    );
}

#[test]
fn fit_with_a_polyglot_book_fits_the_blend_and_the_profile_records_it() {
    let dir = common::temp_dir("fit-cli-blend");
    let profile = dir.join("p.ron");
    let games = fixture("twic1599_100k.pgn");
    let args = |theory: &str| {
        vec![
            "fit".to_owned(),
            "--games".to_owned(),
            games.to_str().unwrap().to_owned(),
            "--player".to_owned(),
            "praggnanandhaa".to_owned(),
            "--generations".to_owned(),
            "5".to_owned(),
            "--population".to_owned(),
            "10".to_owned(),
            "--theory".to_owned(),
            theory.to_owned(),
            "--json".to_owned(),
            "-o".to_owned(),
            profile.to_str().unwrap().to_owned(),
        ]
    };
    let run = |theory: &str| {
        let a = args(theory);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let (code, out, err) = hastings(&a);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let text = std::fs::read_to_string(&profile).unwrap();
        (
            v,
            hastings::sampler::profile::StyleProfile::from_ron(&text).unwrap(),
        )
    };
    let (eco, _) = run("eco");
    let (v, p) = run("gnuchess");
    // The book scores the moves past the ECO lines too.
    assert!(v["moves_scored"].as_u64().unwrap() > eco["moves_scored"].as_u64().unwrap());
    let popularity: hastings::sampler::Popularity =
        v["popularity"].as_str().unwrap().parse().unwrap();
    assert_ne!(popularity, hastings::sampler::Popularity::Lines, "{v}");
    assert_eq!(p.popularity, popularity);
    assert!(v["log_likelihood"].as_f64().unwrap().is_finite());
    // `sample --style` applies the fitted blend (with the embedded book), as
    // `--popularity` with the fitted vectors does.
    let join = |key: &str| {
        v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let common = [
        "--moves",
        "e4 c5 Nf3 d6",
        "--iterations",
        "10",
        "--seed",
        "1",
        "--json",
    ];
    let (params, weights, tau) = (join("params"), join("weights"), v["tau"].to_string());
    let explicit: Vec<&str> = [
        "sample",
        "--popularity",
        v["popularity"].as_str().unwrap(),
        "--params",
        &params,
        "--weights",
        &weights,
        "--tau",
        &tau,
    ]
    .into_iter()
    .chain(common)
    .collect();
    let by_profile: Vec<&str> = ["sample", "--style", profile.to_str().unwrap()]
        .into_iter()
        .chain(common)
        .collect();
    let (c1, o1, e1) = hastings(&explicit);
    let (c2, o2, e2) = hastings(&by_profile);
    assert_eq!((c1, c2), (0, 0), "{e1} {e2}");
    let p1: serde_json::Value = serde_json::from_str(&o1).unwrap();
    let p2: serde_json::Value = serde_json::from_str(&o2).unwrap();
    assert_eq!(p1["candidates"], p2["candidates"]);
    // The same book as a file gives the same fit.
    let bin = dir.join("gnuchess.bin");
    let gnuchess = hastings::book::polyglot::SharedBook::gnuchess().unwrap();
    let bytes: Vec<u8> = gnuchess
        .book()
        .entries()
        .flat_map(|e| e.to_bytes())
        .collect();
    std::fs::write(&bin, bytes).unwrap();
    let (file, _) = run(bin.to_str().unwrap());
    assert_eq!(file, v);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fit_with_an_explorer_fits_under_its_games_and_the_profile_records_it() {
    let dir = common::temp_dir("fit-cli-explorer");
    let index = dir.join("twic.explorer");
    let games = fixture("twic1599_100k.pgn");
    let (games, index_arg) = (games.to_str().unwrap(), index.to_str().unwrap());
    let (code, out, err) = hastings(&[
        "explorer",
        "make",
        games,
        "-o",
        index_arg,
        "--player",
        "Praggnanandhaa,R",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let profile = dir.join("p.ron");
    let fit = |extra: &[&str]| {
        let mut more = vec!["-o", profile.to_str().unwrap()];
        more.extend(extra);
        hastings(&quick_fit(games, &more))
    };
    let (code, eco, err) = fit(&[]);
    assert_eq!(code, 0, "{err}");
    let eco: serde_json::Value = serde_json::from_str(&eco).unwrap();

    let (code, out, err) = fit(&["--explorer", index_arg]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["popularity"], "explorer", "{v}");
    assert!(v["log_likelihood"].as_f64().unwrap().is_finite(), "{v}");
    // His own games are in the index: his moves past the ECO lines are scored too.
    assert!(v["moves_scored"].as_u64().unwrap() > eco["moves_scored"].as_u64().unwrap());
    let text = std::fs::read_to_string(&profile).unwrap();
    let p = hastings::sampler::profile::StyleProfile::from_ron(&text).unwrap();
    assert_eq!(p.popularity, hastings::sampler::Popularity::Explorer);

    // The filters of `sample`/`coverage`: his tree as White.
    let (code, out, err) = fit(&[
        "--explorer",
        index_arg,
        "--explorer-player",
        "Praggnanandhaa,R",
        "--explorer-color",
        "white",
    ]);
    assert_eq!(code, 0, "{err}");
    let white: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(white["popularity"], "explorer");
    assert_ne!(white["log_likelihood"], v["log_likelihood"], "another tree");

    // A player the index keeps no tree for, and two games sources, are errors.
    let (code, _, err) = fit(&[
        "--explorer",
        index_arg,
        "--explorer-player",
        "Carlsen",
        "--explorer-color",
        "black",
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("Carlsen") && err.contains("Praggnanandhaa"),
        "{err}"
    );
    let (code, _, err) = fit(&["--explorer", index_arg, "--theory", "gnuchess"]);
    assert_ne!(code, 0);
    assert!(err.contains("--explorer and --theory gnuchess"), "{err}");
}
