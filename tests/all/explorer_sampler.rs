//! An explorer index as the sampler's popularity (`Popularity::Explorer`): with no style
//! bonus, τ = 0 and `s_prev = 1` the exact P of each move is its games over the games
//! at the position (counted by the index, whose counts `tests/all/explorer.rs` checks
//! against python-chess); samples with a fixed seed follow that P (chi-square); a
//! filter changes P as it changes the counts; the explanation of a reply gives the
//! counts; `hastings sample --explorer` prints the same P.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::path::Path;
use std::sync::Arc;

use common::{eco_graph, fixture, hastings, pooled_chi2, temp_dir};
use hastings::book::explorer::{ExplorerCounts, ExplorerFilter, PositionStats};
use hastings::book::movelist::parse_moves;
use hastings::job::JobProgress;
use hastings::sampler::{
    CandidateKind, Distribution, ExploreLimits, MoveSource, Popularity, Style,
};
use hastings::workspace::explorer::{ExplorerIndex, FilteredExplorer, MakeOptions, make_explorer};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Move, Position};

fn index(dir: &Path) -> Arc<ExplorerIndex> {
    make_explorer(
        &[fixture("lichess_db_100k.pgn"), fixture("twic1599_100k.pgn")],
        dir,
        &MakeOptions::default(),
        &JobProgress::new(),
    )
    .unwrap();
    Arc::new(ExplorerIndex::open(dir).unwrap())
}

/// No style bonus and no implied transposition: P is the popularity share.
fn exact_style() -> Style {
    Style::from_vectors([0; 5], [0.4; 5], 0.0).unwrap()
}

fn position(moves: &str) -> Chess {
    let mut pos = Chess::default();
    for mv in parse_moves(&Chess::default(), moves).unwrap() {
        pos.play_unchecked(mv);
    }
    pos
}

/// Each move of `stats` (as legal moves at `pos`) with games / total.
fn expected_shares(stats: &PositionStats, pos: &Chess) -> Vec<(Move, f64)> {
    let total = stats.total().games() as f64;
    stats
        .moves
        .iter()
        .filter(|m| m.games() > 0)
        .map(|m| (m.raw_move.to_move(pos).unwrap(), m.games() as f64 / total))
        .collect()
}

fn assert_p_is_the_share(d: &Distribution, expected: &[(Move, f64)], at: &str) {
    assert_eq!(d.candidates.len(), expected.len(), "candidates at {at}");
    for (mv, share) in expected {
        let c = d
            .candidate_for(*mv)
            .unwrap_or_else(|| panic!("{mv} at {at}"));
        assert_eq!(c.kind, CandidateKind::Book);
        assert!(
            (c.p - share).abs() < 1e-12,
            "{mv} at {at}: P {} vs {share}",
            c.p
        );
        assert!((c.share - share).abs() < 1e-12);
    }
    let sum: f64 = d.candidates.iter().map(|c| c.p).sum();
    assert!((sum - 1.0).abs() < 1e-9);
}

const POSITIONS: [&str; 4] = ["", "e4", "e4 e5", "d4"];

#[test]
fn exact_p_is_games_over_total_and_a_filter_changes_it() {
    let dir = temp_dir("explorer-sampler-exact");
    let index = index(&dir);
    let style = exact_style();
    let blitz = ExplorerFilter::default().with_speeds("blitz").unwrap();
    let high = ExplorerFilter::default().with_ratings("1800-2500").unwrap();
    let mut changed = 0;
    for filter in [ExplorerFilter::default(), blitz, high] {
        let explorer = FilteredExplorer::new(Arc::clone(&index), filter);
        let source = MoveSource::graph(eco_graph()).with_explorer(&explorer);
        assert_eq!(source.popularity(), Popularity::Explorer);
        for moves in POSITIONS {
            let pos = position(moves);
            let stats = index.query_position(&pos, &filter).unwrap();
            let expected = expected_shares(&stats, &pos);
            assert!(!expected.is_empty(), "games at {moves:?} under {filter}");
            let d = source.distribution(&pos, &style, 1.0, None);
            assert_p_is_the_share(&d, &expected, moves);
            let all = index
                .query_position(&pos, &ExplorerFilter::default())
                .unwrap();
            if expected != expected_shares(&all, &pos) {
                changed += 1;
            }
        }
        assert!(explorer.take_error().is_none());
    }
    // The filters keep fewer games, so some positions' shares differ from the unfiltered.
    assert!(changed > 0, "no filter changed a share");
}

#[test]
fn samples_follow_the_exact_p() {
    let dir = temp_dir("explorer-sampler-chi2");
    let index = index(&dir);
    let filter = ExplorerFilter::default()
        .with_speeds("blitz,rapid")
        .unwrap();
    let explorer = FilteredExplorer::new(Arc::clone(&index), filter);
    let source = MoveSource::graph(eco_graph()).with_explorer(&explorer);
    let style = exact_style();
    let mut tested = 0;
    for (seed, moves) in POSITIONS.iter().enumerate() {
        let pos = position(moves);
        let d = source.distribution(&pos, &style, 1.0, None);
        if d.candidates.len() < 2 {
            continue;
        }
        tested += 1;
        // The drill's step.
        const N: usize = 20_000;
        let mut rng = ChaCha8Rng::seed_from_u64(seed as u64);
        let mut counts = vec![0usize; d.candidates.len()];
        for _ in 0..N {
            counts[d.step(&mut rng).unwrap().index] += 1;
        }
        let expected: Vec<f64> = d.candidates.iter().map(|c| c.p * N as f64).collect();
        let (chi2, df) = pooled_chi2(&expected, &counts);
        let bound = common::chi2_critical(df);
        assert!(
            chi2 < bound,
            "step at {moves:?}: chi2 {chi2} >= {bound} ({df} df)"
        );
        // The explore loop's first steps.
        let limits = ExploreLimits {
            iterations: N as u32,
            ply_limit: 1,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed as u64);
        let ex = source
            .explore(&pos, &style, 1.0, None, limits, &mut rng)
            .unwrap();
        let counts: Vec<usize> = ex.first_steps.iter().map(|&n| n as usize).collect();
        let (chi2, df) = pooled_chi2(&expected, &counts);
        assert!(
            chi2 < bound,
            "explore at {moves:?}: chi2 {chi2} >= {bound} ({df} df)"
        );
    }
    assert!(tested >= 2, "only {tested} positions with a choice");
}

/// Every position some game reached in its first `plies` plies.
fn positions_with_games(explorer: &FilteredExplorer, plies: usize) -> Vec<Chess> {
    let mut all = vec![Chess::default()];
    let mut frontier = all.clone();
    for _ in 0..plies {
        let mut next = Vec::new();
        for pos in &frontier {
            for m in explorer.stats_at(pos).moves {
                let mut after = pos.clone();
                after.play_unchecked(m.raw_move.to_move(pos).unwrap());
                next.push(after);
            }
        }
        all.extend(next.iter().cloned());
        frontier = next;
    }
    all
}

#[test]
fn implied_transpositions_weigh_the_games_of_the_position_they_reach() {
    let dir = temp_dir("explorer-sampler-tau");
    let index = index(&dir);
    let explorer = FilteredExplorer::new(Arc::clone(&index), ExplorerFilter::default());
    let source = MoveSource::graph(eco_graph()).with_explorer(&explorer);
    let tau = 0.5;
    let style = Style::from_vectors([0; 5], [0.4; 5], tau).unwrap();
    let mut seen = 0;
    for pos in positions_with_games(&explorer, 6) {
        let moves = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
        let d = source.distribution(&pos, &style, 1.0, None);
        let played = index
            .query_position(&pos, &ExplorerFilter::default())
            .unwrap();
        let mut weights = Vec::new();
        for c in &d.candidates {
            let mut next = pos.clone();
            next.play_unchecked(c.mv);
            let reached = explorer.games_at(&next) as f64;
            let here = played
                .moves
                .iter()
                .find(|m| m.raw_move.to_move(&pos).ok() == Some(c.mv))
                .map_or(0.0, |m| m.games() as f64);
            let weight = if c.kind == CandidateKind::Transposition {
                seen += 1;
                assert_eq!(here, 0.0, "{} is played at {moves:?}", c.mv);
                tau * reached
            } else {
                here
            };
            weights.push(weight);
        }
        let total: f64 = weights.iter().sum();
        for (c, w) in d.candidates.iter().zip(&weights) {
            assert!((c.share - w / total).abs() < 1e-12, "{} at {moves:?}", c.mv);
        }
    }
    assert!(seen > 0, "no implied transposition in these positions");
}

#[test]
fn the_explanation_of_a_reply_gives_its_games_and_score() {
    let dir = temp_dir("explorer-sampler-explain");
    let index = index(&dir);
    let explorer = FilteredExplorer::new(Arc::clone(&index), ExplorerFilter::default());
    let source = MoveSource::graph(eco_graph()).with_explorer(&explorer);
    let pos = position("e4");
    let stats = index
        .query_position(&pos, &ExplorerFilter::default())
        .unwrap();
    let total = stats.total().games();
    for m in stats.moves.iter().filter(|m| m.games() > 0) {
        let mv = m.raw_move.to_move(&pos).unwrap();
        let why = source.explain(&pos, mv).unwrap();
        assert!(
            why.starts_with(&format!("{} of {total} games, Black scores", m.games())),
            "{why}"
        );
        let score = 100.0 * (m.black as f64 + m.draws as f64 / 2.0) / m.games() as f64;
        assert!(why.contains(&format!("Black scores {score:.0}%")), "{why}");
    }
    // Without an explorer there is nothing to explain.
    let lines = MoveSource::graph(eco_graph());
    let e5 = parse_moves(&pos, "e5").unwrap()[0];
    assert_eq!(lines.explain(&pos, e5), None);
}

#[test]
fn sample_explorer_prints_the_exact_p_and_the_counts() {
    let dir = temp_dir("explorer-sampler-cli");
    let index = index(&dir);
    let filter = ExplorerFilter::default().with_ratings("1600-2500").unwrap();
    let pos = position("e4");
    let stats = index.query_position(&pos, &filter).unwrap();
    let expected = expected_shares(&stats, &pos);
    let (code, stdout, stderr) = hastings(&[
        "sample",
        "--explorer",
        dir.to_str().unwrap(),
        "--ratings",
        "1600-2500",
        "--moves",
        "e4",
        "--tau",
        "0",
        "--iterations",
        "200",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let candidates = report["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), expected.len());
    for (mv, share) in &expected {
        let uci = shakmaty::uci::UciMove::from_standard(*mv).to_string();
        let c = candidates
            .iter()
            .find(|c| c["uci"] == uci.as_str())
            .unwrap();
        assert!((c["p"].as_f64().unwrap() - share).abs() < 1e-9, "{uci}");
        let games = stats
            .moves
            .iter()
            .find(|m| m.raw_move.to_move(&pos).ok() == Some(*mv))
            .unwrap()
            .games();
        let why = c["explanation"].as_str().unwrap();
        assert!(why.starts_with(&format!("{games} of ")), "{why}");
    }
    // `--popularity explorer` without an index is a usage error.
    let (code, _, stderr) = hastings(&["sample", "--popularity", "explorer"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("--explorer"), "{stderr}");
}

#[test]
fn coverage_explorer_weighs_the_replies_by_the_games() {
    let dir = temp_dir("explorer-sampler-coverage");
    let index = index(&dir);
    let rep = fixture("coverage_e4.pgn");
    let (code, stdout, stderr) = hastings(&[
        "coverage",
        "--pgn",
        rep.to_str().unwrap(),
        "--no-eco",
        "--theory",
        "eco",
        "--explorer",
        dir.to_str().unwrap(),
        "--color",
        "white",
        "--tau",
        "0",
        "--depth",
        "3",
        "--threshold",
        "0",
        "--json",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // Each gap after 1.e4 is a reply the games play, reached with its exact P (s_prev:
    // e4's share of the games at the start).
    let explorer = FilteredExplorer::new(Arc::clone(&index), ExplorerFilter::default());
    let source = MoveSource::graph(eco_graph()).with_explorer(&explorer);
    let style = exact_style();
    let moves = parse_moves(&Chess::default(), "e4").unwrap();
    let (pos, s_prev) = source.replay(&moves, &style);
    let d = source.distribution(&pos, &style, s_prev, source.name_of(&moves));
    let gaps = v["gaps"].as_array().unwrap();
    assert!(!gaps.is_empty(), "{v}");
    for g in gaps {
        let reply = g["moves"].as_str().unwrap().split(' ').nth(1).unwrap();
        let mv = parse_moves(&pos, reply).unwrap()[0];
        let p = d.candidate_for(mv).unwrap().p;
        let reach = g["reach"].as_f64().unwrap();
        assert!((reach - p).abs() < 1e-4, "{reply}: {reach} vs {p}");
    }
}

#[test]
fn sample_explorer_player_draws_from_the_players_tree() {
    let dir = temp_dir("explorer-sampler-player");
    let options = MakeOptions {
        players: vec!["kasparov".to_owned()],
        ..MakeOptions::default()
    };
    make_explorer(
        &[fixture("style_training.pgn")],
        &dir,
        &options,
        &JobProgress::new(),
    )
    .unwrap();
    let index = ExplorerIndex::open(&dir).unwrap();
    let filter = index
        .player_filter(
            ExplorerFilter::default(),
            "Kasparov",
            shakmaty::Color::White,
        )
        .unwrap();
    let pos = Chess::default();
    let stats = index.query_position(&pos, &filter).unwrap();
    let expected = expected_shares(&stats, &pos);
    assert!(!expected.is_empty());
    let (code, stdout, stderr) = hastings(&[
        "sample",
        "--explorer",
        dir.to_str().unwrap(),
        "--explorer-player",
        "Kasparov",
        "--explorer-color",
        "white",
        "--tau",
        "0",
        "--iterations",
        "10",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let candidates = report["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), expected.len());
    for (mv, share) in &expected {
        let uci = shakmaty::uci::UciMove::from_standard(*mv).to_string();
        let c = candidates
            .iter()
            .find(|c| c["uci"] == uci.as_str())
            .unwrap();
        assert!((c["p"].as_f64().unwrap() - share).abs() < 1e-9, "{uci}");
    }
    // A player the index keeps no tree for is named in the error.
    let (code, _, stderr) = hastings(&[
        "sample",
        "--explorer",
        dir.to_str().unwrap(),
        "--explorer-player",
        "Nobody",
        "--explorer-color",
        "black",
    ]);
    assert_ne!(code, 0);
    assert!(stderr.contains("Nobody"), "{stderr}");
}
