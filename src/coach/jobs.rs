//! Two jobs of the window's tabs: making a Polyglot book from PGN files ("Make a book
//! from PGN…", `hastings book make` as a job with progress and cancel; the finished book
//! becomes a source) and fitting the FSRS parameters to the review log ("Optimise my
//! memory model"; the new parameters are saved and used from the next review session).

use std::path::PathBuf;

use super::Coach;
use super::format::count;
use crate::job::{Job, JobPoll, ProgressSnapshot, Wake};
use crate::review::optimize::{OptimizeError, Optimized, optimize};
use crate::workspace::polyglot_make::{MakeError, MakeOptions, MakeReport, make_book};
use crate::workspace::review_store::{ReviewParams, load_params, save_params};

type MakeResult = Result<MakeReport, MakeError>;

/// The running "make a book" job and what the last one did (runtime only).
#[derive(Default)]
pub struct MakeBookJob {
    job: Option<(PathBuf, Job<MakeResult>)>,
    /// The last job's outcome, for the learner.
    outcome: Option<String>,
}

impl MakeBookJob {
    /// Starts making the book of `inputs` at `output` on a thread.
    pub(crate) fn start(&mut self, inputs: Vec<PathBuf>, output: PathBuf, wake: Wake) {
        if inputs.is_empty() || output.as_os_str().is_empty() {
            self.outcome = Some("Give the PGN file(s) and where to write the book.".to_owned());
            return;
        }
        let out = output.clone();
        match Job::spawn("book-make", wake, move |progress| {
            make_book(&inputs, &out, &MakeOptions::default(), progress)
        }) {
            Ok(job) => {
                self.outcome = None;
                self.job = Some((output, job));
            }
            Err(e) => self.outcome = Some(format!("Cannot start: {e}")),
        }
    }

    /// Asks the running job to stop.
    pub(crate) fn cancel(&self) {
        if let Some((_, job)) = &self.job {
            job.cancel();
        }
    }

    /// How far the running job is, if one runs.
    pub fn progress(&self) -> Option<ProgressSnapshot> {
        self.job.as_ref().map(|(_, job)| job.progress().snapshot())
    }

    /// What the last job did, if anything.
    pub fn outcome(&self) -> Option<&str> {
        self.outcome.as_deref()
    }

    /// Takes a finished job's result: the book to add as a source when one was made.
    pub(crate) fn poll(&mut self) -> Option<PathBuf> {
        let (_, job) = self.job.as_ref()?;
        let polled = job.poll();
        if matches!(polled, JobPoll::Running) {
            return None;
        }
        let (output, _) = self.job.take()?;
        self.conclude(output, polled)
    }

    /// Waits for the running job (tests; the window never waits) and returns as
    /// [`MakeBookForm::poll`] does.
    pub(crate) fn finish(&mut self) -> Option<PathBuf> {
        let (output, job) = self.job.take()?;
        let polled = job.poll_blocking();
        self.conclude(output, polled)
    }

    /// The outcome of a job that ended: the message, and the book when one was made.
    fn conclude(&mut self, output: PathBuf, polled: JobPoll<MakeResult>) -> Option<PathBuf> {
        let result = match polled {
            JobPoll::Finished(result) => result,
            JobPoll::Running => return None,
            JobPoll::Died(e) => Err(MakeError::Temp {
                path: output.clone(),
                source: std::io::Error::other(e.to_string()),
            }),
        };
        match result {
            Ok(report) => {
                let problems = if report.issue_count > 0 {
                    format!(
                        " ({} games had problems and were cut)",
                        count(report.issue_count)
                    )
                } else {
                    String::new()
                };
                self.outcome = Some(format!(
                    "Made {}: {} entries from {} games{problems}.",
                    crate::workspace::file_name(&output),
                    count(report.written.entries),
                    count(report.games),
                ));
                Some(output)
            }
            Err(e) => {
                self.outcome = Some(format!("No book was made: {e}."));
                None
            }
        }
    }
}

impl Coach {
    /// Waits until the book being made is written and adds it as a source, as the
    /// frames would (tests; the window never waits).
    pub fn finish_making_book(&mut self) {
        if let Some(book) = self.make_book.finish() {
            self.ctx
                .workspace
                .open(vec![book], crate::workspace::FileMode::Auto);
        }
    }

    /// What the last "Make the book" did, if anything.
    pub fn make_book_outcome(&self) -> Option<&str> {
        self.make_book.outcome()
    }
}

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
