//! The trainer window: [`TrainerApp`] and [`run`].
//!
//! Layout: the board in the centre, the style panel on the left, the opening name, the
//! feedback and the move list on the right, the next-move chart at the bottom.
//!
//! Each frame the app first does the non-drawing work ([`TrainerApp::logic`]: the
//! computer's delayed reply, draining a running exploration), then draws and collects
//! [`Command`]s, then applies them. egui only redraws on input or when a timer asks for
//! it (the reply delay, a running exploration), so an idle window draws nothing.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use eframe::egui;
use egui::{Color32, RichText, Ui};
use rand::SeedableRng;
use shakmaty::{Chess, Color, Move, Position};
use thiserror::Error;

use super::board::{Arrow, BoardView, Orientation, board_ui};
use super::book_panel::{
    ReportView, book_panel_ui, import_progress_ui, open_dialog_ui, progress_panel_ui,
    report_window_ui,
};
use super::chart::{ChartData, chart_ui};
use super::command::{Action, Command, ExportWhat};
use super::library::{FileStamp, Library, LibraryEvent, Wake, file_name};
use super::state::{BookFile, FileMode, SETTINGS_KEY, Settings, Side};
use super::style_panel::style_panel_ui;
use crate::book::graph::start_position;
use crate::book::{BookError, LineSource, MoveAnnotation, OpeningLine, PositionGraph, SourceId};
use crate::sampler::{Exploration, ExploreLimits, Style, explore, move_share};
use crate::trainer::progress::Progress;
use crate::trainer::{MoveOutcome, Phase, Reply, Session};
use crate::workspace::store;

/// What can stop the window from running.
#[derive(Debug, Error)]
pub enum UiError {
    /// The embedded book failed to load (a bug in the shipped data).
    #[error(transparent)]
    Book(#[from] BookError),
    /// A move of `--moves` cannot be shown.
    #[error("--moves: move {ply} `{san}`: {reason}")]
    Move {
        /// The 1-based ply.
        ply: usize,
        /// The move as given.
        san: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// The window could not be opened or crashed.
    #[error("the window failed: {0}")]
    Window(String),
    /// The screenshot could not be taken or written.
    #[error("screenshot {path}: {reason}")]
    Screenshot {
        /// Where it was to be written.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
}

/// How to start the window.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Write a PNG of the window here after a few frames, then exit.
    pub screenshot: Option<PathBuf>,
    /// Moves (SAN, from the start) to show in the screenshot.
    pub moves: Option<String>,
    /// Window size in points.
    pub size: Option<(u32, u32)>,
    /// PGN files to load at start (read in auto mode).
    pub files: Vec<PathBuf>,
    /// Start with empty progress (the saved progress is overwritten).
    pub reset_progress: bool,
}

/// Where the learner's progress is saved: `progress.ron` in eframe's data directory.
pub fn progress_path() -> Option<PathBuf> {
    eframe::storage_dir("hastings").map(|d| d.join("progress.ron"))
}

/// Opens the trainer window and runs it until it is closed (or the screenshot is taken).
///
/// Set `HASTINGS_TIMINGS=1` to print the time to the first frame and frame-time
/// statistics (while dragging, while files load) to stderr on exit.
///
/// `options.files` are imported in the background once the window is up; the settings
/// and the remembered files come from eframe's storage, the progress from
/// [`progress_path`] (emptied first with `options.reset_progress`).
///
/// # Errors
///
/// [`UiError`] if the book or a `--moves` move is bad, the window fails, or the
/// screenshot cannot be written.
pub fn run(options: &RunOptions) -> Result<(), UiError> {
    let started = Instant::now();
    let graph = Arc::new(PositionGraph::eco()?);
    let (width, height) = options.size.unwrap_or((1280, 800));
    let screenshot = match &options.screenshot {
        Some(path) => {
            let moves = parse_moves(&graph, options.moves.as_deref().unwrap_or(""))?;
            Some((path.clone(), moves))
        }
        None => None,
    };
    let screenshot_path = options.screenshot.clone();
    let progress_file = if screenshot.is_some() {
        None
    } else {
        progress_path()
    };
    if options.reset_progress
        && let Some(path) = &progress_file
    {
        store::save_progress(path, &Progress::new()).map_err(|e| UiError::Window(e.to_string()))?;
    }
    let files = options.files.clone();
    let outcome: Arc<std::sync::Mutex<Option<Result<(), UiError>>>> = Arc::default();
    let native = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: egui::ViewportBuilder::default()
            .with_title("Hastings")
            .with_app_id("hastings")
            .with_inner_size([width as f32, height as f32])
            .with_min_inner_size([(width as f32).min(800.0), (height as f32).min(600.0)]),
        persist_window: screenshot.is_none(),
        ..Default::default()
    };
    let app_outcome = Arc::clone(&outcome);
    let timings = std::env::var_os("HASTINGS_TIMINGS").is_some();
    eframe::run_native(
        "Hastings",
        native,
        Box::new(move |cc| {
            let mut app = match screenshot {
                Some((path, moves)) => {
                    let mut app = TrainerApp::new(graph, Settings::default());
                    app.settings.reply_delay_ms = 0;
                    app.show_moves(&moves);
                    app.screenshot = Some(ScreenshotPlan::new(path, app_outcome));
                    app.start_explore(&cc.egui_ctx);
                    app
                }
                None => TrainerApp::restore(graph, cc.storage, progress_file),
            };
            if !files.is_empty() {
                app.left_tab = LeftTab::Book;
                app.apply(&cc.egui_ctx, Command::Import(files, FileMode::Auto));
            }
            if timings {
                app.timings = Some(Timings::new(started));
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| UiError::Window(e.to_string()))?;
    let result = outcome
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    match (result, screenshot_path) {
        (Some(result), _) => result,
        (None, None) => Ok(()),
        (None, Some(path)) => Err(UiError::Screenshot {
            path,
            reason: "the window closed before the screenshot was taken".to_owned(),
        }),
    }
}

/// Parses `--moves` (SAN from the start position); every position must be in the book.
fn parse_moves(graph: &PositionGraph, moves: &str) -> Result<Vec<Move>, UiError> {
    let mut pos = Chess::default();
    let mut out = Vec::new();
    for (i, token) in moves.split_whitespace().enumerate() {
        let bad = |reason: String| UiError::Move {
            ply: i + 1,
            san: token.to_owned(),
            reason,
        };
        let san =
            shakmaty::san::SanPlus::from_ascii(token.as_bytes()).map_err(|e| bad(e.to_string()))?;
        let mv = san.san.to_move(&pos).map_err(|e| bad(e.to_string()))?;
        pos.play_unchecked(mv);
        if graph.lookup(&pos).is_none() {
            return Err(bad("the position it reaches is not in the book".to_owned()));
        }
        out.push(mv);
    }
    Ok(out)
}

/// The trainer window's state.
pub struct TrainerApp {
    graph: Arc<PositionGraph>,
    settings: Settings,
    session: Session,
    orientation: Orientation,
    /// When (egui time, seconds) the computer's pending reply is due.
    reply_due: Option<f64>,
    last_reply: Option<Reply>,
    /// What happened last, for the feedback panel.
    message: Option<String>,
    explore_job: Option<ExploreJob>,
    exploration: Option<(ChartKey, Exploration)>,
    /// The chart and what it was computed for.
    chart: (Option<ChartKey>, ChartData),
    window_title: String,
    screenshot: Option<ScreenshotPlan>,
    timings: Option<Timings>,
    library: Library,
    /// Whether the book is only the learner's repertoire (ECO is the theory).
    repertoire: bool,
    /// Missing or changed files, failed re-imports.
    book_warnings: Vec<String>,
    /// The import report window.
    report: Option<ReportView>,
    /// The open dialog: the chosen files and the mode.
    open_dialog: Option<(Vec<PathBuf>, FileMode)>,
    /// A native file dialog running on its own thread.
    file_dialog: Option<mpsc::Receiver<Option<Vec<PathBuf>>>>,
    /// A running export (dialog and writing) and its result for the user.
    export_job: Option<mpsc::Receiver<Option<String>>>,
    progress: ProgressStore,
    /// `Session::lines_completed` when completions were last recorded.
    completed_seen: u32,
    left_tab: LeftTab,
    wake: Option<Wake>,
    /// The modes chosen for the files being imported.
    pending_modes: Vec<(PathBuf, FileMode)>,
}

/// The tabs of the left panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LeftTab {
    Style,
    Book,
    Progress,
}

/// The learner's progress and where it is saved.
struct ProgressStore {
    path: Option<PathBuf>,
    progress: Progress,
    warning: Option<String>,
    dirty: bool,
}

impl ProgressStore {
    fn load(path: Option<PathBuf>) -> ProgressStore {
        let (progress, warning) = match &path {
            Some(p) => {
                let loaded = store::load_progress(p);
                (loaded.value, loaded.warning)
            }
            None => (Progress::new(), None),
        };
        ProgressStore {
            path,
            progress,
            warning,
            dirty: false,
        }
    }

    fn save(&mut self) {
        let Some(path) = &self.path else {
            return;
        };
        if !self.dirty {
            return;
        }
        match store::save_progress(path, &self.progress) {
            Ok(()) => self.dirty = false,
            Err(e) => self.warning = Some(format!("The progress could not be saved: {e}")),
        }
    }
}

impl TrainerApp {
    /// A new app on `graph` (the whole ECO book) with the user's `settings`; progress
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
        let mut app = TrainerApp {
            library: Library::new(Arc::clone(&graph)),
            repertoire: false,
            book_warnings: Vec::new(),
            report: None,
            open_dialog: None,
            file_dialog: None,
            export_job: None,
            progress: ProgressStore::load(progress_file),
            completed_seen: 0,
            left_tab: LeftTab::Style,
            wake: None,
            pending_modes: Vec::new(),
            graph,
            orientation: settings
                .orientation
                .unwrap_or(Orientation::from_color(learner)),
            settings,
            session,
            reply_due: None,
            last_reply: None,
            message: None,
            explore_job: None,
            exploration: None,
            chart: (None, ChartData::default()),
            window_title: String::new(),
            screenshot: None,
            timings: None,
        };
        app.reload_book();
        app
    }

    /// Queues the remembered files for import and asks for the chosen book.
    fn reload_book(&mut self) {
        for f in &self.settings.book.files {
            match FileStamp::of(&f.path) {
                Ok(_) => self.library.queue_import(
                    f.path.clone(),
                    f.mode,
                    Some(FileStamp::remembered(f)),
                ),
                Err(e) => self.book_warnings.push(format!(
                    "{} is missing ({e}); its lines are not in the book",
                    f.path.display()
                )),
            }
        }
        if self.settings.book != super::state::BookChoice::default() {
            self.library.request_build(&self.settings.book);
        }
    }

    /// The book's sources.
    pub fn library(&self) -> &Library {
        &self.library
    }

    /// The book the drill uses.
    pub fn graph(&self) -> &Arc<PositionGraph> {
        &self.graph
    }

    /// Whether the book is only the learner's repertoire.
    pub fn is_repertoire(&self) -> bool {
        self.repertoire
    }

    /// The learner's progress.
    pub fn progress(&self) -> &Progress {
        &self.progress.progress
    }

    /// The warning about the progress file (set aside, not saved), if any.
    pub fn progress_warning(&self) -> Option<&str> {
        self.progress.warning.as_deref()
    }

    /// Warnings about the book's files (missing, changed, failed).
    pub fn book_warnings(&self) -> &[String] {
        &self.book_warnings
    }

    /// The import report shown, if any.
    pub fn report(&self) -> Option<&ReportView> {
        self.report.as_ref()
    }

    /// Files were chosen in the file dialog or dropped on the window: asks how to read
    /// them, as the dialog does.
    pub fn open_files(&mut self, paths: Vec<PathBuf>) {
        self.open_dialog = Some((paths, FileMode::Auto));
    }

    /// Waits until every import and graph build has finished and applies the results,
    /// as the frames would one by one. For tests and the screenshot mode; the window
    /// itself never waits.
    pub fn finish_loading(&mut self) {
        let wake: Wake = self.wake.clone().unwrap_or_else(|| Arc::new(|| {}));
        while self.library.is_importing() || self.library.is_building() {
            for event in self.library.poll(true, &wake) {
                self.on_library_event(event);
            }
        }
    }

    /// Whether files are being loaded or the book is being built.
    pub fn is_loading(&self) -> bool {
        self.library.is_importing() || self.library.is_building()
    }

    /// The drill.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The user's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The user's settings, to change them as the panels would (tests set the seed here).
    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    /// The board's orientation.
    pub fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// The chart of the position shown (computed on demand).
    pub fn chart(&mut self) -> &ChartData {
        self.refresh_chart();
        &self.chart.1
    }

    /// Whether an exploration is running.
    pub fn is_exploring(&self) -> bool {
        self.explore_job.is_some()
    }

    /// One whole frame, as eframe runs it: [`TrainerApp::logic`], then drawing, then the
    /// commands. Tests drive the app through this.
    pub fn frame_ui(&mut self, ui: &mut Ui) {
        self.logic(ui.ctx());
        self.draw_and_apply(ui);
    }

    /// The non-drawing work of a frame: the computer's reply when it is due, draining
    /// the running exploration, the screenshot steps.
    pub fn logic(&mut self, ctx: &egui::Context) {
        self.drain_exploration(ctx);
        self.poll_library(ctx);
        self.poll_dialogs(ctx);
        self.computer_reply(ctx);
        self.record_completions();
        self.screenshot_step(ctx);
    }

    fn poll_library(&mut self, ctx: &egui::Context) {
        let wake = Arc::clone(self.wake.get_or_insert_with(|| {
            let ctx = ctx.clone();
            Arc::new(move || ctx.request_repaint())
        }));
        for event in self.library.poll(false, &wake) {
            if let Some(t) = &self.timings {
                let what = match &event {
                    LibraryEvent::Imported { .. } => "a file was imported",
                    LibraryEvent::Built { .. } => "the book was built",
                    LibraryEvent::Failed { .. } | LibraryEvent::Cancelled { .. } => {
                        "an import stopped"
                    }
                };
                eprintln!(
                    "hastings timings: frame {}: {what}, {:.1} ms after start",
                    t.frames + 1,
                    t.started.elapsed().as_secs_f64() * 1e3
                );
            }
            self.on_library_event(event);
            ctx.request_repaint();
        }
        if self.library.is_importing() {
            // The progress bar moves while the file is read.
            ctx.request_repaint_after(Duration::from_millis(50));
        }
    }

    fn poll_dialogs(&mut self, ctx: &egui::Context) {
        if let Some(rx) = &self.file_dialog {
            match rx.try_recv() {
                Ok(Some(paths)) if !paths.is_empty() => {
                    self.file_dialog = None;
                    self.open_files(paths);
                }
                Ok(_) | Err(mpsc::TryRecvError::Disconnected) => self.file_dialog = None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
        }
        if let Some(rx) = &self.export_job {
            match rx.try_recv() {
                Ok(message) => {
                    self.export_job = None;
                    if let Some(m) = message {
                        self.message = Some(m);
                    }
                }
                Err(mpsc::TryRecvError::Disconnected) => self.export_job = None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
        }
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if !dropped.is_empty() {
            self.open_files(dropped);
            ctx.request_repaint();
        }
    }

    fn on_library_event(&mut self, event: LibraryEvent) {
        match event {
            LibraryEvent::Imported {
                index,
                warning,
                remembered: reimport,
            } => {
                let Some(file) = self.library.files().get(index) else {
                    return;
                };
                let stamp = file.stamp;
                let remembered = self
                    .settings
                    .book
                    .files
                    .iter_mut()
                    .find(|b| b.path == file.path);
                match remembered {
                    Some(b) => {
                        b.size = stamp.size;
                        b.modified = stamp.modified;
                    }
                    None => self.settings.book.files.push(BookFile {
                        path: file.path.clone(),
                        mode: self.pending_mode(&file.path),
                        enabled: true,
                        size: stamp.size,
                        modified: stamp.modified,
                    }),
                }
                if !reimport || !file.report.issues.is_empty() {
                    self.report = Some(ReportView {
                        path: file.path.clone(),
                        report: Some(file.report.clone()),
                        error: None,
                        issues: Vec::new(),
                    });
                }
                self.book_warnings.extend(warning);
                self.library.request_build(&self.settings.book);
            }
            LibraryEvent::Failed {
                path,
                message,
                issues,
            } => {
                if self.settings.book.files.iter().any(|b| b.path == path) {
                    self.book_warnings.push(message);
                } else {
                    self.report = Some(ReportView {
                        path,
                        report: None,
                        error: Some(message),
                        issues,
                    });
                }
            }
            LibraryEvent::Cancelled { path } => {
                self.message = Some(format!("Loading {} was cancelled.", file_name(&path)));
            }
            LibraryEvent::Built {
                graph,
                repertoire,
                issues,
            } => {
                if issues > 0 {
                    self.book_warnings.push(format!(
                        "{issues} lines could not be replayed and were left out"
                    ));
                }
                self.set_book(graph, repertoire);
            }
        }
    }

    /// The mode the user chose for a file being imported (auto when unknown).
    fn pending_mode(&self, path: &std::path::Path) -> FileMode {
        self.pending_modes
            .iter()
            .rev()
            .find(|(p, _)| p == path)
            .map_or(FileMode::Auto, |(_, m)| *m)
    }

    /// Drills on a new book.
    fn set_book(&mut self, graph: Arc<PositionGraph>, repertoire: bool) {
        if let Some(job) = self.explore_job.take() {
            job.cancel.store(true, Ordering::Relaxed);
        }
        self.session.set_graph(Arc::clone(&graph));
        self.session
            .set_theory(repertoire.then(|| Arc::clone(self.library.eco())));
        self.repertoire = repertoire;
        let old = std::mem::replace(&mut self.graph, graph);
        // A large graph takes a while to free: not on the UI thread.
        let _ = std::thread::Builder::new()
            .name("hastings-drop".to_owned())
            .spawn(move || drop(old));
        self.exploration = None;
        self.chart.0 = None;
        self.last_reply = None;
        self.reply_due = None;
        self.message = Some(format!(
            "The book now has {} lines{}.",
            self.graph.lines().len(),
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
            self.progress.progress.record_completion(&title);
            self.progress.dirty = true;
            self.progress.save();
        }
        self.completed_seen = done;
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
        let fraction = self.library.progress().map(|p| p.fraction());
        if let Some(t) = &mut self.timings {
            t.frame(ui.ctx(), loading, fraction);
        }
    }

    // ----- logic -----

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
                self.last_reply = Some(reply);
            }
            ctx.request_repaint();
        } else {
            ctx.request_repaint_after(Duration::from_secs_f64(due - now));
        }
    }

    fn drain_exploration(&mut self, ctx: &egui::Context) {
        let Some(job) = &mut self.explore_job else {
            return;
        };
        // Drain within a small time budget; the rest waits for the next frame.
        let budget = Instant::now();
        let finished = loop {
            if budget.elapsed() > Duration::from_millis(4) {
                ctx.request_repaint();
                break None;
            }
            match job.rx.try_recv() {
                Ok(ExploreMsg::Progress(done)) => job.done = done,
                Ok(ExploreMsg::Done(ex)) => break Some(Some(*ex)),
                Err(mpsc::TryRecvError::Empty) => break None,
                Err(mpsc::TryRecvError::Disconnected) => break Some(None),
            }
        };
        let Some(result) = finished else {
            return;
        };
        if let Some(job) = self.explore_job.take()
            && let Some(ex) = result
        {
            self.exploration = Some((job.key, ex));
            self.chart.0 = None;
        }
        ctx.request_repaint();
    }

    // ----- commands -----

    fn is_enabled(&self, action: Action) -> bool {
        let phase = self.session.phase();
        let viewing = self.session.viewing().is_some();
        match action {
            Action::NewLine | Action::Flip | Action::Explore | Action::Quit => true,
            Action::Open => self.file_dialog.is_none(),
            Action::NewLineFromHere => !matches!(phase, Phase::OutOfBook { .. }),
            Action::NextLine => matches!(phase, Phase::EndOfLine { .. }),
            Action::TryAgain => matches!(phase, Phase::OutOfBook { .. }),
            Action::ShowMe => {
                !viewing && matches!(phase, Phase::OutOfBook { .. } | Phase::LearnerToMove)
            }
            Action::Hint => !viewing && matches!(phase, Phase::LearnerToMove),
            Action::TakeBack => {
                !viewing
                    && (matches!(phase, Phase::OutOfBook { .. })
                        || self.session.moves().iter().any(|m| m.by_learner))
            }
            Action::ContinueFromHere => viewing,
        }
    }

    fn new_seed(&mut self) {
        let seed = self.settings.fixed_seed().unwrap_or_else(rand::random);
        self.session.set_seed(seed);
    }

    fn apply(&mut self, ctx: &egui::Context, command: Command) {
        match command {
            Command::Action(action) => self.apply_action(ctx, action),
            Command::Play(mv) => {
                self.last_reply = None;
                let before = self.session.position().clone();
                let outcome = self.session.play(mv);
                if !matches!(outcome, MoveOutcome::Rejected) {
                    let mistake = matches!(outcome, MoveOutcome::OutOfBook);
                    self.progress.progress.record_attempt(&before, mistake);
                    self.progress.dirty = true;
                }
                self.message = match outcome {
                    MoveOutcome::Accepted { .. } | MoveOutcome::OutOfBook => None,
                    MoveOutcome::Rejected => Some("That move cannot be played now.".to_owned()),
                };
            }
            Command::OpenFiles(paths) => self.open_files(paths),
            Command::Import(paths, mode) => {
                self.open_dialog = None;
                for path in paths {
                    self.pending_modes.push((path.clone(), mode));
                    if let Some(b) = self.settings.book.files.iter_mut().find(|b| b.path == path) {
                        // Opened again: read anew in the chosen mode.
                        b.mode = mode;
                    }
                    self.library.queue_import(path, mode, None);
                }
            }
            Command::CancelOpen => self.open_dialog = None,
            Command::CancelImport => self.library.cancel_import(),
            Command::SetBook(choice) => {
                self.settings.book = choice;
                self.library.request_build(&self.settings.book);
            }
            Command::RemoveFile(path) => {
                self.settings.book.files.retain(|b| b.path != path);
                self.library.remove(&path);
                self.library.request_build(&self.settings.book);
            }
            Command::ShowReport(path) => {
                if let Some(f) = self.library.file(&path) {
                    self.report = Some(ReportView {
                        path: f.path.clone(),
                        report: Some(f.report.clone()),
                        error: None,
                        issues: Vec::new(),
                    });
                }
            }
            Command::CloseReport => self.report = None,
            Command::Export(what) => self.start_export(ctx, what),
            Command::ShowPly(ply) => self.session.view(ply),
            Command::ShowCurrent => self.session.view(self.session.moves().len()),
            Command::SetLearner(color) => {
                self.settings.learner = Side::from(color);
                self.orientation = Orientation::from_color(color);
                self.settings.orientation = Some(self.orientation);
                self.new_seed();
                self.session.set_learner(color);
                self.last_reply = None;
                self.message = None;
            }
            Command::SetStyle(style) => {
                self.settings.style = style.clone();
                self.session.set_style(style);
            }
        }
        ctx.request_repaint();
    }

    fn apply_action(&mut self, ctx: &egui::Context, action: Action) {
        if !self.is_enabled(action) {
            return;
        }
        self.message = None;
        match action {
            Action::NewLine | Action::NextLine => {
                self.new_seed();
                self.session.new_line();
                self.last_reply = None;
            }
            Action::NewLineFromHere => {
                self.new_seed();
                self.session.new_line_from_here();
                self.last_reply = None;
            }
            Action::TryAgain => self.session.try_again(),
            Action::ShowMe => {
                self.last_reply = None;
                if let Some(MoveOutcome::Accepted { san, .. }) = self.session.show_me() {
                    self.message = Some(format!("The book plays {san}."));
                }
            }
            Action::Hint => {
                if self.session.ask_hint().is_none() {
                    self.message = Some("No hint here.".to_owned());
                }
            }
            Action::TakeBack => {
                self.session.take_back();
                self.last_reply = None;
            }
            Action::Flip => {
                self.orientation = self.orientation.flipped();
                self.settings.orientation = Some(self.orientation);
            }
            Action::Open => self.start_file_dialog(ctx),
            Action::ContinueFromHere => {
                self.session.continue_from_here();
                self.last_reply = None;
            }
            Action::Explore => self.start_explore(ctx),
            Action::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
        }
    }

    // ----- files -----

    /// Opens the native file dialog on its own thread (rfd; zenity where no desktop
    /// portal exists), so the window keeps drawing.
    fn start_file_dialog(&mut self, ctx: &egui::Context) {
        let (tx, rx) = mpsc::channel();
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("hastings-open".to_owned())
            .spawn(move || {
                let files = rfd::FileDialog::new()
                    .set_title("Open PGN files")
                    .add_filter("PGN", &["pgn", "PGN"])
                    .pick_files();
                let _ = tx.send(files);
                ctx.request_repaint();
            });
        match spawned {
            Ok(_) => self.file_dialog = Some(rx),
            Err(e) => self.message = Some(format!("Cannot open the file dialog: {e}")),
        }
    }

    /// The lines `what` exports, and a file name to suggest.
    fn export_lines(&self, what: ExportWhat) -> Option<(Vec<OpeningLine>, String)> {
        match what {
            ExportWhat::Source(SourceId::ECO) => {
                Some((self.library.eco().lines().to_vec(), "eco.pgn".to_owned()))
            }
            ExportWhat::Source(id) => {
                let f = self.library.files().iter().find(|f| f.id == id)?;
                Some((
                    f.lines.to_vec(),
                    format!("{}-export.pgn", f.name().trim_end_matches(".pgn")),
                ))
            }
            ExportWhat::Line => {
                let moves = self.session.moves();
                if moves.is_empty() {
                    return None;
                }
                let opening = self.session.opening();
                let line = OpeningLine {
                    source: LineSource::Pgn {
                        source: SourceId(u16::MAX),
                        game: 1,
                    },
                    eco: opening.and_then(|o| o.eco.clone()),
                    name: opening.map(|o| o.name.clone()).unwrap_or_default(),
                    start: None,
                    moves: moves
                        .iter()
                        .map(|m| {
                            shakmaty::san::San::from_ascii(
                                m.san.trim_end_matches(['+', '#']).as_bytes(),
                            )
                        })
                        .collect::<Result<_, _>>()
                        .ok()?,
                    weight: 1.0,
                    annotations: Vec::new(),
                    truncated: false,
                };
                Some((vec![line], "drill.pgn".to_owned()))
            }
        }
    }

    /// Writes what `what` exports to `path` as PGN; returns the number of games.
    ///
    /// # Errors
    ///
    /// A message for the user when there is nothing to export or writing fails.
    pub fn export_to(&self, what: ExportWhat, path: &std::path::Path) -> Result<usize, String> {
        let (lines, _) = self
            .export_lines(what)
            .ok_or_else(|| "Nothing to export.".to_owned())?;
        write_export(&lines, path)
    }

    /// Asks where to save (on a thread) and writes the PGN there.
    fn start_export(&mut self, ctx: &egui::Context, what: ExportWhat) {
        let Some((lines, name)) = self.export_lines(what) else {
            self.message = Some("Nothing to export.".to_owned());
            return;
        };
        let (tx, rx) = mpsc::channel();
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("hastings-export".to_owned())
            .spawn(move || {
                let Some(path) = rfd::FileDialog::new()
                    .set_title("Export as PGN")
                    .add_filter("PGN", &["pgn"])
                    .set_file_name(name)
                    .save_file()
                else {
                    let _ = tx.send(None);
                    return;
                };
                let message = match write_export(&lines, &path) {
                    Ok(games) => format!("Saved {games} games to {}.", path.display()),
                    Err(e) => e,
                };
                let _ = tx.send(Some(message));
                ctx.request_repaint();
            });
        match spawned {
            Ok(_) => self.export_job = Some(rx),
            Err(e) => self.message = Some(format!("Cannot export: {e}")),
        }
    }

    /// The annotation of the last move on the board, from the book's lines.
    fn last_move_annotation(&self) -> Option<(String, MoveAnnotation)> {
        if self.session.viewing().is_some() {
            return None;
        }
        let moves = self.session.moves();
        let last = moves.last()?;
        let mut before = Chess::default();
        for m in &moves[..moves.len() - 1] {
            before.play_unchecked(m.mv);
        }
        move_annotation(&self.graph, &before, last.mv).map(|a| (last.san.clone(), a))
    }

    // ----- the position shown, the chart, exploration -----

    /// The position shown, the node, and `s_prev` there: an earlier position while
    /// viewing, else the current one (before an out-of-book attempt).
    fn chart_position(&self) -> (Chess, f64) {
        let moves = self.session.moves();
        let ply = self.session.viewing().unwrap_or(moves.len());
        let mut pos = Chess::default();
        let mut s_prev = 1.0;
        for m in &moves[..ply] {
            s_prev = move_share(&self.graph, &pos, m.mv, self.session.style());
            pos.play_unchecked(m.mv);
        }
        (pos, s_prev)
    }

    fn chart_key(&self) -> ChartKey {
        let (pos, s_prev) = self.chart_position();
        ChartKey {
            fen: shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                .to_string(),
            s_prev: s_prev.to_bits(),
            style: self.session.style().clone(),
        }
    }

    fn refresh_chart(&mut self) {
        let key = self.chart_key();
        if self.chart.0.as_ref() == Some(&key) {
            return;
        }
        let (pos, s_prev) = self.chart_position();
        let exploration = self
            .exploration
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, e)| e);
        let data = ChartData::new(
            &self.graph,
            self.graph.lookup(&pos),
            &pos,
            self.session.style(),
            s_prev,
            exploration,
        );
        self.chart = (Some(key), data);
    }

    /// Starts sampling lines from the position shown on a background thread.
    fn start_explore(&mut self, ctx: &egui::Context) {
        if let Some(job) = self.explore_job.take() {
            job.cancel.store(true, Ordering::Relaxed);
        }
        let key = self.chart_key();
        let (pos, s_prev) = self.chart_position();
        let Some(node) = self.graph.lookup(&pos) else {
            self.message = Some("This position is not in the book.".to_owned());
            return;
        };
        let graph = Arc::clone(&self.graph);
        let style = self.session.style().clone();
        let seed = self.settings.fixed_seed().unwrap_or_else(rand::random);
        let iterations = self.settings.iterations.max(1);
        let ply_limit = self.settings.ply_limit.max(1);
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let thread_cancel = Arc::clone(&cancel);
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("hastings-explore".to_owned())
            .spawn(move || {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let chunks = 20u32.min(iterations);
                let mut total = Exploration::default();
                let mut done = 0;
                for i in 0..chunks {
                    if thread_cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    let n = iterations / chunks + u32::from(i < iterations % chunks);
                    let limits = ExploreLimits {
                        iterations: n,
                        ply_limit,
                    };
                    let part = explore(&graph, node, &pos, &style, s_prev, limits, &mut rng);
                    merge_exploration(&mut total, part);
                    done += n;
                    if tx.send(ExploreMsg::Progress(done)).is_err() {
                        return;
                    }
                    ctx.request_repaint();
                }
                let _ = tx.send(ExploreMsg::Done(Box::new(total)));
                ctx.request_repaint();
            });
        match spawned {
            Ok(_) => {
                self.explore_job = Some(ExploreJob {
                    rx,
                    key,
                    done: 0,
                    total: iterations,
                    seed,
                    cancel,
                });
            }
            Err(e) => self.message = Some(format!("Cannot start the exploration: {e}")),
        }
    }

    /// Sets up the drill to show `moves` (for the screenshot): the learner plays the
    /// side to move after them, so no reply is pending; seed 1, book arrows on.
    fn show_moves(&mut self, moves: &[Move]) {
        let mut pos = Chess::default();
        for &mv in moves {
            pos.play_unchecked(mv);
        }
        let learner = pos.turn();
        self.settings.learner = Side::from(learner);
        self.settings.seed = "1".to_owned();
        self.settings.reply_delay_ms = 0;
        self.settings.show_arrows = true;
        self.orientation = Orientation::from_color(learner);
        match Session::from_moves(
            Arc::clone(&self.graph),
            learner,
            self.settings.style.clone(),
            1,
            moves,
        ) {
            Ok(session) => self.session = session,
            Err(i) => {
                self.message = Some(format!(
                    "Move {} of --moves leaves the book; showing the start.",
                    i + 1
                ));
            }
        }
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

    // ----- drawing -----

    fn draw(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        // Panel sizes follow the window, so that 800×600 and full screen both leave the
        // board the most room.
        let window = ui.available_size();
        egui::Panel::top("hastings_top").show(ui, |ui| self.top_bar_ui(ui, commands));
        egui::Panel::left("hastings_style")
            .resizable(false)
            .exact_size((window.x * 0.2).clamp(180.0, 300.0))
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    for (tab, name) in [
                        (LeftTab::Style, "Style"),
                        (LeftTab::Book, "Book"),
                        (LeftTab::Progress, "Progress"),
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
                        style_panel_ui(ui, &mut self.settings, seed, commands);
                    }
                    LeftTab::Book => book_panel_ui(
                        ui,
                        &self.settings.book,
                        &self.library,
                        self.repertoire,
                        &self.book_warnings,
                        commands,
                    ),
                    LeftTab::Progress => progress_panel_ui(
                        ui,
                        &self.progress.progress,
                        self.progress.warning.as_deref(),
                    ),
                });
            });
        egui::Panel::right("hastings_drill")
            .resizable(false)
            .exact_size((window.x * 0.22).clamp(190.0, 360.0))
            .show(ui, |ui| self.drill_panel_ui(ui, commands));
        egui::Panel::bottom("hastings_chart")
            .resizable(false)
            .exact_size((window.y * 0.3).clamp(140.0, 320.0))
            .show(ui, |ui| self.chart_panel_ui(ui, commands));
        egui::CentralPanel::default().show(ui, |ui| self.board_panel_ui(ui, commands));
        let ctx = ui.ctx().clone();
        if let Some(view) = &self.report {
            report_window_ui(&ctx, view, commands);
        }
        if let Some((paths, mode)) = &mut self.open_dialog {
            open_dialog_ui(&ctx, paths, mode, commands);
        }
        let hovering = ctx.input(|i| !i.raw.hovered_files.is_empty());
        if hovering {
            let rect = ctx.content_rect();
            let painter = ctx.layer_painter(egui::LayerId::new(
                egui::Order::Foreground,
                egui::Id::unique("drop_overlay"),
            ));
            painter.rect_filled(rect, 0.0, Color32::from_black_alpha(160));
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "Drop PGN files to load them",
                egui::FontId::proportional(28.0),
                Color32::WHITE,
            );
        }
    }

    fn top_bar_ui(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            ui.heading("Hastings");
            ui.separator();
            ui.label("You play");
            let learner = self.session.learner();
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
            Action::Open.button_ui(ui, self.is_enabled(Action::Open), commands);
            ui.separator();
            Action::NewLine.button_ui(ui, self.is_enabled(Action::NewLine), commands);
            Action::TakeBack.button_ui(ui, self.is_enabled(Action::TakeBack), commands);
            Action::Flip.button_ui(ui, true, commands);
            ui.separator();
            ui.label(format!(
                "Lines completed: {}   Mistakes: {}",
                self.session.lines_completed(),
                self.session.mistakes_total()
            ));
        });
        if let Some(progress) = self.library.progress() {
            ui.horizontal(|ui| import_progress_ui(ui, &progress, commands));
        }
    }

    fn board_panel_ui(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        let position = self.session.display_position();
        let last_move = self.session.display_last_move();
        let arrows = self.board_arrows();
        let view = BoardView {
            position: &position,
            last_move: last_move.as_ref(),
            interactive: self.session.viewing().is_none()
                && *self.session.phase() == Phase::LearnerToMove,
            arrows: &arrows,
            hint: self.session.hint().map(|h| h.from),
        };
        let orientation = self.orientation;
        let response = ui
            .centered_and_justified(|ui| board_ui(ui, &view, orientation))
            .inner;
        if let Some(mv) = response.played {
            commands.push(Command::Play(mv));
        }
    }

    fn board_arrows(&mut self) -> Vec<Arrow> {
        if let Phase::OutOfBook { book_moves, .. } = self.session.phase() {
            return weighted_arrows(book_moves.iter().map(|b| (b.mv, b.share)));
        }
        let mut arrows = Vec::new();
        if let Some((_, a)) = self.last_move_annotation() {
            arrows.extend(annotation_arrows(&a));
        }
        if let Some(hint) = self.session.hint()
            && let Some(to) = hint.to
        {
            arrows.push(Arrow {
                from: hint.from,
                to,
                weight: 0.6,
                color: Color32::from_rgba_unmultiplied(0, 48, 136, 170),
            });
        }
        if self.settings.show_arrows {
            let rows: Vec<(Move, f64)> = self.chart().rows.iter().map(|r| (r.mv, r.p)).collect();
            arrows.extend(weighted_arrows(rows.into_iter()));
        }
        arrows
    }

    fn drill_panel_ui(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        ui.add_space(4.0);
        match self.session.opening_title() {
            Some(title) => ui.heading(title),
            None => ui.heading("Starting position"),
        };
        if let Some(a) = self.session.announcement() {
            ui.label(
                RichText::new(format!("Transposed to {a}"))
                    .color(Color32::from_rgb(0x2a, 0x7a, 0xc0)),
            );
        }
        ui.separator();
        self.feedback_ui(ui, commands);
        ui.separator();
        self.move_list_ui(ui, commands);
    }

    fn feedback_ui(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        let learner = match self.session.learner() {
            Color::White => "White",
            Color::Black => "Black",
        };
        if let Some(ply) = self.session.viewing() {
            ui.label(
                RichText::new(format!(
                    "Viewing the position after {ply} plies (read-only)"
                ))
                .strong(),
            );
            ui.horizontal_wrapped(|ui| {
                Action::ContinueFromHere.button_ui(ui, true, commands);
                Action::NewLineFromHere.button_ui(ui, true, commands);
                if ui
                    .button("Back to the game")
                    .on_hover_text("Show the current position again")
                    .clicked()
                {
                    commands.push(Command::ShowCurrent);
                }
            });
            return;
        }
        match self.session.phase().clone() {
            Phase::LearnerToMove => {
                ui.label(RichText::new(format!("Your move ({learner})")).strong());
                if let Some(reply) = &self.last_reply {
                    let c = &reply.candidate;
                    ui.label(format!(
                        "The computer played {} (P {:.1}%, share {:.1}%, bonus {:.2}).",
                        reply.san,
                        c.p * 100.0,
                        c.share * 100.0,
                        c.bonus
                    ));
                }
                ui.horizontal(|ui| {
                    Action::Hint.button_ui(ui, true, commands);
                    Action::ShowMe.button_ui(ui, true, commands);
                });
            }
            Phase::ComputerToMove => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("The computer is thinking…");
                });
            }
            Phase::OutOfBook {
                san, book_moves, ..
            } => {
                ui.label(
                    RichText::new(format!("{san} is not in the book."))
                        .strong()
                        .color(ui.visuals().error_fg_color),
                );
                ui.label(format!(
                    "Mistakes in this line: {}",
                    self.session.mistakes_in_line()
                ));
                ui.horizontal(|ui| {
                    Action::TryAgain.button_ui(ui, true, commands);
                    Action::ShowMe.button_ui(ui, true, commands);
                });
                ui.label("Book moves here:");
                let position = self.session.position().clone();
                egui::Grid::new("book_moves")
                    .striped(true)
                    .num_columns(3)
                    .show(ui, |ui| {
                        for b in &book_moves {
                            ui.label(RichText::new(&b.san).strong());
                            ui.label(format!("{:.1}%", b.share * 100.0));
                            ui.label(b.leads_to.as_deref().unwrap_or(""));
                            ui.end_row();
                            if let Some(a) = move_annotation(&self.graph, &position, b.mv) {
                                ui.label("");
                                ui.label("");
                                ui.label(RichText::new(annotation_text(&b.san, &a)).italics());
                                ui.end_row();
                            }
                        }
                    });
            }
            Phase::EndOfLine {
                title,
                plies,
                mistakes,
            } => {
                let title = title.unwrap_or_else(|| "unnamed line".to_owned());
                ui.label(RichText::new(format!("End of line: {title} ({plies} plies)")).strong());
                ui.label(format!("Mistakes in this line: {mistakes}"));
                Action::NextLine.button_ui(ui, true, commands);
            }
        }
        if let Some((san, a)) = self.last_move_annotation() {
            ui.label(RichText::new(annotation_text(&san, &a)).italics());
        }
        if let Some(note) = self.session.theory_note() {
            ui.label(RichText::new(note).color(Color32::from_rgb(0x2a, 0x7a, 0xc0)));
        }
        if let Some(message) = &self.message {
            ui.label(message);
        }
    }

    fn move_list_ui(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        ui.label(RichText::new("Moves").strong());
        let moves = self.session.moves();
        let shown = self.session.viewing().unwrap_or(moves.len());
        egui::ScrollArea::vertical()
            .id_salt("move_list")
            .auto_shrink([false, true])
            .stick_to_bottom(true)
            .show(ui, |ui| {
                if ui
                    .selectable_label(shown == 0, "Start")
                    .on_hover_text("Show the starting position")
                    .clicked()
                {
                    commands.push(Command::ShowPly(0));
                }
                egui::Grid::new("move_list_grid")
                    .num_columns(3)
                    .min_col_width(24.0)
                    .show(ui, |ui| {
                        for (i, pair) in moves.chunks(2).enumerate() {
                            ui.label(format!("{}.", i + 1));
                            for (j, m) in pair.iter().enumerate() {
                                let ply = 2 * i + j + 1;
                                let mut text = RichText::new(&m.san);
                                if m.by_learner {
                                    text = text.strong();
                                }
                                let tip = format!(
                                    "{} ({}), ply {ply}",
                                    if m.by_learner {
                                        "your move"
                                    } else {
                                        "computer"
                                    },
                                    match m.kind {
                                        crate::sampler::CandidateKind::Book => "book move",
                                        crate::sampler::CandidateKind::Transposition =>
                                            "transposition",
                                    }
                                );
                                if ui
                                    .selectable_label(shown == ply, text)
                                    .on_hover_text(tip)
                                    .clicked()
                                {
                                    commands.push(if ply == moves.len() {
                                        Command::ShowCurrent
                                    } else {
                                        Command::ShowPly(ply)
                                    });
                                }
                            }
                            ui.end_row();
                        }
                    });
            });
    }

    fn chart_panel_ui(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        let side = match self.chart().side_to_move {
            Some(Color::Black) => "Black",
            _ => "White",
        };
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("Next move for {side}")).strong());
            Action::Explore.button_ui(ui, !self.is_exploring(), commands);
            if let Some(job) = &self.explore_job {
                ui.add(
                    egui::ProgressBar::new(job.done as f32 / job.total.max(1) as f32)
                        .desired_width(120.0)
                        .text(format!("{}/{} (seed {})", job.done, job.total, job.seed)),
                );
            }
        });
        self.refresh_chart();
        chart_ui(ui, &self.chart.1);
    }

    fn screenshot_step(&mut self, ctx: &egui::Context) {
        let exploring = self.explore_job.is_some() || self.is_loading();
        let Some(plan) = &mut self.screenshot else {
            return;
        };
        if let Err(reason) = plan.step(ctx, exploring) {
            plan.finish(ctx, Err(reason));
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
            eframe::set_value(storage, SETTINGS_KEY, &self.settings);
            self.progress.save();
        }
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        if let Some(job) = &self.explore_job {
            job.cancel.store(true, Ordering::Relaxed);
        }
        self.library.cancel_import();
        self.progress.save();
        if let Some(t) = &self.timings {
            t.report();
        }
    }
}

/// Writes `lines` as PGN to `path` atomically; returns the number of games.
fn write_export(lines: &[OpeningLine], path: &std::path::Path) -> Result<usize, String> {
    let mut out = Vec::new();
    let games = crate::book::export::write_pgn(lines.iter(), &mut out)
        .map_err(|e| format!("Cannot export: {e}"))?;
    store::write_atomic(path, &out).map_err(|e| format!("Cannot export: {e}"))?;
    Ok(games)
}

/// What the book's lines say about `mv` played at `before`: the annotation of the
/// first line through that move that has one.
pub fn move_annotation(graph: &PositionGraph, before: &Chess, mv: Move) -> Option<MoveAnnotation> {
    let from = graph.lookup(before)?;
    let mut after = before.clone();
    after.play_unchecked(mv);
    let to = graph.lookup(&after)?;
    let c = graph.continuations(from).iter().find(|c| c.to == to)?;
    for &id in graph.continuation_lines(c).iter().take(200) {
        let line = graph.line(id);
        if line.annotations.is_empty() {
            continue;
        }
        let Ok(mut pos) = start_position(line) else {
            continue;
        };
        for (ply, san) in line.moves.iter().enumerate() {
            let Ok(m) = san.to_move(&pos) else {
                break;
            };
            let at_from = graph.lookup(&pos) == Some(from);
            pos.play_unchecked(m);
            if at_from && graph.lookup(&pos) == Some(to) {
                let found = line
                    .annotations
                    .iter()
                    .find(|a| a.ply as usize == ply && !is_empty_annotation(a));
                if let Some(a) = found {
                    return Some(a.clone());
                }
                break;
            }
        }
    }
    None
}

fn is_empty_annotation(a: &MoveAnnotation) -> bool {
    a.comment.is_none() && a.nags.is_empty() && a.arrows.is_empty() && a.circles.is_empty()
}

/// An annotation as text: `Bc4! Aiming at f7.`
pub fn annotation_text(san: &str, a: &MoveAnnotation) -> String {
    let glyphs: String = a
        .nags
        .iter()
        .map(|n| match n {
            1 => "!".to_owned(),
            2 => "?".to_owned(),
            3 => "!!".to_owned(),
            4 => "??".to_owned(),
            5 => "!?".to_owned(),
            6 => "?!".to_owned(),
            n => format!(" ${n}"),
        })
        .collect();
    let mut text = format!("{san}{glyphs}");
    if let Some(c) = &a.comment {
        text.push(' ');
        text.push_str(c);
    }
    if !a.circles.is_empty() {
        let squares: Vec<String> = a.circles.iter().map(|(_, sq)| sq.to_string()).collect();
        text.push_str(&format!(" (marked: {})", squares.join(", ")));
    }
    text
}

/// The arrows of an annotation (`[%cal]`), in lichess's colours.
fn annotation_arrows(a: &MoveAnnotation) -> Vec<Arrow> {
    a.arrows
        .iter()
        .map(|(c, from, to)| Arrow {
            from: *from,
            to: *to,
            weight: 0.7,
            color: match c.to_ascii_uppercase() {
                'R' => Color32::from_rgba_unmultiplied(136, 32, 32, 170),
                'Y' => Color32::from_rgba_unmultiplied(230, 143, 0, 170),
                'B' => Color32::from_rgba_unmultiplied(0, 48, 136, 170),
                _ => Color32::from_rgba_unmultiplied(21, 120, 27, 170),
            },
        })
        .collect()
}

/// Green arrows for weighted moves: thickness and opacity by weight relative to the
/// heaviest; the eight heaviest with at least 5 % of its weight.
fn weighted_arrows(moves: impl Iterator<Item = (Move, f64)>) -> Vec<Arrow> {
    let mut moves: Vec<(Move, f64)> = moves.collect();
    moves.sort_by(|a, b| b.1.total_cmp(&a.1));
    let top = moves.first().map_or(1.0, |m| m.1).max(1e-12);
    moves
        .iter()
        .map(|(mv, w)| (mv, (w / top) as f32))
        .filter(|(_, rel)| *rel >= 0.05)
        .take(8)
        .filter_map(|(mv, rel)| {
            let alpha = (90.0 + 110.0 * rel) as u8;
            Arrow::of_move(mv, rel, Color32::from_rgba_unmultiplied(21, 120, 27, alpha))
        })
        .collect()
}

/// What the cached chart was computed for.
#[derive(Debug, Clone, PartialEq)]
struct ChartKey {
    fen: String,
    s_prev: u64,
    style: Style,
}

enum ExploreMsg {
    Progress(u32),
    Done(Box<Exploration>),
}

struct ExploreJob {
    rx: mpsc::Receiver<ExploreMsg>,
    key: ChartKey,
    done: u32,
    total: u32,
    seed: u64,
    cancel: Arc<AtomicBool>,
}

/// Adds the counts of `part` (same start, same style) to `total`.
fn merge_exploration(total: &mut Exploration, part: Exploration) {
    if total.iterations == 0 {
        *total = part;
        return;
    }
    total.iterations += part.iterations;
    for (a, b) in total.first_steps.iter_mut().zip(&part.first_steps) {
        *a += b;
    }
    for (k, v) in part.visits {
        *total.visits.entry(k).or_default() += v;
    }
    for (k, v) in part.transitions {
        *total.transitions.entry(k).or_default() += v;
    }
    for (k, v) in part.endings {
        *total.endings.entry(k).or_default() += v;
    }
    total.proposals += part.proposals;
    total.steps += part.steps;
}

/// Screenshot mode: wait for the exploration, draw a few frames, grab one, write it, quit.
struct ScreenshotPlan {
    path: PathBuf,
    frames_left: u32,
    requested: bool,
    rx: Option<mpsc::Receiver<Arc<egui::ColorImage>>>,
    outcome: Arc<std::sync::Mutex<Option<Result<(), UiError>>>>,
    started: Instant,
    done: bool,
}

impl ScreenshotPlan {
    fn new(path: PathBuf, outcome: Arc<std::sync::Mutex<Option<Result<(), UiError>>>>) -> Self {
        ScreenshotPlan {
            path,
            frames_left: 5,
            requested: false,
            rx: None,
            outcome,
            started: Instant::now(),
            done: false,
        }
    }

    fn step(&mut self, ctx: &egui::Context, exploring: bool) -> Result<(), String> {
        if self.done {
            return Ok(());
        }
        if self.started.elapsed() > Duration::from_secs(120) {
            return Err("no frame was captured within 120 s".to_owned());
        }
        if exploring {
            ctx.request_repaint_after(Duration::from_millis(20));
            return Ok(());
        }
        if self.frames_left > 0 {
            self.frames_left -= 1;
            ctx.request_repaint();
            return Ok(());
        }
        if !self.requested {
            let (tx, rx) = mpsc::channel();
            ctx.request_screenshot(move |image| {
                let _ = tx.send(image);
            });
            self.rx = Some(rx);
            self.requested = true;
            ctx.request_repaint();
            return Ok(());
        }
        let Some(rx) = &self.rx else {
            return Ok(());
        };
        match rx.try_recv() {
            Ok(image) => {
                let result = write_png(&self.path, &image);
                self.finish(ctx, result);
                Ok(())
            }
            Err(mpsc::TryRecvError::Empty) => {
                ctx.request_repaint_after(Duration::from_millis(10));
                Ok(())
            }
            Err(mpsc::TryRecvError::Disconnected) => {
                Err("the window system returned no image".to_owned())
            }
        }
    }

    fn finish(&mut self, ctx: &egui::Context, result: Result<(), String>) {
        self.done = true;
        let result = result.map_err(|reason| UiError::Screenshot {
            path: self.path.clone(),
            reason,
        });
        if let Ok(mut o) = self.outcome.lock() {
            *o = Some(result);
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

fn write_png(path: &std::path::Path, image: &egui::ColorImage) -> Result<(), String> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    let (Ok(w), Ok(h)) = (u32::try_from(w), u32::try_from(h)) else {
        return Err(format!("the image is too large ({w}x{h})"));
    };
    image::save_buffer(path, &bytes, w, h, image::ExtendedColorType::Rgba8)
        .map_err(|e| e.to_string())
}

/// `HASTINGS_TIMINGS=1`: time to the first frame and frame statistics, on stderr.
struct Timings {
    started: Instant,
    frames: u32,
    last_frame: Option<(Instant, bool)>,
    /// eframe's CPU time of frames drawn while dragging (without the buffer swap).
    drag_cpu: Vec<f32>,
    /// Wall time from one frame to the next while dragging (everything, swap included).
    drag_intervals: Vec<f32>,
    /// eframe's CPU time of frames drawn while files load or the book is built, with
    /// the frame's number.
    load_cpu: Vec<(u32, f32)>,
    /// Wall time from one frame to the next while files load (includes the waits
    /// between the progress bar's repaints).
    load_intervals: Vec<(u32, f32)>,
    /// Whether the last frame was drawn while loading.
    last_loading: bool,
    /// The import progress bar's percent at each frame drawn while a file was read.
    load_percents: Vec<u32>,
}

impl Timings {
    fn new(started: Instant) -> Timings {
        Timings {
            started,
            frames: 0,
            last_frame: None,
            drag_cpu: Vec::new(),
            drag_intervals: Vec::new(),
            load_cpu: Vec::new(),
            load_intervals: Vec::new(),
            last_loading: false,
            load_percents: Vec::new(),
        }
    }

    /// At the end of each frame's ui.
    fn frame(&mut self, ctx: &egui::Context, loading: bool, fraction: Option<f32>) {
        let now = Instant::now();
        let dragging = ctx.input(|i| i.pointer.is_decidedly_dragging());
        self.frames += 1;
        if self.frames == 1 {
            let started = self.started;
            eprintln!(
                "hastings timings: first frame built {:.1} ms after start",
                started.elapsed().as_secs_f64() * 1e3
            );
            // Read the first frame back: the callback runs once it has been painted.
            ctx.request_screenshot(move |_| {
                eprintln!(
                    "hastings timings: first frame painted {:.1} ms after start",
                    started.elapsed().as_secs_f64() * 1e3
                );
            });
        }
        if let Some((last, last_dragging)) = self.last_frame
            && dragging
            && last_dragging
        {
            self.drag_intervals.push((now - last).as_secs_f32() * 1e3);
        }
        if let Some((last, _)) = self.last_frame
            && loading
            && self.last_loading
        {
            self.load_intervals
                .push((self.frames, (now - last).as_secs_f32() * 1e3));
        }
        if let Some(f) = fraction {
            self.load_percents.push((f * 100.0) as u32);
        }
        if self.last_loading && !loading {
            eprintln!(
                "hastings timings: files loaded and the book built {:.1} ms after start",
                self.started.elapsed().as_secs_f64() * 1e3
            );
        }
        self.last_loading = loading;
        self.last_frame = Some((now, dragging));
    }

    /// At the start of each frame: eframe's CPU time of the previous frame.
    fn cpu_usage(&mut self, seconds: Option<f32>) {
        if let Some(s) = seconds
            && (1..=3).contains(&self.frames)
        {
            eprintln!(
                "hastings timings: frame {} (starting up) took {:.1} ms of CPU",
                self.frames,
                s * 1e3
            );
        }
        if let (Some(s), Some((_, true))) = (seconds, self.last_frame) {
            self.drag_cpu.push(s * 1e3);
        }
        if let (Some(s), true) = (seconds, self.last_loading) {
            self.load_cpu.push((self.frames, s * 1e3));
            if s > 0.05 {
                eprintln!(
                    "hastings timings: frame {} took {:.1} ms of CPU while loading",
                    self.frames,
                    s * 1e3
                );
            }
        }
    }

    fn report(&self) {
        let stats = |v: &[f32]| {
            let mut v = v.to_vec();
            v.sort_by(f32::total_cmp);
            let at = |q: f64| {
                v.get(((v.len() as f64 - 1.0) * q).round() as usize)
                    .copied()
                    .unwrap_or(f32::NAN)
            };
            format!(
                "n={} median={:.2} ms p95={:.2} ms max={:.2} ms",
                v.len(),
                at(0.5),
                at(0.95),
                at(1.0)
            )
        };
        eprintln!("hastings timings: {} frames in all", self.frames);
        eprintln!(
            "hastings timings: while dragging, frame-to-frame {}",
            stats(&self.drag_intervals)
        );
        eprintln!(
            "hastings timings: while dragging, frame CPU without swap {}",
            stats(&self.drag_cpu)
        );
        let all: Vec<f32> = self.load_cpu.iter().map(|(_, ms)| *ms).collect();
        let later: Vec<f32> = self
            .load_cpu
            .iter()
            .filter(|(n, _)| *n > 3)
            .map(|(_, ms)| *ms)
            .collect();
        eprintln!(
            "hastings timings: while loading files, frame CPU without swap {}",
            stats(&all)
        );
        eprintln!(
            "hastings timings: the same from frame 4 on (after the window's first frames) {}",
            stats(&later)
        );
        let all: Vec<f32> = self.load_intervals.iter().map(|(_, ms)| *ms).collect();
        let later: Vec<f32> = self
            .load_intervals
            .iter()
            .filter(|(n, _)| *n > 3)
            .map(|(_, ms)| *ms)
            .collect();
        eprintln!(
            "hastings timings: while loading files, frame-to-frame {}",
            stats(&all)
        );
        eprintln!(
            "hastings timings: the same from frame 4 on {}",
            stats(&later)
        );
        let mut percents = self.load_percents.clone();
        percents.dedup();
        eprintln!(
            "hastings timings: the import progress bar showed {} different percentages, {} to {}",
            percents.len(),
            percents.first().map_or(0, |p| *p),
            percents.last().map_or(0, |p| *p)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exploring_in_chunks_counts_the_same_as_one_run() {
        let graph = PositionGraph::eco().unwrap();
        let pos = Chess::default();
        let start = graph.lookup(&pos).unwrap();
        let style = Style::neutral();
        let limits = |iterations| ExploreLimits {
            iterations,
            ply_limit: 12,
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let whole = explore(&graph, start, &pos, &style, 1.0, limits(300), &mut rng);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut merged = Exploration::default();
        for n in [100, 120, 80] {
            let part = explore(&graph, start, &pos, &style, 1.0, limits(n), &mut rng);
            merge_exploration(&mut merged, part);
        }
        assert_eq!(merged.iterations, 300);
        assert_eq!(merged.first_steps, whole.first_steps);
        assert_eq!(merged.visits, whole.visits);
        assert_eq!(merged.transitions, whole.transitions);
        assert_eq!(merged.endings, whole.endings);
        assert_eq!(
            (merged.proposals, merged.steps),
            (whole.proposals, whole.steps)
        );
    }

    #[test]
    fn book_arrows_keep_the_eight_likeliest_and_scale_by_the_top_one() {
        let pos = Chess::default();
        let moves: Vec<(Move, f64)> = pos
            .legal_moves()
            .into_iter()
            .enumerate()
            .map(|(i, m)| (m, if i == 3 { 0.5 } else { 0.03 + 0.001 * i as f64 }))
            .collect();
        let arrows = weighted_arrows(moves.iter().copied());
        assert_eq!(arrows.len(), 8);
        assert_eq!(arrows[0].weight, 1.0);
        assert_eq!(Some(arrows[0].from), moves[3].0.from());
        assert!(arrows[1..].iter().all(|a| a.weight < 0.11));
        let rare = [(moves[0].0, 1.0), (moves[1].0, 0.01)];
        assert_eq!(
            weighted_arrows(rare.into_iter()).len(),
            1,
            "under 5 % of the top"
        );
    }
}
