//! Long work with progress and cancel: one small job type for the window and the CLI.
//!
//! The work is a closure that receives a [`JobProgress`]: it reports how far it is
//! ([`JobProgress::set_total`], [`JobProgress::advance`], [`JobProgress::add_items`]) and
//! stops early when [`JobProgress::is_cancelled`] says so. The window runs it on its own
//! thread with [`Job::spawn`] and polls it each frame ([`Job::poll`]); the CLI runs it on
//! the calling thread with [`run_inline`], where the same counters drive a terminal
//! progress bar (indicatif; drawn only when stderr is a terminal).
//!
//! ```
//! use std::sync::Arc;
//! use hastings::workspace::job::{Job, JobPoll};
//!
//! let job = Job::spawn("sum", Arc::new(|| {}), |progress| {
//!     progress.set_total(10);
//!     (1..=10u64).inspect(|_| progress.advance(1)).sum::<u64>()
//! })?;
//! assert_eq!(job.wait()?, 55);
//! # Ok::<(), hastings::workspace::job::JobError>(())
//! ```

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
#[derive(Debug, Default)]
pub struct JobProgress {
    done: AtomicU64,
    total: AtomicU64,
    items: AtomicU64,
    cancelled: AtomicBool,
    bar: Option<indicatif::ProgressBar>,
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

    /// Counters that also draw a progress bar labelled `label` on stderr (only when
    /// stderr is a terminal; elsewhere nothing is drawn).
    pub fn with_terminal_bar(label: &str) -> JobProgress {
        let bar = indicatif::ProgressBar::with_draw_target(
            None,
            indicatif::ProgressDrawTarget::stderr_with_hz(10),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{msg} [{bar:30}] {percent:>3}% {binary_bytes}/{binary_total_bytes} ({eta})",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(label.to_owned());
        JobProgress {
            bar: Some(bar),
            ..JobProgress::default()
        }
    }

    /// Sets the number of units in all.
    pub fn set_total(&self, total: u64) {
        self.total.store(total, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.set_length(total);
        }
    }

    /// Starts the counting again from nothing done (the work is done over).
    pub fn restart(&self) {
        self.done.store(0, Ordering::Relaxed);
        self.items.store(0, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.set_position(0);
        }
    }

    /// Adds `n` units done.
    pub fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.inc(n);
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

    /// Clears the terminal bar, if any.
    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
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

/// Runs `work` on the calling thread with a terminal progress bar labelled `label`
/// (the CLI's way to run a job).
pub fn run_inline<T>(label: &str, work: impl FnOnce(&JobProgress) -> T) -> T {
    let progress = JobProgress::with_terminal_bar(label);
    let result = work(&progress);
    progress.finish();
    result
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

    #[test]
    fn inline_work_runs_on_the_calling_thread() {
        let here = std::thread::current().id();
        let there = run_inline("inline", |p| {
            p.advance(3);
            assert_eq!(p.snapshot().done, 3);
            std::thread::current().id()
        });
        assert_eq!(here, there);
    }
}
