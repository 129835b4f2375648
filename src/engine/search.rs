//! The α-β search: iterative deepening over a root search of every legal move.
//!
//! [`Searcher`] keeps what lasts between searches (the transposition table, killers
//! and history); one call of [`Searcher::search`] deepens one ply at a time until a
//! limit is reached, reporting each finished depth. The recursive parts are in
//! `negamax.rs` and `quiescence.rs`.

use std::sync::atomic::AtomicBool;

use shakmaty::{Chess, Move, Position};

use super::evaluation::Evaluation;
use super::game::{Game, hash_after};
use super::info::SearchInfo;
use super::limits::{Clock, Limits};
use super::ordering::{MovePicker, OrderingTables};
use super::score::{MATE, MATE_BOUND, MAX_PLY, Score};
use super::tt::TranspositionTable;

/// A bound above every score.
pub const INFINITY: i32 = MATE + 1;

/// The deepest iteration: leaves room for extensions and quiescence below it.
pub const MAX_DEPTH: u32 = (MAX_PLY / 2) as u32;

/// Nodes between two looks at the clock.
const CHECK_EVERY: u64 = 2048;

/// How the root search chooses: depth cap and the margin for near-best moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// Never search deeper than this (a weaker level).
    pub max_depth: Option<u32>,
    /// Score every root move that is within this many centipawns of the best exactly,
    /// so a weaker level can choose among them (0: only the best move matters).
    pub margin: i32,
}

/// A root move and its score in the last finished iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its score for the side to move (exact within the margin, else a bound).
    pub score: i32,
}

/// The result of [`Searcher::search`].
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The best move, `None` when there is no legal move.
    pub best: Option<Move>,
    /// Its score, in internal units (see [`Score::from_internal`]).
    pub score: i32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The last finished depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Root moves of the last finished iteration, best first; those within
    /// [`SearchOptions::margin`] of the best carry exact scores.
    pub root_moves: Vec<RootMove>,
    /// The last report.
    pub info: Option<SearchInfo>,
}

/// The α-β searcher, its evaluation, and the tables it keeps between searches.
#[derive(Debug)]
pub struct Searcher {
    tt: TranspositionTable,
    ordering: OrderingTables,
    evaluation: Evaluation,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(16)
    }
}

impl Searcher {
    /// A searcher with a transposition table of `hash_mb` megabytes and the built-in
    /// evaluation.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher::with_evaluation(hash_mb, Evaluation::default())
    }

    /// A searcher with a transposition table of `hash_mb` megabytes and `evaluation`.
    pub fn with_evaluation(hash_mb: usize, evaluation: Evaluation) -> Searcher {
        Searcher {
            tt: TranspositionTable::with_megabytes(hash_mb),
            ordering: OrderingTables::default(),
            evaluation,
        }
    }

    /// A searcher with the smallest transposition table (1,024 entries), for many
    /// shallow searches of unrelated positions that each start afresh ([`Searcher::clear`]
    /// is then cheap).
    pub fn small(evaluation: Evaluation) -> Searcher {
        Searcher {
            tt: TranspositionTable::with_entries(1024),
            ordering: OrderingTables::default(),
            evaluation,
        }
    }

    /// The evaluation.
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// Changes the evaluation and forgets what was learnt with the old one.
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
        self.clear();
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.ordering = OrderingTables::default();
    }

    /// The state of one search of `game`'s current position (also used by MCTS for
    /// its leaves).
    pub(super) fn run<'a>(&'a mut self, game: &Game, clock: Clock<'a>) -> Run<'a> {
        self.tt.new_search();
        self.ordering.age();
        Run {
            tt: &mut self.tt,
            ordering: &mut self.ordering,
            evaluation: &self.evaluation,
            clock,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            path: game.hashes().to_vec(),
            root_index: game.hashes().len() - 1,
            pv: vec![Vec::new(); MAX_PLY + 2],
        }
    }

    /// Searches the current position of `game` within `limits`, calling `on_info` after
    /// every finished depth. Stops early when `stop` is set; the best move of the
    /// deepest finished (or partly finished) iteration is returned.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        options: &SearchOptions,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Outcome {
        let pos = game.position().clone();
        let mut run = self.run(game, Clock::start(limits, stop));
        let mut root_moves = run.initial_root_moves(&pos);
        let mut out = Outcome::default();
        if root_moves.is_empty() {
            return out;
        }
        out.best = Some(root_moves[0].mv);
        let max_depth = limits
            .depth_limit()
            .unwrap_or(MAX_DEPTH)
            .min(options.max_depth.unwrap_or(MAX_DEPTH))
            .clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            if depth > 1 && !run.clock.may_start_iteration(run.nodes) {
                break;
            }
            let Some((best, score)) = run.root(&pos, depth, &mut root_moves, options.margin) else {
                break;
            };
            out.best = Some(best);
            out.score = score;
            out.depth = depth;
            out.pv = run.pv[0].clone();
            out.root_moves = root_moves.clone();
            let info = run.info(depth, score, &out.pv);
            on_info(&info);
            out.info = Some(info);
            if run.stopped
                || is_settled(score, depth)
                || root_moves.len() == 1 && limits.movetime_limit().is_some()
            {
                break;
            }
        }
        out.nodes = run.nodes;
        out
    }
}

/// A mate found with plies to spare cannot change with more depth.
fn is_settled(score: i32, depth: u32) -> bool {
    score.abs() > MATE_BOUND && (MATE - score.abs()) + 1 < depth as i32
}

/// The state of one search.
pub(super) struct Run<'a> {
    pub(super) tt: &'a mut TranspositionTable,
    pub(super) ordering: &'a mut OrderingTables,
    pub(super) evaluation: &'a Evaluation,
    pub(super) clock: Clock<'a>,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    /// Hashes of the game's positions, then of the search path: the node at ply `p` is
    /// at `root_index + p`.
    pub(super) path: Vec<u64>,
    pub(super) root_index: usize,
    /// The triangular principal-variation table: `pv[ply]` is the best line from `ply`.
    pub(super) pv: Vec<Vec<Move>>,
}

impl Run<'_> {
    /// Counts a node; returns true when the search must stop.
    pub(super) fn enter_node(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.clock.should_stop(self.nodes) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Sets `pv[ply]` to `m` followed by the line below it.
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let (upper, lower) = self.pv.split_at_mut(ply + 1);
        let line = &mut upper[ply];
        line.clear();
        line.push(m);
        if let Some(rest) = lower.first() {
            line.extend_from_slice(rest);
        }
    }

    /// Plays `m` from `pos` and pushes the child's hash on the path.
    pub(super) fn play(&mut self, pos: &Chess, m: Move, ply: usize) -> Chess {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let h = hash_after(pos, self.path[self.root_index + ply], m, &child);
        self.path.truncate(self.root_index + ply + 1);
        self.path.push(h);
        child
    }

    /// One iteration at the root: every move searched to `depth`, the best first.
    /// Returns the best move and score, or `None` if stopped before the first move was
    /// searched.
    fn root(
        &mut self,
        pos: &Chess,
        depth: u32,
        root_moves: &mut [RootMove],
        margin: i32,
    ) -> Option<(Move, i32)> {
        let depth = depth as i32;
        let mut best: Option<(Move, i32)> = None;
        let mut searched = 0;
        self.pv[0].clear();
        for (i, root_move) in root_moves.iter_mut().enumerate() {
            let m = root_move.mv;
            let child = self.play(pos, m, 0);
            let score = match best {
                None => -self.negamax(&child, depth - 1, 1, -INFINITY, INFINITY, true),
                Some((_, best_score)) => {
                    let a = best_score.saturating_sub(margin.max(0));
                    let probe = -self.negamax(&child, depth - 1, 1, -a - 1, -a, true);
                    if probe > a && !self.stopped {
                        -self.negamax(&child, depth - 1, 1, -INFINITY, -a, true)
                    } else {
                        probe
                    }
                }
            };
            if self.stopped {
                break;
            }
            searched = i + 1;
            root_move.score = score;
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((m, score));
                self.update_pv(0, m);
            }
        }
        // Searched moves best first; moves this iteration did not reach go last.
        for r in &mut root_moves[searched..] {
            r.score = -INFINITY;
        }
        root_moves[..searched].sort_by_key(|r| std::cmp::Reverse(r.score));
        best
    }

    /// The legal moves in their first search order: hash move, captures, the rest.
    fn initial_root_moves(&self, pos: &Chess) -> Vec<RootMove> {
        let hash_move = self
            .tt
            .probe(self.path[self.root_index])
            .and_then(|e| e.best);
        let moves = pos.legal_moves();
        MovePicker::new(moves, |m| self.ordering.key(pos.turn(), m, 0, hash_move))
            .map(|mv| RootMove {
                mv,
                score: -INFINITY,
            })
            .collect()
    }

    fn info(&self, depth: u32, score: i32, pv: &[Move]) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: Some(self.seldepth as u32),
            score: Some(Score::from_internal(score)),
            pv: pv.to_vec(),
            multipv: 1,
            nodes: self.nodes,
            nps: Some(self.clock.nps(self.nodes)),
            time: self.clock.elapsed(),
        }
    }
}
