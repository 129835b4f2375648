//! An empty book says why (issue 40): a leftover filter that leaves no line of a French
//! repertoire, or no source ticked at all. Driven through the real widgets
//! (egui_kittest): the drill panel names the cause instead of a fake "End of line",
//! "Clear the filter" brings the lines back, and Next line and Play on are disabled with
//! a hover text saying why.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use hastings::book::LineFilter;
use hastings::coach::Action;
use hastings::coach::settings::Settings;
use hastings::ui::TrainerApp;
use hastings::workspace::BookChoice;

use crate::common;

fn harness(book: BookChoice) -> Harness<'static, TrainerApp> {
    let settings = Settings {
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        book,
        ..crate::common::settings()
    };
    let mut app = TrainerApp::new(common::eco(), settings);
    app.coach_mut().finish_loading();
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

/// Next line and Play on are shown, disabled, and hovering one says `why`.
fn disabled_with_reason(h: &mut Harness<'static, TrainerApp>, why: &str) {
    for action in [Action::NextLine, Action::PlayOn] {
        assert!(!h.state().coach().is_enabled(action), "{action:?}");
        let button = h.get_by_label(action.text());
        assert!(button.accesskit_node().is_disabled(), "{action:?}");
        button.hover();
        h.run();
        h.get_by_label_contains(why);
    }
}

#[test]
fn a_leftover_name_filter_says_why_the_book_is_empty_and_can_be_cleared() {
    let book = BookChoice {
        filter: LineFilter {
            name_contains: Some("Najdorf".to_owned()),
            ..LineFilter::default()
        },
        ..BookChoice::default()
    };
    let mut h = harness(book);
    h.run();
    let path = common::fixture("study_chapters.pgn");
    common::open_in_window(&mut h, vec![path], "My repertoire");
    if let Some(both) = h.query_by_label("Both / don't know") {
        both.click();
        h.run();
    }
    if let Some(close) = h.query_by_label("Close") {
        close.click();
        h.run();
    }
    h.state_mut().coach_mut().finish_loading();
    h.run();
    assert!(h.state().coach().is_repertoire());
    assert_eq!(h.state().coach().graph().lines().len(), 0);
    h.get_by_label_contains("the Book tab's filter (Name contains: Najdorf) leaves no line");
    assert!(h.query_by_label_contains("End of line").is_none());
    disabled_with_reason(&mut h, "clear the Book tab's filter");

    h.get_by_label("Clear the filter").click();
    h.step();
    h.state_mut().coach_mut().finish_loading();
    h.run();
    let coach = h.state().coach();
    assert_eq!(coach.workspace().choice().filter, LineFilter::default());
    assert!(!coach.graph().lines().is_empty());
    assert!(coach.empty_book().is_none());
    assert!(h.query_by_label("Clear the filter").is_none());
}

#[test]
fn with_every_source_unticked_next_line_and_play_on_say_why_they_wait() {
    let book = BookChoice {
        eco: false,
        ..BookChoice::default()
    };
    let mut h = harness(book);
    h.run();
    assert_eq!(h.state().coach().graph().lines().len(), 0);
    h.get_by_label_contains("no source is ticked in the Book tab");
    assert!(h.query_by_label_contains("End of line").is_none());
    disabled_with_reason(&mut h, "tick a source in the Book tab");
    // Enter (Next line) does nothing either.
    h.key_press(eframe::egui::Key::Enter);
    h.run();
    assert_eq!(h.state().coach().graph().lines().len(), 0);
    h.get_by_label_contains("no source is ticked in the Book tab");
}
