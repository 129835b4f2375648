//! The import report window (summary and problems of a PGN file), the "read as" dialog,
//! the import progress bar and the drop overlay.

use std::path::PathBuf;

use eframe::egui;
use egui::{Color32, RichText, Ui};

use super::command::Command;
use super::format::count;
use crate::coach::book::batch::{Batch, BatchOutcome};
pub use crate::coach::book::report::ReportView;
use crate::workspace::{FileMode, ImportProgress, file_name};

/// The import report window, while `view` is set.
pub fn report_window_ui(ctx: &egui::Context, view: &ReportView, commands: &mut Vec<Command>) {
    let mut open = true;
    let title = match &view.batch {
        Some(batch) => format!("Import report: {} files", count(batch.files().len())),
        None => format!("Import report: {}", file_name(&view.path)),
    };
    egui::Window::new(title)
        .id(egui::Id::unique("import_report"))
        .open(&mut open)
        .collapsible(false)
        .default_width(640.0)
        .max_width(760.0)
        .default_pos(ctx.content_rect().center() - egui::vec2(310.0, 200.0))
        .show(ctx, |ui| {
            let summary = RichText::new(view.summary()).strong();
            if view.error.is_some() {
                ui.label(summary.color(ui.visuals().error_fg_color));
            } else {
                ui.label(summary);
            }
            if let Some(batch) = &view.batch {
                batch_files_ui(ui, batch, commands);
            }
            let issues = view.issues();
            if !issues.is_empty() {
                ui.add_space(4.0);
                ui.label("Problems (the rest of each game before the problem was kept):");
                egui::ScrollArea::vertical()
                    .max_height(320.0)
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        egui::Grid::new("import_issues")
                            .striped(true)
                            .num_columns(5)
                            .show(ui, |ui| {
                                for h in ["Game", "Players / event", "Ply", "Move", "Reason"] {
                                    ui.label(RichText::new(h).strong());
                                }
                                ui.end_row();
                                for i in issues.iter().take(1000) {
                                    ui.label(format!("Game {}", i.game));
                                    ui.label(&i.summary.0);
                                    ui.label(if i.ply == 0 {
                                        String::new()
                                    } else {
                                        i.ply.to_string()
                                    });
                                    ui.label(&i.san);
                                    ui.add(egui::Label::new(i.reason.to_string()).wrap());
                                    ui.end_row();
                                }
                            });
                    });
                if issues.len() > 1000 {
                    ui.label(format!("{} more in the copied text", issues.len() - 1000));
                }
            }
            ui.horizontal(|ui| {
                if ui
                    .button("Copy as text")
                    .on_hover_text("Copy the summary and every problem to the clipboard")
                    .clicked()
                {
                    ui.ctx().copy_text(view.text());
                }
                if ui.button("Close").clicked() {
                    commands.push(Command::CloseReport);
                }
            });
        });
    if !open {
        commands.push(Command::CloseReport);
    }
}

/// The files of an import of several: one row each, with what it gave or why it was not
/// read, and a button to see a read file's own report.
fn batch_files_ui(ui: &mut Ui, batch: &Batch, commands: &mut Vec<Command>) {
    ui.add_space(4.0);
    egui::ScrollArea::vertical()
        .id_salt("import_batch_files")
        .max_height(320.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            egui::Grid::new("import_batch")
                .striped(true)
                .num_columns(3)
                .show(ui, |ui| {
                    for f in batch.files() {
                        ui.label(file_name(&f.path))
                            .on_hover_text(f.path.display().to_string());
                        let text = f.outcome.text();
                        match f.outcome {
                            BatchOutcome::Read { .. } => {
                                ui.label(text);
                                if ui
                                    .small_button("Report")
                                    .on_hover_text("This file's own report and problems")
                                    .clicked()
                                {
                                    commands.push(Command::ShowReport(f.path.clone()));
                                }
                            }
                            _ => {
                                ui.label(RichText::new(text).color(ui.visuals().error_fg_color));
                            }
                        }
                        ui.end_row();
                    }
                });
        });
}

/// The dialog that asks how to read the chosen files.
pub fn open_dialog_ui(
    ctx: &egui::Context,
    paths: &[PathBuf],
    mode: &mut FileMode,
    commands: &mut Vec<Command>,
) {
    egui::Window::new("Open PGN")
        .id(egui::Id::unique("open_dialog"))
        .collapsible(false)
        .resizable(false)
        // Centred on the window whatever its size (a guessed size put it off centre).
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(ctx.content_rect().center())
        .show(ctx, |ui| {
            for p in paths.iter().take(10) {
                ui.label(file_name(p));
            }
            if paths.len() > 10 {
                ui.label(format!("… and {} more", paths.len() - 10));
            }
            ui.separator();
            ui.label("Read as");
            ui.radio_value(mode, FileMode::Auto, "Decide from the file")
                .on_hover_text(
                    "A variation or an open result (*) makes it a repertoire, else a game \
                     collection",
                );
            ui.radio_value(mode, FileMode::Repertoire, "My repertoire")
                .on_hover_text("Every variation is a line you want to play");
            ui.radio_value(mode, FileMode::Games, "A game collection")
                .on_hover_text("One line per game, the first 30 plies; popular moves weigh more");
            // Enter presses Import, Escape Cancel, as in a system dialog.
            let (enter, escape) = ui.input_mut(|i| {
                (
                    i.consume_key(egui::Modifiers::NONE, egui::Key::Enter),
                    i.consume_key(egui::Modifiers::NONE, egui::Key::Escape),
                )
            });
            ui.horizontal(|ui| {
                if ui
                    .button("Import")
                    .on_hover_text("Read the files as chosen (Enter)")
                    .clicked()
                    || enter
                {
                    commands.push(Command::Import(paths.to_vec(), *mode));
                }
                if ui.button("Cancel").clicked() || escape {
                    commands.push(Command::CancelOpen);
                }
            });
        });
}

/// The import's progress bar with a cancel button.
pub fn import_progress_ui(ui: &mut Ui, progress: &ImportProgress, commands: &mut Vec<Command>) {
    let mb = |b: u64| b as f64 / 1e6;
    let c = &progress.counters;
    let queued = if progress.queued > 0 {
        format!(" (+{} waiting)", progress.queued)
    } else {
        String::new()
    };
    ui.label(format!("Loading {}{queued}", file_name(&progress.path)));
    ui.add(
        egui::ProgressBar::new(c.fraction())
            .desired_width(260.0)
            .text(format!(
                "{} games, {:.1} / {:.1} MB ({:.0}%)",
                count(c.items),
                mb(c.done),
                mb(c.total),
                c.fraction() * 100.0
            )),
    );
    if ui
        .button("Cancel")
        .on_hover_text("Stop loading this file")
        .clicked()
    {
        commands.push(Command::CancelImport);
    }
}

/// The overlay while files are dragged over the window.
pub fn drop_overlay_ui(ctx: &egui::Context) {
    let hovering = ctx.input(|i| !i.raw.hovered_files.is_empty());
    if !hovering {
        return;
    }
    let rect = ctx.content_rect();
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        egui::Id::unique("drop_overlay"),
    ));
    painter.rect_filled(rect, 0.0, Color32::from_black_alpha(160));
    painter.text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        "Drop PGN files to load them",
        egui::FontId::proportional(28.0),
        Color32::WHITE,
    );
}
