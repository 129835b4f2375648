//! A top game of the Explorer tab opened in its own window: read from its PGN file on
//! a thread (finding game 900,000 of a big database takes a moment), then shown move by
//! move from the position where the tab listed it.

use shakmaty::{Chess, Move, Position};

use crate::book::explorer::ShownGame;
use crate::book::polyglot::key;
use crate::job::{Job, JobError, JobPoll};
use crate::workspace::explorer::{ExplorerError, TopGame};
use crate::workspace::file_name;

/// A game being shown: its players, details and moves, and the ply on its board.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownGameView {
    /// "White (rating) - Black (rating)".
    pub title: String,
    /// Event, site, date, result, and where the game is ("file.pgn, game 12").
    pub details: String,
    /// The moves in SAN.
    pub sans: Vec<String>,
    /// Why the moves stop early, when they do.
    pub note: Option<String>,
    game: ShownGame,
    ply: usize,
    position: Chess,
}

impl ShownGameView {
    fn new(game: ShownGame, file: &str, at: Option<u64>) -> ShownGameView {
        let tag = |name: &str| game.tag(name).filter(|v| !v.is_empty() && *v != "?");
        let player = |name: &str, elo: &str| match tag(elo) {
            Some(elo) => format!("{} ({elo})", tag(name).unwrap_or("?")),
            None => tag(name).unwrap_or("?").to_owned(),
        };
        let title = format!(
            "{} - {}",
            player("White", "WhiteElo"),
            player("Black", "BlackElo")
        );
        let mut details: Vec<String> = ["Event", "Site", "Date", "Result"]
            .iter()
            .filter_map(|&name| tag(name).map(str::to_owned))
            .collect();
        details.push(format!(
            "{}, game {}",
            file_name(std::path::Path::new(file)),
            game.number
        ));
        // Open where the tab listed it: just after its move at the tab's position.
        let ply = at
            .and_then(|at| (0..=game.moves.len()).find(|&p| key(&game.position(p)) == at))
            .map_or(0, |p| (p + 1).min(game.moves.len()));
        ShownGameView {
            title,
            details: details.join(" · "),
            sans: game.sans(),
            note: game.stopped.clone(),
            position: game.position(ply),
            game,
            ply,
        }
    }

    /// The ply on the board (0: the start).
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// Plies in the game.
    pub fn len(&self) -> usize {
        self.game.moves.len()
    }

    /// Whether the game has no move.
    pub fn is_empty(&self) -> bool {
        self.game.moves.is_empty()
    }

    /// The position on the board.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// The move that led to it.
    pub fn last_move(&self) -> Option<&Move> {
        self.ply.checked_sub(1).and_then(|i| self.game.moves.get(i))
    }

    /// The moves from the start to the ply shown.
    pub fn moves_played(&self) -> &[Move] {
        &self.game.moves[..self.ply]
    }

    /// Whether the game starts from the standard position (as repertoire lines do).
    pub fn starts_at_standard(&self) -> bool {
        key(&self.game.start) == key(&Chess::default())
    }

    /// The side that moves first (move numbers follow it).
    pub fn starts_black(&self) -> bool {
        self.game.start.turn() == shakmaty::Color::Black
    }

    /// The number of the start position's move.
    pub fn first_move_number(&self) -> u32 {
        self.game.start.fullmoves().get()
    }

    fn go_to(&mut self, ply: usize) {
        self.ply = ply.min(self.game.moves.len());
        self.position = self.game.position(self.ply);
    }
}

/// Why the game window shows no game: the index's game table, or the thread that read
/// it.
#[derive(Debug, thiserror::Error)]
pub enum GameReadError {
    /// The game could not be read from the index.
    #[error(transparent)]
    Index(#[from] ExplorerError),
    /// The thread reading it stopped without an answer.
    #[error(transparent)]
    Job(#[from] JobError),
}

/// A game being read.
#[derive(Debug)]
struct Loading {
    players: String,
    file: String,
    /// The position to open it at.
    at: Option<u64>,
    job: Job<Result<ShownGame, ExplorerError>>,
}

/// The game window's state: the game being read, the game shown, or why none is.
#[derive(Debug, Default)]
pub struct ExplorerGameState {
    loading: Option<Loading>,
    shown: Option<ShownGameView>,
    message: Option<String>,
}

impl ExplorerGameState {
    /// The game shown.
    pub fn shown(&self) -> Option<&ShownGameView> {
        self.shown.as_ref()
    }

    /// The players of the game being read, while it is.
    pub fn loading(&self) -> Option<&str> {
        self.loading.as_ref().map(|l| l.players.as_str())
    }

    /// Why the last game asked for is not shown.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Whether the window is open (a game shown, being read, or a failure to say).
    pub fn is_open(&self) -> bool {
        self.shown.is_some() || self.loading.is_some() || self.message.is_some()
    }

    /// Shows ply `ply` of the game shown.
    pub(super) fn go_to(&mut self, ply: usize) {
        if let Some(shown) = &mut self.shown {
            shown.go_to(ply);
        }
    }

    /// Reads `top` on a thread; the game opens at position `at` (a Polyglot key).
    pub(super) fn open(&mut self, top: TopGame, at: Option<u64>, wake: crate::job::Wake) {
        let players = format!("{} - {}", top.game.white, top.game.black);
        let file = top.file.clone();
        match Job::spawn("explorer-game", wake, move |_| top.read()) {
            Ok(job) => {
                self.message = None;
                self.shown = None;
                self.loading = Some(Loading {
                    players,
                    file,
                    at,
                    job,
                });
            }
            Err(e) => self.message = Some(format!("Cannot read the game: {e}")),
        }
    }

    /// Takes the read game when it is there; `wait` blocks until it is (tests).
    pub(super) fn poll(&mut self, wait: bool) {
        let Some(loading) = &self.loading else {
            return;
        };
        let polled = if wait {
            loading.job.poll_blocking()
        } else {
            loading.job.poll()
        };
        let read = match polled {
            JobPoll::Running => return,
            JobPoll::Finished(read) => read.map_err(GameReadError::Index),
            JobPoll::Died(e) => Err(GameReadError::Job(e)),
        };
        let Some(Loading { file, at, .. }) = self.loading.take() else {
            return;
        };
        match read {
            Ok(game) => self.shown = Some(ShownGameView::new(game, &file, at)),
            Err(e) => self.message = Some(format!("Cannot show the game: {e}")),
        }
    }
}
