//! Moves as the Polyglot format encodes them in 16 bits.
//!
//! Bits 0–5 are the destination square, 6–11 the origin (a1 = 0, h1 = 7, a8 = 56) and
//! 12–14 the promotion piece (0 none, 1 knight, 2 bishop, 3 rook, 4 queen). Castling is
//! written as the king taking its own rook: `e1h1`, `e1a1`, `e8h8`, `e8a8`, which is how
//! shakmaty's [`Move::Castle`] holds it too. The move 0 (`a1a1`) is to be ignored.

use std::fmt;

use shakmaty::{Chess, Move, Position, Role, Square};

use super::error::MoveSkip;

/// A move as a Polyglot book stores it. Only a position tells which move it is
/// ([`RawMove::to_move`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RawMove(pub u16);

impl RawMove {
    /// The null move `a1a1`, which readers ignore.
    pub const NULL: RawMove = RawMove(0);

    /// The encoding of a move; `None` for a piece put on the board (crazyhouse) or a
    /// promotion to a king (antichess), which the format cannot hold.
    ///
    /// ```
    /// use hastings::book::polyglot::RawMove;
    /// use shakmaty::{Move, Square};
    ///
    /// let castle = Move::Castle { king: Square::E1, rook: Square::H1 };
    /// assert_eq!(RawMove::from_move(castle).unwrap().to_string(), "e1h1");
    /// ```
    pub fn from_move(m: Move) -> Option<RawMove> {
        let (from, to, promotion) = match m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => (from, to, promotion),
            Move::EnPassant { from, to } => (from, to, None),
            Move::Castle { king, rook } => (king, rook, None),
            Move::Put { .. } => return None,
        };
        let code: u16 = match promotion {
            None => 0,
            Some(Role::Knight) => 1,
            Some(Role::Bishop) => 2,
            Some(Role::Rook) => 3,
            Some(Role::Queen) => 4,
            Some(Role::Pawn | Role::King) => return None,
        };
        Some(RawMove(
            (code << 12) | (square_bits(from) << 6) | square_bits(to),
        ))
    }

    /// The origin square (the king's square for castling).
    pub fn from_square(self) -> Square {
        Square::new(u32::from((self.0 >> 6) & 63))
    }

    /// The destination square (the rook's square for castling).
    pub fn to_square(self) -> Square {
        Square::new(u32::from(self.0 & 63))
    }

    /// The promotion piece; `None` when there is none or the code is not 1 to 4.
    pub fn promotion(self) -> Option<Role> {
        match (self.0 >> 12) & 7 {
            1 => Some(Role::Knight),
            2 => Some(Role::Bishop),
            3 => Some(Role::Rook),
            4 => Some(Role::Queen),
            _ => None,
        }
    }

    /// Whether the bits are a move at all: not `a1a1`, bit 15 clear, promotion code at
    /// most 4.
    ///
    /// # Errors
    ///
    /// [`MoveSkip::Null`] or [`MoveSkip::Malformed`].
    pub fn check(self) -> Result<(), MoveSkip> {
        if self == RawMove::NULL {
            Err(MoveSkip::Null)
        } else if self.0 >> 15 != 0 || (self.0 >> 12) & 7 > 4 {
            Err(MoveSkip::Malformed(self))
        } else {
            Ok(())
        }
    }

    /// The legal move of `pos` with this encoding.
    ///
    /// # Errors
    ///
    /// [`MoveSkip`] when the bits are not a move or no legal move has them.
    pub fn to_move(self, pos: &Chess) -> Result<Move, MoveSkip> {
        self.check()?;
        pos.legal_moves()
            .into_iter()
            .find(|m| RawMove::from_move(*m) == Some(self))
            .ok_or(MoveSkip::Illegal(self))
    }
}

fn square_bits(sq: Square) -> u16 {
    // A square index is 0..=63.
    (sq.to_u32() & 63) as u16
}

/// The move in the format's own coordinates: `e2e4`, `e7e8q`, castling `e1h1`.
impl fmt::Display for RawMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from_square(), self.to_square())?;
        if let Some(role) = self.promotion() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, uci::UciMove};

    use super::*;

    fn pos(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn raw(pos: &Chess, uci: &str) -> RawMove {
        let m = UciMove::from_ascii(uci.as_bytes())
            .unwrap()
            .to_move(pos)
            .unwrap();
        RawMove::from_move(m).unwrap()
    }

    #[test]
    fn bits_are_to_square_then_from_square_then_promotion() {
        let start = Chess::default();
        // e2 = 12, e4 = 28: 12 << 6 | 28.
        assert_eq!(raw(&start, "e2e4"), RawMove(0x031c));
        let promo = pos("8/4P3/8/8/8/8/k7/7K w - - 0 1");
        // e7 = 52, e8 = 60, queen = 4.
        assert_eq!(raw(&promo, "e7e8q"), RawMove((4 << 12) | (52 << 6) | 60));
        assert_eq!(raw(&promo, "e7e8n").0 >> 12, 1);
        assert_eq!(raw(&promo, "e7e8b").0 >> 12, 2);
        assert_eq!(raw(&promo, "e7e8r").0 >> 12, 3);
        assert_eq!(raw(&promo, "e7e8q").to_string(), "e7e8q");
    }

    #[test]
    fn castling_is_written_king_takes_rook() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(raw(&p, "e1g1").to_string(), "e1h1");
        assert_eq!(raw(&p, "e1c1").to_string(), "e1a1");
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
        assert_eq!(raw(&p, "e8g8").to_string(), "e8h8");
        assert_eq!(raw(&p, "e8c8").to_string(), "e8a8");
        let m = raw(&p, "e8g8").to_move(&p).unwrap();
        assert_eq!(
            m,
            Move::Castle {
                king: Square::E8,
                rook: Square::H8
            }
        );
    }

    #[test]
    fn every_legal_move_survives_the_round_trip() {
        for fen in [
            "r3k2r/pPp1pppp/8/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            let p = pos(fen);
            for m in p.legal_moves() {
                let r = RawMove::from_move(m).unwrap();
                assert_eq!(r.to_move(&p), Ok(m), "{fen} {r}");
            }
        }
    }

    #[test]
    fn null_malformed_and_illegal_moves_are_refused() {
        let start = Chess::default();
        assert_eq!(RawMove::NULL.to_move(&start), Err(MoveSkip::Null));
        let bad_promotion = RawMove(0x031c | (5 << 12));
        assert_eq!(
            bad_promotion.to_move(&start),
            Err(MoveSkip::Malformed(bad_promotion))
        );
        let high_bit = RawMove(0x831c);
        assert_eq!(high_bit.to_move(&start), Err(MoveSkip::Malformed(high_bit)));
        // e2e5 is no move.
        let e2e5 = RawMove((12 << 6) | 36);
        assert_eq!(e2e5.to_move(&start), Err(MoveSkip::Illegal(e2e5)));
        // White may not castle in the start position.
        let castle = RawMove((4 << 6) | 7);
        assert_eq!(castle.to_move(&start), Err(MoveSkip::Illegal(castle)));
    }
}
