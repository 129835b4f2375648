//! Issue 41, item 12: the Progress tab's "Line mastery" rows of one opening can be told
//! apart. The four lines of the ranked Advance French have two titles ("C02 French
//! Defense: Advance Variation…"), so rows that showed the title, cut to the panel, read
//! alike; each row now shows the line's last moves and its variation, whole inside
//! the panel at 1280×800 and 800×600.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::{self, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::Command;
use hastings::coach::review::DrillMode;
use hastings::coach::settings::{Settings, Side};
use hastings::review::Rating;
use hastings::ui::TrainerApp;
use shakmaty::Color;

use crate::common;

/// The window at `size` on the ranked Advance French alone (Black), with Good a day ago
/// on the two positions the lines part at: 5.Nf3 (…Qb6, the main line) and 5.cxd4
/// (…Bb4+, the three 4…cxd4 lines).
fn window(size: (f32, f32)) -> Harness<'static, TrainerApp> {
    let dir = common::temp_dir(&format!("line-mastery-{}", size.0));
    common::repertoire_window::reviews_a_day_ago(
        &dir,
        Color::Black,
        &[
            ("e4 e6 d4 d5 e5 c5 c3 Nc6 Nf3", Rating::Good),
            ("e4 e6 d4 d5 e5 c5 c3 cxd4 cxd4", Rating::Good),
        ],
    );
    let settings = Settings {
        learner: Side::Black,
        seed: "5".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        ..common::settings()
    };
    let mut app =
        TrainerApp::with_progress_file(common::eco(), settings, Some(dir.join("progress.ron")));
    common::load_repertoire_alone(
        app.coach_mut(),
        &common::fixture("french_advance_ranked.pgn"),
    );
    app.coach_mut()
        .apply(Command::SetDrillMode(DrillMode::Review));
    let mut h = common::repertoire_window::past_the_questions(
        app,
        size,
        "french_advance_ranked.pgn",
        "For Black",
    );
    h.get_by_label("Progress").click();
    common::settle(&mut h);
    h
}

#[test]
fn line_mastery_rows_of_one_opening_are_told_apart_inside_the_panel_at_both_sizes() {
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        let mut h = window(size);
        let lines = h.state().coach().graph().lines().to_vec();
        assert_eq!(lines.len(), 4, "the paused 4...Qb6 is not in the book");
        let titles: std::collections::BTreeSet<String> = lines.iter().map(|l| l.title()).collect();
        assert!(
            titles.len() < lines.len(),
            "one opening: rows by title alone cannot be told apart ({titles:?})"
        );
        let endings: Vec<String> = lines.iter().map(|l| l.ending()).collect();
        let distinct: std::collections::BTreeSet<&String> = endings.iter().collect();
        assert_eq!(distinct.len(), 4, "{endings:?}");
        h.get_by_label("Line mastery").scroll_to_me();
        common::settle(&mut h);
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, vec2(size.0, size.1));
        // The board's left edge bounds the side panel.
        let board = h.get_by_label("Line mastery").rect().min.x;
        for ending in &endings {
            let r = h.get_by_label(ending).rect();
            assert!(
                window.contains_rect(r) && r.min.x >= board - 1.0,
                "{ending:?} at {r:?} is not inside the window {size:?}"
            );
        }
    }
}
