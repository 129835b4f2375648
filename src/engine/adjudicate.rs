//! When a game between engines is over: the rules of chess (mate, stalemate, the
//! fifty-move rule, threefold repetition, insufficient material) and a move cap.

use std::fmt;

use shakmaty::{Color, KnownOutcome, Position};

use super::game::Game;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The side to move is mated.
    Checkmate {
        /// Who mated.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A hundred plies without a capture or pawn move.
    FiftyMoves,
    /// The same position for the third time.
    Repetition,
    /// Neither side can mate.
    InsufficientMaterial,
    /// The game reached the move cap (scored a draw).
    MoveCap {
        /// The cap, in plies.
        plies: usize,
    },
    /// An engine failed (crashed, hung, played an illegal move) and loses.
    Forfeit {
        /// Who failed.
        loser: Color,
        /// What happened.
        reason: String,
    },
}

impl GameEnd {
    /// The result.
    pub fn outcome(&self) -> KnownOutcome {
        match self {
            GameEnd::Checkmate { winner } => KnownOutcome::Decisive { winner: *winner },
            GameEnd::Forfeit { loser, .. } => KnownOutcome::Decisive { winner: !*loser },
            _ => KnownOutcome::Draw,
        }
    }
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameEnd::Checkmate { .. } => write!(f, "checkmate"),
            GameEnd::Stalemate => write!(f, "stalemate"),
            GameEnd::FiftyMoves => write!(f, "fifty-move rule"),
            GameEnd::Repetition => write!(f, "threefold repetition"),
            GameEnd::InsufficientMaterial => write!(f, "insufficient material"),
            GameEnd::MoveCap { plies } => write!(f, "move cap ({plies} plies)"),
            GameEnd::Forfeit { loser, reason } => write!(f, "{loser} forfeits: {reason}"),
        }
    }
}

/// Whether `game` is over, and why; `max_plies` caps the game's length (counted
/// from its start, openings included).
pub fn adjudicate(game: &Game, max_plies: usize) -> Option<GameEnd> {
    let pos = game.position();
    if pos.legal_moves().is_empty() {
        return Some(if pos.is_check() {
            GameEnd::Checkmate {
                winner: !pos.turn(),
            }
        } else {
            GameEnd::Stalemate
        });
    }
    if pos.is_insufficient_material() {
        return Some(GameEnd::InsufficientMaterial);
    }
    if pos.halfmoves() >= 100 {
        return Some(GameEnd::FiftyMoves);
    }
    if is_threefold(game) {
        return Some(GameEnd::Repetition);
    }
    if game.moves().len() >= max_plies {
        return Some(GameEnd::MoveCap { plies: max_plies });
    }
    None
}

/// Whether the current position occurred twice before, within the moves since the
/// last capture or pawn move.
fn is_threefold(game: &Game) -> bool {
    let hashes = game.hashes();
    let Some((&now, earlier)) = hashes.split_last() else {
        return false;
    };
    let reversible = game.position().halfmoves() as usize;
    earlier
        .iter()
        .rev()
        .take(reversible)
        .skip(1)
        .step_by(2)
        .filter(|&&h| h == now)
        .count()
        >= 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;

    fn game(moves: &str) -> Game {
        let moves: Vec<UciMove> = moves
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        Game::from_uci(None, &moves).unwrap()
    }

    #[test]
    fn fools_mate_is_a_black_win() {
        let g = game("f2f3 e7e5 g2g4 d8h4");
        assert_eq!(
            adjudicate(&g, 500),
            Some(GameEnd::Checkmate {
                winner: Color::Black
            })
        );
    }

    #[test]
    fn knights_shuffling_repeat_on_the_third_occurrence() {
        let twice = game("g1f3 g8f6 f3g1 f6g8");
        assert_eq!(adjudicate(&twice, 500), None);
        let thrice = game("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
        assert_eq!(adjudicate(&thrice, 500), Some(GameEnd::Repetition));
    }

    #[test]
    fn the_move_cap_ends_a_long_game_as_a_draw() {
        let g = game("e2e4 e7e5");
        let end = adjudicate(&g, 2).unwrap();
        assert_eq!(end, GameEnd::MoveCap { plies: 2 });
        assert_eq!(end.outcome(), KnownOutcome::Draw);
    }
}
