//! The evaluation's data: piece values and piece-square tables for the middlegame and
//! the endgame.
//!
//! The middlegame tables are Tomasz Michniewski's "Simplified Evaluation Function"
//! (the tables that BayesChess and many small engines use: a value per square, centre good, rim bad, king
//! behind its pawns); the endgame tables keep the minor-piece and queen tables, drop the
//! pawn shield and rook-on-seventh ideas, reward passed-pawn advance and bring the
//! king to the centre (Michniewski's king endgame table). Each table is written as the
//! board looks from White's side: the first row is the 8th rank, a8 to h8. Black uses
//! the same table mirrored top to bottom.

use shakmaty::{Color, Role, Square};

/// Material in the middlegame, in centipawns, indexed by [`role_index`].
pub const MG_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];
/// Material in the endgame: pawns and rooks gain, minor pieces lose a little.
pub const EG_VALUE: [i32; 6] = [120, 300, 320, 540, 950, 0];

/// Game-phase weight of each piece (knight and bishop 1, rook 2, queen 4): 24 with all
/// pieces on the board, 0 with only kings and pawns.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the starting position.
pub const PHASE_MAX: i32 = 24;

#[rustfmt::skip]
const MG_PAWN: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  0, 20, 20,  0,  0,  0,
     5, -5,-10,  0,  0,-10, -5,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const EG_PAWN: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    90, 90, 90, 90, 90, 90, 90, 90,
    55, 55, 55, 55, 55, 55, 55, 55,
    30, 30, 30, 30, 30, 30, 30, 30,
    15, 15, 15, 15, 15, 15, 15, 15,
     5,  5,  5,  5,  5,  5,  5,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const KNIGHT: [i32; 64] = [
    -50,-40,-30,-30,-30,-30,-40,-50,
    -40,-20,  0,  0,  0,  0,-20,-40,
    -30,  0, 10, 15, 15, 10,  0,-30,
    -30,  5, 15, 20, 20, 15,  5,-30,
    -30,  0, 15, 20, 20, 15,  0,-30,
    -30,  5, 10, 15, 15, 10,  5,-30,
    -40,-20,  0,  5,  5,  0,-20,-40,
    -50,-40,-30,-30,-30,-30,-40,-50,
];

#[rustfmt::skip]
const BISHOP: [i32; 64] = [
    -20,-10,-10,-10,-10,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5, 10, 10,  5,  0,-10,
    -10,  5,  5, 10, 10,  5,  5,-10,
    -10,  0, 10, 10, 10, 10,  0,-10,
    -10, 10, 10, 10, 10, 10, 10,-10,
    -10,  5,  0,  0,  0,  0,  5,-10,
    -20,-10,-10,-10,-10,-10,-10,-20,
];

#[rustfmt::skip]
const MG_ROOK: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
     5, 10, 10, 10, 10, 10, 10,  5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
     0,  0,  0,  5,  5,  0,  0,  0,
];

#[rustfmt::skip]
const EG_ROOK: [i32; 64] = [
     5,  5,  5,  5,  5,  5,  5,  5,
    10, 10, 10, 10, 10, 10, 10, 10,
     0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const QUEEN: [i32; 64] = [
    -20,-10,-10, -5, -5,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5,  5,  5,  5,  0,-10,
     -5,  0,  5,  5,  5,  5,  0, -5,
      0,  0,  5,  5,  5,  5,  0, -5,
    -10,  5,  5,  5,  5,  5,  0,-10,
    -10,  0,  5,  0,  0,  0,  0,-10,
    -20,-10,-10, -5, -5,-10,-10,-20,
];

#[rustfmt::skip]
const MG_KING: [i32; 64] = [
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -20,-30,-30,-40,-40,-30,-30,-20,
    -10,-20,-20,-20,-20,-20,-20,-10,
     20, 20,  0,  0,  0,  0, 20, 20,
     20, 30, 10,  0,  0, 10, 30, 20,
];

#[rustfmt::skip]
const EG_KING: [i32; 64] = [
    -50,-40,-30,-20,-20,-30,-40,-50,
    -30,-20,-10,  0,  0,-10,-20,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-30,  0,  0,  0,  0,-30,-30,
    -50,-30,-30,-30,-30,-30,-30,-50,
];

/// Middlegame tables by [`role_index`].
const MG_TABLES: [&[i32; 64]; 6] = [&MG_PAWN, &KNIGHT, &BISHOP, &MG_ROOK, &QUEEN, &MG_KING];
/// Endgame tables by [`role_index`].
const EG_TABLES: [&[i32; 64]; 6] = [&EG_PAWN, &KNIGHT, &BISHOP, &EG_ROOK, &QUEEN, &EG_KING];

/// The index of a role in the tables: pawn 0 … king 5.
pub const fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// The index into a table (written from White's side, a8 first) of a `color` piece
/// on `sq`.
const fn table_index(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq as usize ^ 56,
        Color::Black => sq as usize,
    }
}

/// Material plus square bonus of a piece, (middlegame, endgame), for the piece's own
/// side.
pub const fn piece_square(color: Color, role: Role, sq: Square) -> (i32, i32) {
    let r = role_index(role);
    let i = table_index(color, sq);
    (MG_VALUE[r] + MG_TABLES[r][i], EG_VALUE[r] + EG_TABLES[r][i])
}

/// Michniewski's square bonus of a piece, for the piece's own side, without material:
/// the middlegame table of every piece, and for the king the endgame table when
/// `endgame` (the king walks to the centre once the pieces are off). The seed-003
/// evaluation weighs these sums ([`crate::engine::tuned`]).
pub const fn square_bonus(color: Color, role: Role, sq: Square, endgame: bool) -> i32 {
    let r = role_index(role);
    let i = table_index(color, sq);
    if endgame && matches!(role, Role::King) {
        EG_TABLES[r][i]
    } else {
        MG_TABLES[r][i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_read_from_whites_side() {
        // A white pawn on e2 blocks the bishop (-20); a black pawn on e7 likewise.
        assert_eq!(piece_square(Color::White, Role::Pawn, Square::E2).0, 80);
        assert_eq!(piece_square(Color::Black, Role::Pawn, Square::E7).0, 80);
        // A castled king is safer than one in the centre, for both sides.
        assert!(
            piece_square(Color::White, Role::King, Square::G1).0
                > piece_square(Color::White, Role::King, Square::E2).0
        );
        assert_eq!(
            piece_square(Color::Black, Role::King, Square::G8),
            piece_square(Color::White, Role::King, Square::G1)
        );
    }

    #[test]
    fn endgame_king_wants_the_centre() {
        let (_, corner) = piece_square(Color::White, Role::King, Square::A1);
        let (_, centre) = piece_square(Color::White, Role::King, Square::E4);
        assert!(centre - corner >= 80);
    }
}
