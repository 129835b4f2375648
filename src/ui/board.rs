//! The chess board widget: [`board_ui`].
//!
//! Written in the four steps of egui's `toggle_switch` demo: decide the size, allocate the
//! space, interact (one accessible widget per square, so a screen reader or a test can
//! click `e2` by name), paint (`board_paint`, in the window's board look: [`board_theme`]).
//! The widget never changes the game: it reports the legal move the user made in
//! [`BoardResponse::played`] and the caller decides what to do.
//!
//! Moves are made by click-click (select a piece, dots mark its legal targets, rings mark
//! captures, click a target) or by drag and drop (the piece follows the pointer; a drop on
//! a square it cannot reach snaps it back). A pawn reaching the last rank opens a picker
//! (queen, rook, bishop, knight). Castling is the king moving two squares (or onto its
//! rook). The small amount of state this needs (selection, drag, open picker) lives in
//! egui's temporary memory under the board's id.

use eframe::egui;
use egui::emath::GuiRounding as _;
use egui::{Color32, Id, Order, Rect, Response, Sense, Ui, Vec2, WidgetInfo, vec2};
use shakmaty::{Chess, Move, Position, Role, Square};

use super::board_paint::{BoardLayout, coordinates_margin, paint_board};
use super::board_view::BoardState;
pub use super::board_view::{
    Arrow, BoardView, SlidingPiece, landing_square, rect_from_square, square_from_pos,
};
use super::{board_theme, pieces};
use crate::coach::board_look::PieceSet;

pub use crate::coach::settings::Orientation;

/// What happened on the board this frame.
#[derive(Debug)]
pub struct BoardResponse {
    /// The response of the whole board area (with the margin of outside coordinates).
    pub response: Response,
    /// Where the squares are.
    pub squares: Rect,
    /// A legal move the user completed this frame.
    pub played: Option<Move>,
}

/// The smallest square, in physical pixels.
const MIN_SQUARE_PX: f32 = 16.0;

/// The board widget: shows `view` with `orientation` and reports a move the user made.
///
/// The board takes the largest square that fits the available space, a whole number of
/// physical pixels per square so that the pieces rasterise crisply, with a margin on the
/// left and at the bottom when the coordinates go outside. Center it with the
/// surrounding layout. Its colours, pieces and coordinates are the window's
/// [`board_theme::board_look`].
pub fn board_ui(ui: &mut Ui, view: &BoardView<'_>, orientation: Orientation) -> BoardResponse {
    board_ui_pieces(ui, view, orientation, Pieces::Shown)
}

/// Whether the board draws its pieces (blindfold training hides them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pieces {
    /// The pieces drawn.
    Shown,
    /// The squares, the coordinates, the last move and the arrows only: no piece, no
    /// check, no move targets, no piece under a drag, and the squares' accessible labels
    /// name no piece. Moves are made as with pieces (a click or a drag from the square
    /// of a piece of the side to move picks it up).
    Hidden,
}

/// [`board_ui`] with the pieces drawn or hidden.
pub fn board_ui_pieces(
    ui: &mut Ui,
    view: &BoardView<'_>,
    orientation: Orientation,
    shown: Pieces,
) -> BoardResponse {
    let look = board_theme::board_look(ui.ctx());

    // 1. Decide the size: the largest whole-pixel square that fits beside the margin.
    let ppp = ui.pixels_per_point();
    let available = ui.available_size();
    let margin = coordinates_margin(&look, available);
    let square_px = ((available.x.min(available.y) - margin) * ppp / 8.0)
        .floor()
        .max(MIN_SQUARE_PX);
    let side = square_px * 8.0 / ppp;

    // 2. Allocate the space.
    let (outer, response) = ui.allocate_exact_size(Vec2::splat(side + margin), Sense::hover());
    let rect = Rect::from_min_size(
        (outer.min + vec2(margin, 0.0)).round_to_pixels(ppp),
        Vec2::splat(side),
    );

    // 3. Interact.
    let id = ui.make_persistent_id("hastings_board");
    let mut state: BoardState = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    let position = view.position;
    let legal = position.legal_moves();
    let own = |sq: Square| {
        position
            .board()
            .piece_at(sq)
            .is_some_and(|p| p.color == position.turn())
    };
    if !view.interactive {
        state = BoardState::default();
    }
    // Drop state that no longer fits the position (it changed under us).
    if state.selected.is_some_and(|sq| !own(sq)) {
        state = BoardState::default();
    }

    let mut clicked = None;
    let mut attempt = None;
    for sq in Square::ALL {
        let square_rect = rect_from_square(rect, sq, orientation);
        // A board that takes no moves only shows: its squares sense the pointer and no
        // more, so that a preview in a tooltip never holds the tooltip open over the
        // widgets under it (egui keeps a tooltip with interactive widgets open).
        let sense = if view.interactive {
            Sense::click_and_drag()
        } else {
            Sense::hover()
        };
        let r = ui.interact(square_rect, id.with(u32::from(sq)), sense);
        let label = match shown {
            Pieces::Shown => square_label(position, sq),
            Pieces::Hidden => sq.to_string(),
        };
        let selected = state.selected == Some(sq);
        r.widget_info(|| {
            WidgetInfo::selected(egui::Role::Button, view.interactive, selected, &label)
        });
        if !view.interactive {
            continue;
        }
        // The right button draws marks (where the caller lets it), never moves.
        if r.drag_started_by(egui::PointerButton::Primary) && own(sq) {
            state.dragging = Some(sq);
            state.selected = Some(sq);
            state.promotion = None;
        }
        if r.drag_stopped_by(egui::PointerButton::Primary) && state.dragging == Some(sq) {
            state.dragging = None;
            let drop = ui.input(|i| i.pointer.latest_pos());
            if let Some(to) = drop.and_then(|p| square_from_pos(rect, p, orientation))
                && to != sq
            {
                attempt = Some((sq, to));
            }
        }
        if r.clicked() {
            clicked = Some(sq);
        }
    }
    if let Some(sq) = clicked {
        if state.promotion.is_some() {
            state.promotion = None;
        } else if let Some(from) = state.selected
            && from != sq
            && legal
                .iter()
                .any(|m| m.from() == Some(from) && reaches(m, sq))
        {
            attempt = Some((from, sq));
        } else if own(sq) && state.selected != Some(sq) {
            state.selected = Some(sq);
        } else {
            state.selected = None;
        }
    }

    let mut played = None;
    if let Some((from, to)) = attempt {
        let candidates: Vec<&Move> = legal
            .iter()
            .filter(|m| m.from() == Some(from) && reaches(m, to))
            .collect();
        match candidates.as_slice() {
            [] => state.selected = own(to).then_some(to),
            [only] => {
                played = Some(**only);
                state.selected = None;
            }
            _ => state.promotion = Some((from, to)),
        }
    }

    let square = side / 8.0;
    if let Some((from, to)) = state.promotion {
        let picker = promotion_picker_ui(
            ui,
            id,
            rect,
            square,
            (from, to),
            orientation,
            position,
            look.pieces,
        );
        match picker {
            PickerOutcome::Open => {}
            PickerOutcome::Cancel => state.promotion = None,
            PickerOutcome::Pick(role) => {
                played = legal
                    .iter()
                    .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(role))
                    .copied();
                state = BoardState::default();
            }
        }
    }

    // 4. Paint.
    if ui.is_rect_visible(outer) {
        let layout = BoardLayout {
            rect,
            orientation,
            look,
            margin,
            pieces: shown == Pieces::Shown,
        };
        paint_board(ui, id, view, &layout, &state, &legal);
    }

    ui.data_mut(|d| d.insert_temp(id, state));
    BoardResponse {
        response,
        squares: rect,
        played,
    }
}

/// The accessible label of a square: `e4`, or `e4 white knight`.
pub fn square_label(position: &Chess, sq: Square) -> String {
    match position.board().piece_at(sq) {
        Some(piece) => format!("{sq} {}", pieces::piece_name(piece)),
        None => sq.to_string(),
    }
}

/// Whether releasing the piece of `mv` on `sq` means `mv` (castling also accepts the rook).
fn reaches(mv: &Move, sq: Square) -> bool {
    landing_square(mv) == sq || mv.to() == sq
}

enum PickerOutcome {
    Open,
    Cancel,
    Pick(Role),
}

/// The promotion picker: four squares over the promotion file, from the promotion square
/// towards the centre of the board.
#[expect(clippy::too_many_arguments)]
fn promotion_picker_ui(
    ui: &Ui,
    id: Id,
    board: Rect,
    square: f32,
    (from, to): (Square, Square),
    orientation: Orientation,
    position: &Chess,
    set: PieceSet,
) -> PickerOutcome {
    let color = position
        .board()
        .piece_at(from)
        .map_or(position.turn(), |p| p.color);
    let anchor = rect_from_square(board, to, orientation);
    let downwards = anchor.center().y < board.center().y;
    let top = if downwards {
        anchor.min
    } else {
        anchor.max - vec2(square, 4.0 * square)
    };
    let roles = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
    let area_id = id.with("promotion");
    let shown = egui::Area::new(area_id)
        .order(Order::Foreground)
        .fixed_pos(top)
        .constrain(false)
        .show(ui.ctx(), |ui| {
            let (picker, _) = ui.allocate_exact_size(vec2(square, 4.0 * square), Sense::hover());
            let painter = ui.painter();
            painter.rect_filled(picker, 4.0, Color32::from_gray(235));
            let mut picked = None;
            for (i, role) in roles.into_iter().enumerate() {
                let index = if downwards { i } else { 3 - i };
                let cell = Rect::from_min_size(
                    picker.min + vec2(0.0, index as f32 * square),
                    Vec2::splat(square),
                );
                let r = ui.interact(cell, area_id.with(i), Sense::click());
                let label = format!("Promote to {}", pieces::role_name(role));
                r.widget_info(|| WidgetInfo::labeled(egui::Role::Button, true, &label));
                let fill = if r.hovered() {
                    Color32::from_rgb(0xf2, 0x8c, 0x28)
                } else {
                    Color32::from_gray(200)
                };
                painter.circle_filled(cell.center(), square * 0.48, fill);
                let cell = cell.shrink(square * 0.1);
                pieces::paint_piece(ui.ctx(), painter, set, role.of(color), cell);
                if r.clicked() {
                    picked = Some(role);
                }
            }
            picked
        });
    if let Some(role) = shown.inner {
        return PickerOutcome::Pick(role);
    }
    let cancelled = ui.input(|i| {
        i.key_pressed(egui::Key::Escape) || i.pointer.button_clicked(egui::PointerButton::Secondary)
    });
    if cancelled {
        PickerOutcome::Cancel
    } else {
        PickerOutcome::Open
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::pos2;

    #[test]
    fn square_and_rect_round_trip_in_both_orientations() {
        let board = Rect::from_min_size(pos2(10.0, 20.0), Vec2::splat(400.0));
        for orientation in [Orientation::WhiteBottom, Orientation::BlackBottom] {
            for sq in Square::ALL {
                let r = rect_from_square(board, sq, orientation);
                assert_eq!(square_from_pos(board, r.center(), orientation), Some(sq));
            }
        }
        let a1 = rect_from_square(board, Square::A1, Orientation::WhiteBottom);
        assert_eq!(a1.left_bottom(), board.left_bottom());
        let a1 = rect_from_square(board, Square::A1, Orientation::BlackBottom);
        assert_eq!(a1.right_top(), board.right_top());
    }

    #[test]
    fn castling_lands_on_the_kings_square() {
        let castle = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(landing_square(&castle), Square::G1);
        assert!(reaches(&castle, Square::G1) && reaches(&castle, Square::H1));
        let long = Move::Castle {
            king: Square::E8,
            rook: Square::A8,
        };
        assert_eq!(landing_square(&long), Square::C8);
    }

    #[test]
    fn square_labels_name_the_piece() {
        let pos = Chess::default();
        assert_eq!(square_label(&pos, Square::E2), "e2 white pawn");
        assert_eq!(square_label(&pos, Square::G8), "g8 black knight");
        assert_eq!(square_label(&pos, Square::E4), "e4");
    }
}
