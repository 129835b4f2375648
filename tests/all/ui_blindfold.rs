//! Blindfold training in the window (egui_kittest, the real widgets) at 1280×800 and
//! 800×600, on the repertoire fixture alone with "Hide the pieces after move 1": a whole
//! line played by typed moves (the move box), another by clicks on the empty board;
//! what is painted checked (no piece image in the board's rectangle once past move 1,
//! the squares' accessible labels naming no piece; the pieces painted again after a
//! wrong move, until the right one); the last move said under the board, inside the
//! window. Learn new lines shows its line with the pieces and asks it blindfold.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::{self, Rect, Shape, TextureId};
use egui_kittest::kittest::Queryable as _;
use hastings::coach::settings::{Settings, Side};
use hastings::trainer::Phase;
use hastings::trainer::review_drill::ReviewStep;
use hastings::ui::TrainerApp;
use shakmaty::{Move, Position, Square};

use crate::common::{self, AppHarness};

const SIZES: [(f32, f32); 2] = [(1280.0, 800.0), (800.0, 600.0)];

/// The window at `size`, drilling the repertoire fixture alone as White, blindfold after
/// move 1.
fn window(name: &str, size: (f32, f32)) -> AppHarness {
    let settings = Settings {
        learner: Side::White,
        seed: "5".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        hide_pieces: true,
        hide_pieces_after: 1,
        ..common::settings()
    };
    let dir = common::temp_dir(&format!("{name}_{}", size.0));
    let mut app =
        TrainerApp::with_progress_file(common::eco(), settings, Some(dir.join("progress.ron")));
    app.coach_mut().review_mut().set_fuzz(false);
    common::load_repertoire_alone(app.coach_mut(), &common::fixture("repertoire.pgn"));
    common::repertoire_window::past_the_questions(app, size, "repertoire.pgn", "For White")
}

/// The node of square `sq` on the board: labelled `e4`, or `e4 white pawn` when its
/// piece is named.
/// (A square's node is a square of at least 30 points: the move list's "d5" is not.)
fn square_node<'h>(h: &'h AppHarness, sq: Square) -> egui_kittest::Node<'h> {
    let name = sq.to_string();
    let with_piece = format!("{name} ");
    h.query_all_by(move |n| {
        n.label()
            .is_some_and(|l| l == name || l.starts_with(&with_piece))
    })
    .find(|n| {
        let r = n.rect();
        r.width() >= 30.0 && (r.width() - r.height()).abs() < 1.0
    })
    .unwrap_or_else(|| panic!("no square {sq}"))
}

fn square_rect(h: &AppHarness, sq: Square) -> Rect {
    square_node(h, sq).rect()
}

/// The board's squares (White at the bottom): from a8's corner to h1's.
fn board_rect(h: &AppHarness) -> Rect {
    square_rect(h, Square::A8).union(square_rect(h, Square::H1))
}

/// The images (shapes with a texture other than the font's) painted inside `board`.
fn images_in(h: &AppHarness, board: Rect) -> usize {
    fn count(shape: &Shape, board: Rect) -> usize {
        match shape {
            Shape::Vec(shapes) => shapes.iter().map(|s| count(s, board)).sum(),
            s => usize::from(
                s.texture_id() != TextureId::default()
                    && board.expand(1.0).contains_rect(s.visual_bounding_rect()),
            ),
        }
    }
    h.output()
        .shapes
        .iter()
        .map(|c| count(&c.shape, board))
        .sum()
}

/// The Style tab's "Hide the pieces after move" checkbox.
fn setting_checkbox(h: &AppHarness) -> egui_kittest::Node<'_> {
    h.get_by_role_and_label(
        egui::accesskit::Role::CheckBox,
        "Hide the pieces after move",
    )
}

/// Whether any square's label names a piece.
fn labels_name_pieces(h: &AppHarness) -> bool {
    h.query_all_by(|n| {
        n.label().is_some_and(|l| {
            l.len() > 3
                && l.as_bytes()[0].is_ascii_lowercase()
                && l.as_bytes()[1].is_ascii_digit()
                && (l.contains(" white ") || l.contains(" black "))
        })
    })
    .next()
    .is_some()
}

/// Clicks square `sq` (its piece hidden or not), then a frame.
fn click_square(h: &mut AppHarness, sq: Square) {
    square_node(h, sq).click();
    h.step();
}

/// Plays `mv` by clicking its square, then its target (on the empty board when hidden).
fn click_move(h: &mut AppHarness, mv: Move) {
    click_square(h, mv.from().unwrap());
    click_square(h, mv.to());
    h.step();
    common::settle(h);
}

/// Types `mv`'s SAN in the move box and presses Enter.
fn type_move(h: &mut AppHarness, mv: Move) {
    let pos = h.state().coach().session().position().clone();
    let san = shakmaty::san::San::from_move(&pos, mv).to_string();
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Your move")
        .click();
    h.run();
    h.event(egui::Event::Text(san));
    h.run();
    h.key_press(egui::Key::Enter);
    common::settle(h);
}

/// The words under the board for the drill's last move: `Black played 1...e5`.
fn last_move_words(h: &AppHarness) -> String {
    let s = h.state().coach().session();
    let last = s.moves().last().unwrap();
    let before = s.position_at(s.moves().len() - 1);
    let (side, sep) = match before.turn() {
        shakmaty::Color::White => ("White", "."),
        shakmaty::Color::Black => ("Black", "..."),
    };
    format!("{side} played {}{sep}{}", before.fullmoves(), last.san)
}

/// Checks what the board shows now: no piece past move 1 (none painted, none named,
/// the last move said under the board, inside the window), else the pieces.
fn check_board(h: &AppHarness, size: (f32, f32), what: &str) -> bool {
    let s = h.state().coach().session();
    let past =
        s.display_position().fullmoves().get() > 1 && !matches!(s.phase(), Phase::OutOfBook { .. });
    let board = board_rect(h);
    if past && !h.state().coach().session().moves().is_empty() && h.state().coach().hides_pieces() {
        assert_eq!(images_in(h, board), 0, "{what}: no piece painted");
        assert!(!labels_name_pieces(h), "{what}: no square names its piece");
        let words = h.get_by_label(&last_move_words(h)).rect();
        assert!(
            words.min.y >= board.max.y - 1.0 && words.max.y <= size.1 && words.max.x <= size.0,
            "{what}: the words {words:?} under the board {board:?} in the window"
        );
        true
    } else {
        assert!(!h.state().coach().hides_pieces() || !past, "{what}");
        assert!(images_in(h, board) >= 16, "{what}: the pieces are painted");
        false
    }
}

/// Plays the drill's line to its end, each of the learner's moves entered by `enter`;
/// at the first hidden position a wrong move first (clicked on the empty board), which
/// shows the pieces until the right move. Returns the learner's moves played blind.
fn play_line(h: &mut AppHarness, size: (f32, f32), enter: fn(&mut AppHarness, Move)) -> usize {
    let mut blind = 0;
    let mut wrong_done = false;
    for _ in 0..60 {
        let phase = h.state().coach().session().phase().clone();
        match phase {
            Phase::LearnerToMove => {
                let hidden = check_board(h, size, "the learner to move");
                assert_eq!(
                    hidden,
                    h.state().coach().session().position().fullmoves().get() > 1,
                    "hidden exactly past move 1"
                );
                if hidden && !wrong_done {
                    let s = h.state().coach().session();
                    let pos = s.position().clone();
                    let wrong = pos
                        .legal_moves()
                        .into_iter()
                        .find(|&m| {
                            let mut next = pos.clone();
                            next.play_unchecked(m);
                            s.graph().lookup(&next).is_none()
                        })
                        .unwrap();
                    click_move(h, wrong);
                    assert!(matches!(
                        h.state().coach().session().phase(),
                        Phase::OutOfBook { .. }
                    ));
                    assert!(!check_board(h, size, "after a wrong move"));
                    h.get_by_label("Try again").click();
                    common::settle(h);
                    assert!(!check_board(h, size, "after Try again"));
                    wrong_done = true;
                }
                blind += usize::from(hidden);
                let mv = h.state().coach().session().book_moves()[0].mv;
                let before = h.state().coach().session().moves().len();
                enter(h, mv);
                assert!(
                    h.state().coach().session().moves().len() > before,
                    "the move was played"
                );
            }
            Phase::ComputerToMove => common::settle(h),
            Phase::EndOfLine { .. } => return blind,
            Phase::OutOfBook { .. } => panic!("a mistake left on the board"),
        }
    }
    panic!("the line never ended")
}

#[test]
fn a_line_is_played_blindfold_by_typed_moves_and_by_clicks_on_the_empty_board() {
    for size in SIZES {
        let mut h = window("ui_blindfold_drill", size);
        assert!(!h.state().coach().hides_pieces(), "move 1: the pieces");
        let typed = play_line(&mut h, size, type_move);
        assert!(typed >= 2, "{size:?}: {typed} moves typed blind");
        check_board(&h, size, "the end of the line");
        h.get_by_label("Next line").click();
        common::settle(&mut h);
        let clicked = play_line(&mut h, size, click_move);
        assert!(clicked >= 2, "{size:?}: {clicked} moves clicked blind");
        // The setting, in the Style tab: off, the pieces come back; on again, gone.
        assert!(h.state().coach().hides_pieces());
        h.get_all_by_label("Style").next().unwrap().click();
        common::settle(&mut h);
        // The checkbox (the number beside it is labelled by it too).
        setting_checkbox(&h).scroll_to_me();
        common::settle(&mut h);
        setting_checkbox(&h).click();
        common::settle(&mut h);
        assert_eq!(h.state().coach().settings().blindfold(), None);
        assert!(!h.state().coach().hides_pieces());
        assert!(images_in(&h, board_rect(&h)) >= 16, "the pieces are back");
        setting_checkbox(&h).click();
        common::settle(&mut h);
        assert_eq!(
            h.state().coach().settings().blindfold(),
            Some(1),
            "on again, after the same move"
        );
        assert_eq!(images_in(&h, board_rect(&h)), 0);
    }
}

#[test]
fn learn_new_lines_shows_the_line_with_its_pieces_and_asks_it_blindfold() {
    for size in SIZES {
        let mut h = window("ui_blindfold_learn", size);
        h.get_by_label("Learn new lines").click();
        common::settle(&mut h);
        // Shown: the pieces stay, past move 1 too.
        let mut shown = 0;
        while let Some(ReviewStep::Learn(card)) = h.state().coach().review().step() {
            assert!(
                !h.state().coach().hides_pieces(),
                "a line shown keeps its pieces"
            );
            assert!(
                images_in(&h, board_rect(&h)) >= 16,
                "the pieces are painted"
            );
            click_move(&mut h, card.mv);
            shown += 1;
        }
        assert!(shown >= 2);
        h.get_by_label("Now play it from memory").click();
        common::settle(&mut h);
        // Asked: blindfold past move 1, a wrong move shows the pieces until the right one.
        let line = h
            .state()
            .coach()
            .review()
            .drill()
            .unwrap()
            .lesson()
            .unwrap()
            .line();
        let moves = h.state().coach().graph().line_moves(line).to_vec();
        let mut blind = 0;
        let mut wrong_done = false;
        while h
            .state()
            .coach()
            .review()
            .drill()
            .unwrap()
            .lesson()
            .is_some_and(|l| l.line() == line && l.is_quiz())
        {
            let ply = h.state().coach().session().moves().len();
            let hidden = check_board(&h, size, "the lesson's quiz");
            assert_eq!(
                hidden,
                h.state().coach().session().position().fullmoves().get() > 1
            );
            if hidden && !wrong_done {
                let pos = h.state().coach().session().position().clone();
                let other = pos
                    .legal_moves()
                    .into_iter()
                    .find(|m| *m != moves[ply])
                    .unwrap();
                click_move(&mut h, other);
                assert!(
                    !h.state().coach().hides_pieces(),
                    "shown after a wrong move"
                );
                assert!(images_in(&h, board_rect(&h)) >= 16);
                wrong_done = true;
            }
            blind += usize::from(hidden);
            type_move(&mut h, moves[ply]);
        }
        assert!(
            blind >= 2 && wrong_done,
            "{size:?}: {blind} moves typed blind"
        );
    }
}
