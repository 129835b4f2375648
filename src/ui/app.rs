//! The trainer window's state, [`TrainerApp`], and what it does each frame.
//!
//! The persisted choices are [`Settings`]; everything else is runtime: the drill
//! ([`Session`]), the book's sources ([`Workspace`]), the jobs, the caches. Each frame
//! first does the non-drawing work ([`TrainerApp::logic`]: finished jobs, the
//! computer's delayed reply, completed lines), then the panels draw and collect
//! [`Command`]s, then [`TrainerApp::apply`] carries them out. egui redraws only on input
//! or when a timer asks (the reply delay, a move being animated, a running job), so an
//! idle window draws nothing.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use eframe::egui;
use egui::Ui;
use shakmaty::{Color, Move};

use super::board::Orientation;
use super::chart::ChartData;
use super::chart_panel::ChartCache;
use super::command::{Action, Command, ExportWhat};
use super::coverage::CoverageView;
use super::dialogs::Dialogs;
use super::explore::{ExploreRun, Explored};
use super::import_report::ReportView;
use super::screenshot::ScreenshotPlan;
use super::state::{SETTINGS_KEY, Settings};
use super::timings::Timings;
use super::{
    board_panel, book_panel, chart_panel, coverage_panel, drill_panel, import_report,
    progress_panel, style_panel, top_bar,
};
use crate::book::PositionGraph;
use crate::trainer::progress::Progress;
use crate::trainer::{Reply, Session};
use crate::workspace::job::Wake;
use crate::workspace::store::ProgressFile;
use crate::workspace::{Workspace, WorkspaceError, WorkspaceEvent, export};

/// How long a move glides to its square.
pub(super) const MOVE_ANIMATION: f64 = 0.15;

/// The tabs of the left panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LeftTab {
    Style,
    Book,
    Progress,
    Coverage,
}

/// A move on its way to its square: the move and when (egui time) it started.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Animation {
    pub(super) mv: Move,
    pub(super) started: f64,
}

/// The trainer window's state.
pub struct TrainerApp {
    pub(super) settings: Settings,
    pub(super) workspace: Workspace,
    /// The book the drill uses (also held by the session).
    pub(super) graph: Arc<PositionGraph>,
    /// Counts the books drilled on, so caches know the book changed.
    pub(super) book_generation: u64,
    pub(super) session: Session,
    pub(super) orientation: Orientation,
    pub(super) progress: ProgressFile,
    pub(super) left_tab: LeftTab,
    /// When (egui time) the computer's pending reply is due.
    reply_due: Option<f64>,
    pub(super) last_reply: Option<Reply>,
    /// What happened last, for the feedback panel.
    pub(super) message: Option<String>,
    pub(super) animation: Option<Animation>,
    pub(super) explore: Option<ExploreRun>,
    pub(super) explored: Option<Explored>,
    pub(super) chart: ChartCache,
    pub(super) dialogs: Dialogs,
    pub(super) report: Option<ReportView>,
    /// The Coverage tab's state and jobs.
    pub(super) coverage: CoverageView,
    /// `Session::lines_completed` when completions were last recorded.
    completed_seen: u32,
    window_title: String,
    pub(super) screenshot: Option<ScreenshotPlan>,
    pub(super) timings: Option<Timings>,
    wake: Option<Wake>,
}

impl TrainerApp {
    /// A new app on `graph` (the whole ECO book) with the learner's `settings`; progress
    /// is kept in memory only.
    ///
    /// The PGN files of `settings.book` are imported again in the background, and the
    /// book is rebuilt when the settings choose other sources or filters than all of ECO.
    pub fn new(graph: Arc<PositionGraph>, settings: Settings) -> TrainerApp {
        TrainerApp::with_progress_file(graph, settings, None)
    }

    /// The app as the window starts it: the settings from eframe's `storage` (defaults
    /// when there are none), the progress from `progress_file` (a corrupt file is set
    /// aside with a warning in the progress panel).
    pub fn restore(
        graph: Arc<PositionGraph>,
        storage: Option<&dyn eframe::Storage>,
        progress_file: Option<PathBuf>,
    ) -> TrainerApp {
        let settings = storage
            .and_then(|s| eframe::get_value(s, SETTINGS_KEY))
            .unwrap_or_default();
        TrainerApp::with_progress_file(graph, settings, progress_file)
    }

    /// As [`TrainerApp::new`], with the progress loaded from and saved to `progress_file`.
    pub fn with_progress_file(
        graph: Arc<PositionGraph>,
        settings: Settings,
        progress_file: Option<PathBuf>,
    ) -> TrainerApp {
        let seed = settings.fixed_seed().unwrap_or_else(rand::random);
        let learner = Color::from(settings.learner);
        let session = Session::new(Arc::clone(&graph), learner, settings.style.clone(), seed);
        let mut workspace = Workspace::with_eco(Arc::clone(&graph), settings.book.clone());
        workspace.restore();
        TrainerApp {
            workspace,
            graph,
            book_generation: 0,
            orientation: settings
                .orientation
                .unwrap_or(Orientation::from_color(learner)),
            settings,
            session,
            progress: ProgressFile::load(progress_file),
            left_tab: LeftTab::Style,
            reply_due: None,
            last_reply: None,
            message: None,
            animation: None,
            explore: None,
            explored: None,
            chart: ChartCache::default(),
            dialogs: Dialogs::default(),
            report: None,
            coverage: CoverageView::default(),
            completed_seen: 0,
            window_title: String::new(),
            screenshot: None,
            timings: None,
            wake: None,
        }
    }

    // ----- reading (tests and panels) -----

    /// The book's sources.
    pub fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    /// The book the drill uses.
    pub fn graph(&self) -> &Arc<PositionGraph> {
        &self.graph
    }

    /// Whether the book is only the learner's repertoire.
    pub fn is_repertoire(&self) -> bool {
        self.workspace.is_repertoire()
    }

    /// The learner's progress.
    pub fn progress(&self) -> &Progress {
        self.progress.progress()
    }

    /// The warning about the progress file (set aside, not saved), if any.
    pub fn progress_warning(&self) -> Option<&str> {
        self.progress.warning()
    }

    /// The import report shown, if any.
    pub fn report(&self) -> Option<&ReportView> {
        self.report.as_ref()
    }

    /// The drill.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The learner's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The learner's settings, to change them as the panels would (tests set the seed here).
    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    /// The board's orientation.
    pub fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// The chart as it is drawn now (computed on demand).
    pub fn chart(&mut self) -> &ChartData {
        chart_panel::refresh(self);
        self.chart.data()
    }

    /// Whether an exploration is running.
    pub fn is_exploring(&self) -> bool {
        self.explore.is_some()
    }

    /// Whether a move is being animated on the board.
    pub fn is_animating(&self) -> bool {
        self.animation.is_some()
    }

    /// Whether files are being loaded or the book is being built.
    pub fn is_loading(&self) -> bool {
        self.workspace.is_busy()
    }

    // ----- files (tests and the window) -----

    /// Files were chosen in the file dialog or dropped on the window: asks how to read
    /// them.
    pub fn open_files(&mut self, paths: Vec<PathBuf>) {
        self.dialogs.ask_mode(paths);
    }

    /// Shows the path field for opening a PGN file: what the window does when the system
    /// has no file dialog (no desktop portal, no zenity).
    pub fn ask_for_path(&mut self) {
        self.dialogs.ask_path();
    }

    /// Waits until every import and graph build has finished and applies the results,
    /// as the frames would one by one. For tests and the screenshot mode; the window
    /// itself never waits.
    pub fn finish_loading(&mut self) {
        let wake: Wake = self.wake.clone().unwrap_or_else(|| Arc::new(|| {}));
        while self.workspace.is_busy() {
            for event in self.workspace.poll(true, &wake) {
                self.on_workspace_event(event);
            }
        }
    }

    /// Writes what `what` exports to `path` as PGN; returns the number of games.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::NothingToExport`] when there is nothing to export, else why
    /// writing failed.
    pub fn export_to(
        &self,
        what: ExportWhat,
        path: &std::path::Path,
    ) -> Result<usize, WorkspaceError> {
        let (lines, _) = self.export_lines(what)?;
        export::write_pgn_file(&lines, path)
    }

    /// The lines `what` exports and a file name to suggest.
    pub(super) fn export_lines(
        &self,
        what: ExportWhat,
    ) -> Result<(Vec<crate::book::OpeningLine>, String), WorkspaceError> {
        match what {
            ExportWhat::Source(id) => self
                .workspace
                .source_lines(id)
                .map(|(lines, name)| (lines.to_vec(), name))
                .ok_or(WorkspaceError::NothingToExport),
            ExportWhat::Line => self
                .session
                .to_line()
                .map(|line| (vec![line], "drill.pgn".to_owned()))
                .ok_or(WorkspaceError::NothingToExport),
        }
    }

    // ----- each frame -----

    /// One whole frame, as eframe runs it: [`TrainerApp::logic`], then drawing, then the
    /// commands. Tests drive the app through this.
    pub fn frame_ui(&mut self, ui: &mut Ui) {
        self.logic(ui.ctx());
        self.draw_and_apply(ui);
    }

    /// The non-drawing work of a frame: finished jobs, the computer's reply when it is
    /// due, the animation, completed lines, the screenshot steps.
    pub fn logic(&mut self, ctx: &egui::Context) {
        if let Some(run) = &self.explore
            && let Some(done) = run.poll(ctx)
        {
            self.explore = None;
            if let Some(explored) = done {
                self.explored = Some(explored);
                self.chart.invalidate();
            }
        }
        self.poll_workspace(ctx);
        self.poll_coverage(ctx);
        for command in self.dialogs.poll(ctx) {
            self.apply(ctx, command);
        }
        self.computer_reply(ctx);
        self.animate(ctx);
        self.record_completions();
        let busy = self.explore.is_some() || self.is_loading();
        if let Some(plan) = &mut self.screenshot
            && let Err(reason) = plan.step(ctx, busy)
        {
            plan.finish(ctx, Err(reason));
        }
    }

    fn poll_workspace(&mut self, ctx: &egui::Context) {
        let wake = Arc::clone(self.wake.get_or_insert_with(|| {
            let ctx = ctx.clone();
            Arc::new(move || ctx.request_repaint())
        }));
        for event in self.workspace.poll(false, &wake) {
            if let Some(t) = &self.timings {
                t.event(match &event {
                    WorkspaceEvent::Imported { .. } => "a file was imported",
                    WorkspaceEvent::Built { .. } => "the book was built",
                    _ => "an import or build stopped",
                });
            }
            self.on_workspace_event(event);
            ctx.request_repaint();
        }
        if self.workspace.is_importing() {
            // The progress bar moves while the file is read.
            ctx.request_repaint_after(Duration::from_millis(50));
        }
    }

    fn on_workspace_event(&mut self, event: WorkspaceEvent) {
        match event {
            WorkspaceEvent::Imported {
                path,
                report,
                remembered,
            } => {
                if !remembered || !report.issues.is_empty() {
                    self.report = Some(ReportView::of_report(path, report));
                }
            }
            WorkspaceEvent::ImportFailed {
                path,
                error,
                remembered,
            } => {
                // A remembered file's failure is a warning of the workspace's.
                if !remembered {
                    self.report = Some(ReportView::of_error(path, &error));
                }
            }
            WorkspaceEvent::Cancelled { path } => {
                self.message = Some(format!(
                    "Loading {} was cancelled.",
                    crate::workspace::file_name(&path)
                ));
            }
            WorkspaceEvent::Built { graph, theory } => self.set_book(graph, theory),
            WorkspaceEvent::BuildFailed { error } => {
                self.message = Some(format!("The book could not be rebuilt: {error}"));
            }
        }
        self.settings.book = self.workspace.choice().clone();
    }

    /// Drills on a new book.
    fn set_book(&mut self, graph: Arc<PositionGraph>, theory: Option<Arc<PositionGraph>>) {
        if let Some(run) = self.explore.take() {
            run.cancel();
        }
        let repertoire = theory.is_some();
        self.session.set_graph(Arc::clone(&graph));
        self.session.set_theory(theory);
        let old = std::mem::replace(&mut self.graph, graph);
        // A large graph takes a while to free: not on the UI thread.
        let _ = std::thread::Builder::new()
            .name("hastings-drop".to_owned())
            .spawn(move || drop(old));
        self.book_generation += 1;
        self.coverage.book_changed();
        self.explored = None;
        self.chart.invalidate();
        self.last_reply = None;
        self.reply_due = None;
        self.animation = None;
        self.message = Some(format!(
            "The book now has {} lines{}.",
            super::format::count(self.graph.lines().len()),
            if repertoire { " (your repertoire)" } else { "" }
        ));
    }

    /// Records the lines the drill completed since the last call.
    fn record_completions(&mut self) {
        let done = self.session.lines_completed();
        if done > self.completed_seen {
            let title = self
                .session
                .opening_title()
                .unwrap_or_else(|| "unnamed line".to_owned());
            self.progress.progress_mut().record_completion(&title);
            self.progress.save();
        }
        self.completed_seen = done;
    }

    fn computer_reply(&mut self, ctx: &egui::Context) {
        if !self.session.reply_pending() || self.session.viewing().is_some() {
            self.reply_due = None;
            return;
        }
        let now = ctx.input(|i| i.time);
        let Some(due) = self.reply_due else {
            // The learner's move is drawn at least once before the reply, even with no delay.
            let delay = f64::from(self.settings.reply_delay_ms) / 1000.0;
            self.reply_due = Some(now + delay);
            ctx.request_repaint_after(Duration::from_secs_f64(delay));
            return;
        };
        if now + 1e-9 >= due {
            self.reply_due = None;
            // A transposition is announced under the opening name (Session::announcement).
            if let Some(reply) = self.session.reply() {
                self.message = None;
                self.start_animation(ctx, reply.candidate.mv);
                self.last_reply = Some(reply);
            }
            ctx.request_repaint();
        } else {
            ctx.request_repaint_after(Duration::from_secs_f64(due - now));
        }
    }

    pub(super) fn start_animation(&mut self, ctx: &egui::Context, mv: Move) {
        if self.settings.animate_moves {
            self.animation = Some(Animation {
                mv,
                started: ctx.input(|i| i.time),
            });
            ctx.request_repaint();
        }
    }

    /// Ends the animation when its time is up (this frame draws the piece at rest);
    /// asks for the next frame meanwhile.
    fn animate(&mut self, ctx: &egui::Context) {
        let Some(a) = self.animation else {
            return;
        };
        let now = ctx.input(|i| i.time);
        if now - a.started >= MOVE_ANIMATION || self.session.display_last_move() != Some(a.mv) {
            self.animation = None;
        } else {
            ctx.request_repaint();
        }
    }

    fn draw_and_apply(&mut self, ui: &mut Ui) {
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
            .show(ui, |ui| chart_panel::chart_panel_ui(ui, self, commands));
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
            }
            LeftTab::Book => book_panel::book_panel_ui(ui, &self.workspace, commands),
            LeftTab::Progress => progress_panel::progress_panel_ui(
                ui,
                self.progress.progress(),
                self.progress.warning(),
            ),
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

impl eframe::App for TrainerApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        TrainerApp::logic(self, ctx);
    }

    fn ui(&mut self, ui: &mut Ui, frame: &mut eframe::Frame) {
        if let Some(t) = &mut self.timings {
            t.cpu_usage(frame.info().cpu_usage);
        }
        self.draw_and_apply(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.screenshot.is_none() {
            self.settings.book = self.workspace.choice().clone();
            eframe::set_value(storage, SETTINGS_KEY, &self.settings);
            self.progress.save();
        }
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        if let Some(run) = &self.explore {
            run.cancel();
        }
        self.workspace.cancel_all();
        self.progress.save();
        if let Some(t) = &self.timings {
            t.report();
        }
    }
}
