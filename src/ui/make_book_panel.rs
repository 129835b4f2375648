//! "Make a book…" in the Book tab: `hastings book make` as a job with a progress
//! bar and Cancel; the finished book becomes a source.

use std::path::PathBuf;

use eframe::egui;
use egui::{RichText, Ui};

use super::browse::BrowseFor;
use super::command::Command;
use crate::coach::jobs::MakeBookJob;

/// The form's fields (runtime only; the job is the coach's).
#[derive(Debug, Default)]
pub struct MakeBookForm {
    /// The PGN files, separated by `;`.
    pub inputs: String,
    /// The book to write.
    pub output: String,
}

impl MakeBookForm {
    /// The command that makes the book of the form's fields.
    fn command(&self) -> Command {
        let inputs: Vec<PathBuf> = self
            .inputs
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
            .collect();
        Command::MakeBook {
            inputs,
            output: PathBuf::from(self.output.trim()),
        }
    }
}

/// Draws the form: the files, the output, Make, and while a book is made a progress bar
/// with Cancel.
pub fn make_book_ui(
    ui: &mut Ui,
    form: &mut MakeBookForm,
    job: &MakeBookJob,
    commands: &mut Vec<Command>,
) {
    egui::CollapsingHeader::new("Book from games…")
        .default_open(false)
        .show(ui, |ui| {
            ui.add(
                egui::Label::new(
                    "An opening book (.bin) of the games' first 15 moves, each weighted by how \
                     often it was played: a games book for the Popularity of the Style tab.",
                )
                .wrap(),
            )
            .on_hover_text("A Polyglot book, 30 plies deep, weights by games played");
            // Each field under its name, as wide as the panel allows (800×600 included).
            let field = ui.available_width().min(240.0);
            super::browse::path_field_ui(
                ui,
                "PGN files",
                &mut form.inputs,
                "games.pgn; more.pgn",
                BrowseFor::PgnFiles,
                field,
            );
            super::browse::path_field_ui(
                ui,
                "Write to",
                &mut form.output,
                "games.bin",
                BrowseFor::SaveAs("bin"),
                field,
            );
            match job.progress() {
                Some(snapshot) => {
                    ui.add(
                        egui::ProgressBar::new(snapshot.fraction())
                            .show_percentage()
                            .desired_width(field),
                    );
                    if ui.button("Cancel").clicked() {
                        commands.push(Command::CancelMakeBook);
                    }
                    ui.ctx()
                        .request_repaint_after(std::time::Duration::from_millis(100));
                }
                None => {
                    if ui.button("Make the book").clicked() {
                        commands.push(form.command());
                    }
                }
            }
            if let Some(outcome) = job.outcome() {
                ui.label(RichText::new(outcome).italics());
            }
        });
}
