use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

use super::fit::{ScoredPosition, fit_temperature, mean_log_likelihood, top_choice_share};
use super::*;
use crate::book::explorer::{ExplorerCounts, MoveStats, PositionStats};
use crate::book::polyglot::RawMove;
use crate::engine::human::tempered;
use crate::engine::predictor::Predictor;

fn san(pos: &Chess, s: &str) -> Move {
    s.parse::<San>().unwrap().to_move(pos).unwrap()
}

/// The start position's games: e4 `e4` times, d4 `d4` times.
fn start_stats(e4: u64, d4: u64) -> PositionStats {
    let pos = Chess::default();
    let stats = |s: &str, n: u64| MoveStats {
        raw_move: RawMove::from_move(san(&pos, s)).unwrap(),
        white: n,
        ..MoveStats::default()
    };
    PositionStats {
        moves: vec![stats("e4", e4), stats("d4", d4)],
        top: Vec::new(),
    }
}

#[test]
fn the_games_choose_from_exactly_k_games_and_the_model_below() {
    let pos = Chess::default();
    // 3 + 1 = 4 games: below K = 5 the model plays; at 5 the games do.
    assert_eq!(draw_from_games(&start_stats(3, 1), &pos, 5, 0.5), None);
    let (mv, source) = draw_from_games(&start_stats(4, 1), &pos, 5, 0.5).unwrap();
    assert_eq!(mv, san(&pos, "e4"));
    assert_eq!(
        source,
        SparSource::Games {
            with_move: 4,
            games: 5
        }
    );
    // The draw is in proportion to the games: u in [0.8, 1) is d4's fifth.
    assert_eq!(
        draw_from_games(&start_stats(4, 1), &pos, 5, 0.85)
            .unwrap()
            .0,
        san(&pos, "d4")
    );
    assert_eq!(
        draw_from_games(&start_stats(4, 1), &pos, 5, 0.79)
            .unwrap()
            .0,
        san(&pos, "e4")
    );
}

#[derive(Debug)]
struct Fixed(PositionStats);

impl ExplorerCounts for Fixed {
    fn stats_at(&self, pos: &Chess) -> PositionStats {
        if *pos == Chess::default() {
            self.0.clone()
        } else {
            PositionStats::default()
        }
    }
}

#[test]
fn the_switch_is_announced_once_with_the_games_and_the_temperature() {
    let counts = Arc::new(Fixed(start_stats(1, 1)));
    let mut spar = Spar::new(counts, "1600–1800 players", 5, 1.35, 7);
    let pos = Chess::default();
    assert_eq!(spar.explorer_move(&pos), None);
    assert_eq!(
        spar.model_source(&pos),
        SparSource::Model {
            games: 2,
            temperature: 1.35
        }
    );
    assert_eq!(
        spar.switch_text(2).as_deref(),
        Some("1600–1800 players have 2 games here: the human-like model plays on (T 1.35).")
    );
    assert_eq!(spar.switch_text(0), None);
    assert_eq!(possessive("1600–1800 players"), "1600–1800 players'");
    assert_eq!(possessive("Kasparov"), "Kasparov's");
    assert_eq!(
        switch_sentence("Kasparov", 0, 1.0),
        "Kasparov has no game here: the human-like model plays on (T 1.00)."
    );
    assert_eq!(
        SparSource::Games {
            with_move: 12,
            games: 1234
        }
        .describe("1600–1800 players"),
        "from 12 of 1,234 games of 1600–1800 players"
    );
}

/// Positions of real games (the master games' first 16 plies), with the predictor's
/// distribution at each.
fn real_positions() -> Vec<Vec<f64>> {
    let pgn = include_str!("../../../tests/fixtures/twic1599_100k.pgn");
    let mut games = Vec::new();
    crate::book::explorer::read_explorer_games(pgn.as_bytes(), 16, &mut games).unwrap();
    let predictor = Predictor::shared().unwrap();
    let mut boards = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (_, plies) in games.iter().take(40) {
        let mut pos = Chess::default();
        for (_, raw) in plies {
            if seen.insert(crate::book::polyglot::key(&pos)) {
                boards.push(pos.clone());
            }
            let Ok(mv) = raw.to_move(&pos) else { break };
            pos.play_unchecked(mv);
        }
    }
    let mut scratch = crate::engine::predictor::Scratch::default();
    predictor
        .predict_batch(&boards, &mut scratch)
        .into_iter()
        .map(|moves| moves.iter().map(|m| m.p).collect())
        .collect()
}

/// Games drawn from the model itself at `temperature`, `per_position` a position.
fn sampled(
    probs: &[Vec<f64>],
    temperature: f64,
    per_position: u64,
    seed: u64,
) -> Vec<ScoredPosition> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    probs
        .iter()
        .map(|p| {
            let q = tempered(p, temperature);
            let mut games = vec![0u64; p.len()];
            for _ in 0..per_position {
                let mut u = rng.random::<f64>();
                let i = q
                    .iter()
                    .position(|w| {
                        let hit = u < *w;
                        u -= w;
                        hit
                    })
                    .unwrap_or(q.len() - 1);
                games[i] += 1;
            }
            ScoredPosition {
                probs: p.clone(),
                games,
            }
        })
        .collect()
}

#[test]
fn the_fit_recovers_the_temperature_the_games_were_drawn_at() {
    let probs = real_positions();
    assert!(probs.len() > 150, "{} positions", probs.len());
    for truth in [0.6, 1.0, 1.8] {
        let games = sampled(&probs, truth, 40, 11);
        let fitted = fit_temperature(&games);
        assert!(
            (fitted - truth).abs() < 0.1 * truth,
            "drawn at T {truth}, fitted {fitted}"
        );
        // The fitted temperature is at least as likely as its neighbours and T 1.
        let best = mean_log_likelihood(&games, fitted);
        for other in [fitted * 0.8, fitted * 1.25, 1.0] {
            assert!(best >= mean_log_likelihood(&games, other) - 1e-9);
        }
    }
}

#[test]
fn the_top_choice_share_counts_the_games_of_each_positions_likeliest_move() {
    let scored = [
        ScoredPosition {
            probs: vec![0.5, 0.3, 0.2],
            games: vec![3, 1, 0],
        },
        ScoredPosition {
            probs: vec![0.6, 0.4],
            games: vec![0, 2],
        },
    ];
    assert!((top_choice_share(&scored) - 0.5).abs() < 1e-12);
    // At T 1 the log-likelihood is the probabilities' own.
    let expected = (3.0 * 0.5f64.ln() + 0.3f64.ln() + 2.0 * 0.4f64.ln()) / 6.0;
    assert!((mean_log_likelihood(&scored, 1.0) - expected).abs() < 1e-9);
}
