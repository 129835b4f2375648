//! Drawing a frame of [`TrainerApp`]: the panels, the board, the windows on top, then
//! the commands they pushed handed to the coach.

use eframe::egui;
use egui::Ui;

use crate::ui::chart_panel::{self};
use crate::ui::command::{Action, ActionUi, Command};
use crate::ui::folding;
use crate::ui::repertoire_missing;
use crate::ui::repertoire_panel::{self};
use crate::ui::welcome::{self};
use crate::ui::{
    board_panel, board_theme, drill_panel, import_report, move_box, opening_search, play_on_panel,
    side_question, top_bar,
};

use super::{LeftTab, TrainerApp, action_enabled};
use crate::coach::explorer::ExplorerCommand;

impl TrainerApp {
    pub(super) fn draw_and_apply(&mut self, ui: &mut Ui) {
        let dialog_open = self.dialogs.is_open()
            || self.welcome.is_some()
            || self.settings_notice.is_some()
            || self.coach.style().side_question().is_some()
            || self.coach.repertoire().question().is_some();
        // The Repertoire tab's keys (arrows, undo, save) come before the drill's.
        // The explorer's game window, while it shows a game, takes the arrows first.
        let mut commands = crate::ui::explorer_game::explorer_game_keys(
            ui.ctx(),
            self.coach.explorer().game(),
            dialog_open,
        );
        if self.shows_repertoire() {
            commands.extend(
                repertoire_panel::repertoire_keys(ui.ctx(), dialog_open)
                    .into_iter()
                    .map(Command::Repertoire),
            );
        }
        commands.extend(
            Action::consume_shortcuts(ui.ctx(), dialog_open)
                .into_iter()
                .filter(|a| self.is_enabled(*a))
                .map(Command::Action),
        );
        // Ctrl+C copies the game as PGN, unless text is being edited or selected.
        let ctx = ui.ctx().clone();
        let selected = ctx
            .with_plugin(|s: &mut egui::text_selection::LabelSelectionState| s.has_selection())
            .unwrap_or(false);
        if !ctx.egui_wants_keyboard_input()
            && !dialog_open
            && !selected
            && ctx.input(|i| i.events.iter().any(|e| matches!(e, egui::Event::Copy)))
        {
            commands.push(Command::CopyPgn);
        }
        // Ctrl+V reads the clipboard as games, moves or a FEN, unless text is being edited.
        if !ctx.egui_wants_keyboard_input() && !dialog_open {
            let pasted = ctx.input(|i| {
                i.events.iter().find_map(|e| match e {
                    egui::Event::Paste(text) => Some(text.clone()),
                    _ => None,
                })
            });
            commands.extend(pasted.map(Command::Paste));
        }
        if move_box::focus_key_pressed(ui.ctx(), dialog_open) {
            move_box::focus(ui.ctx());
        }
        if opening_search::focus_key_pressed(ui.ctx(), dialog_open) {
            opening_search::focus(ui.ctx(), &mut self.opening_search);
        }
        let look = self.coach.settings().board_look;
        board_theme::set_board_look(ui.ctx(), look);
        self.draw(ui, &mut commands);
        for command in commands {
            self.apply(ui.ctx(), command);
        }
        if self.coach.settings().board_look != look {
            // This frame drew the boards with the old look: draw them again.
            ui.ctx().request_repaint();
        }
        self.update_title(ui.ctx());
        let loading = self.coach.is_loading();
        let fraction = self
            .coach
            .workspace()
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
        let repertoire_shown = self.shows_repertoire();
        let (coach, dialogs) = (&self.coach, &self.dialogs);
        let enabled = |a| action_enabled(coach, dialogs, repertoire_shown, a);
        egui::Panel::top("hastings_top").show(ui, |ui| {
            top_bar::top_bar_ui(
                ui,
                coach,
                enabled,
                &mut self.about,
                &mut self.opening_search,
                commands,
            );
        });
        let panels = self.coach.settings().panels;
        // The explorer's engine evaluates only while the Explorer tab is in view.
        let explorer_shown = panels.side && self.left_tab == LeftTab::Explorer;
        if explorer_shown != self.coach.explorer().is_shown() {
            commands.push(Command::Explorer(ExplorerCommand::SetShown(explorer_shown)));
        }
        if panels.side {
            egui::Panel::left("hastings_style")
                .resizable(false)
                .exact_size((window.x * 0.2).clamp(180.0, 300.0))
                .show(ui, |ui| self.left_panel_ui(ui, commands));
        } else {
            egui::Panel::left("hastings_style_folded")
                .resizable(false)
                .exact_size(30.0)
                .show(ui, |ui| {
                    if folding::unfold_button_ui(ui, "»", "the side panel") {
                        let settings = self.coach.settings();
                        commands.push(folding::set_panels(settings, |p| p.side = true));
                    }
                });
        }
        egui::Panel::right("hastings_drill")
            .resizable(false)
            .exact_size((window.x * 0.22).clamp(190.0, 360.0))
            .show(ui, |ui| {
                if repertoire_shown {
                    let w = self.coach.repertoire();
                    repertoire_panel::move_tree_panel_ui(
                        ui,
                        w,
                        &mut self.repertoire_form,
                        commands,
                    );
                } else {
                    drill_panel::drill_panel_ui(ui, &self.coach, commands);
                }
            });
        if panels.chart {
            egui::Panel::bottom("hastings_chart")
                .resizable(false)
                .exact_size((window.y * 0.3).clamp(140.0, 320.0))
                .show(ui, |ui| {
                    if folding::fold_button_ui(ui, "Hide the chart", "the chart") {
                        let settings = self.coach.settings();
                        commands.push(folding::set_panels(settings, |p| p.chart = false));
                    }
                    if repertoire_shown {
                        repertoire_missing::missing_panel_ui(ui, &self.coach, commands);
                    } else if self.coach.play_on().is_active() {
                        play_on_panel::engine_lines_ui(ui, &self.coach);
                    } else {
                        chart_panel::chart_panel_ui(ui, &self.coach, &mut self.chart, commands);
                    }
                });
        } else {
            egui::Panel::bottom("hastings_chart_folded")
                .resizable(false)
                .show(ui, |ui| {
                    if folding::unfold_button_ui(ui, "Show the chart", "the chart under the board")
                    {
                        let settings = self.coach.settings();
                        commands.push(folding::set_panels(settings, |p| p.chart = true));
                    }
                });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            if repertoire_shown {
                board_panel::repertoire_board_ui(ui, &self.coach, commands);
            } else if self.coach.play_on().is_active() {
                play_on_panel::play_on_board_ui(ui, &self.coach, self.play_on_animation, commands);
            } else {
                chart_panel::refresh(&self.coach, &mut self.chart);
                let extras = board_panel::BoardExtras {
                    animation: self.animation,
                    chart: self.chart.data(),
                    hides_answer: chart_panel::hides_answer(&self.coach),
                };
                board_panel::board_panel_ui(ui, &self.coach, &extras, commands);
            }
        });
        let ctx = ui.ctx().clone();
        // One window at a time: the side question first (it decides how the file is
        // drilled), then the import report.
        if let Some(view) = self.coach.book().report()
            && self.coach.style().side_question().is_none()
        {
            import_report::report_window_ui(&ctx, view, commands);
        }
        crate::ui::explorer_game::explorer_game_ui(
            &ctx,
            self.coach.explorer().game(),
            self.coach.repertoire().file().is_some(),
            self.coach.orientation(),
            commands,
        );
        self.dialogs.windows_ui(&ctx, commands);
        if let Some(question) = self.coach.repertoire().question() {
            repertoire_panel::question_ui(&ctx, question, &mut self.repertoire_form, commands);
        }
        if let Some(question) = self.coach.style().side_question() {
            side_question::side_question_ui(&ctx, question, commands);
        }
        if let Some(form) = &mut self.welcome {
            let current = self.coach.session().learner();
            if let Some(closed) = welcome::welcome_ui(&ctx, form, current, commands) {
                if closed == welcome::Closed::Start && form.drill == welcome::Drill::Repertoire {
                    // The file chosen next is the repertoire; the side is taken then.
                    self.dialogs
                        .read_next_as(crate::workspace::FileMode::Repertoire);
                    self.learner_after_open = (form.learner != current).then_some(form.learner);
                }
                self.welcome = None;
            }
        }
        if let Some(text) = &self.settings_notice
            && crate::ui::settings_notice::settings_notice_ui(&ctx, text)
        {
            self.settings_notice = None;
        }
        crate::ui::about::about_window_ui(
            &ctx,
            &mut self.about,
            crate::workspace::data_dir::data_dir().as_deref(),
        );
        import_report::drop_overlay_ui(&ctx);
    }
}
