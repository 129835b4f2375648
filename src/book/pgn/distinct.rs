//! The count of distinct positions in an import report: a set of the positions' 64-bit
//! hashes, which threads reading parts of one file share.
//!
//! A file of a million games passes through tens of millions of positions, so the count
//! must cost little per ply. The set keeps only the 64-bit hash of each [`NodeKey`]
//! (8 bytes, no key to compare), as engines and Polyglot books identify positions by a
//! 64-bit Zobrist key. Two positions with the same hash count once: for `n` positions
//! the expected number of such pairs is about n² / 2⁶⁵, 7 × 10⁻⁹ for the 489,000
//! positions of 40,000 games, 3 × 10⁻⁴ for a hundred million. (The exact set it
//! replaced, with the 40-byte keys, took about 40 ms more of the 370 ms that 40,000
//! games took to import.) The graph itself always compares whole keys.
//!
//! The hashes are split by their top bits into [`PARTS`] tables. A hash is not looked
//! up when it comes but put in its part's buffer, and the buffer goes into the table
//! when full: a table a 256th of the whole while its buffer goes in, and one lock per
//! [`PENDING`] hashes when threads share the tables.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::book::key::NodeKey;

/// The empty slot; a hash of 0 is stored as 1.
const EMPTY: u64 = 0;

/// The hashes are split by their top bits into this many tables.
const PARTS: usize = 256;

/// Hashes wait in their part's buffer until this many have come.
const PENDING: usize = 512;

/// The hashes a set remembers having added, without looking in the tables (32 KB).
const RECENT: usize = 4096;

/// A set of positions, by the 64-bit hash of their node keys: this thread's buffers,
/// and tables that the sets made by [`DistinctPositions::sharing`] share.
///
/// Dropping the set puts its buffers in the tables.
#[derive(Debug)]
pub struct DistinctPositions {
    /// Hashes added recently, by their low bits: the positions near the start, which
    /// most games pass through, are then found here without going to the tables.
    recent: Vec<u64>,
    pending: Vec<Vec<u64>>,
    tables: Arc<[Mutex<Table>]>,
}

#[derive(Debug, Default)]
struct Table {
    /// A power of two of hashes or [`EMPTY`], at most ¾ full.
    slots: Vec<u64>,
    len: usize,
}

impl Default for DistinctPositions {
    fn default() -> DistinctPositions {
        DistinctPositions {
            recent: vec![EMPTY; RECENT],
            pending: vec![Vec::new(); PARTS],
            tables: (0..PARTS).map(|_| Mutex::new(Table::default())).collect(),
        }
    }
}

impl DistinctPositions {
    /// An empty set.
    pub fn new() -> DistinctPositions {
        DistinctPositions::default()
    }

    /// A set for another thread: its own buffers, the same tables.
    pub fn sharing(&self) -> DistinctPositions {
        DistinctPositions {
            recent: vec![EMPTY; RECENT],
            pending: vec![Vec::new(); PARTS],
            tables: Arc::clone(&self.tables),
        }
    }

    /// Adds the position of `key`.
    pub fn insert(&mut self, key: &NodeKey) {
        let hash = key.hash64().max(1);
        let seen = &mut self.recent[hash as usize & (RECENT - 1)];
        if *seen == hash {
            return;
        }
        *seen = hash;
        let part = (hash >> (64 - PARTS.trailing_zeros())) as usize;
        let pending = &mut self.pending[part];
        pending.push(hash);
        if pending.len() >= PENDING {
            self.flush_part(part);
        }
    }

    /// The number of distinct positions in the tables: added by this set, and by the
    /// sets sharing them that were flushed or dropped.
    pub fn len(&mut self) -> usize {
        self.flush();
        self.tables.iter().map(|t| lock(t).len).sum()
    }

    /// Whether no position was added.
    pub fn is_empty(&mut self) -> bool {
        self.len() == 0
    }

    /// Puts the buffered hashes in the tables.
    pub fn flush(&mut self) {
        for part in 0..PARTS {
            self.flush_part(part);
        }
    }

    fn flush_part(&mut self, part: usize) {
        let pending = &mut self.pending[part];
        if pending.is_empty() {
            return;
        }
        let mut table = lock(&self.tables[part]);
        for &hash in pending.iter() {
            table.insert(hash);
        }
        pending.clear();
    }
}

impl Drop for DistinctPositions {
    fn drop(&mut self) {
        self.flush();
    }
}

/// A table, even if a thread panicked while holding it (the table is then still a
/// valid set: an insert leaves it one at every step).
fn lock(table: &Mutex<Table>) -> MutexGuard<'_, Table> {
    table.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Table {
    // Inlined into the loop of `flush_part`, so that the processor runs ahead to the
    // next hashes' slots while one is loaded from memory (outlined, the import took
    // 10 % longer).
    #[inline(always)]
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

    #[cold]
    #[inline(never)]
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

/// Where the search for `hash` starts in its table: bits below those that chose the
/// table.
fn home(hash: u64, mask: usize) -> usize {
    (hash >> 8) as usize & mask
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use shakmaty::{Chess, Position};

    use super::*;

    fn keys_three_plies_deep() -> Vec<NodeKey> {
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
        all
    }

    /// Every position up to three plies deep (9,322, enough to grow the tables past
    /// several sizes), and positions met again count once.
    #[test]
    fn positions_three_plies_deep_count_as_a_hash_set_of_whole_keys_does() {
        let all = keys_three_plies_deep();
        let exact: HashSet<NodeKey> = all.iter().copied().collect();
        let mut set = DistinctPositions::new();
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

    /// Threads adding overlapping parts count the union once.
    #[test]
    fn sets_sharing_tables_on_threads_count_the_union() {
        let all = keys_three_plies_deep();
        let exact: HashSet<NodeKey> = all.iter().copied().collect();
        let mut set = DistinctPositions::new();
        let (a, b) = all.split_at(all.len() * 2 / 3);
        let overlap = &all[all.len() / 3..];
        std::thread::scope(|scope| {
            for keys in [a, b, overlap] {
                let mut mine = set.sharing();
                scope.spawn(move || keys.iter().for_each(|k| mine.insert(k)));
            }
        });
        assert_eq!(set.len(), exact.len());
    }
}
