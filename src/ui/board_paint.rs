//! Painting the board of `board::board_ui`: the squares in the theme's colours,
//! the highlights, the coordinates (inside the edge squares, in a margin outside, or
//! none), the pieces of the chosen set, the move targets, the arrows and the dragged
//! piece.

use eframe::egui;
use egui::{Align2, Color32, FontId, Id, Order, Pos2, Rect, Shape, Stroke, Ui, Vec2, vec2};
use shakmaty::{File, Piece, Position, Rank, Square};

use super::board_theme::{BoardColors, board_colors};
use super::board_view::{Arrow, BoardState, BoardView, landing_square};
use super::board_view::{rect_from_square, square_from_pos};
use super::pieces;
use crate::coach::board_look::{BoardLook, Coordinates, PieceSet};
use crate::coach::settings::Orientation;

/// Where and how a board is painted.
#[derive(Debug, Clone, Copy)]
pub(super) struct BoardLayout {
    /// The squares (without the margin of outside coordinates).
    pub(super) rect: Rect,
    /// Which side is at the bottom.
    pub(super) orientation: Orientation,
    /// Theme, pieces and coordinates.
    pub(super) look: BoardLook,
    /// The margin left of and below the squares for outside coordinates (0 without).
    pub(super) margin: f32,
    /// Whether the pieces are drawn (blindfold training hides them, and with them the
    /// check, the move targets and the dragged piece, which would show where they are).
    pub(super) pieces: bool,
}

/// The margin left of and below the board that outside coordinates take, for a board
/// placed in `available` points.
pub(super) fn coordinates_margin(look: &BoardLook, available: Vec2) -> f32 {
    match look.coordinates {
        Coordinates::Outside => (available.min_elem() * 0.035).clamp(10.0, 18.0),
        Coordinates::Inside | Coordinates::Off => 0.0,
    }
}

/// Paints the whole board for this frame.
pub(super) fn paint_board(
    ui: &Ui,
    id: Id,
    view: &BoardView<'_>,
    layout: &BoardLayout,
    state: &BoardState,
    legal: &shakmaty::MoveList,
) {
    let BoardLayout {
        rect,
        orientation,
        look,
        margin,
        pieces: shown,
    } = *layout;
    let colors = board_colors(look.theme);
    let clip = rect.expand(1.0);
    let clip = Rect::from_min_max(clip.min - vec2(margin, 0.0), clip.max + vec2(0.0, margin));
    let painter = ui.painter_at(clip);
    let position = view.position;
    let size = rect.width() / 8.0;
    let ctx = ui.ctx();

    for sq in Square::ALL {
        let r = rect_from_square(rect, sq, orientation);
        let fill = if sq.is_light() {
            colors.light
        } else {
            colors.dark
        };
        painter.rect_filled(r, 0.0, fill);
    }
    if let Some(mv) = view.last_move {
        for sq in mv.from().into_iter().chain([landing_square(mv)]) {
            let r = rect_from_square(rect, sq, orientation);
            painter.rect_filled(r, 0.0, colors.last_move);
        }
    }
    if let Some(sq) = state.selected {
        let r = rect_from_square(rect, sq, orientation);
        painter.rect_filled(r, 0.0, colors.move_hint);
    }
    if let Some(sq) = view.hint {
        let r = rect_from_square(rect, sq, orientation);
        painter.rect_filled(r, 0.0, colors.hint);
    }
    if shown
        && position.is_check()
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

    match look.coordinates {
        Coordinates::Inside => paint_coordinates_inside(&painter, layout, &colors),
        Coordinates::Outside => {
            let color = ui.visuals().text_color();
            paint_coordinates_outside(&painter, layout, color);
        }
        Coordinates::Off => {}
    }

    let sliding = view.animation.filter(|a| a.progress < 1.0);
    let drawn = if shown {
        position.board().clone()
    } else {
        shakmaty::Board::empty()
    };
    for (sq, piece) in drawn {
        let r = rect_from_square(rect, sq, orientation);
        if state.dragging == Some(sq) {
            painter.rect_filled(r, 0.0, colors.move_hint);
            continue;
        }
        if let Some(a) = sliding
            && a.to == sq
        {
            // Ease out: fast at first, settling on the square.
            let t = 1.0 - (1.0 - a.progress).powi(3);
            let from = rect_from_square(rect, a.from, orientation);
            let at = from.translate((r.min - from.min) * t);
            pieces::paint_piece(ctx, &painter, look.pieces, piece, at);
            continue;
        }
        pieces::paint_piece(ctx, &painter, look.pieces, piece, r);
    }

    // Targets of the selected piece: dots on empty squares, rings on captures.
    if let Some(from) = state.selected.filter(|_| shown) {
        for mv in legal.iter().filter(|m| m.from() == Some(from)) {
            let to = landing_square(mv);
            let r = rect_from_square(rect, to, orientation);
            if mv.is_capture() && !mv.is_en_passant() {
                let ring = Stroke::new(size * 0.08, colors.move_hint);
                painter.circle_stroke(r.center(), size * 0.44, ring);
            } else {
                painter.circle_filled(r.center(), size * 0.15, colors.move_hint);
            }
        }
    }

    for shape in arrow_shapes(rect, orientation, view.arrows) {
        paint_arrow(&painter, &shape);
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
        if shown {
            let layer = egui::LayerId::new(Order::Tooltip, id.with("drag"));
            let drag_painter = ctx.layer_painter(layer);
            paint_drag(ctx, &drag_painter, look.pieces, piece, pointer, size);
        }
    }
}

/// The squares of the bottom rank and of the left file as seen, with their file and
/// rank.
fn edge_squares(orientation: Orientation) -> impl Iterator<Item = (Square, Square, u32)> {
    let (bottom_rank, left_file) = match orientation {
        Orientation::WhiteBottom => (Rank::First, File::A),
        Orientation::BlackBottom => (Rank::Eighth, File::H),
    };
    (0..8u32).map(move |i| {
        (
            Square::from_coords(File::new(i), bottom_rank),
            Square::from_coords(left_file, Rank::new(i)),
            i,
        )
    })
}

/// Coordinates inside the edge squares, in the colour of the other squares: the file in
/// the bottom-right corner of the bottom rank, the rank in the top-left corner of the
/// left file.
fn paint_coordinates_inside(painter: &egui::Painter, layout: &BoardLayout, colors: &BoardColors) {
    let (rect, orientation) = (layout.rect, layout.orientation);
    let size = rect.width() / 8.0;
    let font = FontId::proportional((size * 0.2).max(8.0));
    let other = |sq: Square| {
        if sq.is_light() {
            colors.dark
        } else {
            colors.light
        }
    };
    for (file_sq, rank_sq, i) in edge_squares(orientation) {
        let r = rect_from_square(rect, file_sq, orientation);
        painter.text(
            r.right_bottom() + vec2(-size * 0.05, -size * 0.02),
            Align2::RIGHT_BOTTOM,
            File::new(i).char(),
            font.clone(),
            other(file_sq),
        );
        let r = rect_from_square(rect, rank_sq, orientation);
        painter.text(
            r.left_top() + vec2(size * 0.05, size * 0.02),
            Align2::LEFT_TOP,
            Rank::new(i).char(),
            font.clone(),
            other(rank_sq),
        );
    }
}

/// Coordinates in the margin: the files centred below the board, the ranks centred left
/// of it, in the text colour.
fn paint_coordinates_outside(painter: &egui::Painter, layout: &BoardLayout, color: Color32) {
    let (rect, orientation, margin) = (layout.rect, layout.orientation, layout.margin);
    let font = FontId::proportional(margin * 0.75);
    for (file_sq, rank_sq, i) in edge_squares(orientation) {
        let r = rect_from_square(rect, file_sq, orientation);
        painter.text(
            Pos2::new(r.center().x, rect.bottom() + margin / 2.0),
            Align2::CENTER_CENTER,
            File::new(i).char(),
            font.clone(),
            color,
        );
        let r = rect_from_square(rect, rank_sq, orientation);
        painter.text(
            Pos2::new(rect.left() - margin / 2.0, r.center().y),
            Align2::CENTER_CENTER,
            Rank::new(i).char(),
            font.clone(),
            color,
        );
    }
}

fn paint_drag(
    ctx: &egui::Context,
    painter: &egui::Painter,
    set: PieceSet,
    piece: Piece,
    pointer: Pos2,
    size: f32,
) {
    let r = Rect::from_center_size(pointer, Vec2::splat(size * 1.1));
    pieces::paint_piece(ctx, painter, set, piece, r);
}

/// How far apart, in squares, the arrows that would lie on each other are drawn: more
/// than the widest two half shafts (0.11 each), so that a refutation's arrow from d4 to
/// c5 does not hide the book's from c5 to d4.
const ARROW_ASIDE: f32 = 0.3;

/// An arrow as drawn, in points: its shaft (a quadrilateral along the arrow, the start's
/// two corners first) and its head (a triangle, the tip in the middle).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct ArrowShape {
    /// The shaft's corners: start left, base left, base right, start right.
    pub(super) shaft: [Pos2; 4],
    /// The head's corners: base left, tip, base right.
    pub(super) head: [Pos2; 3],
    /// Fill colour.
    pub(super) color: Color32,
}

/// Whether arrows `a` and `b` lie on one line of squares and share a stretch of it (in
/// either direction): drawn alike, one would hide the other.
fn arrows_overlap(a: &Arrow, b: &Arrow) -> bool {
    let at = |sq: Square| (i32::from(sq.file()), i32::from(sq.rank()));
    let (a0, a1, b0, b1) = (at(a.from), at(a.to), at(b.from), at(b.to));
    let d = (a1.0 - a0.0, a1.1 - a0.1);
    let rel = |p: (i32, i32)| (p.0 - a0.0, p.1 - a0.1);
    let cross = |p: (i32, i32)| d.0 * rel(p).1 - d.1 * rel(p).0;
    let along = |p: (i32, i32)| d.0 * rel(p).0 + d.1 * rel(p).1;
    if d == (0, 0) || cross(b0) != 0 || cross(b1) != 0 {
        return false;
    }
    let (lo, hi) = (along(b0).min(along(b1)), along(b0).max(along(b1)));
    lo.max(0) < hi.min(d.0 * d.0 + d.1 * d.1)
}

/// The shapes of `arrows` on `board`: each arrow from the centre of its square to the
/// centre of its target; arrows that would lie on each other are drawn side by side,
/// [`ARROW_ASIDE`] of a square apart, around their line. An arrow too short for its
/// head is left out.
pub(super) fn arrow_shapes(
    board: Rect,
    orientation: Orientation,
    arrows: &[Arrow],
) -> Vec<ArrowShape> {
    let size = board.width() / 8.0;
    arrows
        .iter()
        .enumerate()
        .filter_map(|(i, arrow)| {
            let start = rect_from_square(board, arrow.from, orientation).center();
            let end = rect_from_square(board, arrow.to, orientation).center();
            let dir = (end - start).normalized();
            if !dir.is_finite() {
                return None;
            }
            let normal = vec2(-dir.y, dir.x);
            // Side by side: this arrow's lane among those on its line, the lanes on
            // one side of the line the same for both directions.
            let lane = arrows[..i]
                .iter()
                .filter(|a| arrows_overlap(a, arrow))
                .count();
            let lanes = arrows.iter().filter(|a| arrows_overlap(a, arrow)).count();
            let forward =
                (arrow.to.file(), arrow.to.rank()) > (arrow.from.file(), arrow.from.rank());
            let side = if forward { normal } else { -normal };
            let aside = side * size * ARROW_ASIDE * (lane as f32 - (lanes as f32 - 1.0) / 2.0);
            let width = size * (0.06 + 0.16 * arrow.weight.clamp(0.0, 1.0));
            let head_len = (width * 2.2).max(size * 0.3);
            let head_half = (width * 1.6).max(size * 0.18);
            let tip = end + aside;
            let base = tip - dir * head_len;
            let start = start + aside + dir * size * 0.15;
            if (base - start).dot(dir) <= 0.0 {
                return None;
            }
            let half = normal * width / 2.0;
            Some(ArrowShape {
                shaft: [start + half, base + half, base - half, start - half],
                head: [base + normal * head_half, tip, base - normal * head_half],
                color: arrow.color,
            })
        })
        .collect()
}

fn paint_arrow(painter: &egui::Painter, shape: &ArrowShape) {
    painter.add(Shape::convex_polygon(
        shape.shaft.to_vec(),
        shape.color,
        Stroke::NONE,
    ));
    painter.add(Shape::convex_polygon(
        shape.head.to_vec(),
        shape.color,
        Stroke::NONE,
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrow(from: Square, to: Square, weight: f32) -> Arrow {
        Arrow {
            from,
            to,
            weight,
            color: Color32::RED,
        }
    }

    /// The distance between the centre lines of two parallel shafts, and the sum of
    /// their half widths.
    fn apart(a: &ArrowShape, b: &ArrowShape) -> (f32, f32) {
        let centre = |s: &ArrowShape| {
            (
                s.shaft[0] + (s.shaft[3] - s.shaft[0]) / 2.0,
                s.shaft[1] + (s.shaft[2] - s.shaft[1]) / 2.0,
            )
        };
        let half = |s: &ArrowShape| (s.shaft[0] - s.shaft[3]).length() / 2.0;
        let (a0, a1) = centre(a);
        let (b0, _) = centre(b);
        let dir = (a1 - a0).normalized();
        let normal = vec2(-dir.y, dir.x);
        ((b0 - a0).dot(normal).abs(), half(a) + half(b))
    }

    /// The book's 3...cxd4 (c5 to d4) and the refutation's 4.dxc5 (d4 to c5), the
    /// strongest arrows on the same squares, and two arrows of one move: the shafts are
    /// drawn apart, on both orientations.
    #[test]
    fn arrows_on_the_same_squares_are_drawn_apart() {
        let board = Rect::from_min_size(Pos2::new(10.0, 20.0), vec2(480.0, 480.0));
        let pairs = [
            (Square::C5, Square::D4, Square::D4, Square::C5),
            (Square::E2, Square::E4, Square::E2, Square::E4),
            (Square::D1, Square::D5, Square::D8, Square::D4),
            (Square::A1, Square::H8, Square::H8, Square::A1),
        ];
        for orientation in [Orientation::WhiteBottom, Orientation::BlackBottom] {
            for (a0, a1, b0, b1) in pairs {
                let arrows = [arrow(a0, a1, 1.0), arrow(b0, b1, 1.0)];
                let shapes = arrow_shapes(board, orientation, &arrows);
                assert_eq!(shapes.len(), 2);
                assert_ne!(shapes[0].shaft, shapes[1].shaft);
                let (distance, halves) = apart(&shapes[0], &shapes[1]);
                assert!(
                    distance > halves,
                    "{a0}{a1} and {b0}{b1}: shafts {distance:.1} apart, {halves:.1} wide"
                );
            }
        }
    }

    #[test]
    fn arrows_on_other_lines_stay_on_their_squares() {
        let board = Rect::from_min_size(Pos2::ZERO, vec2(400.0, 400.0));
        // A crossing, a knight's move beside a line, and a line that only touches
        // another at a square.
        for (a0, a1, b0, b1) in [
            (Square::C5, Square::D4, Square::C4, Square::D5),
            (Square::G1, Square::F3, Square::E2, Square::E4),
            (Square::E2, Square::E4, Square::E4, Square::E6),
        ] {
            let arrows = [arrow(a0, a1, 0.5), arrow(b0, b1, 0.5)];
            let shapes = arrow_shapes(board, Orientation::WhiteBottom, &arrows);
            let tip = rect_from_square(board, b1, Orientation::WhiteBottom).center();
            assert!(
                (shapes[1].head[1] - tip).length() < 1e-3,
                "{b0}{b1} was moved aside"
            );
        }
        assert!(!arrows_overlap(
            &arrow(Square::E2, Square::E4, 1.0),
            &arrow(Square::E4, Square::E6, 1.0)
        ));
        assert!(arrows_overlap(
            &arrow(Square::D1, Square::D5, 1.0),
            &arrow(Square::D8, Square::D4, 1.0)
        ));
    }
}
