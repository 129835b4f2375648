//! Joining sorted runs of [`MoveCount`]s into one sorted stream (a k-way merge).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::counts::MoveCount;
use super::moves::RawMove;

/// The runs' counts in one stream sorted by key and move; a `(key, move)` that several
/// runs hold comes once per run, side by side. Each run must be sorted; a run's error
/// is passed on where it occurs.
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
pub fn merge_runs<I, E>(runs: Vec<I>) -> MergeRuns<I, E>
where
    I: Iterator<Item = Result<MoveCount, E>>,
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
pub struct MergeRuns<I, E> {
    runs: Vec<I>,
    /// The next count of each run, when it is in the heap.
    heads: Vec<Option<MoveCount>>,
    heap: BinaryHeap<Reverse<(u64, RawMove, usize)>>,
    started: bool,
    pending_error: Vec<E>,
}

impl<I, E> MergeRuns<I, E>
where
    I: Iterator<Item = Result<MoveCount, E>>,
{
    /// Takes run `i`'s next count into the heap.
    fn refill(&mut self, i: usize) {
        let Some(run) = self.runs.get_mut(i) else {
            return;
        };
        match run.next() {
            Some(Ok(c)) => {
                self.heap.push(Reverse((c.key, c.raw_move, i)));
                if let Some(head) = self.heads.get_mut(i) {
                    *head = Some(c);
                }
            }
            Some(Err(e)) => self.pending_error.push(e),
            None => {}
        }
    }
}

impl<I, E> Iterator for MergeRuns<I, E>
where
    I: Iterator<Item = Result<MoveCount, E>>,
{
    type Item = Result<MoveCount, E>;

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
        let Reverse((_, _, i)) = self.heap.pop()?;
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
