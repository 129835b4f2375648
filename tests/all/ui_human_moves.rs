//! "What a strong human plays here" in the window (egui_kittest): the chart's line of the
//! move predictor's likeliest moves, and the wrong-move panel's sentence on how often
//! strong players play the learner's move, both against the shipped predictor's own
//! numbers; hidden while the chart hides the answer, and off with the Style setting.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::predictor::{human_moves, played_move_sentence, top_moves_line};
use hastings::coach::settings::{Settings, Side};
use hastings::coach::{Coach, Command};
use hastings::engine::predictor::Predictor;
use hastings::trainer::Phase;
use hastings::ui::TrainerApp;
use shakmaty::{Chess, Move, Position};

use crate::common;
use common::{eco, san_moves};

/// The window at the drill after 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 (White to move,
/// ply 8: the first the predictor speaks at); no engine judges wrong moves.
fn harness(hide_answer: bool, show_human_moves: bool) -> Harness<'static, TrainerApp> {
    harness_after(
        "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6",
        hide_answer,
        show_human_moves,
    )
}

fn harness_after(
    moves: &str,
    hide_answer: bool,
    show_human_moves: bool,
) -> Harness<'static, TrainerApp> {
    let settings = Settings {
        learner: Side::White,
        seed: "5".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        explain_wrong_moves: false,
        hide_answer,
        show_human_moves,
        ..Settings::default()
    };
    let mut coach = Coach::new(eco(), settings, None);
    coach.apply(Command::DrillFrom(san_moves(moves)));
    common::drill_window(coach)
}

/// Steps frames until no prediction is being computed (the predictor works on its own
/// thread), with a generous deadline for debug builds.
fn settle(harness: &mut Harness<'static, TrainerApp>) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        harness.step();
        if !harness.state().coach().predictor().is_running()
            && harness.state().coach().predictor().human_moves().is_some()
        {
            break;
        }
        assert!(Instant::now() < deadline, "no prediction came");
        std::thread::sleep(Duration::from_millis(5));
    }
    harness.run();
}

/// Plays `san` by clicking its piece and its target square.
fn play(harness: &mut Harness<'static, TrainerApp>, san: &str) -> Move {
    let pos = harness.state().coach().session().position().clone();
    let mv = san
        .parse::<shakmaty::san::San>()
        .unwrap()
        .to_move(&pos)
        .unwrap();
    common::click_move(harness, mv);
    mv
}

/// Steps frames a while (the predictor would have started) and checks that nothing was
/// predicted and no line is shown.
fn assert_no_prediction(h: &mut Harness<'static, TrainerApp>) {
    for _ in 0..20 {
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!h.state().coach().predictor().is_running());
    assert!(h.state().coach().predictor().human_moves().is_none());
    assert!(h.query_by_label_contains("Strong players").is_none());
}

fn predicted(pos: &Chess) -> Vec<hastings::coach::predictor::HumanMove> {
    human_moves(&Predictor::shared().unwrap(), pos)
}

#[test]
fn a_wrong_move_says_how_often_strong_players_play_it() {
    let mut h = harness(true, true);
    let before = h.state().coach().session().position().clone();
    // Hidden at the learner's move: the line would give the answer away.
    for _ in 0..5 {
        h.step();
    }
    assert!(h.state().coach().predictor().human_moves().is_none());
    assert!(h.query_by_label_contains("Strong players").is_none());

    let a3 = play(&mut h, "a3");
    assert!(matches!(
        h.state().coach().session().phase(),
        Phase::OutOfBook { .. }
    ));
    settle(&mut h);
    let expected = played_move_sentence(&predicted(&before), a3).unwrap();
    assert!(expected.contains("play a3 ") && expected.contains("most play"));
    h.get_by_label(&expected);
    // The chart shows the same position (before the wrong move), and its line too.
    let line = top_moves_line(&predicted(&before), 3).unwrap();
    h.get_by_label(&format!("Strong players (predicted): {line}"));
}

#[test]
fn the_chart_names_the_likeliest_moves_when_the_answer_is_not_hidden() {
    let mut h = harness(false, true);
    let pos = h.state().coach().session().position().clone();
    settle(&mut h);
    let moves = predicted(&pos);
    assert_eq!(moves.len(), pos.legal_moves().len());
    let line = top_moves_line(&moves, 3).unwrap();
    h.get_by_label(&format!("Strong players (predicted): {line}"));
}

#[test]
fn the_style_setting_turns_it_off() {
    let mut h = harness(false, false);
    play(&mut h, "a3");
    assert_no_prediction(&mut h);
}

#[test]
fn the_first_moves_get_no_prediction() {
    // After 1.e4 e5 2.Nf3 Nc6 (ply 4) the predictor, trained from ply 8 on, says nothing,
    // even with the answer not hidden and after a move outside the book.
    assert_eq!(hastings::coach::predictor::FIRST_PLY, 8);
    let mut h = harness_after("e4 e5 Nf3 Nc6", false, true);
    play(&mut h, "a3");
    assert_no_prediction(&mut h);
}
