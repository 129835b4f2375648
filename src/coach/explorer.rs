//! The Explorer tab's state: the open explorer index (or none), the source (all its
//! games, or a player's tree as one colour), the filter (rating bands, speeds, years),
//! and the moves and top games at the position on the board under them, cached by
//! (position, source, filter) so that a frame does no work unless one of them changed.
//!
//! The tab follows the board: the play-on game's position while the learner plays on,
//! else the drill's position shown (a viewed ply, else the current one; a gap or game
//! the Coverage tab drills is the drill's). In the drill, while the learner is to move
//! it is hidden when the chart hides the answer (the "Hide the answer until I move"
//! setting) and always in review mode, so that it never gives the answer away; it
//! shows again once the learner has moved.
//!
//! "Prepare against an opponent" gives the drill a player's tree as its popularity
//! ([`Session::set_explorer`](crate::trainer::Session::set_explorer)): the computer
//! plays that player's moves as often as they played them, the book's where they have
//! no game.

use std::path::PathBuf;
use std::sync::Arc;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move};

use super::Coach;
use super::command::{Action, Command};
use super::explorer_game::ExplorerGameState;
use super::format::count;
use super::play_on::PlayOnCommand;
use crate::book::explorer::{ExplorerCounts, ExplorerFilter, PositionStats, RatingBand, Speed};
use crate::book::polyglot::key;
use crate::trainer::Phase;
use crate::workspace::explorer::{ExplorerError, ExplorerIndex, FilteredExplorer, TopGame};

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

/// One move of the tab: the games it was played in and how they ended.
#[derive(Debug, Clone, PartialEq)]
pub struct ExplorerRow {
    /// The move.
    pub mv: Move,
    /// It in SAN.
    pub san: String,
    /// Games.
    pub games: u64,
    /// Its share of the games at the position.
    pub share: f64,
    /// White wins, draws, Black wins.
    pub white: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black: u64,
    /// The rated games' average mean rating.
    pub avg_rating: Option<u64>,
}

/// One of the position's top games (the highest rated that pass the filter).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplorerTopGame {
    /// The move it played at the position, in SAN.
    pub san: String,
    /// Players, result, year, rating, and where it is.
    pub game: TopGame,
}

/// What the tab shows at the position on the board.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExplorerView {
    /// Hidden while the learner is to move (it would give the answer away).
    pub hidden: bool,
    /// Games at the position.
    pub games: u64,
    /// White wins, draws and Black wins of all the games here.
    pub results: [u64; 3],
    /// The moves, most played first.
    pub rows: Vec<ExplorerRow>,
    /// The top games, best first.
    pub top: Vec<ExplorerTopGame>,
    /// An error reading the index at this position.
    pub error: Option<String>,
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
}

/// An explorer's games for other work: the index and the filter.
pub(crate) type ExplorerGames = (Arc<ExplorerIndex>, ExplorerFilter);

impl ExplorerState {
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
    pub(crate) fn games(&self) -> Option<Result<ExplorerGames, String>> {
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
    fn query_filter(&self, index: &ExplorerIndex) -> Result<ExplorerFilter, String> {
        match &self.source {
            ExplorerSource::All => Ok(self.filter),
            ExplorerSource::Player { name, color } => index
                .player_filter(self.filter, name, *color)
                .map_err(|e| e.to_string()),
        }
    }

    /// Recomputes the view when the position, the source, the filter or its hiding
    /// changed.
    fn refresh(&mut self, pos: &Chess, hidden: bool) {
        let Some(index) = &self.index else {
            self.key = None;
            self.view = ExplorerView::default();
            return;
        };
        let k = (key(pos), self.source.clone(), self.filter, hidden);
        if self.key.as_ref() == Some(&k) {
            return;
        }
        self.key = Some(k);
        if hidden {
            self.view = ExplorerView {
                hidden,
                ..ExplorerView::default()
            };
            return;
        }
        let stats = self.query_filter(index).and_then(|filter| {
            index
                .query_position(pos, &filter)
                .map_err(|e| e.to_string())
        });
        self.view = match stats {
            Ok(stats) => {
                let total = stats.total();
                let games = total.games();
                let mut rows: Vec<ExplorerRow> = stats
                    .moves
                    .iter()
                    .filter(|m| m.games() > 0)
                    .filter_map(|m| {
                        let mv = m.raw_move.to_move(pos).ok()?;
                        Some(ExplorerRow {
                            mv,
                            san: SanPlus::from_move(pos.clone(), mv).to_string(),
                            games: m.games(),
                            share: m.games() as f64 / games.max(1) as f64,
                            white: m.white,
                            draws: m.draws,
                            black: m.black,
                            avg_rating: m.average_rating(),
                        })
                    })
                    .collect();
                rows.sort_by(|a, b| b.games.cmp(&a.games).then(a.san.cmp(&b.san)));
                let (top, error) = match top_games(index, &stats, pos) {
                    Ok(top) => (top, None),
                    Err(e) => (Vec::new(), Some(format!("Cannot read the top games: {e}"))),
                };
                ExplorerView {
                    hidden,
                    games,
                    results: [total.white, total.draws, total.black],
                    rows,
                    top,
                    error,
                }
            }
            Err(error) => ExplorerView {
                error: Some(error),
                ..ExplorerView::default()
            },
        };
    }
}

/// The top games of `stats` at `pos`, looked up in the index's games tables.
fn top_games(
    index: &ExplorerIndex,
    stats: &PositionStats,
    pos: &Chess,
) -> Result<Vec<ExplorerTopGame>, ExplorerError> {
    stats
        .top
        .iter()
        .map(|candidate| {
            let game = index.top_game(candidate)?;
            let san = match game.raw_move.to_move(pos) {
                Ok(mv) => SanPlus::from_move(pos.clone(), mv).to_string(),
                Err(_) => game.raw_move.to_string(),
            };
            Ok(ExplorerTopGame { san, game })
        })
        .collect()
}

/// The years of the tab's "from" and "to" fields: both empty for every game, one empty
/// for no bound on that side.
///
/// ```
/// use hastings::coach::explorer::parse_years;
///
/// assert_eq!(parse_years("", ""), Ok(None));
/// assert_eq!(parse_years("1985", " 1990 "), Ok(Some((1985, 1990))));
/// assert_eq!(parse_years("", "1990"), Ok(Some((1, 1990))));
/// assert!(parse_years("1990", "1985").is_err());
/// assert!(parse_years("19x5", "").is_err());
/// ```
///
/// # Errors
///
/// A sentence for the learner when a field holds no year or "from" is after "to".
pub fn parse_years(from: &str, to: &str) -> Result<Option<(u16, u16)>, String> {
    let year = |s: &str, unset: u16| {
        let s = s.trim();
        if s.is_empty() {
            return Ok(unset);
        }
        s.parse::<u16>()
            .ok()
            .filter(|&y| y > 0)
            .ok_or_else(|| format!("`{s}` is not a year."))
    };
    if from.trim().is_empty() && to.trim().is_empty() {
        return Ok(None);
    }
    let (from, to) = (year(from, 1)?, year(to, u16::MAX)?);
    if to < from {
        return Err(format!("{from} is after {to}."));
    }
    Ok(Some((from, to)))
}

impl Coach {
    /// The Explorer tab's state.
    pub fn explorer(&self) -> &ExplorerState {
        &self.explorer
    }

    pub(super) fn apply_explorer(&mut self, command: ExplorerCommand) {
        match command {
            ExplorerCommand::Choose => self.notify(super::Notice::ChooseExplorer),
            ExplorerCommand::Play(mv) => {
                if self.play_on.is_active() {
                    self.apply_play_on(PlayOnCommand::Play(mv));
                } else {
                    self.apply(Command::Play(mv));
                }
            }
            ExplorerCommand::Prepare => self.prepare_against(),
            ExplorerCommand::OpenGame(i) => self.open_explorer_game(i),
            ExplorerCommand::GameTo(ply) => self.explorer_game_to(ply),
            ExplorerCommand::CloseGame => self.close_explorer_game(),
            ExplorerCommand::ShowGameInRepertoire => self.show_explorer_game_in_repertoire(),
            ExplorerCommand::StopPreparing => {
                if self.explorer.preparing.take().is_some() {
                    self.session.set_explorer(None);
                    self.message = Some("The computer plays the book's moves again.".to_owned());
                }
            }
            ExplorerCommand::Open(dir) => match ExplorerIndex::open(&dir) {
                Ok(index) => {
                    self.apply_explorer(ExplorerCommand::StopPreparing);
                    let state = &mut self.explorer;
                    state.index = Some(Arc::new(index));
                    state.source = ExplorerSource::All;
                    state.filter = ExplorerFilter::default();
                    state.message = None;
                    state.key = None;
                }
                Err(e) => {
                    self.explorer.message = Some(format!("Cannot open the explorer index: {e}"));
                }
            },
            ExplorerCommand::Close => {
                self.apply_explorer(ExplorerCommand::StopPreparing);
                self.explorer.index = None;
                self.explorer.source = ExplorerSource::All;
                self.explorer.key = None;
            }
            ExplorerCommand::ToggleBand(band) => self.explorer.filter.bands ^= 1 << band.index(),
            ExplorerCommand::ToggleSpeed(speed) => {
                self.explorer.filter.speeds ^= 1 << speed.index();
            }
            ExplorerCommand::SetYears(years) => self.explorer.filter.years = years,
            ExplorerCommand::SetSource(source) => self.explorer.source = source,
        }
    }

    /// "Prepare against an opponent": the drill's computer plays the chosen player's
    /// tree under the tab's filter, the learner the other colour, from a new line.
    fn prepare_against(&mut self) {
        let state = &self.explorer;
        let (Some(index), ExplorerSource::Player { name, color }) = (&state.index, &state.source)
        else {
            self.message = Some("Choose a player's games in the Explorer tab first.".to_owned());
            return;
        };
        let (name, color) = (name.clone(), *color);
        let filter = match state.query_filter(index) {
            Ok(filter) => filter,
            Err(e) => {
                self.message = Some(format!("Cannot prepare against {name}: {e}"));
                return;
            }
        };
        let counts = Arc::new(FilteredExplorer::new(Arc::clone(index), filter));
        let games = counts.games_at(&Chess::default());
        self.explorer.preparing = Some(Preparing {
            source: state.source.clone(),
            counts,
        });
        self.sync_explorer();
        if self.session.learner() == color {
            self.apply(Command::SetLearner(!color));
        } else {
            self.apply(Command::Action(Action::NewLine));
        }
        let (side, games) = (color_name(color), count(games));
        self.message = Some(format!(
            "Preparing against {name}: the computer plays {name}'s moves as {side} ({games} \
             games), as often as {name} played them, and the book's where {name} has no game."
        ));
    }

    /// Gives the drill the player's tree being prepared against, if any.
    pub(super) fn sync_explorer(&mut self) {
        let counts = self
            .explorer
            .preparing
            .as_ref()
            .map(|p| Arc::clone(&p.counts) as Arc<dyn ExplorerCounts>);
        if counts.is_some() || self.session.has_explorer() {
            self.session.set_explorer(counts);
        }
    }

    /// Brings the Explorer tab's view to the position on the board (a query only when
    /// the position, the source or the filter changed); says when the tree being
    /// prepared against could not be read.
    pub(super) fn refresh_explorer(&mut self) {
        self.poll_explorer_game();
        if let Some(e) = self
            .explorer
            .preparing
            .as_ref()
            .and_then(|p| p.counts.take_error())
        {
            self.message = Some(format!("The explorer index could not be read: {e}"));
        }
        let (pos, hidden) = match self.play_on.run.as_ref() {
            // A game against an engine, not a drill: there is no answer to give away.
            Some(run) => (run.game().position().clone(), false),
            None => {
                let session = &self.session;
                let viewing = session.viewing();
                let ply = viewing.unwrap_or(session.moves().len());
                let hidden = viewing.is_none()
                    && *session.phase() == Phase::LearnerToMove
                    && (self.settings.hide_answer || self.review.is_some());
                (session.position_at(ply).clone(), hidden)
            }
        };
        self.explorer.refresh(&pos, hidden);
    }
}
