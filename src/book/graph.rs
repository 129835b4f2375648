//! The position graph: opening lines replayed into board matrices, merged by position.

use std::ops::Range;

use rustc_hash::FxHashMap;
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use super::error::{LineError, MoveErrorKind};
use super::line::{Flag, FlagSet, FlagWeights, OpeningLine};
use super::matrix::NodeKey;

/// The index of a node (a position) in a [`PositionGraph`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The index as `usize`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The index of a line in a [`PositionGraph`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineId(pub u32);

impl LineId {
    /// The index as `usize`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A book continuation: some line plays `mv` from the node to `to`.
#[derive(Clone, Debug, PartialEq)]
pub struct Continuation {
    /// The node the move leads to.
    pub to: NodeId,
    /// The move, as played from the node's representative position.
    pub mv: Move,
    /// `cw(x→y)`: the total weight of the lines that play it.
    pub weight: f64,
    /// The part of `weight` whose lines have each flag.
    pub flag_weights: FlagWeights,
    lines: Range<u32>,
}

/// An implied transposition: a legal move from the node into another node of the graph
/// that no line plays from this node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transposition {
    /// The node the move leads to.
    pub to: NodeId,
    /// The move.
    pub mv: Move,
}

#[derive(Clone, Debug)]
struct Node {
    /// The position of the first line that reached the node (lines in input order).
    position: Chess,
    weight: f64,
    flag_weights: FlagWeights,
    /// The first line that ends here.
    name: Option<LineId>,
    /// The number of distinct nodes with a book continuation into this one.
    parents: u32,
}

/// Counts that describe a graph (the `stats` command).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GraphStats {
    /// Lines inserted.
    pub lines: usize,
    /// Distinct positions.
    pub nodes: usize,
    /// Distinct book continuations (node pairs).
    pub book_edges: usize,
    /// Implied transpositions (computed from each node's representative position).
    pub implied_transpositions: usize,
    /// Nodes reached by book continuations from more than one node.
    pub merge_points: usize,
    /// The longest line, in plies.
    pub max_depth: usize,
}

/// Opening lines as a graph of positions.
///
/// Every line is replayed from its start position; each position is keyed by its
/// [`NodeKey`] (piece matrix and side to move), so lines that reach the same position
/// by different move orders share one node. The graph is immutable once built; build a
/// new one to change the set of lines.
///
/// ```
/// use hastings::book::{PositionGraph, eco};
///
/// let graph = PositionGraph::build(eco::embedded().lines).graph;
/// assert_eq!(graph.stats().lines, 3807);
/// ```
#[derive(Clone, Debug, Default)]
pub struct PositionGraph {
    lines: Vec<OpeningLine>,
    line_flags: Vec<FlagSet>,
    line_ends: Vec<NodeId>,
    nodes: Vec<Node>,
    index: FxHashMap<NodeKey, NodeId>,
    roots: Vec<NodeId>,
    /// Continuations of node `n`: `continuations[cont_start[n]..cont_start[n + 1]]`.
    continuations: Vec<Continuation>,
    cont_start: Vec<u32>,
    continuation_lines: Vec<LineId>,
    transpositions: Vec<Transposition>,
    trans_start: Vec<u32>,
}

/// The result of [`PositionGraph::build`]: the graph and the lines it left out.
#[derive(Clone, Debug, Default)]
pub struct GraphBuild {
    /// The graph of every line that replayed.
    pub graph: PositionGraph,
    /// The lines that did not replay, with where and why.
    pub issues: Vec<LineError>,
}

struct BuildEdge {
    to: NodeId,
    mv: Move,
    weight: f64,
    flag_weights: FlagWeights,
    lines: Vec<LineId>,
}

/// Plays SAN `san` (the `ply`-th move, 1-based) of `line` in `pos`.
pub(crate) fn san_to_move(
    pos: &Chess,
    san: San,
    ply: usize,
    line: &OpeningLine,
) -> Result<Move, LineError> {
    san.to_move(pos).map_err(|e| LineError::Move {
        line: line.source,
        ply,
        san: san.to_string(),
        kind: match e {
            SanError::IllegalSan => MoveErrorKind::Illegal,
            SanError::AmbiguousSan => MoveErrorKind::Ambiguous,
        },
    })
}

/// The start position of a line: its FEN, or the standard position.
pub fn start_position(line: &OpeningLine) -> Result<Chess, LineError> {
    let Some(fen) = &line.start else {
        return Ok(Chess::default());
    };
    let bad = |reason: String| LineError::BadStart {
        line: line.source,
        fen: fen.clone(),
        reason,
    };
    let parsed = Fen::from_ascii(fen.as_bytes()).map_err(|e| bad(e.to_string()))?;
    parsed
        .into_position(CastlingMode::Standard)
        .map_err(|e| bad(e.to_string()))
}

impl PositionGraph {
    /// Builds the graph of `lines`, in order.
    ///
    /// A line whose start position or any move is illegal is left out whole and
    /// reported; the others are inserted. Each node's representative position is the
    /// one of the first line that reached it, and its name the first line ending there.
    pub fn build(lines: impl IntoIterator<Item = OpeningLine>) -> GraphBuild {
        let mut g = PositionGraph::default();
        let mut issues = Vec::new();
        let mut edges: Vec<Vec<BuildEdge>> = Vec::new();
        let mut positions: Vec<Chess> = Vec::new();
        // The node keys of `positions`, each from the one before (cheaper than reading
        // every board).
        let mut keys: Vec<NodeKey> = Vec::new();
        let mut moves: Vec<Move> = Vec::new();
        let mut path: Vec<NodeId> = Vec::new();

        // The previous line's replay: a line sharing its first moves reuses those
        // positions (ECO rows and repertoire paths come in prefix order).
        let mut prev: Option<(Option<String>, Vec<San>)> = None;

        for line in lines {
            // Replay first, so that a bad line leaves no trace in the graph.
            let shared = match &prev {
                Some((start, sans)) if *start == line.start => sans
                    .iter()
                    .zip(&line.moves)
                    .take_while(|(a, b)| a == b)
                    .count(),
                _ => {
                    positions.clear();
                    keys.clear();
                    path.clear();
                    match start_position(&line) {
                        Ok(pos) => {
                            keys.push(NodeKey::from_position(&pos));
                            positions.push(pos);
                        }
                        Err(e) => {
                            prev = None;
                            issues.push(e);
                            continue;
                        }
                    }
                    0
                }
            };
            positions.truncate(shared + 1);
            keys.truncate(shared + 1);
            moves.truncate(shared);
            path.truncate(shared + 1);
            let replay = (|| {
                for (i, san) in line.moves.iter().enumerate().skip(shared) {
                    let mut pos = positions[i].clone();
                    let mv = san_to_move(&pos, *san, i + 1, &line)?;
                    pos.play_unchecked(mv);
                    keys.push(keys[i].after_move(mv));
                    moves.push(mv);
                    positions.push(pos);
                }
                Ok::<(), LineError>(())
            })();
            if let Err(e) = replay {
                prev = None;
                issues.push(e);
                continue;
            }
            prev = Some((line.start.clone(), line.moves.clone()));

            let id = LineId(u32::try_from(g.lines.len()).unwrap_or(u32::MAX));
            let standard = line.start.is_none();
            let flags = FlagSet::classify(&line.name, moves.first().copied().filter(|_| standard));
            let flag_w = flag_amounts(flags, line.weight);

            // Nodes of the shared prefix are known; intern the rest.
            for (pos, key) in positions.iter().zip(&keys).skip(path.len()) {
                let node = g.intern(pos, key, &mut edges);
                path.push(node);
            }
            if let Some(&root) = path.first()
                && !g.roots.contains(&root)
            {
                g.roots.push(root);
            }
            for (i, &node) in path.iter().enumerate() {
                // A line that repeats a position passes through it once.
                if path[..i].contains(&node) {
                    continue;
                }
                let n = &mut g.nodes[node.index()];
                n.weight += line.weight;
                add(&mut n.flag_weights, &flag_w);
            }
            for (i, mv) in moves.iter().enumerate() {
                let (from, to) = (path[i], path[i + 1]);
                let out = &mut edges[from.index()];
                let edge = match out.iter().position(|e| e.to == to) {
                    Some(k) => &mut out[k],
                    None => {
                        out.push(BuildEdge {
                            to,
                            mv: *mv,
                            weight: 0.0,
                            flag_weights: [0.0; 5],
                            lines: Vec::new(),
                        });
                        let last = out.len() - 1;
                        &mut out[last]
                    }
                };
                if edge.lines.last() != Some(&id) {
                    edge.weight += line.weight;
                    add(&mut edge.flag_weights, &flag_w);
                    edge.lines.push(id);
                }
            }
            let Some(&end) = path.last() else {
                continue;
            };
            let end_node = &mut g.nodes[end.index()];
            if end_node.name.is_none() && !line.name.is_empty() {
                end_node.name = Some(id);
            }
            g.lines.push(line);
            g.line_flags.push(flags);
            g.line_ends.push(end);
        }

        g.flatten(edges);
        g.compute_transpositions();
        GraphBuild { graph: g, issues }
    }

    fn intern(&mut self, pos: &Chess, key: &NodeKey, edges: &mut Vec<Vec<BuildEdge>>) -> NodeId {
        let next = NodeId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX));
        *self.index.entry(*key).or_insert_with(|| {
            self.nodes.push(Node {
                position: pos.clone(),
                weight: 0.0,
                flag_weights: [0.0; 5],
                name: None,
                parents: 0,
            });
            edges.push(Vec::new());
            next
        })
    }

    fn flatten(&mut self, edges: Vec<Vec<BuildEdge>>) {
        self.cont_start = Vec::with_capacity(edges.len() + 1);
        self.cont_start.push(0);
        for out in edges {
            for e in out {
                let first = len_u32(&self.continuation_lines);
                self.continuation_lines.extend_from_slice(&e.lines);
                let last = len_u32(&self.continuation_lines);
                self.nodes[e.to.index()].parents += 1;
                self.continuations.push(Continuation {
                    to: e.to,
                    mv: e.mv,
                    weight: e.weight,
                    flag_weights: e.flag_weights,
                    lines: first..last,
                });
            }
            self.cont_start.push(len_u32(&self.continuations));
        }
    }

    fn compute_transpositions(&mut self) {
        self.trans_start = Vec::with_capacity(self.nodes.len() + 1);
        self.trans_start.push(0);
        // Each node's key, from the index rather than read again from its board.
        let mut keys: Vec<Option<&NodeKey>> = vec![None; self.nodes.len()];
        for (key, node) in &self.index {
            keys[node.index()] = Some(key);
        }
        let mut found = Vec::new();
        let mut all = Vec::new();
        for (i, key) in keys.iter().enumerate() {
            let node = NodeId(i as u32);
            found.clear();
            let pos = &self.nodes[i].position;
            match key {
                Some(key) => self.scan_from_key(node, pos, key, &mut found),
                None => self.scan_transpositions(node, pos, &mut found),
            }
            all.extend_from_slice(&found);
            self.trans_start.push(len_u32(&all));
        }
        self.transpositions = all;
    }

    /// Appends to `out` the legal moves of `pos` (a position of `node`) that reach a
    /// node of the graph no continuation of `node` leads to.
    fn scan_transpositions(&self, node: NodeId, pos: &Chess, out: &mut Vec<Transposition>) {
        self.scan_from_key(node, pos, &NodeKey::from_position(pos), out);
    }

    /// [`PositionGraph::scan_transpositions`] with the key of `pos` known.
    fn scan_from_key(
        &self,
        node: NodeId,
        pos: &Chess,
        key: &NodeKey,
        out: &mut Vec<Transposition>,
    ) {
        let book = self.continuations(node);
        for mv in pos.legal_moves() {
            if let Some(&to) = self.index.get(&key.after_move(mv))
                && !book.iter().any(|c| c.to == to)
            {
                out.push(Transposition { to, mv });
            }
        }
    }

    /// The implied transpositions from `node` when the game stands at `pos`.
    ///
    /// `pos` must have the node's key; its castling and en-passant rights may differ
    /// from the representative's, and the legal moves are those of `pos`.
    pub fn transpositions_at(&self, node: NodeId, pos: &Chess) -> Vec<Transposition> {
        let rep = &self.nodes[node.index()].position;
        if same_rights(rep, pos) {
            return self.transpositions(node).to_vec();
        }
        let mut out = Vec::new();
        self.scan_transpositions(node, pos, &mut out);
        out
    }

    /// Whether `pos` (a position of `node`) has the castling and en-passant rights of
    /// the node's representative, so the precomputed transpositions apply to it.
    pub fn is_representative(&self, node: NodeId, pos: &Chess) -> bool {
        same_rights(&self.nodes[node.index()].position, pos)
    }

    /// Counts for the `stats` command.
    pub fn stats(&self) -> GraphStats {
        GraphStats {
            lines: self.lines.len(),
            nodes: self.nodes.len(),
            book_edges: self.continuations.len(),
            implied_transpositions: self.transpositions.len(),
            merge_points: self.nodes.iter().filter(|n| n.parents > 1).count(),
            max_depth: self.lines.iter().map(|l| l.moves.len()).max().unwrap_or(0),
        }
    }

    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// All node ids.
    pub fn node_ids(&self) -> impl ExactSizeIterator<Item = NodeId> + use<> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// The lines, in insertion order.
    pub fn lines(&self) -> &[OpeningLine] {
        &self.lines
    }

    /// One line.
    pub fn line(&self, id: LineId) -> &OpeningLine {
        &self.lines[id.index()]
    }

    /// The style flags of a line.
    pub fn line_flags(&self, id: LineId) -> FlagSet {
        self.line_flags[id.index()]
    }

    /// The node where a line ends.
    pub fn line_end(&self, id: LineId) -> NodeId {
        self.line_ends[id.index()]
    }

    /// The start nodes of the lines (the standard position first when any line starts there).
    pub fn roots(&self) -> &[NodeId] {
        &self.roots
    }

    /// The node of the standard start position, if any line starts there.
    pub fn start(&self) -> Option<NodeId> {
        self.lookup(&Chess::default())
    }

    /// The node with this key.
    pub fn node(&self, key: &NodeKey) -> Option<NodeId> {
        self.index.get(key).copied()
    }

    /// The node of a position.
    pub fn lookup(&self, pos: &impl Position) -> Option<NodeId> {
        self.node(&NodeKey::from_position(pos))
    }

    /// The node's representative position (that of the first line that reached it).
    pub fn position(&self, node: NodeId) -> &Chess {
        &self.nodes[node.index()].position
    }

    /// The representative position as FEN.
    pub fn fen(&self, node: NodeId) -> String {
        Fen::from_position(self.position(node), EnPassantMode::Legal).to_string()
    }

    /// `T(x)`: the total weight of the lines through the node.
    pub fn weight(&self, node: NodeId) -> f64 {
        self.nodes[node.index()].weight
    }

    /// `T_i(x)`: the part of `T(x)` whose lines have each flag.
    pub fn flag_weights(&self, node: NodeId) -> &FlagWeights {
        &self.nodes[node.index()].flag_weights
    }

    /// The book continuations from the node.
    pub fn continuations(&self, node: NodeId) -> &[Continuation] {
        let i = node.index();
        &self.continuations[self.cont_start[i] as usize..self.cont_start[i + 1] as usize]
    }

    /// The lines that play a continuation.
    pub fn continuation_lines(&self, c: &Continuation) -> &[LineId] {
        &self.continuation_lines[c.lines.start as usize..c.lines.end as usize]
    }

    /// The implied transpositions from the node's representative position.
    pub fn transpositions(&self, node: NodeId) -> &[Transposition] {
        let i = node.index();
        &self.transpositions[self.trans_start[i] as usize..self.trans_start[i + 1] as usize]
    }

    /// The number of nodes with a book continuation into this one.
    pub fn parent_count(&self, node: NodeId) -> u32 {
        self.nodes[node.index()].parents
    }

    /// The first line (in input order) that ends at the node.
    pub fn name(&self, node: NodeId) -> Option<LineId> {
        self.nodes[node.index()].name
    }

    /// The name of a game's position: the deepest node of `history` (start first) that a
    /// line ends at, as lichess names openings.
    ///
    /// ```
    /// use hastings::book::{PositionGraph, eco};
    /// use shakmaty::{Chess, Position, san::San};
    ///
    /// let graph = PositionGraph::build(eco::embedded().lines).graph;
    /// let mut pos = Chess::default();
    /// let mut history = vec![graph.lookup(&pos).unwrap()];
    /// for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"] {
    ///     let mv = San::from_ascii(san.as_bytes()).unwrap().to_move(&pos).unwrap();
    ///     pos.play_unchecked(mv);
    ///     history.extend(graph.lookup(&pos));
    /// }
    /// assert_eq!(graph.name_at(&history).unwrap().name, "Ruy Lopez: Morphy Defense");
    /// ```
    pub fn name_at(&self, history: &[NodeId]) -> Option<&OpeningLine> {
        history
            .iter()
            .rev()
            .find_map(|&n| self.name(n))
            .map(|id| self.line(id))
    }

    /// The SAN of `mv` played from the node's representative position, with `+`/`#`.
    pub fn san(&self, node: NodeId, mv: Move) -> SanPlus {
        SanPlus::from_move(self.position(node).clone(), mv)
    }

    /// The UCI notation of a move (standard castling: `e1g1`).
    pub fn uci(mv: Move) -> UciMove {
        mv.to_uci(CastlingMode::Standard)
    }
}

fn len_u32<T>(v: &[T]) -> u32 {
    u32::try_from(v.len()).unwrap_or(u32::MAX)
}

fn flag_amounts(flags: FlagSet, weight: f64) -> FlagWeights {
    Flag::ALL.map(|f| if flags.contains(f) { weight } else { 0.0 })
}

fn add(acc: &mut FlagWeights, w: &FlagWeights) {
    for (a, b) in acc.iter_mut().zip(w) {
        *a += b;
    }
}

fn same_rights(a: &Chess, b: &Chess) -> bool {
    a.castles().castling_rights() == b.castles().castling_rights()
        && a.ep_square(EnPassantMode::Legal) == b.ep_square(EnPassantMode::Legal)
}
