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
//! - The dispatch is here: each [`Command`] goes to its feature
//!   ([`command::Route`](self::command)); what crosses features (the drill's moves
//!   and actions, a new line, the colour) is carried out here with the features'
//!   functions, and the [`Event`]s features send each other are handed on here.
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

use self::command::Route;
use self::coverage::CoverageState;
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
/// one state per feature.
pub struct Coach {
    /// What every feature shares: settings, books, the drill, progress, clock, notices.
    pub(crate) ctx: Context,
    /// The drill's own state beside the session: the reply due, completions recorded.
    pub(crate) drill: drill::DrillState,
    /// The chart's "Explore": lines sampled on a thread.
    pub(crate) sampled_lines: sampled_lines::SampledLinesState,
    /// The Book tab: the import report shown.
    pub(crate) book: book::BookState,
    /// The Coverage tab's parameters and jobs, compare my games, the missed positions.
    pub(crate) coverage: CoverageState,
    /// Review mode, when it is on.
    pub(crate) review: review::ReviewState,
    /// The learner's style, the profile loaded, the sides of the repertoires.
    pub(crate) style: style::StyleState,
    /// Playing on against an engine after the book.
    pub(crate) play_on: play_on::PlayOnState,
    /// The jobs feature: "Make a book…".
    pub(crate) jobs: jobs::MakeBookJob,
    /// "Check with an engine" (Coverage tab).
    pub(crate) check: check::CheckState,
    /// The engine's verdict on a move outside the book.
    pub(crate) verdict: verdict::VerdictState,
    /// The Repertoire tab: the file being edited and its book.
    pub(crate) repertoire: repertoire::RepertoireTab,
    /// The Explorer tab: the open index, its filter, the moves on the board.
    pub(crate) explorer: explorer::ExplorerState,
    /// What strong players are predicted to play at the position shown.
    pub(crate) predictor: predictor::PredictorState,
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
        let drill_mode = settings.drill_mode;
        let mut coach = Coach {
            ctx: Context::new(settings, workspace, graph, session, progress, review_log),
            drill: drill::DrillState::default(),
            sampled_lines: sampled_lines::SampledLinesState::default(),
            book: book::BookState::default(),
            coverage: CoverageState::default(),
            review: review::ReviewState::default(),
            style,
            play_on: play_on::PlayOnState::default(),
            jobs: jobs::MakeBookJob::default(),
            check: check::CheckState::default(),
            verdict: verdict::VerdictState::default(),
            repertoire: repertoire::RepertoireTab::with_data_dir(data_dir),
            explorer: explorer::ExplorerState::default(),
            predictor: predictor::PredictorState::default(),
        };
        // The drill mode of the last run, where there is a review log to keep.
        if coach.ctx.review_log.is_some() {
            coach.review.set_drill_mode(drill_mode, &mut coach.ctx);
        }
        coach.repertoire.reopen(&mut coach.ctx);
        coach.explorer.reopen(&mut coach.ctx);
        coach.check.restore(&coach.ctx);
        coach
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
        &self.book
    }

    /// The Book tab's state, to change (whether My repertoires is shown).
    pub fn book_mut(&mut self) -> &mut book::BookState {
        &mut self.book
    }

    /// The drill's own state: the move box.
    pub fn drill(&self) -> &drill::DrillState {
        &self.drill
    }

    /// Review mode: the drill mode, the review drill and its log, the optimiser.
    pub fn review(&self) -> &review::ReviewState {
        &self.review
    }

    /// Review mode, to set the fuzz of its intervals (tests).
    pub fn review_mut(&mut self) -> &mut review::ReviewState {
        &mut self.review
    }

    /// The Repertoire tab's editor.
    pub fn repertoire(&self) -> &repertoire::RepertoireState {
        &self.repertoire.editor
    }

    /// The Repertoire tab's book: the exposure, what is missing at the cursor.
    pub fn repertoire_gaps(&self) -> &repertoire::GapsState {
        &self.repertoire.gaps
    }

    /// The Repertoire tab, to say whether it is shown or where its backups go.
    pub fn repertoire_mut(&mut self) -> &mut repertoire::RepertoireTab {
        &mut self.repertoire
    }

    /// The Explorer tab.
    pub fn explorer(&self) -> &explorer::ExplorerState {
        &self.explorer
    }

    /// What strong players are predicted to play at the position shown.
    pub fn predictor(&self) -> &predictor::PredictorState {
        &self.predictor
    }

    /// Playing on: the game while the learner plays on, the panel's notice, its PGN.
    pub fn play_on(&self) -> &play_on::PlayOnState {
        &self.play_on
    }

    /// The engine's verdict on the learner's move outside the book, and its checker.
    pub fn verdict(&self) -> &verdict::VerdictState {
        &self.verdict
    }

    /// The chart's "Explore": the running exploration and the last finished one.
    pub fn sampled_lines(&self) -> &sampled_lines::SampledLinesState {
        &self.sampled_lines
    }

    /// The style feature: the profile loaded, the learner's style, the sides.
    pub fn style(&self) -> &style::StyleState {
        &self.style
    }

    /// The check's state, for the Coverage tab.
    pub fn check_state(&self) -> &check::CheckState {
        &self.check
    }

    /// The check's state, for tests that wait for it.
    pub fn check_state_mut(&mut self) -> &mut check::CheckState {
        &mut self.check
    }

    /// The Coverage tab: its parameters, the exposure, compare my games, a gap drill,
    /// the most-missed positions.
    pub fn coverage(&self) -> &CoverageState {
        &self.coverage
    }

    /// The Coverage tab, to say whether it is shown or to wait for its jobs (tests).
    pub fn coverage_mut(&mut self) -> &mut CoverageState {
        &mut self.coverage
    }

    /// The jobs feature: "Make a book…".
    pub fn jobs(&self) -> &jobs::MakeBookJob {
        &self.jobs
    }

    // ----- what reads a feature and the context -----

    /// Whether a verdict on the move outside the book is on its way.
    pub fn is_checking_move(&self) -> bool {
        self.verdict.is_checking(&self.ctx)
    }

    /// Whether the move checker is analysing the book's moves ahead of the learner's
    /// move.
    pub fn is_analysing_ahead(&self) -> bool {
        self.verdict.is_analysing_ahead(&self.ctx)
    }

    /// The legal moves matching `typed` where a typed move would be played now; none
    /// while no move can be entered (the computer's turn, an earlier position shown).
    pub fn move_completions(&self, typed: &str) -> Vec<crate::trainer::move_entry::Completion> {
        self.entry_position()
            .map(|pos| crate::trainer::move_entry::completions(&pos, typed))
            .unwrap_or_default()
    }

    /// The position a typed move is played in (the board's), or why none can be now.
    fn entry_position(&self) -> Result<shakmaty::Chess, &'static str> {
        let playing_on = self.play_on.game().map(|run| run.game());
        drill::move_entry::entry_position(&self.ctx.session, playing_on)
    }

    /// The learner's style as the panel shows it: recomputed from the loaded files when
    /// they or the learner's name changed.
    pub fn learner_style_state(&mut self) -> &LearnerStyleState {
        let name = &self.ctx.settings.learner_name;
        self.style.learner.refresh(&self.ctx.workspace, name);
        &self.style.learner
    }

    /// The key of the position after `ply` moves of the drill.
    pub fn chart_key(&self, ply: usize) -> sampled_lines::ChartKey {
        sampled_lines::chart_key(&self.ctx, ply)
    }

    /// Whether any background work runs (the screenshot waits for it).
    pub fn is_busy(&mut self) -> bool {
        self.sampled_lines.is_running()
            || self.is_loading()
            || self.coverage.job.is_some()
            || self.play_on.busy(&self.ctx)
            || self.verdict.busy(&self.ctx)
            || (self.ctx.screenshot && self.predictor.is_running())
            || (self.ctx.screenshot && self.explorer.is_evaluating())
            || self.explorer.build().progress().is_some()
            || self.book.repertoires().is_counting()
            || self.review.reach().is_counting()
    }

    /// Whether `action` can be used now (its button is enabled, its shortcut works).
    pub fn is_enabled(&self, action: Action) -> bool {
        // With no line in the book there is no next line and nothing to play on from.
        let needs_lines = matches!(action, Action::NextLine | Action::PlayOn);
        drill::commands::is_enabled(action, &self.ctx, self.play_on.game())
            && !(needs_lines && self.empty_book().is_some())
    }

    /// Whether the board is drawn without its pieces (blindfold training): the drill's
    /// session hides them (past the move set, no mistake shown) and review mode is not
    /// teaching a line or a card (a new line is shown with its pieces).
    pub fn hides_pieces(&self) -> bool {
        self.ctx.session.hides_pieces()
            && !self.play_on.is_active()
            && !self.review.drill().is_some_and(|d| d.teaches())
    }

    /// Why the book is empty, if it is: no source ticked, or a filter leaving no line.
    pub fn empty_book(&self) -> Option<book::empty::EmptyBook> {
        book::empty::empty_book(&self.ctx)
    }

    /// The board the window shows, as the features that follow it read it.
    fn board_shown(&self) -> BoardShown {
        let playing_on = self.play_on.game().map(|run| run.game().position().clone());
        self.ctx.board_shown(playing_on, self.review.is_on())
    }

    // ----- what tests, the screenshot and the window's shell call -----

    /// Files were chosen in the file dialog or dropped on the window: Polyglot books
    /// (`.bin`) become sources at once; the PGN files are returned (the window asks how
    /// to read them).
    pub fn open_files(&mut self, paths: Vec<PathBuf>) -> Vec<PathBuf> {
        self.book.open_files(paths, &mut self.ctx)
    }

    /// Waits until every import and graph build has finished and applies the results,
    /// as the frames would one by one. For tests and the screenshot mode; the window
    /// itself never waits.
    pub fn finish_loading(&mut self) {
        while self.ctx.workspace.is_busy() {
            self.book.wait(&mut self.ctx);
            self.run_events();
        }
    }

    /// Waits until the pasted text is read and uses it (games asked how to read, moves
    /// drilled from), as the frames would (tests; the window never waits).
    pub fn finish_paste(&mut self) {
        self.book.poll_paste(&mut self.ctx, true);
        self.run_events();
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
        self.review.show_progress(progress_file, &mut self.ctx);
    }

    /// Computes the Repertoire tab's exposure now when it is not up to date, and waits
    /// for it (tests; "Next gap" and "Train this" wait for it in the frames).
    pub fn finish_repertoire_gaps(&mut self) {
        self.share_explorer_games();
        self.repertoire.finish_gaps(&mut self.ctx);
        self.run_events();
    }

    /// Waits until the explorer being built (or added to) is written and opens it, as
    /// the frames would (tests; the window never waits).
    pub fn finish_explorer_build(&mut self) {
        self.explorer.poll_build(&mut self.ctx, true);
    }

    /// Waits until the game the Explorer tab's game window reads is shown, as the
    /// frames would (tests; the window never waits).
    pub fn finish_explorer_game(&mut self) {
        self.explorer.finish_game();
    }

    /// For the screenshot (`--tab play-on`): the learner plays the side that is not to
    /// move after the moves shown, so the engine moves first; the arrow is on.
    pub fn show_play_on(&mut self) {
        self.play_on.show(&mut self.ctx);
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
        self.verdict = verdict::VerdictState::with_checker(engine, store, limits);
    }

    /// Has the Explorer tab's moves evaluated by `engine`, each search within `limits`
    /// (by default the move checker's engine and limit), the analyses kept in the move
    /// checker's store.
    pub fn set_explorer_engine(&mut self, engine: CheckEngine, limits: crate::engine::Limits) {
        self.explorer
            .set_evals(explorer::ExplorerEvals::new(Some(engine), limits));
    }

    /// Keeps the move checker's analyses in `store` from now on (the workspace's cache
    /// on disk); the engine stays as chosen.
    pub fn set_analysis_store(&mut self, store: SharedStore) {
        self.verdict.set_store(store);
    }

    /// Waits until the book being made is written and adds it as a source, as the
    /// frames would (tests; the window never waits).
    pub fn finish_making_book(&mut self) {
        self.jobs.finish(&mut self.ctx);
    }

    /// Starts sampling lines from the position shown on a background thread.
    pub fn start_explore(&mut self) {
        self.sampled_lines.start(&mut self.ctx);
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
        self.style.load_profile(path, add_games, &mut self.ctx)
    }

    /// Sets up the drill to show `moves` (for the screenshot): the learner plays the
    /// side to move after them, so no reply is pending; seed 1, book arrows on, no
    /// animation, the chart shown. When only the last move leaves the book, the learner
    /// plays it after the others: the board shows it out of book, with its verdict.
    pub fn show_moves(&mut self, moves: &[Move]) {
        if let Ok(attempt) = drill::commands::show_moves(moves, &mut self.ctx) {
            self.sync_books();
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
        self.review.save_reviews();
    }

    /// Stops the background work and saves (the window is closing).
    pub fn shut_down(&mut self) {
        self.sampled_lines.cancel();
        self.ctx.workspace.cancel_all();
        self.repertoire.editor.close();
        self.ctx.progress.save_now();
        self.review.end(&mut self.ctx);
    }

    // ----- dispatch -----

    /// Carries out one command, and what it asks of other features.
    pub fn apply(&mut self, command: Command) {
        self.apply_command(command);
        self.run_events();
    }

    /// Carries out one command (the events it sends are the caller's to carry out):
    /// a feature's goes to it, the rest crosses features.
    fn apply_command(&mut self, command: Command) {
        self.share_explorer_games();
        if command.restarts_drill() {
            self.play_on.end();
        }
        let ctx = &mut self.ctx;
        match command.route() {
            Route::Book(c) => self.book.apply(c, ctx),
            Route::Style(c) => self.style.apply(c, ctx),
            Route::Review(c) => self.review.apply(c, ctx),
            Route::Coverage(c) => self.coverage.apply(c, ctx),
            Route::Jobs(c) => self.jobs.apply(c, ctx),
            Route::PlayOn(c) => self.play_on.apply(c, ctx),
            Route::Repertoire(c) => self.repertoire.apply(c, ctx),
            Route::Explorer(c) => self.explorer.apply(c, ctx),
            Route::Verdict(c) => self.verdict.apply(c, ctx),
            Route::Coach(command) => self.apply_crossing(command),
        }
        self.ctx.settings.book = self.ctx.workspace.choice().clone();
        self.ctx.request_repaint();
    }

    /// The commands that no one feature carries out alone.
    fn apply_crossing(&mut self, command: Command) {
        let ctx = &mut self.ctx;
        match command {
            Command::Action(action) => self.apply_action(action),
            Command::MoveEntry(c) => {
                let at = self.entry_position();
                self.drill.move_entry.apply(c, &mut self.ctx, at);
            }
            Command::Play(mv) => self.drill.play(mv, ctx, &mut self.review),
            Command::ShowPly(ply) => ctx.session.view(ply),
            Command::ShowCurrent => ctx.session.view(ctx.session.moves().len()),
            Command::Message(text) => ctx.message = Some(text),
            Command::SetLearner(color) => self.review.set_learner(color, ctx),
            Command::SetSettings(settings) => ctx.take_settings(*settings),
            Command::SetPastBook(plies) => {
                ctx.settings.past_book_plies = plies;
                self.sync_books();
            }
            Command::CopyPgn if self.play_on.is_active() => {
                self.play_on.apply(play_on::PlayOnCommand::CopyPgn, ctx);
            }
            Command::CopyPgn => self.book.apply(book::BookCommand::CopyLine, ctx),
            Command::CheckRepertoire => self.check.start(ctx.settings.coverage.depth, ctx),
            Command::CancelCheck => self.check.cancel(),
            Command::DrillFrom(moves) => {
                self.repertoire.stop_training(ctx);
                // The learner plays the side to move there, as when the position was missed.
                let turn = drill::side_to_move_after(&moves);
                if turn != self.ctx.session.learner() {
                    self.apply(Command::SetLearner(turn));
                }
                drill::drill_from(&moves, &mut self.ctx);
            }
            Command::DrillOpening(moves) => {
                self.repertoire.stop_training(ctx);
                drill::drill_from(&moves, ctx);
            }
            // The features' own commands were routed to them.
            _ => {}
        }
    }

    /// A button or shortcut: the play-on game's while the learner plays on, the
    /// drill's, or a new line (review mode's next card, "Train this"'s subtree).
    fn apply_action(&mut self, action: Action) {
        if !self.is_enabled(action) {
            return;
        }
        let ctx = &mut self.ctx;
        // Stepping through the moves only changes the position shown.
        if !self.play_on.is_active() && self.drill.step(action, ctx) {
            return;
        }
        ctx.message = None;
        if self.play_on.is_active() {
            match action {
                Action::TakeBack | Action::StepBack => {
                    return self.play_on.apply(play_on::PlayOnCommand::TakeBack, ctx);
                }
                Action::NewLine => self.play_on.end(),
                _ => {}
            }
        }
        match action {
            Action::NextLine if style::sides::alternates_sides(ctx) => {
                // A mixed study: the other side's chapters come next.
                let other = ctx.session.learner().other();
                self.apply(Command::SetLearner(other));
            }
            Action::NewLine | Action::NextLine => {
                ctx.new_seed();
                if !self.review.next_line(ctx) && !self.repertoire.restart_training(ctx) {
                    ctx.session.new_line();
                }
                ctx.last_reply = None;
            }
            Action::Open => ctx.notify(Notice::ChooseFiles),
            Action::Explore => self.sampled_lines.start(ctx),
            Action::PlayOn => self.play_on.start(ctx),
            Action::Quit => ctx.notify(Notice::Close),
            // The drill's own: hints, show me, take back, flip… (stepping was above).
            _ => {
                self.drill.apply_action(action, ctx, &mut self.review);
            }
        }
    }

    /// Carries out the events features sent each other, until none is left.
    fn run_events(&mut self) {
        loop {
            let events = self.ctx.take_events();
            if events.is_empty() {
                return;
            }
            for event in events {
                self.run_event(event);
            }
        }
    }

    /// Hands one event to the feature it concerns.
    fn run_event(&mut self, event: Event) {
        let ctx = &mut self.ctx;
        match event {
            Event::PlayOnBoard(mv) if self.play_on.is_active() => {
                self.play_on.apply(play_on::PlayOnCommand::Play(mv), ctx);
            }
            Event::PlayOnBoard(mv) => self.apply_command(Command::Play(mv)),
            Event::SetLearner(color) => self.apply_command(Command::SetLearner(color)),
            Event::NewLine => self.apply_command(Command::Action(Action::NewLine)),
            Event::DrillFrom(moves) => self.apply_command(Command::DrillFrom(moves)),
            Event::Pasted(moves) if self.repertoire.shows_file() => {
                self.repertoire.show_moves(moves, ctx);
            }
            Event::Pasted(moves) => self.apply_command(Command::DrillFrom(moves)),
            Event::SetStyle(style) => self.apply_command(Command::SetStyle(style)),
            Event::ShowInRepertoire(moves) => self.repertoire.show_moves(moves, ctx),
            Event::Message(text) => ctx.message = Some(text),
            Event::ForgiveMistake => {
                if self.drill.forgive_mistake(ctx, &mut self.review) {
                    self.verdict.set_forgiven();
                }
            }
            Event::PlayBookMoveInstead { book, message } => {
                self.drill
                    .play_book_move_instead(book, message, ctx, &mut self.review);
            }
            Event::AddAnswer(moves) => self.coverage.add_answer(&moves, ctx),
            Event::NewSession => {
                self.sync_books();
                self.sampled_lines.reset();
                self.ctx.invalidate_chart();
                self.ctx.last_reply = None;
            }
            Event::NewBook => {
                self.sampled_lines.reset();
                self.repertoire.stop_training(ctx);
                self.coverage.book_changed();
                self.drill.reply_due = None;
                // A review session's cards are the new book's.
                self.review.restart(ctx);
            }
            Event::FileImported(path) => self.style.sides.after_import(&path, ctx),
            Event::AlignLearner => self.style.sides.align_learner(ctx),
            Event::StopRepertoireTraining => self.repertoire.stop_training(ctx),
            Event::EndGapDrill => self.coverage.end_gap_drill(),
            Event::RestartReview => self.review.restart(ctx),
            Event::SyncBooks => self.sync_books(),
            Event::Adapt => self.style.adapt(ctx),
            Event::LeadIn(lead_in) => self.review.set_lead_in(lead_in, ctx),
            Event::PlayOnSettings(s) => {
                self.play_on.apply(play_on::PlayOnCommand::Settings(s), ctx)
            }
            Event::LineCompleted(line) => self.style.line_completed(line, ctx),
        }
    }

    // ----- each frame -----

    /// The non-drawing work of a frame: finished jobs, the computer's reply when it is
    /// due, completed lines.
    pub fn logic(&mut self) {
        self.sampled_lines.poll(&mut self.ctx);
        if self.ctx.workspace.open_books().generation() != self.drill.books_seen {
            self.sync_books();
        }
        self.book.poll(&mut self.ctx);
        // A new book resets the features that depend on it before they poll.
        self.run_events();
        let ctx = &mut self.ctx;
        self.coverage.poll(ctx);
        let found = self.check.poll_frame(ctx);
        if !found.is_empty() {
            self.verdict.share_analyses(&found);
        }
        self.jobs.poll(ctx);
        if self.play_on.is_active() {
            self.play_on.poll(ctx);
        } else {
            self.drill.computer_reply(ctx, &mut self.review);
        }
        self.review.poll(ctx);
        self.verdict.poll(ctx, self.play_on.is_active());
        self.drill.record_completions(ctx);
        ctx.progress.poll();
        self.coverage.missed.poll(ctx);
        let board = self.board_shown();
        self.explorer
            .poll(&mut self.ctx, &board, self.verdict.store());
        self.predictor.poll(&self.ctx, &board);
        self.share_explorer_games();
        self.repertoire.poll(&mut self.ctx);
        self.run_events();
    }

    /// Gives the drill the workspace's Polyglot books and popularity and play past the
    /// book; the explorer's counts follow; the chart starts over.
    fn sync_books(&mut self) {
        self.drill.sync_books(&mut self.ctx);
        self.explorer.sync_drill(&mut self.ctx);
        self.ctx.invalidate_chart();
    }

    /// Gives the Repertoire tab the Explorer tab's index and filter (its missing
    /// replies may come from them), and play-on's sparring the index and the player
    /// shown.
    fn share_explorer_games(&mut self) {
        let games = self.explorer.games().and_then(Result::ok);
        let player = match self.explorer.source() {
            explorer::ExplorerSource::Player { name, .. } => Some(name.clone()),
            explorer::ExplorerSource::All => None,
        };
        let shared = games
            .clone()
            .map(|(index, filter)| play_on::SharedExplorer {
                index,
                filter,
                player,
            });
        self.play_on.poll_spar(&mut self.ctx, shared);
        self.repertoire.set_explorer_games(games);
    }
}
