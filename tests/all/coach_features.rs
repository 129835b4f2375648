//! The features that were driven only through the window's tests, driven through the
//! coach without egui (issue 45: each feature has core tests): the chart's sampled lines
//! and the predictor display.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::time::{Duration, Instant};

use hastings::coach::predictor::human_moves;
use hastings::coach::settings::{Settings, Side};
use hastings::coach::{Coach, Command};
use hastings::engine::predictor::Predictor;
use shakmaty::Position;

use crate::common;

fn coach() -> Coach {
    let settings = Settings {
        // The chart (and the predictions) show the answer on the learner's turn too.
        hide_answer: false,
        learner: Side::White,
        seed: "3".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        ..crate::common::settings()
    };
    let mut coach = Coach::new(common::eco(), settings, None);
    coach.finish_loading();
    coach
}

/// Frames until `done`, for at most a minute (the work runs on its own thread).
fn frames_until(coach: &mut Coach, what: &str, done: impl Fn(&Coach) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done(coach) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
        common::coach_frame(coach);
    }
}

#[test]
fn sampled_lines_count_every_chain_once_from_the_position_shown() {
    let mut coach = coach();
    coach.start_explore();
    assert!(coach.sampled_lines().is_running());
    frames_until(&mut coach, "the sampled lines", |c| {
        !c.sampled_lines().is_running()
    });
    let explored = coach
        .sampled_lines()
        .explored()
        .expect("an exploration kept");
    let exploration = &explored.exploration;
    assert!(exploration.iterations > 0);
    // Every chain takes one first step and ends in one place (named or not).
    let firsts: u32 = exploration.first_steps.iter().sum();
    assert_eq!(firsts, exploration.iterations);
    let ended: u32 = exploration.endings.values().sum();
    assert_eq!(ended, exploration.iterations);
    let reached: u32 = explored.reached.iter().map(|(_, n)| n).sum();
    assert!(reached <= exploration.iterations);
    assert!(
        explored.reached.windows(2).all(|w| w[0].1 >= w[1].1),
        "most frequent first: {:?}",
        explored.reached
    );
}

#[test]
fn the_predictor_display_follows_the_board_and_matches_the_predictor() {
    let mut coach = coach();
    // Eight plies in: the predictor answers from ply 8 on.
    let moves = common::san_moves("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6");
    coach.apply(Command::DrillFrom(moves.clone()));
    common::coach_frame(&mut coach);
    frames_until(&mut coach, "the predictions", |c| {
        c.predictor().human_moves().is_some()
    });
    let shown = coach.predictor().human_moves().unwrap().clone();
    let pos = common::position_after("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6");
    let direct = human_moves(&Predictor::shared().unwrap(), &pos);
    assert_eq!(
        *shown, direct,
        "the display is the predictor's own distribution"
    );
    // Hidden on the learner's turn when the chart hides the answer.
    let mut settings = coach.settings().clone();
    settings.hide_answer = true;
    coach.apply(Command::SetSettings(Box::new(settings)));
    common::coach_frame(&mut coach);
    assert!(coach.predictor().human_moves().is_none());
    assert_eq!(shown.len(), pos.legal_moves().len());
    let total: f64 = shown.iter().map(|m| m.p).sum();
    assert!((total - 1.0).abs() < 1e-6, "{total}");
}
