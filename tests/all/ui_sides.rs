//! A repertoire's side and chapters in the window (issue 21), through the real widgets
//! with egui_kittest: the question asked once for a file without side tags, and the
//! Book tab's chapter picker.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::path::{Path, PathBuf};

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::settings::{Settings, Side};
use hastings::ui::TrainerApp;
use shakmaty::Color;

use crate::common;
use common::{eco, fixture, temp_dir};

fn harness(size: (f32, f32)) -> Harness<'static, TrainerApp> {
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    };
    let app = TrainerApp::new(eco(), settings);
    Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

/// Loads `path` through the open dialog as "My repertoire", then waits.
fn load(h: &mut Harness<'static, TrainerApp>, path: &Path) {
    common::open_in_window(h, vec![path.to_owned()], "My repertoire");
}

/// The mixed study's two Black chapters, their side tags taken out.
pub fn untagged_black(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(fixture("mixed_sides.pgn")).unwrap();
    let games: Vec<String> = text
        .split("\n\n[Event")
        .skip(1)
        .map(|g| format!("[Event{g}").replace("[Orientation \"black\"]\n", ""))
        .collect();
    let path = dir.join("untagged-black.pgn");
    std::fs::write(&path, games.join("\n\n")).unwrap();
    path
}

#[test]
fn the_side_question_suggests_the_side_and_the_answer_is_drilled() {
    let dir = temp_dir("ui-sides-question");
    let path = untagged_black(&dir);
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        let mut h = harness(size);
        load(&mut h, &path);
        h.get_by_label_contains("Its moves look like a repertoire for Black");
        let window = h.get_by_label("For Black").rect();
        assert!(window.max.x <= size.0 && window.max.y <= size.1, "{size:?}");
        h.get_by_label("For Black").click();
        h.run();
        h.state_mut().coach_mut().finish_loading();
        h.run();
        assert!(h.query_by_label("For Black").is_none(), "asked once");
        assert_eq!(h.state().coach().session().learner(), Color::Black);
        let file = h
            .state()
            .coach()
            .workspace()
            .choice()
            .file(&path)
            .unwrap()
            .clone();
        assert_eq!(file.side, Some(Side::Black));
    }
}

#[test]
fn the_chapter_picker_ticks_chapters_and_drills_one_alone() {
    let path = fixture("mixed_sides.pgn");
    let mut h = harness((1280.0, 800.0));
    load(&mut h, &path);
    assert!(
        h.query_by_label("For Black").is_none(),
        "its tags say the sides"
    );
    h.get_by_label("Book").click();
    h.run();
    // Read as "My repertoire": ECO is off, the repertoire alone.
    assert!(!h.state().coach().workspace().choice().eco);
    h.state_mut().coach_mut().finish_loading();
    h.run();
    assert_eq!(
        h.state().coach().session().learner(),
        Color::White,
        "one White chapter of three"
    );
    assert_eq!(h.state().coach().graph().lines().len(), 4);
    // Open at once: a study has few chapters.
    h.get_by_label("Chapters (3)");
    for title in [
        "The Italian (White)",
        "Caro-Kann (Black)",
        "Against 1.d4 (Black)",
    ] {
        h.get_by_label(title);
    }
    // Untick the Italian: only Black chapters are left, and the learner plays Black.
    h.get_by_label("The Italian (White)").click();
    // Two frames, not `run`: the rebuild's spinner repaints until the book is ready,
    // which on a loaded machine takes more frames than `run` allows.
    h.run_steps(2);
    h.state_mut().coach_mut().finish_loading();
    h.run();
    h.state_mut().coach_mut().finish_loading();
    h.run();
    assert_eq!(h.state().coach().session().learner(), Color::Black);
    assert_eq!(h.state().coach().graph().lines().len(), 8);
    h.get_by_label("Chapters (2 of 3 drilled)");
    // "only" on the third chapter.
    let only = h.get_all_by_label("only").nth(2).unwrap();
    only.click();
    h.run_steps(2);
    h.state_mut().coach_mut().finish_loading();
    h.run();
    assert_eq!(h.state().coach().graph().lines().len(), 3);
    let chosen = h
        .state()
        .coach()
        .workspace()
        .choice()
        .file(&path)
        .unwrap()
        .chapters
        .clone();
    assert_eq!(chosen, Some(vec![3]));
    // "all" brings every chapter back.
    h.get_by_label("all").click();
    h.run();
    h.state_mut().coach_mut().finish_loading();
    h.run();
    assert_eq!(
        h.state()
            .coach()
            .workspace()
            .choice()
            .file(&path)
            .unwrap()
            .chapters,
        None
    );
}

#[test]
fn a_question_left_unanswered_can_be_answered_later_in_the_book_tab() {
    let dir = temp_dir("ui-sides-later");
    let path = untagged_black(&dir);
    let mut h = harness((1280.0, 800.0));
    load(&mut h, &path);
    h.get_by_label("Both / don't know").click();
    h.run();
    assert!(h.query_by_label("Both / don't know").is_none());
    assert_eq!(h.state().coach().session().learner(), Color::White);
    h.get_by_label("Book").click();
    h.run();
    h.get_by_label("Caro-Kann (side not said)");
    h.get_by_label("as Black").click();
    h.step();
    h.state_mut().coach_mut().finish_loading();
    h.run();
    assert_eq!(h.state().coach().session().learner(), Color::Black);
    h.get_by_label("Caro-Kann (Black)");
    let file = h
        .state()
        .coach()
        .workspace()
        .choice()
        .file(&path)
        .unwrap()
        .clone();
    assert_eq!((file.side, file.side_asked), (Some(Side::Black), true));
}

#[test]
fn a_line_is_picked_in_its_chapter_and_drilled_alone() {
    let path = fixture("mixed_sides.pgn");
    let mut h = harness((1280.0, 800.0));
    load(&mut h, &path);
    h.get_by_label("Book").click();
    h.run();
    h.get_by_label("its 5 lines").click();
    h.run();
    let line = h.get_by_label("1.e4 c6 2.c4 d5").rect();
    let only = h
        .get_all_by_label("only")
        .min_by(|a, b| {
            let d = |n: &egui_kittest::Node<'_>| (n.rect().center().y - line.center().y).abs();
            d(a).total_cmp(&d(b))
        })
        .unwrap();
    only.click();
    h.step();
    h.state_mut().coach_mut().finish_loading();
    h.run();
    // ECO is still ticked; the learner plays the line's side (Black).
    let rep: Vec<_> = h
        .state()
        .coach()
        .graph()
        .lines()
        .iter()
        .filter(|l| matches!(l.source, hastings::book::LineSource::Pgn { .. }))
        .map(|l| {
            l.sans()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(rep, ["e4 c6 c4 d5"]);
    assert_eq!(h.state().coach().session().learner(), Color::Black);
    h.get_by_label("Chapters (3), 1 line picked");
    h.get_by_label("all").click();
    h.step();
    h.state_mut().coach_mut().finish_loading();
    h.run();
    assert_eq!(
        h.state()
            .coach()
            .workspace()
            .choice()
            .file(&path)
            .unwrap()
            .lines,
        None
    );
    h.get_by_label("Chapters (3)");
}

/// Issue 41, item 13: the side question and the import report never open on top of
/// each other: the question first, the report once it is answered.
#[test]
fn the_import_report_waits_until_the_side_question_is_answered() {
    let dir = temp_dir("ui-sides-one-window");
    let path = untagged_black(&dir);
    let mut h = harness((1280.0, 800.0));
    load(&mut h, &path);
    h.get_by_label("For Black");
    assert!(
        h.query_by_label("Copy as text").is_none(),
        "the import report is open under the question"
    );
    h.get_by_label("For Black").click();
    h.run();
    h.get_by_label("Copy as text");
}
