//! The trainer window, [`TrainerApp`]: a thin shell over the headless [`Coach`].
//!
//! The app keeps only what a window needs: the tab shown, moves gliding to their
//! squares, the chart's cache, the file dialogs, the make-a-book form's fields, the
//! title, the screenshot plan and the frame timings. Each frame it hands the coach the
//! time and lets it do its work ([`Coach::logic`]), draws the panels (each reads the
//! coach and pushes [`Command`]s), hands the commands to the coach, and carries out the
//! coach's [`Notice`]s (dialogs, the clipboard, animations, sounds). egui redraws only
//! on input or when the coach asks (the reply delay, a running job), so an idle window
//! draws nothing.
//!
//! Tests read the coach as the panels do (`app.coach().session()`). The frame's drawing
//! is in `draw`, the left panel in `left`, starting the window in `start`.

use std::path::PathBuf;
use std::sync::Arc;

use eframe::egui;
use egui::Ui;
use shakmaty::Move;

use super::chart::ChartData;
use super::chart_panel::{self, ChartCache};
use super::command::{Action, Command};
use super::dialogs::Dialogs;
use super::fetch_panel::FetchForm;
use super::make_book_panel::MakeBookForm;
use super::repertoire_panel::RepertoireForm;
use super::screenshot::ScreenshotPlan;
use super::sounds::SoundPlayer;
use super::timings::Timings;
use super::welcome::Welcome;
use crate::book::PositionGraph;
use crate::coach::settings::{SETTINGS_KEY, Settings};
use crate::coach::{Coach, Notice};
use crate::workspace::settings_file::{load_settings, save_settings};

mod draw;
mod left;
mod start;

pub(super) use start::{Start, start};

/// How long a move glides to its square.
pub(super) const MOVE_ANIMATION: f64 = 0.15;

/// The tabs of the left panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum LeftTab {
    Repertoires,
    Style,
    Book,
    Progress,
    Coverage,
    Explorer,
    Repertoire,
}

/// A move on its way to its square: the move and when (egui time) it started.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Animation {
    pub(super) mv: Move,
    pub(super) started: f64,
}

/// The trainer window's state: the coach and what only a window has.
pub struct TrainerApp {
    coach: Coach,
    pub(super) left_tab: LeftTab,
    /// The computer's move in the drill, gliding to its square.
    pub(super) animation: Option<Animation>,
    /// The engine's move in the play-on game, gliding to its square.
    pub(super) play_on_animation: Option<Animation>,
    pub(super) chart: ChartCache,
    pub(super) dialogs: Dialogs,
    /// "Make a book…"'s fields.
    pub(super) make_book: MakeBookForm,
    /// The Book tab's "Get games online" form.
    pub(super) fetch: FetchForm,
    window_title: String,
    pub(super) screenshot: Option<ScreenshotPlan>,
    pub(super) timings: Option<Timings>,
    /// Plays the coach's sounds (silent but in the window `hastings` opens).
    sounds: SoundPlayer,
    /// Whether the settings are saved (not for a screenshot, nor when another window
    /// holds the data folder).
    persist: bool,
    /// Where the settings are saved (`settings.json` in the data folder); `None`: not
    /// saved (tests, screenshots).
    settings_file: Option<PathBuf>,
    /// The settings as last read from or written to `settings_file` (a save writes only
    /// what changed since).
    settings_saved: Option<Settings>,
    /// "Your settings were damaged": what was kept aside and reset, until closed.
    pub(super) settings_notice: Option<String>,
    /// "Start here", shown to a new user until they start or skip.
    pub(super) welcome: Option<Welcome>,
    /// The side chosen in "Start here" with "My repertoire": taken when the file is
    /// chosen (or the choice cancelled), not before, so no built-in line starts first.
    learner_after_open: Option<shakmaty::Color>,
    /// What is being typed in the Repertoire tab.
    pub(super) repertoire_form: RepertoireForm,
    /// My repertoires: the ones ticked to train together.
    pub(super) repertoires_form: super::repertoires_panel::RepertoiresForm,
    /// A command sent once the book being rebuilt is ready (My repertoires' check).
    pub(super) after_build: Option<Command>,
    /// Help → About Hastings.
    pub(super) about: super::about::About,
    /// The top bar's "Find an opening": what is typed and what it found.
    pub(super) opening_search: super::opening_search::OpeningSearch,
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

    /// The app as the window starts it: the settings from `settings_file` (those that
    /// an older version kept in eframe's `storage` when there is no file yet; defaults
    /// when there are none), the progress from `progress_file` (a corrupt file is set
    /// aside with a warning in the progress panel).
    ///
    /// A settings file that does not read whole is kept aside; the settings that still
    /// read are kept, the others reset, and the window says which
    /// ([`crate::workspace::settings_file`]).
    pub fn restore(
        graph: Arc<PositionGraph>,
        storage: Option<&dyn eframe::Storage>,
        settings_file: Option<PathBuf>,
        progress_file: Option<PathBuf>,
    ) -> TrainerApp {
        let loaded = settings_file.as_deref().map(load_settings::<Settings>);
        let (from_file, warning) = match loaded {
            Some(loaded) => {
                let notice = match (&loaded.damage, &loaded.warning) {
                    (Some(damage), _) => Some(super::settings_notice::settings_notice_text(
                        damage,
                        loaded.kept_aside.as_deref(),
                        &loaded.reset,
                    )),
                    (None, warning) => warning.clone(),
                };
                (loaded.value, notice)
            }
            None => (None, None),
        };
        let stored = from_file
            .clone()
            .or_else(|| storage.and_then(|s| eframe::get_value(s, SETTINGS_KEY)));
        let first_run = stored.is_none();
        let mut settings: Settings = stored.unwrap_or_default();
        // Never chosen: the blend with the games book (issue 41, item 4).
        settings.book.migrate_popularity();
        let mut app = TrainerApp::with_progress_file(graph, settings, progress_file);
        app.settings_file = settings_file;
        // A file damaged and recovered is written again at the next save; one that read
        // whole is not written until something changes.
        app.settings_saved = from_file.filter(|_| warning.is_none());
        app.settings_notice = warning;
        // A new user (no settings saved yet) is asked what they want first.
        if first_run {
            app.show_welcome();
        }
        app
    }

    /// Saves the settings to `path` from now on (the window's data folder's
    /// `settings.json`); `None`: not saved.
    pub fn set_settings_file(&mut self, path: Option<PathBuf>) {
        self.settings_file = path;
        self.settings_saved = None;
    }

    /// Whether this window holds the data folder and so saves the settings (a second
    /// window on the folder does not: [`crate::workspace::data_dir::claim`]).
    pub fn set_writable(&mut self, writable: bool) {
        self.persist = writable;
    }

    /// Writes the settings to their file when they changed since they were read or last
    /// written — only in the window that holds the data folder, so a second window never
    /// overwrites the first one's settings. A failure is shown in the drill's message.
    pub fn save_settings(&mut self) {
        let Some(path) = self.settings_file.clone() else {
            return;
        };
        if !self.persist || self.screenshot.is_some() {
            return;
        }
        let settings = self.coach.settings().clone();
        if self.settings_saved.as_ref() == Some(&settings) {
            return;
        }
        match save_settings(&path, &settings) {
            Ok(()) => self.settings_saved = Some(settings),
            Err(e) => {
                log::error!("settings not saved: {e}");
                self.coach.apply(crate::coach::Command::Message(format!(
                    "Your settings could not be saved: {e}"
                )));
            }
        }
    }

    /// Shows "Start here" (what a new user sees first).
    pub fn show_welcome(&mut self) {
        self.welcome = Some(Welcome {
            learner: self.coach.session().learner(),
            ..Welcome::default()
        });
    }

    /// Whether "Start here" is shown.
    pub fn is_welcoming(&self) -> bool {
        self.welcome.is_some()
    }

    /// As [`TrainerApp::new`], with the progress loaded from and saved to `progress_file`.
    pub fn with_progress_file(
        graph: Arc<PositionGraph>,
        settings: Settings,
        progress_file: Option<PathBuf>,
    ) -> TrainerApp {
        TrainerApp::of(Coach::new(graph, settings, progress_file))
    }

    /// The window over `coach`.
    pub fn of(coach: Coach) -> TrainerApp {
        // A learner with a repertoire finds it first; a new one, the Style tab.
        let has_repertoire = coach
            .settings()
            .book
            .files
            .iter()
            .any(|f| f.mode == crate::workspace::FileMode::Repertoire);
        TrainerApp {
            left_tab: if has_repertoire {
                LeftTab::Repertoires
            } else {
                LeftTab::Style
            },
            coach,
            animation: None,
            play_on_animation: None,
            chart: ChartCache::default(),
            dialogs: Dialogs::default(),
            make_book: MakeBookForm::default(),
            fetch: FetchForm::default(),
            window_title: String::new(),
            screenshot: None,
            timings: None,
            sounds: SoundPlayer::silent(),
            persist: true,
            settings_file: None,
            settings_saved: None,
            settings_notice: None,
            welcome: None,
            learner_after_open: None,
            repertoire_form: RepertoireForm::default(),
            repertoires_form: Default::default(),
            after_build: None,
            about: super::about::About::default(),
            opening_search: super::opening_search::OpeningSearch::default(),
        }
    }

    /// Plays the coach's sounds with `player` (apps made by [`TrainerApp::new`] are
    /// silent; the window `hastings` opens plays them on the default device).
    pub fn set_sound_player(&mut self, player: SoundPlayer) {
        self.sounds = player;
    }

    /// The coach the window draws.
    pub fn coach(&self) -> &Coach {
        &self.coach
    }

    /// The coach, to send it commands as the panels would (tests).
    pub fn coach_mut(&mut self) -> &mut Coach {
        &mut self.coach
    }

    /// The chart as it is drawn now (computed on demand).
    pub fn chart(&mut self) -> &ChartData {
        chart_panel::refresh(&self.coach, &mut self.chart);
        self.chart.data()
    }

    /// Whether a move is being animated on the board.
    pub fn is_animating(&self) -> bool {
        self.animation.is_some()
    }

    /// Files were chosen in the file dialog or dropped on the window: Polyglot books
    /// (`.bin`) become sources at once, PGN files ask how to read them.
    pub fn open_files(&mut self, paths: Vec<PathBuf>) {
        let pgn = self.coach.open_files(paths);
        if !pgn.is_empty() {
            self.dialogs.ask_mode(pgn);
        }
    }

    /// Shows the path field for opening a PGN file: what the window does when the system
    /// has no file dialog (no desktop portal, no zenity).
    pub fn ask_for_path(&mut self) {
        self.dialogs.ask_open_path();
    }

    /// Every file dialog from now on is the path field (tests: no system dialog opens;
    /// the same field appears where the system has none).
    pub fn use_path_field_only(&mut self) {
        self.dialogs.use_path_field_only();
    }

    /// Shows the path field for loading a style profile (what the window does when the
    /// system has no file dialog); with `play_like`, a fitted player's games are added.
    pub fn ask_for_profile_path(&mut self, play_like: bool) {
        self.dialogs.ask_profile_load_path(play_like);
    }

    /// Waits until the book being made is written and adds it as a source, as the
    /// frames would (tests; the window never waits).
    pub fn finish_making_book(&mut self) {
        self.coach.finish_making_book();
    }

    // ----- each frame -----

    /// One whole frame, as eframe runs it: [`TrainerApp::logic`], then drawing, then the
    /// commands. Tests drive the app through this.
    pub fn frame_ui(&mut self, ui: &mut Ui) {
        self.logic(ui.ctx());
        self.draw_and_apply(ui);
    }

    /// The non-drawing work of a frame: the coach's (finished jobs, the computer's
    /// reply), the dialogs, the animations, the screenshot steps.
    pub fn logic(&mut self, ctx: &egui::Context) {
        if !self.coach.has_wake() {
            let ctx = ctx.clone();
            self.coach.set_wake(Arc::new(move || ctx.request_repaint()));
        }
        self.coach.set_time(ctx.input(|i| i.time));
        self.coach
            .coverage_mut()
            .set_shown(self.left_tab == LeftTab::Coverage);
        self.coach
            .repertoire_mut()
            .set_shown(self.left_tab == LeftTab::Repertoire);
        self.coach
            .book_mut()
            .set_repertoires_shown(self.left_tab == LeftTab::Repertoires);
        if self.after_build.is_some()
            && !self.coach.is_loading()
            && let Some(command) = self.after_build.take()
        {
            self.apply(ctx, command);
        }
        let loading = self.coach.is_loading();
        self.coach.logic();
        if let Some(t) = &self.timings
            && loading
            && !self.coach.is_loading()
        {
            t.event("the files were loaded");
        }
        for command in self.dialogs.poll(ctx) {
            self.apply(ctx, command);
        }
        self.after_coach(ctx);
        self.animate(ctx);
        let busy = self.coach.is_busy();
        if let Some(plan) = &mut self.screenshot
            && let Err(reason) = plan.step(ctx, busy)
        {
            plan.finish(ctx, Err(reason));
        }
    }

    /// Carries out one command: the coach's, then what it asks of the window.
    pub(super) fn apply(&mut self, ctx: &egui::Context, command: Command) {
        match &command {
            Command::Play(_) => self.animation = None,
            Command::PlayOn(_) => self.play_on_animation = None,
            _ => {}
        }
        // Start here's side, once its repertoire's file is chosen (or none is).
        if matches!(command, Command::Import(..) | Command::CancelOpen)
            && let Some(color) = self.learner_after_open.take()
        {
            self.coach.apply(Command::SetLearner(color));
        }
        self.coach.set_time(ctx.input(|i| i.time));
        self.coach.apply(command);
        self.after_coach(ctx);
    }

    /// Whether `action` can be used now (a second file dialog is not opened).
    pub(super) fn is_enabled(&self, action: Action) -> bool {
        action_enabled(&self.coach, &self.dialogs, self.shows_repertoire(), action)
    }

    /// The coach's notices and redraw requests.
    fn after_coach(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| i.time);
        for notice in self.coach.take_notices() {
            match notice {
                Notice::Animate(mv) => self.animation = Some(Animation { mv, started: now }),
                Notice::AnimatePlayOn(mv) => {
                    self.play_on_animation = Some(Animation { mv, started: now });
                }
                Notice::Close => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
                Notice::AskHowToRead(paths) => self.dialogs.ask_mode(paths),
                Notice::CloseHowToRead => self.dialogs.close_mode(),
                Notice::ChooseFiles => self.dialogs.start_file_dialog(ctx),
                Notice::ChooseFolder => self.dialogs.start_folder_dialog(ctx),
                Notice::ChooseGames => self.dialogs.start_games_dialog(ctx),
                Notice::ChooseExplorer => self.dialogs.start_explorer_dialog(ctx),
                Notice::ChooseRepertoireFile(what) => {
                    self.dialogs.start_repertoire_dialog(ctx, what)
                }
                Notice::ShowDrill => {
                    if self.left_tab == LeftTab::Repertoire {
                        self.left_tab = LeftTab::Style;
                    }
                }
                Notice::ShowRepertoire => self.left_tab = LeftTab::Repertoire,
                Notice::ChooseProfile { play_like } => {
                    self.dialogs.start_profile_load(ctx, play_like);
                }
                Notice::SaveProfileAs(profile) => self.dialogs.start_profile_save(ctx, *profile),
                Notice::ExportAs(lines, name) => self.dialogs.start_export(ctx, lines, name),
                Notice::SaveGameAs => self.dialogs.start_game_save(ctx),
                Notice::CopyText(text) => ctx.copy_text(text),
                Notice::Sound(sound) => {
                    let ctx = ctx.clone();
                    self.sounds.play(sound, move || ctx.request_repaint());
                }
            }
        }
        if let Some(after) = self.coach.take_repaint() {
            ctx.request_repaint_after(after);
        }
    }

    /// Ends an animation when its time is up (this frame draws the piece at rest); asks
    /// for the next frame meanwhile.
    fn animate(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| i.time);
        if let Some(a) = self.animation {
            if now - a.started >= MOVE_ANIMATION
                || self.coach.session().display_last_move() != Some(a.mv)
            {
                self.animation = None;
            } else {
                ctx.request_repaint();
            }
        }
        if let Some(a) = self.play_on_animation {
            if now - a.started >= MOVE_ANIMATION || !self.coach.play_on().is_active() {
                self.play_on_animation = None;
            } else {
                ctx.request_repaint();
            }
        }
    }

    /// What the window says at start about a damaged settings file, while it is shown.
    pub fn settings_notice(&self) -> Option<&str> {
        self.settings_notice.as_deref()
    }

    /// Whether the window shows the Repertoire tab's file: its tree on the right, its
    /// board, what is missing under it, and the tab's keys (else the drill's).
    fn shows_repertoire(&self) -> bool {
        self.left_tab == LeftTab::Repertoire
            && self.coach.settings().panels.side
            && self.coach.repertoire().file().is_some()
    }

    fn update_title(&mut self, ctx: &egui::Context) {
        let title = match self.coach.session().opening_title() {
            Some(t) => format!("Hastings — {t}"),
            None => "Hastings — opening trainer".to_owned(),
        };
        if title != self.window_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.window_title = title;
        }
    }
}

/// Whether `action` can be used now: as the coach says, but not a second file dialog,
/// and, while the Repertoire tab shows its file (`repertoire_shown`), only the actions
/// that act on what is shown (open, flip, quit): the hidden drill's are off, so that
/// "Take back" or a key never changes a drill the learner cannot see.
fn action_enabled(
    coach: &Coach,
    dialogs: &Dialogs,
    repertoire_shown: bool,
    action: Action,
) -> bool {
    let shown = !repertoire_shown || matches!(action, Action::Open | Action::Flip | Action::Quit);
    shown && coach.is_enabled(action) && !(action == Action::Open && dialogs.is_choosing())
}

impl eframe::App for TrainerApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        TrainerApp::logic(self, ctx);
    }

    fn ui(&mut self, ui: &mut Ui, frame: &mut eframe::Frame) {
        // The first frame was painted before the second began (and one is asked for);
        // frames, not passes: the first frame may take two passes before it is painted.
        match ui.ctx().cumulative_frame_nr() {
            0 => ui.ctx().request_repaint(),
            1 => crate::job::first_frame::painted(),
            _ => {}
        }
        if let Some(t) = &mut self.timings {
            t.cpu_usage(frame.info().cpu_usage);
        }
        self.draw_and_apply(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.screenshot.is_none() {
            self.coach.save();
            self.save_settings();
            // The settings live in their own file; eframe's storage keeps only the
            // window's state (an older version's copy is cleared once the file exists).
            if self.persist && self.settings_saved.is_some() {
                storage.set_string(SETTINGS_KEY, String::new());
            }
        }
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.coach.shut_down();
        if let Some(t) = &self.timings {
            t.report();
        }
    }
}
