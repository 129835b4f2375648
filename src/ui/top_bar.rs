//! The top bar: the learner's colour, Open, New line, Take back, Flip, the counts, the
//! box that finds an opening by name, the import progress while files load, and the
//! Help menu. It wraps onto a second row in a narrow window.

use eframe::egui;
use egui::Ui;
use shakmaty::Color;

use super::about::About;
use super::command::{Action, ActionUi, Command};
use super::format::count;
use super::help_menu::help_menu_ui;
use super::import_report::import_progress_ui;
use super::opening_search::{OpeningSearch, opening_search_ui};
use crate::coach::Coach;

/// The top bar; `enabled` says which actions act now (not the drill's while the
/// Repertoire tab hides it: the controls act on what is shown).
pub(super) fn top_bar_ui(
    ui: &mut Ui,
    coach: &Coach,
    enabled: impl Fn(Action) -> bool,
    about: &mut About,
    search: &mut OpeningSearch,
    commands: &mut Vec<Command>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.heading("Hastings");
        help_menu_ui(ui, about);
        ui.separator();
        ui.label("You play");
        let learner = coach.ctx.session.learner();
        for (color, name) in [(Color::White, "White"), (Color::Black, "Black")] {
            if ui
                .selectable_label(learner == color, name)
                .on_hover_text(format!(
                    "Play the {} pieces (starts a new line)",
                    name.to_lowercase()
                ))
                .clicked()
                && learner != color
            {
                commands.push(Command::SetLearner(color));
            }
        }
        ui.separator();
        Action::Open.button_ui(ui, enabled(Action::Open), commands);
        ui.separator();
        Action::NewLine.button_ui(ui, enabled(Action::NewLine), commands);
        Action::TakeBack.button_ui(ui, enabled(Action::TakeBack), commands);
        Action::Flip.button_ui(ui, enabled(Action::Flip), commands);
        ui.separator();
        // Kept whole: moves to a row of its own when the window is narrow. Everything
        // drilled (the progress, kept between sessions), this session's in the hover.
        let all = coach.progress().summary();
        let session = &coach.ctx.session;
        ui.add(
            egui::Label::new(format!(
                "Lines completed: {}   Mistakes: {}",
                count(all.completions),
                count(all.mistakes)
            ))
            .extend(),
        )
        .on_hover_text(format!(
            "Since you started with Hastings (the Progress tab has the details); this \
             session: {} lines completed, {} mistakes",
            count(session.lines_completed()),
            count(session.mistakes_total())
        ));
        ui.separator();
        opening_search_ui(ui, search, coach, commands);
    });
    if let Some(progress) = coach.ctx.workspace.import_progress() {
        ui.horizontal_wrapped(|ui| import_progress_ui(ui, &progress, commands));
    }
}
