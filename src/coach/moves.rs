//! Moves given on the command line to show in the window (`hastings --screenshot
//! --moves "e4 c5"`): SAN from the start position, every position in the book but
//! maybe the last (the learner's move outside the book, shown with its verdict).

use shakmaty::{Chess, Move, Position};
use thiserror::Error;

use crate::book::PositionGraph;
use crate::book::movelist::{self, MoveListError};

/// Why the moves cannot be shown.
#[derive(Debug, Error)]
pub enum BookMovesError {
    /// A move cannot be read or played.
    #[error(transparent)]
    Moves(#[from] MoveListError),
    /// A move leaves the book.
    #[error("the position after move {ply} is not in the book")]
    LeavesBook {
        /// The 1-based ply.
        ply: usize,
    },
}

/// Parses `moves` (SAN from the start position); every position after them but the
/// last must be in `graph` (a last move outside it is shown as the learner's wrong move).
///
/// # Errors
///
/// [`BookMovesError`] for a move that cannot be read or played, or that leaves the book.
pub fn book_moves(graph: &PositionGraph, moves: &str) -> Result<Vec<Move>, BookMovesError> {
    let played = movelist::parse_moves(&Chess::default(), moves)?;
    let mut pos = Chess::default();
    for (i, &mv) in played.iter().enumerate() {
        pos.play_unchecked(mv);
        if graph.lookup(&pos).is_none() && i + 1 < played.len() {
            return Err(BookMovesError::LeavesBook { ply: i + 1 });
        }
    }
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_must_stay_in_the_book_but_the_last() {
        let eco = PositionGraph::eco().unwrap();
        assert_eq!(book_moves(&eco, "e4 c5").unwrap().len(), 2);
        assert_eq!(book_moves(&eco, "").unwrap().len(), 0);
        assert_eq!(book_moves(&eco, "e4 e5 Qh5 Ke7").unwrap().len(), 4);
        assert!(matches!(
            book_moves(&eco, "e4 e5 Qh5 Ke7 Qxe5+"),
            Err(BookMovesError::LeavesBook { ply: 4 })
        ));
        assert!(matches!(
            book_moves(&eco, "e5"),
            Err(BookMovesError::Moves(_))
        ));
    }
}
