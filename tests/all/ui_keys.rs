//! The keyboard through the window's real widgets (egui_kittest): moves typed in the
//! move box (SAN, UCI, completions, errors), ←/→/Home/End stepping through the drill's
//! moves, Ctrl+Z taking back, and the move box keeping the arrows to itself; in the
//! play-on game, the move box and ← (take back).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::{self, Key, Modifiers, accesskit::Role, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::play_on::{EngineKind, PlayOnSettings};
use hastings::coach::settings::{Settings, Side};
use hastings::coach::{Action, Command};
use hastings::trainer::play_on::Turn;
use hastings::ui::TrainerApp;

use crate::common;
use common::wait_until;

fn app_harness(learner: Side) -> Harness<'static, TrainerApp> {
    let settings = Settings {
        learner,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        // A quick engine for playing on: the built-in α-β, 50 ms a move.
        play_on: PlayOnSettings {
            engine: EngineKind::AlphaBeta,
            movetime_ms: 50,
            ..PlayOnSettings::default()
        },
        ..crate::common::settings()
    };
    let app = TrainerApp::new(common::eco(), settings);
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

/// The move box's text, found by its accessible name.
fn move_box_text(harness: &Harness<'_, TrainerApp>) -> String {
    harness
        .get_by_role_and_label(Role::TextInput, "Your move")
        .value()
        .unwrap_or_default()
}

/// Whether the move box has the keyboard.
fn move_box_focused(harness: &Harness<'_, TrainerApp>) -> bool {
    harness
        .get_by_role_and_label(Role::TextInput, "Your move")
        .is_focused()
}

/// Presses `/` as a keyboard does (the key, then the text it types): the move box
/// takes the keyboard.
fn press_slash(harness: &mut Harness<'_, TrainerApp>) {
    harness.key_press(Key::Slash);
    harness.event(egui::Event::Text("/".to_owned()));
    harness.run();
}

/// Types `text` into the widget that has the keyboard.
fn type_text(harness: &mut Harness<'_, TrainerApp>, text: &str) {
    harness.event(egui::Event::Text(text.to_owned()));
    harness.run();
}

fn press(harness: &mut Harness<'_, TrainerApp>, key: Key) {
    harness.key_press(key);
    harness.run();
}

/// The SAN of the drill's moves.
fn sans(harness: &Harness<'_, TrainerApp>) -> Vec<String> {
    let app = harness.state().coach();
    app.session()
        .moves()
        .iter()
        .map(|m| m.san.clone())
        .collect()
}

fn viewing(harness: &Harness<'_, TrainerApp>) -> Option<usize> {
    harness.state().coach().session().viewing()
}

/// Plays the learner's `san` through the coach and lets the computer reply.
fn play(harness: &mut Harness<'_, TrainerApp>, san: &str) {
    let before = harness.state().coach().session().moves().len();
    let pos = harness.state().coach().session().position().clone();
    let mv = hastings::book::movelist::parse_moves(&pos, san).unwrap()[0];
    harness.state_mut().coach_mut().apply(Command::Play(mv));
    harness.run();
    assert_eq!(
        harness.state().coach().session().moves().len(),
        before + 2,
        "{san}"
    );
}

#[test]
fn typing_e4_and_enter_plays_it_and_the_computer_replies() {
    let mut harness = app_harness(Side::White);
    harness.run();
    press_slash(&mut harness);
    assert!(move_box_focused(&harness), "/ gives the box the keyboard");
    assert_eq!(move_box_text(&harness), "", "the / is not typed");
    type_text(&mut harness, "e4");
    press(&mut harness, Key::Enter);
    harness.run();
    let moves = sans(&harness);
    assert_eq!(moves.len(), 2, "the computer replied: {moves:?}");
    assert_eq!(moves[0], "e4");
    assert_eq!(move_box_text(&harness), "", "the box is emptied");
    assert!(move_box_focused(&harness), "the next move is typed at once");
    // The board's squares keep their labels.
    harness.get_by_label("e4 white pawn");
    assert!(harness.query_by_label("e2 white pawn").is_none());

    // The next move, in lowercase.
    type_text(&mut harness, "nf3");
    press(&mut harness, Key::Enter);
    harness.run();
    let moves = sans(&harness);
    assert_eq!(moves.len(), 4, "{moves:?}");
    assert_eq!(moves[2], "Nf3");
}

#[test]
fn typing_nf_shows_only_nf3_and_clicking_it_plays_it() {
    let mut harness = app_harness(Side::White);
    harness.run();
    harness
        .get_by_role_and_label(Role::TextInput, "Your move")
        .click();
    harness.run();
    assert!(move_box_focused(&harness));
    type_text(&mut harness, "N");
    for san in ["Na3", "Nc3", "Nf3", "Nh3"] {
        harness.get_by_role_and_label(Role::Button, san);
    }
    type_text(&mut harness, "f");
    assert_eq!(move_box_text(&harness), "Nf");
    harness.get_by_role_and_label(Role::Button, "Nf3");
    assert!(
        harness
            .query_by_role_and_label(Role::Button, "Nh3")
            .is_none()
    );
    harness.get_by_role_and_label(Role::Button, "Nf3").click();
    harness.run();
    harness.run();
    assert_eq!(sans(&harness)[0], "Nf3");
    assert_eq!(sans(&harness).len(), 2);
    assert_eq!(move_box_text(&harness), "", "the box is emptied");
}

#[test]
fn tab_plays_the_only_completion() {
    let mut harness = app_harness(Side::White);
    harness.run();
    press_slash(&mut harness);
    type_text(&mut harness, "Nc");
    press(&mut harness, Key::Tab);
    harness.run();
    assert_eq!(sans(&harness)[0], "Nc3");
    assert!(
        move_box_focused(&harness),
        "Tab keeps the keyboard in the box"
    );
}

#[test]
fn an_illegal_or_unknown_entry_says_why_and_plays_nothing() {
    let mut harness = app_harness(Side::White);
    harness.run();
    press_slash(&mut harness);
    type_text(&mut harness, "Nf4");
    assert!(
        harness
            .query_by_role_and_label(Role::Button, "Nf3")
            .is_none(),
        "no completion for an illegal move"
    );
    press(&mut harness, Key::Enter);
    harness.get_by_label("Nf4 is not legal here");
    assert!(sans(&harness).is_empty(), "nothing was played");
    assert_eq!(
        move_box_text(&harness),
        "Nf4",
        "the entry stays to be fixed"
    );
    assert!(move_box_focused(&harness));

    // Typing clears the message.
    press(&mut harness, Key::Backspace);
    assert!(harness.query_by_label("Nf4 is not legal here").is_none());
    assert_eq!(move_box_text(&harness), "Nf");

    // Unknown text.
    harness.state_mut().coach_mut().apply(Command::MoveEntry(
        hastings::coach::drill::MoveEntryCommand::Text("hello".to_owned()),
    ));
    harness.run();
    press(&mut harness, Key::Enter);
    harness.get_by_label("hello is not a move");
    assert!(sans(&harness).is_empty());
}

#[test]
fn uci_g1f3_plays_nf3() {
    let mut harness = app_harness(Side::White);
    harness.run();
    press_slash(&mut harness);
    type_text(&mut harness, "g1");
    // A square starts a UCI move: the moves from it.
    harness.get_by_role_and_label(Role::Button, "Nf3");
    harness.get_by_role_and_label(Role::Button, "Nh3");
    type_text(&mut harness, "f3");
    press(&mut harness, Key::Enter);
    harness.run();
    assert_eq!(sans(&harness)[0], "Nf3");
}

#[test]
fn arrows_step_through_the_moves_and_home_end_go_to_the_ends() {
    let mut harness = app_harness(Side::White);
    harness.run();
    play(&mut harness, "e4");
    play(&mut harness, "Nf3");
    assert_eq!(viewing(&harness), None);

    press(&mut harness, Key::ArrowLeft);
    assert_eq!(viewing(&harness), Some(3));
    press(&mut harness, Key::ArrowLeft);
    assert_eq!(viewing(&harness), Some(2));
    harness.get_by_label_contains("Viewing the position after");
    press(&mut harness, Key::ArrowRight);
    assert_eq!(viewing(&harness), Some(3));
    press(&mut harness, Key::ArrowRight);
    assert_eq!(
        viewing(&harness),
        None,
        "past the last move: the game again"
    );
    press(&mut harness, Key::ArrowRight);
    assert_eq!(
        viewing(&harness),
        None,
        "nothing after the current position"
    );

    press(&mut harness, Key::Home);
    assert_eq!(viewing(&harness), Some(0));
    // The board's labels follow the position shown.
    harness.get_by_label("e2 white pawn");
    harness.get_by_label("g1 white knight");
    press(&mut harness, Key::ArrowLeft);
    assert_eq!(viewing(&harness), Some(0), "nothing before the start");
    press(&mut harness, Key::ArrowRight);
    assert_eq!(viewing(&harness), Some(1));
    harness.get_by_label("e4 white pawn");
    press(&mut harness, Key::End);
    assert_eq!(viewing(&harness), None);
    harness.get_by_label("f3 white knight");
    assert_eq!(sans(&harness).len(), 4, "stepping only shows positions");

    // The buttons above the move list do the same, named for screen readers.
    harness.get_by_label("Back one move").click();
    harness.run();
    assert_eq!(viewing(&harness), Some(3));
    harness.get_by_label("To the start").click();
    harness.run();
    assert_eq!(viewing(&harness), Some(0));
    harness.get_by_label("Forward one move").click();
    harness.run();
    assert_eq!(viewing(&harness), Some(1));
    harness.get_by_label("To the current position").click();
    harness.run();
    assert_eq!(viewing(&harness), None);
    // A clicked button does not keep the keys from the arrows.
    press(&mut harness, Key::ArrowLeft);
    assert_eq!(viewing(&harness), Some(3));
}

#[test]
fn ctrl_z_takes_back_and_left_does_not_in_the_drill() {
    let mut harness = app_harness(Side::White);
    harness.run();
    play(&mut harness, "d4");
    press(&mut harness, Key::ArrowLeft);
    assert_eq!(sans(&harness).len(), 2, "← only steps back");
    assert_eq!(viewing(&harness), Some(1));
    press(&mut harness, Key::End);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run();
    assert!(sans(&harness).is_empty(), "Ctrl+Z took back");
    harness.get_by_label("d2 white pawn");
}

#[test]
fn arrow_keys_typed_in_the_move_box_do_not_step() {
    let mut harness = app_harness(Side::White);
    harness.run();
    play(&mut harness, "e4");
    press_slash(&mut harness);
    type_text(&mut harness, "Nf");
    for key in [Key::ArrowLeft, Key::Home, Key::ArrowRight, Key::End, Key::F] {
        press(&mut harness, key);
    }
    assert_eq!(viewing(&harness), None, "the arrows moved the cursor only");
    assert_eq!(sans(&harness).len(), 2);
    assert!(move_box_focused(&harness));
    harness.get_by_label("e4 white pawn");

    // Escape leaves the box: the arrows step again.
    press(&mut harness, Key::Escape);
    assert!(!move_box_focused(&harness));
    press(&mut harness, Key::ArrowLeft);
    assert_eq!(viewing(&harness), Some(1));
    // A move typed while an earlier position is shown says why it waits.
    press_slash(&mut harness);
    press(&mut harness, Key::Enter);
    harness.get_by_label_contains("cannot be played now: this is an earlier position");
}

#[test]
fn the_move_box_plays_in_the_play_on_game_and_left_takes_back_there() {
    // The engine searches meanwhile: the frames do not wait for the window to settle.
    let mut harness = app_harness(Side::White);
    harness.run();
    harness
        .state_mut()
        .coach_mut()
        .apply(Command::Action(Action::PlayOn));
    let _ = harness.run_ok();
    assert!(harness.state().coach().play_on().game().is_some());

    harness.key_press(Key::Slash);
    harness.event(egui::Event::Text("/".to_owned()));
    let _ = harness.run_ok();
    harness.event(egui::Event::Text("d4".to_owned()));
    let _ = harness.run_ok();
    harness.key_press(Key::Enter);
    let _ = harness.run_ok();
    wait_until(&mut harness, "the engine's reply", |app| {
        app.coach()
            .play_on()
            .game()
            .is_some_and(|r| r.game().played().len() == 2 && r.game().turn() == Turn::Learner)
    });
    let played = harness
        .state()
        .coach()
        .play_on()
        .game()
        .unwrap()
        .game()
        .played()[0]
        .san
        .clone();
    assert_eq!(played, "d4");
    assert!(
        sans(&harness).is_empty(),
        "the drill waits while playing on"
    );

    // An illegal entry says why, in the play-on panel too.
    harness.event(egui::Event::Text("Ke3".to_owned()));
    let _ = harness.run_ok();
    harness.key_press(Key::Enter);
    let _ = harness.run_ok();
    harness.get_by_label("Ke3 is not legal here");
    harness.key_press(Key::Escape);
    let _ = harness.run_ok();

    // ← takes back there (the game has no earlier positions to show).
    harness.key_press(Key::ArrowLeft);
    let _ = harness.run_ok();
    wait_until(&mut harness, "the take back", |app| {
        app.coach()
            .play_on()
            .game()
            .is_some_and(|r| r.game().played().is_empty())
    });
}
