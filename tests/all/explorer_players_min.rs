//! `explorer make --players-min N`: a tree for every player with at least N games (20
//! by default), most games first, besides the names asked for; each tree counts that
//! player's games exactly; `--players-min 0` keeps only the named ones.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::collections::HashMap;
use std::path::Path;

use hastings::book::explorer::ExplorerFilter;
use hastings::workspace::explorer::ExplorerIndex;
use shakmaty::{Chess, Color};

use crate::common;
use common::{fixture, hastings, temp_dir};

/// Each player's games in the fixture by its tags, by lower-cased name, counted by
/// hand: (games, finished games as White). The Seven Tag Roster puts `Result` after
/// `White` and `Black`.
fn tag_counts(file: &str) -> HashMap<String, (u64, u64)> {
    let text = std::fs::read_to_string(fixture(file)).unwrap();
    let mut counts: HashMap<String, (u64, u64)> = HashMap::new();
    let mut white = String::new();
    let tag = |line: &str, name: &str| {
        line.strip_prefix(&format!("[{name} \""))
            .and_then(|r| r.strip_suffix("\"]"))
            .map(str::to_lowercase)
    };
    for line in text.lines() {
        if let Some(name) = tag(line, "White") {
            counts.entry(name.clone()).or_default().0 += 1;
            white = name;
        } else if let Some(name) = tag(line, "Black") {
            counts.entry(name).or_default().0 += 1;
        } else if let Some(result) = tag(line, "Result")
            && result != "*"
        {
            counts.entry(white.clone()).or_default().1 += 1;
        }
    }
    counts
}

fn make(dir: &Path, extra: &[&str]) -> ExplorerIndex {
    let games = fixture("style_training.pgn");
    let mut args = vec![
        "explorer",
        "make",
        games.to_str().unwrap(),
        "-o",
        dir.to_str().unwrap(),
        "--max-plies",
        "8",
    ];
    args.extend(extra);
    let (code, stdout, stderr) = hastings(&args);
    assert_eq!(code, 0, "{stdout}{stderr}");
    ExplorerIndex::open(dir).unwrap()
}

#[test]
fn every_player_with_enough_games_gets_a_tree_most_games_first() {
    let counts = tag_counts("style_training.pgn");
    let total = |name: &str| counts[&name.to_lowercase()].0;
    let dir = temp_dir("explorer-players-min-default").join("games.explorer");
    let index = make(&dir, &[]);
    let players = index.players();
    let mut expected: Vec<&String> = counts.keys().filter(|n| total(n) >= 20).collect();
    expected.sort();
    let mut got: Vec<String> = players.iter().map(|p| p.to_lowercase()).collect();
    got.sort();
    assert_eq!(got.len(), expected.len(), "{players:?}");
    assert_eq!(got, expected.into_iter().cloned().collect::<Vec<_>>());
    for w in players.windows(2) {
        assert!(total(&w[0]) >= total(&w[1]), "most games first: {w:?}");
    }
    // A regular player's tree counts his finished games as White.
    let regular = players
        .iter()
        .find(|p| (20..100).contains(&total(p)))
        .unwrap();
    let filter = index
        .player_filter(ExplorerFilter::default(), regular, Color::White)
        .unwrap();
    let start = index.query_position(&Chess::default(), &filter).unwrap();
    assert_eq!(
        start.total().games(),
        counts[&regular.to_lowercase()].1,
        "{regular}"
    );
}

#[test]
fn a_higher_minimum_keeps_fewer_players_and_zero_only_the_named_ones() {
    let counts = tag_counts("style_training.pgn");
    let dir = temp_dir("explorer-players-min-500").join("games.explorer");
    let index = make(&dir, &["--players-min", "500"]);
    let mut got: Vec<String> = index.players().iter().map(|p| p.to_lowercase()).collect();
    got.sort();
    let mut expected: Vec<String> = counts
        .iter()
        .filter(|(_, (games, _))| *games >= 500)
        .map(|(n, _)| n.clone())
        .collect();
    expected.sort();
    assert_eq!(got, expected);

    let dir = temp_dir("explorer-players-min-0").join("games.explorer");
    let index = make(&dir, &["--players-min", "0", "--player", "Fischer"]);
    assert_eq!(index.players(), ["Fischer".to_owned()]);
}
