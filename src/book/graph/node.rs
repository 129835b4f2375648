//! A node as stored: the pieces, rights and counters of its representative position in
//! 56 bytes, the position rebuilt on demand; and the weights, shared between nodes.

use std::num::NonZeroU32;

use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Position, Setup, Square,
};

use super::LineId;
use crate::book::error::NodeRebuildError;
use crate::book::key::NodeKey;
use crate::book::line::FlagWeights;

/// No line, no id.
pub(super) const NONE: u32 = u32::MAX;

/// The corners whose rooks can hold castling rights in standard chess, one bit each.
const CORNERS: [Square; 4] = [Square::A1, Square::H1, Square::A8, Square::H8];

/// No en-passant square.
const NO_EP: u8 = u8::MAX;

/// The flag of a legal en-passant capture.
const LEGAL_EP: u8 = 1 << 5;

/// One position of the graph.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// The pieces ([`NodeKey::planes`]).
    planes: [u64; 4],
    /// Bit 0: Black to move; bits 1–4: castling rights of the rooks on a1, h1, a8, h8;
    /// bit 5: the en-passant square is a legal capture ([`EnPassantMode::Legal`]).
    flags: u8,
    /// The en-passant square (as the position keeps it), or [`NO_EP`].
    ep: u8,
    halfmoves: u32,
    fullmoves: u32,
    /// The index of the node's weights in the graph's weight table.
    pub(super) weights: u32,
    /// The first line that ends here, or [`NONE`].
    name: u32,
    /// The number of distinct nodes with a book continuation into this one.
    pub(super) parents: u32,
}

impl Node {
    /// The node of `pos` (its representative position), with no weights yet.
    pub(super) fn new(pos: &Chess, key: &NodeKey) -> Node {
        let rights = pos.castles().castling_rights();
        let mut flags = u8::from(pos.turn().is_black());
        for (i, corner) in CORNERS.into_iter().enumerate() {
            if rights.contains(corner) {
                flags |= 2 << i;
            }
        }
        if pos.ep_square(EnPassantMode::Legal).is_some() {
            flags |= LEGAL_EP;
        }
        let node = Node {
            planes: key.planes(),
            flags,
            ep: pos.ep_square(EnPassantMode::Always).map_or(NO_EP, u8::from),
            halfmoves: pos.halfmoves(),
            fullmoves: pos.fullmoves().get(),
            weights: 0,
            name: NONE,
            parents: 0,
        };
        debug_assert!(
            node.position(0).as_ref() == Ok(pos),
            "a node rebuilds its position"
        );
        node
    }

    /// The key.
    pub(super) fn key(&self) -> NodeKey {
        NodeKey::from_planes(self.planes, self.turn())
    }

    fn turn(&self) -> Color {
        if self.flags & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The castling rights, as the rooks' squares.
    fn castling_rights(&self) -> Bitboard {
        let mut rights = Bitboard::EMPTY;
        for (i, corner) in CORNERS.into_iter().enumerate() {
            if self.flags & (2 << i) != 0 {
                rights.add(corner);
            }
        }
        rights
    }

    /// Whether `pos` (a position of this node) has the representative's castling and
    /// en-passant rights, read without rebuilding the representative.
    pub(super) fn has_rights_of(&self, pos: &Chess) -> bool {
        let ep = (self.flags & LEGAL_EP != 0).then(|| Square::new(u32::from(self.ep)));
        self.castling_rights() == pos.castles().castling_rights()
            && ep == pos.ep_square(EnPassantMode::Legal)
    }

    /// The representative position as shakmaty sets one up (made again for the error
    /// rather than copied for every rebuild).
    fn setup(&self) -> Setup {
        let key = self.key();
        Setup {
            board: key.board(),
            promoted: Bitboard::EMPTY,
            pockets: None,
            turn: key.turn(),
            castling_rights: self.castling_rights(),
            ep_square: (self.ep != NO_EP).then(|| Square::new(u32::from(self.ep))),
            remaining_checks: None,
            halfmoves: self.halfmoves,
            fullmoves: NonZeroU32::new(self.fullmoves).unwrap_or(NonZeroU32::MIN),
        }
    }

    /// The representative position, rebuilt; `index` is the node's index, for the error.
    ///
    /// # Errors
    ///
    /// [`NodeRebuildError`] when shakmaty rejects the packed position even with the
    /// rights that fail dropped (a bug: nodes are made from legal positions).
    pub(super) fn position(&self, index: u32) -> Result<Chess, NodeRebuildError> {
        // The setup is that of a legal position, so it is accepted; should it not be, the
        // rights that fail are dropped rather than the position.
        let error = match Chess::from_setup(self.setup(), CastlingMode::Standard) {
            Ok(pos) => return Ok(pos),
            Err(e) => e,
        };
        let error = match error.ignore_invalid_castling_rights() {
            Ok(pos) => return Ok(pos),
            Err(e) => e,
        };
        let error = match error.ignore_invalid_ep_square() {
            Ok(pos) => return Ok(pos),
            Err(e) => e,
        };
        let error = match error.ignore_too_much_material() {
            Ok(pos) => return Ok(pos),
            Err(e) => e,
        };
        error
            .ignore_impossible_check()
            .map_err(|e| NodeRebuildError {
                node: index,
                fen: Fen::try_from_setup(self.setup())
                    .unwrap_or_else(|lossy| lossy.ignore())
                    .to_string(),
                reason: e.to_string(),
            })
    }

    /// The first line that ends here.
    pub(super) fn name(&self) -> Option<LineId> {
        (self.name != NONE).then_some(LineId(self.name))
    }

    pub(super) fn set_name(&mut self, line: LineId) {
        self.name = line.0;
    }
}

/// `T(x)` and `T_i(x)` of a node; equal weights are stored once.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct NodeWeights {
    pub(super) weight: f64,
    pub(super) flags: FlagWeights,
}

impl NodeWeights {
    /// The bits of the numbers, to find equal weights.
    pub(super) fn bits(&self) -> [u64; 6] {
        let f = self.flags.map(f64::to_bits);
        [self.weight.to_bits(), f[0], f[1], f[2], f[3], f[4]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_rebuilds_its_position_with_rights_and_counters() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            // Some castling rights gone, an en-passant square, counters.
            "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R b Kq - 7 12",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            // An en-passant square without a capture (kept as the position keeps it).
            "rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3",
            "8/8/8/4k3/8/8/8/4K3 b - - 99 200",
        ] {
            let pos: Chess = Fen::from_ascii(fen.as_bytes())
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let node = Node::new(&pos, &NodeKey::from_position(&pos));
            let back = node.position(0).unwrap();
            assert_eq!(back, pos, "{fen}");
            assert_eq!(
                Fen::from_position(&back, EnPassantMode::Always).to_string(),
                Fen::from_position(&pos, EnPassantMode::Always).to_string(),
                "{fen}"
            );
            assert_eq!(node.key(), NodeKey::from_position(&pos), "{fen}");
            assert!(node.has_rights_of(&pos), "{fen}");
        }
        // After a double push the position keeps the square even without a capture.
        let mut pos = Chess::default();
        let mv = shakmaty::san::San::from_ascii(b"e4")
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(mv);
        let node = Node::new(&pos, &NodeKey::from_position(&pos));
        assert_eq!(
            node.position(0).unwrap().ep_square(EnPassantMode::Always),
            pos.ep_square(EnPassantMode::Always)
        );
    }

    #[test]
    fn a_node_that_cannot_be_rebuilt_is_an_error_not_the_start_position() {
        let pos = Chess::default();
        let mut node = Node::new(&pos, &NodeKey::from_position(&pos));
        // No kings: shakmaty refuses the board whatever rights are dropped.
        node.planes = [0; 4];
        let e = node.position(7).unwrap_err();
        assert_eq!(e.node, 7);
        assert!(e.fen.starts_with("8/8/8/8/8/8/8/8 w"), "{e}");
        assert!(e.to_string().starts_with("node 7: the position"), "{e}");
    }

    #[test]
    fn rights_are_told_apart_without_rebuilding_the_position() {
        let fen = |f: &str| -> Chess {
            Fen::from_ascii(f.as_bytes())
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap()
        };
        // A legal en-passant capture, and the same board without it (same key).
        let with_ep = fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        let without = fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
        // Fewer castling rights on the same board.
        let fewer = fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w Kkq f6 0 3");
        for (a, b) in [(&with_ep, &without), (&with_ep, &fewer), (&without, &fewer)] {
            let node = Node::new(a, &NodeKey::from_position(a));
            let expected = a.castles().castling_rights() == b.castles().castling_rights()
                && a.ep_square(EnPassantMode::Legal) == b.ep_square(EnPassantMode::Legal);
            assert_eq!(node.has_rights_of(b), expected);
            assert!(!expected);
            assert!(node.has_rights_of(a));
        }
    }
}
