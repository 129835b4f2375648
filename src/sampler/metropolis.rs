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
    /// `w_r · d(y)`: the review term (issue 10), 0 outside review mode.
    pub review: f64,
    /// `A(y) = share / s_prev + bonus + review` (may exceed 1).
    pub acceptance: f64,
    /// `P(y|x)`: the exact probability that the step returns this candidate.
    pub p: f64,
}

/// The candidates at a position and the exact reply distribution (SAMPLER.md §2–3).
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

/// The style-independent part of a candidate, before shares are normalised.
#[derive(Clone, Copy, Debug)]
struct Raw {
    to: NodeId,
    mv: Move,
    kind: CandidateKind,
    weight: f64,
    flag_shares: FlagWeights,
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

/// The graph's candidates at `node` as played from `pos`, with their shares.
pub(super) fn graph_candidates(
    graph: &PositionGraph,
    node: NodeId,
    pos: &Chess,
    tau: f64,
) -> Vec<RawCandidate> {
    let entries = raw_candidates(graph, node, pos, tau);
    let total: f64 = entries.iter().map(|r| r.weight).sum();
    entries
        .iter()
        .map(|r| RawCandidate {
            to: Some(r.to),
            mv: r.mv,
            kind: r.kind,
            weight: r.weight,
            share: r.weight / total,
            flag_shares: r.flag_shares,
        })
        .collect()
}

/// Candidates of a node as played from `pos`, with their shares and bonuses.
#[derive(Clone, Debug)]
struct Table {
    entries: Vec<Raw>,
    shares: Vec<f64>,
    bonuses: Vec<f64>,
}

fn raw_candidates(graph: &PositionGraph, node: NodeId, pos: &Chess, tau: f64) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in graph.continuations(node) {
        if c.weight > 0.0 && pos.is_legal(c.mv) {
            out.push(Raw {
                to: c.to,
                mv: c.mv,
                kind: CandidateKind::Book,
                weight: c.weight,
                flag_shares: c.flag_weights.map(|f| f / c.weight),
            });
        }
    }
    if tau > 0.0 {
        for t in graph.transpositions_at(node, pos) {
            let total = graph.weight(t.to);
            if total > 0.0 {
                out.push(Raw {
                    to: t.to,
                    mv: t.mv,
                    kind: CandidateKind::Transposition,
                    weight: tau * total,
                    flag_shares: graph.flag_weights(t.to).map(|f| f / total),
                });
            }
        }
    }
    out
}

impl Table {
    fn new(graph: &PositionGraph, node: NodeId, pos: &Chess, style: &Style) -> Table {
        let entries = raw_candidates(graph, node, pos, style.tau());
        let total: f64 = entries.iter().map(|r| r.weight).sum();
        let shares = entries.iter().map(|r| r.weight / total).collect();
        let bonuses = entries
            .iter()
            .map(|r| style.bonus(&r.flag_shares))
            .collect();
        Table {
            entries,
            shares,
            bonuses,
        }
    }

    fn acceptance(&self, i: usize, s_prev: f64) -> f64 {
        self.shares[i] / s_prev + self.bonuses[i]
    }
}

/// Sets each candidate's exact `P = min(1, A) / Σ min(1, A)` (SAMPLER.md §3).
fn normalise(candidates: &mut [Candidate]) {
    let norm: f64 = candidates.iter().map(|c| c.acceptance.min(1.0)).sum();
    for c in candidates {
        c.p = c.acceptance.min(1.0) / norm;
    }
}

/// `s_prev` as the formulas use it: a share in `(0, 1]`, else 1 (a fresh start).
fn clean_s_prev(s_prev: f64) -> f64 {
    if s_prev > 0.0 && s_prev <= 1.0 {
        s_prev
    } else {
        1.0
    }
}

/// Proposes uniformly among `n` candidates and accepts with probability `accept(i)`,
/// until one is accepted (SAMPLER.md §3). `n` must be positive and some acceptance
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

    /// The distribution over candidates of any source (see [`super::MoveSource`]).
    pub(super) fn from_raw(raw: Vec<RawCandidate>, style: &Style, s_prev: f64) -> Distribution {
        Distribution::from_parts(
            clean_s_prev(s_prev),
            raw.into_iter().map(|r| {
                let bonus = style.bonus(&r.flag_shares);
                (r, bonus)
            }),
        )
    }

    /// The distribution over moves whose shares are given (they should sum to 1), of
    /// one `kind`, with no style flags: past the book, where the move predictor gives
    /// the shares. `A` and `P` are those of SAMPLER.md as for book candidates.
    pub fn from_shares(
        shares: impl IntoIterator<Item = (Move, f64)>,
        kind: CandidateKind,
        style: &Style,
        s_prev: f64,
    ) -> Distribution {
        let raw = shares
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
        Distribution::from_raw(raw, style, s_prev)
    }

    fn from_table(table: &Table, s_prev: f64) -> Distribution {
        let parts = table.entries.iter().enumerate().map(|(i, r)| {
            let raw = RawCandidate {
                to: Some(r.to),
                mv: r.mv,
                kind: r.kind,
                weight: r.weight,
                share: table.shares[i],
                flag_shares: r.flag_shares,
            };
            (raw, table.bonuses[i])
        });
        Distribution::from_parts(s_prev, parts)
    }

    /// Candidates with their bonuses, `A = share / s_prev + bonus` and exact `P`.
    fn from_parts(s_prev: f64, parts: impl Iterator<Item = (RawCandidate, f64)>) -> Distribution {
        let mut candidates: Vec<Candidate> = parts
            .map(|(r, bonus)| Candidate {
                to: r.to,
                mv: r.mv,
                kind: r.kind,
                weight: r.weight,
                flag_shares: r.flag_shares,
                share: r.share,
                bonus,
                review: 0.0,
                acceptance: r.share / s_prev + bonus,
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
/// among the candidates at `before` under `style` (SAMPLER.md §3).
///
/// 1 when `before` is not in the graph or `mv` is not a candidate there (for example an
/// implied transposition while `τ = 0`): the chain starts afresh.
pub fn move_share(graph: &PositionGraph, before: &Chess, mv: Move, style: &Style) -> f64 {
    let Some(node) = graph.lookup(before) else {
        return 1.0;
    };
    let entries = raw_candidates(graph, node, before, style.tau());
    let total: f64 = entries.iter().map(|r| r.weight).sum();
    entries
        .iter()
        .find(|r| r.mv == mv)
        .map_or(1.0, |r| r.weight / total)
}

/// What N sampled lines from one position found (SAMPLER.md §4).
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
/// the MH rule until the book ends or `ply_limit` moves were played (SAMPLER.md §4).
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
    let ExploreLimits {
        iterations,
        ply_limit,
    } = limits;
    let mut tables: FxHashMap<NodeId, Table> = FxHashMap::default();
    let first = Table::new(graph, start, pos, style);
    let mut ex = Exploration {
        iterations,
        ply_limit,
        start: Some(start),
        first_steps: vec![0; first.entries.len()],
        ..Exploration::default()
    };
    let s0 = clean_s_prev(s_prev);
    let mut path: Vec<NodeId> = Vec::with_capacity(ply_limit as usize + 1);
    for _ in 0..iterations {
        let mut node = start;
        let mut game = pos.clone();
        let mut s = s0;
        path.clear();
        path.push(start);
        *ex.visits.entry(start).or_default() += 1;
        for ply in 0..ply_limit {
            let fresh;
            let table = if ply == 0 {
                &first
            } else if graph.is_representative(node, &game) {
                tables
                    .entry(node)
                    .or_insert_with(|| Table::new(graph, node, &graph.position(node), style))
            } else {
                fresh = Table::new(graph, node, &game, style);
                &fresh
            };
            let n = table.entries.len();
            if n == 0 {
                break;
            }
            let step = metropolis(n, rng, |i| table.acceptance(i, s));
            ex.steps += 1;
            ex.proposals += u64::from(step.proposals);
            if ply == 0 {
                ex.first_steps[step.index] += 1;
            }
            let chosen = table.entries[step.index];
            s = table.shares[step.index];
            game.play_unchecked(chosen.mv);
            *ex.transitions.entry((node, chosen.to)).or_default() += 1;
            *ex.visits.entry(chosen.to).or_default() += 1;
            node = chosen.to;
            path.push(node);
        }
        let ending = path.iter().rev().find_map(|&n| graph.name(n));
        *ex.endings.entry(ending).or_default() += 1;
    }
    ex
}
