//! Analysing many positions on every core: one engine per thread, the positions shared
//! out one at a time, each result kept in the store as soon as it comes, so a run that
//! is stopped or killed resumes where it was.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use shakmaty::Chess;
use thiserror::Error;

use super::store::AnalysisStore;
use crate::engine::analysis::{Analysis, analyse};
use crate::engine::{Engine, EngineError, Limits};
use crate::job::JobProgress;

/// Why a run stopped before the end.
#[derive(Debug, Error)]
pub enum RunError {
    /// An engine could not be started, or failed during a search.
    #[error("{0}")]
    Engine(#[from] EngineError),
    /// The store could not keep an analysis.
    #[error("cannot keep the analysis: {0}")]
    Store(#[from] std::io::Error),
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Positions the engine analysed in this run.
    pub analysed: usize,
    /// Positions found in the store.
    pub cached: usize,
    /// Whether the run was cancelled before every position was analysed.
    pub cancelled: bool,
}

/// Analyses every position of `positions` not yet in `store`, with `threads` engines
/// made by `make_engine`, each search within `limits`. Progress counts positions
/// (cached ones at once); cancelling stops the searches and returns what was kept.
///
/// # Errors
///
/// [`RunError`] when an engine fails or the store cannot write; what was analysed
/// before is kept in the store.
pub fn analyse_positions(
    positions: &[Chess],
    store: &mut dyn AnalysisStore,
    make_engine: &(dyn Fn() -> Result<Box<dyn Engine>, EngineError> + Sync),
    threads: usize,
    limits: &Limits,
    progress: &JobProgress,
) -> Result<RunStats, RunError> {
    let todo: Vec<&Chess> = positions
        .iter()
        .filter(|p| store.get(p).is_none())
        .collect();
    let mut stats = RunStats {
        cached: positions.len() - todo.len(),
        ..RunStats::default()
    };
    progress.set_total(positions.len() as u64);
    progress.advance(stats.cached as u64);
    if todo.is_empty() {
        return Ok(stats);
    }
    let threads = threads.clamp(1, todo.len());
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<(usize, Analysis), EngineError>>();
    let mut failure: Option<RunError> = None;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop, todo) = (&next, &stop, &todo);
            scope.spawn(move || {
                let mut engine = match make_engine() {
                    Ok(e) => e,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(pos) = todo.get(i) else { return };
                    let result = analyse(engine.as_mut(), pos, limits, stop).map(|a| (i, a));
                    let failed = result.is_err();
                    // The receiver lives until every worker has ended.
                    let _ = tx.send(result);
                    if failed {
                        return;
                    }
                }
            });
        }
        drop(tx);
        loop {
            if progress.is_cancelled() {
                stop.store(true, Ordering::Relaxed);
            }
            match rx.recv_timeout(std::time::Duration::from_millis(50)) {
                Ok(Ok((i, analysis))) => {
                    // A search cut short by cancelling is not a finished analysis.
                    if stop.load(Ordering::Relaxed) {
                        continue;
                    }
                    if let Err(e) = store.put(todo[i], &analysis) {
                        stop.store(true, Ordering::Relaxed);
                        failure.get_or_insert(RunError::Store(e));
                        continue;
                    }
                    stats.analysed += 1;
                    progress.advance(1);
                }
                Ok(Err(e)) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(RunError::Engine(e));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    stats.cancelled = stats.analysed + stats.cached < positions.len();
    Ok(stats)
}
