//! The count of distinct positions in an import report: a set of the positions' 64-bit
//! hashes.
//!
//! A file of a million games passes through tens of millions of positions, so the count
//! must cost little per ply. The set keeps only the 64-bit hash of each [`NodeKey`]
//! (8 bytes, one probe of an open-addressing table, no key to compare), as engines and
//! Polyglot books identify positions by a 64-bit Zobrist key. Two positions with the
//! same hash count once: for `n` positions the expected number of such pairs is about
//! n² / 2⁶⁵, 7 × 10⁻⁹ for the 489,000 positions of 40,000 games, 3 × 10⁻⁴ for a
//! hundred million. (The exact set it replaced, with the 40-byte keys, cost the import
//! a fifth of its time in cache misses.) The graph itself always compares whole keys.

use crate::book::key::NodeKey;

/// The empty slot; a hash of 0 is stored as 1.
const EMPTY: u64 = 0;

/// The hashes are split by their top bits into this many parts, each its own table.
const PARTS: usize = 256;

/// Hashes wait in their part's buffer until this many have come.
const PENDING: usize = 512;

/// A set of positions, by the 64-bit hash of their node keys.
///
/// A hash is not looked up when it comes but put in the buffer of its part (one of
/// [`PARTS`], by its top bits) and put in the part's table with the rest of the buffer
/// later. A part's table is a 256th of the whole, so it stays in the processor's cache
/// while its buffer is put in, where one big table would cost a memory access per
/// position: for 40,000 games, 55 ms of a 310 ms import.
#[derive(Clone, Debug)]
pub(super) struct DistinctPositions {
    parts: Vec<Part>,
}

#[derive(Clone, Debug, Default)]
struct Part {
    pending: Vec<u64>,
    /// A power of two of hashes or [`EMPTY`], at most ¾ full.
    slots: Vec<u64>,
    len: usize,
}

impl Default for DistinctPositions {
    fn default() -> DistinctPositions {
        DistinctPositions {
            parts: vec![Part::default(); PARTS],
        }
    }
}

impl DistinctPositions {
    /// Adds the position of `key`.
    pub(super) fn insert(&mut self, key: &NodeKey) {
        let hash = key.hash64().max(1);
        let part = &mut self.parts[(hash >> (64 - PARTS.trailing_zeros())) as usize];
        part.pending.push(hash);
        if part.pending.len() >= PENDING {
            part.flush();
        }
    }

    /// The number of distinct positions.
    pub(super) fn len(&mut self) -> usize {
        self.parts
            .iter_mut()
            .map(|part| {
                part.flush();
                part.len
            })
            .sum()
    }
}

impl Part {
    /// Puts the pending hashes in the table.
    fn flush(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        for &hash in &pending {
            self.insert(hash);
        }
        self.pending = pending;
        self.pending.clear();
    }

    fn insert(&mut self, hash: u64) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = home(hash, mask);
        loop {
            match self.slots[i] {
                EMPTY => {
                    self.slots[i] = hash;
                    self.len += 1;
                    return;
                }
                s if s == hash => return,
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let n = (self.slots.len() * 2).max(64);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; n]);
        let mask = n - 1;
        for hash in old.into_iter().filter(|&h| h != EMPTY) {
            let mut i = home(hash, mask);
            while self.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = hash;
        }
    }
}

/// Where the search for `hash` starts in its part: bits below those that chose the
/// part.
fn home(hash: u64, mask: usize) -> usize {
    (hash >> 8) as usize & mask
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use shakmaty::{Chess, Position};

    use super::*;

    /// Every position up to three plies deep (9,322, enough to grow the table past
    /// several sizes), and positions met again count once.
    #[test]
    fn positions_three_plies_deep_count_as_a_hash_set_of_whole_keys_does() {
        let mut all = Vec::new();
        let mut frontier = vec![Chess::default()];
        for _ in 0..3 {
            let mut next = Vec::new();
            for pos in &frontier {
                for mv in pos.legal_moves() {
                    let mut p = pos.clone();
                    p.play_unchecked(mv);
                    all.push(NodeKey::from_position(&p));
                    next.push(p);
                }
            }
            frontier = next;
        }
        let exact: HashSet<NodeKey> = all.iter().copied().collect();
        let mut set = DistinctPositions::default();
        assert_eq!(all.len(), 8902 + 400 + 20);
        for (i, key) in all.iter().enumerate() {
            set.insert(key);
            if i == 100 {
                // Counting midway leaves the set as it was.
                let so_far: HashSet<NodeKey> = all[..=i].iter().copied().collect();
                assert_eq!(set.len(), so_far.len());
            }
        }
        assert_eq!(set.len(), exact.len());
        for key in &all {
            set.insert(key);
        }
        assert_eq!(set.len(), exact.len());
    }
}
