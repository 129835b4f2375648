//! The window's layout at the sizes the README promises (1280×800 and 800×600): panels
//! keep their place whatever the drill shows.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::{self, Rect, accesskit::Role, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::format::short_line_names;
use hastings::coach::settings::{Settings, Side};
use hastings::sampler::Style;
use hastings::trainer::{BookMove, Phase, Session};
use hastings::ui::TrainerApp;
use shakmaty::{Color, Position};

use crate::common;
use common::san_moves;

fn harness(settings: Settings, size: (f32, f32)) -> Harness<'static, TrainerApp> {
    let app = TrainerApp::new(common::eco(), settings);
    Harness::builder()
        .with_size(vec2(size.0, size.1))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

fn rect_of(harness: &Harness<'_, TrainerApp>, label: &str) -> Rect {
    harness.get_by_label(label).rect()
}

/// A seed with which the computer answers 1.e4 with 1...e5 (found by replaying the
/// drill itself, so the test does not depend on how seeds map to replies).
fn seed_answering_e4_with_e5() -> u64 {
    let e4 = san_moves("e4")[0];
    (0..1000u64)
        .find(|&seed| {
            let mut s = Session::new(common::eco(), Color::White, Style::neutral(), seed);
            s.play(e4);
            s.reply().is_some_and(|r| r.san == "e5")
        })
        .expect("some seed answers e5")
}

#[test]
fn after_a_wrong_move_with_long_line_names_the_drill_panel_stays_inside_the_window() {
    let settings = Settings {
        learner: Side::White,
        seed: seed_answering_e4_with_e5().to_string(),
        reply_delay_ms: 0,
        ..Settings::default()
    };
    let mut h = harness(settings, (1280.0, 800.0));
    h.run();
    let board_before = rect_of(&h, "a1 white rook");
    let book_moves = after_two_h4(&mut h);
    assert!(book_moves.len() >= 15, "{} book moves", book_moves.len());
    let window = Rect::from_min_size(egui::Pos2::ZERO, vec2(1280.0, 800.0));
    let title = rect_of(&h, "h4 is not in the book.");
    for label in [
        "h4 is not in the book.",
        "Try again",
        "Show me",
        "Book moves here:",
    ] {
        let r = rect_of(&h, label);
        assert!(
            window.contains_rect(r),
            "{label} at {r:?} leaves the window"
        );
        assert!(
            r.min.x >= title.min.x - 1.0,
            "{label} at {r:?} starts left of the panel's text"
        );
    }
    let mut names = 0;
    for name in shown_names(&h, &book_moves).iter().flatten() {
        for node in h.query_all_by_label(name) {
            let r = node.rect();
            assert!(
                r.max.x <= 1280.0 && r.min.x >= title.min.x - 1.0,
                "the line name {name:?} at {r:?} is not inside the panel"
            );
            names += 1;
        }
    }
    assert!(names >= 10, "only {names} line names were found");
    assert_eq!(
        rect_of(&h, "a1 white rook"),
        board_before,
        "the board did not move"
    );
    // The long names wrap in the panel (and are shown whole on hover).
    let long = shown_names(&h, &book_moves)
        .into_iter()
        .flatten()
        .max_by_key(String::len)
        .unwrap();
    let r = h.query_all_by_label(&long).next().unwrap().rect();
    assert!(r.width() < 360.0, "{long:?} is {} points wide", r.width());
    assert_eq!(
        h.state()
            .coach()
            .session()
            .position()
            .board()
            .piece_at(shakmaty::Square::H2),
        Some(shakmaty::Piece {
            color: Color::White,
            role: shakmaty::Role::Pawn
        }),
        "the wrong move is not kept"
    );
}

/// The line names the drill panel shows for `book_moves` (shortened to their variation).
fn shown_names(h: &Harness<'_, TrainerApp>, book_moves: &[BookMove]) -> Vec<Option<String>> {
    let titles: Vec<Option<&str>> = book_moves.iter().map(|b| b.leads_to.as_deref()).collect();
    short_line_names(h.state().coach().session().heading().as_deref(), &titles)
}

/// Plays 1.e4 (answered 1...e5) and 2.h4, out of the book: the book moves, each with
/// the line it leads to.
fn after_two_h4(h: &mut Harness<'_, TrainerApp>) -> Vec<BookMove> {
    h.get_by_label("e2 white pawn").click();
    h.run();
    h.get_by_label("e4").click();
    h.run();
    assert_eq!(h.state().coach().session().moves()[1].san, "e5");
    h.get_by_label("h2 white pawn").click();
    h.run();
    h.get_by_label("h4").click();
    h.run();
    let Phase::OutOfBook { book_moves, .. } = h.state().coach().session().phase().clone() else {
        panic!("2.h4 leaves the book");
    };
    book_moves
}

#[test]
fn after_a_wrong_move_two_book_moves_into_different_variations_never_read_the_same() {
    for size in [(1280.0, 800.0), (800.0, 600.0)] {
        let settings = Settings {
            learner: Side::White,
            seed: seed_answering_e4_with_e5().to_string(),
            reply_delay_ms: 0,
            ..Settings::default()
        };
        let mut h = harness(settings, size);
        h.run();
        let book_moves = after_two_h4(&mut h);
        let panel = rect_of(&h, "Book moves here:");
        let font = egui::TextStyle::Body.resolve(&h.ctx.global_style());
        let line = h.ctx.fonts_mut(|f| f.row_height(&font));
        // Each book move's row: its SAN, its P, then the name of its line.
        let mut shown: Vec<(String, String)> = Vec::new();
        for b in &book_moves {
            let Some(title) = &b.leads_to else { continue };
            let san = h
                .query_all_by(|n| {
                    n.role() == Role::Label
                        && n.value().as_deref() == Some(b.san.as_str())
                        && n.bounding_box().is_some()
                })
                .map(|n| n.rect())
                .find(|r| r.min.x >= panel.min.x - 1.0 && r.min.y > panel.max.y)
                .unwrap_or_else(|| panic!("{size:?}: no row for {}", b.san));
            let name = h
                .query_all_by(|n| n.role() == Role::Label && n.bounding_box().is_some())
                .find(|n| {
                    let r = n.rect();
                    (r.min.y - san.min.y).abs() < 2.0
                        && r.min.x > san.max.x
                        && !n.value().unwrap_or_default().ends_with('%')
                })
                .unwrap_or_else(|| panic!("{size:?}: no line name beside {}", b.san));
            let text = name.value().unwrap_or_default();
            let r = name.rect();
            // Whole: wrapped to more lines, or as wide as the text; never cut with "…".
            let width = h.ctx.fonts_mut(|f| {
                f.layout_no_wrap(text.clone(), font.clone(), egui::Color32::WHITE)
                    .size()
                    .x
            });
            assert!(
                r.height() > 1.5 * line || r.width() + 1.0 >= width,
                "{size:?}: {title:?} is cut to {:.0} of its {width:.0} points",
                r.width()
            );
            assert!(r.max.x <= size.0, "{size:?}: {text:?} at {r:?}");
            shown.push((title.clone(), text));
        }
        assert!(shown.len() >= 10, "{size:?}: only {} names", shown.len());
        for (a, text_a) in &shown {
            for (b, text_b) in &shown {
                assert!(
                    a == b || text_a != text_b,
                    "{size:?}: {a:?} and {b:?} both read {text_a:?}"
                );
            }
        }
    }
}

#[test]
fn at_800_by_600_every_item_of_the_top_bar_is_inside_the_window() {
    let mut h = harness(Settings::default(), (800.0, 600.0));
    h.run();
    let window = Rect::from_min_size(egui::Pos2::ZERO, vec2(800.0, 600.0));
    for label in [
        "Hastings",
        "You play",
        "White",
        "Black",
        "Open PGN…",
        "New line",
        "Take back",
        "Flip board",
        "Lines completed: 0   Mistakes: 0",
    ] {
        let r = rect_of(&h, label);
        assert!(window.contains_rect(r), "{label} at {r:?} is cut off");
    }
    // The board is still whole.
    for sq in ["a1 white rook", "h8 black rook"] {
        let r = rect_of(&h, sq);
        assert!(window.contains_rect(r), "{sq} at {r:?} is cut off");
    }
}
