//! One position analysed by an engine: its score and best line, found the same way
//! whatever ran before, so that a cached analysis and a fresh one agree.
//!
//! [`analyse`] starts each position as a new game (`ucinewgame`: an empty hash table),
//! so an engine searching to a fixed depth gives the same answer in any order and on any
//! thread. Finished positions (mate, stalemate, insufficient material) are scored
//! without the engine.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use hastings::engine::{AlphaBeta, Limits, Score};
//! use hastings::engine::analysis::analyse;
//! use shakmaty::{Chess, Position};
//! use shakmaty::fen::Fen;
//!
//! // White to move hangs nothing; Black's queen on h4 is en prise to the knight.
//! let fen: Fen = "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".parse()?;
//! let pos: Chess = fen.into_position(shakmaty::CastlingMode::Standard)?;
//! let a = analyse(&mut AlphaBeta::default(), &pos, &Limits::depth(3)?, &AtomicBool::new(false))?;
//! assert!(a.score.to_centipawns() > 500);
//! assert_eq!(a.best().map(|m| m.to().to_string()), Some("h4".to_string()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::atomic::AtomicBool;

use shakmaty::{Chess, Move, Outcome, Position};

use super::Search;
use super::error::EngineError;
use super::game::Game;
use super::limits::Limits;
use super::score::Score;
use super::{Engine, SearchInfo};

/// The longest principal variation kept with an analysis (plies).
pub const MAX_PV: usize = 12;

/// What an engine says about a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The score from the side to move's point of view; `Mate(0)` when it is mated.
    pub score: Score,
    /// The best line from the position (empty when the game is over), at most
    /// [`MAX_PV`] plies.
    pub pv: Vec<Move>,
    /// The depth the score comes from (0 for a finished game).
    pub depth: u32,
}

impl Analysis {
    /// The engine's best move, if the game goes on.
    pub fn best(&self) -> Option<Move> {
        self.pv.first().copied()
    }

    /// The score from `colour`'s point of view, where `turn` is the side to move of the
    /// analysed position.
    pub fn score_for(&self, colour: shakmaty::Color, turn: shakmaty::Color) -> Score {
        if colour == turn {
            self.score
        } else {
            self.score.flip()
        }
    }

    /// The analysis of a finished game, or `None` while moves remain.
    pub fn of_finished(pos: &Chess) -> Option<Analysis> {
        let score = match pos.outcome() {
            Outcome::Known(shakmaty::KnownOutcome::Decisive { .. }) => Score::Mate(0),
            Outcome::Known(shakmaty::KnownOutcome::Draw) => Score::Cp(0),
            Outcome::Unknown => return None,
        };
        Some(Analysis {
            score,
            pv: Vec::new(),
            depth: 0,
        })
    }
}

/// Analyses `pos` with `engine` within `limits`, as a new game.
///
/// # Errors
///
/// [`EngineError`] when a UCI engine fails, or when it gives no score at all
/// ([`EngineError::NoScore`]).
pub fn analyse(
    engine: &mut dyn Engine,
    pos: &Chess,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<Analysis, EngineError> {
    if let Some(done) = Analysis::of_finished(pos) {
        return Ok(done);
    }
    engine.new_game()?;
    let mut last: Option<SearchInfo> = None;
    let result = engine.search(Search {
        game: &Game::new(pos.clone()),
        limits,
        stop,
        on_info: &mut |info| {
            if info.multipv <= 1 && info.score.is_some() {
                last = Some(info.clone());
            }
        },
    })?;
    let info = result
        .info
        .filter(|i| i.score.is_some())
        .or(last)
        .ok_or_else(|| EngineError::NoScore {
            engine: engine.name(),
        })?;
    let mut pv = info.pv;
    if let Some(best) = result.best
        && pv.first() != Some(&best)
    {
        pv = vec![best];
    }
    pv.truncate(MAX_PV);
    Ok(Analysis {
        score: info.score.unwrap_or(Score::Cp(0)),
        pv,
        depth: info.depth,
    })
}
