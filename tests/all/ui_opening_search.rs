//! "Find an opening" in the top bar (issue 41, item 15), driven through the real widgets
//! (egui_kittest): typing a name lists the openings as one types, Enter or a click
//! drills from the one chosen (the computer answering from the book there), Escape
//! closes the list, nonsense says so, and the list stays inside the window at 1280×800
//! and 800×600.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::{self, Rect, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::settings::{Settings, Side};
use hastings::ui::TrainerApp;
use shakmaty::Color;

use crate::common;
use common::{AppHarness, san_moves};

const NAJDORF: &str = "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6";

fn window(learner: Side, size: (f32, f32)) -> AppHarness {
    let settings = Settings {
        learner,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..common::settings()
    };
    let mut h = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut TrainerApp| app.frame_ui(ui),
            TrainerApp::new(common::eco(), settings),
        );
    common::settle(&mut h);
    h
}

/// Clicks the box and types `text` into it.
fn type_in_box(h: &mut AppHarness, text: &str) {
    h.get_by_label("Find an opening").click();
    h.run();
    h.get_by_label("Find an opening").type_text(text);
    h.run();
}

fn played(h: &AppHarness) -> Vec<shakmaty::Move> {
    h.state()
        .coach()
        .session()
        .moves()
        .iter()
        .map(|m| m.mv)
        .collect()
}

#[test]
fn typing_najdorf_and_enter_drills_from_the_najdorf_with_the_book_answering() {
    let mut h = window(Side::Black, (1280.0, 800.0));
    type_in_box(&mut h, "Najdorf");
    // Listed as one types: the Najdorf itself first, with its moves.
    h.get_by_label("B90 Sicilian Defense: Najdorf Variation");
    h.get_by_label("1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6");
    h.get_by_label_contains("you play Black");
    h.key_press(egui::Key::Enter);
    h.run();
    // The drill starts there; the learner keeps Black, so the computer, White, is to
    // move and answers with a book move of the Najdorf.
    common::wait_until(&mut h, "the computer's answer", |app| {
        app.coach().session().moves().len() > 10
    });
    let moves = played(&h);
    assert_eq!(moves[..10], san_moves(NAJDORF)[..]);
    assert_eq!(h.state().coach().session().learner(), Color::Black);
    let graph = common::eco_graph();
    let najdorf = graph.lookup(&common::position_after(NAJDORF)).unwrap();
    assert!(
        graph
            .continuations(najdorf)
            .iter()
            .any(|c| c.mv == moves[10]),
        "{} is not a book move of the Najdorf",
        h.state().coach().session().moves()[10].san
    );
    // The list closed.
    assert!(
        h.query_by_label("B90 Sicilian Defense: Najdorf Variation")
            .is_none()
    );
}

#[test]
fn clicking_a_code_found_at_800_by_600_drills_from_there() {
    let mut h = window(Side::White, (800.0, 600.0));
    type_in_box(&mut h, "c65");
    // Two positions carry that name (after 3...Nf6 and after 4.O-O): the first listed
    // is the Berlin itself.
    h.query_all_by_label("C65 Ruy Lopez: Berlin Defense")
        .next()
        .unwrap()
        .click();
    h.run();
    let berlin = san_moves("e4 e5 Nf3 Nc6 Bb5 Nf6");
    assert_eq!(played(&h), berlin);
    // White to move and the learner plays White: the drill waits for their move.
    assert_eq!(h.state().coach().session().learner(), Color::White);
    assert!(
        h.state()
            .coach()
            .message()
            .is_none_or(|m| !m.contains("not in the book"))
    );
}

#[test]
fn the_list_stays_inside_the_window_at_both_sizes() {
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        let mut h = window(Side::White, size);
        type_in_box(&mut h, "Najdorf");
        let window = Rect::from_min_size(egui::Pos2::ZERO, vec2(size.0, size.1));
        let rows: Vec<Rect> = h
            .query_all_by_label_contains("Najdorf Variation")
            .chain(h.query_all_by_label_contains("1.e4 c5 2.Nf3"))
            .map(|n| n.rect())
            .collect();
        assert_eq!(rows.len(), 16, "8 openings and their moves at {size:?}");
        for r in rows {
            assert!(window.contains_rect(r), "{r:?} outside {window:?}");
        }
        let search = h.get_by_label("Find an opening").rect();
        assert!(window.contains_rect(search), "{search:?} at {size:?}");
    }
}

#[test]
fn escape_closes_the_list_and_nonsense_says_so() {
    let mut h = window(Side::White, (800.0, 600.0));
    type_in_box(&mut h, "Berlin");
    let berlins = |h: &AppHarness| {
        h.query_all_by_label("C65 Ruy Lopez: Berlin Defense")
            .count()
    };
    assert_eq!(berlins(&h), 2);
    h.key_press(egui::Key::Escape);
    h.run();
    assert_eq!(berlins(&h), 0);
    // Nothing was drilled.
    assert!(played(&h).is_empty());
    h.get_by_label("Find an opening").click();
    h.run();
    h.get_by_label("Find an opening").type_text(" xyzzy");
    h.run();
    h.get_by_label_contains("No opening in the book is called \"Berlin xyzzy\"");
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(played(&h).is_empty());
}

#[test]
fn with_a_repertoire_the_theory_names_its_positions_and_drills_what_it_lacks() {
    let mut h = window(Side::White, (1280.0, 800.0));
    common::load_repertoire_in_window(&mut h, common::fixture("compare_white.pgn"));
    // The repertoire's line ends after 4.Ba4, named by the theory where the file names
    // none: found first. The theory's own Morphy Defense, 3...a6, is in the repertoire
    // too, so it is drilled there.
    type_in_box(&mut h, "Morphy");
    h.get_by_label("1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4");
    h.get_by_label("1.e4 e5 2.Nf3 Nc6 3.Bb5 a6");
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(played(&h), san_moves("e4 e5 Nf3 Nc6 Bb5 a6 Ba4"));
    assert!(h.state().coach().is_repertoire());
    let message = h.state().coach().message().unwrap().to_owned();
    assert!(
        message.starts_with("Drilling your repertoire after"),
        "{message}"
    );
    // The Berlin is not in it: said in the list, and drilled with the theory.
    type_in_box(&mut h, "Berlin");
    h.get_by_label("1.e4 e5 2.Nf3 Nc6 3.Bb5 Nf6 (not in your repertoire: drilled with the theory)");
    h.query_all_by_label("C65 Ruy Lopez: Berlin Defense")
        .next()
        .unwrap()
        .click();
    h.run();
    assert_eq!(played(&h), san_moves("e4 e5 Nf3 Nc6 Bb5 Nf6"));
    let message = h.state().coach().message().unwrap().to_owned();
    assert!(message.contains("with the theory book"), "{message}");
}

#[test]
fn choosing_an_opening_while_playing_on_ends_the_game_and_drills_there() {
    let mut h = window(Side::White, (1280.0, 800.0));
    h.state_mut().coach_mut().settings_mut().play_on = hastings::coach::play_on::PlayOnSettings {
        engine: hastings::coach::play_on::EngineKind::AlphaBeta,
        movetime_ms: 50,
        ..Default::default()
    };
    h.get_by_label("Play on from here").click();
    h.run();
    assert!(h.state().coach().play_on().is_active());
    type_in_box(&mut h, "C65");
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(!h.state().coach().play_on().is_active());
    assert_eq!(played(&h), san_moves("e4 e5 Nf3 Nc6 Bb5 Nf6"));
}

#[test]
fn the_arrow_keys_move_the_mark_that_enter_takes() {
    let mut h = window(Side::White, (1280.0, 800.0));
    type_in_box(&mut h, "Najdorf");
    h.key_press(egui::Key::ArrowDown);
    h.run();
    h.key_press(egui::Key::ArrowDown);
    h.run();
    h.key_press(egui::Key::ArrowUp);
    h.run();
    // The second: 6.Bg5 (B94).
    h.key_press(egui::Key::Enter);
    h.run();
    let najdorf_bg5 = format!("{NAJDORF} Bg5");
    assert_eq!(played(&h)[..11], san_moves(&najdorf_bg5)[..]);
}
