//! "Mistakes only" when the positions the learner missed are not in the book drilled
//! now (issue 41, item 10): the drill panel says how many and which, inside the window
//! at 1280×800 and 800×600, and its buttons go over them: as the other colour, or with
//! the ECO book beside the repertoire.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::path::PathBuf;

use eframe::egui::{self, Rect, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::format::numbered_line;
use hastings::coach::settings::{DrillMode, Settings, Side};
use hastings::trainer::progress::Progress;
use hastings::trainer::review_drill::ReviewStep;
use hastings::ui::TrainerApp;
use hastings::workspace::store::save_progress;
use shakmaty::Color;

use crate::common;
use common::{AppHarness, eco, fixture, position_after, temp_dir};

/// A data folder whose progress records mistakes after 1.e4 (twice: Black to move, in
/// the White repertoire as the other side's position) and after 1.d4 d5 (White to move,
/// in ECO, not in the repertoire); the window on it at `size` drills the White
/// repertoire `compare_white.pgn` in "Mistakes only".
fn mistakes_only(name: &str, size: (f32, f32)) -> (PathBuf, AppHarness) {
    let dir = temp_dir(name);
    let mut progress = Progress::new();
    progress.record_attempt(&position_after("e4"), true);
    progress.record_attempt(&position_after("e4"), true);
    progress.record_attempt(&position_after("d4 d5"), true);
    let file = dir.join("progress.ron");
    save_progress(&file, &progress).unwrap();
    let settings = Settings {
        learner: Side::White,
        seed: "4".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        ..common::settings()
    };
    let mut app = TrainerApp::with_progress_file(eco(), settings, Some(file));
    app.use_path_field_only();
    app.coach_mut().review_mut().set_fuzz(false);
    let mut harness = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    harness.run();
    common::load_repertoire_in_window(&mut harness, fixture("compare_white.pgn"));
    harness.get_by_label("Mistakes only").click();
    harness.run();
    assert_eq!(
        harness.state().coach().review().drill_mode(),
        DrillMode::Mistakes
    );
    (dir, harness)
}

/// The words of the panel, each inside the window.
fn says_where_they_are(harness: &AppHarness, size: (f32, f32)) {
    let window = Rect::from_min_size(egui::Pos2::ZERO, vec2(size.0, size.1));
    let e4 = format!("{} (2 mistakes)", numbered_line(&["e4"]));
    let d5 = format!("{} (1 mistake)", numbered_line(&["d4", "d5"]));
    for label in [
        "No mistakes to go over in the book you drill now.",
        "2 missed positions are not in the book you drill now:",
        e4.as_str(),
        d5.as_str(),
        "Go over it as Black",
        "Go over it with the ECO book",
    ] {
        let r = harness.get_by_label(label).rect();
        assert!(
            window.contains_rect(r),
            "{label} at {r:?} leaves the {size:?} window"
        );
    }
}

fn queue(harness: &AppHarness) -> usize {
    harness
        .state()
        .coach()
        .review()
        .drill()
        .unwrap()
        .queue()
        .len()
}

#[test]
fn mistakes_only_says_which_missed_positions_are_elsewhere_and_goes_over_them_with_eco() {
    let (dir, mut harness) = mistakes_only("mistakes-elsewhere-eco", (1280.0, 800.0));
    assert_eq!(queue(&harness), 0, "no card of the repertoire was missed");
    says_where_they_are(&harness, (1280.0, 800.0));

    harness.get_by_label("Go over it with the ECO book").click();
    harness.run();
    let coach = harness.state().coach();
    assert_eq!(coach.review().drill_mode(), DrillMode::Mistakes);
    assert!(coach.coverage().is_drilling_theory());
    assert_eq!(queue(&harness), 1, "1.d4 d5 is asked in ECO");
    assert!(!matches!(coach.review().step(), Some(ReviewStep::Done)));
    harness.get_by_label_contains("Going over your mistakes with the ECO book");
    // The drill panel no longer says it drills only the repertoire.
    let alone = hastings::coach::book::REPERTOIRE_ALONE;
    assert!(harness.query_by_label(alone).is_none());

    // Back to the repertoire: Mistakes only on its cards again.
    harness.get_by_label("Coverage").click();
    // (the exposure is computed on a thread meanwhile)
    common::settle(&mut harness);
    harness.get_by_label("Back to my repertoire").click();
    harness.run();
    assert!(!harness.state().coach().coverage().is_drilling_theory());
    assert_eq!(queue(&harness), 0);
    harness.get_by_label("Go over it with the ECO book");
    harness.get_by_label(alone);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mistakes_only_fits_at_800_by_600_and_goes_over_the_other_sides_positions() {
    let size = (800.0, 600.0);
    let (dir, mut harness) = mistakes_only("mistakes-elsewhere-side", size);
    says_where_they_are(&harness, size);

    harness.get_by_label("Go over it as Black").click();
    harness.run();
    let coach = harness.state().coach();
    assert_eq!(coach.session().learner(), Color::Black);
    assert_eq!(coach.review().drill_mode(), DrillMode::Mistakes);
    assert_eq!(queue(&harness), 1, "the position after 1.e4 is asked");
    let _ = std::fs::remove_dir_all(&dir);
}
