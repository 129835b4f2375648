//! The transposition table: search results keyed by the position's Zobrist hash.
//!
//! One entry per slot, the slot chosen by the hash's low bits, the full hash kept to
//! tell positions apart. A new result replaces the old one unless the old one is from
//! the same search and deeper (depth-preferred with aging).

use shakmaty::Move;

use super::score::MATE_BOUND;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value (a principal-variation node).
    Exact,
    /// At least this (the search failed high: a beta cutoff).
    Lower,
    /// At most this (the search failed low: no move raised alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The full hash of the position.
    pub key: u64,
    /// The best (or refuting) move found.
    pub best: Option<Move>,
    /// The score, mates counted from this node (see [`to_tt`]).
    pub score: i32,
    /// The depth searched below this node.
    pub depth: i16,
    /// What the score means.
    pub bound: Bound,
    /// The search that stored it.
    pub generation: u8,
}

/// A fixed-size table of [`Entry`]s.
#[derive(Debug)]
pub struct TranspositionTable {
    slots: Vec<Option<Entry>>,
    mask: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (rounded down to a power-of-two number of slots,
    /// at least 1,024).
    pub fn with_megabytes(megabytes: usize) -> TranspositionTable {
        let entry = std::mem::size_of::<Option<Entry>>();
        TranspositionTable::with_entries(megabytes.max(1) * 1024 * 1024 / entry)
    }

    /// A table of about `wanted` entries (the power of two at or below it, at least
    /// 1,024).
    pub fn with_entries(wanted: usize) -> TranspositionTable {
        let wanted = wanted.max(1024);
        let slots = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        TranspositionTable {
            slots: vec![None; slots],
            mask: slots - 1,
            generation: 0,
        }
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&mut self) {
        self.slots.fill(None);
        self.generation = 0;
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slots[self.index(key)];
        slot.filter(|e| e.key == key)
    }

    /// Stores a result; `score` must already be converted with [`to_tt`].
    pub fn store(&mut self, key: u64, best: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let index = self.index(key);
        let old = self.slots[index];
        if let Some(old) = old
            && old.generation == self.generation
            && old.key != key
            && i32::from(old.depth) > depth
        {
            return;
        }
        // Keep the old move when the new result has none for the same position.
        let best = best.or(old.filter(|o| o.key == key).and_then(|o| o.best));
        self.slots[index] = Some(self.entry(key, best, score, depth, bound));
    }

    /// How full the table is, in permille (from the first 1,000 slots, as UCI's
    /// `hashfull`).
    pub fn permille_full(&self) -> u16 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|e| e.is_some_and(|e| e.generation == self.generation))
            .count();
        u16::try_from(used * 1000 / sample.max(1)).unwrap_or(1000)
    }

    fn entry(&self, key: u64, best: Option<Move>, score: i32, depth: i32, bound: Bound) -> Entry {
        Entry {
            key,
            best,
            score,
            depth: i16::try_from(depth).unwrap_or(i16::MAX),
            bound,
            generation: self.generation,
        }
    }

    fn index(&self, key: u64) -> usize {
        // The low bits of a Zobrist hash are as random as the high ones.
        (key as usize) & self.mask
    }
}

/// A score to store: mates counted from this node instead of from the root, so the
/// entry is right wherever the position recurs.
pub fn to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// A stored score seen from a node `ply` plies below the root.
pub fn from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::MATE;

    #[test]
    fn stored_entries_come_back_and_others_miss() {
        let mut tt = TranspositionTable::with_megabytes(1);
        tt.store(42, None, 17, 3, Bound::Exact);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.score, e.depth, e.bound), (17, 3, Bound::Exact));
        // Same slot, other key.
        assert!(tt.probe(42 + (tt.mask as u64 + 1)).is_none());
    }

    #[test]
    fn deeper_entry_of_this_search_is_kept_against_a_shallow_one() {
        let mut tt = TranspositionTable::with_megabytes(1);
        let other = 42 + (tt.mask as u64 + 1);
        tt.store(42, None, 1, 8, Bound::Exact);
        tt.store(other, None, 2, 2, Bound::Exact);
        assert!(tt.probe(42).is_some());
        tt.new_search();
        tt.store(other, None, 2, 2, Bound::Exact);
        assert!(tt.probe(other).is_some());
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        // Mate found 5 plies below the root, stored at ply 2: mate in 3 from there.
        let stored = to_tt(MATE - 5, 2);
        assert_eq!(stored, MATE - 3);
        // Seen again at ply 4, it is 7 plies from the root.
        assert_eq!(from_tt(stored, 4), MATE - 7);
        assert_eq!(from_tt(to_tt(-(MATE - 6), 3), 3), -(MATE - 6));
        assert_eq!(from_tt(to_tt(55, 3), 9), 55);
    }
}
