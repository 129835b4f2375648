//! The fitness of seed 003 (Klevansky, Ostroff and Offen, "Determining the Optimal
//! Tradeoff for building Chess Playing Agents: Genetically Tuned vs. Neural Features",
//! Technion, 2023; `ARCHITECTURE.md`, References): how many training positions a depth-N
//! α-β search with an organism's weights answers with the move played.
//!
//! Every position is searched from a fresh state (an empty small table, no history), so
//! a count depends only on the weights and the positions, never on which thread
//! searched what before: the same seed gives the same weights on any number of threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;

use super::positions::Sample;
use crate::engine::evaluation::Evaluation;
use crate::engine::game::Game;
use crate::engine::limits::Limits;
use crate::engine::search::{SearchOptions, Searcher};
use crate::engine::tuned::{TunedEval, Weights};
use crate::genetic::{Chromosome, Problem};

/// How many of `positions` a depth-`depth` search with `evaluation` answers with the
/// move played, searching with `searcher` (its evaluation is replaced).
pub fn count_matches(
    searcher: &mut Searcher,
    evaluation: Evaluation,
    positions: &[Sample],
    depth: u32,
) -> u32 {
    searcher.set_evaluation(evaluation);
    let stop = AtomicBool::new(false);
    let limits = Limits::depth(depth).unwrap_or(Limits::ONE_PLY);
    let mut hits = 0;
    for (pos, played) in positions {
        searcher.clear();
        let outcome = searcher.search(
            &Game::new(pos.clone()),
            &limits,
            &SearchOptions::default(),
            &stop,
            &mut |_| {},
        );
        hits += u32::from(outcome.best.as_ref() == Some(played));
    }
    hits
}

/// The number of worker threads: `threads`, or one per core when 0.
pub fn worker_count(threads: usize) -> usize {
    match threads {
        0 => thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Runs `work` on each of `items` over `threads` threads (0: one per core), each
/// thread with its own `make()`; results in the items' order (`None` for items a
/// panicking worker never finished).
pub fn parallel_map<T: Sync, S, R: Send>(
    items: &[T],
    threads: usize,
    make: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let workers = worker_count(threads).min(items.len()).max(1);
    let done: Vec<Vec<(usize, R)>> = thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut state = make();
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            return out;
                        };
                        out.push((i, work(&mut state, item)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut results: Vec<Option<R>> = items.iter().map(|_| None).collect();
    for (i, r) in done.into_iter().flatten() {
        results[i] = Some(r);
    }
    results
}

/// The GA problem of the first stage: organisms are weights, the score is
/// [`count_matches`] on the training positions, organisms spread over threads.
pub struct MoveMatching<'a> {
    positions: &'a [Sample],
    depth: u32,
    threads: usize,
    /// Called after each organism is scored (for a progress bar).
    on_scored: Option<Box<dyn Fn() + Sync + 'a>>,
}

impl<'a> MoveMatching<'a> {
    /// Scores on `positions` at `depth` with `threads` threads (0: one per core).
    pub fn new(positions: &'a [Sample], depth: u32, threads: usize) -> MoveMatching<'a> {
        MoveMatching {
            positions,
            depth,
            threads,
            on_scored: None,
        }
    }

    /// Calls `f` after each organism is scored.
    pub fn on_scored(mut self, f: impl Fn() + Sync + 'a) -> MoveMatching<'a> {
        self.on_scored = Some(Box::new(f));
        self
    }

    /// The score of `weights`.
    pub fn score_weights(&self, weights: Weights) -> u32 {
        count_matches(
            &mut Searcher::small(Evaluation::Tapered),
            Evaluation::Tuned(Arc::new(TunedEval::new(weights))),
            self.positions,
            self.depth,
        )
    }
}

impl Problem for MoveMatching<'_> {
    fn layout(&self) -> Vec<u32> {
        Weights::layout()
    }

    fn score(&mut self, batch: &[Chromosome]) -> Vec<f64> {
        let positions = self.positions;
        let depth = self.depth;
        let on_scored = self.on_scored.as_deref();
        parallel_map(
            batch,
            self.threads,
            || Searcher::small(Evaluation::Tapered),
            |searcher, chromosome| {
                // A chromosome of the layout always decodes; anything else scores 0.
                let score = Weights::from_chromosome(chromosome).map_or(0.0, |w| {
                    let eval = Evaluation::Tuned(Arc::new(TunedEval::new(w)));
                    f64::from(count_matches(searcher, eval, positions, depth))
                });
                if let Some(f) = on_scored {
                    f();
                }
                score
            },
        )
        .into_iter()
        .map(|s| s.unwrap_or(f64::NEG_INFINITY))
        .collect()
    }
}
