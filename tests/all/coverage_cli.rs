//! `hastings coverage` and `hastings compare` through the binary: the options and JSON
//! keys of docs/coverage.md, and the same numbers as the library.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use hastings::sampler::{Distribution, Style, replay};
use serde_json::Value;
use shakmaty::san::San;

use crate::common;
use common::{eco_graph, fixture, hastings, position_after, san_moves};

fn json(args: &[&str]) -> Value {
    let (code, out, err) = hastings(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

#[test]
fn coverage_depth_3_lists_the_unanswered_replies_to_e4_with_their_exact_p() {
    let rep = fixture("coverage_e4.pgn");
    let v = json(&[
        "coverage",
        "--pgn",
        rep.to_str().unwrap(),
        "--no-eco",
        "--theory",
        "eco",
        "--color",
        "white",
        "--params",
        "0,0,0,0,0",
        "--weights",
        "0.4,0.4,0.4,0.4,0.4",
        "--tau",
        "0",
        "--depth",
        "3",
        "--threshold",
        "0.005",
        "--json",
    ]);
    assert_eq!(
        keys(&v),
        ["coverage", "gaps", "mass_cut", "positions", "redundant"]
    );
    let gaps = v["gaps"].as_array().unwrap();
    let moves: Vec<&str> = gaps.iter().map(|g| g["moves"].as_str().unwrap()).collect();
    assert_eq!(
        moves,
        ["e4 c6", "e4 Nf6", "e4 d5", "e4 d6", "e4 Nc6", "e4 g6"]
    );
    // Each reach is the exact P of the reply after 1.e4 (s_prev: e4's share).
    let style = Style::from_vectors([0; 5], [0.4; 5], 0.0).unwrap();
    let (pos, s_prev) = replay(eco_graph(), &san_moves("e4"), &style);
    let node = eco_graph().lookup(&pos).unwrap();
    let d = Distribution::at(eco_graph(), node, &pos, &style, s_prev);
    for g in gaps {
        assert_eq!(keys(g), ["epd", "moves", "name", "reach", "theory"], "{g}");
        let reply = g["moves"].as_str().unwrap().split(' ').nth(1).unwrap();
        let mv = San::from_ascii(reply.as_bytes())
            .unwrap()
            .to_move(&pos)
            .unwrap();
        let p = d.candidate_for(mv).unwrap().p;
        let reach = g["reach"].as_f64().unwrap();
        assert!((reach - p).abs() < 1e-4, "{reply}: {reach} vs {p}");
        assert!(!g["theory"].as_array().unwrap().is_empty());
    }
    assert_eq!(gaps[0]["name"], "B10 Caro-Kann Defense");
    assert_eq!(
        gaps[0]["epd"],
        "rnbqkbnr/pp1ppppp/2p5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -"
    );
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(keys(&positions[0]), ["epd", "moves", "name", "reach"]);
    let reaches: Vec<f64> = positions
        .iter()
        .map(|p| p["reach"].as_f64().unwrap())
        .collect();
    assert!(
        reaches.windows(2).all(|w| w[0] >= w[1]),
        "most likely first"
    );
    assert!(reaches.iter().all(|r| *r >= 0.005));
    assert_eq!(v["mass_cut"].as_f64(), Some(0.0));
    let coverage = v["coverage"].as_array().unwrap();
    assert_eq!(coverage.len(), 2, "plies 0 and 2");
    assert_eq!(v["redundant"].as_array().unwrap().len(), 0);
}

#[test]
fn coverage_lists_redundant_positions_and_guesses_the_colour() {
    let rep = fixture("coverage_transposition.pgn");
    let v = json(&[
        "coverage",
        "--pgn",
        rep.to_str().unwrap(),
        "--no-eco",
        "--depth",
        "4",
        "--json",
    ]);
    let red = v["redundant"].as_array().unwrap();
    assert_eq!(red.len(), 1);
    assert_eq!(keys(&red[0]), ["epd", "moves", "repertoire"]);
    assert_eq!(red[0]["moves"], "");
    assert_eq!(red[0]["repertoire"], serde_json::json!(["d4", "c4"]));
}

#[test]
fn coverage_text_names_the_gaps_as_one_in_n_drills() {
    let rep = fixture("coverage_e4.pgn");
    let (code, out, err) = hastings(&[
        "coverage",
        "--pgn",
        rep.to_str().unwrap(),
        "--no-eco",
        "--tau",
        "0",
        "--depth",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 in 18"), "{out}");
    assert!(out.contains("B10 Caro-Kann Defense"), "{out}");
}

#[test]
fn coverage_rejects_a_bad_threshold() {
    let rep = fixture("coverage_e4.pgn");
    let (code, _, err) = hastings(&[
        "coverage",
        "--pgn",
        rep.to_str().unwrap(),
        "--no-eco",
        "--threshold",
        "2",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("--threshold"), "{err}");
}

#[test]
fn compare_reports_each_game_and_the_most_frequent_deviation() {
    let rep = fixture("compare_white.pgn");
    let games = fixture("compare_games.pgn");
    let v = json(&[
        "compare",
        "--pgn",
        rep.to_str().unwrap(),
        "--no-eco",
        "--games",
        games.to_str().unwrap(),
        "--player",
        "Hastings Learner",
        "--json",
    ]);
    assert_eq!(keys(&v), ["games", "summary"]);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 5);
    let g1 = &games[0];
    assert_eq!(g1["game"], 1);
    assert_eq!(g1["color"], "white");
    assert_eq!(g1["player_left"]["ply"], 5);
    assert_eq!(g1["player_left"]["played"], "Bc4");
    assert_eq!(g1["player_left"]["moves"], "e4 e5 Nf3 Nc6");
    assert_eq!(g1["player_left"]["repertoire"], serde_json::json!(["Bb5"]));
    assert_eq!(
        g1["player_left"]["epd"],
        shakmaty::fen::Epd::from_position(
            &position_after("e4 e5 Nf3 Nc6"),
            shakmaty::EnPassantMode::Legal
        )
        .to_string()
    );
    let g2 = &games[1];
    assert_eq!(g2["opponent_left"]["played"], "c6");
    assert_eq!(g2["opponent_left"]["known_gap"], true);
    let s = &v["summary"];
    assert_eq!(s["compared"], 5);
    assert_eq!(s["not_player"], 1);
    assert_eq!(s["deviations"][0]["played"], "Bc4");
    assert_eq!(s["deviations"][0]["count"], 2);
    assert_eq!(s["deviations"][0]["by"], "player");
}

#[test]
fn compare_as_black_reports_the_transposition_back() {
    let rep = fixture("compare_black.pgn");
    let games = fixture("compare_games.pgn");
    let (code, out, err) = hastings(&[
        "compare",
        "--pgn",
        rep.to_str().unwrap(),
        "--no-eco",
        "--games",
        games.to_str().unwrap(),
        "--player",
        "hastings learner",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("3 of hastings learner with Black compared"),
        "{out}"
    );
    assert!(
        out.contains("the opponent left at ply 1: c4 (a known gap); back at ply 5"),
        "{out}"
    );
}

#[test]
fn compare_records_the_players_deviations_as_failed_reviews() {
    let rep = fixture("compare_white.pgn");
    let games = fixture("compare_games.pgn");
    let dir = common::temp_dir("compare-record-reviews");
    let log = dir.join("reviews.log");
    let args = [
        "compare",
        "--pgn",
        rep.to_str().unwrap(),
        "--no-eco",
        "--games",
        games.to_str().unwrap(),
        "--player",
        "Hastings Learner",
        "--record-reviews",
        "--progress",
        log.to_str().unwrap(),
        "--json",
    ];
    let (code, out, err) = hastings(&args);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    // One failed review per position the player left the repertoire at.
    let mut left: Vec<&str> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["player_left"]["epd"].as_str())
        .collect();
    left.sort_unstable();
    left.dedup();
    assert!(!left.is_empty());
    assert!(
        err.contains(&format!("{} failed review(s) recorded", left.len())),
        "{err}"
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let records: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(records.len(), left.len(), "{text}");
    assert!(records.iter().all(|l| l.contains("again")), "{text}");
    // The review queue sees them as reviewed cards.
    let queue = json(&[
        "review",
        "--pgn",
        rep.to_str().unwrap(),
        "--no-eco",
        "--color",
        "white",
        "--progress",
        log.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(queue["reviews"], left.len());
    assert_eq!(queue["learned"], left.len());
}

#[test]
fn coverage_with_a_games_book_weighs_the_replies_by_the_book() {
    let rep = fixture("coverage_e4.pgn");
    let v = json(&[
        "coverage",
        "--pgn",
        rep.to_str().unwrap(),
        "--no-eco",
        "--theory",
        "eco",
        "--popularity",
        "book",
        "--color",
        "white",
        "--tau",
        "0",
        "--depth",
        "3",
        "--json",
    ]);
    // Without --book, `--popularity book` is the embedded gnuchess book: each gap's
    // reach is the book's exact P of the reply after 1.e4 (s_prev: e4's book share).
    let book = hastings::book::polyglot::SharedBook::gnuchess().unwrap();
    let source = hastings::sampler::MoveSource::new(
        eco_graph(),
        vec![book.book()],
        hastings::sampler::Popularity::Games,
    );
    let style = Style::from_vectors([0; 5], [0.4; 5], 0.0).unwrap();
    let moves = san_moves("e4");
    let (pos, s_prev) = source.replay(&moves, &style);
    let d = source.distribution(&pos, &style, s_prev, source.name_of(&moves));
    let gaps = v["gaps"].as_array().unwrap();
    assert!(!gaps.is_empty());
    for g in gaps {
        let reply = g["moves"].as_str().unwrap().split(' ').nth(1).unwrap();
        let mv = San::from_ascii(reply.as_bytes())
            .unwrap()
            .to_move(&pos)
            .unwrap();
        let p = d.candidate_for(mv).unwrap().p;
        let reach = g["reach"].as_f64().unwrap();
        assert!((reach - p).abs() < 1e-4, "{reply}: {reach} vs {p}");
    }
    // The book ranks the gaps by games played, not by ECO lines: 1...d6 comes before
    // 1...Nf6, and 1...Nc6 (a gap against ECO, above) is too rare to list.
    let moves: Vec<&str> = gaps.iter().map(|g| g["moves"].as_str().unwrap()).collect();
    assert_eq!(moves, ["e4 c6", "e4 d6", "e4 g6", "e4 Nf6", "e4 d5"]);
}
