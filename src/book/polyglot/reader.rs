//! Reading a Polyglot book from bytes: binary search by key, moves decoded at a
//! position, and a full check of the order.

use std::ops::Range;

use shakmaty::{Chess, Move};

use super::entry::{ENTRY_SIZE, Entry};
use super::error::{MoveSkip, PolyglotError};
use super::filter::KeyFilter;
use super::key::key;
use super::moves::RawMove;

/// A Polyglot book over borrowed bytes (a memory map, an embedded file, a buffer).
///
/// Making one checks only the length, so it is instant for any size; lookups binary
/// search the entries and read nothing else. [`PolyglotBook::check`] reads every key
/// once to prove the order. On bytes whose keys are not sorted, lookups never panic
/// but may miss entries.
///
/// ```
/// use hastings::book::polyglot::{Entry, PolyglotBook, RawMove, key};
/// use shakmaty::Chess;
///
/// let start = key(&Chess::default());
/// let e4 = Entry { key: start, raw_move: RawMove(0x031c), weight: 3, learn: 0 };
/// let bytes = e4.to_bytes();
/// let book = PolyglotBook::new(&bytes)?;
/// let moves = book.moves(&Chess::default());
/// assert_eq!(moves.moves[0].weight, 3);
/// assert_eq!(moves.moves[0].mv.to().to_string(), "e4");
/// # Ok::<(), hastings::book::polyglot::PolyglotError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct PolyglotBook<'a> {
    entries: &'a [[u8; ENTRY_SIZE]],
    /// Rules out absent keys before a search (see [`KeyFilter`]).
    filter: Option<&'a KeyFilter>,
}

/// A move of the book at a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookMove {
    /// The legal move.
    pub mv: Move,
    /// Its weight: the sum of the weights of its entries (a book may repeat an entry).
    pub weight: u32,
    /// The learn field of its first entry.
    pub learn: u32,
}

/// An entry whose move could not be played at the position looked up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkippedEntry {
    /// The 0-based index of the entry in the book.
    pub index: usize,
    /// Its move.
    pub raw_move: RawMove,
    /// Why it was skipped.
    pub reason: MoveSkip,
}

/// The book's moves at one position.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BookMoves {
    /// The position's key.
    pub key: u64,
    /// The legal moves the book gives, heaviest first (ties in file order).
    pub moves: Vec<BookMove>,
    /// Entries of the key that are not legal moves here (counted, not played).
    pub skipped: Vec<SkippedEntry>,
}

impl BookMoves {
    /// The sum of the weights.
    pub fn total_weight(&self) -> u64 {
        self.moves.iter().map(|m| u64::from(m.weight)).sum()
    }

    /// Whether the book has no playable move here.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// What [`PolyglotBook::check`] counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct BookSummary {
    /// Entries.
    pub entries: usize,
    /// Distinct keys (positions).
    pub positions: usize,
    /// Entries whose move is null or malformed ([`RawMove::check`]); readers skip them.
    pub bad_moves: usize,
    /// Entries of weight 0 (never chosen by weight).
    pub zero_weights: usize,
}

impl<'a> PolyglotBook<'a> {
    /// The book in `bytes`.
    ///
    /// # Errors
    ///
    /// [`PolyglotError::Truncated`] when the length is not a multiple of 16.
    pub fn new(bytes: &'a [u8]) -> Result<PolyglotBook<'a>, PolyglotError> {
        let (entries, rest) = bytes.as_chunks::<ENTRY_SIZE>();
        if !rest.is_empty() {
            return Err(PolyglotError::Truncated {
                len: bytes.len(),
                extra: rest.len(),
            });
        }
        Ok(PolyglotBook {
            entries,
            filter: None,
        })
    }

    /// The book of the whole entries of `bytes`, ignoring bytes after the last whole
    /// entry (for callers that checked the length with [`PolyglotBook::new`] before).
    pub fn whole_entries(bytes: &'a [u8]) -> PolyglotBook<'a> {
        PolyglotBook {
            entries: bytes.as_chunks::<ENTRY_SIZE>().0,
            filter: None,
        }
    }

    /// The book with `filter` (made from this book's keys) ruling out absent keys
    /// before each search.
    #[must_use]
    pub fn with_filter(self, filter: &'a KeyFilter) -> PolyglotBook<'a> {
        PolyglotBook {
            filter: Some(filter),
            ..self
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry at `index`.
    pub fn entry(&self, index: usize) -> Option<Entry> {
        self.entries.get(index).map(|b| Entry::from_bytes(*b))
    }

    /// Every entry in file order.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = Entry> + 'a {
        self.entries.iter().map(|b| Entry::from_bytes(*b))
    }

    /// The indices of the entries with `key` (empty when there is none), by binary
    /// search.
    pub fn key_range(&self, key: u64) -> Range<usize> {
        if self.filter.is_some_and(|f| !f.may_contain(key)) {
            return 0..0;
        }
        let start = self.lower_bound(key);
        let len = self.entries[start..]
            .iter()
            .take_while(|b| Entry::key_of(b) == key)
            .count();
        start..start + len
    }

    /// The index of the first entry whose key is not below `key`.
    ///
    /// Polyglot keys are Zobrist hashes, spread evenly over `u64`, so an interpolation
    /// search finds the place in about 9 reads, most of them in one page, where a
    /// binary search of 10,000,000 entries needs 24, each a likely cache miss in a
    /// memory-mapped file. Up to four interpolation steps narrow the range, a binary
    /// search finishes it; on unsorted bytes the result may be wrong but every index
    /// stays in bounds.
    fn lower_bound(&self, key: u64) -> usize {
        let (mut lo, mut hi) = (0usize, self.entries.len());
        // Keys below `lo` are below `key`, keys from `hi` on are not; `lo_key` and
        // `hi_key` bound the keys in between.
        let (mut lo_key, mut hi_key) = (0u64, u64::MAX);
        for _ in 0..4 {
            if hi - lo <= 32 || key < lo_key || key > hi_key {
                break;
            }
            let span = u128::from(hi_key - lo_key) + 1;
            let offset = u128::from(key - lo_key) * (hi - lo) as u128 / span;
            let guess = (lo + usize::try_from(offset).unwrap_or(hi - lo)).min(hi - 1);
            // Uniform keys land within about √n of the guess: a second read that far
            // on the other side brackets the key from both ends (an interpolation
            // alone creeps up on it from one side).
            let err = (hi - lo).isqrt().max(8);
            let k = Entry::key_of(&self.entries[guess]);
            let other = if k < key {
                (lo, lo_key) = (guess + 1, k);
                (guess + err).min(hi - 1)
            } else {
                (hi, hi_key) = (guess, k);
                guess.saturating_sub(err).max(lo)
            };
            if (lo..hi).contains(&other) {
                let k = Entry::key_of(&self.entries[other]);
                if k < key {
                    (lo, lo_key) = (other + 1, k);
                } else {
                    (hi, hi_key) = (other, k);
                }
            }
        }
        lo + self.entries[lo..hi].partition_point(|b| Entry::key_of(b) < key)
    }

    /// The entries with `key`, in file order.
    pub fn entries_at(&self, key: u64) -> impl Iterator<Item = Entry> + 'a {
        let range = self.key_range(key);
        self.entries[range].iter().map(|b| Entry::from_bytes(*b))
    }

    /// Whether the book has an entry for `pos` (legal or not).
    pub fn contains(&self, pos: &Chess) -> bool {
        !self.key_range(key(pos)).is_empty()
    }

    /// The book's moves at `pos`: every entry of its key decoded into a legal move,
    /// entries that repeat a move added up, the rest counted in
    /// [`BookMoves::skipped`].
    pub fn moves(&self, pos: &Chess) -> BookMoves {
        let key = key(pos);
        let range = self.key_range(key);
        let mut out = BookMoves {
            key,
            ..BookMoves::default()
        };
        for (index, bytes) in range.clone().zip(&self.entries[range]) {
            let entry = Entry::from_bytes(*bytes);
            match entry.raw_move.to_move(pos) {
                Ok(mv) => {
                    if let Some(seen) = out.moves.iter_mut().find(|m| m.mv == mv) {
                        seen.weight = seen.weight.saturating_add(u32::from(entry.weight));
                    } else {
                        out.moves.push(BookMove {
                            mv,
                            weight: u32::from(entry.weight),
                            learn: entry.learn,
                        });
                    }
                }
                Err(reason) => out.skipped.push(SkippedEntry {
                    index,
                    raw_move: entry.raw_move,
                    reason,
                }),
            }
        }
        // Stable: ties keep the file order.
        out.moves.sort_by_key(|m| std::cmp::Reverse(m.weight));
        out
    }

    /// Reads every entry once: proves that the keys are sorted and counts entries,
    /// positions, bad moves and zero weights. A book read through a memory map is read
    /// whole here, so callers that only look up positions may skip it.
    ///
    /// # Errors
    ///
    /// [`PolyglotError::Unsorted`] at the first key smaller than the one before it.
    pub fn check(&self) -> Result<BookSummary, PolyglotError> {
        let mut summary = BookSummary {
            entries: self.entries.len(),
            ..BookSummary::default()
        };
        let mut previous = None;
        for (index, bytes) in self.entries.iter().enumerate() {
            let entry = Entry::from_bytes(*bytes);
            match previous {
                Some(p) if entry.key < p => {
                    return Err(PolyglotError::Unsorted {
                        index,
                        previous: p,
                        key: entry.key,
                    });
                }
                Some(p) if entry.key == p => {}
                _ => summary.positions += 1,
            }
            previous = Some(entry.key);
            if entry.raw_move.check().is_err() {
                summary.bad_moves += 1;
            }
            if entry.weight == 0 {
                summary.zero_weights += 1;
            }
        }
        Ok(summary)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Position, uci::UciMove};

    use super::*;

    fn uci(pos: &Chess, s: &str) -> RawMove {
        let m = UciMove::from_ascii(s.as_bytes())
            .unwrap()
            .to_move(pos)
            .unwrap();
        RawMove::from_move(m).unwrap()
    }

    fn bytes(entries: &[Entry]) -> Vec<u8> {
        entries.iter().flat_map(|e| e.to_bytes()).collect()
    }

    fn entry(key: u64, raw_move: RawMove, weight: u16) -> Entry {
        Entry {
            key,
            raw_move,
            weight,
            learn: 0,
        }
    }

    #[test]
    fn the_interpolation_search_finds_what_a_binary_search_finds() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for n in [0usize, 1, 2, 33, 100, 5000] {
            // Random keys with runs of equal keys, and the extremes.
            let mut keys: Vec<u64> = (0..n)
                .map(|i| match i % 7 {
                    0 => 0,
                    1 => u64::MAX,
                    _ => rng.random::<u64>() >> rng.random_range(0..40),
                })
                .collect();
            keys.sort_unstable();
            for i in 0..n / 3 {
                keys[i * 3 + 1] = keys[i * 3];
            }
            let entries: Vec<Entry> = keys.iter().map(|&k| entry(k, RawMove(1), 1)).collect();
            let data = bytes(&entries);
            let book = PolyglotBook::new(&data).unwrap();
            let mut probes: Vec<u64> = keys.clone();
            probes.extend((0..200).map(|_| rng.random::<u64>() >> rng.random_range(0..40)));
            probes.extend([0, 1, u64::MAX - 1, u64::MAX]);
            for k in probes {
                assert_eq!(
                    book.lower_bound(k),
                    keys.partition_point(|&x| x < k),
                    "n {n}, key {k:#x}"
                );
            }
        }
        // Unsorted keys: some answer, never a panic.
        let entries: Vec<Entry> = (0..1000u64)
            .map(|i| entry(i.wrapping_mul(0x9e37_79b9_7f4a_7c15), RawMove(1), 1))
            .collect();
        let data = bytes(&entries);
        let book = PolyglotBook::new(&data).unwrap();
        for k in [0, 5, u64::MAX / 3, u64::MAX] {
            assert!(book.key_range(k).end <= 1000);
        }
    }

    #[test]
    fn a_length_that_is_not_a_multiple_of_16_is_truncated() {
        let data = vec![0u8; 16 * 3 + 5];
        assert_eq!(
            PolyglotBook::new(&data).unwrap_err(),
            PolyglotError::Truncated { len: 53, extra: 5 }
        );
        assert!(PolyglotBook::new(&[]).unwrap().is_empty());
    }

    #[test]
    fn lookups_find_every_entry_of_a_key_and_only_those() {
        let start = Chess::default();
        let k = key(&start);
        let data = bytes(&[
            entry(1, RawMove(1), 1),
            entry(k, uci(&start, "d2d4"), 5),
            entry(k, uci(&start, "e2e4"), 9),
            entry(k, uci(&start, "g1f3"), 5),
            entry(u64::MAX, RawMove(1), 1),
        ]);
        let book = PolyglotBook::new(&data).unwrap();
        assert_eq!(book.key_range(k), 1..4);
        assert_eq!(book.key_range(2), 1..1);
        assert!(book.contains(&start));
        let moves = book.moves(&start);
        let ucis: Vec<String> = moves
            .moves
            .iter()
            .map(|m| UciMove::from_standard(m.mv).to_string())
            .collect();
        // Heaviest first, ties in file order.
        assert_eq!(ucis, ["e2e4", "d2d4", "g1f3"]);
        assert_eq!(moves.total_weight(), 19);
        assert!(moves.skipped.is_empty());
        let summary = book.check().unwrap();
        assert_eq!((summary.entries, summary.positions), (5, 3));
    }

    #[test]
    fn entries_that_are_not_legal_here_are_counted_not_played() {
        let start = Chess::default();
        let k = key(&start);
        let e2e5 = RawMove((12 << 6) | 36);
        let data = bytes(&[
            entry(k, RawMove::NULL, 3),
            entry(k, uci(&start, "e2e4"), 2),
            entry(k, e2e5, 4),
            entry(k, RawMove(0x7fff), 4),
            entry(k, uci(&start, "e2e4"), 1),
        ]);
        let book = PolyglotBook::new(&data).unwrap();
        let moves = book.moves(&start);
        assert_eq!(moves.moves.len(), 1);
        assert_eq!(moves.moves[0].weight, 3, "repeated entries add up");
        let reasons: Vec<MoveSkip> = moves.skipped.iter().map(|s| s.reason).collect();
        assert_eq!(
            reasons,
            [
                MoveSkip::Null,
                MoveSkip::Illegal(e2e5),
                MoveSkip::Malformed(RawMove(0x7fff))
            ]
        );
        assert_eq!(moves.skipped[1].index, 2);
        assert_eq!(book.check().unwrap().bad_moves, 2);
    }

    #[test]
    fn unsorted_keys_are_reported_and_lookups_do_not_panic() {
        let start = Chess::default();
        let k = key(&start);
        let data = bytes(&[
            entry(k, uci(&start, "e2e4"), 1),
            entry(3, RawMove(1), 1),
            entry(1, RawMove(1), 0),
        ]);
        let book = PolyglotBook::new(&data).unwrap();
        assert_eq!(
            book.check().unwrap_err(),
            PolyglotError::Unsorted {
                index: 1,
                previous: k,
                key: 3
            }
        );
        for probe in [0, 1, 2, 3, k, u64::MAX] {
            let range = book.key_range(probe);
            assert!(range.end <= book.len());
        }
        let _ = book.moves(&start);
    }

    #[test]
    fn a_position_after_moves_is_found_by_its_key() {
        let mut pos = Chess::default();
        let e4 = uci(&pos, "e2e4");
        pos.play_unchecked(e4.to_move(&pos).unwrap());
        let c5 = uci(&pos, "c7c5");
        let data = bytes(&[entry(key(&pos), c5, 7)]);
        let book = PolyglotBook::new(&data).unwrap();
        assert_eq!(book.moves(&pos).moves[0].weight, 7);
        assert!(book.moves(&Chess::default()).is_empty());
    }
}
