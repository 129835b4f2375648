//! The drill's book: another one (a new line starts), or the same one edited (the
//! Repertoire tab's "Train this": the line being played goes on in it).

use std::sync::Arc;

use super::Session;
use crate::book::PositionGraph;
use crate::trainer::Phase;

impl Session {
    /// Replaces the book (keeping colour, style and RNG) and starts a new line.
    pub fn set_graph(&mut self, graph: Arc<PositionGraph>) {
        self.graph = graph;
        self.new_line();
    }

    /// Goes on with the same line on `graph` (the repertoire after an edit): the
    /// positions found in it again, the shares and the moves at the current position
    /// recomputed. After a move out of the book the learner still retries, shown the
    /// book's moves as they are now.
    pub fn update_graph(&mut self, graph: Arc<PositionGraph>) {
        self.graph = graph;
        self.nodes = self
            .positions
            .iter()
            .map(|p| self.graph.lookup(p))
            .collect();
        self.recompute();
        let now = self.book_moves();
        if let Phase::OutOfBook { book_moves, .. } = &mut self.phase {
            *book_moves = now;
        } else {
            self.settle();
        }
    }
}
