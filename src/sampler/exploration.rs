//! Sampled lines (docs/sampler.md §4): chains of MH steps from one position, counted
//! by the nodes they visit, the transitions they take and the lines they end in.

use rand::Rng;
use rustc_hash::FxHashMap;
use shakmaty::{Chess, Position};

use super::metropolis::{Table, clean_s_prev, metropolis};
use super::style::Style;
use crate::book::{LineId, NodeId, PositionGraph};

/// What N sampled lines from one position found (docs/sampler.md §4).
#[derive(Clone, Debug, Default)]
pub struct Exploration {
    /// The number of chains.
    pub iterations: u32,
    /// The ply limit of each chain.
    pub ply_limit: u32,
    /// The node the chains started from.
    pub start: Option<NodeId>,
    /// How many chains took each candidate of the start distribution as their first
    /// step, aligned with `Distribution::at(start, …).candidates`.
    pub first_steps: Vec<u32>,
    /// Visits per node (the start counts once per chain).
    pub visits: FxHashMap<NodeId, u32>,
    /// Transitions per (from, to) pair.
    pub transitions: FxHashMap<(NodeId, NodeId), u32>,
    /// The named line each chain ended in (the deepest named node of its path).
    pub endings: FxHashMap<Option<LineId>, u32>,
    /// Total proposals made, over all steps.
    pub proposals: u64,
    /// Total steps taken.
    pub steps: u64,
}

impl Exploration {
    /// Adds the counts of `part`, sampled from the same start with the same style (a
    /// long exploration run in chunks, so that progress can be shown and it can be
    /// cancelled between them). Merging the chunks of one seeded RNG stream gives the
    /// same counts as one run.
    pub fn merge(&mut self, part: Exploration) {
        if self.iterations == 0 {
            *self = part;
            return;
        }
        self.iterations += part.iterations;
        for (a, b) in self.first_steps.iter_mut().zip(&part.first_steps) {
            *a += b;
        }
        for (k, v) in part.visits {
            *self.visits.entry(k).or_default() += v;
        }
        for (k, v) in part.transitions {
            *self.transitions.entry(k).or_default() += v;
        }
        for (k, v) in part.endings {
            *self.endings.entry(k).or_default() += v;
        }
        self.proposals += part.proposals;
        self.steps += part.steps;
    }

    /// The empirical next-node distribution at `node`: (to, frequency), most frequent first.
    pub fn next_distribution(&self, node: NodeId) -> Vec<(NodeId, f64)> {
        let mut out: Vec<(NodeId, u32)> = self
            .transitions
            .iter()
            .filter(|((from, _), _)| *from == node)
            .map(|((_, to), n)| (*to, *n))
            .collect();
        let total: u32 = out.iter().map(|(_, n)| n).sum();
        out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out.into_iter()
            .map(|(to, n)| (to, f64::from(n) / f64::from(total.max(1))))
            .collect()
    }

    /// The line titles the chains ended in (`"C60 Ruy Lopez"`), with counts, most
    /// frequent first; chains that reached no named position count as `"(unnamed)"`.
    pub fn reached(&self, graph: &PositionGraph) -> Vec<(String, u32)> {
        let mut by_title: FxHashMap<String, u32> = FxHashMap::default();
        for (line, n) in &self.endings {
            let title = line.map_or_else(|| "(unnamed)".to_owned(), |l| graph.line(l).title());
            *by_title.entry(title).or_default() += n;
        }
        let mut out: Vec<(String, u32)> = by_title.into_iter().collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out
    }
}

/// How many lines [`explore`] samples, and how long each may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExploreLimits {
    /// The number of chains (sampled lines).
    pub iterations: u32,
    /// The most moves a chain plays.
    pub ply_limit: u32,
}

impl Default for ExploreLimits {
    /// 1,000 chains of at most 40 plies.
    fn default() -> ExploreLimits {
        ExploreLimits {
            iterations: 1000,
            ply_limit: 40,
        }
    }
}

/// Samples `iterations` lines from `pos` (a position of `start`), each stepping with
/// the MH rule until the book ends or `ply_limit` moves were played (docs/sampler.md §4).
///
/// `s_prev` is the share of the move that led to `pos` (1 at the start of a game). The
/// per-node candidate tables are computed once per call and shared by all chains.
pub fn explore(
    graph: &PositionGraph,
    start: NodeId,
    pos: &Chess,
    style: &Style,
    s_prev: f64,
    limits: ExploreLimits,
    rng: &mut impl Rng,
) -> Exploration {
    let first = Table::new(graph, start, pos, style);
    let mut tables = GraphTables {
        graph,
        style,
        cache: FxHashMap::default(),
        fresh: Table::default(),
    };
    explore_tables(
        graph,
        Some(start),
        pos,
        s_prev,
        None,
        first,
        limits,
        rng,
        &mut tables,
    )
}

/// Where the explore loop finds the candidates of the positions its chains reach.
pub(super) trait Tables {
    /// The candidates at `game` (of the graph's node `node`, if any; `named` the line
    /// naming the game so far).
    fn at(&mut self, node: Option<NodeId>, game: &Chess, named: Option<LineId>) -> &Table;
}

/// The graph's tables, computed once per node for the positions that represent it.
struct GraphTables<'a> {
    graph: &'a PositionGraph,
    style: &'a Style,
    cache: FxHashMap<NodeId, Table>,
    fresh: Table,
}

impl Tables for GraphTables<'_> {
    fn at(&mut self, node: Option<NodeId>, game: &Chess, _: Option<LineId>) -> &Table {
        let (graph, style) = (self.graph, self.style);
        match node {
            Some(node) if graph.is_representative(node, game) => self
                .cache
                .entry(node)
                // The game's position stands for the node's: same board, same rights.
                .or_insert_with(|| Table::new(graph, node, game, style)),
            Some(node) => {
                self.fresh = Table::new(graph, node, game, style);
                &self.fresh
            }
            None => {
                self.fresh = Table::default();
                &self.fresh
            }
        }
    }
}

/// The explore loop of every source (docs/sampler.md §4): `limits.iterations` chains from
/// `pos` (the graph's node `start`, if any), each stepping with the MH rule from the
/// candidates `tables` gives until there are none or `limits.ply_limit` moves were
/// played; `first` is the table at `pos`. Visits and transitions count the graph's
/// nodes; a chain's ending is the deepest position of the graph it named (`named`, the
/// game's name at `pos`, when it named none).
#[allow(clippy::too_many_arguments)]
pub(super) fn explore_tables(
    graph: &PositionGraph,
    start: Option<NodeId>,
    pos: &Chess,
    s_prev: f64,
    named: Option<LineId>,
    first: Table,
    limits: ExploreLimits,
    rng: &mut impl Rng,
    tables: &mut impl Tables,
) -> Exploration {
    let mut ex = Exploration {
        iterations: limits.iterations,
        ply_limit: limits.ply_limit,
        start,
        first_steps: vec![0; first.len()],
        ..Exploration::default()
    };
    let named_at_start = start.and_then(|n| graph.name(n)).or(named);
    let s0 = clean_s_prev(s_prev);
    for _ in 0..limits.iterations {
        let mut game = pos.clone();
        let mut node = start;
        let mut named = named_at_start;
        let mut s = s0;
        if let Some(n) = node {
            *ex.visits.entry(n).or_default() += 1;
        }
        for ply in 0..limits.ply_limit {
            let table = if ply == 0 {
                &first
            } else {
                tables.at(node, &game, named)
            };
            if table.is_empty() {
                break;
            }
            let step = metropolis(table.len(), rng, |i| table.acceptance(i, s));
            ex.steps += 1;
            ex.proposals += u64::from(step.proposals);
            if ply == 0 {
                ex.first_steps[step.index] += 1;
            }
            let chosen = table.entries[step.index];
            s = clean_s_prev(chosen.share);
            game.play_unchecked(chosen.mv);
            if let (Some(from), Some(to)) = (node, chosen.to) {
                *ex.transitions.entry((from, to)).or_default() += 1;
            }
            if let Some(to) = chosen.to {
                *ex.visits.entry(to).or_default() += 1;
            }
            node = chosen.to;
            named = node.and_then(|n| graph.name(n)).or(named);
        }
        *ex.endings.entry(named).or_default() += 1;
    }
    ex
}
