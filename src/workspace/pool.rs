//! One pool of worker threads fed over a bounded channel: what `book make`, `explorer
//! make` ([`super::chunks::process_chunks`]) and a PGN file read in parts
//! ([`super::import_parts`]) share.
//!
//! The calling thread feeds items (chunks of PGN text) while the workers take them, so
//! only a few items are in memory at once; each worker starts from its own state and
//! returns one result; the results come back in worker order.

use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use crate::job::JobProgress;

/// Runs `work(state, next)` on one thread for each of `states`, where `next()` gives the
/// next item `feed` sent, or `None` once `feed` has returned (or `progress` is
/// cancelled). `feed(send)` runs on the calling thread meanwhile; `send(item)` waits
/// while the channel holds one item a worker, and returns `false` once no worker takes
/// items any more or `progress` is cancelled (then `feed` should stop).
///
/// Returns what `feed` returned and each worker's result in worker order (`None` for a
/// worker that panicked: a bug the caller reports).
pub(crate) fn worker_pool<I, S, T, R>(
    states: Vec<S>,
    progress: Option<&JobProgress>,
    feed: impl FnOnce(&mut dyn FnMut(I) -> bool) -> R,
    work: impl Fn(S, &mut dyn FnMut() -> Option<I>) -> T + Sync,
) -> (R, Vec<Option<T>>)
where
    I: Send,
    S: Send,
    T: Send,
{
    let cancelled = || progress.is_some_and(JobProgress::is_cancelled);
    let (work, cancelled) = (&work, &cancelled);
    thread::scope(|scope| {
        let (tx, rx) = sync_channel::<I>(states.len().max(1));
        let rx = Arc::new(Mutex::new(rx));
        let handles: Vec<_> = states
            .into_iter()
            .map(|state| {
                let rx = Arc::clone(&rx);
                scope.spawn(move || {
                    let mut next = || {
                        let item = rx
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .recv()
                            .ok()?;
                        (!cancelled()).then_some(item)
                    };
                    work(state, &mut next)
                })
            })
            .collect();
        // The workers hold the receiver now: once they all stop, sending fails.
        drop(rx);
        let fed = feed(&mut |item| !cancelled() && tx.send(item).is_ok());
        drop(tx);
        let results = handles.into_iter().map(|h| h.join().ok()).collect();
        (fed, results)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every item fed reaches one worker exactly once, the results come back in worker
    /// order, and each worker starts from its own state.
    #[test]
    fn every_item_reaches_one_worker_and_results_keep_worker_order() {
        let (fed, results) = worker_pool(
            vec![10u64, 20, 30],
            None,
            |send| (1..=100u64).take_while(|&i| send(i)).count(),
            |state, next| {
                let mut taken = Vec::new();
                while let Some(i) = next() {
                    taken.push(i);
                }
                (state, taken)
            },
        );
        assert_eq!(fed, 100);
        let results: Vec<(u64, Vec<u64>)> = results.into_iter().map(Option::unwrap).collect();
        assert_eq!(
            results.iter().map(|r| r.0).collect::<Vec<_>>(),
            [10, 20, 30]
        );
        let mut all: Vec<u64> = results.into_iter().flat_map(|r| r.1).collect();
        all.sort_unstable();
        assert_eq!(all, (1..=100).collect::<Vec<_>>());
    }

    /// Workers that all stop early (an error, a panic) stop the feed: it is never left
    /// waiting on a full channel.
    #[test]
    fn workers_that_stop_early_stop_the_feed() {
        let (fed, results) = worker_pool(
            vec![(), ()],
            None,
            |send| (0..1000).take_while(|&i| send(i)).count(),
            |(), next| next().map(|_| ()),
        );
        assert!(fed < 1000, "{fed}");
        assert_eq!(results.len(), 2);
    }

    /// A cancelled job stops the feed and the workers; a worker that panics is `None`
    /// and the others still finish.
    #[test]
    fn cancel_stops_the_feed_and_a_panicking_worker_is_none() {
        let progress = JobProgress::default();
        let (fed, results) = worker_pool(
            vec![0usize, 1],
            Some(&progress),
            |send| {
                let mut sent = 0;
                for i in 0..1000 {
                    if i == 5 {
                        progress.cancel();
                    }
                    if !send(i) {
                        break;
                    }
                    sent += 1;
                }
                sent
            },
            |id, next| {
                assert!(id != 1, "worker 1 fails");
                std::iter::from_fn(next).count()
            },
        );
        assert_eq!(fed, 5);
        assert!(results[0].is_some_and(|n| n <= 5));
        assert!(results[1].is_none());
    }
}
