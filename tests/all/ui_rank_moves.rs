//! My moves ranked in the window (issue 40, item 3), at 1280×800 and 800×600: the move
//! tree's menu makes a move the main one, pauses one and un-pauses another; the tree
//! says so inside its panel; Save writes the marks in the PGN (the same bytes as the
//! document model's own edits), undo takes them back; the saved file, drilled, names the
//! new main move after an alternative and leaves the paused move out; asked again, an
//! alternative is not kept; "Quiz the replies I cover" plays a full line.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::path::Path;

use eframe::egui::{self, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::book::repertoire::{Document, Rank, Standing};
use hastings::coach::Coach;
use hastings::coach::settings::{Settings, Side};
use hastings::trainer::Phase;
use hastings::ui::TrainerApp;
use shakmaty::Position as _;

use crate::common;
use common::{fixture, position_after, temp_dir};

type H = Harness<'static, TrainerApp>;

const FORK: &str = "1. e4 e6 2. d4 d5 3. e5 c5 4. c3";

/// A window of `size` showing `coach`, the report of a file it read closed.
fn window(size: (f32, f32), coach: Coach) -> H {
    let mut h = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut TrainerApp| app.frame_ui(ui),
            TrainerApp::of(coach),
        );
    h.run();
    if let Some(close) = h.query_by_label("Close") {
        close.click();
        h.run();
    }
    h
}

fn settings() -> Settings {
    Settings {
        learner: Side::Black,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..common::settings()
    }
}

fn click(h: &mut H, label: &str) {
    h.get_by_label(label).click();
    common::settle(h);
}

/// Right-clicks the move labelled `label` in the tree and picks `item` in its menu.
fn move_menu(h: &mut H, label: &str, item: &str) {
    h.get_by_label(label).click_secondary();
    h.run();
    click(h, item);
}

/// The fixture's fork as the document model ranks it after the window's three edits.
fn expected_bytes(original: &[u8]) -> Vec<u8> {
    let mut doc = Document::read(original);
    let at = |doc: &Document, san: &str| doc.node_at(0, &format!("{FORK} {san}")).unwrap();
    let (cxd4, qb6, nc6) = (at(&doc, "cxd4"), at(&doc, "Qb6"), at(&doc, "Nc6"));
    doc.mark(0, cxd4, Rank::Main).unwrap();
    doc.mark(0, qb6, Rank::Unpause).unwrap();
    doc.mark(0, nc6, Rank::Pause).unwrap();
    doc.to_pgn()
}

/// The standings at the fork in `bytes`, in file order.
fn standings(bytes: &[u8]) -> Vec<(String, Standing)> {
    let doc = Document::read(bytes);
    let tree = doc.tree(0).unwrap();
    let fork = doc.node_at(0, FORK).unwrap();
    tree.node(fork)
        .unwrap()
        .children()
        .iter()
        .map(|&c| {
            let san = tree.node(c).unwrap().mv().unwrap().1.to_string();
            (san, tree.standing(c).unwrap())
        })
        .collect()
}

/// Asserts that the widget labelled `label` lies inside the window of `size`.
fn inside(h: &H, label: &str, size: (f32, f32)) {
    let rect = h.get_by_label(label).rect();
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, vec2(size.0, size.1));
    assert!(
        window.contains_rect(rect),
        "{size:?}: `{label}` at {rect:?}"
    );
}

/// Sets the marks in the Repertoire tab and saves; returns the saved file.
fn rank_in_window(size: (f32, f32), dir: &Path) -> std::path::PathBuf {
    let path = dir.join("french.pgn");
    std::fs::copy(fixture("french_advance_ranked.pgn"), &path).unwrap();
    let original = std::fs::read(&path).unwrap();
    let mut h = window(size, Coach::new(common::eco(), settings(), None));
    click(&mut h, "Repertoire");
    let field = h.get_by_label("Or type its path");
    field.focus();
    field.type_text(&path.display().to_string());
    common::settle(&mut h);
    click(&mut h, "Open");

    // The paused move says so, inside the panel.
    h.get_by_label("4... Qb6").click();
    common::settle(&mut h);
    inside(&h, "paused", size);
    move_menu(&mut h, "4... cxd4", "Make my main move");
    move_menu(&mut h, "4... Qb6", "Un-pause");
    move_menu(&mut h, "4... Nc6", "Pause this move");
    let shown = h.state().coach().repertoire().document().unwrap().to_pgn();
    assert_eq!(shown, expected_bytes(&original), "{size:?}");
    inside(&h, "paused", size);

    // Undo takes the three marks back to the bytes read; redo brings them again.
    for _ in 0..3 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        // (each step re-reads the tree's lines on a job: waited for, however loaded the
        // machine)
        common::settle(&mut h);
    }
    assert_eq!(
        h.state().coach().repertoire().document().unwrap().to_pgn(),
        original,
        "{size:?}"
    );
    for _ in 0..3 {
        h.key_press_modifiers(
            egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
            egui::Key::Z,
        );
        common::settle(&mut h);
    }
    click(&mut h, "Save");
    let saved = std::fs::read(&path).unwrap();
    assert_eq!(saved, expected_bytes(&original), "{size:?}");
    assert_eq!(
        standings(&saved),
        [
            ("cxd4".to_owned(), Standing::Main),
            ("Nc6".to_owned(), Standing::Paused),
            ("Qb6".to_owned(), Standing::Alternative)
        ]
    );
    path
}

#[test]
fn marks_set_in_the_window_are_saved_and_steer_the_drill() {
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        let dir = temp_dir(&format!("ui-rank-{}", size.0));
        let path = rank_in_window(size, &dir);

        // The saved file drilled as Black: to the fork, then the alternative 4...Qb6.
        let mut coach = Coach::new(common::eco(), settings(), None);
        common::load_repertoire_alone(&mut coach, &path);
        let mut h = window(size, coach);
        let fork = position_after("e4 e6 d4 d5 e5 c5 c3");
        let mut turns = 0;
        loop {
            turns += 1;
            assert!(turns < 200, "{size:?}: the drill never reached the fork");
            let session = h.state().coach().session();
            match session.phase() {
                Phase::LearnerToMove if session.moves().len() == 7 => break,
                Phase::LearnerToMove => {
                    // One move of Black's before the fork: the file's.
                    let moves = session.book_moves();
                    assert_eq!(moves.len(), 1, "{size:?}");
                    common::click_move(&mut h, moves[0].mv);
                    h.run();
                }
                Phase::ComputerToMove => {
                    h.run();
                }
                other => panic!("{size:?}: {other:?}"),
            }
        }
        // The paused 4...Nc6 is not in the book; the chart gives the new main first.
        let session = h.state().coach().session();
        assert_eq!(
            shakmaty::fen::Epd::from_position(session.position(), shakmaty::EnPassantMode::Legal),
            shakmaty::fen::Epd::from_position(&fork, shakmaty::EnPassantMode::Legal),
            "{size:?}"
        );
        let chart: Vec<String> = session.book_moves().into_iter().map(|b| b.san).collect();
        assert_eq!(chart, ["cxd4", "Qb6"], "{size:?}");
        let qb6 = hastings::book::movelist::parse_moves(&fork, "Qb6").unwrap()[0];
        common::click_move(&mut h, qb6);
        h.run();
        let note = "Also in your repertoire — your main move is 4…cxd4.";
        h.get_by_label(note);
        inside(&h, note, size);
        let session = h.state().coach().session();
        assert_eq!(session.moves()[7].san, "Qb6", "{size:?}: counted right");
        assert_eq!(session.mistakes_in_line(), 0);
    }
}

/// "Quiz the replies I cover" plays a full line in the window: at each of White's
/// turns the question is shown inside the panel and every reply the repertoire answers
/// (the graph's continuations there) is played on the board before the computer plays
/// one; Black's moves are the file's main moves; the line ends with no mistake.
#[test]
fn quiz_the_replies_i_cover_plays_a_full_line() {
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        let settings = Settings {
            quiz_replies: true,
            ..settings()
        };
        let mut coach = Coach::new(common::eco(), settings, None);
        common::load_repertoire_alone(&mut coach, &fixture("french_advance_ranked.pgn"));
        let mut h = window(size, coach);
        let (mut asked, mut named, mut turns) = (0, 0, 0);
        loop {
            turns += 1;
            assert!(turns < 300, "{size:?}: the line never ended");
            let session = h.state().coach().session();
            if session.asks_replies() {
                let node = session.node().unwrap();
                let graph = session.graph();
                let replies: Vec<_> = graph.continuations(node).iter().map(|c| c.mv).collect();
                let (all, left) = session.replies_here().unwrap();
                assert_eq!((all, left), (replies.len(), replies.len()), "{size:?}");
                let side = if session.position().turn().is_white() {
                    "White"
                } else {
                    "Black"
                };
                let question = format!(
                    "What can {side} play here that your repertoire answers? (0 of {all} named)"
                );
                inside(&h, &question, size);
                asked += 1;
                for mv in replies {
                    common::click_move(&mut h, mv);
                    h.run();
                    named += 1;
                }
                assert!(!h.state().coach().session().asks_replies(), "{size:?}");
                continue;
            }
            match session.phase() {
                Phase::LearnerToMove => {
                    let main = session.book_moves()[0].mv;
                    common::click_move(&mut h, main);
                    h.run();
                }
                Phase::ComputerToMove => {
                    h.run();
                }
                Phase::EndOfLine { mistakes, .. } => {
                    assert_eq!(*mistakes, 0, "{size:?}");
                    break;
                }
                other => panic!("{size:?}: {other:?}"),
            }
        }
        // 1.e4 2.d4 3.e5 4.c3 5.Nf3 along the main line: five of White's turns.
        let session = h.state().coach().session();
        let sans: Vec<&str> = session.moves().iter().map(|m| m.san.as_str()).collect();
        assert_eq!(
            sans,
            [
                "e4", "e6", "d4", "d5", "e5", "c5", "c3", "Nc6", "Nf3", "Qb6"
            ],
            "{size:?}"
        );
        assert_eq!((asked, named), (5, 5), "{size:?}");
    }
}

/// With "My other moves: ask for my main move", the alternative 4...cxd4 is not kept:
/// the drill panel names the main move 4...Nc6, inside its panel, and asks again.
#[test]
fn an_alternative_is_asked_again_in_the_window() {
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        let settings = Settings {
            alternatives_asked_again: true,
            ..settings()
        };
        let mut coach = Coach::new(common::eco(), settings, None);
        common::load_repertoire_alone(&mut coach, &fixture("french_advance_ranked.pgn"));
        let mut h = window(size, coach);
        let mut turns = 0;
        while h.state().coach().session().moves().len() < 7 {
            turns += 1;
            assert!(turns < 200, "{size:?}: the drill never reached the fork");
            let session = h.state().coach().session();
            if *session.phase() == Phase::LearnerToMove {
                let mv = session.book_moves()[0].mv;
                common::click_move(&mut h, mv);
            }
            h.run();
        }
        let fork = h.state().coach().session().position().clone();
        let cxd4 = hastings::book::movelist::parse_moves(&fork, "cxd4").unwrap()[0];
        common::click_move(&mut h, cxd4);
        h.run();
        let note = "Also in your repertoire — your main move is 4…Nc6. Play your main move.";
        inside(&h, note, size);
        let session = h.state().coach().session();
        assert_eq!(session.moves().len(), 7, "{size:?}: not kept");
        assert_eq!(*session.phase(), Phase::LearnerToMove);
        assert_eq!(session.mistakes_in_line(), 0);
        let nc6 = hastings::book::movelist::parse_moves(&fork, "Nc6").unwrap()[0];
        common::click_move(&mut h, nc6);
        h.run();
        assert_eq!(
            h.state().coach().session().moves()[7].san,
            "Nc6",
            "{size:?}"
        );
        assert!(h.query_by_label(note).is_none(), "{size:?}: the note goes");
    }
}
