//! The built-in engines: mates found, random movers beaten, limits obeyed.
//!
//! The mate positions and their solutions were checked with Stockfish 15.1 (Debian's
//! `stockfish`): `docs/engine-reference.sh` prints its verdict for each.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::atomic::AtomicBool;

use hastings::engine::matches::{Openings, openings, play_game};
use hastings::engine::{AlphaBeta, Engine, Game, Limits, Mcts, RandomMover, Score, Search};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, KnownOutcome, Position};

/// (FEN, the mating first move in UCI) — Stockfish 15.1: `score mate 1`.
pub const MATE_IN_ONE: [(&str, &str); 3] = [
    (
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "f3f7",
    ),
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),
    (
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
        "d8h4",
    ),
];

/// (FEN, the first move) — Stockfish 15.1: `score mate 2`, this move.
pub const MATE_IN_TWO: [(&str, &str); 3] = [
    (
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        "d5f6",
    ),
    ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", "g2g1"),
    (
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
        "d5d8",
    ),
];

fn game(fen: &str) -> Game {
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    Game::new(pos)
}

fn search(engine: &mut dyn Engine, fen: &str, limits: Limits) -> (String, Option<Score>) {
    let result = engine
        .search(Search {
            game: &game(fen),
            limits: &limits,
            stop: &AtomicBool::new(false),
            on_info: &mut |_| {},
        })
        .unwrap();
    let best = result
        .best
        .unwrap()
        .to_uci(CastlingMode::Standard)
        .to_string();
    (best, result.info.and_then(|i| i.score))
}

#[test]
fn alphabeta_finds_mate_in_one_at_depth_two() {
    for (fen, mate) in MATE_IN_ONE {
        let (best, score) = search(&mut AlphaBeta::default(), fen, Limits::depth(2).unwrap());
        assert_eq!(
            (best.as_str(), score),
            (mate, Some(Score::Mate(1))),
            "{fen}"
        );
    }
}

#[test]
fn alphabeta_finds_mate_in_two_at_depth_four() {
    for (fen, first) in MATE_IN_TWO {
        let (best, score) = search(&mut AlphaBeta::default(), fen, Limits::depth(4).unwrap());
        assert_eq!(
            (best.as_str(), score),
            (first, Some(Score::Mate(2))),
            "{fen}"
        );
    }
}

#[test]
fn alphabeta_finds_the_mates_within_a_node_budget() {
    // A budget instead of a depth, as `go movetime` gives, but counted in nodes so that
    // the result does not depend on the machine's speed or load.
    for (fen, first) in MATE_IN_ONE.iter().chain(&MATE_IN_TWO) {
        let (best, score) = search(
            &mut AlphaBeta::default(),
            fen,
            Limits::nodes(200_000).unwrap(),
        );
        assert_eq!(best, *first, "{fen}");
        assert!(
            matches!(score, Some(Score::Mate(1 | 2))),
            "{fen}: {score:?}"
        );
    }
}

#[test]
fn alphabeta_sees_mate_in_three() {
    // Stockfish 15.1: `score mate 3 pv b1g6 h5g4 g6f5 g4h5 f5h3`.
    let fen = "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1";
    let (best, score) = search(&mut AlphaBeta::default(), fen, Limits::depth(6).unwrap());
    assert_eq!((best.as_str(), score), ("b1g6", Some(Score::Mate(3))));
}

#[test]
fn the_mated_side_sees_its_fate() {
    // After 1.Nf6+ in the first mate-in-two, Black is mated in one whatever it plays.
    let fen = "r2qkb1r/pp2nppp/3p1N2/2p1N1B1/2BnP3/3P4/PPP2PPP/R2bK2R b KQkq - 2 1";
    let (_, score) = search(&mut AlphaBeta::default(), fen, Limits::depth(3).unwrap());
    assert_eq!(score, Some(Score::Mate(-1)));
}

#[test]
fn a_checkmated_side_has_no_move() {
    let fen = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let result = AlphaBeta::default()
        .search(Search {
            game: &game(fen),
            limits: &Limits::depth(3).unwrap(),
            stop: &AtomicBool::new(false),
            on_info: &mut |_| {},
        })
        .unwrap();
    assert_eq!(result.best, None);
}

#[test]
fn a_search_stopped_before_it_starts_still_names_a_legal_move() {
    let g = Game::default();
    let result = AlphaBeta::default()
        .search(Search {
            game: &g,
            limits: &Limits::default(),
            stop: &AtomicBool::new(true),
            on_info: &mut |_| {},
        })
        .unwrap();
    assert!(g.position().is_legal(result.best.unwrap()));
}

#[test]
fn node_limit_is_respected_within_one_check_interval() {
    let mut reported = 0;
    AlphaBeta::default()
        .search(Search {
            game: &Game::default(),
            limits: &Limits::nodes(10_000).unwrap(),
            stop: &AtomicBool::new(false),
            on_info: &mut |i| {
                reported = i.nodes;
            },
        })
        .unwrap();
    // The clock is read every 2,048 nodes.
    assert!(reported <= 10_000 + 2_048, "{reported}");
}

#[test]
fn alphabeta_beats_a_random_mover_every_game() {
    let starts = openings(Openings::Eco, 4, 3).unwrap();
    for (i, (name, start)) in starts.iter().enumerate() {
        for alphabeta_white in [true, false] {
            let mut ab = AlphaBeta::default();
            let mut random = RandomMover::new(i as u64);
            let (g, end) = if alphabeta_white {
                play_game(&mut ab, &mut random, start, &Limits::depth(3).unwrap(), 400)
            } else {
                play_game(&mut random, &mut ab, start, &Limits::depth(3).unwrap(), 400)
            };
            let winner = if alphabeta_white {
                Color::White
            } else {
                Color::Black
            };
            assert_eq!(
                end.outcome(),
                KnownOutcome::Decisive { winner },
                "{name}, alphabeta {}: {end} after {} plies",
                if alphabeta_white { "white" } else { "black" },
                g.moves().len()
            );
        }
    }
}

#[test]
fn mcts_finds_mate_in_one() {
    for (fen, mate) in MATE_IN_ONE {
        let (best, score) = search(&mut Mcts::default(), fen, Limits::nodes(3_000).unwrap());
        assert_eq!(
            (best.as_str(), score),
            (mate, Some(Score::Mate(1))),
            "{fen}"
        );
    }
}

#[test]
fn mcts_takes_a_hanging_queen() {
    // The black queen on d4 is attacked by the knight on f3 and defended by nothing.
    let fen = "rnb1kbnr/pppp1ppp/8/4p3/3q4/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 3";
    let (best, score) = search(&mut Mcts::default(), fen, Limits::nodes(3_000).unwrap());
    assert_eq!(best, "f3d4");
    assert!(
        matches!(score, Some(Score::Cp(cp)) if cp > 300),
        "{score:?}"
    );
}

#[test]
fn mcts_beats_a_random_mover() {
    let starts = openings(Openings::Eco, 2, 5).unwrap();
    for (i, (name, start)) in starts.iter().enumerate() {
        let mut mcts = Mcts::default();
        let mut random = RandomMover::new(100 + i as u64);
        let (g, end) = play_game(
            &mut mcts,
            &mut random,
            start,
            &Limits::nodes(100).unwrap(),
            400,
        );
        assert_eq!(
            end.outcome(),
            KnownOutcome::Decisive {
                winner: Color::White
            },
            "{name}: {end} after {} plies",
            g.moves().len()
        );
    }
}

#[test]
fn skill_zero_varies_its_moves_with_the_seed() {
    let g = Game::default();
    let mut moves = std::collections::HashSet::new();
    for seed in 0..20 {
        let mut engine = AlphaBeta::new(1, seed);
        engine.set_skill(0);
        let result = engine
            .search(Search {
                game: &g,
                limits: &Limits::default(),
                stop: &AtomicBool::new(false),
                on_info: &mut |_| {},
            })
            .unwrap();
        let best = result.best.unwrap();
        assert!(g.position().is_legal(best));
        moves.insert(best);
    }
    // Level 0 picks among moves within 300 cp of the best: most of the 20 first moves.
    assert!(moves.len() >= 5, "{} distinct moves", moves.len());
}
