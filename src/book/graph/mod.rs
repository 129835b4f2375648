//! The position graph: opening lines replayed into board matrices, merged by position.
//!
//! Files: `build` (lines replayed into nodes and continuations, laid out flat), `node`
//! (a node as stored, and the shared weights), `index` (the hash index of node ids),
//! `notes` (the annotation of each continuation's move), `transpose` (implied
//! transpositions), `path` (the shortest way from the start to a node), `rank` (the
//! learner's moves in the file's order: the main move first).

use std::ops::Range;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use super::error::{LineError, NodeRebuildError};
use super::key::NodeKey;
use super::line::{FlagSet, FlagWeights, MoveAnnotation, OpeningLine};

mod build;
pub(crate) mod index;
mod node;
mod notes;
mod path;
mod rank;
mod transpose;

use index::KeyTable;
use node::{Node, NodeWeights};
use notes::NoteIndex;

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
    /// The distinct `(T(x), T_i(x))` of the nodes.
    weights: Vec<NodeWeights>,
    index: KeyTable,
    roots: Vec<NodeId>,
    /// Continuations of node `n`: `continuations[cont_start[n]..cont_start[n + 1]]`.
    continuations: Vec<Continuation>,
    cont_start: Vec<u32>,
    continuation_lines: Vec<LineId>,
    transpositions: Vec<Transposition>,
    trans_start: Vec<u32>,
    /// What the lines say about each continuation's move.
    notes: NoteIndex,
}

/// The result of [`PositionGraph::build`]: the graph and the lines it left out.
#[derive(Clone, Debug, Default)]
pub struct GraphBuild {
    /// The graph of every line that could be played.
    pub graph: PositionGraph,
    /// The lines left out, with where and why: a line made in code with a move that is
    /// not legal (a reader reports such moves itself and leaves the line out), and
    /// nodes that cannot be rebuilt.
    pub issues: Vec<LineError>,
}

impl PositionGraph {
    /// Builds the graph of `lines`, in order.
    ///
    /// A line with a move that is not legal (made in code: readers check their moves)
    /// is left out whole and reported; the others are inserted. Each node's representative position is the
    /// one of the first line that reached it, and its name the first line ending there.
    pub fn build(lines: impl IntoIterator<Item = OpeningLine>) -> GraphBuild {
        build::Builder::build(lines, None, None)
    }

    /// As [`PositionGraph::build`], for about `expected_lines` lines from an iterator
    /// that cannot say how many it has (lines of several sources, filtered): the tables
    /// are made that large at once.
    pub(crate) fn build_expecting(
        lines: impl IntoIterator<Item = OpeningLine>,
        expected_lines: usize,
    ) -> GraphBuild {
        build::Builder::build(lines, None, Some(expected_lines))
    }

    /// As [`PositionGraph::build`], for lines that differ a little from those of
    /// `previous` (a repertoire after an edit): the same graph, with the transpositions
    /// of the nodes the change cannot have touched taken from `previous` instead of
    /// found again.
    pub fn build_after(
        lines: impl IntoIterator<Item = OpeningLine>,
        previous: &PositionGraph,
    ) -> GraphBuild {
        build::Builder::build(lines, Some(previous), None)
    }

    /// Appends to `out` the legal moves of `pos` (a position of `node`) that reach a
    /// node of the graph no continuation of `node` leads to.
    fn scan_transpositions(&self, node: NodeId, pos: &Chess, out: &mut Vec<Transposition>) {
        self.scan_from_key(node, pos, &NodeKey::from_position(pos), None, out);
    }

    /// The implied transpositions from `node` when the game stands at `pos`.
    ///
    /// `pos` must have the node's key; its castling and en-passant rights may differ
    /// from the representative's, and the legal moves are those of `pos`.
    pub fn transpositions_at(&self, node: NodeId, pos: &Chess) -> Vec<Transposition> {
        if self.is_representative(node, pos) {
            return self.transpositions(node).to_vec();
        }
        let mut out = Vec::new();
        self.scan_transpositions(node, pos, &mut out);
        out
    }

    /// Whether `pos` (a position of `node`) has the castling and en-passant rights of
    /// the node's representative, so the precomputed transpositions apply to it.
    pub fn is_representative(&self, node: NodeId, pos: &Chess) -> bool {
        self.nodes[node.index()].has_rights_of(pos)
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
        let nodes = &self.nodes;
        self.index
            .get(key, |id| nodes[id as usize].key())
            .map(NodeId)
    }

    /// The key of a node.
    pub fn key(&self, node: NodeId) -> NodeKey {
        self.nodes[node.index()].key()
    }

    /// The node of a position.
    pub fn lookup(&self, pos: &impl Position) -> Option<NodeId> {
        self.node(&NodeKey::from_position(pos))
    }

    /// The node's representative position (that of the first line that reached it).
    ///
    /// The graph keeps the position packed (pieces, rights and counters); this rebuilds
    /// it, which costs about as much as generating its legal moves.
    ///
    /// # Errors
    ///
    /// [`NodeRebuildError`] when the packed position cannot be rebuilt. Nodes are made
    /// from legal positions, so this is a bug; [`PositionGraph::build`] rebuilds every
    /// node and reports such a node among its issues ([`LineError::Rebuild`]).
    pub fn try_position(&self, node: NodeId) -> Result<Chess, NodeRebuildError> {
        self.nodes[node.index()].position(node.0)
    }

    /// The node's representative position, as [`PositionGraph::try_position`], for
    /// callers that have not moved to it yet: a node that cannot be rebuilt (a bug,
    /// reported by [`PositionGraph::build`] among its issues) gives the start position.
    /// Prefer [`PositionGraph::try_position`].
    pub fn position(&self, node: NodeId) -> Chess {
        self.try_position(node).unwrap_or_default()
    }

    /// The representative position as FEN.
    pub fn fen(&self, node: NodeId) -> String {
        Fen::from_position(&self.position(node), EnPassantMode::Legal).to_string()
    }

    /// `T(x)`: the total weight of the lines through the node.
    pub fn weight(&self, node: NodeId) -> f64 {
        self.weights[self.nodes[node.index()].weights as usize].weight
    }

    /// `T_i(x)`: the part of `T(x)` whose lines have each flag.
    pub fn flag_weights(&self, node: NodeId) -> &FlagWeights {
        &self.weights[self.nodes[node.index()].weights as usize].flags
    }

    /// The book continuations from the node.
    pub fn continuations(&self, node: NodeId) -> &[Continuation] {
        let i = node.index();
        &self.continuations[self.cont_start[i] as usize..self.cont_start[i + 1] as usize]
    }

    /// What the book's lines say about the move from `from` to `to`: the first
    /// non-empty annotation of it in the first line (in line order) that says
    /// something there. `None` when no continuation leads from `from` to `to` or no
    /// line says anything about it. A hash lookup in an index made with the graph.
    pub fn annotation(&self, from: NodeId, to: NodeId) -> Option<&MoveAnnotation> {
        let first = self.cont_start[from.index()];
        let k = self.continuations(from).iter().position(|c| c.to == to)?;
        let at = self.notes.get(first + k as u32)?;
        self.lines[at.line.index()]
            .annotations
            .get(at.index as usize)
    }

    /// The moves of a line from its start position (the line's own).
    pub fn line_moves(&self, id: LineId) -> &[Move] {
        &self.lines[id.index()].moves
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
        self.nodes[node.index()].name()
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
        SanPlus::from_move(self.position(node), mv)
    }

    /// The UCI notation of a move (standard castling: `e1g1`).
    pub fn uci(mv: Move) -> UciMove {
        mv.to_uci(CastlingMode::Standard)
    }
}

fn len_u32<T>(v: &[T]) -> u32 {
    u32::try_from(v.len()).unwrap_or(u32::MAX)
}
