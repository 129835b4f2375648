//! Playing on against an engine through the headless coach (no window): the game
//! starts at the position shown, the built-in engine replies on its thread, take back,
//! the move box plays into the game, the PGN is copied and saved, a missing engine is
//! replaced with the reason said, a new drill ends the game, and "Back to the book"
//! returns to the drill as it was.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::time::{Duration, Instant};

use hastings::coach::drill::MoveEntryCommand;
use hastings::coach::play_on::{EngineKind, PlayOnCommand, PlayOnSettings};
use hastings::coach::settings::{Settings, Side};
use hastings::coach::{Action, Coach, Command, Notice};
use shakmaty::{Color, Position as _};

use crate::common;
use common::{coach_frame as frame, eco, san_moves};

/// The built-in α-β engine at full strength, 50 ms a move.
fn quick_engine() -> PlayOnSettings {
    PlayOnSettings {
        engine: EngineKind::AlphaBeta,
        movetime_ms: 50,
        ..PlayOnSettings::default()
    }
}

fn coach_with(play_on: PlayOnSettings) -> Coach {
    let settings = Settings {
        learner: Side::White,
        seed: "5".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        play_on,
        ..crate::common::settings()
    };
    let mut coach = Coach::new(eco(), settings, None);
    frame(&mut coach);
    coach
}

/// Plays `san` in the drill and runs frames until the computer has replied.
fn drill_move_and_reply(coach: &mut Coach, san: &str) {
    let before = coach.session().moves().len();
    coach.apply(Command::Play(san_moves(san)[0]));
    for _ in 0..10 {
        if coach.session().moves().len() >= before + 2 {
            return;
        }
        frame(coach);
    }
    panic!("the drill did not reply to {san}");
}

/// Runs frames until the game has `plies` moves after the book, or fails after 60 s.
fn wait_for_plies(coach: &mut Coach, plies: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while coach.play_on().game().unwrap().game().played().len() < plies {
        assert!(Instant::now() < deadline, "the engine did not move");
        std::thread::sleep(Duration::from_millis(5));
        frame(coach);
    }
}

/// Issue 41, item 12: a saved game names the learner as the settings do (not "Learner")
/// and every engine that played the other side (not only the last one).
#[test]
fn the_saved_game_names_the_learner_and_every_engine_that_played() {
    let mut settings = quick_engine();
    let mut coach = coach_with(settings.clone());
    coach.apply(Command::Action(Action::PlayOn));
    let mut named = coach.settings().clone();
    named.learner_name = "Ana Ruiz".to_owned();
    coach.apply(Command::SetSettings(Box::new(named)));
    for (i, engine) in [EngineKind::AlphaBeta, EngineKind::Mcts]
        .into_iter()
        .enumerate()
    {
        settings.engine = engine;
        coach.apply(Command::PlayOn(PlayOnCommand::Settings(settings.clone())));
        let mv = coach
            .play_on()
            .game()
            .unwrap()
            .game()
            .position()
            .legal_moves()[0];
        coach.apply(Command::PlayOn(PlayOnCommand::Play(mv)));
        wait_for_plies(&mut coach, 2 * (i + 1));
    }
    let path = common::temp_dir("coach-play-on-names").join("game.pgn");
    coach.apply(Command::PlayOn(PlayOnCommand::SaveTo(path.clone())));
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("[White \"Ana Ruiz\"]"), "{saved}");
    assert!(
        saved.contains("[Black \"Built-in engine, Built-in engine (tree search)\"]"),
        "{saved}"
    );
    // From the start: no book line to name.
    assert!(saved.contains("{The book ends here} 1."), "{saved}");
    assert!(
        !saved.contains("Learner") && !saved.contains("unnamed"),
        "{saved}"
    );
}

#[test]
fn the_engine_replies_take_back_undoes_both_moves_and_back_to_the_book_returns() {
    let mut coach = coach_with(quick_engine());
    drill_move_and_reply(&mut coach, "e4");
    let drill_moves = coach.session().moves().len();
    assert_eq!(drill_moves, 2, "the drill's reply to e4");
    coach.apply(Command::Action(Action::PlayOn));
    let run = coach.play_on().game().expect("playing on");
    assert_eq!(
        run.game().book_plies(),
        2,
        "the drill's moves are the book part"
    );
    assert_eq!(run.game().learner(), Color::White);

    let mv = run.game().position().legal_moves()[0];
    coach.apply(Command::PlayOn(PlayOnCommand::Play(mv)));
    wait_for_plies(&mut coach, 2);
    let game = coach.play_on().game().unwrap().game();
    assert!(game.played()[0].by_learner && !game.played()[1].by_learner);

    // ← takes back in the game: the engine's reply and the learner's move.
    assert!(coach.is_enabled(Action::StepBack));
    coach.apply(Command::Action(Action::StepBack));
    assert!(coach.play_on().game().unwrap().game().played().is_empty());

    coach.apply(Command::PlayOn(PlayOnCommand::BackToBook));
    assert!(coach.play_on().game().is_none());
    assert_eq!(coach.message(), Some("Back to the book."));
    assert_eq!(
        coach.session().moves().len(),
        drill_moves,
        "the drill as it was"
    );
}

#[test]
fn the_move_box_plays_into_the_game_while_playing_on() {
    let mut coach = coach_with(quick_engine());
    coach.apply(Command::Action(Action::PlayOn));
    assert!(coach.play_on().game().is_some());
    coach.apply(Command::MoveEntry(MoveEntryCommand::Text("e4".to_owned())));
    coach.apply(Command::MoveEntry(MoveEntryCommand::Enter));
    let game = coach.play_on().game().unwrap().game();
    assert_eq!(game.played().len(), 1);
    assert_eq!(game.played()[0].san, "e4");
    assert!(
        coach.session().moves().is_empty(),
        "not played in the drill"
    );
}

#[test]
fn the_game_is_copied_and_saved_as_pgn_with_the_book_part() {
    let mut coach = coach_with(quick_engine());
    drill_move_and_reply(&mut coach, "e4");
    coach.apply(Command::Action(Action::PlayOn));
    let mv = coach
        .play_on()
        .game()
        .unwrap()
        .game()
        .position()
        .legal_moves()[0];
    coach.apply(Command::PlayOn(PlayOnCommand::Play(mv)));
    coach.take_notices();

    coach.apply(Command::CopyPgn);
    let copied = coach
        .take_notices()
        .into_iter()
        .find_map(|n| match n {
            Notice::CopyText(text) => Some(text),
            _ => None,
        })
        .expect("the PGN on the clipboard");
    assert_eq!(Some(copied.clone()), coach.play_on().pgn(""));
    assert!(copied.contains("1. e4"), "{copied}");
    assert_eq!(coach.play_on().notice(), Some("The game's PGN was copied."));

    coach.apply(Command::PlayOn(PlayOnCommand::SavePgn));
    assert!(coach.take_notices().contains(&Notice::SaveGameAs));
    let path = common::temp_dir("coach-play-on-save").join("game.pgn");
    coach.apply(Command::PlayOn(PlayOnCommand::SaveTo(path.clone())));
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("1. e4"), "{saved}");
    assert_eq!(
        coach.play_on().notice(),
        Some(format!("The game was saved to {}.", path.display()).as_str())
    );
}

#[test]
fn a_missing_engine_is_replaced_with_the_reason_until_another_is_chosen() {
    let mut coach = coach_with(PlayOnSettings {
        engine: EngineKind::Path,
        path: "/nonexistent/dragon".to_owned(),
        movetime_ms: 50,
        ..PlayOnSettings::default()
    });
    coach.apply(Command::Action(Action::PlayOn));
    assert!(
        coach.play_on().game().is_some(),
        "the built-in engine plays"
    );
    let notice = coach.play_on().notice().unwrap().to_owned();
    assert!(notice.contains("/nonexistent/dragon"), "{notice}");
    assert!(
        notice.ends_with("the built-in engine plays instead."),
        "{notice}"
    );

    coach.apply(Command::PlayOn(PlayOnCommand::Settings(quick_engine())));
    assert_eq!(coach.play_on().notice(), None);
    assert_eq!(coach.settings().play_on, quick_engine());
    let mv = coach
        .play_on()
        .game()
        .unwrap()
        .game()
        .position()
        .legal_moves()[0];
    coach.apply(Command::PlayOn(PlayOnCommand::Play(mv)));
    wait_for_plies(&mut coach, 2);
}

#[test]
fn a_command_that_starts_another_drill_ends_the_game() {
    let mut coach = coach_with(quick_engine());
    coach.apply(Command::Action(Action::PlayOn));
    assert!(coach.play_on().game().is_some());
    coach.apply(Command::SetLearner(Color::Black));
    assert!(coach.play_on().game().is_none());
    assert_eq!(coach.play_on().notice(), None);
    assert_eq!(coach.session().learner(), Color::Black);
}
