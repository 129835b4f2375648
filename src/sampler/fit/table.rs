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
//! P(y|x)     = min(1, A(y)) / Σ_y' min(1, A(y'))          (SAMPLER.md §3)
//! ```
//!
//! `s_prev` is the share the game's previous move had at the previous position, under
//! the same τ, exactly as the drill takes it ([`move_share`](crate::sampler::move_share)):
//! 1 at the start, when the previous position is not in the book, or when the previous
//! move is not a candidate there (an implied transposition while `τ = 0`).
//!
//! Identical observations (same position, same previous move, same move played) are
//! kept once with a count, so the common first moves cost one term each.

use rustc_hash::FxHashMap;
use shakmaty::{Bitboard, Chess, Color, EnPassantMode, Move, Position, Square};

use crate::book::{FlagWeights, NodeId, OpeningLine, PositionGraph};
use crate::sampler::Style;

/// One candidate, without τ.
#[derive(Clone, Copy, Debug)]
struct Cand {
    /// A book continuation (else an implied transposition, weighted by τ).
    book: bool,
    /// `cw(x→y)` of a book continuation, `T(y)` of a transposition.
    weight: f64,
    /// `f_i(x→y)`.
    flags: FlagWeights,
}

/// The candidates of one position: `cands[start..start + len]`.
#[derive(Clone, Copy, Debug)]
struct TableInfo {
    start: u32,
    len: u32,
    /// `B`: the total weight of the book continuations.
    book_total: f64,
    /// `Tt`: the total `T(y)` of the transpositions.
    trans_total: f64,
}

/// Where `s_prev` comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Prev {
    /// `s_prev = 1`: the start, or the previous position is not in the book, or the
    /// previous move was not a candidate at all.
    One,
    /// The share of candidate `cand` of table `table`.
    Move { table: u32, cand: u32 },
}

/// One scored move (possibly many identical ones).
#[derive(Clone, Copy, Debug)]
struct Observation {
    table: u32,
    prev: Prev,
    played: u32,
    count: u32,
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

/// The player's moves in the book, tabled once for fast likelihood evaluation.
#[derive(Clone, Debug, Default)]
pub struct FitData {
    cands: Vec<Cand>,
    tables: Vec<TableInfo>,
    obs: Vec<Observation>,
    counts: FitCounts,
}

/// Whether a `White`/`Black` tag names the player: `player` occurs in it, ignoring case
/// (`"carlsen"` matches `"Carlsen, Magnus"`). An empty `player` matches nothing.
pub fn names_player(tag: &str, player: &str) -> bool {
    let player = player.trim().to_lowercase();
    !player.is_empty() && tag.to_lowercase().contains(&player)
}

/// The key of a table: the node and the rights that decide the legal moves there.
type TableKey = (NodeId, Bitboard, Option<Square>);

/// Builds tables and observations while the games are replayed.
struct Builder<'g> {
    graph: &'g PositionGraph,
    data: FitData,
    index: FxHashMap<TableKey, u32>,
    /// The moves of each table's candidates, aligned with `data.cands`.
    moves: Vec<Move>,
    terms: FxHashMap<(u32, Prev, u32), usize>,
}

impl Builder<'_> {
    /// The table of `pos` (a position of `node`), computed on first use.
    fn table(&mut self, node: NodeId, pos: &Chess) -> u32 {
        let key = (
            node,
            pos.castles().castling_rights(),
            pos.ep_square(EnPassantMode::Legal),
        );
        if let Some(&t) = self.index.get(&key) {
            return t;
        }
        let start = self.data.cands.len();
        let (mut book_total, mut trans_total) = (0.0, 0.0);
        for c in self.graph.continuations(node) {
            if c.weight > 0.0 && pos.is_legal(c.mv) {
                book_total += c.weight;
                self.data.cands.push(Cand {
                    book: true,
                    weight: c.weight,
                    flags: c.flag_weights.map(|f| f / c.weight),
                });
                self.moves.push(c.mv);
            }
        }
        for t in self.graph.transpositions_at(node, pos) {
            let total = self.graph.weight(t.to);
            if total > 0.0 {
                trans_total += total;
                self.data.cands.push(Cand {
                    book: false,
                    weight: total,
                    flags: self.graph.flag_weights(t.to).map(|f| f / total),
                });
                self.moves.push(t.mv);
            }
        }
        let id = u32::try_from(self.data.tables.len()).unwrap_or(u32::MAX);
        self.data.tables.push(TableInfo {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            len: u32::try_from(self.data.cands.len() - start).unwrap_or(0),
            book_total,
            trans_total,
        });
        self.index.insert(key, id);
        id
    }

    /// The index of `mv` among the candidates of `table`.
    fn find(&self, table: u32, mv: Move) -> Option<u32> {
        let t = self.data.tables[table as usize];
        let (s, n) = (t.start as usize, t.len as usize);
        self.moves[s..s + n]
            .iter()
            .position(|&m| m == mv)
            .and_then(|i| u32::try_from(i).ok())
    }

    fn observe(&mut self, table: u32, prev: Prev, played: u32) {
        let key = (table, prev, played);
        if let Some(&i) = self.terms.get(&key) {
            self.data.obs[i].count += 1;
        } else {
            self.terms.insert(key, self.data.obs.len());
            self.data.obs.push(Observation {
                table,
                prev,
                played,
                count: 1,
            });
        }
    }

    /// Replays one game; `sides` says which colours the player had.
    fn game(&mut self, line: &OpeningLine, sides: [bool; 2], max_plies: usize) {
        let mut pos = Chess::default();
        let mut prev = Prev::One;
        for san in line.moves.iter().take(max_plies) {
            let Ok(mv) = san.to_move(&pos) else {
                return; // the importer only keeps legal prefixes; nothing to score past this
            };
            let player = sides[usize::from(pos.turn() == Color::Black)];
            let here = self.graph.lookup(&pos).map(|node| self.table(node, &pos));
            let next_prev = match here {
                Some(table) => match self.find(table, mv) {
                    Some(cand) => {
                        if player {
                            self.data.counts.moves_scored += 1;
                            self.observe(table, prev, cand);
                        }
                        Prev::Move { table, cand }
                    }
                    None => {
                        if player {
                            if self.data.tables[table as usize].len == 0 {
                                self.data.counts.moves_after_book_end += 1;
                            } else {
                                self.data.counts.moves_out_of_book += 1;
                            }
                        }
                        Prev::One
                    }
                },
                None => {
                    if player {
                        self.data.counts.moves_outside_book += 1;
                    }
                    Prev::One
                }
            };
            prev = next_prev;
            pos.play_unchecked(mv);
        }
    }
}

impl FitData {
    /// Replays `games` (from the standard position; at most `max_plies` plies each) on
    /// `graph` and tables the moves of `player` (see [`names_player`]).
    ///
    /// A move of the player at a position of the book is scored when it is a book
    /// continuation or an implied transposition there; at a position with candidates it
    /// is otherwise counted out of book. The scored moves are the same for every style.
    pub fn from_games(
        graph: &PositionGraph,
        games: &[OpeningLine],
        player: &str,
        max_plies: usize,
    ) -> FitData {
        let mut b = Builder {
            graph,
            data: FitData::default(),
            index: FxHashMap::default(),
            moves: Vec::new(),
            terms: FxHashMap::default(),
        };
        b.data.counts.games = games.len();
        for line in games {
            let tag = |name| line.tags.as_ref().and_then(|t| t.get(name)).unwrap_or("");
            let sides = [
                names_player(tag("White"), player),
                names_player(tag("Black"), player),
            ];
            if !sides.iter().any(|s| *s) {
                continue;
            }
            b.data.counts.games_with_player += 1;
            if line.start.is_some() {
                b.data.counts.games_not_from_start += 1;
                continue;
            }
            b.game(line, sides, max_plies);
        }
        b.data.counts.distinct_terms = b.data.obs.len();
        b.data.counts.tables = b.data.tables.len();
        b.data
    }

    /// What replaying the games found.
    pub fn counts(&self) -> &FitCounts {
        &self.counts
    }

    /// The log-likelihood of the scored moves under `style`, and top-1 agreement.
    ///
    /// Each call is arithmetic on the tables: no position is replayed.
    pub fn score(&self, style: &Style) -> Score {
        let tau = style.tau();
        let effective: FlagWeights = std::array::from_fn(|i| {
            let p = style.params()[i];
            if p.enabled { p.weight } else { 0.0 }
        });
        let share = |t: &TableInfo, c: &Cand| -> Option<f64> {
            let den = t.book_total + tau * t.trans_total;
            let w = if c.book { c.weight } else { tau * c.weight };
            (w > 0.0 && den > 0.0).then(|| w / den)
        };
        let mut ll = 0.0;
        let mut top1 = 0.0;
        let mut total = 0.0;
        for o in &self.obs {
            let n = f64::from(o.count);
            total += n;
            let s_prev = match o.prev {
                Prev::One => 1.0,
                Prev::Move { table, cand } => {
                    let t = &self.tables[table as usize];
                    let c = &self.cands[(t.start + cand) as usize];
                    share(t, c).filter(|s| *s > 0.0 && *s <= 1.0).unwrap_or(1.0)
                }
            };
            let t = &self.tables[o.table as usize];
            let cands = &self.cands[t.start as usize..(t.start + t.len) as usize];
            let (mut norm, mut best, mut ties, mut played) = (0.0, f64::NEG_INFINITY, 0u32, 0.0);
            for (i, c) in cands.iter().enumerate() {
                let Some(s) = share(t, c) else {
                    continue;
                };
                let bonus: f64 = effective.iter().zip(&c.flags).map(|(e, f)| e * f).sum();
                let m = (s / s_prev + bonus).min(1.0);
                norm += m;
                if i == o.played as usize {
                    played = m;
                }
                if m > best + 1e-12 {
                    best = m;
                    ties = 1;
                } else if (m - best).abs() <= 1e-12 {
                    ties += 1;
                }
            }
            if played <= 0.0 || norm <= 0.0 {
                ll = f64::NEG_INFINITY;
                continue;
            }
            ll += n * (played / norm).ln();
            if (played - best).abs() <= 1e-12 {
                top1 += n / f64::from(ties.max(1));
            }
        }
        Score {
            log_likelihood: ll,
            top1: if total > 0.0 { top1 / total } else { 0.0 },
        }
    }

    /// The log-likelihood of the scored moves under `style` (see [`FitData::score`]).
    pub fn log_likelihood(&self, style: &Style) -> f64 {
        self.score(style).log_likelihood
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_case_insensitively_and_never_when_empty() {
        assert!(names_player("Carlsen, Magnus", "carlsen"));
        assert!(!names_player("Carlsen, Magnus", "Kasparov"));
        assert!(!names_player("Carlsen, Magnus", "  "));
    }
}
