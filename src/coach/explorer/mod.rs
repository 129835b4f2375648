//! The Explorer tab: its state ([`ExplorerState`]): the open explorer index (or none), the source (all its
//! games, or a player's tree as one colour), the filter (rating bands, speeds, years),
//! and the moves and top games at the position on the board under them, cached by
//! (position, source, filter) so that a frame does no work unless one of them changed.
//!
//! The tab follows the board: the play-on game's position while the learner plays on,
//! else the drill's position shown (a viewed ply, else the current one; a gap or game
//! the Coverage tab drills is the drill's). It shows on both sides' turns, as the
//! learner studies with it; while the learner is to answer it hides in review mode
//! (graded recall) and, in a free drill, with its own "Hide while I answer" setting
//! (off by default), so that a drill stays fair; it shows again once the learner has
//! moved.
//!
//! "Prepare against an opponent" gives the drill a player's tree as its popularity
//! ([`Session::set_explorer`](crate::trainer::Session::set_explorer)): the computer
//! plays that player's moves as often as they played them, the book's where they have
//! no game.
//!
//! - [`view`]: what the tab shows at a position, the year fields read;
//! - [`evals`]: the engine's evaluation after each move, found in the background;
//! - [`game`]: a top game opened in its own window.
//!
//! The tab's moves are played on the board shown ([`Event::PlayOnBoard`]), and the
//! game window's position goes to the Repertoire tab ([`Event::ShowInRepertoire`]):
//! the coach hands both to the feature that owns that board.

use std::path::PathBuf;
use std::sync::Arc;

use shakmaty::{Chess, Color, Move};

pub mod build;
pub mod evals;
pub mod game;
pub mod view;

pub use self::build::{EXPLORERS_FOLDER, ExplorerBuild, index_folder};
pub use self::evals::ExplorerEvals;
pub use self::game::{ExplorerGameState, GameReadError, ShownGameView};
pub use self::view::{
    ExplorerRow, ExplorerTopGame, ExplorerView, MoveGames, YearsError, parse_years,
};
use crate::book::explorer::{ExplorerCounts, ExplorerFilter, RatingBand, Speed};
use crate::book::polyglot::key;
use crate::coach::context::{BoardShown, Context, Event};
use crate::coach::format::count;
use crate::coach::notice::Notice;
use crate::job::Wake;
use crate::trainer::verdict::checker::SharedStore;
use crate::workspace::explorer::{ExplorerError, ExplorerIndex, FilteredExplorer};

/// What the Explorer tab can be asked.
#[derive(Debug, Clone, PartialEq)]
pub enum ExplorerCommand {
    /// Ask for an index directory (a folder dialog).
    Choose,
    /// Open the index at this directory (an unreadable one changes nothing and says
    /// why).
    Open(PathBuf),
    /// Close the index.
    Close,
    /// Count or leave out a rating band.
    ToggleBand(RatingBand),
    /// Count or leave out a speed.
    ToggleSpeed(Speed),
    /// Count only the games of these years (both included; games of unknown year are
    /// left out then), or every game (`None`).
    SetYears(Option<(u16, u16)>),
    /// Show these games: all of the index, or a player's tree.
    SetSource(ExplorerSource),
    /// Play this move on the board shown (the drill's, or the play-on game's).
    Play(Move),
    /// Let the drill's computer play the chosen player's moves, with their frequencies
    /// (the book's where the player has no game); the learner takes the other colour.
    Prepare,
    /// Back to the book's popularity.
    StopPreparing,
    /// Open top game `i` of the view in the game window.
    OpenGame(usize),
    /// Hide the moves while the learner is to answer in a free drill, or not (the
    /// "Hide while I answer" setting; review always hides them).
    SetHideAnswer(bool),
    /// Have the engine evaluate the position after each move, or not.
    SetEvals(bool),
    /// Build an explorer index of these PGN files or folders, named so (a plain name
    /// goes into the data folder's `explorers/`, a path is used as it is), then open it.
    Build {
        /// The PGN files or folders.
        inputs: Vec<PathBuf>,
        /// The index's name or path.
        name: String,
    },
    /// Add the games of these PGN files or folders to the open index.
    AddGames(Vec<PathBuf>),
    /// Stop the build or the adding.
    CancelBuild,
    /// The tab is in view (its engine evaluates the moves), or not.
    SetShown(bool),
    /// Keep a tree for every player with at least this many games in the indexes built
    /// from now on (0: none).
    SetPlayersMin(u32),
    /// Show this ply of the game in the window.
    GameTo(usize),
    /// Close the game window.
    CloseGame,
    /// Show the game window's position in the Repertoire tab's file.
    ShowGameInRepertoire,
}

/// Whose games the tab counts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ExplorerSource {
    /// Every game of the index.
    #[default]
    All,
    /// The games of a player the index keeps a tree for, as one colour.
    Player {
        /// The name, as the index keeps it.
        name: String,
        /// The player's colour.
        color: Color,
    },
}

impl ExplorerSource {
    /// What the chooser says: `"All games"`, `"Kasparov as White"`.
    pub fn text(&self) -> String {
        match self {
            ExplorerSource::All => "All games".to_owned(),
            ExplorerSource::Player { name, color } => format!("{name} as {}", color_name(*color)),
        }
    }
}

/// `"White"` or `"Black"`.
fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The drill's opponent playing a player's tree.
#[derive(Debug, Clone)]
pub struct Preparing {
    /// Whose games, as which colour.
    pub source: ExplorerSource,
    /// The tree under the filter of the moment it started.
    counts: Arc<FilteredExplorer>,
}

/// The open index, its source and filter, the cached view, the preparation.
#[derive(Debug, Default)]
pub struct ExplorerState {
    index: Option<Arc<ExplorerIndex>>,
    source: ExplorerSource,
    filter: ExplorerFilter,
    /// The last open failure.
    message: Option<String>,
    /// What `view` was computed for: position key, source, filter, hidden.
    key: Option<(u64, ExplorerSource, ExplorerFilter, bool)>,
    view: ExplorerView,
    preparing: Option<Preparing>,
    /// The game window.
    pub(super) game: ExplorerGameState,
    /// The engine evaluating the positions after the moves.
    pub(super) evals: ExplorerEvals,
    /// Whether the engine evaluates the moves (the setting, as of the last frame).
    evaluating: bool,
    /// The index being built or added to.
    build: ExplorerBuild,
    /// Whether the tab is in view: the engine evaluates only then.
    shown: bool,
    /// Whether the view's evaluations are to start again (the tab shown or hidden, the
    /// eval column or its engine changed): the view itself is not queried again (a
    /// popular position of a large index takes a frame's time to query).
    evals_stale: bool,
}

/// An explorer's games for other work: the index and the filter.
pub(crate) type ExplorerGames = (Arc<ExplorerIndex>, ExplorerFilter);

impl ExplorerState {
    /// Whether the engine evaluates the positions after the moves (the eval column).
    pub fn evaluates(&self) -> bool {
        self.evaluating
    }

    /// Whether the tab is in view (as the window said last).
    pub fn is_shown(&self) -> bool {
        self.shown
    }

    /// The index being built or added to, and what the last build did.
    pub fn build(&self) -> &ExplorerBuild {
        &self.build
    }

    /// Whether moves shown still wait for their evaluation (the screenshot waits).
    pub(crate) fn is_evaluating(&self) -> bool {
        self.evaluating
            && self.evals.failure().is_none()
            && self.view.rows.iter().any(|r| r.eval.is_none())
    }

    /// Why the engine could not evaluate a move, if it could not.
    pub fn eval_failure(&self) -> Option<&str> {
        self.evals.failure()
    }

    /// The game window's state.
    pub fn game(&self) -> &ExplorerGameState {
        &self.game
    }

    /// The position the view was made for (its Polyglot key).
    pub(super) fn position_key(&self) -> Option<u64> {
        self.key.as_ref().map(|k| k.0)
    }

    /// The open index.
    pub fn index(&self) -> Option<&Arc<ExplorerIndex>> {
        self.index.as_ref()
    }

    /// The filter.
    pub fn filter(&self) -> &ExplorerFilter {
        &self.filter
    }

    /// The games the tab shows, for other work: the open index and the filter of its
    /// source; `None` without an index, an error when the player is not in it.
    pub(crate) fn games(&self) -> Option<Result<ExplorerGames, ExplorerError>> {
        let index = self.index.as_ref()?;
        Some(
            self.query_filter(index)
                .map(|filter| (Arc::clone(index), filter)),
        )
    }

    /// Whose games are shown.
    pub fn source(&self) -> &ExplorerSource {
        &self.source
    }

    /// The sources the chooser offers: all games, then each player of the index as
    /// White and as Black.
    pub fn sources(&self) -> Vec<ExplorerSource> {
        let players = self.index.iter().flat_map(|i| i.players());
        std::iter::once(ExplorerSource::All)
            .chain(players.flat_map(|name| {
                [Color::White, Color::Black].map(|color| ExplorerSource::Player {
                    name: name.clone(),
                    color,
                })
            }))
            .collect()
    }

    /// Whose moves the drill's computer plays, when preparing against a player.
    pub fn preparing(&self) -> Option<&ExplorerSource> {
        self.preparing.as_ref().map(|p| &p.source)
    }

    /// What the last attempt to open an index said, if it failed.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The moves at the position on the board (as of the last frame's logic).
    pub fn view(&self) -> &ExplorerView {
        &self.view
    }

    /// Whether `band` counts.
    pub fn counts_band(&self, band: RatingBand) -> bool {
        self.filter.bands & (1 << band.index()) != 0
    }

    /// Whether `speed` counts.
    pub fn counts_speed(&self, speed: Speed) -> bool {
        self.filter.speeds & (1 << speed.index()) != 0
    }

    /// The years counted (both included), or `None` for every game.
    pub fn years(&self) -> Option<(u16, u16)> {
        self.filter.years
    }

    /// The filter of a query: the tab's, limited to the source's games.
    fn query_filter(&self, index: &ExplorerIndex) -> Result<ExplorerFilter, ExplorerError> {
        match &self.source {
            ExplorerSource::All => Ok(self.filter),
            ExplorerSource::Player { name, color } => {
                index.player_filter(self.filter, name, *color)
            }
        }
    }

    /// Recomputes the view when the position, the source, the filter or its hiding
    /// changed; then has the engine evaluate its moves (`store`: the analyses kept).
    fn refresh(&mut self, pos: &Chess, hidden: bool, store: &SharedStore, wake: Wake) {
        let Some(index) = &self.index else {
            if self.key.take().is_some() {
                self.evals.stop();
            }
            self.view = ExplorerView::default();
            return;
        };
        let k = (key(pos), self.source.clone(), self.filter, hidden);
        if self.key.as_ref() == Some(&k) {
            if std::mem::take(&mut self.evals_stale) {
                for row in &mut self.view.rows {
                    row.eval = None;
                }
                self.evaluate(store, wake);
            }
            return;
        }
        self.key = Some(k);
        self.evals_stale = false;
        self.view = if hidden {
            ExplorerView {
                hidden,
                ..ExplorerView::default()
            }
        } else {
            ExplorerView::at(index, self.query_filter(index), pos)
        };
        self.evaluate(store, wake);
    }

    /// Has the engine evaluate the view's moves when the column is on, else stops it.
    fn evaluate(&mut self, store: &SharedStore, wake: Wake) {
        if self.evaluating && !self.view.rows.is_empty() {
            self.evals.start(&mut self.view, store, wake);
        } else {
            self.evals.stop();
        }
    }

    /// Carries out a command of the tab.
    pub(crate) fn apply(&mut self, command: ExplorerCommand, ctx: &mut Context) {
        match command {
            ExplorerCommand::Choose => ctx.notify(Notice::ChooseExplorer),
            ExplorerCommand::Play(mv) => ctx.send(Event::PlayOnBoard(mv)),
            ExplorerCommand::Prepare => self.prepare_against(ctx),
            ExplorerCommand::OpenGame(i) => {
                let Some(top) = self.view.top.get(i) else {
                    return;
                };
                let (top, at) = (top.game.clone(), self.position_key());
                self.game.open(top, at, ctx.wake());
            }
            ExplorerCommand::GameTo(ply) => self.game.go_to(ply),
            ExplorerCommand::CloseGame => self.game = ExplorerGameState::default(),
            ExplorerCommand::ShowGameInRepertoire => {
                // The repertoire's lines start at the standard position.
                if let Some(shown) = self.game.shown()
                    && shown.starts_at_standard()
                {
                    ctx.send(Event::ShowInRepertoire(shown.moves_played().to_vec()));
                }
            }
            ExplorerCommand::StopPreparing => self.stop_preparing(ctx),
            ExplorerCommand::Open(dir) => self.open(dir, ctx),
            ExplorerCommand::Build { inputs, name } => {
                let data = ctx.data_dir();
                match index_folder(&name, data.as_deref()) {
                    Some(dir) => {
                        let min = ctx.settings.explorer_players_min;
                        self.build.build(inputs, dir, min, ctx.wake());
                    }
                    None => {
                        self.message = Some(
                            "Give the explorer a name (or a full path: there is no data \
                             folder)."
                                .to_owned(),
                        );
                    }
                }
            }
            ExplorerCommand::AddGames(inputs) => match &self.index {
                Some(index) => {
                    let dir = index.dir().to_owned();
                    self.build.add(inputs, dir, ctx.wake());
                }
                None => self.message = Some("Open an explorer to add games to.".to_owned()),
            },
            ExplorerCommand::CancelBuild => self.build.cancel(),
            ExplorerCommand::SetShown(shown) => {
                self.shown = shown;
                // Evaluated when it comes into view, the engine stopped when it goes.
                self.evals_stale = true;
            }
            ExplorerCommand::SetPlayersMin(n) => ctx.settings.explorer_players_min = n,
            ExplorerCommand::Close => {
                self.stop_preparing(ctx);
                self.index = None;
                self.source = ExplorerSource::All;
                self.key = None;
                ctx.settings.explorer_index = None;
            }
            ExplorerCommand::ToggleBand(band) => self.filter.bands ^= 1 << band.index(),
            ExplorerCommand::ToggleSpeed(speed) => self.filter.speeds ^= 1 << speed.index(),
            ExplorerCommand::SetYears(years) => self.filter.years = years,
            ExplorerCommand::SetSource(source) => self.source = source,
            ExplorerCommand::SetHideAnswer(hide) => ctx.settings.explorer_hide_answer = hide,
            ExplorerCommand::SetEvals(on) => {
                ctx.settings.explorer_evals = on;
                // The view is evaluated again if asked.
                self.evals_stale = true;
            }
        }
    }

    /// Opens the index at `dir` (opened again at the next start); an unreadable one
    /// changes nothing and says why.
    fn open(&mut self, dir: PathBuf, ctx: &mut Context) {
        match ExplorerIndex::open(&dir) {
            Ok(index) => {
                self.stop_preparing(ctx);
                self.show(index);
                ctx.settings.explorer_index = Some(dir);
            }
            Err(e) => {
                self.message = Some(format!("Cannot open the explorer index: {e}"));
            }
        }
    }

    /// Opens the index a build finished (waiting for it when `wait`: tests).
    pub(crate) fn poll_build(&mut self, ctx: &mut Context, wait: bool) {
        if let Some(dir) = self.build.poll(wait) {
            self.open(dir, ctx);
        }
    }

    /// Shows `index`: all its games, no filter.
    fn show(&mut self, index: ExplorerIndex) {
        self.index = Some(Arc::new(index));
        self.source = ExplorerSource::All;
        self.filter = ExplorerFilter::default();
        self.message = None;
        self.key = None;
    }

    /// At the start: opens the index the tab had open last time (the settings'
    /// `explorer_index`). One that is gone or no longer reads is dropped from the
    /// settings, and the tab and the drill's message say so.
    pub(crate) fn reopen(&mut self, ctx: &mut Context) {
        let Some(dir) = ctx.settings.explorer_index.clone() else {
            return;
        };
        match ExplorerIndex::open(&dir) {
            Ok(index) => self.show(index),
            Err(e) => {
                ctx.settings.explorer_index = None;
                let why = if dir.exists() {
                    format!("it could not be read ({e})")
                } else {
                    "it is not there any more (moved or deleted?)".to_owned()
                };
                let text = format!(
                    "The explorer index open last time, {}, was not opened: {why}. Open it \
                     again with “Open explorer index…” once you have found it.",
                    dir.display()
                );
                log::warn!("{text}");
                self.message = Some(text.clone());
                ctx.message = Some(text);
            }
        }
    }

    /// Back to the book's popularity, if preparing against a player.
    fn stop_preparing(&mut self, ctx: &mut Context) {
        if self.preparing.take().is_some() {
            ctx.session.set_explorer(None);
            ctx.message = Some("The computer plays the book's moves again.".to_owned());
        }
    }

    /// "Prepare against an opponent": the drill's computer plays the chosen player's
    /// tree under the tab's filter, the learner the other colour, from a new line.
    fn prepare_against(&mut self, ctx: &mut Context) {
        let (Some(index), ExplorerSource::Player { name, color }) = (&self.index, &self.source)
        else {
            ctx.message = Some("Choose a player's games in the Explorer tab first.".to_owned());
            return;
        };
        let (name, color) = (name.clone(), *color);
        let filter = match self.query_filter(index) {
            Ok(filter) => filter,
            Err(e) => {
                ctx.message = Some(format!("Cannot prepare against {name}: {e}"));
                return;
            }
        };
        let counts = Arc::new(FilteredExplorer::new(Arc::clone(index), filter));
        let games = counts.games_at(&Chess::default());
        self.preparing = Some(Preparing {
            source: self.source.clone(),
            counts,
        });
        self.sync_drill(ctx);
        ctx.send(if ctx.session.learner() == color {
            Event::SetLearner(!color)
        } else {
            Event::NewLine
        });
        let (side, games) = (color_name(color), count(games));
        ctx.send(Event::Message(format!(
            "Preparing against {name}: the computer plays {name}'s moves as {side} ({games} \
             games), as often as {name} played them, and the book's where {name} has no game."
        )));
    }

    /// Gives the drill the player's tree being prepared against, if any (again after
    /// the drill's session was made anew).
    pub(crate) fn sync_drill(&self, ctx: &mut Context) {
        let counts = self
            .preparing
            .as_ref()
            .map(|p| Arc::clone(&p.counts) as Arc<dyn ExplorerCounts>);
        if counts.is_some() || ctx.session.has_explorer() {
            ctx.session.set_explorer(counts);
        }
    }

    /// Each frame: takes the game being read, brings the view to the board shown (a
    /// query only when the position, the source or the filter changed; hidden while
    /// the learner is to answer in review, or with "Hide while I answer"), takes the
    /// evaluations found (`store`: the analyses kept, the verdict's), says when the
    /// tree being prepared against could not be read.
    pub(crate) fn poll(&mut self, ctx: &mut Context, board: &BoardShown, store: &SharedStore) {
        self.game.poll(false);
        self.poll_build(ctx, false);
        if let Some(e) = self.preparing.as_ref().and_then(|p| p.counts.take_error()) {
            ctx.message = Some(format!("The explorer index could not be read: {e}"));
        }
        self.evaluating = ctx.settings.explorer_evals && self.shown;
        let hidden = board.answering && (board.review || ctx.settings.explorer_hide_answer);
        self.refresh(&board.position, hidden, store, ctx.wake());
        self.evals.poll(&mut self.view);
    }

    /// Evaluates the moves with `evals` from now on (tests: a given engine and limit).
    pub(crate) fn set_evals(&mut self, evals: ExplorerEvals) {
        self.evals = evals;
        self.evals_stale = true;
    }

    /// Waits until the game being read is shown, as the frames would (tests; the
    /// window never waits).
    pub(crate) fn finish_game(&mut self) {
        self.game.poll(true);
    }
}
