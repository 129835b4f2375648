//! Monte Carlo tree search (UCT, the textbook algorithm), with the built-in evaluation
//! at the leaves.
//!
//! Each iteration walks down the tree choosing the child with the highest UCB1 bound
//! (`mean + c·√(ln N / n)`), expands the node it ends on, and adds that node's value
//! to every node on the way back, alternating sides. The move played is the root
//! child visited most.
//!
//! **Leaves are scored by the evaluation, not by random playouts.** A random chess game
//! from a middlegame position lasts a hundred-odd moves and ends in a result that says
//! little about the position (random play blunders everything, and most such games are
//! drawn by the move cap or material); thousands of playouts per move would be needed
//! for one useful bit, and each costs as much as a few hundred evaluations. Instead a
//! position gets the quiescence-search score of the α-β engine (captures resolved, so a
//! hanging piece counts), squashed to an expected score `1 / (1 + 10^(−cp/400))` (the
//! Elo curve), as AlphaZero-style searches do with a learnt value function.
//!
//! Expanding a node scores all its children at once (each starts with one visit and
//! its own value), and the node's value is one minus its best child's. Visiting the
//! unscored children one by one, as textbook UCT does, spends the first thirty-odd
//! visits of every node on moves that may be blunders, which keeps the tree about
//! three plies deep at 100 ms per move; with scored children the visits go to the
//! plausible moves at once. Scoring children lazily instead (the static evaluation as
//! a prior, the quiescence score on the first visit) runs 30 times more iterations but
//! lost +2 =4 −24 to this version in 30 games at 100 ms per move: a node's mean over a
//! few sampled replies is a poor value while the refutation is not yet sampled, and
//! scoring every reply gives each new node the minimax value of its children. Because
//! evaluation values vary far less than win/loss playouts, the exploration constant is
//! small: `c = 0.3` (UCB1's √2 is for Bernoulli rewards; 0.3 beat 0.7 by +24 =2 −4 in
//! 30 games).
//!
//! Limits: `movetime` and the stop flag as for α-β; `nodes` counts iterations;
//! `depth` stops the search once the tree reaches that many plies somewhere. The tree
//! holds at most [`MAX_TREE_NODES`] nodes; a full tree ends the search.

use shakmaty::{Chess, Move, Position};

use super::Engine;
use super::Search;
use super::error::EngineError;
use super::info::{SearchInfo, SearchResult};
use super::limits::Clock;
use super::score::{MATE, MAX_PLY, Score};
use super::search::{INFINITY, Run, Searcher};
use super::strength::Strength;

/// The exploration constant of UCB1 (see the module docs).
pub const EXPLORATION: f64 = 0.3;

/// The most nodes a tree may hold (32 bytes each).
pub const MAX_TREE_NODES: usize = 2_000_000;

/// Iterations between two reports.
const REPORT_EVERY: u64 = 4096;

/// One node: the move that led here and the statistics of the side that played it.
#[derive(Clone, Copy, Debug)]
struct Node {
    mv: Option<Move>,
    first_child: u32,
    children: u16,
    expanded: bool,
    /// The value of a finished game here, for the side that moved into it.
    terminal: Option<f32>,
    visits: u32,
    /// Sum of values for the side that moved into this node.
    total: f64,
}

impl Node {
    fn new(mv: Option<Move>) -> Node {
        Node {
            mv,
            first_child: 0,
            children: 0,
            expanded: false,
            terminal: None,
            visits: 0,
            total: 0.0,
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / f64::from(self.visits)
        }
    }
}

/// The built-in MCTS engine.
#[derive(Debug)]
pub struct Mcts {
    /// Quiescence search and draw detection for the leaves.
    searcher: Searcher,
    exploration: f64,
}

impl Default for Mcts {
    fn default() -> Self {
        Mcts::new(EXPLORATION)
    }
}

impl Mcts {
    /// An MCTS engine with exploration constant `c`.
    pub fn new(exploration: f64) -> Mcts {
        Mcts {
            searcher: Searcher::new(1),
            exploration,
        }
    }
}

impl Engine for Mcts {
    fn name(&self) -> String {
        "hastings mcts".to_string()
    }

    fn set_strength(&mut self, strength: Strength) -> Result<(), EngineError> {
        match strength {
            Strength::Full => Ok(()),
            _ => Err(EngineError::Option {
                engine: self.name(),
                reason: "the MCTS engine has no strength setting".to_string(),
            }),
        }
    }

    fn search(&mut self, search: Search<'_>) -> Result<SearchResult, EngineError> {
        let (game, limits, stop, on_info) = search.into_parts();
        let exploration = self.exploration;
        let clock = Clock::start(&limits.without_nodes(), stop);
        let mut run = self.searcher.run(game, clock);
        let mut tree = Tree {
            nodes: vec![Node::new(None)],
            exploration,
            max_depth: 0,
        };
        let root = game.position().clone();
        if root.legal_moves().is_empty() {
            return Ok(SearchResult::default());
        }
        tree.expand(0, &root, 0, &mut run);
        let mut iterations = 0u64;
        let mut info = None;
        loop {
            if run.clock.should_stop(iterations)
                || limits.nodes_limit().is_some_and(|n| iterations >= n)
                || limits
                    .depth_limit()
                    .is_some_and(|d| tree.max_depth >= d as usize)
                || tree.nodes.len() + 256 > MAX_TREE_NODES
                || tree.nodes[0].children == 1
                    && limits.movetime_limit().is_some()
                    && iterations > 0
            {
                break;
            }
            if !tree.iterate(&root, &mut run) {
                break;
            }
            iterations += 1;
            if iterations.is_multiple_of(REPORT_EVERY) {
                let report = tree.info(iterations, &run);
                on_info(&report);
                info = Some(report);
            }
        }
        let report = tree.info(iterations, &run);
        if info.as_ref() != Some(&report) {
            on_info(&report);
        }
        let pv = report.pv.clone();
        Ok(SearchResult {
            best: tree
                .best_child(0)
                .and_then(|c| tree.nodes[c].mv)
                .or_else(|| root.legal_moves().first().copied()),
            ponder: pv.get(1).copied(),
            info: Some(report),
        })
    }
}

/// The search tree of one search.
struct Tree {
    nodes: Vec<Node>,
    exploration: f64,
    max_depth: usize,
}

impl Tree {
    /// One iteration: select down to a node not yet expanded, expand it (scoring its
    /// children), back its value up. Returns false when stopped mid-way.
    fn iterate(&mut self, root: &Chess, run: &mut Run<'_>) -> bool {
        let mut path = vec![0usize];
        let mut pos = root.clone();
        let mut node = 0;
        let value = loop {
            if let Some(v) = self.nodes[node].terminal {
                break f64::from(v);
            }
            let ply = path.len() - 1;
            if !self.nodes[node].expanded || ply + 2 >= MAX_PLY {
                let Some(v) = self.expand(node, &pos, ply, run) else {
                    // Stopped inside a quiescence search: the values are unfinished.
                    return false;
                };
                break v;
            }
            let Some(child) = self.select(node) else {
                break 0.5;
            };
            let Some(m) = self.nodes[child].mv else {
                break 0.5;
            };
            pos = run.play(&pos, m, ply);
            path.push(child);
            node = child;
        };
        self.max_depth = self.max_depth.max(path.len() - 1);
        self.back_up(&path, value);
        true
    }

    /// Expands `node` (at `pos`, `ply` from the root): creates its children and scores
    /// each once, so selection compares real values from the start. Returns the
    /// node's value for the side that moved into it: a finished game's result, or one
    /// minus its best child's value.
    fn expand(&mut self, node: usize, pos: &Chess, ply: usize, run: &mut Run<'_>) -> Option<f64> {
        self.nodes[node].expanded = true;
        if node != 0 && run.is_draw(pos, ply) {
            self.nodes[node].terminal = Some(0.5);
            return Some(0.5);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            // The side that moved here mated (value 1) or stalemated (½).
            let v = if pos.is_check() { 1.0 } else { 0.5 };
            self.nodes[node].terminal = Some(v);
            return Some(f64::from(v));
        }
        if ply + 2 >= MAX_PLY || self.nodes.len() + moves.len() > MAX_TREE_NODES {
            let cp = run.quiescence(pos, ply, -INFINITY, INFINITY);
            return (!run.stopped).then(|| 1.0 - win_probability(cp));
        }
        let first = self.nodes.len();
        let mut best: f64 = 0.0;
        for &m in &moves {
            let child = run.play(pos, m, ply);
            let value = leaf_value(&child, ply + 1, run)?;
            best = best.max(value.value);
            self.nodes.push(Node {
                visits: 1,
                total: value.value,
                terminal: value.terminal.then_some(value.value as f32),
                expanded: value.terminal,
                ..Node::new(Some(m))
            });
        }
        self.nodes[node].first_child = u32::try_from(first).unwrap_or(u32::MAX);
        self.nodes[node].children = u16::try_from(moves.len()).unwrap_or(u16::MAX);
        Some(1.0 - best)
    }

    fn children(&self, node: usize) -> std::ops::Range<usize> {
        let first = self.nodes[node].first_child as usize;
        first..first + usize::from(self.nodes[node].children)
    }

    /// The child with the highest UCB1 bound.
    fn select(&self, node: usize) -> Option<usize> {
        let log_n = f64::from(self.nodes[node].visits.max(1)).ln();
        self.children(node)
            .max_by(|&a, &b| self.ucb(a, log_n).total_cmp(&self.ucb(b, log_n)))
    }

    fn ucb(&self, child: usize, log_parent: f64) -> f64 {
        let n = &self.nodes[child];
        n.mean() + self.exploration * (log_parent / f64::from(n.visits.max(1))).sqrt()
    }

    /// Adds `value` (for the side that moved into the last node) along `path`.
    fn back_up(&mut self, path: &[usize], mut value: f64) {
        for &n in path.iter().rev() {
            self.nodes[n].visits += 1;
            self.nodes[n].total += value;
            value = 1.0 - value;
        }
    }

    /// The most visited child, ties to the better mean.
    fn best_child(&self, node: usize) -> Option<usize> {
        self.children(node).max_by(|&a, &b| {
            let (na, nb) = (&self.nodes[a], &self.nodes[b]);
            na.visits
                .cmp(&nb.visits)
                .then(na.mean().total_cmp(&nb.mean()))
        })
    }

    /// A report: the most-visited line and its root child's mean as centipawns.
    fn info(&self, iterations: u64, run: &Run<'_>) -> SearchInfo {
        let mut pv = Vec::new();
        let mut node = 0;
        while let Some(child) = self.best_child(node) {
            let Some(m) = self.nodes[child].mv else { break };
            pv.push(m);
            if !self.nodes[child].expanded || self.nodes[child].terminal.is_some() {
                break;
            }
            node = child;
        }
        let score = self.best_child(0).map(|c| {
            let n = &self.nodes[c];
            if n.terminal == Some(1.0) {
                Score::Mate(1)
            } else {
                let q = n.mean().clamp(0.001, 0.999);
                Score::Cp((-400.0 * (1.0 / q - 1.0).log10()).round() as i32)
            }
        });
        SearchInfo {
            depth: pv.len() as u32,
            seldepth: Some(self.max_depth as u32),
            score,
            pv,
            multipv: 1,
            nodes: iterations,
            nps: Some(run.clock.nps(iterations)),
            time: run.clock.elapsed(),
        }
    }
}

/// A child's first value, for the side that moved into it.
struct LeafValue {
    value: f64,
    /// A finished game (mate, stalemate, draw by rule).
    terminal: bool,
}

/// Scores a new child: a finished game by its result, else the squashed quiescence
/// score. `None` when the search was stopped inside the quiescence search.
fn leaf_value(pos: &Chess, ply: usize, run: &mut Run<'_>) -> Option<LeafValue> {
    let finished = |value| {
        Some(LeafValue {
            value,
            terminal: true,
        })
    };
    if run.is_draw(pos, ply) {
        return finished(0.5);
    }
    if pos.legal_moves().is_empty() {
        return finished(if pos.is_check() { 1.0 } else { 0.5 });
    }
    let cp = run.quiescence(pos, ply, -INFINITY, INFINITY);
    if run.stopped {
        return None;
    }
    // The score is for the side to move at the child; the mover gets the rest.
    Some(LeafValue {
        value: 1.0 - win_probability(cp),
        terminal: false,
    })
}

/// The expected score of a centipawn value (mates clamped to certainty).
fn win_probability(cp: i32) -> f64 {
    Score::Cp(cp.clamp(-MATE / 2, MATE / 2)).win_probability()
}
