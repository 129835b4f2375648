//! "Build an explorer from PGN files…" and "Add games…" in the Explorer tab: the games
//! (files or folders, separated by `;`), the explorer's name, the players who get a
//! tree of their own; while it runs a progress bar and Cancel; then what was done.

use std::path::PathBuf;

use eframe::egui;
use egui::{RichText, Ui};

use super::browse::BrowseFor;
use super::command::Command;
use crate::coach::explorer::{EXPLORERS_FOLDER, ExplorerCommand, ExplorerState};

/// The form's fields, kept between frames (runtime only).
#[derive(Debug, Clone, Default)]
struct BuildFields {
    inputs: String,
    name: String,
    more: String,
}

/// The paths of a field: files or folders separated by `;`.
fn paths(field: &str) -> Vec<PathBuf> {
    field
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// The form; `players_min` is the setting.
pub(super) fn explorer_build_ui(
    ui: &mut Ui,
    state: &ExplorerState,
    players_min: u32,
    commands: &mut Vec<Command>,
) {
    let id = egui::Id::unique("explorer_build_fields");
    let mut fields: BuildFields = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    let build = state.build();
    let field_width = ui.available_width() - 8.0;
    let field = |ui: &mut Ui, name: &str, text: &mut String, hint: &str, hover: &str| {
        super::browse::path_field_ui(ui, name, text, hint, BrowseFor::PgnFiles, field_width)
            .on_hover_text(hover);
    };
    egui::CollapsingHeader::new("Build an explorer from PGN files…")
        .id_salt("explorer_build")
        .default_open(state.index().is_none())
        .show(ui, |ui| {
            field(
                ui,
                "Games (files or folders)",
                &mut fields.inputs,
                "games.pgn; my-folder",
                "PGN files or folders (every .pgn in them and below), separated by ;",
            );
            let label = ui.label("Explorer's name");
            ui.add(
                egui::TextEdit::singleline(&mut fields.name)
                    .id_salt(("explorer_build", "Explorer's name"))
                    .hint_text("club")
                    .desired_width(field_width),
            )
            .labelled_by(label.id)
            .on_hover_text(format!(
                "Kept in the data folder's {EXPLORERS_FOLDER}/ (a full path puts it there \
                 instead)"
            ));
            let mut min = players_min;
            ui.horizontal_wrapped(|ui| {
                let label = ui.label("Own tree from");
                let changed = ui
                    .add(
                        egui::DragValue::new(&mut min)
                            .range(0..=1000)
                            .suffix(" games"),
                    )
                    .labelled_by(label.id)
                    .on_hover_text(
                        "Every player with at least this many games gets a tree of their \
                         own, for \"Prepare against\" (0: none; at most 127 players)",
                    )
                    .changed();
                if changed {
                    commands.push(Command::Explorer(ExplorerCommand::SetPlayersMin(min)));
                }
            });
            if build.progress().is_none()
                && ui
                    .button("Build")
                    .on_hover_text("`hastings explorer make`, in the background")
                    .clicked()
            {
                commands.push(Command::Explorer(ExplorerCommand::Build {
                    inputs: paths(&fields.inputs),
                    name: fields.name.clone(),
                }));
            }
        });
    if state.index().is_some() {
        egui::CollapsingHeader::new("Add games…")
            .id_salt("explorer_add")
            .show(ui, |ui| {
                field(
                    ui,
                    "Games to add",
                    &mut fields.more,
                    "more.pgn; a-folder",
                    "PGN files or folders whose games go into the open explorer",
                );
                if build.progress().is_none() && ui.button("Add").clicked() {
                    commands.push(Command::Explorer(ExplorerCommand::AddGames(paths(
                        &fields.more,
                    ))));
                }
            });
    }
    if let Some(snapshot) = build.progress() {
        let what = if build.is_adding() {
            "Adding games…"
        } else {
            "Building the explorer…"
        };
        ui.label(what);
        ui.add(
            egui::ProgressBar::new(snapshot.fraction())
                .show_percentage()
                .desired_width(field_width),
        );
        if ui.button("Cancel").clicked() {
            commands.push(Command::Explorer(ExplorerCommand::CancelBuild));
        }
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(100));
    }
    if let Some(outcome) = build.outcome() {
        ui.label(RichText::new(outcome).italics());
    }
    ui.data_mut(|d| d.insert_temp(id, fields));
}
