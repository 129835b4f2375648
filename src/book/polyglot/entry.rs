//! One 16-byte entry of a Polyglot book.

use super::moves::RawMove;

/// The size of one entry in bytes.
pub const ENTRY_SIZE: usize = 16;

/// One entry: a position's key, a move, its weight and the learn field, stored
/// big-endian in this order (8 + 2 + 2 + 4 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entry {
    /// The Polyglot key of the position ([`key`](super::key)).
    pub key: u64,
    /// The move, as the format encodes it.
    pub raw_move: RawMove,
    /// How often or how well the move was played; the chance of choosing it is its
    /// weight divided by the sum at the position.
    pub weight: u16,
    /// Left to engines for learning; 0 in books that `polyglot make-book` writes.
    pub learn: u32,
}

impl Entry {
    /// Reads an entry from its 16 bytes.
    pub fn from_bytes(bytes: [u8; ENTRY_SIZE]) -> Entry {
        let [key @ .., m0, m1, w0, w1, l0, l1, l2, l3] = bytes;
        Entry {
            key: u64::from_be_bytes(key),
            raw_move: RawMove(u16::from_be_bytes([m0, m1])),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }

    /// The entry's 16 bytes.
    pub fn to_bytes(self) -> [u8; ENTRY_SIZE] {
        let [k0, k1, k2, k3, k4, k5, k6, k7] = self.key.to_be_bytes();
        let [m0, m1] = self.raw_move.0.to_be_bytes();
        let [w0, w1] = self.weight.to_be_bytes();
        let [l0, l1, l2, l3] = self.learn.to_be_bytes();
        [
            k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, l0, l1, l2, l3,
        ]
    }

    /// The key of an entry's 16 bytes, without reading the rest.
    pub(crate) fn key_of(bytes: &[u8; ENTRY_SIZE]) -> u64 {
        let [k0, k1, k2, k3, k4, k5, k6, k7, ..] = *bytes;
        u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_big_endian_key_move_weight_learn() {
        // 1. e4 in the gnuchess book: key of the start position, e2e4, weight 12135.
        let bytes = [
            0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c, 0x03, 0x1c, 0x2f, 0x67, 0, 0, 0, 7,
        ];
        let entry = Entry::from_bytes(bytes);
        assert_eq!(entry.key, 0x463b_9618_1691_fc9c);
        assert_eq!(entry.raw_move, RawMove(0x031c));
        assert_eq!(entry.weight, 12135);
        assert_eq!(entry.learn, 7);
        assert_eq!(entry.to_bytes(), bytes);
        assert_eq!(Entry::key_of(&bytes), entry.key);
    }
}
