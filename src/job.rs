//! Long work with progress and cancel: one small job type for the window and the CLI.
//!
//! The work is a closure that receives a [`JobProgress`]: it reports how far it is
//! ([`JobProgress::set_total`], [`JobProgress::advance`], [`JobProgress::add_items`]) and
//! stops early when [`JobProgress::is_cancelled`] says so. The window runs it on its own
//! thread with [`Job::spawn`] and polls it each frame ([`Job::poll`]); the CLI runs it on
//! the calling thread, where the same counters drive a terminal progress bar through a
//! [`ProgressObserver`] (the CLI's `progress_bar`).
//!
//! This module sits in the lowest layer, so that every other one may use it: the
//! review's optimiser, the trainer's checks, verdicts and play-on games, the workspace's
//! imports and builds, the coach and the CLI report progress or wake their caller
//! through it (the book does not use it). The engines' threads wait through
//! [`first_frame`] for the window's first frame before starting their engine.
//!
//! ```
//! use std::sync::Arc;
//! use hastings::job::{Job, JobPoll};
//!
//! let job = Job::spawn("sum", Arc::new(|| {}), |progress| {
//!     progress.set_total(10);
//!     (1..=10u64).inspect(|_| progress.advance(1)).sum::<u64>()
//! })?;
//! assert_eq!(job.wait()?, 55);
//! # Ok::<(), hastings::job::JobError>(())
//! ```

pub mod first_frame;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use thiserror::Error;

/// Called by a background job when it has finished or made progress worth drawing (the
/// window asks egui to repaint; the CLI passes a no-op).
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// Why a job gave no result.
#[derive(Debug, Error)]
pub enum JobError {
    /// The operating system refused to start the job's thread.
    #[error("cannot start a background thread for {label}: {source}")]
    Spawn {
        /// What the job was for.
        label: String,
        /// Why.
        source: std::io::Error,
    },
    /// The job's thread ended without a result (it panicked: a bug).
    #[error("{label} stopped unexpectedly")]
    Died {
        /// What the job was for.
        label: String,
    },
}

/// How far a job is, shared between the job and whoever watches it.
#[derive(Default)]
pub struct JobProgress {
    done: AtomicU64,
    total: AtomicU64,
    items: AtomicU64,
    cancelled: AtomicBool,
    observer: Option<Box<dyn ProgressObserver>>,
}

impl std::fmt::Debug for JobProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobProgress")
            .field("snapshot", &self.snapshot())
            .field("observed", &self.observer.is_some())
            .finish()
    }
}

/// Watches a job's counters as they change (the CLI draws a terminal progress bar).
pub trait ProgressObserver: Send + Sync {
    /// The number of units in all is now `total`.
    fn set_total(&self, total: u64);
    /// The count starts again from nothing done.
    fn restart(&self);
    /// `n` more units are done.
    fn advance(&self, n: u64);
    /// The work has ended.
    fn finish(&self);
}

/// A copy of a job's counters at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ProgressSnapshot {
    /// Units done (bytes read, positions written, …).
    pub done: u64,
    /// Units in all; 0 when unknown.
    pub total: u64,
    /// Items seen (games started, …), counted apart from the units.
    pub items: u64,
    /// Whether cancel was asked for.
    pub cancelled: bool,
}

impl ProgressSnapshot {
    /// The part done, 0 to 1 (0 when the total is unknown).
    pub fn fraction(&self) -> f32 {
        if self.total == 0 {
            0.0
        } else {
            (self.done as f64 / self.total as f64).min(1.0) as f32
        }
    }
}

impl JobProgress {
    /// Counters with nothing drawn.
    pub fn new() -> JobProgress {
        JobProgress::default()
    }

    /// Counters that also tell `observer` how they change.
    pub fn observed(observer: Box<dyn ProgressObserver>) -> JobProgress {
        JobProgress {
            observer: Some(observer),
            ..JobProgress::default()
        }
    }

    /// Sets the number of units in all.
    pub fn set_total(&self, total: u64) {
        self.total.store(total, Ordering::Relaxed);
        if let Some(o) = &self.observer {
            o.set_total(total);
        }
    }

    /// Starts the counting again from nothing done (the work is done over).
    pub fn restart(&self) {
        self.done.store(0, Ordering::Relaxed);
        self.items.store(0, Ordering::Relaxed);
        if let Some(o) = &self.observer {
            o.restart();
        }
    }

    /// Adds `n` units done.
    pub fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
        if let Some(o) = &self.observer {
            o.advance(n);
        }
    }

    /// Adds `n` items seen.
    pub fn add_items(&self, n: u64) {
        self.items.fetch_add(n, Ordering::Relaxed);
    }

    /// Asks the job to stop; it notices at its next [`JobProgress::is_cancelled`].
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether cancel was asked for.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// The counters now.
    pub fn snapshot(&self) -> ProgressSnapshot {
        ProgressSnapshot {
            done: self.done.load(Ordering::Relaxed),
            total: self.total.load(Ordering::Relaxed),
            items: self.items.load(Ordering::Relaxed),
            cancelled: self.is_cancelled(),
        }
    }

    /// Tells the observer, if any, that the work has ended.
    pub fn finish(&self) {
        if let Some(o) = &self.observer {
            o.finish();
        }
    }
}

/// What [`Job::poll`] found.
#[derive(Debug)]
pub enum JobPoll<T> {
    /// Still working.
    Running,
    /// Finished with this result.
    Finished(T),
    /// The thread ended without a result (a bug); see [`JobError::Died`].
    Died(JobError),
}

/// Work running on its own thread.
#[derive(Debug)]
pub struct Job<T> {
    label: String,
    progress: Arc<JobProgress>,
    rx: mpsc::Receiver<T>,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a thread named after `label`; `wake` is called when it finishes.
    ///
    /// # Errors
    ///
    /// [`JobError::Spawn`] when the thread cannot be started.
    pub fn spawn(
        label: &str,
        wake: Wake,
        work: impl FnOnce(&JobProgress) -> T + Send + 'static,
    ) -> Result<Job<T>, JobError> {
        Job::spawn_with(label, Arc::new(JobProgress::new()), wake, work)
    }

    /// As [`Job::spawn`], with counters made by the caller.
    ///
    /// # Errors
    ///
    /// [`JobError::Spawn`] when the thread cannot be started.
    pub fn spawn_with(
        label: &str,
        progress: Arc<JobProgress>,
        wake: Wake,
        work: impl FnOnce(&JobProgress) -> T + Send + 'static,
    ) -> Result<Job<T>, JobError> {
        let (tx, rx) = mpsc::channel();
        let shared = Arc::clone(&progress);
        std::thread::Builder::new()
            .name(format!("hastings-{label}"))
            .spawn(move || {
                let result = work(&shared);
                shared.finish();
                let _ = tx.send(result);
                wake();
            })
            .map_err(|source| JobError::Spawn {
                label: label.to_owned(),
                source,
            })?;
        Ok(Job {
            label: label.to_owned(),
            progress,
            rx,
        })
    }

    /// Takes the result if the job has finished; never waits.
    pub fn poll(&self) -> JobPoll<T> {
        match self.rx.try_recv() {
            Ok(result) => JobPoll::Finished(result),
            Err(mpsc::TryRecvError::Empty) => JobPoll::Running,
            Err(mpsc::TryRecvError::Disconnected) => JobPoll::Died(self.died()),
        }
    }

    /// Waits until the job has finished, without taking it (tests and the screenshot
    /// mode wait; the window never does).
    pub fn poll_blocking(&self) -> JobPoll<T> {
        match self.rx.recv() {
            Ok(result) => JobPoll::Finished(result),
            Err(_) => JobPoll::Died(self.died()),
        }
    }

    /// Waits for the result (tests and the CLI wait; the window never does).
    ///
    /// # Errors
    ///
    /// [`JobError::Died`] when the thread ended without a result.
    pub fn wait(self) -> Result<T, JobError> {
        self.rx.recv().map_err(|_| self.died())
    }

    /// The job's counters.
    pub fn progress(&self) -> &Arc<JobProgress> {
        &self.progress
    }

    /// Asks the job to stop.
    pub fn cancel(&self) {
        self.progress.cancel();
    }

    /// What the job is for.
    pub fn label(&self) -> &str {
        &self.label
    }

    fn died(&self) -> JobError {
        JobError::Died {
            label: self.label.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelled_job_stops_and_reports_its_counters() {
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let job = Job::spawn("count", Arc::new(|| {}), move |p| {
            p.set_total(1000);
            let _ = go_rx.recv();
            let mut n = 0;
            while !p.is_cancelled() && n < 1_000_000_000u64 {
                p.advance(1);
                n += 1;
            }
            n
        })
        .unwrap();
        assert!(matches!(job.poll(), JobPoll::Running));
        job.cancel();
        go_tx.send(()).unwrap();
        let progress = Arc::clone(job.progress());
        let n = job.wait().unwrap();
        assert!(n < 1_000_000_000);
        let s = progress.snapshot();
        assert!(s.cancelled);
        assert_eq!((s.done, s.total), (n, 1000));
    }

    #[test]
    fn a_job_that_panics_is_reported_as_died() {
        let job: Job<u32> = Job::spawn("boom", Arc::new(|| {}), |_| panic!("bug")).unwrap();
        let err = job.wait().unwrap_err();
        assert_eq!(err.to_string(), "boom stopped unexpectedly");
    }
}
