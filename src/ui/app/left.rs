//! The left panel: its tabs (My repertoires, Style, Book, Progress, Coverage, Explorer,
//! Repertoire) and the tab shown.

use eframe::egui;
use egui::Ui;

use super::{LeftTab, TrainerApp};
use crate::coach::Command;
use crate::ui::{
    book_panel, coverage_panel, folding, learner_style_panel, profile_panel, progress_panel,
    repertoire_panel, repertoires_panel, review_panel, sounds, style_panel,
};

impl TrainerApp {
    pub(super) fn left_panel_ui(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        // The tabs wrap to a second row when the panel is narrow (800x600).
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 4.0;
            ui.spacing_mut().button_padding.x = 4.0;
            if folding::fold_button_ui(ui, "«", "the side panel") {
                let settings = self.coach.settings();
                commands.push(folding::set_panels(settings, |p| p.side = false));
            }
            for (tab, name) in [
                (LeftTab::Repertoires, "My repertoires"),
                (LeftTab::Style, "Style"),
                (LeftTab::Book, "Book"),
                (LeftTab::Progress, "Progress"),
                (LeftTab::Coverage, "Coverage"),
                (LeftTab::Explorer, "Explorer"),
                (LeftTab::Repertoire, "Repertoire"),
            ] {
                if ui.selectable_label(self.left_tab == tab, name).clicked() {
                    self.left_tab = tab;
                }
            }
        });
        ui.separator();
        // The panels edit a copy of the settings; a change becomes one command.
        let mut settings = self.coach.settings().clone();
        // Each tab scrolls on its own: another tab opens where it was left, not at the
        // offset of the tab before.
        let scroll = egui::ScrollArea::vertical().id_salt(("left_tab", self.left_tab));
        // The scroll bar has a place of its own: the tabs' texts wrap before it, never
        // under it ("(side not said)" ended under the bar).
        let bar = ui.spacing().scroll;
        ui.spacing_mut().scroll.floating_allocated_width = bar.bar_width + bar.bar_inner_margin;
        scroll.show(ui, |ui| match self.left_tab {
            LeftTab::Repertoires => {
                let asked = repertoires_panel::repertoires_panel_ui(
                    ui,
                    &self.coach,
                    &mut self.repertoires_form,
                    commands,
                );
                match asked.go_to {
                    Some(repertoires_panel::GoTo::Repertoire) => {
                        self.left_tab = LeftTab::Repertoire;
                    }
                    Some(repertoires_panel::GoTo::Coverage) => self.left_tab = LeftTab::Coverage,
                    None => {}
                }
                if asked.after_build.is_some() {
                    self.after_build = asked.after_build;
                }
            }
            LeftTab::Style => {
                let seed = Some(self.coach.session().seed());
                style_panel::style_panel_ui(ui, &mut settings, seed, commands);
                sounds::sounds_ui(ui, &mut settings, &self.sounds.state());
                profile_panel::profile_panel_ui(ui, &self.coach, commands);
            }
            LeftTab::Book => {
                book_panel::book_panel_ui(
                    ui,
                    self.coach.workspace(),
                    &self.coach.settings().recent_files,
                    commands,
                );
                ui.separator();
                crate::ui::fetch_panel::fetch_ui(
                    ui,
                    &mut self.fetch,
                    self.coach.book().fetch(),
                    commands,
                );
                crate::ui::make_book_panel::make_book_ui(
                    ui,
                    &mut self.make_book,
                    self.coach.jobs(),
                    commands,
                );
            }
            LeftTab::Progress => {
                review_panel::review_progress_ui(ui, &self.coach, commands);
                progress_panel::progress_panel_ui(
                    ui,
                    self.coach.progress(),
                    self.coach.progress_warning(),
                    self.coach.coverage().most_missed(),
                    commands,
                );
                let state = self.coach.learner_style_state();
                learner_style_panel::learner_style_panel_ui(ui, state, &mut settings.learner_name);
            }
            LeftTab::Repertoire => {
                repertoire_panel::repertoire_panel_ui(
                    ui,
                    &self.coach,
                    &mut self.repertoire_form,
                    commands,
                );
            }
            LeftTab::Explorer => {
                let settings = self.coach.settings();
                crate::ui::explorer_panel::explorer_panel_ui(
                    ui,
                    self.coach.explorer(),
                    &crate::ui::explorer_panel::PanelSettings {
                        learner_name: &settings.learner_name,
                        hide_answer: settings.explorer_hide_answer,
                        evals: settings.explorer_evals,
                        players_min: settings.explorer_players_min,
                    },
                    commands,
                );
            }
            LeftTab::Coverage => {
                let repertoire = self.coach.is_repertoire();
                let orientation = self.coach.orientation();
                coverage_panel::coverage_panel_ui(
                    ui,
                    self.coach.coverage(),
                    self.coach.coverage_params(),
                    self.coach.check_state(),
                    repertoire,
                    orientation,
                    commands,
                );
            }
        });
        if settings != *self.coach.settings() {
            commands.push(Command::SetSettings(Box::new(settings)));
        }
    }
}
