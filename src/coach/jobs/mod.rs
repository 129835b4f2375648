//! The jobs feature: making a Polyglot book from PGN files ("Make a book from PGN…",
//! `hastings book make` as a job with progress and cancel; the finished book becomes a
//! source of the workspace, in the context). Fitting the FSRS parameters to the review
//! log is review mode's (`coach/review/optimize.rs`).

use std::path::PathBuf;

use crate::coach::context::Context;
use crate::coach::format::count;
use crate::job::{Job, JobPoll, ProgressSnapshot, Wake};
use crate::workspace::FileMode;
use crate::workspace::polyglot_make::{MakeError, MakeOptions, MakeReport, make_book};

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
    fn start(&mut self, inputs: Vec<PathBuf>, output: PathBuf, wake: Wake) {
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
    fn cancel(&self) {
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
    fn poll_job(&mut self) -> Option<PathBuf> {
        let (_, job) = self.job.as_ref()?;
        let polled = job.poll();
        if matches!(polled, JobPoll::Running) {
            return None;
        }
        let (output, _) = self.job.take()?;
        self.conclude(output, polled)
    }

    /// Waits for the running job (tests; the window never waits) and returns as
    /// `poll_job` does.
    fn finish_job(&mut self) -> Option<PathBuf> {
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

/// What the jobs feature can be asked.
#[derive(Debug, Clone, PartialEq)]
pub enum JobsCommand {
    /// Make a Polyglot book of these PGN files at this path.
    MakeBook {
        /// The PGN files.
        inputs: Vec<PathBuf>,
        /// The book to write.
        output: PathBuf,
    },
    /// Stop making the book.
    CancelMakeBook,
}

impl MakeBookJob {
    /// Carries out a command.
    pub(crate) fn apply(&mut self, command: JobsCommand, ctx: &mut Context) {
        match command {
            JobsCommand::MakeBook { inputs, output } => self.start(inputs, output, ctx.wake()),
            JobsCommand::CancelMakeBook => self.cancel(),
        }
    }

    /// Each frame: a finished book becomes a source.
    pub(crate) fn poll(&mut self, ctx: &mut Context) {
        if let Some(book) = self.poll_job() {
            ctx.workspace.open(vec![book], FileMode::Auto);
        }
    }

    /// Waits until the book being made is written and adds it as a source, as the
    /// frames would (tests; the window never waits).
    pub(crate) fn finish(&mut self, ctx: &mut Context) {
        if let Some(book) = self.finish_job() {
            ctx.workspace.open(vec![book], FileMode::Auto);
        }
    }
}
