//! "Get games online" in the Book tab: a lichess study, or a lichess or
//! chess.com player's games, fetched as a job with a count of the games and Cancel;
//! the file is kept in the data folder and asked how to read like a file opened.

use eframe::egui;
use egui::{RichText, Ui};

use super::command::Command;
use crate::coach::book::fetch::{FetchCommand, FetchJob, FetchKind};

/// The form's fields (runtime only; the job is the coach's).
#[derive(Debug, Default)]
pub struct FetchForm {
    /// What to fetch.
    pub kind: FetchKind,
    /// The study's link or id, or the player's name.
    pub text: String,
    /// Why the text cannot be fetched, after Fetch was pressed.
    pub error: Option<String>,
}

/// Draws the form: what, the link or name, Fetch, and while it runs the games counted
/// with Cancel.
pub fn fetch_ui(ui: &mut Ui, form: &mut FetchForm, job: &FetchJob, commands: &mut Vec<Command>) {
    egui::CollapsingHeader::new("Get games online…")
        .default_open(false)
        .show(ui, |ui| {
            ui.label(
                "A lichess study, or a player's games from lichess or chess.com: kept in \
                 the data folder, then read like a file you open. Fetching a player again \
                 adds only the new games.",
            )
            .on_hover_text(
                "Asks lichess.org or api.chess.com only when you press Fetch (docs/fetch.md \
                 says what is sent).",
            );
            let field = ui.available_width().min(240.0);
            let label = ui.label("What to fetch");
            egui::ComboBox::from_id_salt("fetch-kind")
                .width(field)
                .selected_text(form.kind.label())
                .show_ui(ui, |ui| {
                    for kind in FetchKind::ALL {
                        ui.selectable_value(&mut form.kind, kind, kind.label());
                    }
                })
                .response
                .labelled_by(label.id);
            let label = ui.label(match form.kind {
                FetchKind::LichessStudy => "The study's link",
                FetchKind::LichessGames | FetchKind::ChesscomGames => "The player's name",
            });
            let response = ui
                .add(
                    egui::TextEdit::singleline(&mut form.text)
                        .hint_text(form.kind.hint())
                        .desired_width(field),
                )
                .labelled_by(label.id);
            let entered = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            match job.progress() {
                Some(snapshot) => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(format!("{} games so far", snapshot.items));
                    });
                    if ui.button("Cancel").clicked() {
                        commands.push(Command::Fetch(FetchCommand::Cancel));
                    }
                }
                None => {
                    if ui.button("Fetch").clicked() || entered {
                        match form.kind.request(&form.text) {
                            Ok(what) => {
                                form.error = None;
                                commands.push(Command::Fetch(FetchCommand::Start(what)));
                            }
                            Err(e) => form.error = Some(e.to_string()),
                        }
                    }
                }
            }
            if let Some(error) = &form.error {
                ui.label(RichText::new(error).color(ui.visuals().warn_fg_color));
            }
            if let Some(outcome) = job.outcome() {
                ui.label(RichText::new(outcome).italics());
            }
        });
}
