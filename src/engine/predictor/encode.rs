//! The predictor's view of a position: 14 bitboards seen from the side to move, and
//! moves as 16-bit numbers in the same frame (the training set's encoding 1, written out
//! in `training/DATASET.md`).
//!
//! The board is mirrored when Black is to move (square `s` becomes `s ^ 56`, colours
//! swapped), so the network always sees the mover playing up the board from rank 1 and
//! learns one set of patterns for both colours instead of two.
//!
//! | plane | what |
//! |---|---|
//! | 0–5 | the mover's pawns, knights, bishops, rooks, queens, king |
//! | 6–11 | the opponent's pawns, knights, bishops, rooks, queens, king |
//! | 12 | the en-passant square, only when an en-passant capture is legal |
//! | 13 | the rooks that may still castle |
//!
//! A move is `from | to << 6 | promotion << 12` (promotion 0 none, 1 knight, 2 bishop,
//! 3 rook, 4 queen); castling is the king's two-square move (`e1g1`).
//!
//! ```
//! use hastings::engine::predictor::{MoveCode, encode_board, legal_moves};
//! use shakmaty::Chess;
//!
//! let start = Chess::default();
//! let planes = encode_board(&start);
//! assert_eq!(planes[0], 0xff00); // the mover's pawns on rank 2
//! assert_eq!(planes[13], 0x8100_0000_0000_0081); // four rooks may castle
//! let moves = legal_moves(&start);
//! assert_eq!(moves.len(), 20);
//! assert!(moves.iter().any(|(code, _)| code.to_string() == "e2e4"));
//! ```

use std::fmt;

use shakmaty::{Bitboard, Chess, Color, EnPassantMode, Move, Position, Role, Square};

pub use hastings_net::{ENCODING, PLANES};

/// The roles in plane order.
const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// A move in the predictor's frame: `from | to << 6 | promotion << 12`, squares seen
/// from the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveCode(pub u16);

impl MoveCode {
    /// The origin square, in the mover's frame (0 = a1).
    pub fn from_index(self) -> usize {
        usize::from(self.0 & 63)
    }

    /// The destination square, in the mover's frame.
    pub fn to_index(self) -> usize {
        usize::from((self.0 >> 6) & 63)
    }

    /// 0 for no promotion, else 1 knight, 2 bishop, 3 rook, 4 queen.
    pub fn promotion_index(self) -> usize {
        usize::from((self.0 >> 12) & 7)
    }

    /// The code of `mv`, played by `turn`.
    pub fn of(mv: &Move, turn: Color) -> MoveCode {
        let (from, to) = match *mv {
            Move::Castle { king, rook } => {
                let file = if rook.file() > king.file() {
                    shakmaty::File::G
                } else {
                    shakmaty::File::C
                };
                (king, Square::from_coords(file, king.rank()))
            }
            _ => (mv.from().unwrap_or(mv.to()), mv.to()),
        };
        let promotion = match mv.promotion() {
            Some(Role::Knight) => 1,
            Some(Role::Bishop) => 2,
            Some(Role::Rook) => 3,
            Some(Role::Queen) => 4,
            _ => 0,
        };
        let frame = |sq: Square| u16::from(relative(sq, turn));
        MoveCode(frame(from) | frame(to) << 6 | promotion << 12)
    }
}

impl fmt::Display for MoveCode {
    /// The move in UCI notation in the mover's frame (as if White were to move).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let square = |i: usize| Square::new(i as u32);
        write!(
            f,
            "{}{}",
            square(self.from_index()),
            square(self.to_index())
        )?;
        match self.promotion_index() {
            1 => f.write_str("n"),
            2 => f.write_str("b"),
            3 => f.write_str("r"),
            4 => f.write_str("q"),
            _ => Ok(()),
        }
    }
}

/// `sq` seen from `turn`: mirrored vertically for Black.
fn relative(sq: Square, turn: Color) -> u8 {
    match turn {
        Color::White => u8::from(sq),
        Color::Black => u8::from(sq) ^ 56,
    }
}

/// `bb` seen from `turn`.
fn relative_bb(bb: Bitboard, turn: Color) -> u64 {
    match turn {
        Color::White => bb.0,
        Color::Black => bb.0.swap_bytes(),
    }
}

/// The 14 bitboards of `pos`, seen from the side to move.
pub fn encode_board(pos: &Chess) -> [u64; PLANES] {
    let turn = pos.turn();
    let board = pos.board();
    let mut planes = [0u64; PLANES];
    for (i, role) in ROLES.iter().enumerate() {
        let pieces = board.by_role(*role);
        planes[i] = relative_bb(pieces & board.by_color(turn), turn);
        planes[6 + i] = relative_bb(pieces & board.by_color(!turn), turn);
    }
    if let Some(ep) = pos.ep_square(EnPassantMode::Legal) {
        planes[12] = 1 << relative(ep, turn);
    }
    planes[13] = relative_bb(pos.castles().castling_rights(), turn);
    planes
}

/// The legal moves of `pos` with their codes, in shakmaty's generation order.
pub fn legal_moves(pos: &Chess) -> Vec<(MoveCode, Move)> {
    let turn = pos.turn();
    pos.legal_moves()
        .into_iter()
        .map(|mv| (MoveCode::of(&mv, turn), mv))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn black_to_move_sees_the_board_mirrored_with_colours_swapped() {
        let pos = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let planes = encode_board(&pos);
        // Black's pawns, mirrored to rank 2.
        assert_eq!(planes[0], 0xff00);
        // White's pawns as the opponent: rank 7 but e4 → e5 after the mirror.
        assert_eq!(planes[6], 0x00ef_0010_0000_0000);
        // Black's king on e8 is seen on e1.
        assert_eq!(planes[5], 1 << 4);
        assert_eq!(planes[12], 0, "no legal en-passant capture");
    }

    #[test]
    fn en_passant_is_marked_only_when_the_capture_is_legal() {
        let pos = position("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        assert_eq!(encode_board(&pos)[12], 1 << u8::from(Square::F6));
        let pos = position("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2");
        assert_eq!(encode_board(&pos)[12], 0);
    }

    #[test]
    fn castling_is_the_kings_two_square_move_in_the_movers_frame() {
        let pos = position("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
        let codes: Vec<String> = legal_moves(&pos)
            .iter()
            .filter(|(_, mv)| mv.is_castle())
            .map(|(code, _)| code.to_string())
            .collect();
        assert_eq!(codes.len(), 2);
        assert!(codes.contains(&"e1g1".to_owned()) && codes.contains(&"e1c1".to_owned()));
        assert_eq!(encode_board(&pos)[13], 0x8100_0000_0000_0081);
    }

    #[test]
    fn promotions_keep_their_piece() {
        let pos = position("8/P6k/8/8/8/8/8/K7 w - - 0 1");
        let mut promotions: Vec<usize> = legal_moves(&pos)
            .iter()
            .map(|(code, _)| code.promotion_index())
            .filter(|&p| p > 0)
            .collect();
        promotions.sort_unstable();
        assert_eq!(promotions, [1, 2, 3, 4]);
    }
}
