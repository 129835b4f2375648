//! The board encoding of the thesis (the weighted Metropolis–Hastings opening learner
//! Hastings follows; `ARCHITECTURE.md`, References): an 8×8 matrix of piece codes, and
//! the occupancy words that rule positions out of the graph cheaply.

use std::fmt;
use std::hash::{Hash, Hasher};

use shakmaty::{Board, Color, Move, Position, Role, Square};

/// The piece code of a white piece in the thesis's encoding (black adds 10).
///
/// Pawn 1, rook 2, knight 3, bishop 4, queen 5, king 6.
pub const fn role_code(role: Role) -> u8 {
    match role {
        Role::Pawn => 1,
        Role::Rook => 2,
        Role::Knight => 3,
        Role::Bishop => 4,
        Role::Queen => 5,
        Role::King => 6,
    }
}

/// A board as the thesis stores it: 8 rows of 8 piece codes.
///
/// Row 0 is rank 8 and column 0 is file a, so the matrix reads like a diagram
/// from White's side. Empty squares are 0, white pieces 1–6 (pawn, rook, knight,
/// bishop, queen, king) and black pieces 11–16.
///
/// ```
/// use hastings::book::BoardMatrix;
/// use shakmaty::Chess;
///
/// let m = BoardMatrix::from_position(&Chess::default());
/// assert_eq!(m.rows()[0], [12, 13, 14, 15, 16, 14, 13, 12]);
/// assert_eq!(m.rows()[7], [2, 3, 4, 5, 6, 4, 3, 2]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct BoardMatrix([[u8; 8]; 8]);

impl BoardMatrix {
    /// The matrix of a board.
    pub fn from_board(board: &Board) -> BoardMatrix {
        let mut rows = [[0u8; 8]; 8];
        for (sq, piece) in board {
            let code = role_code(piece.role) + if piece.color.is_black() { 10 } else { 0 };
            rows[7 - usize::from(sq.rank())][usize::from(sq.file())] = code;
        }
        BoardMatrix(rows)
    }

    /// The matrix of a position's board.
    pub fn from_position(pos: &impl Position) -> BoardMatrix {
        BoardMatrix::from_board(pos.board())
    }

    /// The rows, rank 8 first.
    pub const fn rows(&self) -> &[[u8; 8]; 8] {
        &self.0
    }

    /// How many squares differ between two matrices (the thesis's "2–4 squares").
    pub fn squares_changed(&self, other: &BoardMatrix) -> usize {
        self.0
            .iter()
            .flatten()
            .zip(other.0.iter().flatten())
            .filter(|(a, b)| a != b)
            .count()
    }

    fn set(&mut self, sq: Square, code: u8) {
        self.0[7 - usize::from(sq.rank())][usize::from(sq.file())] = code;
    }

    /// The matrix after `mv` by `color`, without replaying a position.
    ///
    /// `mv` must be a move of a position with this matrix (a legal move or a pseudo-legal
    /// one); the result is the matrix of the position after it.
    #[must_use]
    pub fn after_move(&self, mv: Move, color: Color) -> BoardMatrix {
        let base = if color.is_black() { 10 } else { 0 };
        let mut m = *self;
        let (emptied, put) = board_edits(mv, color);
        for sq in emptied.into_iter().flatten() {
            m.set(sq, 0);
        }
        for (sq, role) in put.into_iter().flatten() {
            m.set(sq, base + role_code(role));
        }
        m
    }

    fn words(&self) -> [u64; 8] {
        self.0.map(u64::from_le_bytes)
    }
}

/// The squares a move empties and the pieces (square, role) it puts there.
pub(crate) type BoardEdits = ([Option<Square>; 2], [Option<(Square, Role)>; 2]);

/// What `mv` by `color` does to the board, read without a position: the squares it
/// empties, then the pieces it puts there (a castle puts the king and the rook).
pub(crate) fn board_edits(mv: Move, color: Color) -> BoardEdits {
    match mv {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => (
            [Some(from), None],
            [Some((to, promotion.unwrap_or(role))), None],
        ),
        Move::EnPassant { from, to } => {
            let taken = Square::from_coords(to.file(), from.rank());
            ([Some(from), Some(taken)], [Some((to, Role::Pawn)), None])
        }
        Move::Castle { king, rook } => {
            let side = shakmaty::CastlingSide::from_king_side(king < rook);
            let put = [
                (side.king_to(color), Role::King),
                (side.rook_to(color), Role::Rook),
            ];
            ([Some(king), Some(rook)], put.map(Some))
        }
        Move::Put { role, to } => ([None, None], [Some((to, role)), None]),
    }
}

impl Hash for BoardMatrix {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for w in self.words() {
            state.write_u64(w);
        }
    }
}

impl fmt::Display for BoardMatrix {
    /// Eight lines of eight right-aligned codes, rank 8 first, as in the thesis's figures.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            for (j, code) in row.iter().enumerate() {
                if j > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{code:2}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for BoardMatrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BoardMatrix(\n{self}\n)")
    }
}

/// The occupied squares and side to move of a position, as one word: equal keys give
/// equal words, so a word missing from a graph's set rules the position out.
#[inline]
pub(crate) fn occupancy_word(occupied: shakmaty::Bitboard, turn: shakmaty::Color) -> u64 {
    const BLACK: u64 = 0x9e37_79b9_7f4a_7c15;
    occupied.0 ^ if turn.is_black() { BLACK } else { 0 }
}

/// The occupancy word after `mv` by `mover`, from the squares occupied before it.
///
/// Inlined: the transposition scan calls it for every legal move of every node.
#[inline]
pub(crate) fn occupancy_key(occupied: shakmaty::Bitboard, mv: Move, mover: shakmaty::Color) -> u64 {
    use shakmaty::{Bitboard, CastlingSide, Square};
    let after = match mv {
        Move::Normal { from, to, .. } => (occupied & !Bitboard::from(from)) | Bitboard::from(to),
        Move::EnPassant { from, to } => {
            let taken = Square::from_coords(to.file(), from.rank());
            (occupied & !Bitboard::from(from) & !Bitboard::from(taken)) | Bitboard::from(to)
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            (occupied & !Bitboard::from(king) & !Bitboard::from(rook))
                | Bitboard::from(side.king_to(mover))
                | Bitboard::from(side.rook_to(mover))
        }
        Move::Put { to, .. } => occupied | Bitboard::from(to),
    };
    occupancy_word(after, !mover)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use shakmaty::Chess;

    /// Positions whose moves test the incremental updates (of the matrix and of the
    /// node key): castling both ways, en passant, promotion with capture, plain moves.
    pub(crate) fn update_positions() -> Vec<(&'static str, Chess)> {
        use shakmaty::CastlingMode;
        use shakmaty::fen::Fen;
        [
            "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R b KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r1bqkbnr/pPpppppp/8/8/8/8/P1PPPPPP/RNBQKBNR w KQkq - 0 1",
        ]
        .into_iter()
        .map(|fen| {
            let pos = Fen::from_ascii(fen.as_bytes())
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            (fen, pos)
        })
        .collect()
    }

    #[test]
    fn matrix_updates_agree_with_replayed_positions() {
        for (fen, pos) in update_positions() {
            let matrix = BoardMatrix::from_position(&pos);
            for mv in pos.legal_moves() {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                assert_eq!(
                    matrix.after_move(mv, pos.turn()),
                    BoardMatrix::from_position(&next),
                    "{fen} {mv:?}"
                );
                assert_eq!(
                    occupancy_key(pos.board().occupied(), mv, pos.turn()),
                    occupancy_word(next.board().occupied(), next.turn()),
                    "{fen} {mv:?}"
                );
            }
        }
    }

    #[test]
    fn start_matrix_prints_like_the_thesis() {
        let m = BoardMatrix::from_position(&Chess::default());
        let text = m.to_string();
        let first = text.lines().next().unwrap();
        assert_eq!(first, "12 13 14 15 16 14 13 12");
        assert_eq!(text.lines().count(), 8);
        assert_eq!(text.lines().nth(3).unwrap(), " 0  0  0  0  0  0  0  0");
    }
}
