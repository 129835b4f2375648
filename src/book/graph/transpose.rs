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
    /// `reps`, when the build kept them, are the nodes' positions (else each node's is
    /// rebuilt).
    pub(super) fn compute_transpositions(
        &mut self,
        previous: Option<&PositionGraph>,
        reps: Option<&[Chess]>,
    ) -> Vec<NodeRebuildError> {
        let occupancy = OccupancyFilter::new(self.nodes.iter().map(|n| {
            let key = n.key();
            occupancy_word(key.occupied(), key.turn())
        }));
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
            if let Some(pos) = reps.and_then(|r| r.get(i)) {
                self.scan_from_key(id, pos, &key, Some(&occupancy), &mut all);
            } else {
                match node.position(id.0) {
                    Ok(pos) => self.scan_from_key(id, &pos, &key, Some(&occupancy), &mut all),
                    Err(e) => failed.push(e),
                }
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
        occupancy: Option<&OccupancyFilter>,
        out: &mut Vec<Transposition>,
    ) {
        let book = self.continuations(node);
        let occupied = pos.board().occupied();
        let mover = pos.turn();
        for mv in pos.legal_moves() {
            // Most moves leave the book; the squares they occupy say so cheaply.
            if occupancy.is_some_and(|set| !set.may_hold(occupancy_key(occupied, mv, mover))) {
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

/// The occupancy words of the nodes, as one bit each in a table of 64 bits per node (a
/// Bloom filter with one hash, 64 KB for the ECO graph): a word whose bit is clear is
/// no node's, so most moves are ruled out by one bit; about 1.5 % of the others pass,
/// and the index's lookup then rules them out.
pub(super) struct OccupancyFilter {
    bits: Vec<u64>,
    /// The hash's top bits choose the bit: `64 - log2(bits)`.
    shift: u32,
}

impl OccupancyFilter {
    fn new(words: impl ExactSizeIterator<Item = u64>) -> OccupancyFilter {
        let bits = (words.len().max(1) * 64).next_power_of_two().max(64);
        let mut filter = OccupancyFilter {
            bits: vec![0; bits / 64],
            shift: 64 - bits.trailing_zeros(),
        };
        for word in words {
            let bit = filter.bit(word);
            filter.bits[bit / 64] |= 1 << (bit % 64);
        }
        filter
    }

    /// The bit of `word` (Fibonacci hashing: every bit of the word moves the top bits).
    fn bit(&self, word: u64) -> usize {
        (word.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// Whether some node may have the occupancy word `word` (false: none has).
    fn may_hold(&self, word: u64) -> bool {
        let bit = self.bit(word);
        self.bits[bit / 64] & (1 << (bit % 64)) != 0
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
