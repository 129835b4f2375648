//! Counting the plies of games per `(position, move)`: a map of fixed capacity whose
//! contents leave as runs sorted by key and move.
//!
//! A run is the unit that `book make` keeps in memory or spills to a temporary file;
//! [`merge_runs`](super::merge_runs) joins sorted runs and
//! [`BookWriter`](super::BookWriter) adds up the counts of one `(key, move)` met in
//! several runs.

use rustc_hash::FxHashMap;

use super::games::MoveSink;
use super::moves::RawMove;

/// The counts of one `(position, move)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveCount {
    /// The position's Polyglot key.
    pub key: u64,
    /// The move.
    pub raw_move: RawMove,
    /// How many times it was played (games, unless a game repeats the position).
    pub games: u32,
    /// The sum of polyglot scores: 2 per win, 1 per draw or unknown result, 0 per loss
    /// of the side that moved.
    pub score: u32,
}

impl MoveCount {
    /// The size of [`MoveCount::to_bytes`].
    pub const BYTES: usize = 18;

    /// Little-endian bytes for a run file: key, move, games, score.
    pub fn to_bytes(self) -> [u8; MoveCount::BYTES] {
        let mut out = [0u8; MoveCount::BYTES];
        out[..8].copy_from_slice(&self.key.to_le_bytes());
        out[8..10].copy_from_slice(&self.raw_move.0.to_le_bytes());
        out[10..14].copy_from_slice(&self.games.to_le_bytes());
        out[14..].copy_from_slice(&self.score.to_le_bytes());
        out
    }

    /// Reads [`MoveCount::to_bytes`].
    pub fn from_bytes(bytes: [u8; MoveCount::BYTES]) -> MoveCount {
        let [key @ .., m0, m1, g0, g1, g2, g3, s0, s1, s2, s3] = bytes;
        MoveCount {
            key: u64::from_le_bytes(key),
            raw_move: RawMove(u16::from_le_bytes([m0, m1])),
            games: u32::from_le_bytes([g0, g1, g2, g3]),
            score: u32::from_le_bytes([s0, s1, s2, s3]),
        }
    }

    /// The order of runs and of the book: by key, then move.
    pub fn sort_key(&self) -> (u64, RawMove) {
        (self.key, self.raw_move)
    }
}

/// Bytes per slot of the map: a 16-byte key (`u64`, `u16`, padding), 8 bytes of counts,
/// one control byte.
const SLOT_BYTES: usize = 25;

/// Counts per `(position, move)` in a hash map bounded by a capacity: it grows with
/// what it holds, up to [`MoveCounts::capacity`] pairs, and says
/// [`MoveCounts::is_full`] when it is time to take a sorted run out.
#[derive(Debug)]
pub struct MoveCounts {
    map: FxHashMap<(u64, u16), (u32, u32)>,
    capacity: usize,
}

impl MoveCounts {
    /// A map that takes at most about `bytes` of memory when full (at least room for
    /// 896 pairs). While it grows to that size, the old and the new table live side
    /// by side for a moment: 1.5 times the final size.
    pub fn with_memory(bytes: usize) -> MoveCounts {
        // The map's table has a power-of-two number of slots and fills them to 7/8.
        let slots = (bytes / SLOT_BYTES).max(1024);
        let slots = if slots.is_power_of_two() {
            slots
        } else {
            slots.next_power_of_two() / 2
        };
        MoveCounts::with_capacity(slots / 8 * 7)
    }

    /// A map for at most `capacity` pairs; memory is taken as pairs come.
    pub fn with_capacity(capacity: usize) -> MoveCounts {
        let capacity = capacity.max(1);
        MoveCounts {
            map: FxHashMap::with_capacity_and_hasher(capacity.min(1 << 12), Default::default()),
            capacity,
        }
    }

    /// The most pairs it holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The pairs it holds.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Whether a new pair would not fit: take a run out first.
    pub fn is_full(&self) -> bool {
        self.map.len() >= self.capacity
    }

    /// Counts one ply unless it is a new pair and the map is full; says whether it
    /// counted. The map never grows past its capacity this way.
    pub fn try_add(&mut self, key: u64, raw_move: RawMove, score: u8) -> bool {
        let counts = if self.is_full() {
            match self.map.get_mut(&(key, raw_move.0)) {
                Some(counts) => counts,
                None => return false,
            }
        } else {
            self.map.entry((key, raw_move.0)).or_insert((0, 0))
        };
        counts.0 = counts.0.saturating_add(1);
        counts.1 = counts.1.saturating_add(u32::from(score));
        true
    }

    /// Everything it holds, sorted by key and move; the map is left empty, its memory
    /// kept.
    pub fn take_run(&mut self) -> Vec<MoveCount> {
        let mut run: Vec<MoveCount> = self
            .map
            .drain()
            .map(|((key, raw_move), (games, score))| MoveCount {
                key,
                raw_move: RawMove(raw_move),
                games,
                score,
            })
            .collect();
        run.sort_unstable_by_key(MoveCount::sort_key);
        run
    }
}

impl MoveSink for MoveCounts {
    /// Counts one ply; past the capacity the map grows (use
    /// [`MoveCounts::try_add`] to bound the memory).
    fn add(&mut self, key: u64, raw_move: RawMove, score: u8) {
        let counts = self.map.entry((key, raw_move.0)).or_insert((0, 0));
        counts.0 = counts.0.saturating_add(1);
        counts.1 = counts.1.saturating_add(u32::from(score));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_bytes_round_trip() {
        let c = MoveCount {
            key: 0x0123_4567_89ab_cdef,
            raw_move: RawMove(0x031c),
            games: 70_000,
            score: u32::MAX,
        };
        assert_eq!(MoveCount::from_bytes(c.to_bytes()), c);
    }

    #[test]
    fn counts_add_up_and_leave_sorted() {
        let mut counts = MoveCounts::with_capacity(3);
        counts.add(9, RawMove(1), 2);
        counts.add(5, RawMove(2), 1);
        counts.add(9, RawMove(1), 0);
        counts.add(5, RawMove(1), 1);
        assert!(counts.is_full());
        assert!(
            counts.try_add(9, RawMove(1), 1),
            "a known pair still counts"
        );
        assert!(!counts.try_add(1, RawMove(1), 1), "a new pair does not fit");
        let run = counts.take_run();
        let pairs: Vec<(u64, u16, u32, u32)> = run
            .iter()
            .map(|c| (c.key, c.raw_move.0, c.games, c.score))
            .collect();
        assert_eq!(pairs, [(5, 1, 1, 1), (5, 2, 1, 1), (9, 1, 3, 3)]);
        assert!(counts.is_empty());
        assert!(!counts.is_full());
    }

    #[test]
    fn memory_decides_the_capacity() {
        let counts = MoveCounts::with_memory(100 << 20);
        // 100 MB / 25 B = 4.19 M slots → 2^22 slots, 7/8 of them usable.
        assert_eq!(counts.capacity(), (1 << 22) / 8 * 7);
        assert_eq!(MoveCounts::with_memory(0).capacity(), 896);
    }
}
