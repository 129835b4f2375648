//! The trainer window's state, [`TrainerApp`], and what it does each frame.
//!
//! The persisted choices are [`Settings`]; everything else is runtime: the drill
//! ([`Session`]), the book's sources ([`Workspace`]), the jobs, the caches. Each frame
//! first does the non-drawing work ([`TrainerApp::logic`]: finished jobs, the
//! computer's delayed reply, completed lines), then the panels draw and collect
//! [`Command`](super::command::Command)s, then `TrainerApp::apply` carries them out. egui redraws only on input
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
use super::chart_panel;
use super::chart_panel::ChartCache;
use super::command::ExportWhat;
use super::coverage::CoverageView;
use super::dialogs::Dialogs;
use super::explore::{ExploreRun, Explored};
use super::import_report::ReportView;
use super::learner_style_panel::LearnerStyleState;
use super::screenshot::ScreenshotPlan;
use super::state::{SETTINGS_KEY, Settings};
use super::timings::Timings;
use crate::book::PositionGraph;
use crate::engine::predictor::Predictor;
use crate::sampler::profile::StyleProfile;
use crate::trainer::learner_style::{Adaptation, Posterior, StyleClass};
use crate::trainer::progress::Progress;
use crate::trainer::{PastBook, Reply, Session};
use crate::job::Wake;
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
    /// The workspace's books generation the drill last took its books from.
    books_seen: u64,
    /// "Make a book from PGN…" in the Book tab.
    pub(super) make_book: super::make_book_panel::MakeBookForm,
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
    pub(super) window_title: String,
    pub(super) screenshot: Option<ScreenshotPlan>,
    pub(super) timings: Option<Timings>,
    /// Asks egui for a frame, from any thread (made on the first frame).
    pub(super) wake: Option<Wake>,
    /// Review mode, when it is on.
    pub(super) review: Option<super::review_mode::ReviewMode>,
    /// The review log (beside the progress file); `None`: no review mode.
    pub(super) review_log: Option<PathBuf>,
    /// Fuzz review intervals (off in tests, for reproducible due dates).
    pub(super) review_fuzz: bool,
    /// The style profile loaded last, if any.
    pub(super) profile: Option<StyleProfile>,
    /// The learner's style: drilled lines, imported games, the adaptive opponent's coin.
    pub(super) learner_style: LearnerStyleState,
    /// Playing on against an engine after the book.
    pub(super) play_on: super::play_on::PlayOnView,
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
        let review_log = progress_file
            .as_deref()
            .map(super::review_mode::review_log_path);
        TrainerApp {
            workspace,
            graph,
            book_generation: 0,
            books_seen: 0,
            make_book: Default::default(),
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
            review: None,
            review_log,
            review_fuzz: true,
            profile: None,
            learner_style: LearnerStyleState::new(if rand::random() {
                Adaptation::Solid
            } else {
                Adaptation::Sharp
            }),
            play_on: super::play_on::PlayOnView::default(),
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

    /// The message shown in the drill panel, if any (what happened last).
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The style profile loaded last, if any.
    pub fn profile(&self) -> Option<&StyleProfile> {
        self.profile.as_ref()
    }

    /// The learner's style posterior (drilled lines and their games among the loaded
    /// files), `None` before any.
    pub fn learner_style(&self) -> Option<Posterior> {
        self.learner_style.posterior()
    }

    /// The learner's most likely style class and the posterior.
    pub fn learner_style_class(&self) -> Option<(Posterior, StyleClass)> {
        self.learner_style.posterior().map(|p| (p, p.class()))
    }

    /// The adaptive opponent's pick for a mixed learner in this session.
    pub fn adaptation_coin(&self) -> Adaptation {
        self.learner_style.coin
    }

    // ----- files (tests and the window) -----

    /// Files were chosen in the file dialog or dropped on the window: Polyglot books
    /// (`.bin`) become sources at once, PGN files ask how to read them.
    pub fn open_files(&mut self, paths: Vec<PathBuf>) {
        // A Polyglot book needs no "read as" question: it gives popularity.
        let (books, pgn): (Vec<PathBuf>, Vec<PathBuf>) = paths
            .into_iter()
            .partition(|p| crate::workspace::books::is_polyglot(p));
        if !books.is_empty() {
            self.workspace.open(books, crate::workspace::FileMode::Auto);
        }
        if !pgn.is_empty() {
            self.dialogs.ask_mode(pgn);
        }
    }

    /// Shows the path field for opening a PGN file: what the window does when the system
    /// has no file dialog (no desktop portal, no zenity).
    pub fn ask_for_path(&mut self) {
        self.dialogs.ask_path();
    }

    /// Shows the path field for loading a style profile (what the window does when the
    /// system has no file dialog); with `play_like`, a fitted player's games are added.
    pub fn ask_for_profile_path(&mut self, play_like: bool) {
        self.dialogs.ask_profile_load_path(play_like);
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
        if let Some(book) = self.make_book.poll() {
            self.workspace
                .open(vec![book], crate::workspace::FileMode::Auto);
        }
        for command in self.dialogs.poll(ctx) {
            self.apply(ctx, command);
        }
        if self.play_on.is_active() {
            self.play_on_logic(ctx);
        } else {
            self.computer_reply(ctx);
        }
        self.review_logic(ctx);
        self.animate(ctx);
        self.record_completions();
        let busy = self.explore.is_some()
            || self.is_loading()
            || self.coverage.job.is_some()
            || self.play_on_busy();
        if let Some(plan) = &mut self.screenshot
            && let Err(reason) = plan.step(ctx, busy)
        {
            plan.finish(ctx, Err(reason));
        }
    }

    /// Gives the drill the workspace's Polyglot books and popularity, and play past the
    /// book as the settings say.
    pub(super) fn sync_books(&mut self) {
        self.books_seen = self.workspace.open_books().generation();
        self.settings.book = self.workspace.choice().clone();
        let books = self.workspace.books();
        self.session.set_books(books, self.settings.book.popularity);
        let plies = self.settings.past_book_plies;
        let past_book = match (plies, Predictor::shared()) {
            (0, _) => None,
            (plies, Ok(predictor)) => Some(PastBook { predictor, plies }),
            (_, Err(e)) => {
                self.message = Some(format!("Past the book is off: {e}"));
                None
            }
        };
        self.session.set_past_book(past_book);
        self.chart.invalidate();
    }

    fn poll_workspace(&mut self, ctx: &egui::Context) {
        if self.workspace.open_books().generation() != self.books_seen {
            self.sync_books();
        }
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
        // A review session's cards are the new book's.
        self.restart_review();
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
            if shakmaty::Position::board(self.session.position_at(0))
                == shakmaty::Position::board(&shakmaty::Chess::default())
            {
                let moves: Vec<Move> = self.session.moves().iter().map(|m| m.mv).collect();
                self.learner_style.record(&moves, self.session.learner());
            }
            self.adapt_style();
        }
        self.completed_seen = done;
    }

    /// With the adaptive opponent on, sets the computer's style to the answer to the
    /// learner's style (seed 001 §5.1); the style panel shows the result.
    pub(super) fn adapt_style(&mut self) {
        if !self.settings.adaptive {
            return;
        }
        self.learner_style
            .refresh(&self.workspace, &self.settings.learner_name);
        let Some((_, class)) = self.learner_style_class() else {
            return;
        };
        let style =
            Adaptation::for_class(class, self.learner_style.coin).style(self.settings.style.tau());
        if style != *self.session.style() {
            self.settings.style = style.clone();
            self.session.set_style(style);
        }
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
            let reply = match self.review_reply() {
                Some(reply) => reply,
                None => self.session.reply(),
            };
            if let Some(reply) = reply {
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
            self.save_reviews();
        }
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        if let Some(run) = &self.explore {
            run.cancel();
        }
        self.workspace.cancel_all();
        self.progress.save();
        self.end_review();
        if let Some(t) = &self.timings {
            t.report();
        }
    }
}
