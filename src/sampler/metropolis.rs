//! Candidates, the exact reply distribution, the MH step, and sampled lines.

use rand::{Rng, RngExt};
use rustc_hash::FxHashMap;
use shakmaty::{Chess, Move, Position};

use super::style::Style;
use crate::book::{FlagWeights, LineId, NodeId, PositionGraph};

/// How a candidate reply relates to the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CandidateKind {
    /// Some line plays this move from here.
    Book,
    /// An implied transposition: the move reaches a book position no line plays it into.
    Transposition,
    /// Past the book: a legal move whose share is the move predictor's estimate of how
    /// many strong players play it here.
    Predicted,
}

/// One candidate reply at a node, with every number the sampler uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The node of the graph the move leads to; `None` for a move of a Polyglot book
    /// into a position the graph does not have.
    pub to: Option<NodeId>,
    /// The move, legal in the position the distribution was computed for.
    pub mv: Move,
    /// Book continuation or implied transposition.
    pub kind: CandidateKind,
    /// `cw(x→y)`: continuation weight (τ·T(y) for a transposition).
    pub weight: f64,
    /// `f_i(x→y)`: the share of the candidate's weight whose lines have each flag.
    pub flag_shares: FlagWeights,
    /// `share(y|x)`: popularity share among the candidates.
    pub share: f64,
    /// `Σ w_i p_i f_i`: the style bonus.
    pub bonus: f64,
    /// `w_r · d(y)`: the review term, 0 outside review mode.
    pub review: f64,
    /// `A(y) = share / s_prev + bonus + review` (may exceed 1).
    pub acceptance: f64,
    /// `P(y|x)`: the exact probability that the step returns this candidate.
    pub p: f64,
}

/// The candidates at a position and the exact reply distribution (docs/sampler.md §2–3).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Distribution {
    /// The share the previous move had (1 at the start).
    pub s_prev: f64,
    /// Book continuations first (in book order), then implied transpositions.
    pub candidates: Vec<Candidate>,
}

/// The result of one Metropolis–Hastings step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The index of the accepted candidate.
    pub index: usize,
    /// How many proposals it took (at least 1).
    pub proposals: u32,
}

/// One source's part of a candidate without τ: a continuation or book entry with its
/// weight, or an implied transposition with `T(y)` (weighted `τ·T(y)`). The drill, the
/// explore loops and the fit tables all start from these.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Part {
    /// The node the move leads to, when the graph has it.
    pub(crate) to: Option<NodeId>,
    /// The move.
    pub(crate) mv: Move,
    /// A continuation or book entry (else an implied transposition).
    pub(crate) entry: bool,
    /// `cw(x→y)` of a continuation, an entry's weight, `T(y)` of a transposition.
    pub(crate) weight: f64,
    /// `f_i(x→y)`.
    pub(crate) flags: FlagWeights,
}

impl Part {
    /// The part's weight under `tau`.
    pub(crate) fn weight(&self, tau: f64) -> f64 {
        if self.entry {
            self.weight
        } else {
            tau * self.weight
        }
    }

    /// A book candidate or an implied transposition.
    pub(crate) fn kind(&self) -> CandidateKind {
        if self.entry {
            CandidateKind::Book
        } else {
            CandidateKind::Transposition
        }
    }
}

/// The graph's candidates at `node` as played from `pos`, without τ: the continuations
/// of positive weight that are legal at `pos`, then (when `transpositions`) the implied
/// transpositions whose target has weight.
pub(crate) fn graph_parts(
    graph: &PositionGraph,
    node: NodeId,
    pos: &Chess,
    transpositions: bool,
) -> Vec<Part> {
    let mut out = Vec::new();
    for c in graph.continuations(node) {
        if c.weight > 0.0 && pos.is_legal(c.mv) {
            out.push(Part {
                to: Some(c.to),
                mv: c.mv,
                entry: true,
                weight: c.weight,
                flags: c.flag_weights.map(|f| f / c.weight),
            });
        }
    }
    if transpositions {
        for t in graph.transpositions_at(node, pos) {
            let total = graph.weight(t.to);
            if total > 0.0 {
                out.push(Part {
                    to: Some(t.to),
                    mv: t.mv,
                    entry: false,
                    weight: total,
                    flags: graph.flag_weights(t.to).map(|f| f / total),
                });
            }
        }
    }
    out
}

/// The τ-free totals of one source's parts at a position.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Totals {
    /// `B`: the total weight of the continuations (entries).
    pub(crate) entries: f64,
    /// `Tt`: the total `T(y)` of the transpositions.
    pub(crate) trans: f64,
}

impl Totals {
    /// The totals of `parts`.
    pub(crate) fn of(parts: &[Part]) -> Totals {
        let mut totals = Totals::default();
        for p in parts {
            totals.add(p);
        }
        totals
    }

    /// Counts `part` in.
    pub(crate) fn add(&mut self, part: &Part) {
        if part.entry {
            self.entries += part.weight;
        } else {
            self.trans += part.weight;
        }
    }

    /// `B + τ·Tt`: the sum of the parts' weights under `tau` (docs/sampler.md §2).
    pub(crate) fn den(&self, tau: f64) -> f64 {
        self.entries + tau * self.trans
    }

    /// The share of `part` among these parts under `tau`, if it is a candidate (its
    /// weight and the total are positive).
    pub(crate) fn share(&self, part: Option<Part>, tau: f64) -> Option<f64> {
        let part = part?;
        let (w, den) = (part.weight(tau), self.den(tau));
        (w > 0.0 && den > 0.0).then(|| w / den)
    }
}

/// A candidate of any source with its share, before the style is applied.
#[derive(Clone, Copy, Debug)]
pub(super) struct RawCandidate {
    pub(super) to: Option<NodeId>,
    pub(super) mv: Move,
    pub(super) kind: CandidateKind,
    pub(super) weight: f64,
    pub(super) share: f64,
    pub(super) flag_shares: FlagWeights,
}

/// The candidates at a position with their shares and bonuses: what the exact reply
/// distribution, the MH step and `s_prev` of the next move are computed from, for every
/// source.
#[derive(Clone, Debug, Default)]
pub(super) struct Table {
    entries: Vec<RawCandidate>,
    bonuses: Vec<f64>,
}

impl Table {
    /// The graph's candidates at `node` as played from `pos` under `style`.
    fn new(graph: &PositionGraph, node: NodeId, pos: &Chess, style: &Style) -> Table {
        let tau = style.tau();
        let parts = graph_parts(graph, node, pos, tau > 0.0);
        let totals = Totals::of(&parts);
        let entries = parts
            .iter()
            .filter_map(|p| {
                Some(RawCandidate {
                    to: p.to,
                    mv: p.mv,
                    kind: p.kind(),
                    weight: p.weight(tau),
                    share: totals.share(Some(*p), tau)?,
                    flag_shares: p.flags,
                })
            })
            .collect();
        Table::from_entries(entries, style)
    }

    /// Candidates whose shares are set, with their bonuses under `style`.
    pub(super) fn from_entries(entries: Vec<RawCandidate>, style: &Style) -> Table {
        let bonuses = entries
            .iter()
            .map(|r| style.bonus(&r.flag_shares))
            .collect();
        Table { entries, bonuses }
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is no candidate (the end of the book).
    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn acceptance(&self, i: usize, s_prev: f64) -> f64 {
        acceptance(self.entries[i].share, s_prev, self.bonuses[i])
    }

    /// The share of `mv` here: `s_prev` for the position after it; 1 when `mv` is no
    /// candidate (a fresh start).
    pub(super) fn share_of(&self, mv: Move) -> f64 {
        self.entries
            .iter()
            .find(|r| r.mv == mv)
            .map_or(1.0, |r| r.share)
    }
}

/// `A(y) = share(y|x) / s_prev + bonus` (docs/sampler.md §3), for the drill, the explore
/// loops and the fit tables.
pub(crate) fn acceptance(share: f64, s_prev: f64, bonus: f64) -> f64 {
    share / s_prev + bonus
}

/// Sets each candidate's exact `P = min(1, A) / Σ min(1, A)` (docs/sampler.md §3).
fn normalise(candidates: &mut [Candidate]) {
    let norm: f64 = candidates.iter().map(|c| c.acceptance.min(1.0)).sum();
    for c in candidates {
        c.p = c.acceptance.min(1.0) / norm;
    }
}

/// `s_prev` as the formulas use it: a share in `(0, 1]`, else 1 (a fresh start).
pub(crate) fn clean_s_prev(s_prev: f64) -> f64 {
    if s_prev > 0.0 && s_prev <= 1.0 {
        s_prev
    } else {
        1.0
    }
}

/// Proposes uniformly among `n` candidates and accepts with probability `accept(i)`,
/// until one is accepted (docs/sampler.md §3). `n` must be positive and some acceptance
/// positive; with the sampler's acceptances Σ min(1, A) ≥ 1, so this ends quickly.
fn metropolis(n: usize, rng: &mut impl Rng, accept: impl Fn(usize) -> f64) -> Step {
    let mut proposals = 0u32;
    loop {
        proposals = proposals.saturating_add(1);
        let index = rng.random_range(0..n);
        let u: f64 = rng.random();
        if u < accept(index) {
            return Step { index, proposals };
        }
    }
}

impl Distribution {
    /// The candidates at `node` when the game stands at `pos`, and their exact
    /// probabilities under `style`, after a move whose share was `s_prev`.
    ///
    /// `pos` must be a position of `node` (same [`NodeKey`](crate::book::NodeKey));
    /// its own castling and en-passant rights decide which moves are legal. An `s_prev`
    /// outside `(0, 1]` counts as 1.
    ///
    /// ```
    /// use hastings::book::PositionGraph;
    /// use hastings::sampler::{Distribution, Style};
    /// use shakmaty::Chess;
    ///
    /// let graph = PositionGraph::eco().unwrap();
    /// let start = graph.start().unwrap();
    /// let d = Distribution::at(&graph, start, &Chess::default(), &Style::neutral(), 1.0);
    /// let e4 = d.candidates.iter().find(|c| graph.san(start, c.mv).to_string() == "e4").unwrap();
    /// assert!((e4.p - 0.5306).abs() < 1e-4);
    /// ```
    pub fn at(
        graph: &PositionGraph,
        node: NodeId,
        pos: &Chess,
        style: &Style,
        s_prev: f64,
    ) -> Distribution {
        let table = Table::new(graph, node, pos, style);
        Distribution::from_table(&table, clean_s_prev(s_prev))
    }

    /// The distribution over moves whose shares are given (they should sum to 1), of
    /// one `kind`, with no style flags: past the book, where the move predictor gives
    /// the shares. `A` and `P` are those of docs/sampler.md as for book candidates.
    pub fn from_shares(
        shares: impl IntoIterator<Item = (Move, f64)>,
        kind: CandidateKind,
        style: &Style,
        s_prev: f64,
    ) -> Distribution {
        let entries = shares
            .into_iter()
            .map(|(mv, share)| RawCandidate {
                to: None,
                mv,
                kind,
                weight: share,
                share,
                flag_shares: FlagWeights::default(),
            })
            .collect();
        Distribution::from_table(&Table::from_entries(entries, style), clean_s_prev(s_prev))
    }

    /// Candidates with their bonuses, `A = share / s_prev + bonus` and exact `P`;
    /// `s_prev` already clean.
    pub(super) fn from_table(table: &Table, s_prev: f64) -> Distribution {
        let mut candidates: Vec<Candidate> = table
            .entries
            .iter()
            .zip(&table.bonuses)
            .map(|(r, &bonus)| Candidate {
                to: r.to,
                mv: r.mv,
                kind: r.kind,
                weight: r.weight,
                flag_shares: r.flag_shares,
                share: r.share,
                bonus,
                review: 0.0,
                acceptance: acceptance(r.share, s_prev, bonus),
                p: 0.0,
            })
            .collect();
        normalise(&mut candidates);
        Distribution { s_prev, candidates }
    }

    /// Adds the review term: each candidate's acceptance grows by `weight · d(to)`
    /// (`d` clamped to [0, 1]), kept in [`Candidate::review`], and `P` is recomputed as
    /// `min(1, A) / Σ min(1, A)`. With `weight = 0` (or not positive) the distribution
    /// is returned unchanged.
    ///
    /// ```
    /// use hastings::book::PositionGraph;
    /// use hastings::sampler::{Distribution, Style};
    /// use shakmaty::Chess;
    ///
    /// let graph = PositionGraph::eco().unwrap();
    /// let start = graph.start().unwrap();
    /// let plain = Distribution::at(&graph, start, &Chess::default(), &Style::neutral(), 1.0);
    /// let c4 = plain.candidates.iter().position(|c| graph.san(start, c.mv).to_string() == "c4").unwrap();
    /// let to = plain.candidates[c4].to;
    /// let steered = plain.clone().with_review(0.5, |n| if Some(n) == to { 1.0 } else { 0.0 });
    /// assert_eq!(steered.candidates[c4].review, 0.5);
    /// assert!(steered.candidates[c4].p > plain.candidates[c4].p);
    /// assert_eq!(plain.clone().with_review(0.0, |_| 1.0), plain);
    /// ```
    #[must_use]
    pub fn with_review(mut self, weight: f64, d: impl Fn(NodeId) -> f64) -> Distribution {
        if weight.is_nan() || weight <= 0.0 || self.candidates.is_empty() {
            return self;
        }
        for c in &mut self.candidates {
            let term = weight * c.to.map_or(0.0, &d).clamp(0.0, 1.0);
            c.review = term;
            c.acceptance += term;
        }
        normalise(&mut self.candidates);
        self
    }

    /// Whether there is no candidate (the end of the book).
    pub fn is_empty(&self) -> bool {
        self.candidates.is_empty()
    }

    /// The candidate leading to `to`, if any.
    pub fn candidate_to(&self, to: NodeId) -> Option<&Candidate> {
        self.candidates.iter().find(|c| c.to == Some(to))
    }

    /// The candidate playing `mv`, if any.
    pub fn candidate_for(&self, mv: Move) -> Option<&Candidate> {
        self.candidates.iter().find(|c| c.mv == mv)
    }

    /// The most popular candidate (largest share; the first on ties).
    pub fn most_popular(&self) -> Option<&Candidate> {
        self.candidates
            .iter()
            .reduce(|best, c| if c.share > best.share { c } else { best })
    }

    /// One Metropolis–Hastings step: propose uniformly, accept if `u < A`, retry.
    /// `None` when there is no candidate.
    pub fn step(&self, rng: &mut impl Rng) -> Option<Step> {
        if self.candidates.is_empty() {
            return None;
        }
        Some(metropolis(self.candidates.len(), rng, |i| {
            self.candidates[i].acceptance
        }))
    }
}

/// `s_prev` for the position reached by playing `mv` from `before`: the share `mv` had
/// among the candidates at `before` under `style` (docs/sampler.md §3).
///
/// 1 when `before` is not in the graph or `mv` is not a candidate there (for example an
/// implied transposition while `τ = 0`): the chain starts afresh.
pub fn move_share(graph: &PositionGraph, before: &Chess, mv: Move, style: &Style) -> f64 {
    graph.lookup(before).map_or(1.0, |node| {
        Table::new(graph, node, before, style).share_of(mv)
    })
}

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
