//! Monte Carlo tree search (seed 004): UCT, with the built-in evaluation at the leaves.
//!
//! Each iteration walks down the tree choosing the child with the highest UCB1 bound
//! (`mean + c·√(ln N / n)`), expands the node it ends on, scores the new leaf and adds
//! the score to every node on the way back, alternating sides. The move played is the
//! root child visited most.
//!
//! **Leaves are scored by the evaluation, not by random playouts.** A random chess game
//! from a middlegame position lasts a hundred-odd moves and ends in a result that says
//! little about the position (random play blunders everything, and most such games are
//! drawn by the move cap or material); thousands of playouts per move would be needed
//! for one useful bit, and each costs as much as a few hundred evaluations. Instead each
//! leaf gets the quiescence-search score of the α-β engine (captures resolved, so a
//! hanging piece counts), squashed to an expected score `1 / (1 + 10^(−cp/400))` (the
//! Elo curve), the approach of AlphaZero-style searches with a hand-written value
//! function. Because these values vary far less than win/loss playouts, the
//! exploration constant is `c = 0.7` (half of UCB1's √2 for Bernoulli rewards).
//!
//! Limits: `movetime` and the stop flag as for α-β; `nodes` counts iterations;
//! `depth` stops the search once the tree reaches that many plies somewhere. The tree
//! holds at most [`MAX_TREE_NODES`] nodes; a full tree ends the search.

use std::sync::atomic::AtomicBool;

use shakmaty::{Chess, Move, Position};

use super::Engine;
use super::error::EngineError;
use super::game::Game;
use super::info::{SearchInfo, SearchResult};
use super::limits::{Clock, Limits};
use super::ordering::mvv_lva;
use super::score::{MATE, MAX_PLY, Score};
use super::search::{INFINITY, Run, Searcher};
use super::strength::Strength;

/// The exploration constant of UCB1 (see the module docs).
pub const EXPLORATION: f64 = 0.7;

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

    fn new_game(&mut self) -> Result<(), EngineError> {
        Ok(())
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

    fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SearchResult, EngineError> {
        let exploration = self.exploration;
        let clock = Clock::start(
            &Limits {
                nodes: None,
                ..*limits
            },
            stop,
        );
        let mut run = self.searcher.run(game, clock);
        let mut tree = Tree {
            nodes: vec![Node::new(None)],
            exploration,
            max_depth: 0,
        };
        let root = game.position().clone();
        tree.expand(0, &root);
        if tree.nodes[0].children == 0 {
            return Ok(SearchResult::default());
        }
        let mut iterations = 0u64;
        let mut info = None;
        loop {
            if run.clock.should_stop(iterations)
                || limits.nodes.is_some_and(|n| iterations >= n)
                || limits.depth.is_some_and(|d| tree.max_depth >= d as usize)
                || tree.nodes.len() + 256 > MAX_TREE_NODES
                || tree.nodes[0].children == 1 && limits.movetime.is_some() && iterations > 0
            {
                break;
            }
            tree.iterate(&root, &mut run);
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
            best: tree.best_child(0).and_then(|c| tree.nodes[c].mv),
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
    /// One iteration: select, expand, evaluate, back up.
    fn iterate(&mut self, root: &Chess, run: &mut Run<'_>) {
        let mut path = vec![0usize];
        let mut pos = root.clone();
        let mut node = 0;
        let value = loop {
            if let Some(v) = self.nodes[node].terminal {
                break f64::from(v);
            }
            let ply = path.len() - 1;
            if !self.nodes[node].expanded {
                self.expand(node, &pos);
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
            if self.nodes[child].visits == 0 || ply + 2 >= MAX_PLY {
                let Some(v) = self.evaluate_leaf(child, &pos, ply + 1, run) else {
                    // Stopped inside the quiescence search: the value is unfinished.
                    return;
                };
                break v;
            }
        };
        self.max_depth = self.max_depth.max(path.len() - 1);
        self.back_up(&path, value);
    }

    /// Creates the children of `node` (at `pos`), captures first so they are tried
    /// first; marks a node without moves as a finished game.
    fn expand(&mut self, node: usize, pos: &Chess) {
        self.nodes[node].expanded = true;
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            // The side that moved here mated (value 1) or stalemated (½).
            self.nodes[node].terminal = Some(if pos.is_check() { 1.0 } else { 0.5 });
            return;
        }
        moves.sort_by_key(|&m| std::cmp::Reverse(if m.is_capture() { mvv_lva(m) } else { -100 }));
        let first = self.nodes.len();
        self.nodes.extend(moves.iter().map(|&m| Node::new(Some(m))));
        self.nodes[node].first_child = u32::try_from(first).unwrap_or(u32::MAX);
        self.nodes[node].children = u16::try_from(moves.len()).unwrap_or(u16::MAX);
    }

    fn children(&self, node: usize) -> std::ops::Range<usize> {
        let first = self.nodes[node].first_child as usize;
        first..first + usize::from(self.nodes[node].children)
    }

    /// The child to descend to: an unvisited one first, else the highest UCB1 bound.
    fn select(&self, node: usize) -> Option<usize> {
        let children = self.children(node);
        if let Some(unvisited) = children.clone().find(|&c| self.nodes[c].visits == 0) {
            return Some(unvisited);
        }
        let log_n = f64::from(self.nodes[node].visits.max(1)).ln();
        children.max_by(|&a, &b| self.ucb(a, log_n).total_cmp(&self.ucb(b, log_n)))
    }

    fn ucb(&self, child: usize, log_parent: f64) -> f64 {
        let n = &self.nodes[child];
        n.mean() + self.exploration * (log_parent / f64::from(n.visits)).sqrt()
    }

    /// The value of a new leaf for the side that moved into it: a finished game's
    /// result, or the squashed quiescence score.
    fn evaluate_leaf(
        &mut self,
        node: usize,
        pos: &Chess,
        ply: usize,
        run: &mut Run<'_>,
    ) -> Option<f64> {
        if run.is_draw(pos, ply) {
            self.nodes[node].terminal = Some(0.5);
            return Some(0.5);
        }
        if pos.legal_moves().is_empty() {
            self.nodes[node].expanded = true;
            let v = if pos.is_check() { 1.0 } else { 0.5 };
            self.nodes[node].terminal = Some(v);
            return Some(f64::from(v));
        }
        let cp = run.quiescence(pos, ply, -INFINITY, INFINITY);
        if run.stopped {
            return None;
        }
        // The score is for the side to move at the leaf; the mover gets the rest.
        Some(1.0 - Score::Cp(cp.clamp(-MATE / 2, MATE / 2)).win_probability())
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
            if self.nodes[child].visits == 0 {
                break;
            }
            let Some(m) = self.nodes[child].mv else { break };
            pv.push(m);
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
