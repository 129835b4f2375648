//! Review mode's job: fitting the FSRS parameters to the review log ("Optimise my
//! memory model"; the new parameters are saved and used from the next review session).

use super::Coach;
use crate::job::{Job, JobPoll, ProgressSnapshot};
use crate::review::optimize::{OptimizeError, Optimized, optimize};
use crate::workspace::review_store::{ReviewParams, load_params, save_params};

/// The optimiser's job and its last result.
#[derive(Default)]
pub struct OptimizeState {
    job: Option<Job<Result<Optimized, OptimizeError>>>,
    result: Option<Result<Optimized, String>>,
}

impl OptimizeState {
    /// How far the running optimiser is, if it runs.
    pub fn progress(&self) -> Option<ProgressSnapshot> {
        self.job.as_ref().map(|job| job.progress().snapshot())
    }

    /// The last result: the fit (saved), or why it failed.
    pub fn result(&self) -> Option<&Result<Optimized, String>> {
        self.result.as_ref()
    }
}

impl Coach {
    /// Starts the optimiser on the review log.
    pub(crate) fn start_optimize(&mut self) {
        let Some(review) = &self.review.mode else {
            return;
        };
        if review.optimize.job.is_some() {
            return;
        }
        let records = review.store.records().to_vec();
        let params_path = review
            .store
            .path()
            .with_file_name(super::review::PARAMS_FILE);
        let current = load_params(&params_path).value.parameters;
        let wake = self.ctx.wake();
        let Some(review) = &mut self.review.mode else {
            return;
        };
        match Job::spawn("optimize", wake, move |p| optimize(&records, &current, p)) {
            Ok(job) => {
                review.optimize.job = Some(job);
                review.optimize.result = None;
            }
            Err(e) => review.optimize.result = Some(Err(e.to_string())),
        }
    }

    /// Takes the optimiser's result when it is done and saves the new parameters.
    pub(crate) fn poll_optimize(&mut self) {
        let Some(review) = &mut self.review.mode else {
            return;
        };
        let Some(job) = &review.optimize.job else {
            return;
        };
        let result = match job.poll() {
            JobPoll::Running => {
                self.ctx
                    .request_repaint_after(std::time::Duration::from_millis(100));
                return;
            }
            JobPoll::Finished(Ok(o)) => {
                let path = review
                    .store
                    .path()
                    .with_file_name(super::review::PARAMS_FILE);
                let mut params: ReviewParams = load_params(&path).value;
                params.parameters = o.new.clone();
                match save_params(&path, &params) {
                    Ok(()) => Ok(o),
                    Err(e) => Err(format!("The new parameters could not be saved: {e}")),
                }
            }
            JobPoll::Finished(Err(e)) => Err(e.to_string()),
            JobPoll::Died(e) => Err(e.to_string()),
        };
        review.optimize.job = None;
        review.optimize.result = Some(result);
    }
}
