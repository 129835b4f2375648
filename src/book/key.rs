//! The node key: the placement of the pieces and the side to move, in 33 bytes.

use std::fmt;

use shakmaty::{Bitboard, Board, ByColor, ByRole, Color, Move, Position, Role, Square};

use super::matrix::{BoardMatrix, board_edits};

/// The identity of a node in the position graph: the pieces and the side to move.
///
/// Castling and en-passant rights are deliberately not part of the key, so that
/// lines which reach the same placement of pieces by different move orders meet. Two
/// keys are equal exactly when the positions' [`BoardMatrix`] and side to move are.
///
/// The pieces are kept as four bitboards (the three bits of each square's role number,
/// and the white pieces), so a key is read off a board in a few instructions, and
/// costs 40 bytes where the matrix costs 64.
///
/// ```
/// use hastings::book::NodeKey;
/// use shakmaty::{Chess, Color};
///
/// let key = NodeKey::from_position(&Chess::default());
/// assert_eq!(key.turn(), Color::White);
/// assert_eq!(key.matrix().rows()[7], [2, 3, 4, 5, 6, 4, 3, 2]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeKey {
    /// Bit `i` of each square's role number (pawn 1 … king 6), then the white pieces.
    planes: [u64; 4],
    turn: Color,
}

const WHITE: usize = 3;

/// The role numbers' bit planes of a board's pieces: `(bit 0, bit 1, bit 2)`.
const fn role_bits(role: Role) -> [bool; 3] {
    let n = role as u8;
    [n & 1 != 0, n & 2 != 0, n & 4 != 0]
}

impl NodeKey {
    /// The key of a position.
    pub fn from_position(pos: &impl Position) -> NodeKey {
        NodeKey::from_board(pos.board(), pos.turn())
    }

    /// The key of a board with `turn` to move.
    pub fn from_board(board: &Board, turn: Color) -> NodeKey {
        let r = |role| board.by_role(role).0;
        let (p, n, b, rk, q, k) = (
            r(Role::Pawn),
            r(Role::Knight),
            r(Role::Bishop),
            r(Role::Rook),
            r(Role::Queen),
            r(Role::King),
        );
        NodeKey {
            planes: [p | b | q, n | b | k, rk | q | k, board.white().0],
            turn,
        }
    }

    /// The side to move.
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The thesis's 8×8 matrix of the pieces.
    pub fn matrix(&self) -> BoardMatrix {
        BoardMatrix::from_board(&self.board())
    }

    /// The squares with a piece.
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.planes[0] | self.planes[1] | self.planes[2])
    }

    /// The pieces as a board.
    pub fn board(&self) -> Board {
        let [b0, b1, b2, white] = self.planes;
        let by_role = ByRole {
            pawn: Bitboard(b0 & !b1 & !b2),
            knight: Bitboard(!b0 & b1 & !b2),
            bishop: Bitboard(b0 & b1 & !b2),
            rook: Bitboard(!b0 & !b1 & b2),
            queen: Bitboard(b0 & !b1 & b2),
            king: Bitboard(!b0 & b1 & b2),
        };
        let occupied = b0 | b1 | b2;
        let by_color = ByColor {
            white: Bitboard(white),
            black: Bitboard(occupied & !white),
        };
        // The planes come from a board, so they are consistent; an empty board is the
        // answer to a bug, never a panic.
        Board::try_from_bitboards(by_role, by_color).unwrap_or_else(|_| Board::empty())
    }

    fn clear(&mut self, sq: Square) {
        let mask = !(1u64 << u32::from(sq));
        for p in &mut self.planes {
            *p &= mask;
        }
    }

    fn put(&mut self, sq: Square, role: Role, color: Color) {
        self.clear(sq);
        let bit = 1u64 << u32::from(sq);
        for (plane, on) in self.planes.iter_mut().zip(role_bits(role)) {
            if on {
                *plane |= bit;
            }
        }
        if color.is_white() {
            self.planes[WHITE] |= bit;
        }
    }

    /// The key after `mv`, computed on the key alone.
    ///
    /// `mv` must be a move of a position with this key (a legal move or a pseudo-legal
    /// one); the result is the key of the position after it.
    #[must_use]
    pub fn after_move(&self, mv: Move) -> NodeKey {
        let color = self.turn;
        let mut k = *self;
        let (emptied, put) = board_edits(mv, color);
        for sq in emptied.into_iter().flatten() {
            k.clear(sq);
        }
        for (sq, role) in put.into_iter().flatten() {
            k.put(sq, role, color);
        }
        k.turn = !color;
        k
    }

    /// The four bitboards (role bits 0–2, white pieces), for compact storage.
    pub(crate) const fn planes(&self) -> [u64; 4] {
        self.planes
    }

    /// The key of [`NodeKey::planes`] and `turn`.
    pub(crate) const fn from_planes(planes: [u64; 4], turn: Color) -> NodeKey {
        NodeKey { planes, turn }
    }

    /// A well-mixed 64-bit hash of the key (for the graph's index).
    pub(crate) fn hash64(&self) -> u64 {
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut h = u64::from(self.turn.is_black());
        for w in self.planes {
            h = (h ^ w).wrapping_mul(K).rotate_left(29);
        }
        // Final avalanche (the murmur3 finaliser).
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

impl fmt::Debug for NodeKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NodeKey")
            .field("matrix", &self.matrix())
            .field("turn", &self.turn)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;

    #[test]
    fn key_updates_agree_with_replayed_positions() {
        for (fen, pos) in crate::book::matrix::tests::update_positions() {
            let key = NodeKey::from_position(&pos);
            assert_eq!(&key.board(), pos.board(), "{fen}");
            assert_eq!(key.occupied(), pos.board().occupied(), "{fen}");
            assert_eq!(key.matrix(), BoardMatrix::from_position(&pos), "{fen}");
            for mv in pos.legal_moves() {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                assert_eq!(
                    key.after_move(mv),
                    NodeKey::from_position(&next),
                    "{fen} {mv:?}"
                );
            }
        }
    }

    #[test]
    fn side_to_move_separates_keys() {
        let pos = Chess::default();
        let a = NodeKey::from_position(&pos);
        let b = NodeKey::from_board(pos.board(), Color::Black);
        assert_ne!(a, b);
        assert_ne!(a.hash64(), b.hash64());
    }
}
