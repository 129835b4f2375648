//! The chess board widget: [`board_ui`].
//!
//! Written in the four steps of egui's `toggle_switch` demo: decide the size, allocate the
//! space, interact (one accessible widget per square, so a screen reader or a test can
//! click `e2` by name), paint. The widget never changes the game: it reports the legal
//! move the user made in [`BoardResponse::played`] and the caller decides what to do.
//!
//! Moves are made by click-click (select a piece, dots mark its legal targets, rings mark
//! captures, click a target) or by drag and drop (the piece follows the pointer; a drop on
//! a square it cannot reach snaps it back). A pawn reaching the last rank opens a picker
//! (queen, rook, bishop, knight). Castling is the king moving two squares (or onto its
//! rook). The small amount of state this needs (selection, drag, open picker) lives in
//! egui's temporary memory under the board's id.

use eframe::egui;
use egui::emath::GuiRounding as _;
use egui::{
    Align2, Color32, FontId, Id, Order, Pos2, Rect, Response, Sense, Shape, Stroke, Ui, Vec2,
    WidgetInfo, vec2,
};
use shakmaty::{Chess, File, Move, Piece, Position, Rank, Role, Square};

use super::pieces;

pub use crate::coach::settings::Orientation;

/// An arrow drawn over the board, e.g. a book move; thicker for a higher `weight`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Arrow {
    /// The square the arrow starts on.
    pub from: Square,
    /// The square the arrow points at.
    pub to: Square,
    /// Thickness from 0 (thinnest) to 1 (thickest): the move's probability.
    pub weight: f32,
    /// Fill colour (usually translucent).
    pub color: Color32,
}

impl Arrow {
    /// The arrow of a move (from its origin to where the piece lands; castling points at
    /// the king's destination).
    pub fn of_move(mv: &Move, weight: f32, color: Color32) -> Option<Arrow> {
        Some(Arrow {
            from: mv.from()?,
            to: landing_square(mv),
            weight,
            color,
        })
    }
}

/// What the board shows.
#[derive(Debug, Clone, Copy)]
pub struct BoardView<'a> {
    /// The position; legal moves come from it.
    pub position: &'a Chess,
    /// The last move played, highlighted.
    pub last_move: Option<&'a Move>,
    /// Whether the user may move pieces (false while the computer thinks, or when an
    /// earlier position is shown read-only).
    pub interactive: bool,
    /// Arrows to draw.
    pub arrows: &'a [Arrow],
    /// A square to highlight as a hint.
    pub hint: Option<Square>,
    /// A move being animated: its piece (already on its target in `position`) is drawn
    /// on its way there.
    pub animation: Option<SlidingPiece>,
}

/// A piece drawn between two squares while a move is animated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlidingPiece {
    /// Where the piece comes from.
    pub from: Square,
    /// Where it lands (its square in the position shown).
    pub to: Square,
    /// How far it has come, 0 to 1.
    pub progress: f32,
}

impl SlidingPiece {
    /// The piece of `mv` at `progress` (0 to 1) of its way.
    pub fn of_move(mv: &Move, progress: f32) -> Option<SlidingPiece> {
        Some(SlidingPiece {
            from: mv.from()?,
            to: landing_square(mv),
            progress: progress.clamp(0.0, 1.0),
        })
    }
}

impl<'a> BoardView<'a> {
    /// A view of `position` with nothing highlighted, accepting moves.
    pub fn new(position: &'a Chess) -> BoardView<'a> {
        BoardView {
            position,
            last_move: None,
            interactive: true,
            arrows: &[],
            hint: None,
            animation: None,
        }
    }
}

/// What happened on the board this frame.
#[derive(Debug)]
pub struct BoardResponse {
    /// The response of the whole board area.
    pub response: Response,
    /// A legal move the user completed this frame.
    pub played: Option<Move>,
}

/// Light squares (lichess brown).
const LIGHT: Color32 = Color32::from_rgb(0xf0, 0xd9, 0xb5);
/// Dark squares.
const DARK: Color32 = Color32::from_rgb(0xb5, 0x88, 0x63);
/// Last-move tint.
const LAST_MOVE: Color32 = Color32::from_rgba_premultiplied(64, 82, 0, 105);
/// Selected square, move dots and rings.
const MOVE_HINT: Color32 = Color32::from_rgba_premultiplied(10, 43, 15, 128);
/// The hinted piece.
const HINT: Color32 = Color32::from_rgba_premultiplied(0, 60, 110, 130);
/// The smallest square, in physical pixels.
const MIN_SQUARE_PX: f32 = 16.0;

/// Transient interaction state, kept in egui's memory between frames.
#[derive(Debug, Clone, Default)]
struct BoardState {
    selected: Option<Square>,
    dragging: Option<Square>,
    promotion: Option<(Square, Square)>,
}

/// The board widget: shows `view` with `orientation` and reports a move the user made.
///
/// The board takes the largest square that fits the available space, a whole number of
/// physical pixels per square so that the pieces rasterise crisply. Center it with the
/// surrounding layout.
pub fn board_ui(ui: &mut Ui, view: &BoardView<'_>, orientation: Orientation) -> BoardResponse {
    pieces::ensure_loaders(ui.ctx());

    // 1. Decide the size: the largest whole-pixel square that fits.
    let ppp = ui.pixels_per_point();
    let available = ui.available_size();
    let square_px = (available.x.min(available.y) * ppp / 8.0)
        .floor()
        .max(MIN_SQUARE_PX);
    let side = square_px * 8.0 / ppp;

    // 2. Allocate the space.
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let rect = Rect::from_min_size(rect.min.round_to_pixels(ppp), rect.size());

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
        let r = ui.interact(square_rect, id.with(u32::from(sq)), Sense::click_and_drag());
        let label = square_label(position, sq);
        let selected = state.selected == Some(sq);
        r.widget_info(|| {
            WidgetInfo::selected(egui::Role::Button, view.interactive, selected, &label)
        });
        if !view.interactive {
            continue;
        }
        if r.drag_started() && own(sq) {
            state.dragging = Some(sq);
            state.selected = Some(sq);
            state.promotion = None;
        }
        if r.drag_stopped() && state.dragging == Some(sq) {
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
        match promotion_picker_ui(ui, id, rect, square, from, to, orientation, position) {
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
    if ui.is_rect_visible(rect) {
        paint_board(ui, id, view, orientation, rect, &state, &legal);
    }

    ui.data_mut(|d| d.insert_temp(id, state));
    BoardResponse { response, played }
}

/// The accessible label of a square: `e4`, or `e4 white knight`.
pub fn square_label(position: &Chess, sq: Square) -> String {
    match position.board().piece_at(sq) {
        Some(piece) => format!("{sq} {}", pieces::piece_name(piece)),
        None => sq.to_string(),
    }
}

/// The screen rectangle of `sq` on a board drawn in `board`.
pub fn rect_from_square(board: Rect, sq: Square, orientation: Orientation) -> Rect {
    let (file, rank) = (u32::from(sq.file()) as f32, u32::from(sq.rank()) as f32);
    let (col, row) = match orientation {
        Orientation::WhiteBottom => (file, 7.0 - rank),
        Orientation::BlackBottom => (7.0 - file, rank),
    };
    let size = board.width() / 8.0;
    Rect::from_min_size(board.min + vec2(col * size, row * size), Vec2::splat(size))
}

/// The square under `pos` on a board drawn in `board`, if any.
pub fn square_from_pos(board: Rect, pos: Pos2, orientation: Orientation) -> Option<Square> {
    if !board.contains(pos) {
        return None;
    }
    let size = board.width() / 8.0;
    let col = (((pos.x - board.min.x) / size).floor() as u32).min(7);
    let row = (((pos.y - board.min.y) / size).floor() as u32).min(7);
    let (file, rank) = match orientation {
        Orientation::WhiteBottom => (col, 7 - row),
        Orientation::BlackBottom => (7 - col, row),
    };
    Some(Square::from_coords(File::new(file), Rank::new(rank)))
}

/// Where the moving piece lands: the destination, or for castling the king's square.
pub fn landing_square(mv: &Move) -> Square {
    match *mv {
        Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() {
                File::G
            } else {
                File::C
            };
            Square::from_coords(file, king.rank())
        }
        _ => mv.to(),
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
    from: Square,
    to: Square,
    orientation: Orientation,
    position: &Chess,
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
                pieces::paint_piece(ui.ctx(), painter, role.of(color), cell.shrink(square * 0.1));
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

fn paint_board(
    ui: &Ui,
    id: Id,
    view: &BoardView<'_>,
    orientation: Orientation,
    rect: Rect,
    state: &BoardState,
    legal: &shakmaty::MoveList,
) {
    let painter = ui.painter_at(rect.expand(1.0));
    let position = view.position;
    let size = rect.width() / 8.0;
    let ctx = ui.ctx();

    for sq in Square::ALL {
        let r = rect_from_square(rect, sq, orientation);
        painter.rect_filled(r, 0.0, if sq.is_light() { LIGHT } else { DARK });
    }
    if let Some(mv) = view.last_move {
        for sq in mv.from().into_iter().chain([landing_square(mv)]) {
            painter.rect_filled(rect_from_square(rect, sq, orientation), 0.0, LAST_MOVE);
        }
    }
    if let Some(sq) = state.selected {
        painter.rect_filled(rect_from_square(rect, sq, orientation), 0.0, MOVE_HINT);
    }
    if let Some(sq) = view.hint {
        let r = rect_from_square(rect, sq, orientation);
        painter.rect_filled(r, 0.0, HINT);
    }
    if position.is_check()
        && let Some(king) = position.board().king_of(position.turn())
    {
        let center = rect_from_square(rect, king, orientation).center();
        for i in 0..6 {
            let t = i as f32 / 6.0;
            painter.circle_filled(
                center,
                size * (0.72 - 0.5 * t),
                Color32::from_rgba_unmultiplied(255, 0, 0, 40 + (30.0 * t) as u8),
            );
        }
    }

    // Coordinates inside the edge squares, in the colour of the other squares.
    let font = FontId::proportional((size * 0.2).max(8.0));
    for i in 0..8u32 {
        let file = File::new(i);
        let rank = Rank::new(i);
        let bottom_rank = match orientation {
            Orientation::WhiteBottom => Rank::First,
            Orientation::BlackBottom => Rank::Eighth,
        };
        let left_file = match orientation {
            Orientation::WhiteBottom => File::A,
            Orientation::BlackBottom => File::H,
        };
        let sq = Square::from_coords(file, bottom_rank);
        let r = rect_from_square(rect, sq, orientation);
        painter.text(
            r.right_bottom() + vec2(-size * 0.05, -size * 0.02),
            Align2::RIGHT_BOTTOM,
            file.char(),
            font.clone(),
            if sq.is_light() { DARK } else { LIGHT },
        );
        let sq = Square::from_coords(left_file, rank);
        let r = rect_from_square(rect, sq, orientation);
        painter.text(
            r.left_top() + vec2(size * 0.05, size * 0.02),
            Align2::LEFT_TOP,
            rank.char(),
            font.clone(),
            if sq.is_light() { DARK } else { LIGHT },
        );
    }

    let sliding = view.animation.filter(|a| a.progress < 1.0);
    for (sq, piece) in position.board().clone() {
        let r = rect_from_square(rect, sq, orientation);
        if state.dragging == Some(sq) {
            painter.rect_filled(r, 0.0, MOVE_HINT);
            continue;
        }
        if let Some(a) = sliding
            && a.to == sq
        {
            // Ease out: fast at first, settling on the square.
            let t = 1.0 - (1.0 - a.progress).powi(3);
            let from = rect_from_square(rect, a.from, orientation);
            pieces::paint_piece(ctx, &painter, piece, from.translate((r.min - from.min) * t));
            continue;
        }
        pieces::paint_piece(ctx, &painter, piece, r);
    }

    // Targets of the selected piece: dots on empty squares, rings on captures.
    if let Some(from) = state.selected {
        for mv in legal.iter().filter(|m| m.from() == Some(from)) {
            let to = landing_square(mv);
            let r = rect_from_square(rect, to, orientation);
            if mv.is_capture() && !mv.is_en_passant() {
                painter.circle_stroke(r.center(), size * 0.44, Stroke::new(size * 0.08, MOVE_HINT));
            } else {
                painter.circle_filled(r.center(), size * 0.15, MOVE_HINT);
            }
        }
    }

    for arrow in view.arrows {
        paint_arrow(&painter, rect, orientation, arrow);
    }

    // The dragged piece follows the pointer, above everything else.
    if let Some(from) = state.dragging
        && let Some(piece) = position.board().piece_at(from)
        && let Some(pointer) = ui.input(|i| i.pointer.latest_pos())
    {
        if let Some(over) = square_from_pos(rect, pointer, orientation) {
            let r = rect_from_square(rect, over, orientation);
            painter.rect_stroke(
                r.shrink(size * 0.03),
                0.0,
                Stroke::new(size * 0.06, Color32::from_white_alpha(160)),
                egui::StrokeKind::Inside,
            );
        }
        let layer = egui::LayerId::new(Order::Tooltip, id.with("drag"));
        let drag_painter = ctx.layer_painter(layer);
        paint_drag(ctx, &drag_painter, piece, pointer, size);
    }
}

fn paint_drag(
    ctx: &egui::Context,
    painter: &egui::Painter,
    piece: Piece,
    pointer: Pos2,
    size: f32,
) {
    let r = Rect::from_center_size(pointer, Vec2::splat(size * 1.1));
    pieces::paint_piece(ctx, painter, piece, r);
}

fn paint_arrow(painter: &egui::Painter, board: Rect, orientation: Orientation, arrow: &Arrow) {
    let size = board.width() / 8.0;
    let start = rect_from_square(board, arrow.from, orientation).center();
    let end = rect_from_square(board, arrow.to, orientation).center();
    let dir = (end - start).normalized();
    if !dir.is_finite() {
        return;
    }
    let normal = vec2(-dir.y, dir.x);
    let width = size * (0.06 + 0.16 * arrow.weight.clamp(0.0, 1.0));
    let head_len = (width * 2.2).max(size * 0.3);
    let head_half = (width * 1.6).max(size * 0.18);
    let tip = end;
    let base = tip - dir * head_len;
    let start = start + dir * size * 0.15;
    if (base - start).dot(dir) <= 0.0 {
        return;
    }
    let half = normal * width / 2.0;
    painter.add(Shape::convex_polygon(
        vec![start + half, base + half, base - half, start - half],
        arrow.color,
        Stroke::NONE,
    ));
    painter.add(Shape::convex_polygon(
        vec![base + normal * head_half, tip, base - normal * head_half],
        arrow.color,
        Stroke::NONE,
    ));
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
