//! Help → About Hastings and the first start's Stockfish line, driven through the real
//! widgets (egui_kittest).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::settings::Settings;
use hastings::ui::TrainerApp;

use crate::common;

fn harness(app: TrainerApp) -> Harness<'static, TrainerApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

fn app() -> TrainerApp {
    let settings = Settings {
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    };
    TrainerApp::new(common::eco(), settings)
}

#[test]
fn help_about_shows_the_version_licence_and_data_folder() {
    let mut h = harness(app());
    h.run();
    assert!(h.query_by_label_contains("Built from commit").is_none());
    h.get_by_label("Help").click();
    h.run();
    h.get_by_label("About Hastings").click();
    h.run();
    h.get_by_label(&format!("Hastings {}", env!("CARGO_PKG_VERSION")));
    h.get_by_label_contains("Built from commit");
    h.get_by_label_contains("GNU General Public License, version 3 or later");
    h.get_by_label_contains("lichess-org/chess-openings");
    match hastings::workspace::data_dir::data_dir() {
        Some(dir) => {
            h.get_by_label(&dir.display().to_string());
            h.get_by_label("Open the data folder");
        }
        None => {
            h.get_by_label_contains("no home folder");
        }
    }
}

#[test]
fn the_help_menu_offers_the_user_guide() {
    let mut h = harness(app());
    h.run();
    h.get_by_label("Help").click();
    h.run();
    // Enabled only where the guide is installed; offered either way.
    h.get_by_label("User guide");
}

#[test]
fn a_first_start_says_how_to_get_stockfish_only_when_it_is_missing() {
    let mut app = app();
    app.show_welcome();
    let mut h = harness(app);
    h.run();
    h.get_by_label("Welcome to Hastings");
    let line = h.query_by_label_contains("Stockfish is not installed");
    if hastings::engine::discover::stockfish().is_some() {
        assert!(line.is_none(), "Stockfish is installed: no line about it");
    } else {
        assert!(
            line.is_some(),
            "without Stockfish the window says how to get it"
        );
        h.get_by_label_contains("built-in engine");
    }
}
