//! Review mode's job: fitting the FSRS parameters to the review log ("Optimise my
//! memory model"; the new parameters are saved and used from the next review session).

use crate::coach::context::Context;
use crate::job::{Job, JobError, JobPoll, ProgressSnapshot};
use crate::review::optimize::{OptimizeError, Optimized, optimize};
use crate::workspace::review_store::{
    PARAMS_FILE, ReviewParams, ReviewStore, load_params, save_params,
};
use crate::workspace::store::StoreError;

/// Why fitting the memory model gave no new parameters (shown under its button).
#[derive(Debug, thiserror::Error)]
pub enum OptimizeFailed {
    /// The fit itself failed (too few reviews, no progress).
    #[error("{0}")]
    Fit(#[source] OptimizeError),
    /// The optimiser's thread could not start, or ended without a result.
    #[error("{0}")]
    Job(#[source] JobError),
    /// The new parameters could not be written beside the review log.
    #[error("The new parameters could not be saved: {0}")]
    Save(#[source] StoreError),
}

/// The optimiser's job and its last result.
#[derive(Default)]
pub struct OptimizeState {
    job: Option<Job<Result<Optimized, OptimizeError>>>,
    result: Option<Result<Optimized, OptimizeFailed>>,
}

impl OptimizeState {
    /// How far the running optimiser is, if it runs.
    pub fn progress(&self) -> Option<ProgressSnapshot> {
        self.job.as_ref().map(|job| job.progress().snapshot())
    }

    /// The last result: the fit (saved), or why it failed.
    pub fn result(&self) -> Option<&Result<Optimized, OptimizeFailed>> {
        self.result.as_ref()
    }
}

impl OptimizeState {
    /// Starts the optimiser on the review log in `store` (unless it runs).
    pub(crate) fn start(&mut self, store: &ReviewStore, ctx: &Context) {
        if self.job.is_some() {
            return;
        }
        let records = store.records().to_vec();
        let params_path = store.path().with_file_name(PARAMS_FILE);
        let current = load_params(&params_path).value.parameters;
        match Job::spawn("optimize", ctx.wake(), move |p| {
            optimize(&records, &current, p)
        }) {
            Ok(job) => {
                self.job = Some(job);
                self.result = None;
            }
            Err(e) => self.result = Some(Err(OptimizeFailed::Job(e))),
        }
    }

    /// Each frame: takes the optimiser's result when it is done and saves the new
    /// parameters beside the review log in `store`.
    pub(crate) fn poll(&mut self, store: &ReviewStore, ctx: &mut Context) {
        let Some(job) = &self.job else {
            return;
        };
        let result = match job.poll() {
            JobPoll::Running => {
                ctx.request_repaint_after(std::time::Duration::from_millis(100));
                return;
            }
            JobPoll::Finished(Ok(o)) => {
                let path = store.path().with_file_name(PARAMS_FILE);
                let mut params: ReviewParams = load_params(&path).value;
                params.parameters = o.new.clone();
                match save_params(&path, &params) {
                    Ok(()) => Ok(o),
                    Err(e) => Err(OptimizeFailed::Save(e)),
                }
            }
            JobPoll::Finished(Err(e)) => Err(OptimizeFailed::Fit(e)),
            JobPoll::Died(e) => Err(OptimizeFailed::Job(e)),
        };
        self.job = None;
        self.result = Some(result);
    }
}
