//! Where the candidates come from: the in-memory graph (ECO lines, the
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
//! docs/sampler.md's formulas then apply unchanged: shares, bonuses, `A`, exact `P` and the
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

use super::exploration::{Exploration, ExploreLimits, Tables, explore_tables};
use super::explorer::{explain_move, explorer_weights};
use super::metropolis::{
    CandidateKind, Distribution, Part, RawCandidate, Table, Totals, clean_s_prev, graph_parts,
};
use super::style::Style;
use crate::book::explorer::ExplorerCounts;
use crate::book::polyglot::{PolyglotBook, key};
use crate::book::{Flag, FlagWeights, LineId, NodeId, PositionGraph};

/// Where the popularity shares come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Popularity {
    /// The line weights of the in-memory book (ECO lines, PGN files): docs/sampler.md §2
    /// and the thesis's numbers. Profiles written before Polyglot books call it `Book`.
    #[default]
    #[serde(alias = "Book")]
    Lines,
    /// The weights of a Polyglot games book.
    Games,
    /// `λ` of the games book and `1 − λ` of the lines, `λ` in `[0, 1]`.
    Blend(f64),
    /// The games of an opening explorer under its filter
    /// ([`MoveSource::with_explorer`]): each move's games at the position, as a games
    /// book's weights (docs/sampler.md §2); at a position no game reached, the lines'.
    Explorer,
}

impl Popularity {
    /// The window's default where the learner never chose: `λ = 0.8` of the shipped
    /// games book (`assets/books/gnuchess.bin`, master games) and the rest of the
    /// lines. The ECO lines alone have Black answer 1.e4 with 1...e5 51 % and 1...c5
    /// 20 % of the time, where the book's games say 1...c5 14,550 times and 1...e5
    /// 10,621; from `λ = 0.75` on, 1...c5 comes first (37 % against 35 % at 0.8), and
    /// after 1.e4 Nf6, 2.e5 stays by far the likeliest (86 %; the book: 1,484 of 1,739
    /// games). Measured by `tests/all/popularity_default.rs`.
    pub const RECOMMENDED: Popularity = Popularity::Blend(0.8);

    /// The part the games (a book or an explorer) have: 0 for lines, 1 for a book or
    /// an explorer, `λ` for a blend.
    pub fn book_part(self) -> f64 {
        match self {
            Popularity::Lines => 0.0,
            Popularity::Games | Popularity::Explorer => 1.0,
            Popularity::Blend(l) => l.clamp(0.0, 1.0),
        }
    }

    /// Whether games take part (a Polyglot book or an explorer).
    pub fn uses_book(self) -> bool {
        self.book_part() > 0.0
    }
}

impl fmt::Display for Popularity {
    /// `eco`, `book`, `blend:λ` or `explorer`, as the command line writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Popularity::Lines => f.write_str("eco"),
            Popularity::Games => f.write_str("book"),
            Popularity::Blend(l) => write!(f, "blend:{l}"),
            Popularity::Explorer => f.write_str("explorer"),
        }
    }
}

impl FromStr for Popularity {
    type Err = String;

    /// `eco` (also `lines`), `book`, `blend:λ` with `λ` in `[0, 1]`, or `explorer`.
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
            "explorer" => Ok(Popularity::Explorer),
            other => {
                let Some(l) = other.strip_prefix("blend:") else {
                    return Err(format!(
                        "{s:?}: expected eco, book, explorer or blend:λ (λ from 0 to 1)"
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

/// The candidates' source: the graph, and Polyglot books or an opening explorer used as
/// [`Popularity`] says.
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
    explorer: Option<&'a dyn ExplorerCounts>,
    popularity: Popularity,
}

impl<'a> MoveSource<'a> {
    /// The graph alone ([`Popularity::Lines`]): exactly [`Distribution::at`].
    pub fn graph(graph: &'a PositionGraph) -> MoveSource<'a> {
        MoveSource {
            graph,
            books: Vec::new(),
            explorer: None,
            popularity: Popularity::Lines,
        }
    }

    /// The graph and `books`, weighed as `popularity` says. Without a book the
    /// popularity is that of the lines, and [`Popularity::Explorer`] needs
    /// [`MoveSource::with_explorer`] (until then, the lines).
    pub fn new(
        graph: &'a PositionGraph,
        books: Vec<PolyglotBook<'a>>,
        popularity: Popularity,
    ) -> MoveSource<'a> {
        let popularity = if books.is_empty() || popularity == Popularity::Explorer {
            Popularity::Lines
        } else {
            popularity
        };
        MoveSource {
            graph,
            books,
            explorer: None,
            popularity,
        }
    }

    /// This source with `explorer`'s games as the popularity
    /// ([`Popularity::Explorer`]): the shares at a position are the games of each move
    /// there under the explorer's filter, the implied transpositions `τ` times the
    /// games of the position they reach (docs/sampler.md §2). Where no game reached
    /// the position, the graph's lines decide, as with [`Popularity::Lines`].
    pub fn with_explorer(self, explorer: &'a dyn ExplorerCounts) -> MoveSource<'a> {
        MoveSource {
            explorer: Some(explorer),
            popularity: Popularity::Explorer,
            ..self
        }
    }

    /// Why `mv` is a candidate at `pos`, from the games of the explorer in use:
    /// `"1,234 of 5,678 games, White scores 54% (+40% =28% -32%)"`. `None` without an
    /// explorer, or when no game reached the position or the one after `mv`.
    pub fn explain(&self, pos: &Chess, mv: Move) -> Option<String> {
        match (self.popularity, self.explorer) {
            (Popularity::Explorer, Some(explorer)) => explain_move(explorer, pos, mv),
            _ => None,
        }
    }

    /// The games at `pos` of the games source in use (the books' weights, or the
    /// explorer's games).
    fn games_total(&self, pos: &Chess) -> u64 {
        match (self.popularity, self.explorer) {
            (Popularity::Explorer, Some(explorer)) => explorer.games_at(pos),
            _ => books_total(&self.books, key(pos)),
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
            || (self.popularity.uses_book() && self.games_total(pos) > 0)
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
        Distribution::from_table(&self.table(pos, style, named), clean_s_prev(s_prev))
    }

    /// The share `mv` has among the candidates at `before` under `style`: `s_prev`
    /// for the position after it. 1 when `mv` is no candidate (a fresh start).
    pub fn move_share(&self, before: &Chess, mv: Move, style: &Style) -> f64 {
        if !self.popularity.uses_book() {
            return super::move_share(self.graph, before, mv, style);
        }
        self.table(before, style, None).share_of(mv)
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

    /// Samples `limits.iterations` lines from `pos` with the MH step (docs/sampler.md §4),
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
        let first = self.table(pos, style, named);
        if first.is_empty() {
            return None;
        }
        let mut tables = SourceTables {
            source: self,
            style,
            fresh: Table::default(),
        };
        Some(explore_tables(
            self.graph,
            start,
            pos,
            s_prev,
            named,
            first,
            limits,
            rng,
            &mut tables,
        ))
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

    /// The blended candidates at `pos` with their shares, under `style` (see the
    /// [module docs](self)).
    fn table(&self, pos: &Chess, style: &Style, named: Option<LineId>) -> Table {
        let tau = style.tau();
        let weights = match (self.popularity, self.explorer) {
            (Popularity::Explorer, Some(explorer)) => explorer_weights(explorer, pos, tau > 0.0),
            _ => book_weights(&self.books, pos, tau > 0.0),
        };
        let lambda = if self.popularity == Popularity::Explorer && !weights.iter().any(|w| w.1) {
            // No game reached the position: the book's lines decide.
            0.0
        } else {
            self.popularity.book_part()
        };
        let graph = match self.graph.lookup(pos) {
            Some(node) if lambda < 1.0 => graph_parts(self.graph, node, pos, tau > 0.0),
            _ => Vec::new(),
        };
        let book: Vec<Part> = weighted_parts(self.graph, pos, named, weights)
            .into_iter()
            .map(|(part, _)| part)
            .collect();
        let (graph_totals, book_totals) = (Totals::of(&graph), Totals::of(&book));
        let mut entries: Vec<RawCandidate> = Vec::with_capacity(graph.len() + book.len());
        let book_only = book.iter().filter(|b| !graph.iter().any(|g| g.mv == b.mv));
        let pairs = graph
            .iter()
            .map(|g| (Some(g), book.iter().find(|b| b.mv == g.mv)))
            .chain(book_only.map(|b| (None, Some(b))));
        for (g, b) in pairs {
            let g = g.and_then(|g| Some((graph_totals.share(Some(*g), tau)?, g)));
            let b = b.and_then(|b| Some((book_totals.share(Some(*b), tau)?, b)));
            let Some(blended) = blend(g, b, lambda) else {
                continue;
            };
            let Some(p) = g.or(b).map(|(_, p)| p) else {
                continue;
            };
            entries.push(RawCandidate {
                to: p.to,
                mv: p.mv,
                kind: blended.kind,
                weight: blended.weight,
                share: blended.weight,
                flag_shares: blended.flags,
            });
        }
        let total: f64 = entries.iter().map(|r| r.weight).sum();
        for r in &mut entries {
            r.share /= total;
        }
        Table::from_entries(entries, style)
    }
}

/// The explore loop's tables for a source with books: computed afresh at each position.
struct SourceTables<'s, 'a> {
    source: &'s MoveSource<'a>,
    style: &'s Style,
    fresh: Table,
}

impl Tables for SourceTables<'_, '_> {
    fn at(&mut self, _: Option<NodeId>, game: &Chess, named: Option<LineId>) -> &Table {
        self.fresh = self.source.table(game, self.style, named);
        &self.fresh
    }
}

/// A candidate's weight, flag shares and kind under a popularity blend.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blended {
    /// `(1 − λ)·share_graph + λ·share_book` (before the shares are normalised).
    pub(crate) weight: f64,
    /// The parts' flag shares mixed in the proportions of their weights.
    pub(crate) flags: FlagWeights,
    /// A book candidate when either part that counts is a continuation or entry.
    pub(crate) kind: CandidateKind,
}

/// The blend of a candidate's share among the graph's candidates and among the books'
/// (each with its part), with the books' part `lambda`: the graph counts when
/// `lambda < 1`, the books when their weighted share is positive. `None` when neither
/// counts. The drill ([`MoveSource`]) and the fit tables both weigh candidates so.
pub(crate) fn blend(
    graph: Option<(f64, &Part)>,
    book: Option<(f64, &Part)>,
    lambda: f64,
) -> Option<Blended> {
    let graph = graph
        .filter(|_| lambda < 1.0)
        .map(|(s, p)| ((1.0 - lambda) * s, p));
    let book = book.map(|(s, p)| (lambda * s, p)).filter(|(w, _)| *w > 0.0);
    let kind = |p: &Part| p.kind();
    match (graph, book) {
        (Some((a, g)), Some((b, k))) => {
            let weight = a + b;
            Some(Blended {
                weight,
                flags: std::array::from_fn(|f| (g.flags[f] * a + k.flags[f] * b) / weight),
                kind: if g.entry || k.entry {
                    CandidateKind::Book
                } else {
                    CandidateKind::Transposition
                },
            })
        }
        (Some((weight, p)), None) | (None, Some((weight, p))) => Some(Blended {
            weight,
            flags: p.flags,
            kind: kind(p),
        }),
        (None, None) => None,
    }
}

/// The sum of the weights of every book's entries with `key`.
pub(crate) fn books_total(books: &[PolyglotBook<'_>], key: u64) -> u64 {
    books
        .iter()
        .flat_map(|b| b.entries_at(key))
        .map(|e| u64::from(e.weight))
        .sum()
}

/// The books' candidates at `pos` without τ: their entries (the weights of several
/// books added up), then (when `transpositions`) the legal moves that are no entry but
/// reach a position with entries, weighted `T(y)`. Each candidate's flags are those of
/// the graph's line naming the position it reaches, else of `named` (the game's name),
/// which the `bool` says.
pub(crate) fn book_parts(
    graph: &PositionGraph,
    books: &[PolyglotBook<'_>],
    pos: &Chess,
    named: Option<LineId>,
    transpositions: bool,
) -> Vec<(Part, bool)> {
    weighted_parts(graph, pos, named, book_weights(books, pos, transpositions))
}

/// The explorer's candidates at `pos` without τ, as [`book_parts`] has the books':
/// the moves played there weighted by their games, then (when `transpositions`) the
/// legal moves into positions with games, weighted by those games.
pub(crate) fn explorer_parts(
    graph: &PositionGraph,
    explorer: &dyn ExplorerCounts,
    pos: &Chess,
    named: Option<LineId>,
    transpositions: bool,
) -> Vec<(Part, bool)> {
    weighted_parts(
        graph,
        pos,
        named,
        explorer_weights(explorer, pos, transpositions),
    )
}

/// The books' candidates at `pos` without τ: `(move, entry, weight)`, their entries
/// (the weights of several books added up), then (when `transpositions`) the legal
/// moves that are no entry but reach a position with entries, weighted `T(y)`.
fn book_weights(
    books: &[PolyglotBook<'_>],
    pos: &Chess,
    transpositions: bool,
) -> Vec<(Move, bool, f64)> {
    let mut entries: Vec<(Move, f64)> = Vec::new();
    for book in books {
        for m in book.moves(pos).moves {
            if m.weight == 0 {
                continue;
            }
            match entries.iter_mut().find(|(mv, _)| *mv == m.mv) {
                Some((_, w)) => *w += f64::from(m.weight),
                None => entries.push((m.mv, f64::from(m.weight))),
            }
        }
    }
    let mut weights: Vec<(Move, bool, f64)> = entries
        .iter()
        .map(|&(mv, weight)| (mv, true, weight))
        .collect();
    if transpositions {
        for mv in pos.legal_moves() {
            if entries.iter().any(|(m, _)| *m == mv) {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let total = books_total(books, key(&next));
            if total > 0 {
                weights.push((mv, false, total as f64));
            }
        }
    }
    weights
}

/// Games candidates `(move, entry, weight)` at `pos` as parts: each with the flags of
/// the graph's line naming the position it reaches, else of `named` (the game's name),
/// which the `bool` says.
fn weighted_parts(
    graph: &PositionGraph,
    pos: &Chess,
    named: Option<LineId>,
    weights: Vec<(Move, bool, f64)>,
) -> Vec<(Part, bool)> {
    weights
        .into_iter()
        .map(|(mv, entry, weight)| {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let to = graph.lookup(&next);
            let own = to.and_then(|n| graph.name(n));
            let flags = own
                .or(named)
                .map(|l| graph.line_flags(l))
                .unwrap_or_default();
            let part = Part {
                to,
                mv,
                entry,
                weight,
                flags: Flag::ALL.map(|f| if flags.contains(f) { 1.0 } else { 0.0 }),
            };
            (part, own.is_none())
        })
        .collect()
}
