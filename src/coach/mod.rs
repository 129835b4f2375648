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
//! The coach is a [`Context`] (what every feature shares: settings, books, the drill,
//! progress, the clock, notices, the redraw asked for) and one state per feature. A
//! feature's state takes its commands and is polled with the context; what one feature
//! asks of another is an [`Event`] sent through the context, which the coach carries
//! out once the sender is done ([`Coach::apply`], [`Coach::logic`]).
//!
//! - [`context`]: the shared state, the events and the `Grading` trait (what the
//!   drill asks of review mode); [`notice`]: what the window is asked to do;
//!   [`command`]: what the user can ask; [`settings`]: what is saved between runs;
//!   [`board_look`]: the board's theme, pieces and coordinates.
//! - Feature folders, each a state with its commands and its frame's work: [`drill`]:
//!   the drill's state and its own commands (moves, hints, take back, the computer's
//!   reply); [`review`]: review mode, its log and fitting the memory model; [`book`]:
//!   the Book tab (files opened, imports, a rebuilt book, the import report, export);
//!   [`coverage`]: the Coverage tab (exposure, gap drills, compare my games, the
//!   most-missed positions); [`check`]: the engine check of the repertoire;
//!   [`repertoire`]: the repertoire editor, its book and gaps, "Train this";
//!   [`explorer`]: the Explorer tab and its game window; [`predictor`]: what strong
//!   players are predicted to play at the position shown; [`sampled_lines`]: the
//!   chart's "Explore"; [`jobs`]: making a Polyglot book; [`style`]: the learner's
//!   style, profiles, the adaptive opponent, the sides; [`play_on`]: playing on
//!   against an engine; [`verdict`]: a move outside the book judged by an engine.
//! - `features.rs` (`Features`): the features side by side and the dispatch between
//!   them: each [`Command`] goes to its feature ([`command::Route`](self::command));
//!   what crosses features (the drill's moves and actions, a new line, the colour) is
//!   carried out there with the features' functions, and the [`Event`]s features send
//!   each other are handed on there. This file is the coach's face: what the window,
//!   the CLI and the tests call, and what they read.
//! - Shared: [`action`]: the buttons' commands, their text and tooltips; [`sounds`]:
//!   which sound a move makes; [`moves`], [`format`](mod@format).

pub mod action;
pub mod board_look;
pub mod book;
pub mod check;
pub mod command;
pub mod context;
pub mod coverage;
pub mod drill;
pub mod explorer;
mod features;
pub mod format;
pub mod jobs;
pub mod moves;
pub mod notice;
pub mod play_on;
pub mod predictor;
pub mod repertoire;
pub mod review;
pub mod sampled_lines;
pub mod settings;
pub mod sounds;
pub mod style;
pub mod verdict;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use shakmaty::{Color, Move};

use self::coverage::CoverageState;
use self::features::Features;
use self::settings::{Orientation, Settings};
use self::style::LearnerStyleState;
use crate::book::PositionGraph;
use crate::job::Wake;
use crate::trainer::Session;
use crate::trainer::progress::Progress;
use crate::trainer::verdict::checker::{CheckEngine, SharedStore};
use crate::workspace::store::ProgressFile;
use crate::workspace::{Workspace, WorkspaceError};

pub use self::command::{Action, Command, DrillBook};
pub use self::context::{BoardShown, Context, Event};
pub use self::notice::Notice;
pub use self::sounds::Sound;

/// The trainer's state and what it does, without a window: the shared [`Context`] and
/// one state per feature (`Features`, in `features.rs`).
pub struct Coach {
    /// What every feature shares: settings, books, the drill, progress, clock, notices.
    pub(crate) ctx: Context,
    /// One state per feature, and the dispatch between them.
    features: Features,
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
        let mut session = Session::new(Arc::clone(&graph), learner, settings.style.clone(), seed);
        let mut workspace = Workspace::with_eco(Arc::clone(&graph), settings.book.clone());
        workspace.restore();
        // The popularity from the first reply on: the drill takes the books again only
        // when they change, and the built-in games book is no change.
        let popularity = settings.book.drill_popularity();
        if popularity != crate::sampler::Popularity::Lines {
            session.set_books(workspace.books(), popularity);
        }
        let review_log = progress_file.as_deref().and_then(review::review_log_path);
        let data_dir = progress_file
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf);
        let progress = ProgressFile::load(progress_file);
        let style = style::StyleState::new(progress.progress());
        let repertoire = repertoire::RepertoireTab::with_data_dir(data_dir);
        let mut ctx = Context::new(settings, workspace, graph, session, progress, review_log);
        let features = Features::start(style, repertoire, &mut ctx);
        Coach { ctx, features }
    }

    // ----- the caller's side -----

    /// Sets the function background jobs call when they have news (the window asks egui
    /// for a frame).
    pub fn set_wake(&mut self, wake: Wake) {
        self.ctx.wake = Some(wake);
    }

    /// Whether a wake-up function was set.
    pub fn has_wake(&self) -> bool {
        self.ctx.wake.is_some()
    }

    /// Sets the time now, in seconds since any fixed start (the window's clock).
    pub fn set_time(&mut self, now: f64) {
        self.ctx.now = now;
    }

    /// The time last set.
    pub fn time(&self) -> f64 {
        self.ctx.now
    }

    /// How soon the caller should call [`Coach::logic`] again (and redraw), if at all;
    /// cleared by the call.
    pub fn take_repaint(&mut self) -> Option<Duration> {
        self.ctx.repaint.take()
    }

    /// What the window should do beyond redrawing; cleared by the call.
    pub fn take_notices(&mut self) -> Vec<Notice> {
        std::mem::take(&mut self.ctx.notices)
    }

    // ----- the context -----

    /// Counts the changes that invalidate a chart computed earlier (a finished
    /// exploration, other books).
    pub fn chart_generation(&self) -> u64 {
        self.ctx.chart_generation
    }

    /// The book's sources.
    pub fn workspace(&self) -> &Workspace {
        &self.ctx.workspace
    }

    /// The book the drill uses.
    pub fn graph(&self) -> &Arc<PositionGraph> {
        &self.ctx.graph
    }

    /// Counts the books drilled on (a new book, a gap drill).
    pub fn book_generation(&self) -> u64 {
        self.ctx.book_generation
    }

    /// Whether the book is only the learner's repertoire.
    pub fn is_repertoire(&self) -> bool {
        self.ctx.workspace.is_repertoire()
    }

    /// Whether files are being loaded or the book is being built.
    pub fn is_loading(&self) -> bool {
        self.ctx.workspace.is_busy()
    }

    /// How many chosen chapters are for each side.
    pub fn chapter_sides(&self) -> crate::workspace::chapters::Sides {
        self.ctx.workspace.sides()
    }

    /// The learner's repertoire file in use (the first loaded as a repertoire and
    /// enabled in the book), which "Add answer" adds lines to a copy of.
    pub fn repertoire_file(&self) -> Option<PathBuf> {
        coverage::repertoire_file(&self.ctx.workspace)
    }

    /// The learner's progress.
    pub fn progress(&self) -> &Progress {
        self.ctx.progress.progress()
    }

    /// The warning about the progress file (set aside, not saved), if any.
    pub fn progress_warning(&self) -> Option<&str> {
        self.ctx.progress.warning()
    }

    /// The drill.
    pub fn session(&self) -> &Session {
        &self.ctx.session
    }

    /// The learner's settings.
    pub fn settings(&self) -> &Settings {
        &self.ctx.settings
    }

    /// The learner's settings, to change them as the panels would (tests set the seed here).
    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.ctx.settings
    }

    /// The board's orientation.
    pub fn orientation(&self) -> Orientation {
        self.ctx.orientation
    }

    /// What the Coverage tab computes with: depth, threshold, whose games.
    pub fn coverage_params(&self) -> &coverage::CoverageParams {
        &self.ctx.settings.coverage
    }

    /// The message shown in the drill panel, if any (what happened last).
    pub fn message(&self) -> Option<&str> {
        self.ctx.message.as_deref()
    }

    // ----- the features' states (their readers are the features') -----

    /// The Book tab: the import report shown.
    pub fn book(&self) -> &book::BookState {
        &self.features.book
    }

    /// The Book tab's state, to change (whether My repertoires is shown).
    pub fn book_mut(&mut self) -> &mut book::BookState {
        &mut self.features.book
    }

    /// The drill's own state: the move box.
    pub fn drill(&self) -> &drill::DrillState {
        &self.features.drill
    }

    /// Review mode: the drill mode, the review drill and its log, the optimiser.
    pub fn review(&self) -> &review::ReviewState {
        &self.features.review
    }

    /// Review mode, to set the fuzz of its intervals (tests).
    pub fn review_mut(&mut self) -> &mut review::ReviewState {
        &mut self.features.review
    }

    /// The Repertoire tab's editor.
    pub fn repertoire(&self) -> &repertoire::RepertoireState {
        &self.features.repertoire.editor
    }

    /// The Repertoire tab's book: the exposure, what is missing at the cursor.
    pub fn repertoire_gaps(&self) -> &repertoire::GapsState {
        &self.features.repertoire.gaps
    }

    /// The Repertoire tab, to say whether it is shown or where its backups go.
    pub fn repertoire_mut(&mut self) -> &mut repertoire::RepertoireTab {
        &mut self.features.repertoire
    }

    /// The Explorer tab.
    pub fn explorer(&self) -> &explorer::ExplorerState {
        &self.features.explorer
    }

    /// What strong players are predicted to play at the position shown.
    pub fn predictor(&self) -> &predictor::PredictorState {
        &self.features.predictor
    }

    /// Playing on: the game while the learner plays on, the panel's notice, its PGN.
    pub fn play_on(&self) -> &play_on::PlayOnState {
        &self.features.play_on
    }

    /// The engine's verdict on the learner's move outside the book, and its checker.
    pub fn verdict(&self) -> &verdict::VerdictState {
        &self.features.verdict
    }

    /// The chart's "Explore": the running exploration and the last finished one.
    pub fn sampled_lines(&self) -> &sampled_lines::SampledLinesState {
        &self.features.sampled_lines
    }

    /// The style feature: the profile loaded, the learner's style, the sides.
    pub fn style(&self) -> &style::StyleState {
        &self.features.style
    }

    /// The check's state, for the Coverage tab.
    pub fn check_state(&self) -> &check::CheckState {
        &self.features.check
    }

    /// The check's state, for tests that wait for it.
    pub fn check_state_mut(&mut self) -> &mut check::CheckState {
        &mut self.features.check
    }

    /// The Coverage tab: its parameters, the exposure, compare my games, a gap drill,
    /// the most-missed positions.
    pub fn coverage(&self) -> &CoverageState {
        &self.features.coverage
    }

    /// The Coverage tab, to say whether it is shown or to wait for its jobs (tests).
    pub fn coverage_mut(&mut self) -> &mut CoverageState {
        &mut self.features.coverage
    }

    /// The jobs feature: "Make a book…".
    pub fn jobs(&self) -> &jobs::MakeBookJob {
        &self.features.jobs
    }

    // ----- what reads a feature and the context -----

    /// Whether a verdict on the move outside the book is on its way.
    pub fn is_checking_move(&self) -> bool {
        self.features.verdict.is_checking(&self.ctx)
    }

    /// Whether the move checker is analysing the book's moves ahead of the learner's
    /// move.
    pub fn is_analysing_ahead(&self) -> bool {
        self.features.verdict.is_analysing_ahead(&self.ctx)
    }

    /// The legal moves matching `typed` where a typed move would be played now; none
    /// while no move can be entered (the computer's turn, an earlier position shown).
    pub fn move_completions(&self, typed: &str) -> Vec<crate::trainer::move_entry::Completion> {
        self.features
            .entry_position(&self.ctx)
            .map(|pos| crate::trainer::move_entry::completions(&pos, typed))
            .unwrap_or_default()
    }

    /// The learner's style as the panel shows it: recomputed from the loaded files when
    /// they or the learner's name changed.
    pub fn learner_style_state(&mut self) -> &LearnerStyleState {
        let name = &self.ctx.settings.learner_name;
        self.features
            .style
            .learner
            .refresh(&self.ctx.workspace, name);
        &self.features.style.learner
    }

    /// The key of the position after `ply` moves of the drill.
    pub fn chart_key(&self, ply: usize) -> sampled_lines::ChartKey {
        sampled_lines::chart_key(&self.ctx, ply)
    }

    /// Whether any background work runs (the screenshot waits for it).
    pub fn is_busy(&mut self) -> bool {
        self.features.sampled_lines.is_running()
            || self.is_loading()
            || self.features.coverage.job.is_some()
            || self.features.play_on.busy(&self.ctx)
            || self.features.verdict.busy(&self.ctx)
            || (self.ctx.screenshot && self.features.predictor.is_running())
            || (self.ctx.screenshot && self.features.explorer.is_evaluating())
            || self.features.explorer.build().progress().is_some()
            || self.features.book.repertoires().is_counting()
            || self.features.review.reach().is_counting()
    }

    /// Whether `action` can be used now (its button is enabled, its shortcut works).
    pub fn is_enabled(&self, action: Action) -> bool {
        self.features.is_enabled(action, &self.ctx)
    }

    /// Whether the board is drawn without its pieces (blindfold training): the drill's
    /// session hides them (past the move set, no mistake shown) and review mode is not
    /// teaching a line or a card (a new line is shown with its pieces).
    pub fn hides_pieces(&self) -> bool {
        self.ctx.session.hides_pieces()
            && !self.features.play_on.is_active()
            && !self.features.review.drill().is_some_and(|d| d.teaches())
    }

    /// Why the book is empty, if it is: no source ticked, or a filter leaving no line.
    pub fn empty_book(&self) -> Option<book::empty::EmptyBook> {
        book::empty::empty_book(&self.ctx)
    }

    // ----- what tests, the screenshot and the window's shell call -----

    /// Files were chosen in the file dialog or dropped on the window: Polyglot books
    /// (`.bin`) become sources at once; the PGN files are returned (the window asks how
    /// to read them).
    pub fn open_files(&mut self, paths: Vec<PathBuf>) -> Vec<PathBuf> {
        self.features.book.open_files(paths, &mut self.ctx)
    }

    /// Waits until every import and graph build has finished and applies the results,
    /// as the frames would one by one. For tests and the screenshot mode; the window
    /// itself never waits.
    pub fn finish_loading(&mut self) {
        while self.ctx.workspace.is_busy() {
            self.features.book.wait(&mut self.ctx);
            self.features.run_events(&mut self.ctx);
        }
    }

    /// Waits until the pasted text is read and uses it (games asked how to read, moves
    /// drilled from), as the frames would (tests; the window never waits).
    pub fn finish_paste(&mut self) {
        self.features.book.poll_paste(&mut self.ctx, true);
        self.features.run_events(&mut self.ctx);
    }

    /// Writes what `what` exports to `path` as PGN; returns the number of games.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::NothingToExport`] when there is nothing to export, else why
    /// writing failed.
    pub fn export_to(
        &self,
        what: command::ExportWhat,
        path: &Path,
    ) -> Result<usize, WorkspaceError> {
        book::export_to(what, path, &self.ctx)
    }

    /// For the screenshot: review mode on the review log beside `progress_file` (read
    /// only: the screenshot grades nothing), the Progress tab shown.
    pub fn show_review_progress(&mut self, progress_file: Option<PathBuf>) {
        self.features
            .review
            .show_progress(progress_file, &mut self.ctx);
    }

    /// Computes the Repertoire tab's exposure now when it is not up to date, and waits
    /// for it (tests; "Next gap" and "Train this" wait for it in the frames).
    pub fn finish_repertoire_gaps(&mut self) {
        self.features.share_explorer_games(&mut self.ctx);
        self.features.repertoire.finish_gaps(&mut self.ctx);
        self.features.run_events(&mut self.ctx);
    }

    /// Waits until the explorer being built (or added to) is written and opens it, as
    /// the frames would (tests; the window never waits).
    pub fn finish_explorer_build(&mut self) {
        self.features.explorer.poll_build(&mut self.ctx, true);
    }

    /// Waits until the game the Explorer tab's game window reads is shown, as the
    /// frames would (tests; the window never waits).
    pub fn finish_explorer_game(&mut self) {
        self.features.explorer.finish_game();
    }

    /// For the screenshot (`--tab play-on`): the learner plays the side that is not to
    /// move after the moves shown, so the engine moves first; the arrow is on.
    pub fn show_play_on(&mut self) {
        self.features.play_on.show(&mut self.ctx);
    }

    /// Checks moves outside the book with `engine`, searching each position within
    /// `limits` (the window: [`CHECK_TIME`](crate::trainer::verdict::checker::CHECK_TIME))
    /// and keeping the analyses in `store`, which should hold that engine's at those
    /// limits (`None`: the data folder's cache for them, as by default). The engine
    /// starts when the learner is next to move (one already started is stopped).
    pub fn set_move_checker(
        &mut self,
        engine: CheckEngine,
        store: Option<SharedStore>,
        limits: crate::engine::Limits,
    ) {
        self.features.verdict = verdict::VerdictState::with_checker(engine, store, limits);
    }

    /// Has the Explorer tab's moves evaluated by `engine`, each search within `limits`
    /// (by default the move checker's engine and limit), the analyses kept in the move
    /// checker's store.
    pub fn set_explorer_engine(&mut self, engine: CheckEngine, limits: crate::engine::Limits) {
        self.features
            .explorer
            .set_evals(explorer::ExplorerEvals::new(Some(engine), limits));
    }

    /// Keeps the move checker's analyses in `store` from now on (the workspace's cache
    /// on disk); the engine stays as chosen.
    pub fn set_analysis_store(&mut self, store: SharedStore) {
        self.features.verdict.set_store(store);
    }

    /// Waits until the book being made is written and adds it as a source, as the
    /// frames would (tests; the window never waits).
    pub fn finish_making_book(&mut self) {
        self.features.jobs.finish(&mut self.ctx);
    }

    /// Starts sampling lines from the position shown on a background thread.
    pub fn start_explore(&mut self) {
        self.features.sampled_lines.start(&mut self.ctx);
    }

    /// Loads the style profile at `path` and uses its style; with `add_games`, the games
    /// of a fitted profile are added to the book as a game collection ("Play like …").
    ///
    /// # Errors
    ///
    /// [`ProfileFileError`](crate::workspace::profiles::ProfileFileError) (file, line,
    /// column, why) when the file is not a profile; nothing changes then.
    pub fn load_profile(
        &mut self,
        path: &Path,
        add_games: bool,
    ) -> Result<(), crate::workspace::profiles::ProfileFileError> {
        self.features
            .style
            .load_profile(path, add_games, &mut self.ctx)
    }

    /// Sets up the drill to show `moves` (for the screenshot): the learner plays the
    /// side to move after them, so no reply is pending; seed 1, book arrows on, no
    /// animation, the chart shown. When only the last move leaves the book, the learner
    /// plays it after the others: the board shows it out of book, with its verdict.
    pub fn show_moves(&mut self, moves: &[Move]) {
        if let Ok(attempt) = drill::commands::show_moves(moves, &mut self.ctx) {
            self.features.sync_books(&mut self.ctx);
            if let Some(mv) = attempt {
                self.ctx.session.play(mv);
            }
        }
    }

    /// Saves what must outlive the run: the settings' book choice, the progress, the
    /// reviews (what the window does when eframe saves).
    pub fn save(&mut self) {
        self.ctx.settings.book = self.ctx.workspace.choice().clone();
        self.ctx.progress.save_now();
        self.features.review.save_reviews();
    }

    /// Stops the background work and saves (the window is closing).
    pub fn shut_down(&mut self) {
        self.features.sampled_lines.cancel();
        self.ctx.workspace.cancel_all();
        self.features.repertoire.editor.close();
        self.ctx.progress.save_now();
        self.features.review.end(&mut self.ctx);
    }

    // ----- dispatch -----

    /// Carries out one command, and what it asks of other features.
    pub fn apply(&mut self, command: Command) {
        self.features.apply(command, &mut self.ctx);
    }

    /// The non-drawing work of a frame: finished jobs, the computer's reply when it is
    /// due, completed lines.
    pub fn logic(&mut self) {
        self.features.logic(&mut self.ctx);
    }
}
