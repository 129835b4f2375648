//! The window's layout: the top bar, the left tabs, the drill on the right, the chart
//! below and the board in the centre; then the floating windows. Each frame draws the
//! panels, collects their commands and applies them.

use eframe::egui;
use egui::Ui;

use super::app::{LeftTab, TrainerApp};
use super::command::{Action, Command};
use super::{
    board_panel, book_panel, chart_panel, coverage_panel, drill_panel, import_report,
    learner_style_panel, play_on_panel, profile_panel, progress_panel, style_panel, top_bar,
};

impl TrainerApp {
    pub(super) fn draw_and_apply(&mut self, ui: &mut Ui) {
        let mut commands: Vec<Command> = Action::consume_shortcuts(ui.ctx())
            .into_iter()
            .filter(|a| self.is_enabled(*a))
            .map(Command::Action)
            .collect();
        self.draw(ui, &mut commands);
        for command in commands {
            self.apply(ui.ctx(), command);
        }
        self.update_title(ui.ctx());
        let loading = self.is_loading();
        let fraction = self
            .workspace
            .import_progress()
            .map(|p| p.counters.fraction());
        if let Some(t) = &mut self.timings {
            t.frame(ui.ctx(), loading, fraction);
        }
    }

    /// The panels: top bar, left tabs, drill on the right, chart below, board in the
    /// centre; then the windows (import report, open dialog, path entry).
    fn draw(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        // Panel sizes follow the window, so that 800×600 and full screen both leave the
        // board the most room.
        let window = ui.available_size();
        egui::Panel::top("hastings_top").show(ui, |ui| top_bar::top_bar_ui(ui, self, commands));
        egui::Panel::left("hastings_style")
            .resizable(false)
            .exact_size((window.x * 0.2).clamp(180.0, 300.0))
            .show(ui, |ui| self.left_panel_ui(ui, commands));
        egui::Panel::right("hastings_drill")
            .resizable(false)
            .exact_size((window.x * 0.22).clamp(190.0, 360.0))
            .show(ui, |ui| drill_panel::drill_panel_ui(ui, self, commands));
        egui::Panel::bottom("hastings_chart")
            .resizable(false)
            .exact_size((window.y * 0.3).clamp(140.0, 320.0))
            .show(ui, |ui| {
                if self.play_on.is_active() {
                    play_on_panel::engine_lines_ui(ui, self);
                } else {
                    chart_panel::chart_panel_ui(ui, self, commands);
                }
            });
        egui::CentralPanel::default()
            .show(ui, |ui| board_panel::board_panel_ui(ui, self, commands));
        let ctx = ui.ctx().clone();
        if let Some(view) = &self.report {
            import_report::report_window_ui(&ctx, view, commands);
        }
        self.dialogs.windows_ui(&ctx, commands);
        import_report::drop_overlay_ui(&ctx);
    }

    fn left_panel_ui(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        // The tabs wrap to a second row when the panel is narrow (800x600).
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 4.0;
            ui.spacing_mut().button_padding.x = 4.0;
            for (tab, name) in [
                (LeftTab::Style, "Style"),
                (LeftTab::Book, "Book"),
                (LeftTab::Progress, "Progress"),
                (LeftTab::Coverage, "Coverage"),
            ] {
                if ui.selectable_label(self.left_tab == tab, name).clicked() {
                    self.left_tab = tab;
                }
            }
        });
        ui.separator();
        egui::ScrollArea::vertical().show(ui, |ui| match self.left_tab {
            LeftTab::Style => {
                let seed = Some(self.session.seed());
                style_panel::style_panel_ui(ui, &mut self.settings, seed, commands);
                profile_panel::profile_panel_ui(ui, self, commands);
            }
            LeftTab::Book => {
                book_panel::book_panel_ui(ui, &self.workspace, commands);
                ui.separator();
                super::make_book_panel::make_book_ui(ui, &mut self.make_book);
            }
            LeftTab::Progress => {
                super::review_panel::review_progress_ui(ui, self, commands);
                progress_panel::progress_panel_ui(
                    ui,
                    self.progress.progress(),
                    self.progress.warning(),
                    &self.graph,
                    commands,
                );
                self.learner_style
                    .refresh(&self.workspace, &self.settings.learner_name);
                learner_style_panel::learner_style_panel_ui(
                    ui,
                    &self.learner_style,
                    &mut self.settings.learner_name,
                );
            }
            LeftTab::Coverage => {
                let repertoire = self.workspace.is_repertoire();
                coverage_panel::coverage_panel_ui(
                    ui,
                    &mut self.coverage,
                    repertoire,
                    self.orientation,
                    commands,
                );
            }
        });
    }

    fn update_title(&mut self, ctx: &egui::Context) {
        let title = match self.session.opening_title() {
            Some(t) => format!("Hastings — {t}"),
            None => "Hastings — opening trainer".to_owned(),
        };
        if title != self.window_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.window_title = title;
        }
    }
}
