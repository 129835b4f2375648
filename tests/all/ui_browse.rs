//! Issue 41, item 8: a Browse… button beside every path field (one widget,
//! `src/ui/browse.rs`): the Explorer tab's "Games (files or folders)" and the Book tab's
//! "Book from games…" fields, inside the side panel at 1280×800 and 800×600; where the
//! window uses no system dialog, Browse… is off and the typed path stays.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::accesskit::Role;
use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use hastings::coach::settings::{Settings, Side};
use hastings::ui::TrainerApp;

use crate::common;
use common::{AppHarness, eco};

fn window(size: (f32, f32)) -> AppHarness {
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..common::settings()
    };
    let mut app = TrainerApp::new(eco(), settings);
    app.use_path_field_only();
    let mut harness: AppHarness = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    harness.run();
    harness
}

/// The Browse… buttons shown, each checked inside the side panel and beside its field.
fn browse_buttons(h: &AppHarness, size: (f32, f32)) -> usize {
    let right = 8.0 + ((size.0 - 16.0) * 0.2).clamp(180.0, 300.0) + 0.5;
    let buttons: Vec<_> = h
        .query_all_by(|n| n.role() == Role::Button && n.label().is_some_and(|l| l == "Browse…"))
        .collect();
    for b in &buttons {
        let r = b.rect();
        assert!(
            r.max.x <= right,
            "Browse… at {r:?} past the panel at {size:?}"
        );
        assert!(
            b.accesskit_node().is_disabled(),
            "no system dialog in tests: Browse… is off"
        );
    }
    buttons.len()
}

#[test]
fn every_path_field_has_a_browse_button_inside_the_panel_at_both_sizes() {
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        let mut h = window(size);
        h.get_all_by_label("Explorer").next().unwrap().click();
        common::settle(&mut h);
        assert_eq!(browse_buttons(&h, size), 1, "the build form at {size:?}");
        h.get_all_by_label("Book").next().unwrap().click();
        common::settle(&mut h);
        h.get_by_label("Book from games…").click();
        common::settle(&mut h);
        assert_eq!(
            browse_buttons(&h, size),
            2,
            "the make-book form at {size:?}"
        );
        // The typed path stays (the field scrolled into view first, as a user would).
        h.get_by_label("Write to").scroll_to_me();
        common::settle(&mut h);
        h.get_by_label("Write to").click();
        h.run();
        h.get_by_label("Write to").type_text("/tmp/mine.bin");
        common::settle(&mut h);
        assert_eq!(
            h.get_by_label("Write to")
                .accesskit_node()
                .value()
                .as_deref(),
            Some("/tmp/mine.bin"),
            "at {size:?}"
        );
    }
}

/// Issue 41, item 8: the files opened (and the games saved) are remembered in the
/// settings, latest first, and the Book tab's **Recent files** menu opens them again:
/// a click asks how to read the file, as Open… does.
#[test]
fn a_file_opened_is_in_the_recent_files_menu_and_opens_again() {
    let size = (800.0, 600.0);
    let mut h = window(size);
    let first = common::fixture("compare_white.pgn");
    let second = common::fixture("repertoire.pgn");
    common::open_in_window(&mut h, vec![first.clone()], "My repertoire");
    if let Some(close) = h.query_by_label("Close") {
        close.click();
        common::settle(&mut h);
    }
    common::open_in_window(&mut h, vec![second.clone()], "A game collection");
    if let Some(close) = h.query_by_label("Close") {
        close.click();
        common::settle(&mut h);
    }
    assert_eq!(
        h.state().coach().settings().recent_files,
        vec![second.clone(), first.clone()]
    );
    h.get_all_by_label("Book").next().unwrap().click();
    common::settle(&mut h);
    h.get_by_label("Recent files").click();
    common::settle(&mut h);
    h.get_by_label("compare_white.pgn").click();
    common::settle(&mut h);
    // Asked how to read it, as Open… asks.
    h.get_by_label("Import");
    assert_eq!(
        h.state().coach().settings().recent_files[1],
        first,
        "not moved before it is read"
    );
}
