//! Implied transpositions: the legal moves from a node that reach another node of the
//! graph by no continuation of it. Found by a scan of every node's legal moves, or,
//! for a graph built after a small change to another's lines
//! ([`PositionGraph::build_after`]), taken from that graph for the nodes the change
//! cannot have touched.
//!
//! A node's transpositions depend on its position, its continuations and the set of
//! positions in the graph. So they are those of the previous graph's node with the
//! same key, less the moves to positions gone, unless its continuations lead to other
//! positions than before, or a legal move may lead from it to a position that is new.
//! A move changes at most four squares' occupancy (castling) and gives the move to
//! the other side: a node whose occupancy differs from every new position's in more
//! squares, or with the same side to move, cannot reach one, and the few others are
//! scanned again.

use rustc_hash::FxHashSet;
use shakmaty::{Bitboard, Chess, Color, Position};

use super::{NodeId, PositionGraph, Transposition, len_u32};
use crate::book::error::NodeRebuildError;
use crate::book::key::NodeKey;
use crate::book::matrix::{occupancy_key, occupancy_word};

/// Above this many new positions the scan of every node is as quick as the checks.
const MAX_NEW: usize = 256;

/// The squares one move changes at most (castling: king and rook, from and to).
const MAX_CHANGED: u32 = 4;

impl PositionGraph {
    /// Finds every node's transpositions (those that `previous` allows taken from it);
    /// returns the nodes whose position cannot be rebuilt (they get none).
    pub(super) fn compute_transpositions(
        &mut self,
        previous: Option<&PositionGraph>,
    ) -> Vec<NodeRebuildError> {
        let occupancy: FxHashSet<u64> = self
            .nodes
            .iter()
            .map(|n| {
                let key = n.key();
                occupancy_word(key.occupied(), key.turn())
            })
            .collect();
        let previous = previous.and_then(|p| Reuse::new(self, p));
        let mut trans_start: Vec<u32> = Vec::with_capacity(self.nodes.len() + 1);
        trans_start.push(0);
        let mut all = Vec::new();
        let mut failed = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            let id = NodeId(i as u32);
            let key = node.key();
            if previous
                .as_ref()
                .is_some_and(|p| p.take(self, id, &key, &mut all))
            {
                trans_start.push(len_u32(&all));
                continue;
            }
            match node.position(id.0) {
                Ok(pos) => self.scan_from_key(id, &pos, &key, Some(&occupancy), &mut all),
                Err(e) => failed.push(e),
            }
            trans_start.push(len_u32(&all));
        }
        all.shrink_to_fit();
        self.trans_start = trans_start;
        self.transpositions = all;
        failed
    }

    /// Appends to `out` the legal moves of `pos` (a position of `node`, with key `key`)
    /// that reach a node of the graph no continuation of `node` leads to. `occupancy`,
    /// the occupancy words of every node, rules most moves out before the lookup.
    pub(super) fn scan_from_key(
        &self,
        node: NodeId,
        pos: &Chess,
        key: &NodeKey,
        occupancy: Option<&FxHashSet<u64>>,
        out: &mut Vec<Transposition>,
    ) {
        let book = self.continuations(node);
        let occupied = pos.board().occupied();
        let mover = pos.turn();
        for mv in pos.legal_moves() {
            // Most moves leave the book; the squares they occupy say so cheaply.
            if occupancy.is_some_and(|set| !set.contains(&occupancy_key(occupied, mv, mover))) {
                continue;
            }
            if let Some(to) = self.node(&key.after_move(mv))
                && !book.iter().any(|c| c.to == to)
            {
                out.push(Transposition { to, mv });
            }
        }
    }
}

/// The previous graph, and the positions new since it.
struct Reuse<'a> {
    previous: &'a PositionGraph,
    /// The new positions' occupancy and side to move.
    new: Vec<(Bitboard, Color)>,
}

impl<'a> Reuse<'a> {
    /// `None` when too many positions are new for the checks to pay.
    fn new(graph: &PositionGraph, previous: &'a PositionGraph) -> Option<Reuse<'a>> {
        let mut new = Vec::new();
        for node in &graph.nodes {
            let key = node.key();
            if previous.node(&key).is_none() {
                if new.len() == MAX_NEW {
                    return None;
                }
                new.push((key.occupied(), key.turn()));
            }
        }
        Some(Reuse { previous, new })
    }

    /// Appends node `id`'s transpositions (its key `key`) taken from the previous
    /// graph, when they can be; says whether they were.
    fn take(
        &self,
        graph: &PositionGraph,
        id: NodeId,
        key: &NodeKey,
        out: &mut Vec<Transposition>,
    ) -> bool {
        let Some(old) = self.previous.node(key) else {
            return false;
        };
        let reaches_new = self.new.iter().any(|&(occupied, turn)| {
            turn != key.turn() && (occupied ^ key.occupied()).count() as u32 <= MAX_CHANGED
        });
        if reaches_new {
            return false;
        }
        // The same continuations (by the positions they lead to).
        let (now, before) = (graph.continuations(id), self.previous.continuations(old));
        let same = now.len() == before.len()
            && now.iter().all(|c| {
                let to = graph.key(c.to);
                before.iter().any(|b| self.previous.key(b.to) == to)
            });
        if !same {
            return false;
        }
        out.extend(self.previous.transpositions(old).iter().filter_map(|t| {
            let to = graph.node(&self.previous.key(t.to))?;
            Some(Transposition { to, mv: t.mv })
        }));
        true
    }
}
