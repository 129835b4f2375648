//! Playing on after the book, through the window's real widgets (egui_kittest): a line
//! ends, "Play on" lets the built-in engine reply, the eval bar shows a value, the
//! best-move arrow can be turned on, the game exports as PGN with the book marked, and
//! "Back to the book" returns to the drill at the last book position.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::{self, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use hastings::coach::play_on::PlayOnSettings;
use hastings::coach::settings::{Settings, Side};
use hastings::trainer::Phase;
use hastings::trainer::play_on::Turn;
use hastings::ui::TrainerApp;
use shakmaty::{Position, Square};

use crate::common;
use common::wait_until;

fn harness(learner: Side) -> Harness<'static, TrainerApp> {
    let settings = Settings {
        learner,
        seed: "11".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        // A quick engine: the built-in α-β at full strength, 50 ms a move.
        play_on: PlayOnSettings {
            engine: hastings::coach::play_on::EngineKind::AlphaBeta,
            skill: 20,
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

/// Opens "Engine settings" in the play-on panel. The engine's analysis may move the
/// panel's lines between a frame and the click (its evaluation line appears), so a
/// click that missed the header is made again.
fn open_engine_settings(harness: &mut Harness<'_, TrainerApp>) {
    for _ in 0..20 {
        if harness
            .query_by_role_and_label(egui::accesskit::Role::ComboBox, "Engine")
            .is_some()
        {
            return;
        }
        harness.get_by_label("Engine settings").click();
        harness.run_ok();
    }
    panic!("the engine settings did not open");
}

/// Plays the line to its end with "Show me" (the most popular book move).
fn drill_to_the_end(harness: &mut Harness<'_, TrainerApp>) {
    for _ in 0..80 {
        match harness.state().coach().session().phase() {
            Phase::EndOfLine { .. } => return,
            Phase::LearnerToMove => harness.get_by_label("Show me").click(),
            _ => {}
        }
        harness.run_ok();
    }
    panic!(
        "the line did not end: {:?}",
        harness.state().coach().session().phase()
    );
}

fn square_center(harness: &Harness<'_, TrainerApp>, sq: Square) -> Pos2 {
    harness
        .get_by(|node| {
            node.label()
                .is_some_and(|l| l == sq.to_string() || l.starts_with(&format!("{sq} ")))
        })
        .rect()
        .center()
}

fn click_square(harness: &mut Harness<'_, TrainerApp>, sq: Square) {
    let center = square_center(harness, sq);
    harness.hover_at(center);
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: center,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    harness.step();
}

/// The eval bar's accessible label, if it shows a value.
fn eval_label(harness: &Harness<'_, TrainerApp>) -> Option<String> {
    harness
        .query_by(|n| n.label().is_some_and(|l| l.starts_with("Evaluation ")))
        .and_then(|n| n.accesskit_node().label())
        .filter(|l| l != "Evaluation pending")
}

#[test]
fn at_the_end_of_a_line_play_on_lets_the_engine_reply_and_back_to_the_book_returns() {
    let mut harness = harness(Side::White);
    harness.run_ok();
    drill_to_the_end(&mut harness);
    let book_position = harness.state().coach().session().display_position();
    let book_plies = harness.state().coach().session().moves().len();
    let opening = harness.state().coach().session().opening_title().unwrap();

    let a1 = square_center(&harness, Square::A1);
    harness.get_by_label("Play on").click();
    harness.run_ok();
    // The board stays where it was (to the pixel's rounding); the eval bar comes in
    // beside it.
    let moved = square_center(&harness, Square::A1) - a1;
    assert!(moved.length() <= 1.5, "the board moved by {moved:?}");
    let game = harness
        .state()
        .coach()
        .play_on()
        .game()
        .expect("playing on")
        .game();
    assert_eq!(game.book_plies(), book_plies);
    assert_eq!(game.position(), &book_position);

    // If it is the learner's turn at the end of the line, they play a move on the
    // board: the first legal move that is not a promotion.
    if game.turn() == Turn::Learner {
        let mv = book_position
            .legal_moves()
            .into_iter()
            .find(|m| m.promotion().is_none() && !m.is_castle())
            .unwrap();
        click_square(&mut harness, mv.from().unwrap());
        click_square(&mut harness, mv.to());
        let played = harness
            .state()
            .coach()
            .play_on()
            .game()
            .unwrap()
            .game()
            .played();
        assert_eq!(
            played.first().map(|m| m.mv),
            Some(mv),
            "the board's move was played"
        );
    }
    wait_until(&mut harness, "the engine's reply", |app| {
        app.coach()
            .play_on()
            .game()
            .is_some_and(|p| p.game().played().iter().any(|m| !m.by_learner))
    });
    let game = harness.state().coach().play_on().game().unwrap().game();
    let reply = game.played().iter().find(|m| !m.by_learner).unwrap();
    assert!(!reply.san.is_empty());
    // The opponent is named for people, not by its UCI name ("hastings alphabeta").
    harness.get_by_label("Your opponent: Built-in engine");

    // The learner's turn: the analysis fills the eval bar.
    wait_until(&mut harness, "an evaluation", |app| {
        app.coach()
            .play_on()
            .game()
            .is_some_and(|p| p.eval_text().is_some())
    });
    let label = eval_label(&harness).expect("the eval bar shows a value");
    assert!(label.ends_with(" for you"), "{label}");
    let text = harness
        .state()
        .coach()
        .play_on()
        .game()
        .unwrap()
        .eval_text()
        .unwrap();
    assert_eq!(label, format!("Evaluation {text} for you"));

    // The best-move arrow is a toggle (saved in the settings).
    assert!(!harness.state().coach().settings().play_on.best_move_arrow);
    harness.get_by_label("Best move arrow").click();
    harness.run_ok();
    assert!(harness.state().coach().settings().play_on.best_move_arrow);

    // The PGN marks where the book ends.
    let pgn = harness.state().coach().play_on().pgn("").unwrap();
    assert!(pgn.contains(&format!("{{Book ends: {opening}}}")), "{pgn}");
    assert!(
        pgn.contains(&format!("[BookPlies \"{book_plies}\"]")),
        "{pgn}"
    );

    // Copying the game leaves "Back to the book" where it was.
    let back = harness.get_by_label("Back to the book").rect();
    harness.get_by_label("Copy PGN").click();
    harness.run_ok();
    assert_eq!(harness.get_by_label("Back to the book").rect(), back);
    // The game has moves: ending it asks first, and "Keep playing" keeps it.
    harness.get_by_label("Back to the book").click();
    harness.run_ok();
    assert!(
        harness.state().coach().play_on().game().is_some(),
        "one click keeps the game"
    );
    harness.get_by_label("End this game? Its moves are lost unless you copy or save them.");
    harness.get_by_label("Keep playing").click();
    harness.run_ok();
    assert!(harness.state().coach().play_on().game().is_some());
    harness.get_by_label("Back to the book").click();
    harness.run_ok();
    harness.get_by_label("End the game").click();
    harness.run_ok();
    assert!(harness.state().coach().play_on().game().is_none());
    assert_eq!(
        harness.state().coach().session().display_position(),
        book_position
    );
    assert!(matches!(
        harness.state().coach().session().phase(),
        Phase::EndOfLine { .. }
    ));
    harness.get_by_label("Next line");
    assert!(eval_label(&harness).is_none(), "the eval bar is gone");
}

#[test]
fn play_on_from_here_mid_line_and_a_missing_engine_is_a_message_not_a_crash() {
    let mut harness = harness(Side::Black);
    harness.state_mut().coach_mut().settings_mut().play_on = PlayOnSettings {
        engine: hastings::coach::play_on::EngineKind::Path,
        path: "/nonexistent/engine".to_owned(),
        movetime_ms: 50,
        ..PlayOnSettings::default()
    };
    harness.run_ok();
    wait_until(&mut harness, "the computer's first move", |app| {
        *app.coach().session().phase() == Phase::LearnerToMove
    });
    harness.get_by_label("Play on from here").click();
    harness.run_ok();
    let notice = harness
        .state()
        .coach()
        .play_on()
        .notice()
        .unwrap()
        .to_owned();
    assert!(notice.contains("/nonexistent/engine"), "{notice}");
    assert!(notice.contains("built-in engine plays instead"), "{notice}");
    harness.get_by_label(&notice);
    // Black to move after White's first move: the learner moves; e7-e5 is legal.
    click_square(&mut harness, Square::E7);
    click_square(&mut harness, Square::E5);
    wait_until(&mut harness, "the built-in engine's reply", |app| {
        app.coach()
            .play_on()
            .game()
            .is_some_and(|p| p.game().played().len() == 2)
    });
    assert_eq!(
        harness
            .state()
            .coach()
            .play_on()
            .game()
            .unwrap()
            .game()
            .turn(),
        Turn::Learner
    );
    // Take back (the top bar's button) returns to the book position.
    harness.get_by_label("Take back").click();
    harness.run_ok();
    assert!(
        harness
            .state()
            .coach()
            .play_on()
            .game()
            .unwrap()
            .game()
            .played()
            .is_empty()
    );
}

/// Opens play-on's "Advanced" fold (the right panel's: the Style tab may have one too).
fn open_play_on_advanced(harness: &mut Harness<'_, TrainerApp>) {
    for _ in 0..20 {
        if harness
            .query_by_role_and_label(egui::accesskit::Role::ComboBox, "All engines")
            .is_some()
        {
            return;
        }
        let rightmost = harness
            .get_all_by_label("Advanced")
            .max_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
            .unwrap();
        rightmost.click();
        harness.run_ok();
    }
    panic!("play-on's Advanced did not open");
}

/// Plays on from the first position, chooses `menu` in the engine settings' menu
/// `combo` ("All engines" is under Advanced), which shows a slider `setting`, plays
/// e7-e5 and checks the engine's reply is legal.
fn choosing_an_engine_gets_a_legal_reply(
    combo: &str,
    menu: &str,
    kind: hastings::coach::play_on::EngineKind,
    setting: &str,
    name: &str,
) {
    let mut harness = harness(Side::Black);
    harness.run_ok();
    wait_until(&mut harness, "the computer's first move", |app| {
        *app.coach().session().phase() == Phase::LearnerToMove
    });
    harness.get_by_label("Play on from here").click();
    harness.run_ok();
    // The harness starts with the built-in α-β engine; choose another in the menu.
    open_engine_settings(&mut harness);
    if combo == "All engines" {
        open_play_on_advanced(&mut harness);
    }
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, combo)
        .click();
    harness.run_ok();
    harness.get_by_label(menu).click();
    harness.run_ok();
    assert_eq!(harness.state().coach().settings().play_on.engine, kind);
    assert!(
        !harness
            .get_all_by_label(setting)
            .collect::<Vec<_>>()
            .is_empty(),
        "no {setting} setting"
    );
    // Black to move after White's first move: the learner plays e7-e5.
    let before = harness
        .state()
        .coach()
        .play_on()
        .game()
        .unwrap()
        .game()
        .position()
        .clone();
    click_square(&mut harness, Square::E7);
    click_square(&mut harness, Square::E5);
    wait_until(&mut harness, "the engine's reply", |app| {
        app.coach()
            .play_on()
            .game()
            .is_some_and(|p| p.game().played().len() == 2)
    });
    let game = harness.state().coach().play_on().game().unwrap().game();
    let mut pos = before;
    for m in game.played() {
        assert!(pos.is_legal(m.mv), "{} is legal", m.san);
        pos.play_unchecked(m.mv);
    }
    assert!(!game.played()[1].by_learner);
    assert_eq!(game.turn(), Turn::Learner);
    // The chosen engine replied: it did not fall back to the built-in α-β engine.
    let choice = &harness
        .state()
        .coach()
        .play_on()
        .game()
        .unwrap()
        .opponent()
        .choice;
    assert!(
        !matches!(choice, hastings::engine::EngineChoice::Builtin(_)),
        "{choice:?}"
    );
    assert_eq!(
        harness
            .state()
            .coach()
            .play_on()
            .game()
            .unwrap()
            .engine_name(),
        name
    );
}

#[test]
fn choosing_human_like_in_the_engine_settings_gets_a_legal_human_reply() {
    choosing_an_engine_gets_a_legal_reply(
        "Engine",
        "Human-like (trained on master games)",
        hastings::coach::play_on::EngineKind::Human,
        "How surprising",
        "Human-like engine",
    );
}

#[test]
fn choosing_the_lambda_blend_in_the_engine_settings_gets_a_legal_reply() {
    choosing_an_engine_gets_a_legal_reply(
        "All engines",
        "Tuned engine + human-like",
        hastings::coach::play_on::EngineKind::Blend,
        "How human-like",
        "Tuned engine + human-like",
    );
}

/// Issue 41, item 14: the engine is chosen in a club player's words; the search
/// algorithms and λ are under an "Advanced" fold, folded at first, that stays open for
/// the next game once opened.
#[test]
fn the_search_algorithms_and_lambda_are_under_an_advanced_fold_that_stays_open() {
    let mut harness = harness(Side::White);
    harness.run_ok();
    drill_to_the_end(&mut harness);
    harness.get_by_label("Play on").click();
    harness.run_ok();
    open_engine_settings(&mut harness);
    // The ordinary menu: three engines in words, the strength said.
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "Engine")
        .click();
    harness.run_ok();
    for entry in [
        "Human-like (trained on master games)",
        "Stockfish at full strength",
    ] {
        harness.get_by_label(entry);
    }
    for advanced in ["Tuned engine + human-like", "Built-in engine (tree search)"] {
        assert!(
            harness.query_by_label(advanced).is_none(),
            "{advanced} in the ordinary menu"
        );
    }
    harness.key_press(egui::Key::Escape);
    harness.run_ok();
    assert!(
        harness.query_by_label("All engines").is_none(),
        "folded at first"
    );
    open_play_on_advanced(&mut harness);
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "All engines")
        .click();
    harness.run_ok();
    harness.get_by_label("Tuned engine + human-like").click();
    harness.run_ok();
    assert!(harness.get_all_by_label("How human-like").next().is_some());
    // The ordinary menu says where the engine was chosen.
    harness.get_by_label("Tuned engine + human-like: chosen under Advanced.");
    // The next game: Advanced is still open.
    harness.get_by_label("Back to the book").click();
    harness.run_ok();
    assert!(harness.state().coach().play_on().game().is_none());
    harness.get_by_label("Play on").click();
    harness.run_ok();
    open_engine_settings(&mut harness);
    assert!(harness.get_all_by_label("How human-like").next().is_some());
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "All engines");
}

#[test]
fn save_pgn_without_a_file_dialog_asks_for_a_path_and_writes_the_game() {
    let mut harness = harness(Side::White);
    harness.state_mut().use_path_field_only();
    harness.run_ok();
    drill_to_the_end(&mut harness);
    harness.get_by_label("Play on").click();
    harness.run_ok();
    harness.get_by_label("Save PGN…").click();
    harness.run_ok();
    // The same path field as Open, Export and the profiles, with a file proposed by
    // its whole path (issue 41, item 8): in the documents folder's Hastings, never
    // relative to the process's folder.
    let path = common::temp_dir("play-on-save-path").join("my-game.pgn");
    let field = harness.get_by_label("Path");
    let proposed = field.accesskit_node().value().unwrap();
    let expected = hastings::workspace::save_dir::save_dir()
        .unwrap()
        .join("play-on.pgn");
    assert_eq!(proposed, expected.display().to_string());
    assert!(std::path::Path::new(&proposed).is_absolute(), "{proposed}");
    // The field has the keyboard focus: typing replaces the name.
    for _ in 0..proposed.chars().count() {
        harness.key_press(egui::Key::Backspace);
    }
    harness
        .get_by_label("Path")
        .type_text(&path.display().to_string());
    harness.run_ok();
    harness.get_by_label("Save").click();
    harness.run_ok();
    let written = std::fs::read_to_string(&path).expect("the game was saved");
    assert!(written.contains("[BookPlies"), "{written}");
    // Where it went, said with the whole path; and first in the recent files.
    harness.get_by_label_contains(&format!("The game was saved to {}.", path.display()));
    assert_eq!(
        harness.state().coach().settings().recent_files.first(),
        Some(&path)
    );
    assert!(
        harness.query_by_label("Path").is_none(),
        "the field is closed"
    );
}
