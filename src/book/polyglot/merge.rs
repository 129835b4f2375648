//! Joining sorted runs of records into one sorted stream (a k-way merge): the
//! [`MoveCount`]s of `book make`, and any other [`RunRecord`] (the explorer's).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::counts::MoveCount;
use super::moves::RawMove;

/// A record that external sorting handles: sorted runs of it are spilled to files as
/// fixed-size bytes, merged, and records with the same sort key are added up.
pub trait RunRecord: Copy {
    /// The order of runs; records with equal sort keys are added up ([`RunRecord::absorb`]).
    type SortKey: Ord + Copy + std::fmt::Debug;
    /// The size of [`RunRecord::write_bytes`].
    const BYTES: usize;
    /// The record's place in a run.
    fn sort_key(&self) -> Self::SortKey;
    /// Adds `other`, a record with the same sort key, to this one.
    fn absorb(&mut self, other: &Self);
    /// Writes the record's [`RunRecord::BYTES`] bytes to the start of `out`.
    fn write_bytes(&self, out: &mut [u8]);
    /// Reads [`RunRecord::write_bytes`] (`bytes` holds at least [`RunRecord::BYTES`]).
    fn read_bytes(bytes: &[u8]) -> Self;
}

impl RunRecord for MoveCount {
    type SortKey = (u64, RawMove);
    const BYTES: usize = MoveCount::BYTES;

    fn sort_key(&self) -> (u64, RawMove) {
        MoveCount::sort_key(self)
    }

    fn absorb(&mut self, other: &MoveCount) {
        self.games = self.games.saturating_add(other.games);
        self.score = self.score.saturating_add(other.score);
    }

    fn write_bytes(&self, out: &mut [u8]) {
        let bytes = self.to_bytes();
        if let Some(slot) = out.get_mut(..MoveCount::BYTES) {
            slot.copy_from_slice(&bytes);
        }
    }

    fn read_bytes(bytes: &[u8]) -> MoveCount {
        let mut fixed = [0u8; MoveCount::BYTES];
        if let Some(head) = bytes.get(..MoveCount::BYTES) {
            fixed.copy_from_slice(head);
        }
        MoveCount::from_bytes(fixed)
    }
}

/// The runs' records in one stream sorted by [`RunRecord::sort_key`]; a key that
/// several runs hold comes once per run, side by side. Each run must be sorted; a
/// run's error is passed on where it occurs.
///
/// ```
/// use hastings::book::polyglot::{MoveCount, RawMove, merge_runs};
///
/// let c = |key, games| MoveCount { key, raw_move: RawMove(1), games, score: 0 };
/// let a = vec![c(1, 1), c(5, 1)];
/// let b = vec![c(3, 1), c(5, 2)];
/// let runs = vec![a.into_iter().map(Ok::<_, ()>), b.into_iter().map(Ok)];
/// let keys: Vec<(u64, u32)> = merge_runs(runs).map(|c| c.map(|c| (c.key, c.games)).unwrap()).collect();
/// assert_eq!(keys, [(1, 1), (3, 1), (5, 1), (5, 2)]);
/// ```
pub fn merge_runs<T, I, E>(runs: Vec<I>) -> MergeRuns<T, I, E>
where
    T: RunRecord,
    I: Iterator<Item = Result<T, E>>,
{
    let heads = runs.iter().map(|_| None).collect();
    MergeRuns {
        runs,
        heads,
        heap: BinaryHeap::new(),
        started: false,
        pending_error: Vec::new(),
    }
}

/// The iterator of [`merge_runs`].
#[derive(Debug)]
pub struct MergeRuns<T: RunRecord, I, E> {
    runs: Vec<I>,
    /// The next record of each run, when it is in the heap.
    heads: Vec<Option<T>>,
    heap: BinaryHeap<Reverse<(T::SortKey, usize)>>,
    started: bool,
    pending_error: Vec<E>,
}

impl<T, I, E> MergeRuns<T, I, E>
where
    T: RunRecord,
    I: Iterator<Item = Result<T, E>>,
{
    /// Takes run `i`'s next count into the heap.
    fn refill(&mut self, i: usize) {
        let Some(run) = self.runs.get_mut(i) else {
            return;
        };
        match run.next() {
            Some(Ok(c)) => {
                self.heap.push(Reverse((c.sort_key(), i)));
                if let Some(head) = self.heads.get_mut(i) {
                    *head = Some(c);
                }
            }
            Some(Err(e)) => self.pending_error.push(e),
            None => {}
        }
    }
}

impl<T, I, E> Iterator for MergeRuns<T, I, E>
where
    T: RunRecord,
    I: Iterator<Item = Result<T, E>>,
{
    type Item = Result<T, E>;

    fn next(&mut self) -> Option<Self::Item> {
        if !self.started {
            self.started = true;
            for i in 0..self.runs.len() {
                self.refill(i);
            }
        }
        if let Some(e) = self.pending_error.pop() {
            return Some(Err(e));
        }
        let Reverse((_, i)) = self.heap.pop()?;
        let head = self.heads.get_mut(i).and_then(Option::take);
        self.refill(i);
        head.map(Ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(key: u64, raw_move: u16) -> MoveCount {
        MoveCount {
            key,
            raw_move: RawMove(raw_move),
            games: 1,
            score: 1,
        }
    }

    #[test]
    fn many_runs_merge_into_one_sorted_stream() {
        let runs: Vec<Vec<MoveCount>> = vec![
            vec![c(1, 2), c(4, 1), c(9, 9)],
            vec![],
            vec![c(1, 1), c(4, 1), c(4, 3)],
            vec![c(0, 7)],
        ];
        let total: usize = runs.iter().map(Vec::len).sum();
        let merged: Vec<MoveCount> = merge_runs(
            runs.into_iter()
                .map(|r| r.into_iter().map(Ok::<_, ()>))
                .collect(),
        )
        .map(Result::unwrap)
        .collect();
        assert_eq!(merged.len(), total);
        assert!(
            merged
                .windows(2)
                .all(|w| w[0].sort_key() <= w[1].sort_key())
        );
    }

    #[test]
    fn a_run_error_is_passed_on() {
        let good = vec![Ok(c(1, 1)), Ok(c(3, 1))];
        let bad = vec![Ok(c(2, 1)), Err("disk"), Ok(c(4, 1))];
        let out: Vec<Result<MoveCount, &str>> =
            merge_runs(vec![good.into_iter(), bad.into_iter()]).collect();
        assert!(out.contains(&Err("disk")));
    }
}
