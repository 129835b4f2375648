//! "Start here": what a new user sees first — which side they play, the built-in
//! openings or their repertoire — driven through the real widgets (egui_kittest).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use hastings::coach::settings::Settings;
use hastings::ui::TrainerApp;
use shakmaty::Color;

use crate::common;

fn harness(app: TrainerApp) -> Harness<'static, TrainerApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

fn fresh() -> TrainerApp {
    let settings = Settings {
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    };
    let mut app = TrainerApp::new(common::eco(), settings);
    app.show_welcome();
    app
}

#[test]
fn a_new_user_without_saved_settings_is_asked_first() {
    let app = TrainerApp::restore(common::eco(), None, None, None);
    assert!(app.is_welcoming());
}

#[test]
fn choosing_black_and_the_built_in_openings_starts_the_drill_as_black() {
    let mut h = harness(fresh());
    h.run();
    h.get_by_label("Welcome to Hastings");
    // Single keys belong to the window while it is open: F does not flip the board.
    let orientation = h.state().coach().orientation();
    h.key_press(eframe::egui::Key::F);
    h.run();
    assert_eq!(h.state().coach().orientation(), orientation);

    h.get_all_by_label("Black").last().unwrap().click();
    h.run();
    h.get_by_label("Start drilling").click();
    h.run();
    assert!(!h.state().is_welcoming());
    assert!(h.query_by_label("Welcome to Hastings").is_none());
    assert_eq!(h.state().coach().session().learner(), Color::Black);
    // The computer, White, has made its first move.
    assert_eq!(h.state().coach().session().moves().len(), 1);
}

#[test]
fn choosing_my_repertoire_opens_it_to_be_read_as_a_repertoire() {
    let mut app = fresh();
    app.use_path_field_only();
    let mut h = harness(app);
    h.run();
    h.get_by_label("My repertoire (a PGN file or a lichess study)")
        .click();
    h.run();
    h.get_by_label_contains("Your repertoire is drilled as White");
    h.get_by_label("Choose my repertoire…").click();
    h.run();
    assert!(!h.state().is_welcoming());
    // The same path field and "read as" dialog as File → Open.
    let path = common::fixture("repertoire.pgn");
    h.get_by_label("Path")
        .type_text(&path.display().to_string());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    common::import_as(&mut h, "My repertoire");
    assert_eq!(h.state().coach().workspace().files().len(), 1);
    assert_eq!(h.state().coach().workspace().files()[0].path, path);
}

#[test]
fn escape_skips_it() {
    let mut h = harness(fresh());
    h.run();
    h.key_press(eframe::egui::Key::Escape);
    h.run();
    assert!(!h.state().is_welcoming());
}

#[test]
fn skip_closes_it_and_changes_nothing() {
    let mut h = harness(fresh());
    h.run();
    h.get_by_label("Skip").click();
    h.run();
    assert!(!h.state().is_welcoming());
    assert_eq!(h.state().coach().session().learner(), Color::White);
}

/// Issue 41, item 13: with "My repertoire" and Black, no built-in line starts before the
/// file is chosen (the computer, White, would have played its first ECO move); the
/// "read as" dialog comes with "My repertoire" chosen, Enter presses Import, and the
/// side is taken then.
#[test]
fn choosing_my_repertoire_as_black_starts_no_line_before_the_file_and_enter_imports_it() {
    let mut app = fresh();
    app.use_path_field_only();
    let mut h = harness(app);
    h.run();
    h.get_all_by_label("Black").last().unwrap().click();
    h.run();
    h.get_by_label("My repertoire (a PGN file or a lichess study)")
        .click();
    h.run();
    h.get_by_label("Choose my repertoire…").click();
    h.run();
    assert!(!h.state().is_welcoming());
    assert!(
        h.state().coach().session().moves().is_empty(),
        "no line before the file: {:?}",
        h.state().coach().session().moves()
    );
    // A collection of games with results: "Decide from the file" would read it as games.
    let path = common::fixture("compare_games.pgn");
    h.get_by_label("Path")
        .type_text(&path.display().to_string());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    let chosen = h.get_by_label("My repertoire").accesskit_node().toggled();
    assert_eq!(
        chosen,
        Some(eframe::egui::accesskit::Toggled::True),
        "\"My repertoire\" is chosen, not asked again"
    );
    // Enter presses Import.
    h.key_press(eframe::egui::Key::Enter);
    h.step();
    h.state_mut().coach_mut().finish_loading();
    h.run();
    assert!(h.query_by_label("Import").is_none(), "the dialog closed");
    assert_eq!(h.state().coach().workspace().files().len(), 1);
    assert_eq!(
        h.state().coach().workspace().files()[0].mode,
        hastings::book::ImportMode::Repertoire
    );
    assert_eq!(h.state().coach().session().learner(), Color::Black);
}
