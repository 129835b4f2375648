//! Playing on after the book: the game the learner continues against an engine once a
//! line ends (or from any book position), as a pure state machine.
//!
//! [`PlayOnGame`] holds the moves: the book part (the drill's moves up to the position
//! played on from, named by its opening) and the engine part (the learner's and the
//! engine's moves after it), whose turn it is, and the result by the rules of chess
//! ([`crate::engine::adjudicate`]). It exports the whole game as PGN with the switch
//! marked (`pgn`). [`PlayOn`] (`opponent`) drives it with an engine on a background
//! thread ([`EngineHandle`](crate::engine::EngineHandle)): the engine's moves, the
//! evaluation for the eval bar and the best move for the arrow, and the fallback to the
//! built-in engine when a UCI engine fails. The window only draws it.
//!
//! ```
//! use hastings::trainer::play_on::{PlayOnGame, Turn};
//! use shakmaty::{Chess, Color, Position, san::San};
//!
//! let mut pos = Chess::default();
//! let mut book = Vec::new();
//! for san in ["e4", "e5", "Nf3"] {
//!     let mv = San::from_ascii(san.as_bytes()).unwrap().to_move(&pos).unwrap();
//!     pos.play_unchecked(mv);
//!     book.push(mv);
//! }
//! let game = PlayOnGame::new(
//!     Chess::default(),
//!     &book,
//!     Some("C40 King's Knight Opening".into()),
//!     Color::White,
//! )
//! .unwrap();
//! // Black (the engine) is to move after 1.e4 e5 2.Nf3.
//! assert_eq!(game.turn(), Turn::Engine);
//! assert!(game.to_pgn("Hastings α-β").contains("2. Nf3 {Book ends: C40 King's Knight Opening}"));
//! ```

mod opponent;
mod pgn;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};
use thiserror::Error;

use crate::engine::Game;
use crate::engine::Score;
use crate::engine::adjudicate::{GameEnd, adjudicate};

pub use opponent::{ANALYSIS_TIME, Evaluation, Opponent, PlayOn, PlayOnEvent, SearchKind};
pub use pgn::pgn_date;

/// Why a play-on game or move was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayOnError {
    /// A book move does not fit the position before it.
    #[error("book move {ply} ({uci}) is illegal")]
    IllegalBookMove {
        /// The 1-based ply.
        ply: usize,
        /// The move in UCI notation.
        uci: String,
    },
    /// A move is illegal in the current position.
    #[error("{uci} is not a legal move here")]
    Illegal {
        /// The move in UCI notation.
        uci: String,
    },
    /// The move came from the wrong side (the learner on the engine's turn, or the
    /// other way round).
    #[error("it is not {0}'s turn")]
    NotYourTurn(&'static str),
    /// The game is over.
    #[error("the game is over ({0})")]
    GameOver(String),
}

/// Whose turn it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Turn {
    /// The learner is to move.
    Learner,
    /// The engine is to move.
    Engine,
    /// The game is over.
    Over(GameEnd),
}

/// A move of the game: the book part or the engine part.
#[derive(Debug, Clone, PartialEq)]
pub struct GameMove {
    /// The move.
    pub mv: Move,
    /// It in SAN with `+`/`#`.
    pub san: String,
    /// Whether the learner played it (a book move counts as the learner's when it was
    /// the learner's colour).
    pub by_learner: bool,
    /// The engine's evaluation after its own search, from White's side (engine moves
    /// only; written as `[%eval]` in the PGN).
    pub eval: Option<Score>,
    /// Where an engine's move came from, when it says (sparring: the explorer's games
    /// or the model); a comment in the PGN.
    pub note: Option<String>,
}

/// A game played on from a book position against an engine.
#[derive(Debug, Clone)]
pub struct PlayOnGame {
    /// All moves from the start, for the engine and for repetitions.
    game: Game,
    /// The book moves, then the moves played on.
    moves: Vec<GameMove>,
    /// How many of `moves` are the book's.
    book_plies: usize,
    /// The title of the opening reached, `"C60 Ruy Lopez"`.
    opening: Option<String>,
    learner: Color,
    end: Option<GameEnd>,
}

impl PlayOnGame {
    /// A game from `start` after the `book` moves (the drill's), named `opening`; the
    /// learner plays `learner`.
    ///
    /// # Errors
    ///
    /// [`PlayOnError::IllegalBookMove`] when a book move is illegal.
    pub fn new(
        start: Chess,
        book: &[Move],
        opening: Option<String>,
        learner: Color,
    ) -> Result<PlayOnGame, PlayOnError> {
        let mut game = PlayOnGame {
            game: Game::new(start),
            moves: Vec::with_capacity(book.len()),
            book_plies: 0,
            opening,
            learner,
            end: None,
        };
        for (i, &mv) in book.iter().enumerate() {
            game.push(mv, None)
                .map_err(|_| PlayOnError::IllegalBookMove {
                    ply: i + 1,
                    uci: mv.to_uci(shakmaty::CastlingMode::Standard).to_string(),
                })?;
        }
        game.book_plies = book.len();
        Ok(game)
    }

    /// The learner's colour.
    pub fn learner(&self) -> Color {
        self.learner
    }

    /// The opening's title, if the book part is named.
    pub fn opening(&self) -> Option<&str> {
        self.opening.as_deref()
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        self.game.position()
    }

    /// The moves as an engine game (start position, moves, repetition hashes).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Every move: the book part first ([`PlayOnGame::book_plies`] of them).
    pub fn moves(&self) -> &[GameMove] {
        &self.moves
    }

    /// How many of the moves are the book's.
    pub fn book_plies(&self) -> usize {
        self.book_plies
    }

    /// The moves played on after the book.
    pub fn played(&self) -> &[GameMove] {
        &self.moves[self.book_plies..]
    }

    /// The last move on the board.
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().map(|m| m.mv)
    }

    /// The position where the book ended (where "Back to the book" returns).
    pub fn book_position(&self) -> Chess {
        let mut pos = self.game.start().clone();
        for m in &self.moves[..self.book_plies] {
            pos.play_unchecked(m.mv);
        }
        pos
    }

    /// Whose turn it is, or how the game ended.
    pub fn turn(&self) -> Turn {
        match &self.end {
            Some(end) => Turn::Over(end.clone()),
            None if self.position().turn() == self.learner => Turn::Learner,
            None => Turn::Engine,
        }
    }

    /// How the game ended, if it did.
    pub fn end(&self) -> Option<&GameEnd> {
        self.end.as_ref()
    }

    /// The result as PGN writes it: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result(&self) -> &'static str {
        match self.end.as_ref().map(GameEnd::outcome) {
            None => "*",
            Some(shakmaty::KnownOutcome::Draw) => "1/2-1/2",
            Some(shakmaty::KnownOutcome::Decisive {
                winner: Color::White,
            }) => "1-0",
            Some(shakmaty::KnownOutcome::Decisive { .. }) => "0-1",
        }
    }

    /// The learner's move; returns its SAN.
    ///
    /// # Errors
    ///
    /// When the game is over, it is the engine's turn, or the move is illegal; nothing
    /// changes then.
    pub fn play_learner(&mut self, mv: Move) -> Result<String, PlayOnError> {
        self.check_turn(Turn::Learner, "the learner")?;
        self.push(mv, None)
    }

    /// The engine's move, with the evaluation of its search from the engine's side (as
    /// UCI engines report it); returns its SAN.
    ///
    /// # Errors
    ///
    /// When the game is over, it is the learner's turn, or the move is illegal; nothing
    /// changes then.
    pub fn play_engine(&mut self, mv: Move, score: Option<Score>) -> Result<String, PlayOnError> {
        self.check_turn(Turn::Engine, "the engine")?;
        let white = score.map(|s| match self.position().turn() {
            Color::White => s,
            Color::Black => s.flip(),
        });
        self.push(mv, white)
    }

    /// Notes where the last move came from (a comment after it in the PGN).
    pub fn note_last(&mut self, note: String) {
        if let Some(last) = self.moves.last_mut() {
            last.note = Some(note);
        }
    }

    /// Takes back moves played on until it is the learner's turn again with one
    /// learner's move fewer (the engine's reply and the learner's move); never into the
    /// book. Returns whether anything was taken back.
    pub fn take_back(&mut self) -> bool {
        let Some(last_own) = self.moves[self.book_plies..]
            .iter()
            .rposition(|m| m.by_learner)
        else {
            return false;
        };
        let keep = self.book_plies + last_own;
        let moves: Vec<Move> = self.moves[..keep].iter().map(|m| m.mv).collect();
        let mut rebuilt = Game::new(self.game.start().clone());
        for &mv in &moves {
            rebuilt.play(mv);
        }
        self.game = rebuilt;
        self.moves.truncate(keep);
        self.end = None;
        true
    }

    fn check_turn(&self, want: Turn, who: &'static str) -> Result<(), PlayOnError> {
        match self.turn() {
            Turn::Over(end) => Err(PlayOnError::GameOver(end.to_string())),
            turn if turn == want => Ok(()),
            _ => Err(PlayOnError::NotYourTurn(who)),
        }
    }

    fn push(&mut self, mv: Move, eval: Option<Score>) -> Result<String, PlayOnError> {
        let before = self.position().clone();
        if !self.game.play(mv) {
            return Err(PlayOnError::Illegal {
                uci: mv.to_uci(shakmaty::CastlingMode::Standard).to_string(),
            });
        }
        let turn = before.turn();
        let san = SanPlus::from_move(before, mv).to_string();
        self.moves.push(GameMove {
            mv,
            san: san.clone(),
            by_learner: turn == self.learner,
            eval,
            note: None,
        });
        self.end = adjudicate(&self.game, usize::MAX);
        Ok(san)
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::san::San;

    use super::*;

    fn moves(sans: &str) -> Vec<Move> {
        crate::book::movelist::parse_moves(&Chess::default(), sans).unwrap()
    }

    fn one(pos: &Chess, san: &str) -> Move {
        San::from_ascii(san.as_bytes())
            .unwrap()
            .to_move(pos)
            .unwrap()
    }

    #[test]
    fn turns_alternate_between_learner_and_engine_after_the_book() {
        let mut g = PlayOnGame::new(Chess::default(), &moves("e4 e5"), None, Color::White).unwrap();
        assert_eq!(g.turn(), Turn::Learner);
        let nf3 = one(g.position(), "Nf3");
        assert_eq!(
            g.play_engine(nf3, None),
            Err(PlayOnError::NotYourTurn("the engine"))
        );
        assert_eq!(g.play_learner(nf3).unwrap(), "Nf3");
        assert_eq!(g.turn(), Turn::Engine);
        let nc6 = one(g.position(), "Nc6");
        assert_eq!(g.play_engine(nc6, Some(Score::Cp(-30))).unwrap(), "Nc6");
        assert_eq!(g.book_plies(), 2);
        assert_eq!(g.played().len(), 2);
        // Black's -0.30 from its own side is +0.30 for White.
        assert_eq!(g.played()[1].eval, Some(Score::Cp(30)));
        assert!(g.played()[0].by_learner && !g.played()[1].by_learner);
    }

    #[test]
    fn an_illegal_book_move_is_named_by_its_ply() {
        let mut book = moves("e4 e5");
        book.push(book[0]);
        let err = PlayOnGame::new(Chess::default(), &book, None, Color::White).unwrap_err();
        assert_eq!(
            err,
            PlayOnError::IllegalBookMove {
                ply: 3,
                uci: "e2e4".into()
            }
        );
    }

    #[test]
    fn take_back_undoes_the_reply_and_the_learners_move_but_never_the_book() {
        let mut g = PlayOnGame::new(Chess::default(), &moves("d4 d5"), None, Color::White).unwrap();
        assert!(!g.take_back(), "nothing played on yet");
        g.play_learner(one(g.position(), "c4")).unwrap();
        g.play_engine(one(g.position(), "e6"), None).unwrap();
        assert!(g.take_back());
        assert_eq!(g.moves().len(), 2);
        assert_eq!(g.position(), &g.book_position());
        assert_eq!(g.turn(), Turn::Learner);
        assert!(!g.take_back());
    }

    #[test]
    fn mate_ends_the_game_and_refuses_further_moves() {
        // After 1.f3 e5 2.g4 the engine (Black) mates with Qh4#.
        let mut g =
            PlayOnGame::new(Chess::default(), &moves("f3 e5 g4"), None, Color::White).unwrap();
        let qh4 = one(g.position(), "Qh4#");
        assert_eq!(g.play_engine(qh4, Some(Score::Mate(1))).unwrap(), "Qh4#");
        assert_eq!(
            g.turn(),
            Turn::Over(GameEnd::Checkmate {
                winner: Color::Black
            })
        );
        assert_eq!(g.result(), "0-1");
        assert_eq!(
            g.play_learner(qh4),
            Err(PlayOnError::GameOver("checkmate".into()))
        );
        assert!(!g.take_back(), "the learner played no move after the book");
    }

    #[test]
    fn threefold_repetition_after_the_book_is_a_draw() {
        let mut g =
            PlayOnGame::new(Chess::default(), &moves("Nf3 Nf6"), None, Color::White).unwrap();
        // The start position comes back for the third time after the second Ng8.
        for san in ["Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
            let mv = one(g.position(), san);
            if g.turn() == Turn::Learner {
                g.play_learner(mv).unwrap();
            } else {
                g.play_engine(mv, None).unwrap();
            }
        }
        assert_eq!(g.turn(), Turn::Over(GameEnd::Repetition));
        assert_eq!(g.result(), "1/2-1/2");
    }
}
