//! The Explorer tab follows the board beyond the drill (egui_kittest, real widgets): in
//! play-on it shows the moves of the play-on game's position (not hidden: a game is no
//! drill) and a click on a move plays it in that game; after "Drill this gap" in the
//! Coverage tab it shows the moves at the gap (an index of the TWIC fixture, which has
//! Caro-Kann games).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use egui_kittest::kittest::Queryable as _;
use hastings::book::explorer::ExplorerFilter;
use hastings::coach::play_on::{EngineKind, PlayOnSettings};
use hastings::coach::settings::{Settings, Side};
use hastings::coach::{Action, Command};
use hastings::trainer::Phase;
use hastings::trainer::play_on::Turn;

use crate::common;
use common::explorer::{assert_shows, labels, make_index, open_index, window};
use common::{AppHarness, wait_until};

fn settings(hide_answer: bool) -> Settings {
    Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        hide_answer,
        // A quick engine: the built-in α-β, 50 ms a move.
        play_on: PlayOnSettings {
            engine: EngineKind::AlphaBeta,
            movetime_ms: 50,
            ..PlayOnSettings::default()
        },
        explorer_hide_answer: hide_answer,
        explorer_evals: false,
        ..crate::common::settings()
    }
}

#[test]
fn in_play_on_the_tab_shows_the_games_position_and_plays_there() {
    let (dir, index) = make_index("ui-explorer-play-on", "lichess_db_100k.pgn", &[]);
    let mut h = window(settings(true), (1280.0, 800.0));
    open_index(&mut h, &dir);
    h.state_mut()
        .coach_mut()
        .apply(Command::Play(common::san_moves("e4")[0]));
    wait_until(&mut h, "the computer's reply", |app| {
        app.coach().session().moves().len() == 2
    });
    // The drill hides it at the learner's turn.
    h.get_by_label("Hidden until you move: it would give the answer away.");

    h.state_mut()
        .coach_mut()
        .apply(Command::Action(Action::PlayOn));
    h.run();
    let game_pos = |h: &AppHarness| {
        h.state()
            .coach()
            .play_on()
            .game()
            .unwrap()
            .game()
            .position()
            .clone()
    };
    let pos = game_pos(&h);
    let stats = index
        .query_position(&pos, &ExplorerFilter::default())
        .unwrap();
    let shown = labels(&stats, &pos);
    assert_shows(&h, &shown);

    // A click plays the move in the play-on game; the drill stays where it was.
    let (row, _) = &shown[0];
    h.get_by_label(row).click();
    // The engine thinks about its answer meanwhile: its spinner may outlive `run`'s
    // steps on a loaded machine.
    common::settle(&mut h);
    let run = h.state().coach().play_on().game().unwrap();
    assert!(
        run.game().played().iter().any(|m| m.by_learner),
        "played on"
    );
    assert_eq!(h.state().coach().session().moves().len(), 2);
    wait_until(&mut h, "the engine's move", |app| {
        let game = app.coach().play_on().game().unwrap().game();
        game.turn() == Turn::Learner && game.played().len() == 2
    });
    let pos = game_pos(&h);
    let stats = index
        .query_position(&pos, &ExplorerFilter::default())
        .unwrap();
    if stats.total().games() > 0 {
        assert_shows(&h, &labels(&stats, &pos));
    } else {
        h.get_by_label("No game reached this position under these filters.");
    }
}

#[test]
fn after_drill_this_gap_the_tab_shows_the_moves_at_the_gap() {
    let (dir, index) = make_index("ui-explorer-coverage", "twic1599_100k.pgn", &[]);
    let mut h = window(settings(false), (1280.0, 800.0));
    h.run();
    common::load_repertoire_in_window(&mut h, common::fixture("compare_white.pgn"));
    h.get_by_label("Coverage").click();
    h.run_steps(2);
    h.state_mut().coach_mut().coverage_mut().finish();
    h.run();
    let report = h.state().coach().coverage().report().expect("computed");
    let i = report.gaps.iter().position(|g| g.sans == "e4 c6").unwrap();
    h.get_all_by_label("Drill this gap").nth(i).unwrap().click();
    h.run();
    let gap = common::position_after("e4 c6");
    assert_eq!(h.state().coach().session().position(), &gap);
    assert_eq!(*h.state().coach().session().phase(), Phase::LearnerToMove);

    open_index(&mut h, &dir);
    let stats = index
        .query_position(&gap, &ExplorerFilter::default())
        .unwrap();
    assert_shows(&h, &labels(&stats, &gap));
    h.get_by_label(&common::explorer::total_label(stats.total().games()));
}
