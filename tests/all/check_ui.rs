//! "Is it sound?" in the Coverage tab, driven through the real widgets: a repertoire with
//! planted mistakes checked by the engine (Stockfish where installed, else the built-in
//! one), its findings listed with the refutation, and "Drill this" starting a drill there.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::Command;
use hastings::coach::coverage::CoverageParams;
use hastings::coach::settings::{Settings, Side};
use hastings::ui::TrainerApp;

use crate::common;
use common::{eco, fixture, position_after};
use hastings::coach::coverage::CoverageCommand;

/// Presses "Check with an engine" (below the coverage: scrolled to first, as a user
/// would) and waits for the check.
fn check(harness: &mut Harness<'static, TrainerApp>) {
    harness.get_by_label("Check with an engine").scroll_to_me();
    harness.run();
    harness.get_by_label("Check with an engine").click();
    harness.run();
    harness.state_mut().coach_mut().check_state_mut().finish();
    harness.run();
}

#[test]
fn a_check_lists_the_planted_mistakes_and_drills_one() {
    let settings = Settings {
        learner: Side::Black,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    };
    let mut harness: Harness<'static, TrainerApp> = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut TrainerApp| app.frame_ui(ui),
            TrainerApp::new(eco(), settings),
        );
    harness.run();
    common::open_in_window(
        &mut harness,
        vec![fixture("check_planted.pgn")],
        "My repertoire",
    );
    harness.get_by_label("Close").click();
    harness.run();
    harness.get_by_label("Book").click();
    harness.run();
    // Read as "My repertoire", the file is the book alone.
    harness.state_mut().coach_mut().finish_loading();
    harness.run();
    assert!(harness.state().coach().is_repertoire());
    harness.get_by_label("Coverage").click();
    harness.run();
    // A shallow tree keeps the test quick; the repertoire's own lines are checked whole.
    let params = CoverageParams {
        depth: 6,
        ..harness.state().coach().coverage_params().clone()
    };
    harness
        .state_mut()
        .coach_mut()
        .apply(Command::Coverage(CoverageCommand::SetParams(params)));
    harness.run();

    check(&mut harness);

    let view = match harness.state().coach().check_state().result() {
        Some(Ok(view)) => view.clone(),
        other => panic!("no check: {other:?}"),
    };
    assert!(view.analysed > 0);
    let texts: Vec<&str> = view.blunders.iter().map(|f| f.text.as_str()).collect();
    assert_eq!(
        {
            let mut t = texts.clone();
            t.sort_unstable();
            t
        },
        [
            "1.d4 d5 2.e3 e6 3.Bd3 Nf6 4.f4 Ng4?",
            "1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?"
        ]
    );
    let mate = view
        .blunders
        .iter()
        .find(|f| f.text.ends_with("Nf6?"))
        .unwrap();
    assert!(
        mate.refutation.starts_with("4.Qxf7#"),
        "{}",
        mate.refutation
    );
    assert_eq!(mate.scores.1, "mated in 1");
    assert_eq!(view.bad_ends.len(), 1, "{:?}", view.bad_ends);
    // Learn next: nothing reviewed yet, so every listed position has recall 0; the
    // positions of the two blunders are mended first, not learnt.
    assert!(!view.learn_next.is_empty());
    assert!(
        view.learn_next
            .iter()
            .all(|l| l.recall == 0.0 && l.stake >= 1.0)
    );
    assert!(
        view.learn_next
            .windows(2)
            .all(|w| w[0].reach * w[0].stake >= w[1].reach * w[1].stake - 1e-12)
    );
    for blunder in &view.blunders {
        assert!(
            view.learn_next
                .iter()
                .all(|l| l.position != blunder.position)
        );
    }
    harness.get_by_label_contains("Learn next");
    // The move checker has the check's analyses: a wrong move at a checked position is
    // judged without a search.
    {
        let store = harness.state().coach().verdict().store().lock().unwrap();
        assert!(
            store
                .get(&position_after("e4 e5 Qh5 Nc6 Bc4 Nf6"))
                .is_some()
        );
        assert!(store.len() >= view.analysed);
    }
    // The window shows them, with the refutation.
    harness.get_by_label_contains("1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?");
    harness.get_by_label_contains("after yours: mated in 1. Then 4.Qxf7#");

    // "Drill this" on the mate: the drill starts at the learner's position.
    let index = view
        .blunders
        .iter()
        .position(|f| f.text.ends_with("Nf6?"))
        .unwrap();
    let drill = harness.get_all_by_label("Drill this").nth(index).unwrap();
    drill.scroll_to_me();
    harness.run();
    harness
        .get_all_by_label("Drill this")
        .nth(index)
        .unwrap()
        .click();
    harness.run();
    assert_eq!(
        harness.state().coach().session().position(),
        &position_after("e4 e5 Qh5 Nc6 Bc4")
    );

    // A second check takes every analysis from the cache.
    check(&mut harness);
    match harness.state().coach().check_state().result() {
        Some(Ok(second)) => {
            assert_eq!(second.analysed, 0, "{second:?}");
            assert_eq!(second.blunders, view.blunders);
        }
        other => panic!("no second check: {other:?}"),
    }
}
