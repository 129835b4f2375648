//! Issue 41, item 3: the engine check's report in the Coverage tab reads right at
//! 1280×800 and 800×600: each losing move numbered as players write moves, the scores and
//! how often in words at the size of the tab's other text, the value and the lines to
//! learn in words with the exact terms in their hover texts; every line inside the side
//! panel.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::Command;
use hastings::coach::coverage::CoverageParams;
use hastings::coach::settings::{Settings, Side};
use hastings::ui::TrainerApp;

use crate::common;
use common::{AppHarness, eco, fixture};
use hastings::coach::coverage::CoverageCommand;

const SIZES: [(f32, f32); 2] = [(1280.0, 800.0), (800.0, 600.0)];

/// A window at `size` with the planted repertoire for Black checked (a shallow tree, as
/// check_ui's).
fn checked_window(size: (f32, f32)) -> AppHarness {
    let settings = Settings {
        learner: Side::Black,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..common::settings()
    };
    let mut harness: AppHarness = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut TrainerApp| app.frame_ui(ui),
            TrainerApp::new(eco(), settings),
        );
    harness.run();
    common::load_repertoire_in_window(&mut harness, fixture("check_planted.pgn"));
    harness.get_by_label("Coverage").click();
    common::settle(&mut harness);
    let params = CoverageParams {
        depth: 6,
        ..harness.state().coach().coverage_params().clone()
    };
    harness
        .state_mut()
        .coach_mut()
        .apply(Command::Coverage(CoverageCommand::SetParams(params)));
    harness.run();
    harness.get_by_label("Check with an engine").scroll_to_me();
    harness.run();
    harness.get_by_label("Check with an engine").click();
    harness.run();
    harness.state_mut().coach_mut().check_state_mut().finish();
    common::settle(&mut harness);
    harness
}

/// The label whose text starts with `start`, scrolled into view: its rectangle.
fn shown(harness: &mut AppHarness, start: &str) -> eframe::egui::Rect {
    let find = |h: &AppHarness| {
        h.query_all_by(|n| n.value().is_some_and(|v| v.starts_with(start)))
            .next()
            .unwrap_or_else(|| panic!("no label starting {start:?}"))
            .rect()
    };
    harness
        .query_all_by(|n| n.value().is_some_and(|v| v.starts_with(start)))
        .for_each(|n| n.scroll_to_me());
    // Scrolling glides over a few frames.
    for _ in 0..4 {
        harness.run();
    }
    find(harness)
}

#[test]
fn the_check_report_is_numbered_in_words_readable_and_inside_the_panel_at_both_sizes() {
    // One check, at the first size; the window is then made smaller, as a user would,
    // and read again (the check's engine work is done once).
    let mut harness = checked_window(SIZES[0]);
    for (i, size) in SIZES.into_iter().enumerate() {
        if i > 0 {
            harness.set_size(vec2(size.0, size.1));
            common::settle(&mut harness);
        }
        let view = match harness.state().coach().check_state().result() {
            Some(Ok(view)) => view.clone(),
            other => panic!("no check: {other:?}"),
        };
        let mate = view
            .blunders
            .iter()
            .find(|f| f.text.ends_with("Nf6?"))
            .unwrap();
        assert_eq!(mate.text, "1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?");
        // As the side panel is sized by the window (8 points in, its content as wide as
        // the panel).
        let right = 8.0 + ((size.0 - 16.0) * 0.2).clamp(180.0, 300.0) + 0.5;
        let heading = shown(&mut harness, "Is it sound?");

        let line_height = heading.height();
        let lines = [
            "1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?",
            "Better ",
            "Met in 1 drill in ",
            "Where your lines end: ",
            "Your moves that lose a pawn or more (2)",
            "Learn next, where it pays most",
            "1.e4: 1...e5",
        ];
        for start in lines {
            let r = shown(&mut harness, start);
            assert!(
                r.min.x >= 7.5 && r.max.x <= right,
                "{start:?} at {r:?} is not inside the side panel (8 to {right}) at {size:?}"
            );
            assert!(
                r.height() >= line_height - 0.5,
                "{start:?} at {r:?} is smaller than the tab's text ({line_height}) at {size:?}"
            );
        }
        // The details: a mate said in words, the punishment numbered.
        let better = harness
            .query_all_by(|n| n.value().is_some_and(|v| v.starts_with("Better ")))
            .map(|n| n.value().unwrap())
            .find(|v| v.contains("mated in 1"))
            .expect("the mate's details");
        assert!(
            better.ends_with("after yours: mated in 1. Then 4.Qxf7#"),
            "{better}"
        );
        // A line to learn: how often, whether reviewed, what is at stake, in words.
        assert!(
            harness
                .query_all_by(
                    |n| n.value().is_some_and(|v| v.starts_with("in 1 drill in ")
                        && v.ends_with(", not reviewed yet, a pawn at stake"))
                )
                .next()
                .is_some(),
            "no line to learn in words at {size:?}"
        );
        for jargon in ["recall 0", "worth 1.0", "1 in 1 games", "#-1"] {
            assert!(
                harness
                    .query_all_by(|n| n.value().is_some_and(|v| v.contains(jargon)))
                    .next()
                    .is_none(),
                "{jargon:?} still shown at {size:?}"
            );
        }
    }
}
