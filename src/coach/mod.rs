//! The headless trainer core, [`Coach`]: everything the window does, without a window.
//!
//! The coach owns the drill ([`Session`]), the book's sources ([`Workspace`]), the
//! learner's progress, review mode and its log, the background jobs (coverage, compare,
//! explore, play-on, making a book, optimising the memory model), the learner's style
//! and the adaptive opponent. It takes [`Command`]s ([`Coach::apply`]), is polled once
//! a frame for finished jobs and the computer's reply ([`Coach::logic`]), and tells its
//! caller what it needs: a redraw ([`Coach::take_repaint`]) or something only a window
//! can do ([`Notice`], [`Coach::take_notices`]).
//!
//! The window (`crate::ui`) draws the coach's state and sends it commands; tests drive
//! the same coach without egui. Time comes from the caller ([`Coach::set_time`], in
//! seconds since any fixed start), so the reply delay follows the window's clock.
//!
//! - [`command`]: what the user can ask; [`settings`]: what is saved between runs;
//!   [`board_look`]: the board's theme, pieces and coordinates (saved with them).
//! - [`apply`]: carrying commands out; [`review`]: review mode; [`coverage`]: the
//!   Coverage tab's work (exposure, compare my games, gap drills, adding an answer);
//!   [`play_on`]: playing on against an engine; [`explore`]: sampling on a thread;
//!   [`learner_style`]: the learner's style; [`jobs`]: making a book and optimising;
//!   [`move_entry`]: the move box (a move typed on the keyboard); [`sounds`]: which
//!   sound a move makes; [`verdict`]: a move outside the book judged by an engine.

pub mod apply;
pub mod board_look;
pub mod check;
pub mod command;
pub mod compare_games;
pub mod coverage;
pub mod explore;
pub mod explorer;
pub mod explorer_game;
pub mod files;
pub mod format;
pub mod human;
pub mod jobs;
pub mod learner_style;
pub mod missed;
pub mod move_entry;
pub mod moves;
pub mod play_on;
pub mod report;
pub mod review;
pub mod settings;
pub mod sides;
pub mod sounds;
pub mod verdict;
pub mod workshop;
pub mod workshop_gaps;
mod workshop_train;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use shakmaty::{Color, Move};

use self::coverage::CoverageState;
use self::explore::{ExploreRun, Explored};
use self::learner_style::LearnerStyleState;
use self::report::ReportView;
use self::settings::{Orientation, Settings};
use crate::book::PositionGraph;
use crate::job::Wake;
use crate::sampler::profile::StyleProfile;
use crate::trainer::learner_style::{Adaptation, Posterior, StyleClass};
use crate::trainer::progress::Progress;
use crate::trainer::{Reply, Session};
use crate::workspace::Workspace;
use crate::workspace::store::ProgressFile;

pub use self::command::{Action, Command, DrillBook};
pub use self::sounds::Sound;

/// What the coach asks of the window beyond a redraw.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// The computer (or "Show me") played `mv` in the drill: let it glide to its square.
    Animate(Move),
    /// The engine played `mv` in the play-on game: let it glide to its square.
    AnimatePlayOn(Move),
    /// The user asked to close the window.
    Close,
    /// Ask how to read these PGN files (the "read as" window).
    AskHowToRead(Vec<PathBuf>),
    /// Close the "read as" window.
    CloseHowToRead,
    /// Let the user choose files to open (a file dialog).
    ChooseFiles,
    /// Let the user choose a PGN file of their games to compare with the repertoire.
    ChooseGames,
    /// Show the drill (it was started from a tab that hides it: "Train this").
    ShowDrill,
    /// Show the Repertoire tab (a position was sent there).
    ShowRepertoire,
    /// Let the user choose a file for the Repertoire tab (a file dialog).
    ChooseWorkshopFile(workshop::WorkshopFile),
    /// Let the user choose an explorer index (a directory).
    ChooseExplorer,
    /// Let the user choose a style profile to load.
    ChooseProfile {
        /// Also add the fitted player's games as a book source.
        play_like: bool,
    },
    /// Ask where to save this profile, then save it.
    SaveProfileAs(Box<StyleProfile>),
    /// Ask where to save these lines as PGN (the suggested file name), then save them.
    ExportAs(Vec<crate::book::OpeningLine>, String),
    /// Ask where to save the play-on game's PGN (then send `PlayOnCommand::SaveTo`).
    SaveGameAs,
    /// Put this text on the clipboard.
    CopyText(String),
    /// Play this sound (only sent while the settings have sounds on).
    Sound(Sound),
}

/// The trainer's state and what it does, without a window.
pub struct Coach {
    pub(crate) settings: Settings,
    pub(crate) workspace: Workspace,
    /// The book the drill uses (also held by the session).
    pub(crate) graph: Arc<PositionGraph>,
    /// Counts the books drilled on, so caches know the book changed.
    pub(crate) book_generation: u64,
    /// Counts what changes the chart beyond its key (a finished exploration, the books).
    chart_generation: u64,
    /// The workspace's books generation the drill last took its books from.
    books_seen: u64,
    pub(crate) session: Session,
    pub(crate) orientation: Orientation,
    pub(crate) progress: ProgressFile,
    /// When (caller's time) the computer's pending reply is due.
    reply_due: Option<f64>,
    pub(crate) last_reply: Option<Reply>,
    /// What happened last, for the feedback panel.
    pub(crate) message: Option<String>,
    pub(crate) explore: Option<ExploreRun>,
    pub(crate) explored: Option<Explored>,
    pub(crate) report: Option<ReportView>,
    /// The Coverage tab's parameters and jobs.
    pub(crate) coverage: CoverageState,
    /// Whether the Coverage tab is shown (its exposure is computed only then).
    coverage_shown: bool,
    /// `Session::lines_completed` when completions were last recorded.
    completed_seen: u32,
    /// Asks the caller for a frame, from any thread.
    wake: Option<Wake>,
    /// Review mode, when it is on.
    pub(crate) review: Option<review::ReviewMode>,
    /// The review log (beside the progress file); `None`: no review mode.
    pub(crate) review_log: Option<PathBuf>,
    /// Fuzz review intervals (off in tests, for reproducible due dates).
    review_fuzz: bool,
    /// The style profile loaded last, if any.
    pub(crate) profile: Option<StyleProfile>,
    /// The learner's style: drilled lines, imported games, the adaptive opponent's coin.
    pub(crate) learner_style: LearnerStyleState,
    /// "Most often missed", as the Progress tab shows it.
    missed: missed::MissedState,
    /// Playing on against an engine after the book.
    pub(crate) play_on: play_on::PlayOnState,
    /// "Make a book…".
    pub(crate) make_book: jobs::MakeBookJob,
    /// "Check with an engine" (Coverage tab).
    pub(crate) check: check::CheckState,
    /// Which side a repertoire is for: the question asked, the side said.
    pub(crate) sides: sides::SidesState,
    /// The move box's text and its last error.
    pub(crate) move_entry: move_entry::MoveEntryState,
    /// The engine's verdict on a move outside the book.
    pub(crate) verdict: verdict::VerdictState,
    /// The Repertoire tab: the repertoire file being edited.
    pub(crate) workshop: workshop::WorkshopState,
    /// The Repertoire tab's book: the repertoire's graph, its gaps, "Train this".
    pub(crate) workshop_gaps: workshop_gaps::GapsState,
    /// The Explorer tab: the open index, its filter, the moves on the board.
    pub(crate) explorer: explorer::ExplorerState,
    /// What strong players are predicted to play at the position shown.
    pub(crate) human: human::HumanState,
    /// Whether a screenshot is being taken (the play-on game waits for its analysis).
    pub(crate) screenshot: bool,
    /// The caller's time now, in seconds.
    now: f64,
    /// The soonest redraw asked for since the last [`Coach::take_repaint`].
    repaint: Option<Duration>,
    notices: Vec<Notice>,
}

impl Coach {
    /// A coach on `graph` (the whole ECO book) with the learner's `settings`; progress is
    /// loaded from and saved to `progress_file` (in memory only when `None`; a corrupt
    /// file is set aside with a warning).
    ///
    /// The PGN files of `settings.book` are imported again in the background, and the
    /// book is rebuilt when the settings choose other sources or filters than all of ECO.
    /// The drill starts in `settings.drill_mode` when there is a review log (a
    /// progress file), else in free drill.
    pub fn new(
        graph: Arc<PositionGraph>,
        settings: Settings,
        progress_file: Option<PathBuf>,
    ) -> Coach {
        let mut settings = settings;
        // The workspace leaves out the chapters for the side the learner does not play.
        settings.book.side = Some(settings.learner);
        let seed = settings.fixed_seed().unwrap_or_else(rand::random);
        let learner = Color::from(settings.learner);
        let session = Session::new(Arc::clone(&graph), learner, settings.style.clone(), seed);
        let mut workspace = Workspace::with_eco(Arc::clone(&graph), settings.book.clone());
        workspace.restore();
        let review_log = progress_file.as_deref().and_then(review::review_log_path);
        let workshop_dir = progress_file
            .as_deref()
            .and_then(std::path::Path::parent)
            .map(std::path::Path::to_path_buf);
        let progress = ProgressFile::load(progress_file);
        let mut learner_style = LearnerStyleState::new(if rand::random() {
            Adaptation::Solid
        } else {
            Adaptation::Sharp
        });
        // The lines drilled in earlier sessions count for the learner's style.
        for line in &progress.progress().style_lines {
            if let Some((learner, moves)) = line.replay() {
                learner_style.record(&moves, learner);
            }
        }
        let drill_mode = settings.drill_mode;
        let mut coach = Coach {
            workspace,
            graph,
            book_generation: 0,
            chart_generation: 0,
            books_seen: 0,
            orientation: settings
                .orientation
                .unwrap_or(Orientation::from_color(learner)),
            settings,
            session,
            progress,
            reply_due: None,
            last_reply: None,
            message: None,
            explore: None,
            explored: None,
            explorer: explorer::ExplorerState::default(),
            workshop: workshop::WorkshopState::with_data_dir(workshop_dir),
            workshop_gaps: workshop_gaps::GapsState::default(),
            human: human::HumanState::default(),
            report: None,
            coverage: CoverageState::default(),
            coverage_shown: false,
            completed_seen: 0,
            wake: None,
            review: None,
            review_log,
            review_fuzz: true,
            profile: None,
            learner_style,
            missed: missed::MissedState::default(),
            play_on: play_on::PlayOnState::default(),
            make_book: jobs::MakeBookJob::default(),
            check: check::CheckState::default(),
            sides: sides::SidesState::default(),
            move_entry: move_entry::MoveEntryState::default(),
            verdict: verdict::VerdictState::default(),
            screenshot: false,
            now: 0.0,
            repaint: None,
            notices: Vec::new(),
        };
        // The drill mode of the last run, where there is a review log to keep.
        if coach.review_log.is_some() {
            coach.set_drill_mode(drill_mode);
        }
        coach.reopen_workshop();
        coach
    }

    // ----- the caller's side -----

    /// Sets the function background jobs call when they have news (the window asks egui
    /// for a frame).
    pub fn set_wake(&mut self, wake: Wake) {
        self.wake = Some(wake);
    }

    /// Whether a wake-up function was set.
    pub fn has_wake(&self) -> bool {
        self.wake.is_some()
    }

    /// The wake-up function for a new job (a no-op before one was set).
    pub(crate) fn wake(&self) -> Wake {
        self.wake.clone().unwrap_or_else(|| Arc::new(|| {}))
    }

    /// Sets the time now, in seconds since any fixed start (the window's clock).
    pub fn set_time(&mut self, now: f64) {
        self.now = now;
    }

    /// The time last set.
    pub fn time(&self) -> f64 {
        self.now
    }

    /// How soon the caller should call [`Coach::logic`] again (and redraw), if at all;
    /// cleared by the call.
    pub fn take_repaint(&mut self) -> Option<Duration> {
        self.repaint.take()
    }

    /// What the window should do beyond redrawing; cleared by the call.
    pub fn take_notices(&mut self) -> Vec<Notice> {
        std::mem::take(&mut self.notices)
    }

    /// Asks for a redraw now.
    pub(crate) fn request_repaint(&mut self) {
        self.repaint = Some(Duration::ZERO);
    }

    /// Asks for a redraw after `after` (the sooner of this and any earlier request).
    pub(crate) fn request_repaint_after(&mut self, after: Duration) {
        self.repaint = Some(self.repaint.map_or(after, |d| d.min(after)));
    }

    pub(crate) fn notify(&mut self, notice: Notice) {
        self.notices.push(notice);
    }

    /// Tells the coach whether the Coverage tab is shown: its exposure is computed (and
    /// kept up to date) only then.
    pub fn set_coverage_shown(&mut self, shown: bool) {
        self.coverage_shown = shown;
    }

    /// Counts the changes that invalidate a chart computed earlier (a finished
    /// exploration, other books).
    pub fn chart_generation(&self) -> u64 {
        self.chart_generation
    }

    pub(crate) fn invalidate_chart(&mut self) {
        self.chart_generation += 1;
    }

    // ----- reading -----

    /// The book's sources.
    pub fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    /// The book the drill uses.
    pub fn graph(&self) -> &Arc<PositionGraph> {
        &self.graph
    }

    /// Counts the books drilled on (a new book, a gap drill).
    pub fn book_generation(&self) -> u64 {
        self.book_generation
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

    /// The computer's last reply, while it is the last move.
    pub fn last_reply(&self) -> Option<&Reply> {
        self.last_reply.as_ref()
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

    /// Whether an exploration is running.
    pub fn is_exploring(&self) -> bool {
        self.explore.is_some()
    }

    /// The running exploration: lines sampled so far, in all, and its seed.
    pub fn explore_progress(&self) -> Option<(u64, u32, u64)> {
        self.explore.as_ref().map(|r| (r.done(), r.total, r.seed))
    }

    /// The last finished exploration, if any.
    pub fn explored(&self) -> Option<&Explored> {
        self.explored.as_ref()
    }

    /// Whether files are being loaded or the book is being built.
    pub fn is_loading(&self) -> bool {
        self.workspace.is_busy()
    }

    /// Whether any background work runs (the screenshot waits for it).
    pub fn is_busy(&mut self) -> bool {
        self.explore.is_some()
            || self.is_loading()
            || self.coverage.job.is_some()
            || self.play_on_busy()
            || self.verdict_busy()
            || (self.screenshot && self.is_predicting_human_moves())
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

    /// The learner's style as the panel shows it: recomputed from the loaded files when
    /// they or the learner's name changed.
    pub fn learner_style_state(&mut self) -> &LearnerStyleState {
        self.learner_style
            .refresh(&self.workspace, &self.settings.learner_name);
        &self.learner_style
    }

    /// The learner's most likely style class and the posterior.
    pub fn learner_style_class(&self) -> Option<(Posterior, StyleClass)> {
        self.learner_style.posterior().map(|p| (p, p.class()))
    }

    /// The adaptive opponent's pick for a mixed learner in this session.
    pub fn adaptation_coin(&self) -> Adaptation {
        self.learner_style.coin
    }

    // ----- each frame -----

    /// The non-drawing work of a frame: finished jobs, the computer's reply when it is
    /// due, completed lines.
    pub fn logic(&mut self) {
        if let Some(run) = &self.explore
            && let Some(done) = run.poll()
        {
            self.explore = None;
            if let Some(explored) = done {
                self.explored = Some(explored);
                self.invalidate_chart();
            }
        } else if self.explore.is_some() {
            self.request_repaint_after(Duration::from_millis(50));
        }
        self.poll_workspace();
        self.poll_coverage();
        self.poll_check();
        if let Some(book) = self.make_book.poll() {
            self.workspace
                .open(vec![book], crate::workspace::FileMode::Auto);
        }
        if self.play_on.is_active() {
            self.play_on_logic();
        } else {
            self.computer_reply();
        }
        self.review_logic();
        self.verdict_logic();
        self.record_completions();
        self.progress.poll();
        self.refresh_missed();
        self.refresh_explorer();
        self.refresh_human();
        self.workshop_logic();
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
            if shakmaty::Position::board(self.session.position_at(0))
                == shakmaty::Position::board(&shakmaty::Chess::default())
            {
                let moves: Vec<Move> = self.session.moves().iter().map(|m| m.mv).collect();
                self.learner_style.record(&moves, self.session.learner());
                self.progress
                    .progress_mut()
                    .record_style_line(&moves, self.session.learner());
            }
            self.progress.save();
            self.adapt_style();
        }
        self.completed_seen = done;
    }

    /// With the adaptive opponent on, sets the computer's style to the answer to the
    /// learner's style (BayesChess's adaptive opponent); the style panel shows the result.
    pub(crate) fn adapt_style(&mut self) {
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

    fn computer_reply(&mut self) {
        if !self.session.reply_pending() || self.session.viewing().is_some() {
            self.reply_due = None;
            return;
        }
        let now = self.now;
        let Some(due) = self.reply_due else {
            // The learner's move is drawn at least once before the reply, even with no delay.
            let delay = f64::from(self.settings.reply_delay_ms) / 1000.0;
            self.reply_due = Some(now + delay);
            self.request_repaint_after(Duration::from_secs_f64(delay));
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
                self.animate(reply.candidate.mv);
                self.last_reply = Some(reply);
                self.drill_move_sound();
            }
            self.request_repaint();
        } else {
            self.request_repaint_after(Duration::from_secs_f64(due - now));
        }
    }

    /// Asks the window to let `mv` glide to its square, when the settings say so.
    pub(crate) fn animate(&mut self, mv: Move) {
        if self.settings.animate_moves {
            self.notify(Notice::Animate(mv));
            self.request_repaint();
        }
    }

    /// Saves what must outlive the run: the settings' book choice, the progress, the
    /// reviews (what the window does when eframe saves).
    pub fn save(&mut self) {
        self.settings.book = self.workspace.choice().clone();
        self.progress.save_now();
        self.save_reviews();
    }

    /// Stops the background work and saves (the window is closing).
    pub fn shut_down(&mut self) {
        if let Some(run) = &self.explore {
            run.cancel();
        }
        self.workspace.cancel_all();
        self.workshop.close();
        self.progress.save_now();
        self.end_review();
    }
}
