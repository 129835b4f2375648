//! A bitset of a book's keys that rules out most absent positions without reading the
//! book: what makes implied transpositions cheap in a large memory-mapped book.
//!
//! Finding the implied transpositions at a position means looking up the position
//! after each of its 30 or so legal moves, and nearly all of them are absent. In a book
//! of 10,000,000 entries each lookup is a search through a memory map with several
//! cache misses. Polyglot keys are Zobrist hashes, evenly spread, so their top bits index
//! a bitset directly: a clear bit proves the key absent with one read of memory that
//! stays in cache; a set bit (the key, or another with the same top bits) sends the
//! lookup on to the book.

use super::reader::PolyglotBook;

/// One bit per range of keys; a key's bit is set when the book has a key in its range.
#[derive(Clone, Debug)]
pub struct KeyFilter {
    words: Vec<u64>,
    /// `64 − log2(bits)`: a key's bit is `key >> shift`.
    shift: u32,
}

impl KeyFilter {
    /// The filter of `book`'s keys: about eight bits per entry (a power of two, from
    /// 4,096 to 2³¹ bits), so at most one bit in eight is set and seven absent keys in
    /// eight are ruled out. Reads every entry once.
    pub fn new(book: &PolyglotBook<'_>) -> KeyFilter {
        let bits = book
            .len()
            .saturating_mul(8)
            .clamp(1 << 12, 1 << 31)
            .next_power_of_two();
        let mut filter = KeyFilter {
            words: vec![0; bits / 64],
            shift: 64 - bits.trailing_zeros(),
        };
        for e in book.entries() {
            let bit = filter.bit(e.key);
            filter.words[bit / 64] |= 1 << (bit % 64);
        }
        filter
    }

    fn bit(&self, key: u64) -> usize {
        // `shift` is at least 33, so the bit index fits any usize of 32 bits or more.
        usize::try_from(key >> self.shift).unwrap_or(0)
    }

    /// Whether the book may have `key` (`false`: it certainly has not).
    pub fn may_contain(&self, key: u64) -> bool {
        let bit = self.bit(key);
        self.words
            .get(bit / 64)
            .is_some_and(|w| w & (1 << (bit % 64)) != 0)
    }

    /// The memory the filter takes, in bytes.
    pub fn size_bytes(&self) -> usize {
        self.words.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_of_the_book_passes_and_most_others_do_not() {
        let book = super::super::gnuchess().unwrap();
        let filter = KeyFilter::new(&book);
        assert!(book.entries().all(|e| filter.may_contain(e.key)));
        // 180,358 entries: 2^21 bits (256 KB).
        assert_eq!(filter.size_bytes(), 1 << 18);
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut passed = 0;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            passed += usize::from(filter.may_contain(x));
        }
        // At most one bit in eight is set (149,694 positions in 2^21 bits: 7 %).
        assert!(passed < 12_500, "{passed} of 100,000 random keys passed");
    }
}
