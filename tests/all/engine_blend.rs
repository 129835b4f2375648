//! Seed 003's λ blend in-process: λ = 0 is the tuned evaluation's search, λ = 1 the
//! predictor's top move, a mate beats any bonus, and a temperature draws among close
//! moves repeatably.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::sync::atomic::AtomicBool;

use hastings::engine::blend::{Blend, BlendSettings, Bonus};
use hastings::engine::evaluation::Evaluation;
use hastings::engine::predictor::Predictor;
use hastings::engine::tuned::TunedEval;
use hastings::engine::{AlphaBeta, Engine, Game, Limits, Search};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};

fn blend(lambda: f64, bonus: Bonus, temperature: f64, seed: u64) -> Blend {
    let settings = BlendSettings {
        lambda,
        bonus,
        temperature,
        depth: Some(2),
    };
    Blend::new(
        TunedEval::shipped().unwrap(),
        Some(Predictor::shared().unwrap()),
        settings,
        seed,
    )
}

fn play(engine: &mut dyn Engine, pos: &Chess) -> Move {
    engine
        .search(Search {
            game: &Game::new(pos.clone()),
            limits: &Limits::depth(2).unwrap(),
            stop: &AtomicBool::new(false),
            on_info: &mut |_| {},
        })
        .unwrap()
        .best
        .unwrap()
}

const OPENINGS: [&str; 4] = ["", "e4 c5", "d4 Nf6 c4 e6 Nc3", "e4 e5 Nf3 Nc6 Bb5 a6"];

#[test]
fn lambda_zero_is_the_evaluation_and_lambda_one_the_predictors_top_move() {
    let predictor = Predictor::shared().unwrap();
    let mut eval =
        AlphaBeta::with_evaluation(16, 0, Evaluation::Tuned(TunedEval::shipped().unwrap()));
    for sans in OPENINGS {
        let pos = common::position_after(sans);
        let by_eval = play(&mut eval, &pos);
        for bonus in [Bonus::Top, Bonus::Probability] {
            assert_eq!(
                play(&mut blend(0.0, bonus, 0.0, 1), &pos),
                by_eval,
                "{sans}"
            );
        }
        let top = predictor.predict(&pos)[0].mv;
        assert_eq!(
            play(&mut blend(1.0, Bonus::Top, 0.0, 1), &pos),
            top,
            "{sans}"
        );
    }
}

#[test]
fn a_mate_found_by_the_search_beats_any_bonus() {
    // Ra8 mates; nothing else comes close.
    let pos: Chess = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    for bonus in [Bonus::Top, Bonus::Probability] {
        let m = play(&mut blend(1.0, bonus, 0.0, 1), &pos);
        assert_eq!(m.to().to_string(), "a8", "{bonus}");
    }
}

#[test]
fn a_temperature_draws_among_close_moves_and_the_seed_repeats_the_draws() {
    let pos = Chess::default();
    let draws = |seed: u64| -> Vec<Move> {
        let mut engine = blend(0.5, Bonus::Probability, 2.0, seed);
        (0..24).map(|_| play(&mut engine, &pos)).collect()
    };
    let a = draws(7);
    assert!(a.iter().all(|m| pos.is_legal(*m)));
    assert_eq!(a, draws(7));
    let distinct: std::collections::HashSet<_> = a.iter().collect();
    assert!(distinct.len() > 1, "{a:?}");
    // At temperature 0 every search gives the same move.
    let mut cold = blend(0.5, Bonus::Probability, 0.0, 7);
    let first = play(&mut cold, &pos);
    assert!((0..5).all(|_| play(&mut cold, &pos) == first));
}

/// `predict --eval` on the first 60 positions of a fixture with `agent`: the JSON.
fn predict(agent: &[&str]) -> serde_json::Value {
    let file = common::fixture("lichess_db_100k.pgn");
    let mut args = vec![
        "predict",
        "--eval",
        file.to_str().unwrap(),
        "--max-positions",
        "60",
        "--json",
    ];
    args.extend_from_slice(agent);
    let (code, stdout, stderr) = common::hastings(&args);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

#[test]
fn predict_eval_scores_the_blend_between_the_evaluation_and_the_predictor() {
    let top1 = |agent: &[&str]| predict(agent)["top1"].as_f64().unwrap();
    let eval = top1(&["--agent", "eval", "--depth", "1"]);
    let cnn = top1(&["--agent", "cnn"]);
    assert_eq!(
        top1(&["--agent", "blend", "--lambda", "0", "--depth", "1"]),
        eval
    );
    assert_eq!(
        top1(&["--agent", "blend", "--lambda", "1", "--depth", "1"]),
        cnn
    );
    assert!(eval > 0.1 && cnn > eval, "eval {eval}, cnn {cnn}");
    // Several λ and both bonuses from one search a position: what separate runs give.
    let sweep = predict(&[
        "--agent",
        "blend",
        "--lambda",
        "0,0.3,1",
        "--bonus",
        "top,probability",
        "--depth",
        "1",
    ]);
    let sweep = sweep.as_array().unwrap();
    assert_eq!(sweep.len(), 6);
    // λ = 0 and 1 are the evaluation and the predictor; λ = 0.3 against separate runs.
    for row in &sweep[2..4] {
        let (lambda, bonus) = (row["lambda"].to_string(), row["bonus"].as_str().unwrap());
        let alone = top1(&[
            "--agent", "blend", "--lambda", &lambda, "--bonus", bonus, "--depth", "1",
        ]);
        assert_eq!(row["top1"].as_f64().unwrap(), alone, "λ {lambda} {bonus}");
    }
    assert_eq!(sweep[0]["top1"].as_f64().unwrap(), eval);
    assert_eq!(sweep[1]["top1"].as_f64().unwrap(), eval);
    assert_eq!(sweep[4]["top1"].as_f64().unwrap(), cnn);
}
