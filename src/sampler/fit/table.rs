//! The likelihood of a player's moves under a style, from candidate tables computed once.
//!
//! A style changes the reply distribution `P(y | x)` only through three numbers per
//! candidate: its continuation weight (for an implied transposition `τ·T(y)`), its flag
//! shares, and `s_prev`. [`FitData::from_games`] replays the games once and keeps, for
//! every distinct position met (node plus castling and en-passant rights), the
//! candidates with the τ-free part of their weight (`cw` of a book continuation, `T(y)`
//! of a transposition) and their flag shares. Evaluating a style is then arithmetic:
//!
//! ```text
//! share(y|x) = cw_y / (B + τ·Tt)        B = Σ book cw, Tt = Σ transposition T(y)
//! A(y)       = share(y|x) / s_prev + Σ_i p_i·w_i·f_i(y)
//! P(y|x)     = min(1, A(y)) / Σ_y' min(1, A(y'))          (docs/sampler.md §3)
//! ```
//!
//! `s_prev` is the share the game's previous move had at the previous position, under
//! the same τ, exactly as the drill takes it ([`move_share`](crate::sampler::move_share)):
//! 1 at the start, when the previous position is not in the book, or when the previous
//! move is not a candidate there (an implied transposition while `τ = 0`).
//!
//! **With Polyglot books** ([`FitData::from_games_with_books`]) a candidate keeps two
//! τ-free parts, either of which may be absent: the graph's (as above) and the books'
//! (an entry's weight, or `T(y)` = the sum of `y`'s entry weights for an implied
//! transposition, with 0/1 flags from the ECO name of `y` or of the game so far). Under
//! a popularity blend `λ` ([`Popularity`]) the weight of a candidate is
//! `(1 − λ)·share_graph + λ·share_book`, its flag shares the parts' flags mixed in the
//! same proportions, and its share that weight over the sum of all candidates' weights:
//! what [`MoveSource::distribution`](crate::sampler::MoveSource::distribution) computes,
//! so the likelihood is that of the drill with that popularity. Positions outside the
//! graph where a book has entries have tables too (keyed by the position itself and,
//! when a book move's flags fall back to it, the name of the game so far).
//!
//! **With an opening explorer** ([`FitData::from_games_with_explorer`]) the games part
//! holds the explorer's games as a book's weights and the popularity is
//! [`Popularity::Explorer`]: the games alone where some game reached the position, the
//! lines alone where none did, as the drill has it.
//!
//! Identical observations (same position, same previous move, same move played) are
//! kept once with a count, so the common first moves cost one term each.

use crate::sampler::metropolis::{Part, Totals, acceptance, clean_s_prev};
use crate::sampler::source::blend;
use crate::sampler::{Popularity, Style};

/// One candidate: its graph part and its books' part.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cand {
    pub(super) graph: Option<Part>,
    pub(super) book: Option<Part>,
}

/// The candidates of one position: `cands[start..start + len]`.
#[derive(Clone, Copy, Debug)]
pub(super) struct TableInfo {
    pub(super) start: u32,
    pub(super) len: u32,
    /// The graph's totals (0 when the graph does not have the position).
    pub(super) graph: Totals,
    /// The books' totals.
    pub(super) book: Totals,
}

impl TableInfo {
    fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// Where `s_prev` comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Prev {
    /// `s_prev = 1`: the start, or the previous position is not in the book, or the
    /// previous move was not a candidate at all.
    One,
    /// The share of candidate `cand` of table `table`.
    Move { table: u32, cand: u32 },
}

/// One scored move (possibly many identical ones).
#[derive(Clone, Copy, Debug)]
pub(super) struct Observation {
    pub(super) table: u32,
    pub(super) prev: Prev,
    pub(super) played: u32,
    pub(super) count: u32,
    /// The game (index into the games read) and ply where it was first seen.
    pub(super) first: (u32, u32),
}

/// What replaying the games found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FitCounts {
    /// Games read.
    pub games: usize,
    /// Games in which the player had a side (by the `White`/`Black` tags).
    pub games_with_player: usize,
    /// Games of the player left out because they do not start from the standard
    /// position (`[FEN]`).
    pub games_not_from_start: usize,
    /// The player's moves that are book continuations or implied transpositions at a
    /// position of the book: the moves the likelihood scores.
    pub moves_scored: u64,
    /// The player's moves at a position of the book that has candidates, which are
    /// not among them: the player left the book.
    pub moves_out_of_book: u64,
    /// The player's moves at a position of the book where the book ends (no
    /// candidate at all): neither scored nor out of book.
    pub moves_after_book_end: u64,
    /// The player's moves at positions outside the book.
    pub moves_outside_book: u64,
    /// Distinct (position, previous move, move played) terms the likelihood sums.
    pub distinct_terms: usize,
    /// Distinct positions (node and rights) whose candidates were tabled.
    pub tables: usize,
}

/// A style's fit to the player's moves.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Score {
    /// `Σ ln P(played move)` over the scored moves; `-∞` when some played move has
    /// probability 0 under the style.
    pub log_likelihood: f64,
    /// The share of scored moves that are the style's most probable candidate (a tie
    /// among `k` candidates counts `1/k`).
    pub top1: f64,
}

/// One distinct term of the likelihood, for checking it against the sampler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Term {
    /// The index (in the games passed to [`FitData::from_games`]) of the first game
    /// with this term.
    pub game: usize,
    /// The ply of the move in that game (0 = White's first move).
    pub ply: usize,
    /// How many of the player's moves the term stands for.
    pub count: u32,
    /// `P(played move)` under the style and popularity asked.
    pub p: f64,
}

/// The player's moves in the book, tabled once for fast likelihood evaluation.
#[derive(Clone, Debug, Default)]
pub struct FitData {
    pub(super) cands: Vec<Cand>,
    pub(super) tables: Vec<TableInfo>,
    pub(super) obs: Vec<Observation>,
    /// The tables an observation reads (its own or its previous move's).
    pub(super) used: Vec<u32>,
    pub(super) counts: FitCounts,
    /// Whether the candidates come from Polyglot books too (the blend can be fitted).
    pub(super) books: bool,
    /// Whether the games part is an opening explorer's ([`Popularity::Explorer`]).
    pub(super) explorer: bool,
}

/// One observation evaluated: `P` of the played move and whether it is the style's
/// most probable candidate (as a share of a tie).
#[derive(Clone, Copy, Debug)]
struct Evaluated {
    /// `min(1, A)` of the played move (0 when it is no candidate).
    played: f64,
    /// `Σ min(1, A)`.
    norm: f64,
    /// `k` when the played move is among the `k` most probable candidates, else 0.
    ties: u32,
}

impl FitData {
    /// What replaying the games found.
    pub fn counts(&self) -> &FitCounts {
        &self.counts
    }

    /// Whether the tables hold Polyglot books' candidates, so that a popularity blend
    /// can be fitted ([`FitData::from_games_with_books`]).
    pub fn has_books(&self) -> bool {
        self.books
    }

    /// Whether the tables hold an opening explorer's games: the popularity is then
    /// [`Popularity::Explorer`], whatever popularity a score is asked with.
    pub fn has_explorer(&self) -> bool {
        self.explorer
    }

    /// The log-likelihood of the scored moves under `style` with the lines' popularity
    /// ([`Popularity::Lines`]), and top-1 agreement.
    ///
    /// Each call is arithmetic on the tables: no position is replayed.
    pub fn score(&self, style: &Style) -> Score {
        self.score_with(style, Popularity::Lines)
    }

    /// The log-likelihood and top-1 agreement under `style` with `popularity` (which
    /// is that of the lines when the tables hold no book, as for
    /// [`MoveSource::new`](crate::sampler::MoveSource::new)).
    pub fn score_with(&self, style: &Style, popularity: Popularity) -> Score {
        let mut ll = 0.0;
        let mut top1 = 0.0;
        let mut total = 0.0;
        self.evaluate(style, popularity, |o, e| {
            let n = f64::from(o.count);
            total += n;
            if e.played <= 0.0 || e.norm <= 0.0 {
                ll = f64::NEG_INFINITY;
                return;
            }
            ll += n * (e.played / e.norm).ln();
            if e.ties > 0 {
                top1 += n / f64::from(e.ties);
            }
        });
        Score {
            log_likelihood: ll,
            top1: if total > 0.0 { top1 / total } else { 0.0 },
        }
    }

    /// The log-likelihood of the scored moves under `style` (see [`FitData::score`]).
    pub fn log_likelihood(&self, style: &Style) -> f64 {
        self.score(style).log_likelihood
    }

    /// The log-likelihood under `style` with `popularity` (see [`FitData::score_with`]).
    pub fn log_likelihood_with(&self, style: &Style, popularity: Popularity) -> f64 {
        self.score_with(style, popularity).log_likelihood
    }

    /// Every distinct term with `P` of its played move under `style` and
    /// `popularity`, and where it was first seen.
    pub fn terms(&self, style: &Style, popularity: Popularity) -> Vec<Term> {
        let mut out = Vec::with_capacity(self.obs.len());
        self.evaluate(style, popularity, |o, e| {
            out.push(Term {
                game: o.first.0 as usize,
                ply: o.first.1 as usize,
                count: o.count,
                p: if e.norm > 0.0 { e.played / e.norm } else { 0.0 },
            });
        });
        out
    }

    /// The share and bonus of every candidate of the used tables (share 0: not a
    /// candidate under this style and popularity).
    fn shares(&self, style: &Style, lambda: f64) -> (Vec<f64>, Vec<f64>) {
        let tau = style.tau();
        let mut share = vec![0.0; self.cands.len()];
        let mut bonus = vec![0.0; self.cands.len()];
        for &t in &self.used {
            let t = &self.tables[t as usize];
            // An explorer with no game at the position: the lines decide.
            let lambda = if self.explorer && t.book.entries <= 0.0 {
                0.0
            } else {
                lambda
            };
            if lambda <= 0.0 {
                // The lines alone: exactly `Distribution::at`.
                for i in t.range() {
                    let c = &self.cands[i];
                    if let (Some(s), Some(g)) = (t.graph.share(c.graph, tau), c.graph) {
                        share[i] = s;
                        bonus[i] = style.bonus(&g.flags);
                    }
                }
                continue;
            }
            // The blend, as the drill's `MoveSource` mixes it.
            let mut sum = 0.0;
            for i in t.range() {
                let c = &self.cands[i];
                let graph = t.graph.share(c.graph, tau).zip(c.graph.as_ref());
                let book = t.book.share(c.book, tau).zip(c.book.as_ref());
                let Some(blended) = blend(graph, book, lambda) else {
                    continue;
                };
                share[i] = blended.weight;
                bonus[i] = style.bonus(&blended.flags);
                sum += blended.weight;
            }
            if sum > 0.0 {
                for s in &mut share[t.range()] {
                    *s /= sum;
                }
            }
        }
        (share, bonus)
    }

    /// Evaluates every observation under `style` and `popularity`.
    fn evaluate(
        &self,
        style: &Style,
        popularity: Popularity,
        mut each: impl FnMut(&Observation, Evaluated),
    ) {
        let lambda = if self.explorer {
            1.0
        } else if self.books {
            popularity.book_part()
        } else {
            0.0
        };
        let (share, bonus) = self.shares(style, lambda);
        for o in &self.obs {
            let s_prev = match o.prev {
                Prev::One => 1.0,
                Prev::Move { table, cand } => {
                    clean_s_prev(share[(self.tables[table as usize].start + cand) as usize])
                }
            };
            let t = &self.tables[o.table as usize];
            let (mut norm, mut best, mut ties, mut played) = (0.0, f64::NEG_INFINITY, 0u32, 0.0);
            for (k, i) in t.range().enumerate() {
                let s = share[i];
                if s <= 0.0 {
                    continue;
                }
                let m = acceptance(s, s_prev, bonus[i]).min(1.0);
                norm += m;
                if k == o.played as usize {
                    played = m;
                }
                if m > best + 1e-12 {
                    best = m;
                    ties = 1;
                } else if (m - best).abs() <= 1e-12 {
                    ties += 1;
                }
            }
            let ties = if (played - best).abs() <= 1e-12 {
                ties.max(1)
            } else {
                0
            };
            each(o, Evaluated { played, norm, ties });
        }
    }
}
