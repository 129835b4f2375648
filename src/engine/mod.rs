//! Engines: the built-in α-β and MCTS searches, a UCI client for engines such as
//! Stockfish, the `hastings uci` server, and engine matches.
//!
//! Every engine implements [`Engine`]: given a [`Game`] and [`Limits`], it searches,
//! reports [`SearchInfo`] as it goes and returns a [`SearchResult`]. The built-in
//! engines ([`AlphaBeta`], [`Mcts`]) never fail; a [`UciEngine`] is a child process
//! that can crash, hang or print nonsense, which gives an [`EngineError`] so the caller
//! can fall back to the built-in engine. [`EngineHandle`] runs any of them on a
//! background thread and reports over a channel, for the window.
//!
//! The parts, one idea per file:
//!
//! - evaluation: [`pst`] (the tables, as data), [`eval`] (tapered sum), [`tuned`] (seed
//!   003's 37 features with GA-tuned weights: Klevansky, Ostroff and Offen's genetically
//!   tuned evaluation, cited in `ARCHITECTURE.md`, References), [`evaluation`] (which
//!   one a search uses);
//! - α-β: [`search`] (iterative deepening, root), `negamax`, `quiescence`,
//!   [`ordering`] (hash move, MVV-LVA, killers, history), [`tt`], [`strength`],
//!   [`alphabeta`] (the engine);
//! - [`mcts`]: UCT with the evaluation at the leaves;
//! - the move predictor ([`predictor`]) as players: [`human`] (its distribution with a
//!   temperature), [`blend`] (seed 003's λ blend of it and the tuned evaluation's
//!   search), [`opponent`] (such a player analysing with α-β in a play-on game);
//! - UCI: [`protocol`] (lenient line parsing over shakmaty-uci), [`process`] (the child
//!   process and its reader threads), [`client`] (handshake, options, search),
//!   [`discover`] (finding Stockfish), [`uci_server`] (`hastings uci`),
//!   [`uci_command`] (reading what a GUI sends, leniently) and [`uci_engines`] (the
//!   engines it serves, their options);
//! - [`handle`]: a background engine for the window, with fallback;
//! - [`analysis`]: one position analysed as a new game (score and best line), for
//!   repertoire checks and wrong-move verdicts;
//! - matches: [`adjudicate`], [`elo`], [`spec`] (engines named on the command line),
//!   [`matches`](mod@matches), [`tournament`] (round robins and their cross table);
//! - [`tuning`]: the seed-003 evaluation's weights tuned by the genetic algorithm, on
//!   master moves and by co-evolution;
//! - the boundary's types: `game` (a start and moves), `limits`, `info` (what a search
//!   reports), `score`, `error`; `random` (a random mover for tests and matches) and
//!   `matching` (how often an agent plays the move a player played).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use hastings::engine::{AlphaBeta, Engine, Game, Limits, Search};
//!
//! let mut engine = AlphaBeta::default();
//! let search = Search {
//!     game: &Game::default(),
//!     limits: &Limits::depth(3).unwrap(),
//!     stop: &AtomicBool::new(false),
//!     on_info: &mut |_| {},
//! };
//! let result = engine.search(search).unwrap();
//! assert!(result.best.is_some());
//! ```

pub mod adjudicate;
pub mod alphabeta;
pub mod analysis;
pub mod blend;
pub mod choice;
pub mod client;
pub mod discover;
pub mod elo;
pub mod error;
pub mod eval;
pub mod evaluation;
pub mod game;
pub mod handle;
pub mod human;
pub mod info;
pub mod limits;
pub mod matches;
pub mod matching;
pub mod mcts;
mod negamax;
pub mod opponent;
pub mod option_error;
pub mod ordering;
pub mod predictor;
pub mod process;
pub mod protocol;
pub mod pst;
mod quiescence;
pub mod random;
pub mod score;
pub mod search;
pub mod spec;
pub mod strength;
pub mod tournament;
pub mod tt;
pub mod tuned;
pub mod tuning;
pub mod uci_command;
pub mod uci_engines;
pub mod uci_server;

use std::sync::atomic::AtomicBool;

pub use alphabeta::AlphaBeta;
pub use client::UciEngine;
pub use error::EngineError;
pub use game::Game;
pub use handle::{EngineChoice, EngineEvent, EngineHandle, WorkerGone};
pub use info::{SearchInfo, SearchResult};
pub use limits::Limits;
pub use mcts::Mcts;
pub use random::RandomMover;
pub use score::Score;
pub use strength::Strength;

/// One search asked of an [`Engine`]: the game whose current position is searched,
/// when to stop, the flag another thread sets to stop early, and where the reports go.
pub struct Search<'a> {
    /// The game; its current position is searched (the moves before it matter to UCI
    /// engines: repetitions).
    pub game: &'a Game,
    /// When the search ends (depth, time, nodes).
    pub limits: &'a Limits,
    /// Set by another thread to end the search early.
    pub stop: &'a AtomicBool,
    /// Called with each report while searching.
    pub on_info: OnInfo<'a>,
}

/// Where a search's reports go: called with each one.
pub type OnInfo<'a> = &'a mut dyn FnMut(&SearchInfo);

impl<'a> Search<'a> {
    /// The game, the limits, the stop flag and the reports' callback, in that order.
    pub fn into_parts(self) -> (&'a Game, &'a Limits, &'a AtomicBool, OnInfo<'a>) {
        (self.game, self.limits, self.stop, self.on_info)
    }
}

/// A chess engine: searches a game's current position and names a move.
pub trait Engine: Send {
    /// The engine's name (`id name` of a UCI engine).
    fn name(&self) -> String;

    /// Forgets what it learnt from the previous game (`ucinewgame`). By default there
    /// is nothing to forget.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when a UCI engine does not answer.
    fn new_game(&mut self) -> Result<(), EngineError> {
        Ok(())
    }

    /// Sets the playing strength. By default the engine has none to set (its strength
    /// is set apart, as a temperature or a λ) and ignores it.
    ///
    /// # Errors
    ///
    /// [`EngineError::Option`] when the engine has no such setting, or a process error.
    fn set_strength(&mut self, strength: Strength) -> Result<(), EngineError> {
        let _ = strength;
        Ok(())
    }

    /// Searches the current position of the search's game within its limits, calling its
    /// `on_info` with each report, until a limit is reached or `stop` is set.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when a UCI engine crashes, hangs, prints garbage or plays an
    /// illegal move. The built-in engines never fail.
    fn search(&mut self, search: Search<'_>) -> Result<SearchResult, EngineError>;
}
