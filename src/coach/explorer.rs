//! The Explorer tab's state: the open explorer index (or none), the filter, and the
//! moves at the position on the board under it, cached by (position, filter) so that a
//! frame does no work unless one of them changed.
//!
//! The tab follows the board: the position shown (a viewed ply, else the current one).
//! While the learner is to move it is hidden when the chart hides the answer (the
//! "Hide the answer until I move" setting) and always in review mode, so that it never
//! gives the answer away; it shows again once the learner has moved.

use std::path::PathBuf;
use std::sync::Arc;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move};

use super::Coach;
use crate::book::explorer::{ExplorerFilter, RatingBand, Speed};
use crate::book::polyglot::key;
use crate::trainer::Phase;
use crate::workspace::explorer::ExplorerIndex;

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

/// What the tab shows at the position on the board.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExplorerView {
    /// Hidden while the learner is to move (it would give the answer away).
    pub hidden: bool,
    /// Games at the position.
    pub games: u64,
    /// The moves, most played first.
    pub rows: Vec<ExplorerRow>,
    /// An error reading the index at this position.
    pub error: Option<String>,
}

/// The open index, its filter and the cached view.
#[derive(Debug, Default)]
pub struct ExplorerState {
    index: Option<Arc<ExplorerIndex>>,
    filter: ExplorerFilter,
    /// The last open failure.
    message: Option<String>,
    /// What `view` was computed for: position key, filter, hidden.
    key: Option<(u64, ExplorerFilter, bool)>,
    view: ExplorerView,
}

impl ExplorerState {
    /// The open index.
    pub fn index(&self) -> Option<&Arc<ExplorerIndex>> {
        self.index.as_ref()
    }

    /// The filter.
    pub fn filter(&self) -> &ExplorerFilter {
        &self.filter
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

    /// Recomputes the view when the position, the filter or its hiding changed.
    fn refresh(&mut self, pos: &Chess, hidden: bool) {
        let Some(index) = &self.index else {
            self.key = None;
            self.view = ExplorerView::default();
            return;
        };
        let k = (key(pos), self.filter, hidden);
        if self.key == Some(k) {
            return;
        }
        self.key = Some(k);
        self.view = if hidden {
            ExplorerView {
                hidden,
                ..ExplorerView::default()
            }
        } else {
            match index.query_position(pos, &self.filter) {
                Ok(stats) => {
                    let games = stats.total().games();
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
                    ExplorerView {
                        hidden,
                        games,
                        rows,
                        error: None,
                    }
                }
                Err(e) => ExplorerView {
                    error: Some(e.to_string()),
                    ..ExplorerView::default()
                },
            }
        };
    }
}

impl Coach {
    /// The Explorer tab's state.
    pub fn explorer(&self) -> &ExplorerState {
        &self.explorer
    }

    pub(super) fn apply_explorer(&mut self, command: ExplorerCommand) {
        if command == ExplorerCommand::Choose {
            self.notify(super::Notice::ChooseExplorer);
            return;
        }
        let state = &mut self.explorer;
        match command {
            ExplorerCommand::Choose => {}
            ExplorerCommand::Open(dir) => match ExplorerIndex::open(&dir) {
                Ok(index) => {
                    state.index = Some(Arc::new(index));
                    state.filter = ExplorerFilter::default();
                    state.message = None;
                    state.key = None;
                }
                Err(e) => state.message = Some(format!("Cannot open the explorer index: {e}")),
            },
            ExplorerCommand::Close => {
                state.index = None;
                state.key = None;
            }
            ExplorerCommand::ToggleBand(band) => state.filter.bands ^= 1 << band.index(),
            ExplorerCommand::ToggleSpeed(speed) => state.filter.speeds ^= 1 << speed.index(),
        }
    }

    /// Brings the Explorer tab's view to the position on the board (a query only when
    /// the position or the filter changed).
    pub(super) fn refresh_explorer(&mut self) {
        let session = &self.session;
        let viewing = session.viewing();
        let ply = viewing.unwrap_or(session.moves().len());
        let hidden = viewing.is_none()
            && *session.phase() == Phase::LearnerToMove
            && (self.settings.hide_answer || self.review.is_some());
        let pos = session.position_at(ply).clone();
        self.explorer.refresh(&pos, hidden);
    }
}
