//! The Polyglot key of a position: a Zobrist hash over pieces, castling rights, the en
//! passant file and the side to move, with the format's 781 random numbers.
//!
//! shakmaty's [`Zobrist64`] uses the same numbers. The format counts the en passant
//! file only when a pawn of the side to move stands next to the pawn that just made a
//! double step, whether or not the capture is legal (the pawn may be pinned): that is
//! [`EnPassantMode::PseudoLegal`]. `Legal` would differ in those rare positions, and
//! `Always` (the FEN rule) after every double step.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position};

/// The Polyglot key of `pos`.
///
/// ```
/// use hastings::book::polyglot::key;
/// use shakmaty::Chess;
///
/// assert_eq!(key(&Chess::default()), 0x463b96181691fc9c);
/// ```
pub fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0
}

#[cfg(test)]
mod tests {
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    use super::*;

    fn pos(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    /// The test keys of the format's description ("Test data", computed with Toga II),
    /// as shipped by Debian in /usr/share/doc/polyglot/book_format.html.
    const PUBLISHED: [(&str, u64); 9] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            0x463b96181691fc9c,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            0x823c9b50fd114196,
        ),
        (
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
            0x0756b94461c50fb0,
        ),
        (
            "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
            0x662fafb965db29d4,
        ),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            0x22a48b5a8e47ff78,
        ),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
            0x652a607ca3f242c1,
        ),
        (
            "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
            0x00fdd303c946bdd9,
        ),
        (
            "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
            0x3c8123ea7b067637,
        ),
        (
            "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
            0x5c3f9b829b279560,
        ),
    ];

    #[test]
    fn keys_match_the_published_test_positions() {
        for (fen, expected) in PUBLISHED {
            assert_eq!(key(&pos(fen)), expected, "{fen}");
        }
    }

    #[test]
    fn a_double_step_without_a_capturing_pawn_does_not_count() {
        // After 1. e4 no black pawn stands next to e4: the FEN's `e3` does not count,
        // so the key is the same with and without it.
        let with = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        let without = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(key(&with), key(&without));
    }

    #[test]
    fn a_pinned_capturing_pawn_still_counts() {
        // The e5 pawn could take d6 en passant but is pinned along the fifth rank (king
        // a5, queen h5): the capture is illegal, the format counts it anyway. The key is
        // python-chess's `chess.polyglot.zobrist_hash` of this FEN (1.11.2).
        let pinned = pos("8/8/8/K2pP2q/8/8/8/7k w - d6 0 1");
        assert_eq!(key(&pinned), 0x8d765a85ba990671);
        let legal_only = pinned.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        assert_ne!(legal_only, key(&pinned));
    }
}
