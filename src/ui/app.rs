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
use super::chart::{ChartData, chart_ui};
use super::command::{Action, Command};
use super::state::{SETTINGS_KEY, Settings, Side};
use super::style_panel::style_panel_ui;
use crate::book::{BookError, PositionGraph};
use crate::sampler::{Exploration, ExploreLimits, Style, explore, move_share};
use crate::trainer::{MoveOutcome, Phase, Reply, Session};

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
}

/// Opens the trainer window and runs it until it is closed (or the screenshot is taken).
///
/// Set `HASTINGS_TIMINGS=1` to print the time to the first frame and frame-time
/// statistics to stderr on exit.
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
                    app.show_moves(&moves);
                    app.screenshot = Some(ScreenshotPlan::new(path, app_outcome));
                    app.start_explore(&cc.egui_ctx);
                    app
                }
                None => {
                    let settings = cc
                        .storage
                        .and_then(|s| eframe::get_value(s, SETTINGS_KEY))
                        .unwrap_or_default();
                    TrainerApp::new(graph, settings)
                }
            };
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
}

impl TrainerApp {
    /// A new app on `graph` with the user's `settings`.
    pub fn new(graph: Arc<PositionGraph>, settings: Settings) -> TrainerApp {
        let seed = settings.fixed_seed().unwrap_or_else(rand::random);
        let learner = Color::from(settings.learner);
        let session = Session::new(Arc::clone(&graph), learner, settings.style.clone(), seed);
        TrainerApp {
            graph,
            orientation: Orientation::from_color(learner),
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
        }
    }

    /// The drill.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The user's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
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
        self.computer_reply(ctx);
        self.screenshot_step(ctx);
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
        if let Some(t) = &mut self.timings {
            t.frame(ui.ctx());
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
                self.message = match self.session.play(mv) {
                    MoveOutcome::Accepted { .. } | MoveOutcome::OutOfBook => None,
                    MoveOutcome::Rejected => Some("That move cannot be played now.".to_owned()),
                };
            }
            Command::ShowPly(ply) => self.session.view(ply),
            Command::ShowCurrent => self.session.view(self.session.moves().len()),
            Command::SetLearner(color) => {
                self.settings.learner = Side::from(color);
                self.orientation = Orientation::from_color(color);
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
            Action::Flip => self.orientation = self.orientation.flipped(),
            Action::ContinueFromHere => {
                self.session.continue_from_here();
                self.last_reply = None;
            }
            Action::Explore => self.start_explore(ctx),
            Action::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
        }
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
                egui::ScrollArea::vertical().show(ui, |ui| {
                    let seed = Some(self.session.seed());
                    style_panel_ui(ui, &mut self.settings, seed, commands);
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
                egui::Grid::new("book_moves")
                    .striped(true)
                    .num_columns(3)
                    .show(ui, |ui| {
                        for b in &book_moves {
                            ui.label(RichText::new(&b.san).strong());
                            ui.label(format!("{:.1}%", b.share * 100.0));
                            ui.label(b.leads_to.as_deref().unwrap_or(""));
                            ui.end_row();
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
        let exploring = self.explore_job.is_some();
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
        }
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        if let Some(job) = &self.explore_job {
            job.cancel.store(true, Ordering::Relaxed);
        }
        if let Some(t) = &self.timings {
            t.report();
        }
    }
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
}

impl Timings {
    fn new(started: Instant) -> Timings {
        Timings {
            started,
            frames: 0,
            last_frame: None,
            drag_cpu: Vec::new(),
            drag_intervals: Vec::new(),
        }
    }

    /// At the end of each frame's ui.
    fn frame(&mut self, ctx: &egui::Context) {
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
        self.last_frame = Some((now, dragging));
    }

    /// At the start of each frame: eframe's CPU time of the previous frame.
    fn cpu_usage(&mut self, seconds: Option<f32>) {
        if let (Some(s), Some((_, true))) = (seconds, self.last_frame) {
            self.drag_cpu.push(s * 1e3);
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
                "n={} median={:.2} ms p95={:.2} ms",
                v.len(),
                at(0.5),
                at(0.95)
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
