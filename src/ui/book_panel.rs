//! The book panel (sources, filters), the open dialog, the import progress, the import
//! report with its issues, and the progress panel.

use std::fmt::Write as _;
use std::path::PathBuf;

use eframe::egui;
use egui::{RichText, Ui};

use super::command::{Action, Command, ExportWhat};
use super::library::{ImportProgress, Library, file_name};
use super::state::{BookChoice, FileMode};
use crate::book::SourceId;
use crate::book::pgn::{ImportIssue, ImportReport};
use crate::trainer::progress::Progress;

/// What the import report window shows: a file's report, or why it failed.
#[derive(Debug, Clone)]
pub struct ReportView {
    /// The file.
    pub path: PathBuf,
    /// The report, when the file was read.
    pub report: Option<ImportReport>,
    /// Why the file could not be read.
    pub error: Option<String>,
    /// Issues of a failed import.
    pub issues: Vec<ImportIssue>,
}

impl ReportView {
    /// The issues shown.
    pub fn issues(&self) -> &[ImportIssue] {
        self.report.as_ref().map_or(&self.issues, |r| &r.issues)
    }

    /// The summary line: games, lines, positions (or the error).
    pub fn summary(&self) -> String {
        if let Some(e) = &self.error {
            return e.clone();
        }
        let Some(r) = &self.report else {
            return String::new();
        };
        format!(
            "{} games read, {} imported as {}: {} lines, {} positions; {} issue{}",
            r.games,
            r.imported,
            r.mode,
            r.lines,
            r.positions,
            r.issue_count,
            if r.issue_count == 1 { "" } else { "s" }
        )
    }

    /// The report as text, one issue per line (what "Copy" puts on the clipboard).
    pub fn text(&self) -> String {
        let mut out = format!("{}\n{}\n", self.path.display(), self.summary());
        for i in self.issues() {
            let _ = writeln!(
                out,
                "game {}\t{}\tply {}\t{}\t{}",
                i.game, i.summary.0, i.ply, i.san, i.reason
            );
        }
        if let Some(r) = &self.report
            && r.issue_count > r.issues.len()
        {
            let _ = writeln!(out, "… and {} more", r.issue_count - r.issues.len());
        }
        out
    }
}

/// The import report window, while `view` is set.
pub fn report_window_ui(ctx: &egui::Context, view: &ReportView, commands: &mut Vec<Command>) {
    let mut open = true;
    egui::Window::new(format!("Import report: {}", file_name(&view.path)))
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
        .default_pos(ctx.content_rect().center() - egui::vec2(180.0, 100.0))
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
            ui.horizontal(|ui| {
                if ui.button("Import").clicked() {
                    commands.push(Command::Import(paths.to_vec(), *mode));
                }
                if ui.button("Cancel").clicked() {
                    commands.push(Command::CancelOpen);
                }
            });
        });
}

/// The import's progress bar with a cancel button.
pub fn import_progress_ui(ui: &mut Ui, progress: &ImportProgress, commands: &mut Vec<Command>) {
    let mb = |b: u64| b as f64 / 1e6;
    let queued = if progress.queued > 0 {
        format!(" (+{} waiting)", progress.queued)
    } else {
        String::new()
    };
    ui.label(format!("Loading {}{queued}", file_name(&progress.path)));
    ui.add(
        egui::ProgressBar::new(progress.fraction())
            .desired_width(260.0)
            .text(format!(
                "{} games, {:.1} / {:.1} MB ({:.0}%)",
                progress.games,
                mb(progress.bytes),
                mb(progress.total),
                progress.fraction() * 100.0
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

/// The book panel: sources with checkboxes, the filters, the warnings.
pub fn book_panel_ui(
    ui: &mut Ui,
    choice: &BookChoice,
    library: &Library,
    repertoire: bool,
    warnings: &[String],
    commands: &mut Vec<Command>,
) {
    ui.heading("Book");
    ui.horizontal(|ui| {
        Action::Open.button_ui(ui, true, commands);
        if library.is_building() {
            ui.spinner();
            ui.label("building…");
        }
    });
    ui.add_space(4.0);
    ui.label(RichText::new("Sources").strong());
    let mut new = choice.clone();
    let mut changed = false;
    changed |= ui
        .checkbox(&mut new.eco, "ECO (built in, 3,807 lines)")
        .on_hover_text("The embedded list of named openings")
        .changed();
    for (i, remembered) in choice.files.iter().enumerate() {
        let loaded = library.file(&remembered.path);
        let name = file_name(&remembered.path);
        let label = match loaded {
            Some(f) => format!(
                "{name} ({}: {} games, {} lines)",
                f.mode, f.report.imported, f.report.lines
            ),
            None if library.is_importing() => format!("{name} (loading…)"),
            None => format!("{name} (not loaded)"),
        };
        ui.horizontal_wrapped(|ui| {
            changed |= ui
                .checkbox(&mut new.files[i].enabled, label)
                .on_hover_text(remembered.path.display().to_string())
                .changed();
            if ui
                .small_button("remove")
                .on_hover_text("Forget this file (the file itself is kept)")
                .clicked()
            {
                commands.push(Command::RemoveFile(remembered.path.clone()));
            }
            if let Some(f) = loaded {
                if ui
                    .small_button("report")
                    .on_hover_text("Show the import report")
                    .clicked()
                {
                    commands.push(Command::ShowReport(f.path.clone()));
                }
                if ui
                    .small_button("export")
                    .on_hover_text("Save this file's lines as PGN")
                    .clicked()
                {
                    commands.push(Command::Export(ExportWhat::Source(f.id)));
                }
            }
        });
    }
    for w in warnings {
        ui.label(RichText::new(w).color(ui.visuals().warn_fg_color));
    }
    if repertoire {
        ui.label(
            RichText::new(
                "Repertoire mode: your moves must be in your repertoire; the computer \
                 plays only its moves. ECO is the theory it is compared with.",
            )
            .italics(),
        );
    }
    ui.add_space(6.0);
    ui.label(RichText::new("Filters").strong());
    ui.horizontal(|ui| {
        let label = ui.label("Minimum moves per side");
        changed |= ui
            .add(egui::DragValue::new(&mut new.filter.min_moves_per_side).range(0..=30))
            .labelled_by(label.id)
            .changed();
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("ECO volumes");
        for v in ['A', 'B', 'C', 'D', 'E'] {
            let mut on = new.filter.volumes.contains(&v);
            if ui
                .checkbox(&mut on, v.to_string())
                .on_hover_text("None ticked: all volumes")
                .changed()
            {
                new.filter.volumes.retain(|x| *x != v);
                if on {
                    new.filter.volumes.push(v);
                    new.filter.volumes.sort_unstable();
                }
                changed = true;
            }
        }
    });
    ui.horizontal(|ui| {
        let label = ui.label("Name contains");
        let mut text = new.filter.name_contains.clone().unwrap_or_default();
        let r = ui
            .add(egui::TextEdit::singleline(&mut text).desired_width(120.0))
            .labelled_by(label.id);
        if r.changed() {
            new.filter.name_contains = (!text.trim().is_empty()).then(|| text.trim().to_owned());
            changed = true;
        }
    });
    ui.add_space(6.0);
    if ui
        .button("Export the drilled line…")
        .on_hover_text("Save the moves of this drill as PGN")
        .clicked()
    {
        commands.push(Command::Export(ExportWhat::Line));
    }
    if choice.eco
        && ui
            .button("Export ECO…")
            .on_hover_text("Save the ECO lines as PGN")
            .clicked()
    {
        commands.push(Command::Export(ExportWhat::Source(SourceId::ECO)));
    }
    if changed {
        commands.push(Command::SetBook(new));
    }
}

/// The progress panel: lines drilled, mistake rate, the positions most often missed.
pub fn progress_panel_ui(ui: &mut Ui, progress: &Progress, warning: Option<&str>) {
    ui.heading("Progress");
    if let Some(w) = warning {
        ui.label(RichText::new(w).color(ui.visuals().warn_fg_color));
    }
    let s = progress.summary();
    ui.label(format!(
        "Lines drilled: {} ({} completions)",
        s.lines_drilled, s.completions
    ));
    ui.label(format!(
        "Moves tried: {}, mistakes: {} ({:.1}%)",
        s.attempts,
        s.mistakes,
        s.mistake_rate() * 100.0
    ));
    let missed = progress.most_missed(10);
    if !missed.is_empty() {
        ui.add_space(4.0);
        ui.label(RichText::new("Most often missed").strong());
        egui::Grid::new("most_missed").striped(true).show(ui, |ui| {
            for (epd, r) in missed {
                ui.label(format!("{} / {}", r.mistakes, r.attempts))
                    .on_hover_text("mistakes / tries");
                ui.label(RichText::new(epd).small().monospace());
                ui.end_row();
            }
        });
    }
    let mut lines: Vec<(&String, &u32)> = progress.lines_completed.iter().collect();
    lines.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    if !lines.is_empty() {
        ui.add_space(4.0);
        ui.label(RichText::new("Lines completed").strong());
        for (title, n) in lines.into_iter().take(15) {
            ui.label(format!("{n}× {title}"));
        }
    }
}
