//! The shortest way to a node: the moves from the standard start that reach it through
//! the book's continuations (a breadth-first search, so the fewest plies, and among
//! those the continuations in the order the book first played them).

use std::collections::VecDeque;

use shakmaty::Move;

use super::{NodeId, PositionGraph};

impl PositionGraph {
    /// The fewest moves from the standard start position that reach `node` by the
    /// book's continuations; `None` when no line from the standard start reaches it
    /// (it is only reached from a set-up position, or by an implied transposition).
    ///
    /// ```
    /// use hastings::book::{PositionGraph, eco};
    /// use shakmaty::fen::Fen;
    /// use shakmaty::{CastlingMode, Chess, Position};
    ///
    /// let graph = PositionGraph::build(eco::embedded().lines).graph;
    /// // The Ruy Lopez, after 1.e4 e5 2.Nf3 Nc6 3.Bb5.
    /// let fen: Fen = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3".parse()?;
    /// let pos: Chess = fen.into_position(CastlingMode::Standard)?;
    /// let moves = graph.path_to(graph.lookup(&pos).unwrap()).unwrap();
    /// assert_eq!(moves.len(), 5);
    /// let mut replay = Chess::default();
    /// for mv in moves {
    ///     replay.play_unchecked(mv);
    /// }
    /// assert_eq!(graph.lookup(&replay), graph.lookup(&pos));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn path_to(&self, node: NodeId) -> Option<Vec<Move>> {
        let start = self.start()?;
        // For each node reached: the node it was reached from and the move.
        let mut came_from: Vec<Option<(NodeId, Move)>> = vec![None; self.node_count()];
        let mut seen = vec![false; self.node_count()];
        seen[start.index()] = true;
        let mut queue = VecDeque::from([start]);
        while let Some(at) = queue.pop_front() {
            if at == node {
                let mut moves = Vec::new();
                let mut here = at;
                while let Some((from, mv)) = came_from[here.index()] {
                    moves.push(mv);
                    here = from;
                }
                moves.reverse();
                return Some(moves);
            }
            for c in self.continuations(at) {
                if !seen[c.to.index()] {
                    seen[c.to.index()] = true;
                    came_from[c.to.index()] = Some((at, c.mv));
                    queue.push_back(c.to);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position};

    use crate::book::{PositionGraph, eco};

    #[test]
    fn nodes_from_the_start_are_reached_by_legal_moves() {
        let graph = PositionGraph::build(eco::embedded().lines).graph;
        let start = graph.start();
        assert!(start.is_some());
        // Every ninth node (each search walks the graph once).
        for node in graph.node_ids().step_by(9) {
            let Some(moves) = graph.path_to(node) else {
                panic!("node {node:?} is reached from the start by some ECO line");
            };
            let mut pos = Chess::default();
            for mv in &moves {
                assert!(pos.is_legal(*mv), "{node:?}: {mv:?} is legal");
                pos.play_unchecked(*mv);
            }
            assert_eq!(graph.lookup(&pos), Some(node));
        }
        assert_eq!(start.and_then(|s| graph.path_to(s)), Some(Vec::new()));
    }
}
