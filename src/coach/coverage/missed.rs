//! The Progress tab's "Most often missed": each position as a board, with the book moves
//! that lead there (what "Drill this" starts from) or, for a position the book drilled
//! now does not reach, the board alone. Worked out when the progress or the book
//! changes, never while a frame is drawn.

use std::collections::HashMap;

use shakmaty::{Chess, Color, Move, Position};

use crate::book::PositionGraph;
use crate::coach::context::Context;
use crate::trainer::progress::Progress;

/// How many positions the tab lists.
pub const MISSED_SHOWN: usize = 10;

/// A position the learner often missed.
#[derive(Clone, Debug, PartialEq)]
pub struct MissedPosition {
    /// The position (the learner to move).
    pub position: Chess,
    /// A shortest path of book moves from the standard start, when the book drilled now
    /// reaches the position.
    pub moves: Option<Vec<Move>>,
    /// The opening's name there, when the book names it.
    pub name: Option<String>,
    /// How many of the tries left the book.
    pub mistakes: u32,
    /// How often the learner moved here.
    pub attempts: u32,
}

impl MissedPosition {
    /// `"3 mistakes in 4 tries"`, `"1 mistake in 1 try"`.
    pub fn tries_text(&self) -> String {
        format!(
            "{} mistake{} in {} tr{}",
            self.mistakes,
            if self.mistakes == 1 { "" } else { "s" },
            self.attempts,
            if self.attempts == 1 { "y" } else { "ies" }
        )
    }

    /// The side the learner played here.
    pub fn learner(&self) -> Color {
        self.position.turn()
    }
}

/// The rows shown, and the book paths found so far.
#[derive(Debug, Default)]
pub(crate) struct MissedState {
    /// The book generation and the progress generation the rows were made for.
    key: Option<(u64, u64)>,
    rows: Vec<MissedPosition>,
    /// The path to each position (by EPD) in the book of `key`.
    paths: HashMap<String, Option<Vec<Move>>>,
}

impl MissedState {
    /// Makes the rows again when the book or the progress changed since the last call
    /// (`progress` is the progress at `progress_generation`).
    fn refresh(
        &mut self,
        progress: &Progress,
        progress_generation: u64,
        graph: &PositionGraph,
        book: u64,
    ) {
        let key = (book, progress_generation);
        if self.key == Some(key) {
            return;
        }
        if self.key.is_none_or(|k| k.0 != book) {
            self.paths.clear();
        }
        self.key = Some(key);
        self.rows = progress
            .most_missed(MISSED_SHOWN)
            .into_iter()
            .filter_map(|(epd, record)| {
                let position = crate::trainer::progress::position_of(epd)?;
                let node = graph.lookup(&position);
                let moves = self
                    .paths
                    .entry(epd.to_owned())
                    .or_insert_with(|| node.and_then(|n| graph.path_to(n)))
                    .clone();
                let name = node
                    .filter(|_| moves.is_some())
                    .and_then(|n| graph.name(n))
                    .map(|l| graph.line(l).title());
                Some(MissedPosition {
                    position,
                    moves,
                    name,
                    mistakes: record.mistakes,
                    attempts: record.attempts,
                })
            })
            .collect();
    }
}

impl MissedState {
    /// The positions most often missed, most mistakes first (at most
    /// [`MISSED_SHOWN`]), as of the last frame.
    pub(crate) fn rows(&self) -> &[MissedPosition] {
        &self.rows
    }

    /// Brings "Most often missed" up to date (once a frame; two comparisons when nothing
    /// changed).
    pub(crate) fn poll(&mut self, ctx: &Context) {
        self.refresh(
            ctx.progress.progress(),
            ctx.progress.generation(),
            &ctx.graph,
            ctx.book_generation,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tries_are_counted_in_words() {
        let row = |mistakes, attempts| MissedPosition {
            position: Chess::default(),
            moves: None,
            name: None,
            mistakes,
            attempts,
        };
        assert_eq!(row(1, 1).tries_text(), "1 mistake in 1 try");
        assert_eq!(row(2, 5).tries_text(), "2 mistakes in 5 tries");
    }
}
