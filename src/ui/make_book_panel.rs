//! "Make a book from PGN…" in the Book tab: `hastings book make` as a job with a progress
//! bar and Cancel; the finished book becomes a source.

use std::path::PathBuf;
use std::sync::Arc;

use eframe::egui;
use egui::{RichText, Ui};

use super::format::count;
use crate::job::{Job, JobPoll};
use crate::workspace::polyglot_make::{MakeError, MakeOptions, MakeReport, make_book};

type MakeResult = Result<MakeReport, MakeError>;

/// The form, the running job and what the last one did (runtime only).
#[derive(Default)]
pub struct MakeBookForm {
    /// The PGN files, separated by `;`.
    pub inputs: String,
    /// The book to write.
    pub output: String,
    job: Option<(PathBuf, Job<MakeResult>)>,
    /// The last job's outcome, for the learner.
    pub outcome: Option<String>,
}

impl MakeBookForm {
    /// Starts making the book of the form's fields on a thread.
    fn start(&mut self, ctx: &egui::Context) {
        let inputs: Vec<PathBuf> = self
            .inputs
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
            .collect();
        let output = PathBuf::from(self.output.trim());
        if inputs.is_empty() || output.as_os_str().is_empty() {
            self.outcome = Some("Give the PGN file(s) and where to write the book.".to_owned());
            return;
        }
        let ctx = ctx.clone();
        let wake = Arc::new(move || ctx.request_repaint());
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

    /// Takes a finished job's result: the book to add as a source when one was made.
    pub fn poll(&mut self) -> Option<PathBuf> {
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
    pub fn finish(&mut self) -> Option<PathBuf> {
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

impl super::TrainerApp {
    /// Waits until the book being made is written and adds it as a source, as the
    /// frames would (tests; the window never waits).
    pub fn finish_making_book(&mut self) {
        if let Some(book) = self.make_book.finish() {
            self.workspace
                .open(vec![book], crate::workspace::FileMode::Auto);
        }
    }

    /// What the last "Make the book" did, if anything.
    pub fn make_book_outcome(&self) -> Option<&str> {
        self.make_book.outcome.as_deref()
    }
}

/// Draws the form: the files, the output, Make, and while a book is made a progress bar
/// with Cancel.
pub fn make_book_ui(ui: &mut Ui, form: &mut MakeBookForm) {
    egui::CollapsingHeader::new("Make a book from PGN…")
        .default_open(false)
        .show(ui, |ui| {
            ui.label(
                "A Polyglot book of the games' moves (30 plies, weighted by games played): \
                 a games book for the Popularity of the Style tab.",
            );
            ui.horizontal(|ui| {
                let label = ui.label("PGN files");
                ui.add(
                    egui::TextEdit::singleline(&mut form.inputs)
                        .hint_text("games.pgn; more.pgn")
                        .desired_width(150.0),
                )
                .labelled_by(label.id);
            });
            ui.horizontal(|ui| {
                let label = ui.label("Write to");
                ui.add(
                    egui::TextEdit::singleline(&mut form.output)
                        .hint_text("games.bin")
                        .desired_width(150.0),
                )
                .labelled_by(label.id);
            });
            match &form.job {
                Some((_, job)) => {
                    let snapshot = job.progress().snapshot();
                    ui.add(
                        egui::ProgressBar::new(snapshot.fraction())
                            .show_percentage()
                            .desired_width(160.0),
                    );
                    if ui.button("Cancel").clicked() {
                        job.cancel();
                    }
                    ui.ctx()
                        .request_repaint_after(std::time::Duration::from_millis(100));
                }
                None => {
                    if ui.button("Make the book").clicked() {
                        form.start(ui.ctx());
                    }
                }
            }
            if let Some(outcome) = &form.outcome {
                ui.label(RichText::new(outcome).italics());
            }
        });
}
