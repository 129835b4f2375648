//! Choosing what to review: the session menu (due now, this week, the most common, the
//! hardest, the whole repertoire, this branch, one chapter), "Train branch" (Repertoire
//! tab), "Learn new lines" with the
//! lesson under way, "Practise anyway" when nothing is due, and review's settings (new
//! lines a day; when a slow answer counts Hard, under "Advanced").

use eframe::egui;
use egui::{RichText, Ui};

use super::command::Command;
use super::repertoires_panel::COUNTING;
use crate::book::chapters::chapters;
use crate::coach::Coach;
use crate::coach::settings::Settings;
use crate::review::SessionChoice;
use crate::review::choice::DEFAULT_SESSION_CARDS;
use crate::trainer::review_drill::{Lesson, ReviewStep};

/// The session menu's label.
pub(crate) const SESSION_MENU: &str = "Session";
/// The session menu's id salt.
const SESSION_MENU_SALT: &str = "review_session_menu";
/// "Learn new lines".
pub(crate) const LEARN_NEW_LINES: &str = "Learn new lines";
/// A flag in the context's data: open the session menu (for the screenshot).
pub(crate) const OPEN_SESSION_MENU: &str = "review_open_session_menu";
/// "Train branch".
pub(crate) const TRAIN_BRANCH: &str = "Train branch";
/// The button that asks a lesson's line once it was shown to its end.
pub(crate) const FROM_MEMORY: &str = "Now play it from memory";
/// "Practise anyway".
pub(crate) const PRACTISE_ANYWAY: &str = "Practise anyway";

/// A choice's words in the menu, and its hover text with the exact terms.
pub(crate) fn choice_text(choice: &SessionChoice) -> (String, String) {
    match choice {
        SessionChoice::Due => (
            "Due now".to_owned(),
            "Positions whose review is due (spaced repetition, FSRS), the most urgent first, \
             then new ones up to the daily limit"
                .to_owned(),
        ),
        SessionChoice::Week => (
            "Due this week".to_owned(),
            "Positions due today or in the next six days, the soonest first (reviewed early)"
                .to_owned(),
        ),
        SessionChoice::Common(n) => (
            format!("The {n} most common"),
            format!(
                "The {n} positions a drill reaches most often (the sampler's exact \
                 probability, as the chart's \"exact P\"), the most common first"
            ),
        ),
        SessionChoice::Difficult(n) => (
            format!("The {n} hardest"),
            format!(
                "The {n} reviewed positions with the highest FSRS difficulty, the hardest \
                 first"
            ),
        ),
        SessionChoice::All => (
            "Whole repertoire".to_owned(),
            "Every position where you have a move, nearest the start first".to_owned(),
        ),
        SessionChoice::Branch(_) => (
            "This branch".to_owned(),
            "The positions at and after the one on the board, nearest first".to_owned(),
        ),
        SessionChoice::Chapter(n) => (
            format!("Chapter {n}"),
            format!(
                "The positions where the lines of chapter {n} (game {n} of the file) have your move"
            ),
        ),
    }
}

/// The session menu and "Learn new lines" (in the drill panel, under the mode switch).
pub(super) fn session_menu_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    let chosen = coach.review().choice().cloned();
    let shown = match coach.review().reach().waiting() {
        // The exact reach is found in the background: the session starts then.
        Some(waiting) => format!("{}: {COUNTING}", choice_text(waiting).0),
        None => chosen
            .as_ref()
            .map_or_else(|| "Choose…".to_owned(), |c| choice_text(c).0),
    };
    ui.horizontal_wrapped(|ui| {
        let open_now = ui.data_mut(|d| d.remove_temp::<bool>(egui::Id::unique(OPEN_SESSION_MENU)));
        if open_now == Some(true) {
            // The combo box's own id and its popup's (as egui makes them).
            let id = ui.make_persistent_id(egui::IdSalt::new(SESSION_MENU_SALT));
            egui::Popup::open_id(ui.ctx(), id.with("popup"));
        }
        let menu = egui::ComboBox::new(SESSION_MENU_SALT, SESSION_MENU)
            .selected_text(shown)
            .show_ui(ui, |ui| {
                let branch: Vec<shakmaty::Move> =
                    coach.session().moves().iter().map(|m| m.mv).collect();
                let mut choices = vec![
                    SessionChoice::Due,
                    SessionChoice::Week,
                    SessionChoice::Common(DEFAULT_SESSION_CARDS),
                    SessionChoice::Difficult(DEFAULT_SESSION_CARDS),
                    SessionChoice::All,
                    SessionChoice::Branch(branch),
                ];
                let titles: Vec<(u32, String)> = chapters(coach.graph().lines())
                    .into_iter()
                    .map(|c| (c.game, c.title))
                    .collect();
                choices.extend(titles.iter().map(|(game, _)| SessionChoice::Chapter(*game)));
                for choice in choices {
                    let (mut text, hover) = choice_text(&choice);
                    if let SessionChoice::Chapter(game) = choice
                        && let Some((_, title)) = titles.iter().find(|(g, _)| *g == game)
                    {
                        text = format!("Chapter {game}: {title}");
                    }
                    let selected = chosen.as_ref() == Some(&choice);
                    if ui
                        .selectable_label(selected, text)
                        .on_hover_text(hover)
                        .clicked()
                    {
                        commands.push(Command::ReviewSession(choice));
                    }
                }
            })
            .response
            .on_hover_text("Which positions to review");
        if menu.clicked() {
            // Opened: "the most common" will want the exact reach, found in the
            // background while the learner reads the menu.
            commands.push(Command::PrepareSessions);
        }
        if ui
            .button(LEARN_NEW_LINES)
            .on_hover_text(
                "Each new line shown move by move with its comments and arrows (play the \
                 move shown), then asked from memory, then handed to spaced repetition; how \
                 many a day is in the Style tab",
            )
            .clicked()
        {
            commands.push(Command::LearnNewLines);
        }
    });
}

/// The lesson under way: which line, the move to play or "from memory", a wrong move.
pub(super) fn lesson_ui(
    ui: &mut Ui,
    coach: &Coach,
    lesson: &Lesson,
    step: &ReviewStep,
    commands: &mut Vec<Command>,
) {
    let (done, total) = lesson.progress();
    let title = coach.graph().line(lesson.line()).title();
    ui.add(
        egui::Label::new(
            RichText::new(format!("Learning line {} of {total}: {title}", done + 1)).strong(),
        )
        .wrap(),
    );
    match step {
        ReviewStep::Learn(card) => {
            ui.label(format!("Play the move shown: {}", card.san))
                .on_hover_text("The first pass shows the line: play each move of the arrow");
            if let Some(c) = &card.comment {
                ui.add(egui::Label::new(RichText::new(c).italics()).wrap());
            }
        }
        _ if lesson.at_end() => {
            ui.label(RichText::new("That is the whole line: its last position").strong())
                .on_hover_text(
                    "The first pass shows the line to its end; then you play it from memory",
                );
            if ui
                .button(FROM_MEMORY)
                .on_hover_text(
                    "Your moves of the line are asked from the start; the new ones are \
                     graded and go to spaced repetition",
                )
                .clicked()
            {
                commands.push(Command::GotIt);
            }
        }
        _ if lesson.is_quiz() => {
            ui.label(RichText::new("Now from memory: play the line").strong())
                .on_hover_text(
                    "Your moves of the line are asked from the start; the new ones are \
                     graded and go to spaced repetition",
                );
        }
        _ => {}
    }
    if let Some(san) = lesson.missed() {
        ui.label(
            RichText::new(format!("{san} is not this line's move: try again"))
                .color(ui.visuals().warn_fg_color),
        );
    }
    // At the line's end, Next line asks it (the drill panel's button): nothing to skip.
    if !lesson.at_end()
        && ui
            .button("Skip this line")
            .on_hover_text("On to the next new line")
            .clicked()
    {
        commands.push(Command::Action(crate::coach::command::Action::NextLine));
    }
}

/// "Train branch" in the Repertoire tab: a review session of the positions at and after
/// the move shown (`moves` from the standard position), in the book drilled.
pub(super) fn train_branch_ui(
    ui: &mut Ui,
    enabled: bool,
    moves: Vec<shakmaty::Move>,
    commands: &mut Vec<Command>,
) {
    if ui
        .add_enabled(enabled, egui::Button::new(TRAIN_BRANCH))
        .on_hover_text(
            "Review (spaced repetition) the positions at and after the move shown, in the \
             book you drill: your repertoire in repertoire mode",
        )
        .clicked()
    {
        commands.push(Command::ReviewSession(SessionChoice::Branch(moves)));
    }
}

/// "Practise anyway" when nothing is due: the most common positions.
pub(super) fn practise_anyway_ui(ui: &mut Ui, commands: &mut Vec<Command>) {
    let choice = SessionChoice::Common(DEFAULT_SESSION_CARDS);
    if ui
        .button(PRACTISE_ANYWAY)
        .on_hover_text(choice_text(&choice).1)
        .clicked()
    {
        commands.push(Command::ReviewSession(choice));
    }
}

/// Review's settings in the Style tab: new lines a day; under "Advanced", after how many
/// seconds a right answer counts Hard.
pub(super) fn review_settings_ui(ui: &mut Ui, settings: &mut Settings) {
    // Wrapped rows and a short fold title: at 800×600 a row wider than the side panel
    // widens the whole tab past its edge.
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("New lines a day");
        ui.add(egui::DragValue::new(&mut settings.new_lines_per_day).range(0..=50))
            .labelled_by(label.id)
            .on_hover_text("How many new lines \"Learn new lines\" teaches a day");
    });
    egui::CollapsingHeader::new("Advanced: grades")
        .id_salt("review_grade_advanced")
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                let label = ui.label("A right answer is Hard after (seconds)");
                ui.add(
                    egui::DragValue::new(&mut settings.review_grade.slow_seconds)
                        .range(0.0..=120.0)
                        .speed(0.5),
                )
                .labelled_by(label.id)
                .on_hover_text(
                    "A right first-try answer slower than this is graded Hard instead of \
                     Good (FSRS rating); 0: time is not counted",
                );
            });
        });
}
