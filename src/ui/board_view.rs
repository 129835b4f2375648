//! What the board widget ([`super::board::board_ui`]) shows and keeps between frames, and
//! where squares are on the screen: shared by the widget's interaction (`board`) and its
//! painting (`board_paint`), so that neither names the other's internals.

use eframe::egui;
use egui::{Color32, Pos2, Rect, Vec2, vec2};
use shakmaty::{Chess, File, Move, Rank, Square};

use crate::coach::settings::Orientation;

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

/// Transient interaction state, kept in egui's memory between frames.
#[derive(Debug, Clone, Default)]
pub(super) struct BoardState {
    /// The square whose piece was picked (its moves are shown).
    pub(super) selected: Option<Square>,
    /// The square whose piece is being dragged.
    pub(super) dragging: Option<Square>,
    /// An open promotion picker: the pawn's move.
    pub(super) promotion: Option<(Square, Square)>,
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
