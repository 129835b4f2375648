//! Candidates, the exact reply distribution and the MH step (sampled lines:
//! [`super::exploration`]).

use rand::{Rng, RngExt};
use shakmaty::{Chess, Move, Position};

use super::style::Style;
use crate::book::{FlagWeights, NodeId, PositionGraph};

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
    pub(super) entries: Vec<RawCandidate>,
    bonuses: Vec<f64>,
}

impl Table {
    /// The graph's candidates at `node` as played from `pos` under `style`.
    pub(super) fn new(graph: &PositionGraph, node: NodeId, pos: &Chess, style: &Style) -> Table {
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

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is no candidate (the end of the book).
    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(super) fn acceptance(&self, i: usize, s_prev: f64) -> f64 {
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
pub(super) fn metropolis(n: usize, rng: &mut impl Rng, accept: impl Fn(usize) -> f64) -> Step {
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

    /// The candidates' shares given by a rank instead of popularity: the candidate of
    /// rank `r` (0 the first) gets a share in proportion to `2^-r`, out of the shares
    /// of the ranked candidates together; those without a rank (implied
    /// transpositions) keep theirs. `A` and `P` are recomputed; the candidates keep
    /// their order. The drill uses it for the learner's moves in a repertoire, whose
    /// main move comes first in the file.
    #[must_use]
    pub fn ranked_by(mut self, rank: impl Fn(&Candidate) -> Option<usize>) -> Distribution {
        let ranks: Vec<Option<usize>> = self.candidates.iter().map(&rank).collect();
        let total: f64 = self
            .candidates
            .iter()
            .zip(&ranks)
            .filter(|(_, r)| r.is_some())
            .map(|(c, _)| c.share)
            .sum();
        let scale: f64 = ranks
            .iter()
            .flatten()
            .map(|&r| 0.5f64.powi(i32::try_from(r).unwrap_or(i32::MAX)))
            .sum();
        if scale <= 0.0 {
            return self;
        }
        let s_prev = self.s_prev;
        for (c, r) in self.candidates.iter_mut().zip(&ranks) {
            if let Some(r) = r {
                c.share = total * 0.5f64.powi(i32::try_from(*r).unwrap_or(i32::MAX)) / scale;
                c.acceptance = acceptance(c.share, s_prev, c.bonus) + c.review;
            }
        }
        normalise(&mut self.candidates);
        self
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
