//! The Board section of the Style tab, driven through its real combo boxes with
//! egui_kittest: each board theme, piece set and place of the coordinates changes the
//! settings at once, and the board still shows every piece by its accessible label.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::{self, Rect, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::board_look::{BoardLook, BoardTheme, Coordinates, PieceSet};
use hastings::coach::settings::{Settings, Side};
use hastings::ui::TrainerApp;
use hastings::ui::board::square_label;
use hastings::ui::board_theme::board_look;
use shakmaty::{Chess, Position, Square};

use crate::common;

fn harness() -> Harness<'static, TrainerApp> {
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        ..crate::common::settings()
    };
    let app = TrainerApp::new(common::eco(), settings);
    let mut harness = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    harness.run();
    harness
}

/// Opens the combo box labelled `combo` in the Style tab and picks `item`.
fn choose(harness: &mut Harness<'_, TrainerApp>, combo: &str, item: &str) {
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, combo)
        .scroll_to_me();
    harness.run();
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, combo)
        .click();
    harness.run();
    harness.get_by_label(item).click();
    harness.run();
}

/// Every piece of the starting position is on the board, found by its label.
fn assert_all_pieces_shown(harness: &Harness<'_, TrainerApp>, what: &str) {
    let start = Chess::default();
    for sq in Square::ALL {
        if start.board().piece_at(sq).is_some() {
            let label = square_label(&start, sq);
            assert!(
                harness.query_by_label(&label).is_some(),
                "{what}: no square labelled {label:?}"
            );
        }
    }
}

fn square_rect(harness: &Harness<'_, TrainerApp>, sq: Square) -> Rect {
    harness
        .get_by_label(&square_label(&Chess::default(), sq))
        .rect()
}

#[test]
fn choosing_each_board_theme_changes_the_settings_and_keeps_every_piece() {
    let mut harness = harness();
    assert_eq!(
        harness.state().coach().settings().board_look,
        BoardLook::default()
    );
    for theme in [BoardTheme::Blue, BoardTheme::Green, BoardTheme::Brown] {
        choose(&mut harness, "Squares", theme.name());
        assert_eq!(harness.state().coach().settings().board_look.theme, theme);
        // The boards draw with it from the next frame on.
        assert_eq!(board_look(&harness.ctx).theme, theme);
        assert_all_pieces_shown(&harness, theme.name());
    }
}

#[test]
fn choosing_each_piece_set_changes_the_settings_and_keeps_every_piece() {
    let mut harness = harness();
    for set in [PieceSet::Chessnut, PieceSet::Xboard, PieceSet::Cburnett] {
        choose(&mut harness, "Pieces", set.name());
        assert_eq!(harness.state().coach().settings().board_look.pieces, set);
        assert_eq!(board_look(&harness.ctx).pieces, set);
        assert_all_pieces_shown(&harness, set.name());
    }
}

#[test]
fn coordinates_outside_take_a_margin_and_inside_or_off_give_it_back() {
    let mut harness = harness();
    let inside = square_rect(&harness, Square::A1);

    choose(&mut harness, "Coordinates", "Outside");
    assert_eq!(
        harness.state().coach().settings().board_look.coordinates,
        Coordinates::Outside
    );
    assert_all_pieces_shown(&harness, "outside");
    let outside = square_rect(&harness, Square::A1);
    assert!(
        outside.width() < inside.width(),
        "the squares make room for the margin: {outside:?} vs {inside:?}"
    );
    let h8 = square_rect(&harness, Square::H8);
    assert!(
        (h8.width() - outside.width()).abs() < 0.01,
        "squares stay equal"
    );
    assert!(
        h8.right() - outside.left() > 7.9 * outside.width(),
        "still eight files"
    );

    choose(&mut harness, "Coordinates", "Off");
    assert_eq!(
        harness.state().coach().settings().board_look.coordinates,
        Coordinates::Off
    );
    assert_all_pieces_shown(&harness, "off");
    assert_eq!(square_rect(&harness, Square::A1), inside);

    choose(&mut harness, "Coordinates", "Inside");
    assert_eq!(
        harness.state().coach().settings().board_look.coordinates,
        Coordinates::Inside
    );
    assert_eq!(square_rect(&harness, Square::A1), inside);
}

#[test]
fn a_saved_look_is_used_from_the_first_frame() {
    let look = BoardLook {
        theme: BoardTheme::Green,
        pieces: PieceSet::Chessnut,
        coordinates: Coordinates::Outside,
    };
    let settings = Settings {
        board_look: look,
        ..crate::common::settings()
    };
    let app = TrainerApp::new(common::eco(), settings);
    let mut harness = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app);
    harness.run();
    assert_eq!(board_look(&harness.ctx), look);
    assert_all_pieces_shown(&harness, "saved look");
    let combo = harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Pieces");
    assert_eq!(combo.value().as_deref(), Some("Chessnut"));
}
