//! A game as engines see it: a start position and the moves played since.
//!
//! UCI engines are told `position fen … moves …`; the built-in engines need the
//! positions of the moves too, to recognise repetitions. [`Game`] keeps both.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};
use shakmaty_uci::UciMessage;

/// The Zobrist hash of a position, as every table of the engines keys it.
pub fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The hash after playing `m` in `pos` (whose hash is `current`), incrementally where
/// shakmaty can.
pub fn hash_after(pos: &Chess, current: u64, m: Move, child: &Chess) -> u64 {
    pos.update_zobrist_hash(Zobrist64(current), m, EnPassantMode::Legal)
        .map_or_else(|| hash(child), |z| z.0)
}

/// A start position and the legal moves played from it.
#[derive(Clone, Debug)]
pub struct Game {
    start: Chess,
    moves: Vec<Move>,
    current: Chess,
    /// Hashes of the positions from the start, the current one last.
    hashes: Vec<u64>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Chess::default())
    }
}

impl Game {
    /// A game starting at `start`, no moves played.
    pub fn new(start: Chess) -> Game {
        let hashes = vec![hash(&start)];
        Game {
            current: start.clone(),
            start,
            moves: Vec::new(),
            hashes,
        }
    }

    /// The game of `moves` played from `start`.
    ///
    /// # Errors
    ///
    /// The index of the first illegal move.
    pub fn from_moves(start: Chess, moves: &[Move]) -> Result<Game, usize> {
        let mut game = Game::new(start);
        for (i, &m) in moves.iter().enumerate() {
            if !game.play(m) {
                return Err(i);
            }
        }
        Ok(game)
    }

    /// The game of a UCI `position` command: `startpos` or a FEN, then moves.
    ///
    /// # Errors
    ///
    /// [`PositionCommandError`] naming the bad FEN or the first illegal move.
    pub fn from_uci(fen: Option<&Fen>, moves: &[UciMove]) -> Result<Game, PositionCommandError> {
        let start = match fen {
            None => Chess::default(),
            Some(fen) => fen
                .clone()
                .into_position(CastlingMode::Standard)
                .map_err(|e| PositionCommandError::IllegalPosition {
                    fen: fen.to_string(),
                    reason: e.to_string(),
                })?,
        };
        let mut game = Game::new(start);
        for (i, uci) in moves.iter().enumerate() {
            let m =
                uci.to_move(game.position())
                    .map_err(|_| PositionCommandError::IllegalMove {
                        number: i + 1,
                        uci: uci.to_string(),
                    })?;
            game.play(m);
        }
        Ok(game)
    }

    /// Plays `m` if it is legal; returns whether it was.
    pub fn play(&mut self, m: Move) -> bool {
        if !self.current.is_legal(m) {
            return false;
        }
        let before = self.current.clone();
        self.current.play_unchecked(m);
        let h = hash_after(&before, self.hash(), m, &self.current);
        self.hashes.push(h);
        self.moves.push(m);
        true
    }

    /// The start position.
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        &self.current
    }

    /// The current position's hash.
    pub fn hash(&self) -> u64 {
        self.hashes.last().copied().unwrap_or_default()
    }

    /// Hashes of every position of the game, the start first and the current last.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// The UCI `position` command for this game (`startpos` when the start is the
    /// standard position).
    pub fn to_uci(&self) -> UciMessage {
        let startpos = self.start == Chess::default();
        UciMessage::Position {
            startpos,
            fen: (!startpos).then(|| Fen::from_position(&self.start, EnPassantMode::Legal)),
            moves: self
                .moves
                .iter()
                .map(|&m| m.to_uci(CastlingMode::Standard))
                .collect(),
        }
    }
}

/// Why a UCI `position` command cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionCommandError {
    /// The FEN is not a legal position.
    #[error("illegal position {fen}: {reason}")]
    IllegalPosition {
        /// The FEN as given.
        fen: String,
        /// Why it is illegal.
        reason: String,
    },
    /// A move of the list is illegal where it is played.
    #[error("move {number} `{uci}` is illegal")]
    IllegalMove {
        /// Its place in the list, from 1.
        number: usize,
        /// The move as given.
        uci: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_hashes_match_hashes_from_scratch() {
        let uci: Vec<UciMove> = ["e2e4", "d7d5", "e4e5", "f7f5", "e5f6", "e8f7", "f6g7"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let game = Game::from_uci(None, &uci).unwrap();
        let mut pos = Chess::default();
        assert_eq!(game.hashes()[0], hash(&pos));
        for (i, m) in game.moves().iter().enumerate() {
            pos.play_unchecked(*m);
            assert_eq!(game.hashes()[i + 1], hash(&pos), "after move {}", i + 1);
        }
    }

    #[test]
    fn illegal_uci_move_is_named() {
        let uci: Vec<UciMove> = ["e2e4", "e2e4"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let err = Game::from_uci(None, &uci).unwrap_err().to_string();
        assert!(err.contains("move 2 `e2e4`"), "{err}");
    }

    #[test]
    fn position_command_names_startpos_or_fen() {
        let game = Game::from_moves(Chess::default(), &[]).unwrap();
        assert_eq!(game.to_uci().to_string(), "position startpos");
        let fen: Fen = "8/8/8/8/8/5k2/8/5K1R w - - 0 1".parse().unwrap();
        let game = Game::from_uci(Some(&fen), &[]).unwrap();
        assert_eq!(
            game.to_uci().to_string(),
            "position fen 8/8/8/8/8/5k2/8/5K1R w - - 0 1"
        );
    }
}
