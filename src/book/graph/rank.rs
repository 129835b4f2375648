//! The learner's moves in the file's order: at a position, the continuations in the
//! order the lines first play them (the order of a repertoire file: its main line
//! first), a move marked an alternative (`[%hastings alt]`) after those not marked. The
//! first is the learner's main move; the drill, the learn step and the chart follow
//! this order for the learner's side, while the opponent's replies keep their
//! popularity (the weights, which count sub-lines).

use super::{Continuation, NodeId, PositionGraph};
use crate::book::line::MoveMark;

impl PositionGraph {
    /// The continuations of `node` ranked as the learner ranks them: the file's order,
    /// a move marked an alternative after the others (see the module docs).
    pub fn ranked(&self, node: NodeId) -> Vec<&Continuation> {
        let mut out: Vec<&Continuation> = self.continuations(node).iter().collect();
        // A stable sort: the file's order within each group.
        out.sort_by_key(|c| self.is_marked_alternative(node, c));
        out
    }

    /// The main move at `node`: the first of [`PositionGraph::ranked`].
    pub fn main_continuation(&self, node: NodeId) -> Option<&Continuation> {
        self.ranked(node).into_iter().next()
    }

    /// The place of the move `c` of `node` in [`PositionGraph::ranked`] (0: the main
    /// move).
    pub fn rank_of(&self, node: NodeId, c: &Continuation) -> Option<usize> {
        self.ranked(node)
            .iter()
            .position(|r| r.to == c.to && r.mv == c.mv)
    }

    fn is_marked_alternative(&self, node: NodeId, c: &Continuation) -> bool {
        self.annotation(node, c.to)
            .is_some_and(|a| a.mark == Some(MoveMark::Alternative))
    }
}

#[cfg(test)]
mod tests {
    use crate::book::pgn::{ImportOptions, read_pgn};
    use crate::book::{PositionGraph, SourceId};

    fn main_san(pgn: &str, path: &[&str]) -> String {
        let import =
            read_pgn(pgn.as_bytes(), SourceId(1), &ImportOptions::default(), None).unwrap();
        let graph = PositionGraph::build(import.lines).graph;
        let mut pos = shakmaty::Chess::default();
        for san in path {
            let mv = san
                .parse::<shakmaty::san::San>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            shakmaty::Position::play_unchecked(&mut pos, mv);
        }
        let node = graph.lookup(&pos).unwrap();
        let c = graph.main_continuation(node).unwrap();
        graph.san(node, c.mv).to_string()
    }

    #[test]
    fn the_main_move_is_the_first_in_the_file_unless_marked() {
        // 1... c5 has one line, 1... e5 three: the file's order, not the count.
        let pgn = "1. e4 c5 (1... e5 2. Nf3 (2. Bc4) (2. Nc3) Nc6) 2. Nf3 *\n";
        assert_eq!(main_san(pgn, &["e4"]), "c5");
        let marked = "1. e4 c5 { [%hastings alt] } (1... e5 2. Nf3 Nc6) 2. Nf3 *\n";
        assert_eq!(main_san(marked, &["e4"]), "e5");
    }
}
