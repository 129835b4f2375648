//! Building the graph: lines played into nodes and continuations, then laid out flat.
//!
//! The continuations are kept in one vector in the order they are first played, each
//! node's linked through `next` (so finding the continuation `x → y` walks only
//! `x`'s); the lines that play them are recorded as one edge id per (line, edge). At the
//! end a counting sort by node puts each node's continuations together, still in the
//! order they were first played, and the lines of each continuation in line order.
//! What the lines say about the moves goes to the annotation index as each line is
//! added (`notes`).

use rustc_hash::FxHashMap;
use shakmaty::{Chess, Move, Position};

use super::node::{NONE, Node, NodeWeights};
use super::{Continuation, GraphBuild, LineId, NodeId, PositionGraph, len_u32};
use crate::book::error::{LineError, NodeRebuildError};
use crate::book::key::NodeKey;
use crate::book::line::{Flag, FlagSet, FlagWeights, OpeningLine, Start};

/// The graph under construction and what is thrown away once it is laid out.
#[derive(Default)]
pub(super) struct Builder {
    g: PositionGraph,
    /// `T(x)` and `T_i(x)` of each node, summed line by line.
    node_weights: Vec<NodeWeights>,
    /// Each node's last continuation made (the head of its list), or [`NONE`].
    head: Vec<u32>,
    /// The continuations in the order they were made; `lines` is set at the end.
    edges: Vec<Continuation>,
    /// Per edge: the node it leaves, the node's edge made before it, the last line
    /// that played it.
    edge_from: Vec<u32>,
    edge_next: Vec<u32>,
    edge_last_line: Vec<u32>,
    /// The edges each line plays, line after line; `line_edges_end[l]` ends line `l`'s.
    line_edges: Vec<u32>,
    line_edges_end: Vec<u32>,
    /// The representative position of each node, as played, while there are at most
    /// [`MAX_KEPT_POSITIONS`] nodes: the transposition scan reads them instead of
    /// rebuilding every node. Emptied for a bigger graph (then the scan rebuilds them).
    reps: Vec<Chess>,
}

/// The most representative positions the build keeps for the transposition scan (about
/// 7 MB; the ECO graph has 7,851 nodes). A bigger graph's scan rebuilds each node's
/// position from the node, which costs about as much as generating its moves.
const MAX_KEPT_POSITIONS: usize = 1 << 16;

impl Builder {
    /// Builds the graph of `lines` (see [`PositionGraph::build`]).
    ///
    /// `expected_lines`: about how many lines come, when the iterator cannot say (the
    /// tables are reserved for them).
    pub(super) fn build(
        lines: impl IntoIterator<Item = OpeningLine>,
        previous: Option<&PositionGraph>,
        expected_lines: Option<usize>,
    ) -> GraphBuild {
        let mut b = Builder::default();
        let mut issues = Vec::new();
        // The positions of the previous line (from its start, which `prev_start` keeps)
        // and their nodes: a line sharing its first moves reuses them (ECO rows and
        // repertoire paths come in prefix order).
        let mut positions: Vec<Chess> = Vec::new();
        let mut path: Vec<NodeId> = Vec::new();
        let mut prev_moves: Vec<Move> = Vec::new();
        let mut prev_start: Option<Option<Start>> = None;

        // A book has a little more than two new positions per line (the ECO list 2.06,
        // repertoires about as many); reserving them up front spares the copies of
        // growing tables. A filtered vector says how many lines it has at most.
        let lines = lines.into_iter();
        let (lower, upper) = lines.size_hint();
        let count = expected_lines.or(upper).unwrap_or(lower);
        let expected = count.saturating_mul(9) / 4;
        b.g.nodes.reserve(expected);
        b.g.index = super::index::KeyTable::with_capacity(expected);
        b.node_weights.reserve(expected);
        b.head.reserve(expected);
        b.edges.reserve(expected);
        b.edge_from.reserve(expected);
        b.edge_next.reserve(expected);
        b.edge_last_line.reserve(expected);
        b.g.lines.reserve(count);
        b.g.line_flags.reserve(count);
        b.g.line_ends.reserve(count);
        b.line_edges_end.reserve(count);
        if b.reps_kept() {
            b.reps.reserve(expected.min(MAX_KEPT_POSITIONS));
        }

        for line in lines {
            let same_start = prev_start.as_ref().is_some_and(|s| *s == line.start);
            let shared = if same_start {
                prev_moves
                    .iter()
                    .zip(&line.moves)
                    .take_while(|(a, b)| a == b)
                    .count()
            } else {
                positions.clear();
                path.clear();
                positions.push(line.start_position());
                0
            };
            positions.truncate(shared + 1);
            path.truncate(shared + 1);
            // Play the rest first, so that a bad line leaves no trace in the graph. The
            // reader checked the moves; a line made in code with a move that is not
            // legal is reported, not played.
            let mut pos = positions[shared].clone();
            let mut bad = None;
            for (i, &mv) in line.moves.iter().enumerate().skip(shared) {
                if !pos.is_legal(mv) {
                    bad = Some(LineError::not_legal(line.source, i, &pos, mv));
                    break;
                }
                pos.play_unchecked(mv);
                positions.push(pos.clone());
            }
            if let Some(e) = bad {
                prev_start = None;
                issues.push(e);
                continue;
            }
            prev_moves.clone_from(&line.moves);
            if !same_start {
                prev_start = Some(line.start.clone());
            }

            // Nodes of the shared prefix are known; intern the rest.
            for pos in positions.iter().skip(path.len()) {
                let node = b.intern(pos);
                path.push(node);
            }
            b.add_line(line, &path);
        }
        let (graph, failed) = b.finish(previous);
        issues.extend(failed.into_iter().map(LineError::Rebuild));
        GraphBuild { graph, issues }
    }

    /// The node of `pos`, made if new.
    fn intern(&mut self, pos: &Chess) -> NodeId {
        let key = NodeKey::from_position(pos);
        let next = len_u32(&self.g.nodes);
        let nodes = &self.g.nodes;
        let (id, added) = self
            .g
            .index
            .get_or_insert(&key, next, |id| nodes[id as usize].key());
        if added {
            self.g.nodes.push(Node::new(pos, &key));
            self.node_weights.push(NodeWeights::default());
            self.head.push(NONE);
            if self.reps_kept() {
                if self.reps.len() < MAX_KEPT_POSITIONS {
                    self.reps.push(pos.clone());
                } else {
                    // Too many to keep: the scan rebuilds them all.
                    self.reps = Vec::new();
                }
            }
        }
        NodeId(id)
    }

    /// Whether `reps` holds the position of every node so far.
    fn reps_kept(&self) -> bool {
        self.reps.len() + 1 >= self.g.nodes.len()
    }

    /// Adds a played line: its weight to the nodes and continuations of `path`.
    fn add_line(&mut self, line: OpeningLine, path: &[NodeId]) {
        let moves = &line.moves;
        let Some(&end) = path.last() else {
            return;
        };
        let id = LineId(len_u32(&self.g.lines));
        let standard = line.start.is_none();
        let flags = FlagSet::classify(&line.name, moves.first().copied().filter(|_| standard));
        let flag_w = flag_amounts(flags, line.weight);

        if let Some(&root) = path.first()
            && !self.g.roots.contains(&root)
        {
            self.g.roots.push(root);
        }
        for (i, &node) in path.iter().enumerate() {
            // A line that repeats a position passes through it once.
            if path[..i].contains(&node) {
                continue;
            }
            let w = &mut self.node_weights[node.index()];
            w.weight += line.weight;
            add(&mut w.flags, &flag_w);
        }
        // The edge each ply plays for the line's first time (for the annotation index).
        let mut first_edge = Vec::new();
        for (i, mv) in moves.iter().enumerate() {
            let (from, to) = (path[i], path[i + 1]);
            let e = self.edge(from, to, *mv);
            let first = self.edge_last_line[e] != id.0;
            if first {
                self.edge_last_line[e] = id.0;
                let edge = &mut self.edges[e];
                edge.weight += line.weight;
                add(&mut edge.flag_weights, &flag_w);
                self.line_edges.push(e as u32);
            }
            if !line.annotations.is_empty() {
                first_edge.push(first.then_some(e as u32));
            }
        }
        self.g.notes.record(id, &line, &first_edge);
        self.line_edges_end.push(len_u32(&self.line_edges));
        let end_node = &mut self.g.nodes[end.index()];
        if end_node.name().is_none() && !line.name.is_empty() {
            end_node.set_name(id);
        }
        self.g.lines.push(line);
        self.g.line_flags.push(flags);
        self.g.line_ends.push(end);
    }

    /// The continuation `from → to` (by `mv`), made if new.
    fn edge(&mut self, from: NodeId, to: NodeId, mv: Move) -> usize {
        let mut e = self.head[from.index()];
        while e != NONE {
            if self.edges[e as usize].to == to {
                return e as usize;
            }
            e = self.edge_next[e as usize];
        }
        let id = self.edges.len();
        self.edges.push(Continuation {
            to,
            mv,
            weight: 0.0,
            flag_weights: [0.0; 5],
            lines: 0..0,
        });
        self.edge_from.push(from.0);
        self.edge_next.push(self.head[from.index()]);
        self.edge_last_line.push(NONE);
        self.head[from.index()] = id as u32;
        id
    }

    /// Lays the graph out: weights shared, continuations by node, transpositions.
    /// Also returns the nodes whose position cannot be rebuilt.
    fn finish(
        mut self,
        previous: Option<&PositionGraph>,
    ) -> (PositionGraph, Vec<NodeRebuildError>) {
        self.share_weights();
        self.flatten();
        let mut g = self.g;
        let reps = std::mem::take(&mut self.reps);
        let reps = (reps.len() == g.nodes.len()).then_some(&reps[..]);
        let failed = g.compute_transpositions(previous, reps);
        g.nodes.shrink_to_fit();
        g.lines.shrink_to_fit();
        g.line_flags.shrink_to_fit();
        g.line_ends.shrink_to_fit();
        (g, failed)
    }

    /// Stores each distinct `(T(x), T_i(x))` once.
    fn share_weights(&mut self) {
        let mut ids: FxHashMap<[u64; 6], u32> = FxHashMap::default();
        let weights = &mut self.g.weights;
        for (node, w) in self.g.nodes.iter_mut().zip(&self.node_weights) {
            node.weights = *ids.entry(w.bits()).or_insert_with(|| {
                weights.push(*w);
                len_u32(weights) - 1
            });
        }
        weights.shrink_to_fit();
        self.node_weights = Vec::new();
    }

    /// Puts each node's continuations together (in the order they were made) and each
    /// continuation's lines together (in line order).
    fn flatten(&mut self) {
        let n = self.g.nodes.len();
        let m = self.edges.len();
        // Continuations per node, then where each goes.
        let mut start = vec![0u32; n + 1];
        for &from in &self.edge_from {
            start[from as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut cursor = start.clone();
        let mut place: Vec<u32> = Vec::with_capacity(m);
        for &from in &self.edge_from {
            place.push(cursor[from as usize]);
            cursor[from as usize] += 1;
        }
        drop(cursor);
        self.edge_from = Vec::new();
        self.edge_next = Vec::new();
        self.edge_last_line = Vec::new();
        self.head = Vec::new();

        // Lines per continuation (at its place), then the lines in place.
        let mut lines_start = vec![0u32; m + 1];
        for &e in &self.line_edges {
            lines_start[place[e as usize] as usize + 1] += 1;
        }
        for k in 0..m {
            lines_start[k + 1] += lines_start[k];
        }
        let mut cursor = lines_start.clone();
        let mut lines = vec![LineId(0); self.line_edges.len()];
        let mut from = 0usize;
        for (l, &end) in self.line_edges_end.iter().enumerate() {
            for &e in &self.line_edges[from..end as usize] {
                let k = place[e as usize] as usize;
                lines[cursor[k] as usize] = LineId(l as u32);
                cursor[k] += 1;
            }
            from = end as usize;
        }
        drop(cursor);
        self.line_edges = Vec::new();
        self.line_edges_end = Vec::new();

        let mut edges = std::mem::take(&mut self.edges);
        for (e, edge) in edges.iter_mut().enumerate() {
            let k = place[e] as usize;
            edge.lines = lines_start[k]..lines_start[k + 1];
            self.g.nodes[edge.to.index()].parents += 1;
        }
        drop(lines_start);
        self.g.notes = std::mem::take(&mut self.g.notes).moved(&place);
        permute(&mut edges, &mut place);
        edges.shrink_to_fit();
        self.g.continuations = edges;
        self.g.cont_start = start;
        self.g.continuation_lines = lines;
    }
}

/// Moves `items[i]` to `items[place[i]]` for every `i` (`place` is a permutation; it is
/// used up).
fn permute<T>(items: &mut [T], place: &mut [u32]) {
    for i in 0..items.len() {
        while place[i] as usize != i {
            let j = place[i] as usize;
            items.swap(i, j);
            place.swap(i, j);
        }
    }
}

fn flag_amounts(flags: FlagSet, weight: f64) -> FlagWeights {
    Flag::ALL.map(|f| if flags.contains(f) { weight } else { 0.0 })
}

fn add(acc: &mut FlagWeights, w: &FlagWeights) {
    for (a, b) in acc.iter_mut().zip(w) {
        *a += b;
    }
}
