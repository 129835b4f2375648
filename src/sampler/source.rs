//! Where the candidates come from (issue 11): the in-memory graph (ECO lines, the
//! learner's PGN files), Polyglot games books read at the position being drilled, or a
//! blend of the two.
//!
//! A Polyglot book stands in for the graph at a position `x` like this:
//!
//! - **book continuations** are its entries at `x` (several books add their weights);
//! - **implied transpositions** are the legal moves of `x` that are not entries there
//!   but whose resulting position `y` has entries, with `cw(x→y) = τ·T(y)` and `T(y)`
//!   the sum of the weights of `y`'s entries;
//! - **style flags** come from the ECO name of `y`, as lichess names games: the flags
//!   of the line of the in-memory graph that ends at `y` if there is one, else of the
//!   name the game already had (the deepest named position before the move). A
//!   candidate has each flag wholly or not at all, where the graph splits a move's
//!   weight over the lines through it: an approximation, since a games book knows no
//!   lines.
//!
//! With [`Popularity::Blend`]`(λ)` a move's weight is `(1 − λ)·share_graph + λ·share_book`,
//! each share taken among its own source's candidates, and its flag shares are mixed
//! in the same proportions; past the end of the graph's lines the book alone decides.
//! SAMPLER.md's formulas then apply unchanged: shares, bonuses, `A`, exact `P` and the
//! MH step are those of [`Distribution`].
//!
//! Polyglot weights are per position: book makers scale each position's weights to
//! 16 bits on their own, so `T(y)` of two positions need not be on one scale. The
//! shares at one position, which is what the sampler mostly uses, are exact.

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, Position};

use super::metropolis::{
    CandidateKind, Distribution, Exploration, ExploreLimits, RawCandidate, graph_candidates,
};
use super::style::Style;
use crate::book::polyglot::{PolyglotBook, key};
use crate::book::{Flag, FlagWeights, LineId, NodeId, PositionGraph};

/// Where the popularity shares come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Popularity {
    /// The line weights of the in-memory book (ECO lines, PGN files): SAMPLER.md §2
    /// and the thesis's numbers. Profiles written before Polyglot books call it `Book`.
    #[default]
    #[serde(alias = "Book")]
    Lines,
    /// The weights of a Polyglot games book.
    Games,
    /// `λ` of the games book and `1 − λ` of the lines, `λ` in `[0, 1]`.
    Blend(f64),
}

impl Popularity {
    /// The part the games book has: 0 for lines, 1 for a book, `λ` for a blend.
    pub fn book_part(self) -> f64 {
        match self {
            Popularity::Lines => 0.0,
            Popularity::Games => 1.0,
            Popularity::Blend(l) => l.clamp(0.0, 1.0),
        }
    }

    /// Whether a games book takes part.
    pub fn uses_book(self) -> bool {
        self.book_part() > 0.0
    }
}

impl fmt::Display for Popularity {
    /// `eco`, `book` or `blend:λ`, as the command line writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Popularity::Lines => f.write_str("eco"),
            Popularity::Games => f.write_str("book"),
            Popularity::Blend(l) => write!(f, "blend:{l}"),
        }
    }
}

impl FromStr for Popularity {
    type Err = String;

    /// `eco` (also `lines`), `book` or `blend:λ` with `λ` in `[0, 1]`.
    ///
    /// ```
    /// use hastings::sampler::Popularity;
    ///
    /// assert_eq!("book".parse(), Ok(Popularity::Games));
    /// assert_eq!("blend:0.25".parse(), Ok(Popularity::Blend(0.25)));
    /// assert!("blend:2".parse::<Popularity>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Popularity, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "eco" | "lines" => Ok(Popularity::Lines),
            "book" => Ok(Popularity::Games),
            other => {
                let Some(l) = other.strip_prefix("blend:") else {
                    return Err(format!(
                        "{s:?}: expected eco, book or blend:λ (λ from 0 to 1)"
                    ));
                };
                match l.parse::<f64>() {
                    Ok(l) if (0.0..=1.0).contains(&l) => Ok(Popularity::Blend(l)),
                    _ => Err(format!("{s:?}: λ must be a number from 0 to 1")),
                }
            }
        }
    }
}

/// The candidates' source: the graph, and Polyglot books used as [`Popularity`] says.
///
/// ```
/// use hastings::book::PositionGraph;
/// use hastings::book::polyglot::SharedBook;
/// use hastings::sampler::{MoveSource, Popularity, Style};
/// use shakmaty::Chess;
///
/// let graph = PositionGraph::eco().unwrap();
/// let gnuchess = SharedBook::gnuchess().unwrap();
/// let source = MoveSource::new(&graph, vec![gnuchess.book()], Popularity::Games);
/// // τ = 0: the book's entries only, no implied transposition.
/// let style = Style::from_vectors([0; 5], [0.4; 5], 0.0).unwrap();
/// let d = source.distribution(&Chess::default(), &style, 1.0, None);
/// let e4 = d.candidates.iter().find(|c| c.mv.to().to_string() == "e4").unwrap();
/// // python-chess: gnuchess gives e4 12,135 of 30,797 at the start.
/// assert!((e4.share - 12135.0 / 30797.0).abs() < 1e-9);
/// ```
#[derive(Clone, Debug)]
pub struct MoveSource<'a> {
    graph: &'a PositionGraph,
    books: Vec<PolyglotBook<'a>>,
    popularity: Popularity,
}

/// A candidate before shares: where it leads, its weight and flag shares.
#[derive(Clone, Copy, Debug)]
struct Weighted {
    mv: Move,
    to: Option<NodeId>,
    kind: CandidateKind,
    weight: f64,
    flag_shares: FlagWeights,
}

impl<'a> MoveSource<'a> {
    /// The graph alone ([`Popularity::Lines`]): exactly [`Distribution::at`].
    pub fn graph(graph: &'a PositionGraph) -> MoveSource<'a> {
        MoveSource {
            graph,
            books: Vec::new(),
            popularity: Popularity::Lines,
        }
    }

    /// The graph and `books`, weighed as `popularity` says. Without a book the
    /// popularity is that of the lines.
    pub fn new(
        graph: &'a PositionGraph,
        books: Vec<PolyglotBook<'a>>,
        popularity: Popularity,
    ) -> MoveSource<'a> {
        let popularity = if books.is_empty() {
            Popularity::Lines
        } else {
            popularity
        };
        MoveSource {
            graph,
            books,
            popularity,
        }
    }

    /// The popularity in effect.
    pub fn popularity(&self) -> Popularity {
        self.popularity
    }

    /// The graph.
    pub fn graph_ref(&self) -> &'a PositionGraph {
        self.graph
    }

    /// Whether a game may stand at `pos`: the graph has it, or a book in use has
    /// entries there.
    pub fn knows(&self, pos: &Chess) -> bool {
        self.graph.lookup(pos).is_some()
            || (self.popularity.uses_book() && self.book_total(key(pos)) > 0)
    }

    /// The candidates at `pos` and their exact probabilities under `style`, after a
    /// move whose share was `s_prev`; `named` is the line naming the game before this
    /// position (for the flags of book moves that reach no named position).
    pub fn distribution(
        &self,
        pos: &Chess,
        style: &Style,
        s_prev: f64,
        named: Option<LineId>,
    ) -> Distribution {
        if !self.popularity.uses_book() {
            return match self.graph.lookup(pos) {
                Some(node) => Distribution::at(self.graph, node, pos, style, s_prev),
                None => Distribution::default(),
            };
        }
        let raw = self.weighted(pos, style.tau(), named);
        let total: f64 = raw.iter().map(|w| w.weight).sum();
        let raw: Vec<RawCandidate> = raw
            .into_iter()
            .map(|w| RawCandidate {
                to: w.to,
                mv: w.mv,
                kind: w.kind,
                weight: w.weight,
                share: w.weight / total,
                flag_shares: w.flag_shares,
            })
            .collect();
        Distribution::from_raw(raw, style, s_prev)
    }

    /// The share `mv` has among the candidates at `before` under `style`: `s_prev`
    /// for the position after it. 1 when `mv` is no candidate (a fresh start).
    pub fn move_share(&self, before: &Chess, mv: Move, style: &Style) -> f64 {
        if !self.popularity.uses_book() {
            return super::move_share(self.graph, before, mv, style);
        }
        let raw = self.weighted(before, style.tau(), None);
        let total: f64 = raw.iter().map(|w| w.weight).sum();
        raw.iter()
            .find(|w| w.mv == mv)
            .map_or(1.0, |w| w.weight / total)
    }

    /// The position after `moves` (legal moves from the standard start) and `s_prev`
    /// there, as [`super::replay`] computes it on the graph.
    pub fn replay(&self, moves: &[Move], style: &Style) -> (Chess, f64) {
        let mut pos = Chess::default();
        let mut s_prev = 1.0;
        for &mv in moves {
            s_prev = self.move_share(&pos, mv, style);
            pos.play_unchecked(mv);
        }
        (pos, s_prev)
    }

    /// Samples `limits.iterations` lines from `pos` with the MH step (SAMPLER.md §4),
    /// as [`super::explore`] does on the graph (which it is, for the lines' popularity).
    ///
    /// With a book, visits and transitions count the positions of the graph only, and
    /// a line's ending is the deepest position of the graph it named (`named`, the
    /// game's name at `pos`, when it named none). `None` when `pos` has no candidate.
    pub fn explore(
        &self,
        pos: &Chess,
        style: &Style,
        s_prev: f64,
        named: Option<LineId>,
        limits: ExploreLimits,
        rng: &mut impl Rng,
    ) -> Option<Exploration> {
        let start = self.graph.lookup(pos);
        if !self.popularity.uses_book() {
            return start
                .map(|node| super::explore(self.graph, node, pos, style, s_prev, limits, rng));
        }
        let named = start.and_then(|n| self.graph.name(n)).or(named);
        let first = self.distribution(pos, style, s_prev, named);
        if first.is_empty() {
            return None;
        }
        let mut ex = Exploration {
            iterations: limits.iterations,
            ply_limit: limits.ply_limit,
            start,
            first_steps: vec![0; first.candidates.len()],
            ..Exploration::default()
        };
        for _ in 0..limits.iterations {
            let mut game = pos.clone();
            let mut node = start;
            let mut named = named;
            if let Some(n) = node {
                *ex.visits.entry(n).or_default() += 1;
            }
            let mut s = s_prev;
            for ply in 0..limits.ply_limit {
                let fresh;
                let d = if ply == 0 {
                    &first
                } else {
                    fresh = self.distribution(&game, style, s, named);
                    &fresh
                };
                let Some(step) = d.step(rng) else {
                    break;
                };
                ex.steps += 1;
                ex.proposals += u64::from(step.proposals);
                if ply == 0 {
                    ex.first_steps[step.index] += 1;
                }
                let chosen = &d.candidates[step.index];
                s = chosen.share;
                game.play_unchecked(chosen.mv);
                if let (Some(from), Some(to)) = (node, chosen.to) {
                    *ex.transitions.entry((from, to)).or_default() += 1;
                }
                if let Some(to) = chosen.to {
                    *ex.visits.entry(to).or_default() += 1;
                }
                node = chosen.to;
                named = node.and_then(|n| self.graph.name(n)).or(named);
            }
            *ex.endings.entry(named).or_default() += 1;
        }
        Some(ex)
    }

    /// The line naming the game after `moves` from the standard start: the deepest
    /// position of the graph on the way that a line ends at (as lichess names games).
    pub fn name_of(&self, moves: &[Move]) -> Option<LineId> {
        let mut pos = Chess::default();
        let mut named = self.graph.lookup(&pos).and_then(|n| self.graph.name(n));
        for &mv in moves {
            pos.play_unchecked(mv);
            if let Some(line) = self.graph.lookup(&pos).and_then(|n| self.graph.name(n)) {
                named = Some(line);
            }
        }
        named
    }

    /// The blended candidates at `pos`.
    fn weighted(&self, pos: &Chess, tau: f64, named: Option<LineId>) -> Vec<Weighted> {
        let lambda = self.popularity.book_part();
        let mut out: Vec<Weighted> = Vec::new();
        if lambda < 1.0
            && let Some(node) = self.graph.lookup(pos)
        {
            let graph = graph_candidates(self.graph, node, pos, tau);
            let total: f64 = graph.iter().map(|r| r.weight).sum();
            for r in graph {
                out.push(Weighted {
                    mv: r.mv,
                    to: r.to,
                    kind: r.kind,
                    weight: (1.0 - lambda) * r.weight / total,
                    flag_shares: r.flag_shares,
                });
            }
        }
        let book = self.book_candidates(pos, tau, named);
        let total: f64 = book.iter().map(|w| w.weight).sum();
        for b in book {
            let weight = lambda * b.weight / total;
            if weight <= 0.0 {
                continue;
            }
            match out.iter_mut().find(|w| w.mv == b.mv) {
                Some(w) => {
                    let sum = w.weight + weight;
                    for (f, g) in w.flag_shares.iter_mut().zip(b.flag_shares) {
                        *f = (*f * w.weight + g * weight) / sum;
                    }
                    w.weight = sum;
                    if b.kind == CandidateKind::Book {
                        w.kind = CandidateKind::Book;
                    }
                }
                None => out.push(Weighted { weight, ..b }),
            }
        }
        out
    }

    /// The books' candidates at `pos` with their raw weights: entries, then implied
    /// transpositions weighted `τ·T(y)`.
    fn book_candidates(&self, pos: &Chess, tau: f64, named: Option<LineId>) -> Vec<Weighted> {
        let mut out: Vec<Weighted> = Vec::new();
        for book in &self.books {
            for m in book.moves(pos).moves {
                if m.weight == 0 {
                    continue;
                }
                match out.iter_mut().find(|w| w.mv == m.mv) {
                    Some(w) => w.weight += f64::from(m.weight),
                    None => out.push(self.book_move(pos, m.mv, f64::from(m.weight), named)),
                }
            }
        }
        if tau > 0.0 {
            for mv in pos.legal_moves() {
                if out.iter().any(|w| w.mv == mv) {
                    continue;
                }
                let mut next = pos.clone();
                next.play_unchecked(mv);
                let total = self.book_total(key(&next));
                if total > 0 {
                    let mut w = self.book_move(pos, mv, tau * total as f64, named);
                    w.kind = CandidateKind::Transposition;
                    out.push(w);
                }
            }
        }
        out
    }

    /// A book candidate: where it leads in the graph and its flags by name.
    fn book_move(&self, pos: &Chess, mv: Move, weight: f64, named: Option<LineId>) -> Weighted {
        let mut next = pos.clone();
        next.play_unchecked(mv);
        let to = self.graph.lookup(&next);
        let line = to.and_then(|n| self.graph.name(n)).or(named);
        let flags = line.map(|l| self.graph.line_flags(l)).unwrap_or_default();
        Weighted {
            mv,
            to,
            kind: CandidateKind::Book,
            weight,
            flag_shares: Flag::ALL.map(|f| if flags.contains(f) { 1.0 } else { 0.0 }),
        }
    }

    /// The sum of the weights of every book's entries with `key`.
    fn book_total(&self, key: u64) -> u64 {
        self.books
            .iter()
            .flat_map(|b| b.entries_at(key))
            .map(|e| u64::from(e.weight))
            .sum()
    }
}
