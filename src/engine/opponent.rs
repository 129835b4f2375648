//! A play-on opponent that plays its own way but analyses like the other engines: at full
//! strength (the learner's turn, for the eval bar and the best-move arrow) it searches
//! with the built-in α-β engine; at any other strength it plays its own moves (the
//! human-like engine's predictor, the blend of seed 003 (Klevansky, Ostroff and Offen,
//! "Determining the Optimal Tradeoff for building Chess Playing Agents: Genetically Tuned
//! vs. Neural Features", Technion, 2023; `ARCHITECTURE.md`, References)), whose strength
//! is set apart.

use super::Engine;
use super::Search;
use super::alphabeta::AlphaBeta;
use super::error::EngineError;
use super::info::SearchResult;
use super::strength::Strength;

/// The strength a [`WithAnalyst`] plays at (any strength but [`Strength::Full`]).
pub const PLAYING: Strength = Strength::Skill(0);

/// `player` for its moves, the built-in α-β engine for analysis.
#[derive(Debug)]
pub struct WithAnalyst<E> {
    player: E,
    analyst: AlphaBeta,
    analysing: bool,
}

impl<E: Engine> WithAnalyst<E> {
    /// `player` with the built-in analyst.
    pub fn new(player: E) -> WithAnalyst<E> {
        WithAnalyst {
            player,
            analyst: AlphaBeta::default(),
            analysing: false,
        }
    }
}

impl<E: Engine> Engine for WithAnalyst<E> {
    fn name(&self) -> String {
        self.player.name()
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.player.new_game()?;
        self.analyst.new_game()
    }

    /// Full strength: analyse with α-β; otherwise play the player's moves.
    fn set_strength(&mut self, strength: Strength) -> Result<(), EngineError> {
        self.analysing = strength == Strength::Full;
        Ok(())
    }

    fn search(&mut self, search: Search<'_>) -> Result<SearchResult, EngineError> {
        if self.analysing {
            self.analyst.search(search)
        } else {
            self.player.search(search)
        }
    }
}
