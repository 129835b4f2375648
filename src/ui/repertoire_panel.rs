//! The Repertoire tab: building and editing the learner's repertoire file.
//!
//! - In the left panel ([`repertoire_panel_ui`]): the file (new for White or Black, open,
//!   save, undo, redo, the unsaved marker), the chapters (add, rename, delete, move).
//! - In the right panel ([`move_tree_panel_ui`]): the chapter's move tree
//!   ([`super::move_tree`]), "Add moves", the walking buttons and the comment editor.
//! - Under the board ([`super::repertoire_missing`]): what the repertoire does not answer
//!   at the move shown, **Next gap** and **Train this**.
//! - The questions ([`question_ui`]): the file changed on disk (reload, overwrite, save
//!   as), unsaved edits of an earlier run (recover, discard).
//!
//! The panel reads the coach's repertoire editor and pushes [`RepertoireCommand`]s; the texts being
//! typed (a path, a comment, a chapter's name) are the [`RepertoireForm`]'s.

use super::paste_button::paste_button_ui;
use std::path::PathBuf;

use eframe::egui;
use egui::{Key, KeyboardShortcut, Modifiers, RichText, Ui};

use super::command::Command;
use super::move_tree::{self, TreeAction};
use crate::book::Side;
use crate::book::repertoire::NodeId;
use crate::coach::Coach;
use crate::coach::repertoire::{
    Question, RepertoireCommand, RepertoireState, RepertoireTarget, backup_time,
};
use crate::coach::settings::RepertoireTrain;

/// What is being typed in the Repertoire tab (window state, not saved).
#[derive(Debug, Default)]
pub(super) struct RepertoireForm {
    /// The path for New and Open.
    pub(super) path: String,
    /// The comment being edited: its move and text.
    comment: Option<(NodeId, String)>,
    /// The chapter being renamed: its index and new title.
    rename: Option<(usize, String)>,
    /// The path typed for "Save as".
    save_as: String,
}

pub(super) fn push(commands: &mut Vec<Command>, c: RepertoireCommand) {
    commands.push(Command::Repertoire(c));
}

/// The keyboard of the Repertoire tab: ←/→ along the line, ↑/↓ between variations,
/// Home/End, Ctrl+Z undo, Ctrl+Shift+Z or Ctrl+Y redo, Ctrl+S save. Taken before the
/// drill's shortcuts while the tab is shown; none while a text field has the keyboard.
pub(super) fn repertoire_keys(ctx: &egui::Context, dialog_open: bool) -> Vec<RepertoireCommand> {
    let mut out = Vec::new();
    if dialog_open || ctx.egui_wants_keyboard_input() {
        return out;
    }
    let none = Modifiers::NONE;
    let keys = [
        (
            KeyboardShortcut::new(none, Key::ArrowLeft),
            RepertoireCommand::Back,
        ),
        (
            KeyboardShortcut::new(none, Key::ArrowRight),
            RepertoireCommand::Forward,
        ),
        (
            KeyboardShortcut::new(none, Key::ArrowUp),
            RepertoireCommand::PreviousVariation,
        ),
        (
            KeyboardShortcut::new(none, Key::ArrowDown),
            RepertoireCommand::NextVariation,
        ),
        (
            KeyboardShortcut::new(none, Key::Home),
            RepertoireCommand::ToStart,
        ),
        (
            KeyboardShortcut::new(none, Key::End),
            RepertoireCommand::ToEnd,
        ),
        // Ctrl+Shift+Z before Ctrl+Z: a shortcut without Shift also matches with it.
        (
            KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z),
            RepertoireCommand::Redo,
        ),
        (
            KeyboardShortcut::new(Modifiers::COMMAND, Key::Z),
            RepertoireCommand::Undo,
        ),
        (
            KeyboardShortcut::new(Modifiers::COMMAND, Key::Y),
            RepertoireCommand::Redo,
        ),
        (
            KeyboardShortcut::new(Modifiers::COMMAND, Key::S),
            RepertoireCommand::Save,
        ),
    ];
    ctx.input_mut(|input| {
        for (shortcut, command) in keys {
            if input.consume_shortcut(&shortcut) {
                out.push(command);
            }
        }
    });
    out
}

/// The file's name and the unsaved marker: "mine.pgn •".
fn file_title(w: &RepertoireState) -> Option<String> {
    let file = w.file()?;
    let name = file.path().file_name().map_or_else(
        || file.path().display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    Some(if w.is_dirty() {
        format!("{name} • (unsaved)")
    } else {
        name
    })
}

/// The Repertoire tab in the left panel: the file and the chapters.
pub(super) fn repertoire_panel_ui(
    ui: &mut Ui,
    coach: &Coach,
    form: &mut RepertoireForm,
    commands: &mut Vec<Command>,
) {
    let w = coach.repertoire();
    ui.heading("Repertoire");
    match file_title(w) {
        Some(title) => {
            ui.label(RichText::new(title).strong()).on_hover_text(
                w.file()
                    .map(|f| f.path().display().to_string())
                    .unwrap_or_default(),
            );
        }
        None => {
            ui.label("Build your repertoire here: make a new one or open a PGN file.");
        }
    }
    ui.horizontal_wrapped(|ui| {
        let save = ui
            .add_enabled(w.file().is_some(), egui::Button::new("Save"))
            .on_hover_text(
                "Save to the file; the version it replaces is kept as a backup (Ctrl+S)",
            );
        if save.clicked() {
            push(commands, RepertoireCommand::Save);
        }
        if ui
            .add_enabled(w.file().is_some(), egui::Button::new("Save as…"))
            .on_hover_text("Save to another file, which you then go on editing")
            .clicked()
        {
            push(
                commands,
                RepertoireCommand::Choose(RepertoireTarget::SaveAs),
            );
        }
        if ui
            .add_enabled(w.can_undo(), egui::Button::new("Undo"))
            .on_hover_text("Undo the last edit (Ctrl+Z)")
            .clicked()
        {
            push(commands, RepertoireCommand::Undo);
        }
        if ui
            .add_enabled(w.can_redo(), egui::Button::new("Redo"))
            .on_hover_text("Redo the edit undone (Ctrl+Shift+Z or Ctrl+Y)")
            .clicked()
        {
            push(commands, RepertoireCommand::Redo);
        }
        paste_button_ui(
            ui,
            "Go to the position of moves (1. e4 e5 2. Nf3) or a FEN from the clipboard in \
             this file, to add what follows; pasted PGN games are opened as a file (Ctrl+V)",
        );
    });
    if let Some(message) = w.message() {
        ui.colored_label(ui.visuals().warn_fg_color, message);
    }
    ui.separator();
    if w.file().is_some() {
        // With a file open, the others are one click away.
        egui::CollapsingHeader::new("Another file")
            .id_salt("hastings_repertoire_files")
            .show(ui, |ui| files_ui(ui, form, commands));
    } else {
        files_ui(ui, form, commands);
    }
    if w.document().is_some() {
        ui.separator();
        let train = &coach.settings().repertoire_train;
        chapters_ui(ui, w, train, form, commands);
        backups_ui(ui, w, commands);
    }
}

/// New, open: by the system's file dialog, or by a path typed.
fn files_ui(ui: &mut Ui, form: &mut RepertoireForm, commands: &mut Vec<Command>) {
    ui.horizontal_wrapped(|ui| {
        for side in [Side::White, Side::Black] {
            if ui
                .button(format!("New for {}…", side.name()))
                .on_hover_text("Choose where to create a new repertoire file")
                .clicked()
            {
                push(
                    commands,
                    RepertoireCommand::Choose(RepertoireTarget::New(side)),
                );
            }
        }
        if ui
            .button("Open…")
            .on_hover_text("Choose a PGN file to edit")
            .clicked()
        {
            push(commands, RepertoireCommand::Choose(RepertoireTarget::Open));
        }
    });
    let label = ui.label("Or type its path");
    ui.add(
        egui::TextEdit::singleline(&mut form.path)
            .hint_text("path/to/repertoire.pgn")
            .desired_width(f32::INFINITY),
    )
    .labelled_by(label.id)
    .on_hover_text("The PGN file to create or open");
    let path = PathBuf::from(form.path.trim());
    let has_path = !form.path.trim().is_empty();
    ui.horizontal_wrapped(|ui| {
        for side in [Side::White, Side::Black] {
            let text = format!("New for {}", side.name());
            if ui
                .add_enabled(has_path, egui::Button::new(text))
                .on_hover_text("A new repertoire file at the path above (it must not exist)")
                .clicked()
            {
                push(commands, RepertoireCommand::New(side, path.clone()));
            }
        }
        if ui
            .add_enabled(has_path, egui::Button::new("Open"))
            .on_hover_text("Edit the PGN file at the path above")
            .clicked()
        {
            push(commands, RepertoireCommand::Open(path.clone()));
        }
    });
}

/// The file's backups (the versions saves replaced), newest first, each with Restore.
fn backups_ui(ui: &mut Ui, w: &RepertoireState, commands: &mut Vec<Command>) {
    if w.data_dir().is_none() {
        return;
    }
    ui.separator();
    egui::CollapsingHeader::new(format!("Backups ({})", w.backups().len()))
        .id_salt("hastings_repertoire_backups")
        .show(ui, |ui| {
            if w.backups().is_empty() {
                ui.weak("Each save keeps the version it replaces here (the last 10).");
            }
            for backup in w.backups() {
                ui.horizontal(|ui| {
                    ui.label(format!("{} ({} bytes)", backup_time(backup), backup.size));
                    if ui
                        .add_enabled(!w.is_dirty(), egui::Button::new("Restore"))
                        .on_hover_text(
                            "Put this version back as the file (the current one is kept as a \
                             backup too)",
                        )
                        .on_disabled_hover_text("Save or undo your edits first")
                        .clicked()
                    {
                        push(
                            commands,
                            RepertoireCommand::RestoreBackup(backup.path.clone()),
                        );
                    }
                });
            }
        });
}

/// The chapters: click to show one; tick those "Train this" drills; rename, move up,
/// delete; add one.
fn chapters_ui(
    ui: &mut Ui,
    w: &RepertoireState,
    train: &RepertoireTrain,
    form: &mut RepertoireForm,
    commands: &mut Vec<Command>,
) {
    let (Some(doc), Some(file)) = (w.document(), w.file()) else {
        return;
    };
    let count = doc.chapters().len();
    ui.label("Chapters")
        .on_hover_text("Ticked: drilled by Train this");
    for (i, chapter) in doc.chapters().iter().enumerate() {
        let title = chapter.title(i + 1);
        if let Some((index, text)) = &mut form.rename
            && *index == i
        {
            let label = ui.label(format!("New name of chapter {}", i + 1));
            let response = ui.text_edit_singleline(text).labelled_by(label.id);
            let done = response.lost_focus() && ui.input(|input| input.key_pressed(Key::Enter));
            let text = text.clone();
            let (rename, cancel) = ui
                .horizontal(|ui| (ui.button("Rename").clicked(), ui.button("Cancel").clicked()))
                .inner;
            if done || rename {
                push(commands, RepertoireCommand::RenameChapter(i, text));
                form.rename = None;
            } else if cancel {
                form.rename = None;
            }
            continue;
        }
        ui.horizontal(|ui| {
            let mut drilled = train.drills(file.path(), &title);
            let tick = ui
                .add(egui::Checkbox::without_text(&mut drilled))
                .on_hover_text("Drilled by Train this (remembered for this file)");
            let name = format!("Drill chapter {}", i + 1);
            tick.widget_info(|| {
                egui::WidgetInfo::selected(egui::Role::CheckBox, true, drilled, &name)
            });
            if tick.clicked() {
                push(commands, RepertoireCommand::ToggleTrainChapter(i));
            }
            let label = match w.chapter_side(i) {
                Some(side) => format!("{}. {title} ({})", i + 1, side.name()),
                None => format!("{}. {title}", i + 1),
            };
            // A long title wraps in a narrow panel (not cut at its edge).
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
            let shown = ui.selectable_label(i == w.chapter(), label);
            if shown.clicked() {
                push(commands, RepertoireCommand::Chapter(i));
            }
            shown.context_menu(|ui| {
                if ui.button("Rename…").clicked() {
                    form.rename = Some((i, title.clone()));
                    ui.close();
                }
                if i > 0 && ui.button("Move up").clicked() {
                    push(commands, RepertoireCommand::MoveChapter(i, i - 1));
                    ui.close();
                }
                if i + 1 < count && ui.button("Move down").clicked() {
                    push(commands, RepertoireCommand::MoveChapter(i, i + 1));
                    ui.close();
                }
                if ui.button("Delete chapter").clicked() {
                    push(commands, RepertoireCommand::RemoveChapter(i));
                    ui.close();
                }
            });
        });
    }
    chapter_side_ui(ui, w, "chapters", commands);
    let side = w.side().unwrap_or(Side::White);
    if ui
        .button("Add chapter")
        .on_hover_text(
            "A new chapter at the end (right-click a chapter to rename, move or delete it)",
        )
        .clicked()
    {
        let title = format!("Chapter {}", count + 1);
        push(commands, RepertoireCommand::AddChapter(title, side));
    }
}

/// The right panel in the Repertoire tab: the chapter's move tree.
pub(super) fn move_tree_panel_ui(
    ui: &mut Ui,
    w: &RepertoireState,
    form: &mut RepertoireForm,
    commands: &mut Vec<Command>,
) {
    let Some(doc) = w.document() else {
        ui.heading("Moves");
        ui.label("No repertoire open: make one or open one in the Repertoire tab.");
        return;
    };
    let title = doc
        .chapter(w.chapter())
        .map_or_else(String::new, |c| c.title(w.chapter() + 1));
    ui.heading(title);
    let mut add = w.adds_moves();
    if ui
        .checkbox(&mut add, "Add moves")
        .on_hover_text(
            "On: a move played on the board is added here (an existing one is selected). \
             Off: moves on the board are only looked at.",
        )
        .changed()
    {
        push(commands, RepertoireCommand::SetAddMoves(add));
    }
    ui.horizontal(|ui| {
        for (text, tip, command) in [
            ("«", "The start (Home)", RepertoireCommand::ToStart),
            ("‹", "One move back (←)", RepertoireCommand::Back),
            ("›", "One move forward (→)", RepertoireCommand::Forward),
            ("»", "The end of the line (End)", RepertoireCommand::ToEnd),
        ] {
            if ui.button(text).on_hover_text(tip).clicked() {
                push(commands, command);
            }
        }
    });
    if !w.beyond().is_empty() {
        ui.weak(format!(
            "{} move(s) past the repertoire on the board{}",
            w.beyond().len(),
            if w.adds_moves() {
                ""
            } else {
                ": turn on \"Add moves\" to add the next one with them"
            }
        ));
    }
    if let Some((node, text)) = &mut form.comment {
        let label = ui.label("Comment");
        ui.add(
            egui::TextEdit::multiline(text)
                .desired_rows(2)
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
        let (node, text) = (*node, text.clone());
        let (set, cancel) = ui
            .horizontal(|ui| {
                (
                    ui.button("Set comment").clicked(),
                    ui.button("Cancel").clicked(),
                )
            })
            .inner;
        if set {
            push(commands, RepertoireCommand::Comment(node, text));
            form.comment = None;
        } else if cancel {
            form.comment = None;
        }
    }
    ui.separator();
    let Ok(tree) = doc.tree(w.chapter()) else {
        if let Some(issue) = doc.chapter(w.chapter()).and_then(|c| c.issue()) {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("This chapter cannot be edited: {issue}"),
            );
        }
        return;
    };
    let action = egui::ScrollArea::vertical()
        .auto_shrink([false, true])
        .show(ui, |ui| move_tree::move_tree_ui(ui, tree, w.node()))
        .inner;
    match action {
        Some(TreeAction::Command(c)) => push(commands, c),
        Some(TreeAction::EditComment(node)) => {
            let text = tree
                .node(node)
                .and_then(|n| n.annotation().comment)
                .unwrap_or_default();
            form.comment = Some((node, text));
        }
        None => {}
    }
}

/// The repertoire editor's question, as a window over the others.
pub(super) fn question_ui(
    ctx: &egui::Context,
    question: &Question,
    form: &mut RepertoireForm,
    commands: &mut Vec<Command>,
) {
    match question {
        Question::Conflict { path, gone } => {
            if form.save_as.is_empty() {
                form.save_as = suggested_copy(path);
            }
            egui::Window::new("The file changed on disk")
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
                .show(ctx, |ui| {
                    ui.label(if *gone {
                        format!("{} is gone since it was read.", path.display())
                    } else {
                        format!(
                            "{} was changed by another program since it was read. Nothing \
                             was written.",
                            path.display()
                        )
                    });
                    ui.horizontal_wrapped(|ui| {
                        if ui
                            .add_enabled(!*gone, egui::Button::new("Reload"))
                            .on_hover_text("Read the file again: your unsaved edits are dropped")
                            .clicked()
                        {
                            push(commands, RepertoireCommand::Reload);
                        }
                        if ui
                            .button("Overwrite")
                            .on_hover_text(
                                "Write your version over it (the version on disk is kept as a \
                                 backup)",
                            )
                            .clicked()
                        {
                            push(commands, RepertoireCommand::Overwrite);
                        }
                        if ui
                            .button("Save as…")
                            .on_hover_text("Choose another file to save your version to")
                            .clicked()
                        {
                            push(
                                commands,
                                RepertoireCommand::Choose(RepertoireTarget::SaveAs),
                            );
                        }
                        if ui.button("Cancel").clicked() {
                            push(commands, RepertoireCommand::Dismiss);
                        }
                    });
                    ui.horizontal(|ui| {
                        let label = ui.label("New file");
                        ui.text_edit_singleline(&mut form.save_as)
                            .labelled_by(label.id);
                        if ui
                            .button("Save as")
                            .on_hover_text("Save your version to this file instead")
                            .clicked()
                        {
                            let path = PathBuf::from(form.save_as.trim());
                            push(commands, RepertoireCommand::SaveAs(path));
                            form.save_as.clear();
                        }
                    });
                });
        }
        Question::Recover(found) => {
            egui::Window::new("Unsaved edits")
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
                .show(ctx, |ui| {
                    ui.label(format!(
                        "{} has {} unsaved edit(s) from the last time it was open{}. Recover \
                         them?",
                        found.path.display(),
                        found.unsaved,
                        if found.torn {
                            " (the last one was cut off and is left out)"
                        } else {
                            ""
                        }
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Recover").clicked() {
                            push(commands, RepertoireCommand::Recover);
                        }
                        if ui
                            .button("Discard")
                            .on_hover_text("Open the file as it was last saved")
                            .clicked()
                        {
                            push(commands, RepertoireCommand::DiscardRecovery);
                        }
                    });
                });
        }
    }
}

/// `dir/mine.pgn` → `dir/mine-2.pgn`.
fn suggested_copy(path: &std::path::Path) -> String {
    let stem = path.file_stem().map_or_else(
        || "repertoire".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    path.with_file_name(format!("{stem}-2.pgn"))
        .display()
        .to_string()
}

/// "You play: White / Black" for the chapter shown, suggested from its tags, its name or
/// the shape of its tree; kept with the file's settings in the book.
pub(super) fn chapter_side_ui(
    ui: &mut Ui,
    w: &RepertoireState,
    place: &str,
    commands: &mut Vec<Command>,
) {
    let Some(file) = w.file() else {
        return;
    };
    let index = w.chapter();
    let Ok(game) = u32::try_from(index + 1) else {
        return;
    };
    let side = w.chapter_side(index);
    // The suggestion is worked out only while the side is not said (it reads the tree).
    let suggested = match side {
        Some(_) => side,
        None => w.suggested_side(index),
    };
    let picked = super::chapters_panel::side_picker_ui(
        ui,
        ("repertoire_chapter_side", place, file.path(), game),
        game,
        side,
        suggested,
        w.chapter_side_set(index),
    );
    if let Some(side) = picked {
        commands.push(Command::ChapterSide(file.path().to_owned(), game, side));
    }
}
