//! The learner-style panel (egui_kittest): a posterior after a few drilled lines, and the
//! adaptive opponent setting the style it states.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::settings::{Settings, Side};
use hastings::trainer::Phase;
use hastings::trainer::learner_style::Adaptation;
use hastings::ui::TrainerApp;

use crate::common;

fn harness() -> Harness<'static, TrainerApp> {
    let settings = Settings {
        learner: Side::White,
        seed: "3".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        ..crate::common::settings()
    };
    let app = TrainerApp::new(common::eco(), settings);
    Harness::builder()
        .with_size(vec2(1280.0, 1400.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

/// Plays `lines` drill lines to their end with "Show me" (the most popular book move).
fn drill(harness: &mut Harness<'_, TrainerApp>, lines: usize) {
    for _ in 0..lines {
        for _ in 0..60 {
            match harness.state().coach().session().phase() {
                Phase::EndOfLine { .. } => break,
                Phase::LearnerToMove => harness.get_by_label("Show me").click(),
                _ => {}
            }
            harness.run();
        }
        assert!(matches!(
            harness.state().coach().session().phase(),
            Phase::EndOfLine { .. }
        ));
        harness.get_by_label("Next line").click();
        harness.run();
    }
}

#[test]
fn the_learner_style_panel_shows_a_posterior_after_a_few_drilled_lines() {
    let mut harness = harness();
    harness.run();
    harness.get_by_label("Progress").click();
    harness.run();
    harness.get_by_label_contains("Drill a few lines to the end");
    assert!(harness.state().coach().style().learner_style().is_none());

    drill(&mut harness, 3);
    let p = harness
        .state()
        .coach()
        .style()
        .learner_style()
        .expect("a posterior after three lines");
    assert!((p.0.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    harness.get_by_label(&p.to_string());
    harness.get_by_label_contains("from 3 drilled lines");
    let text = p.to_string();
    assert!(
        text.starts_with("attacking 0.")
            && text.contains(" · positional 0.")
            && text.contains(" · mixed 0."),
        "{text}"
    );
}

#[test]
fn the_adaptive_opponent_sets_the_style_it_states() {
    let mut harness = harness();
    harness.run();
    drill(&mut harness, 2);
    // The Style tab is open from the start.
    harness.get_by_label("Adapt to my style").click();
    harness.run();
    let app = harness.state().coach();
    let (_, class) = app.style().learner_style_class().unwrap();
    let adaptation = Adaptation::for_class(class, app.style().adaptation_coin());
    assert_eq!(app.settings().style, adaptation.style(1.0));
    assert_eq!(*app.session().style(), adaptation.style(1.0));
    harness.get_by_label_contains(adaptation.describe());
}
