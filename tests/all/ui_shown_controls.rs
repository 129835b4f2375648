//! The window's controls act on what is shown (issue 41, items 6, 7 and 14), through
//! the real widgets (egui_kittest): the top bar's "Take back" and the drill's keys leave
//! the drill alone while the Repertoire tab hides it, each left-panel tab keeps its own
//! scroll offset, and the Style tab shows its five sliders, the rest under "Advanced".

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::{self, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::Command;
use hastings::coach::repertoire::RepertoireCommand;
use hastings::coach::settings::{Settings, Side};
use hastings::ui::TrainerApp;

use crate::common;
use common::wait_until;

type H = Harness<'static, TrainerApp>;

fn window(size: (f32, f32)) -> H {
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        ..crate::common::settings()
    };
    let mut h = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut TrainerApp| app.frame_ui(ui),
            TrainerApp::new(common::eco(), settings),
        );
    h.run();
    h
}

/// Opens the left panel's tab `name` (its button is the first node so named).
fn open_tab(h: &mut H, name: &str) {
    h.get_all_by_label(name).next().unwrap().click();
    h.run();
}

fn drill_sans(h: &H) -> Vec<String> {
    h.state()
        .coach()
        .session()
        .moves()
        .iter()
        .map(|m| m.san.clone())
        .collect()
}

#[test]
fn take_back_and_the_drills_keys_leave_the_hidden_drill_alone_in_the_repertoire_tab() {
    let mut h = window((1280.0, 800.0));
    // 1.e4 in the drill, and the computer's reply.
    common::click_move(&mut h, common::san_moves("e4")[0]);
    wait_until(&mut h, "the computer's reply", |app| {
        app.coach().session().moves().len() == 2
    });
    let before = drill_sans(&h);

    // The Repertoire tab with a file open: its board and tree replace the drill's.
    let dir = common::temp_dir("shown-controls");
    let path = dir.join("repertoire.pgn");
    std::fs::copy(common::fixture("repertoire.pgn"), &path).unwrap();
    open_tab(&mut h, "Repertoire");
    h.state_mut()
        .coach_mut()
        .apply(Command::Repertoire(RepertoireCommand::Open(path)));
    h.run();
    assert!(h.state().coach().repertoire().file().is_some());
    h.get_by_label("Take back").click();
    h.run();
    // N starts a new line in the drill; Ctrl+Z takes back there.
    h.key_press(egui::Key::N);
    h.run();
    assert_eq!(drill_sans(&h), before, "the hidden drill was changed");

    // Back in the drill, "Take back" takes back its moves.
    open_tab(&mut h, "Style");
    h.get_by_label("Take back").click();
    h.run();
    assert!(drill_sans(&h).len() < before.len(), "{:?}", drill_sans(&h));
}

/// The top of the node labelled `label` that lies lowest (below the tab buttons).
fn top_of(h: &H, label: &str) -> f32 {
    h.get_all_by_label(label)
        .map(|n| n.rect().top())
        .fold(f32::MIN, f32::max)
}

#[test]
fn each_left_panel_tab_keeps_its_own_scroll_offset() {
    let size = (800.0, 600.0);
    let mut h = window(size);
    open_tab(&mut h, "Book");
    let book_top = top_of(&h, "ECO (built in, 3,807 lines)");
    open_tab(&mut h, "Style");
    let style_top = top_of(&h, "Preset");
    // The mouse wheel over the Style tab scrolls it down.
    let pos = egui::pos2(80.0, size.1 * 0.6);
    h.hover_at(pos);
    for _ in 0..3 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: vec2(0.0, -120.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
            modifiers: egui::Modifiers::NONE,
        });
        h.run();
    }
    let scrolled = top_of(&h, "Preset");
    assert!(scrolled < style_top - 50.0, "{style_top} -> {scrolled}");
    // The Book tab opens at its top, not at the Style tab's offset.
    open_tab(&mut h, "Book");
    let book_now = top_of(&h, "ECO (built in, 3,807 lines)");
    assert!(
        (book_now - book_top).abs() < 1.0,
        "{book_top} -> {book_now}"
    );
    // The Style tab is where it was left.
    open_tab(&mut h, "Style");
    let style_again = top_of(&h, "Preset");
    assert!(
        (style_again - scrolled).abs() < 1.0,
        "{scrolled} -> {style_again}"
    );
}

/// Issue 41, item 14: the researcher's controls wait under "Advanced", in a club
/// player's words; the five style sliders stay in view at 800×600 without scrolling.
#[test]
fn the_style_tabs_researcher_controls_wait_under_advanced_and_the_five_sliders_stay_in_view() {
    let size = (800.0, 600.0);
    let mut h = window(size);
    open_tab(&mut h, "Style");
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, vec2(size.0, size.1));
    for flag in hastings::book::Flag::ALL {
        let name = format!("{} weight", flag.label());
        let r = h.get_by_label(&name).rect();
        assert!(window.contains_rect(r), "{name} at {r:?}");
    }
    for old in ["Transpositions τ", "Iterations", "Ply limit", "Seed"] {
        assert!(
            h.query_all_by_label(old).next().is_none(),
            "{old:?} is still shown"
        );
    }
    assert!(
        h.query_all_by_label("Lines to explore").next().is_none(),
        "folded"
    );
    h.get_by_label("Advanced").scroll_to_me();
    h.run();
    h.get_by_label("Advanced").click();
    h.run();
    for new in [
        "Moves that transpose",
        "Lines to explore",
        "Longest line (half-moves)",
        "Repeat number",
    ] {
        h.get_all_by_label(new).next().unwrap();
    }
}
