//! The Book tab: the sources with their checkboxes (ECO, PGN files with their chapters,
//! Polyglot books), the filters, export.

use eframe::egui;
use egui::{RichText, Ui};

use super::chapters_panel;
use super::command::{Action, ActionUi, Command, ExportWhat};
use super::format::count;
use super::paste_button::paste_button_ui;
use crate::book::SourceId;
use crate::workspace::{Workspace, file_name};

/// The book panel: sources with checkboxes, the filters, the warnings.
pub fn book_panel_ui(
    ui: &mut Ui,
    workspace: &Workspace,
    recent: &[std::path::PathBuf],
    commands: &mut Vec<Command>,
) {
    let choice = workspace.choice();
    ui.heading("Book");
    // Wraps at 800×600, where the two buttons are wider than the panel.
    ui.horizontal_wrapped(|ui| {
        Action::Open.button_ui(ui, true, commands);
        if ui
            .button("Open a folder…")
            .on_hover_text("Read every PGN file in a folder and the folders in it (or drop the folder on the window)")
            .clicked()
        {
            commands.push(Command::ChooseFolder);
        }
        paste_button_ui(
            ui,
            "Paste PGN games, a position (FEN) or moves (1. e4 e5 2. Nf3) from the clipboard; \
             Ctrl+V does the same anywhere in the window",
        );
        recent_files_ui(ui, recent, commands);
        if workspace.is_building() {
            ui.spinner();
            ui.label("building…");
        }
    });
    ui.add_space(4.0);
    ui.label(RichText::new("Sources").strong());
    let mut new = choice.clone();
    let mut changed = false;
    changed |= ui
        .checkbox(
            &mut new.eco,
            format!(
                "ECO (built in, {} lines)",
                count(workspace.eco_lines().len())
            ),
        )
        .on_hover_text("The embedded list of named openings")
        .changed();
    for (i, remembered) in choice.files.iter().enumerate() {
        let loaded = workspace.file(&remembered.path);
        let name = file_name(&remembered.path);
        let label = match loaded {
            Some(f) => format!(
                "{name} ({}: {} games, {} lines)",
                f.mode,
                count(f.report.imported),
                count(f.report.lines)
            ),
            None if workspace.is_importing() => format!("{name} (loading…)"),
            None => format!("{name} (not loaded)"),
        };
        changed |= ui
            .checkbox(&mut new.files[i].enabled, label)
            .on_hover_text(remembered.path.display().to_string())
            .changed();
        // Under the name: a long name wraps without spreading the buttons apart.
        ui.horizontal_wrapped(|ui| {
            ui.add_space(ui.spacing().icon_width);
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
        if let Some(f) = loaded
            && f.mode == crate::book::ImportMode::Repertoire
            && !f.chapters.is_empty()
        {
            changed |= chapters_panel::chapters_ui(ui, workspace, f, &mut new.files[i]);
        }
    }
    for (i, b) in choice.books.iter().enumerate() {
        let name = file_name(&b.path);
        let label = match workspace.open_books().status(&b.path) {
            Some(Ok(entries)) => format!("{name} (opening book, {} entries)", count(entries)),
            Some(Err(_)) => format!("{name} (cannot be read)"),
            None => format!("{name} (not open)"),
        };
        ui.horizontal_wrapped(|ui| {
            let hover = match workspace.open_books().status(&b.path) {
                Some(Err(e)) => e.to_owned(),
                _ => format!(
                    "{}: gives popularity when the style panel's Popularity is a games book or a blend",
                    b.path.display()
                ),
            };
            changed |= ui
                .checkbox(&mut new.books[i].enabled, label)
                .on_hover_text(hover)
                .changed();
            if ui
                .small_button("remove")
                .on_hover_text("Forget this book (the file itself is kept)")
                .clicked()
            {
                commands.push(Command::RemoveFile(b.path.clone()));
            }
        });
    }
    for w in workspace.warnings() {
        ui.label(RichText::new(w).color(ui.visuals().warn_fg_color));
    }
    if workspace.is_repertoire() {
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
    // Rows that wrap: at 800×600 the panel is narrower than a label and its field.
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Minimum moves per side");
        changed |= ui
            .add(egui::DragValue::new(&mut new.filter.min_moves_per_side).range(0..=30))
            .labelled_by(label.id)
            .changed();
    });
    // The name above the five boxes, the boxes in one row: beside the name, "E" wrapped
    // alone to a line of its own at 800×600.
    ui.label("ECO volumes");
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
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
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Name contains");
        let mut text = new.filter.name_contains.clone().unwrap_or_default();
        let r = ui
            .add(egui::TextEdit::singleline(&mut text).desired_width(120.0))
            .labelled_by(label.id)
            .on_hover_text(
                "Keep only the lines whose name contains this, until it is cleared (the \
                 filter's name_contains). To drill one opening, type its name in Find an \
                 opening in the top bar instead.",
            );
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

/// The **Recent files** menu: the files opened and the games saved lately, by name (the
/// whole path in the hover); one opens as **Open…** would (it asks how to read it).
fn recent_files_ui(ui: &mut Ui, recent: &[std::path::PathBuf], commands: &mut Vec<Command>) {
    if recent.is_empty() {
        return;
    }
    ui.menu_button("Recent files", |ui| {
        for path in recent {
            if ui
                .button(file_name(path))
                .on_hover_text(path.display().to_string())
                .clicked()
            {
                commands.push(Command::OpenFiles(vec![path.clone()]));
                ui.close();
            }
        }
    })
    .response
    .on_hover_text("The files you opened and the games you saved lately");
}
