//! Profiles in the window (egui_kittest): loading a fitted profile changes the chart.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use hastings::coach::settings::{Settings, Side};
use hastings::sampler::Distribution;
use hastings::sampler::Style;
use hastings::sampler::profile::{FitProvenance, Popularity, Provenance, StyleProfile};
use hastings::ui::TrainerApp;
use hastings::workspace::profiles::save_profile;
use shakmaty::Chess;

use crate::common;

fn harness() -> Harness<'static, TrainerApp> {
    let settings = Settings {
        learner: Side::Black,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    };
    let app = TrainerApp::new(common::eco(), settings);
    Harness::builder()
        // Tall enough that the profile controls under the style panel are on screen.
        .with_size(vec2(1280.0, 1400.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

/// The exact P of `san` in the chart's accessible description.
fn chart_p(harness: &Harness<'_, TrainerApp>, san: &str) -> f64 {
    let chart = harness.get_by(|n| n.label().is_some_and(|l| l.starts_with("Next move for")));
    let label = chart.accesskit_node().label().unwrap_or_default();
    let needle = format!("{san} P ");
    let bar = label
        .split_once(": ")
        .map_or("", |(_, b)| b)
        .split(", ")
        .find(|b| b.starts_with(&needle))
        .unwrap_or_else(|| panic!("no bar for {san} in {label:?}"));
    bar[needle.len()..]
        .split('%')
        .next()
        .unwrap()
        .parse::<f64>()
        .unwrap()
        / 100.0
}

fn fitted_profile() -> StyleProfile {
    StyleProfile {
        name: "Play like Test Player".to_owned(),
        description: "Fitted to sampled games.".to_owned(),
        style: Style::from_vectors([1, 0, 1, 0, 0], [0.3, 0.0, 0.6, 0.0, 0.0], 0.5).unwrap(),
        popularity: Popularity::Lines,
        provenance: Provenance::Fitted(FitProvenance {
            games: "/nonexistent/games.pgn".to_owned(),
            player: "Test Player".to_owned(),
            theory: "eco".to_owned(),
            max_plies: 20,
            moves_scored: 100,
            moves_out_of_book: 3,
            log_likelihood: -100.0,
            log_likelihood_neutral: -120.0,
            top1: 0.5,
            top1_neutral: 0.4,
            seed: 1,
            population: 50,
            generations: 40,
        }),
    }
}

#[test]
fn loading_a_fitted_profile_changes_the_charts_p_to_that_style() {
    let dir = std::env::temp_dir().join(format!("hastings-profile-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fitted.ron");
    let profile = fitted_profile();
    save_profile(&path, &profile).unwrap();

    let mut harness = harness();
    harness.run();
    // Look at the start position, where White (the computer) chose the first move.
    harness.get_by_label("Start").click();
    harness.run();
    let before = chart_p(&harness, "c4");
    assert!((before - 0.0531).abs() < 1e-4, "neutral P(c4) = {before}");

    // Load it through the path field (what the window shows without a file dialog).
    harness.state_mut().ask_for_profile_path(false);
    harness.run();
    harness.get_by_label("Path").click();
    harness.run();
    harness
        .get_by_label("Path")
        .type_text(path.to_str().unwrap());
    harness.run();
    harness.get_by_label("Load").click();
    harness.run();

    assert_eq!(harness.state().coach().settings().style, profile.style);
    assert_eq!(harness.state().coach().style().profile(), Some(&profile));
    let graph = common::eco();
    let start = graph.start().unwrap();
    let exact = Distribution::at(&graph, start, &Chess::default(), &profile.style, 1.0);
    let c4 = exact
        .candidates
        .iter()
        .find(|c| graph.san(start, c.mv).to_string() == "c4")
        .unwrap();
    let after = chart_p(&harness, "c4");
    assert!(
        (after - c4.p).abs() < 1e-4,
        "chart {after} vs exact {}",
        c4.p
    );
    // Gambits on also lifts the many small first moves with gambit lines (1.b4, 1.f4, 1.g4…).
    assert!(after > 3.0 * before, "{after}");
    harness.get_by_label_contains("Profile: Play like Test Player");
    // The games file is gone: "Play like" offers to add it, and says it is missing.
    harness
        .get_by_label("Add Test Player's games to the book")
        .click();
    harness.run();
    // (The drill panel shows messages only at the current position; read it directly.)
    let message = harness.state().coach().message().unwrap();
    assert!(message.contains("are not there any more"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_corrupt_profile_changes_nothing_in_the_window() {
    let dir = std::env::temp_dir().join(format!("hastings-profile-ui-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.ron");
    std::fs::write(&path, "(format: 1, name: \"x\", tau: 2.0)").unwrap();
    let mut harness = harness();
    harness.run();
    let before = harness.state().coach().settings().style.clone();
    let err = harness
        .state_mut()
        .coach_mut()
        .load_profile(&path, false)
        .unwrap_err();
    assert!(err.to_string().contains("bad.ron: line 1, column"), "{err}");
    assert_eq!(harness.state().coach().settings().style, before);
    assert!(harness.state().coach().style().profile().is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}
