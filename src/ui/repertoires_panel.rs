//! "My repertoires" (the first tab of the left panel): each repertoire file with its
//! sides, chapters, lines and positions, what is due today and this week, when it was
//! last trained, and what to do with it (Train, Learn new lines, Review, Edit, Check
//! with an engine, Gaps and coverage); several ticked to be trained together; ECO as one more choice. The rows
//! are the coach's ([`crate::coach::book::repertoires`]).

use std::path::PathBuf;

use eframe::egui;
use egui::{RichText, Ui};

use super::command::Command;
use super::format::count;
use crate::coach::repertoire::RepertoireCommand;
use crate::coach::settings::DrillMode;
use crate::coach::{Action, Coach};
use crate::review::Timestamp;
use crate::workspace::repertoires::RepertoireRow;

/// What a row says while its positions and cards are counted in the background.
pub(crate) const COUNTING: &str = "counting…";

/// The tab's own state: the repertoires ticked to train together.
#[derive(Debug, Default)]
pub(super) struct RepertoiresForm {
    /// The files ticked "train together".
    pub(super) together: Vec<PathBuf>,
}

/// Where the window goes after a click.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum GoTo {
    /// The Repertoire tab (Edit).
    Repertoire,
    /// The Coverage tab (Coverage, Check with an engine).
    Coverage,
}

/// What a click asks of the window besides its commands.
#[derive(Debug, Default)]
pub(super) struct Asked {
    /// A tab to show.
    pub(super) go_to: Option<GoTo>,
    /// A command to send once the book is rebuilt (the check runs on the new book).
    pub(super) after_build: Option<Command>,
}

/// The My repertoires tab.
pub(super) fn repertoires_panel_ui(
    ui: &mut Ui,
    coach: &Coach,
    form: &mut RepertoiresForm,
    commands: &mut Vec<Command>,
) -> Asked {
    let mut asked = Asked::default();
    let rows = coach.book().repertoires().rows();
    if rows.is_empty() {
        ui.add(
            egui::Label::new(
                "No repertoire yet. Open your repertoire (a PGN file or a lichess study) \
                 and read it as “My repertoire”: it is listed here with what is due.",
            )
            .wrap(),
        );
        if ui
            .button(Action::Open.text())
            .on_hover_text(Action::Open.tooltip())
            .clicked()
        {
            commands.push(Command::Action(Action::Open));
        }
    }
    let now = Timestamp::from_clock(crate::clock::Clock::local());
    form.together.retain(|p| rows.iter().any(|r| &r.path == p));
    for (i, row) in rows.iter().enumerate() {
        ui.push_id(("repertoire_row", i), |ui| {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.set_width(ui.available_width());
                row_ui(ui, coach, row, now, form, commands, &mut asked);
            });
        });
    }
    if rows.len() > 1 {
        let n = form.together.len();
        if ui
            .add_enabled(
                n > 0,
                egui::Button::new(if n == 0 {
                    "Train the ticked together".to_owned()
                } else {
                    format!("Train the {n} ticked together")
                }),
            )
            .on_hover_text(
                "Drill the ticked repertoires as one book: each chapter from its own side \
                 (White and Black lines take turns)",
            )
            .on_disabled_hover_text("Tick “train together” on the repertoires to drill")
            .clicked()
        {
            commands.push(Command::TrainRepertoires(form.together.clone()));
            commands.push(Command::SetDrillMode(DrillMode::Free));
        }
    }
    ui.separator();
    eco_ui(ui, coach, commands);
    asked
}

/// One repertoire: its numbers and its buttons.
fn row_ui(
    ui: &mut Ui,
    coach: &Coach,
    row: &RepertoireRow,
    now: Timestamp,
    form: &mut RepertoiresForm,
    commands: &mut Vec<Command>,
    asked: &mut Asked,
) {
    let alone = drilled_alone(coach, row);
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(&row.name).strong())
            .on_hover_text(row.path.display().to_string());
        ui.label(format!("for {}", row.sides_text()))
            .on_hover_text(format!(
                "Chapters for White: {}, for Black: {}, side not said: {}",
                row.sides.white, row.sides.black, row.sides.unknown
            ));
        if row.ticked {
            ui.label(RichText::new(if alone { "drilled now" } else { "in the book" }).small())
                .on_hover_text("Ticked in the Book tab: the drill plays its lines");
        }
    });
    let positions = if row.counted {
        counted(row.positions, "position")
    } else {
        COUNTING.to_owned()
    };
    ui.add(
        egui::Label::new(format!(
            "{} · {} · {positions}",
            counted(row.chapters, "chapter"),
            counted(row.lines, "line"),
        ))
        .wrap(),
    );
    if !row.counted {
        ui.label(format!("Due today: {COUNTING}"))
            .on_hover_text("Its positions and cards are being counted in the background");
    } else {
        due_ui(ui, row, now);
    }
    let paths = vec![row.path.clone()];
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Train")
            .on_hover_text("Drill this repertoire alone: the computer plays only its moves")
            .clicked()
        {
            commands.push(Command::TrainRepertoires(paths.clone()));
            commands.push(Command::SetDrillMode(DrillMode::Free));
        }
        if ui
            .button("Learn new lines")
            .on_hover_text(
                "This repertoire alone: its new lines of the day shown move by move, then \
                 asked, then reviewed with spaced repetition (New lines a day: Style tab)",
            )
            .clicked()
        {
            commands.push(Command::TrainRepertoires(paths.clone()));
            commands.push(Command::LearnNewLines);
        }
        if ui
            .button("Review")
            .on_hover_text("Review mode on this repertoire alone: the positions due first")
            .clicked()
        {
            commands.push(Command::TrainRepertoires(paths.clone()));
            commands.push(Command::SetDrillMode(DrillMode::Review));
        }
        if ui
            .button("Edit")
            .on_hover_text("Open it in the Repertoire tab")
            .clicked()
        {
            commands.push(Command::Repertoire(RepertoireCommand::Open(
                row.path.clone(),
            )));
            asked.go_to = Some(GoTo::Repertoire);
        }
        if ui
            .button("Check with an engine")
            .on_hover_text("Is it sound? Every position analysed (the Coverage tab)")
            .clicked()
        {
            if alone && !coach.is_loading() {
                commands.push(Command::CheckRepertoire);
            } else {
                commands.push(Command::TrainRepertoires(paths.clone()));
                asked.after_build = Some(Command::CheckRepertoire);
            }
            asked.go_to = Some(GoTo::Coverage);
        }
        if ui
            .button("Gaps and coverage")
            .on_hover_text(
                "Coverage: what it will face against the book, and its gaps (the Coverage \
                 tab)",
            )
            .clicked()
        {
            if !alone {
                commands.push(Command::TrainRepertoires(paths.clone()));
            }
            asked.go_to = Some(GoTo::Coverage);
        }
        let mut together = form.together.contains(&row.path);
        if ui
            .checkbox(&mut together, "train together")
            .on_hover_text("Tick several repertoires (White and Black) to drill them as one")
            .changed()
        {
            form.together.retain(|p| *p != row.path);
            if together {
                form.together.push(row.path.clone());
            }
        }
    });
    chapters_ui(ui, coach, row, commands);
}

/// The chapters, each with its side (set here as in the Book tab).
fn chapters_ui(ui: &mut Ui, coach: &Coach, row: &RepertoireRow, commands: &mut Vec<Command>) {
    let ws = coach.workspace();
    let Some(file) = ws.file(&row.path) else {
        return;
    };
    let title = match file.chapters.len() {
        1 => "Side of its chapter".to_owned(),
        n => format!("Sides of its {n} chapters"),
    };
    egui::CollapsingHeader::new(title)
        .id_salt(("repertoire_row_chapters", &row.path))
        .show(ui, |ui| {
            for c in &file.chapters {
                ui.add(egui::Label::new(&c.title).wrap());
                let picked = super::chapters_panel::side_picker_ui(
                    ui,
                    ("my_repertoires_side", &row.path, c.game),
                    c.game,
                    ws.chapter_side(&file.path, c),
                    c.tagged.or(c.guessed),
                    ws.chapter_side_set(&file.path, c),
                );
                if let Some(side) = picked {
                    commands.push(Command::ChapterSide(row.path.clone(), c.game, side));
                }
            }
        });
}

/// Whether the book is this repertoire alone (ticked, ECO and the other files not).
fn drilled_alone(coach: &Coach, row: &RepertoireRow) -> bool {
    let choice = coach.workspace().choice();
    !choice.eco
        && choice
            .files
            .iter()
            .all(|f| f.enabled == (f.path == row.path))
}

/// ECO, the built-in openings: one choice among the repertoires.
fn eco_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    let choice = coach.workspace().choice();
    let lines = coach.workspace().eco_lines().len();
    let only_eco = choice.eco && choice.files.iter().all(|f| !f.enabled);
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("Built-in openings (ECO, {} lines)", count(lines)));
        if only_eco {
            ui.label(RichText::new("drilled now").small());
        } else if ui
            .button("Drill these")
            .on_hover_text(
                "Drill the built-in ECO openings instead of your repertoires (they stay \
                 here; tick them again with Train)",
            )
            .clicked()
        {
            let mut choice = choice.clone();
            choice.eco = true;
            for f in &mut choice.files {
                f.enabled = false;
            }
            commands.push(Command::SetBook(choice));
        }
    });
}

/// "1 chapter", "3 chapters".
fn counted(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{} {what}s", count(n))
    }
}

/// "today", "yesterday", "3 days ago", "never".
fn last_trained(last: Option<Timestamp>, now: Timestamp) -> String {
    let Some(last) = last else {
        return "never".to_owned();
    };
    match now.day() - last.with_offset(now.offset_minutes()).day() {
        d if d <= 0 => "today".to_owned(),
        1 => "yesterday".to_owned(),
        d => format!("{d} days ago"),
    }
}

/// What a counted row says is due, and when it was last trained.
fn due_ui(ui: &mut Ui, row: &RepertoireRow, now: Timestamp) {
    ui.add(
        egui::Label::new(format!(
            "Due today {} · this week {} · new {}",
            count(row.due_today),
            count(row.due_week),
            count(row.new)
        ))
        .wrap(),
    )
    .on_hover_text(format!(
        "Cards (positions where you are to move and the file has your move): {}. Due: \
         the review log's schedule (FSRS); this week: due within seven days",
        count(row.cards)
    ));
    ui.label(format!(
        "Last trained: {}",
        last_trained(row.last_trained, now)
    ))
    .on_hover_text("Your last review of one of its positions (the review log)");
}
