//! The static evaluation: material and piece-square tables, tapered between the
//! middlegame and the endgame by the material left on the board.
//!
//! ```
//! use hastings::engine::eval::evaluate;
//! use shakmaty::Chess;
//! // The start position is symmetric: no side is better.
//! assert_eq!(evaluate(&Chess::default()), 0);
//! ```

use shakmaty::{Chess, Color, Position, Role};

use super::pst::{PHASE_MAX, PHASE_WEIGHT, piece_square, role_index};

/// Bonus for keeping both bishops.
pub const BISHOP_PAIR: i32 = 30;

/// The two halves of an evaluation before tapering, from White's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    /// The middlegame score.
    pub mg: i32,
    /// The endgame score.
    pub eg: i32,
    /// The game phase, from 0 (bare kings and pawns) to [`PHASE_MAX`].
    pub phase: i32,
}

impl Tapered {
    /// The blend of the two scores by phase: all middlegame at phase 24, all endgame
    /// at phase 0.
    pub fn blend(self) -> i32 {
        let phase = self.phase.min(PHASE_MAX);
        (self.mg * phase + self.eg * (PHASE_MAX - phase)) / PHASE_MAX
    }
}

/// Material and square terms of every piece, from White's point of view.
pub fn terms(pos: &Chess) -> Tapered {
    let board = pos.board();
    let mut t = Tapered::default();
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        for role in Role::ALL {
            let pieces = board.by_piece(role.of(color));
            for sq in pieces {
                let (mg, eg) = piece_square(color, role, sq);
                t.mg += sign * mg;
                t.eg += sign * eg;
            }
            t.phase += PHASE_WEIGHT[role_index(role)] * pieces.count() as i32;
        }
        if board.by_piece(Role::Bishop.of(color)).count() >= 2 {
            t.mg += sign * BISHOP_PAIR;
            t.eg += sign * BISHOP_PAIR;
        }
    }
    t
}

/// The evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Chess) -> i32 {
    let white = terms(pos).blend();
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode, FromSetup};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    /// The position with colours swapped and the board flipped top to bottom.
    fn mirrored(p: &Chess) -> Chess {
        let mut setup = p.to_setup(EnPassantMode::Legal);
        setup.mirror();
        Chess::from_setup(setup, CastlingMode::Standard).unwrap()
    }

    #[test]
    fn an_extra_queen_is_worth_about_a_queen() {
        let score = evaluate(&pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"));
        assert!((850..=1100).contains(&score), "{score}");
        let score = evaluate(&pos("4k3/8/8/8/8/8/8/3QK3 b - - 0 1"));
        assert!((-1100..=-850).contains(&score), "{score}");
    }

    #[test]
    fn phase_is_full_at_the_start_and_zero_with_pawns_only() {
        assert_eq!(terms(&Chess::default()).phase, PHASE_MAX);
        assert_eq!(
            terms(&pos("4k3/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1")).phase,
            0
        );
    }

    /// White's score of a position is minus White's score of its mirror (colours
    /// swapped, board flipped, the other side to move), so the side to move scores the
    /// same in both.
    #[test]
    fn evaluation_is_symmetric_under_colour_flip() {
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "6k1/5ppp/8/8/8/8/1Q3PPP/6K1 b - - 0 1",
        ] {
            let p = pos(fen);
            let m = mirrored(&p);
            assert_eq!(terms(&p).blend(), -terms(&m).blend(), "{fen}");
            assert_eq!(evaluate(&p), evaluate(&m), "{fen}");
            assert_ne!(
                terms(&p).blend(),
                0,
                "{fen}: the test needs asymmetric positions"
            );
        }
    }
}
