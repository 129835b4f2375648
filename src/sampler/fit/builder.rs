//! Replaying the games once into the candidate tables of [`FitData`].
//!
//! Every position of a game that the book knows (the graph has it, or a Polyglot book
//! in use has entries there, as [`MoveSource::knows`](crate::sampler::MoveSource::knows)
//! says) gets a table of its candidates' τ-free parts; the player's moves there are the
//! observations. A position outside the book that a move leaves back into the book is
//! tabled too when a book is in use, for the share of that move (`s_prev` of the next
//! one, as [`MoveSource::move_share`](crate::sampler::MoveSource::move_share) gives it).
//! An opening explorer's games stand where the books would.

use rustc_hash::FxHashMap;
use shakmaty::{Bitboard, Board, Chess, Color, EnPassantMode, Move, Position, Square};

use super::table::{Cand, FitData, Observation, Prev, TableInfo};
use crate::book::explorer::ExplorerCounts;
use crate::book::polyglot::{PolyglotBook, key};
use crate::book::{LineId, NodeId, OpeningLine, PositionGraph};
use crate::sampler::metropolis::{Totals, graph_parts};
use crate::sampler::source::{book_parts, books_total, explorer_parts};

/// Whether a `White`/`Black` tag names the player: `player` occurs in it, ignoring case
/// (`"carlsen"` matches `"Carlsen, Magnus"`). An empty `player` matches nothing.
pub fn names_player(tag: &str, player: &str) -> bool {
    let player = player.trim().to_lowercase();
    !player.is_empty() && tag.to_lowercase().contains(&player)
}

/// A position as far as its candidates go: the pieces, the side to move, the castling
/// rights and the en passant square as the Polyglot key counts it (which also decides
/// the legal one).
type PositionKey = (Board, Color, Bitboard, Option<Square>);

/// The key of a table.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum TableKey {
    /// Without books: the node and the rights that decide the legal moves there.
    Node(NodeId, Bitboard, Option<Square>),
    /// With books: the position, and the name of the game so far when a book move's
    /// flags come from it.
    Position(PositionKey, Option<LineId>),
}

/// The games part of the candidates: Polyglot books or an opening explorer.
#[derive(Clone, Copy)]
enum Games<'g, 'b> {
    /// The lines alone.
    None,
    /// Polyglot books (their weights add up).
    Books(&'g [PolyglotBook<'b>]),
    /// An opening explorer's games.
    Explorer(&'g dyn ExplorerCounts),
}

impl Games<'_, '_> {
    fn is_some(self) -> bool {
        !matches!(self, Games::None)
    }

    /// The games (or weights) at `pos`.
    fn total(self, pos: &Chess) -> u64 {
        match self {
            Games::None => 0,
            Games::Books(books) => books_total(books, key(pos)),
            Games::Explorer(explorer) => explorer.games_at(pos),
        }
    }
}

/// Builds tables and observations while the games are replayed.
struct Builder<'g, 'b> {
    graph: &'g PositionGraph,
    games: Games<'g, 'b>,
    data: FitData,
    index: FxHashMap<TableKey, u32>,
    /// Whether the flags of a book move at a position fall back to the game's name.
    needs_name: FxHashMap<PositionKey, bool>,
    /// The moves of each table's candidates, aligned with `data.cands`.
    moves: Vec<Move>,
    terms: FxHashMap<(u32, Prev, u32), usize>,
}

fn position_key(pos: &Chess) -> PositionKey {
    (
        pos.board().clone(),
        pos.turn(),
        pos.castles().castling_rights(),
        pos.ep_square(EnPassantMode::PseudoLegal),
    )
}

impl Builder<'_, '_> {
    /// Whether a game may stand at `pos` (see the [module docs](self)).
    fn knows(&self, pos: &Chess, node: Option<NodeId>) -> bool {
        node.is_some() || self.games.total(pos) > 0
    }

    /// The table of `pos` (`node` its node, `named` the game's name there), computed
    /// on first use.
    fn table(&mut self, pos: &Chess, node: Option<NodeId>, named: Option<LineId>) -> u32 {
        let key = if !self.games.is_some() {
            let Some(node) = node else {
                return self.push_table(Vec::new(), Totals::default(), Totals::default());
            };
            TableKey::Node(
                node,
                pos.castles().castling_rights(),
                pos.ep_square(EnPassantMode::Legal),
            )
        } else {
            let pk = position_key(pos);
            let named = match self.needs_name.get(&pk) {
                Some(false) => None,
                _ => named,
            };
            TableKey::Position(pk, named)
        };
        if let Some(&t) = self.index.get(&key) {
            return t;
        }
        let (mut cands, graph) = self.graph_parts(pos, node);
        let (book, used_name) = self.book_parts(pos, named, &mut cands);
        if let TableKey::Position(pk, _) = &key {
            self.needs_name.insert(pk.clone(), used_name);
        }
        let key = match key {
            TableKey::Position(pk, _) if !used_name => TableKey::Position(pk, None),
            k => k,
        };
        if let Some(&t) = self.index.get(&key) {
            return t;
        }
        let id = self.push_table(cands, graph, book);
        self.index.insert(key, id);
        id
    }

    fn push_table(&mut self, cands: Vec<(Move, Cand)>, graph: Totals, book: Totals) -> u32 {
        let start = self.data.cands.len();
        for (mv, c) in cands {
            self.moves.push(mv);
            self.data.cands.push(c);
        }
        let id = u32::try_from(self.data.tables.len()).unwrap_or(u32::MAX);
        self.data.tables.push(TableInfo {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            len: u32::try_from(self.data.cands.len() - start).unwrap_or(0),
            graph,
            book,
        });
        id
    }

    /// The graph's candidates at `node` as played from `pos`, with transpositions (the
    /// tables are τ-free), and their totals.
    fn graph_parts(&self, pos: &Chess, node: Option<NodeId>) -> (Vec<(Move, Cand)>, Totals) {
        let Some(node) = node else {
            return (Vec::new(), Totals::default());
        };
        let parts = graph_parts(self.graph, node, pos, true);
        let totals = Totals::of(&parts);
        let cands = parts
            .into_iter()
            .map(|part| {
                let cand = Cand {
                    graph: Some(part),
                    book: None,
                };
                (part.mv, cand)
            })
            .collect();
        (cands, totals)
    }

    /// Adds the books' candidates at `pos` to `cands` (entries, then implied
    /// transpositions, as the drill's `MoveSource` has them); their totals, and whether
    /// a candidate's flags came from `named`.
    fn book_parts(
        &self,
        pos: &Chess,
        named: Option<LineId>,
        cands: &mut Vec<(Move, Cand)>,
    ) -> (Totals, bool) {
        let parts = match self.games {
            Games::None => return (Totals::default(), false),
            Games::Books(books) => book_parts(self.graph, books, pos, named, true),
            Games::Explorer(explorer) => explorer_parts(self.graph, explorer, pos, named, true),
        };
        let mut used_name = false;
        let mut totals = Totals::default();
        for (part, by_name) in parts {
            used_name |= by_name;
            totals.add(&part);
            match cands.iter_mut().find(|(m, _)| *m == part.mv) {
                Some((_, c)) => c.book = Some(part),
                None => cands.push((
                    part.mv,
                    Cand {
                        graph: None,
                        book: Some(part),
                    },
                )),
            }
        }
        (totals, used_name)
    }

    /// The index of `mv` among the candidates of `table`. With an explorer, only a
    /// candidate of the games where a game was played there, else of the lines (the
    /// candidates the drill has).
    fn find(&self, table: u32, mv: Move) -> Option<u32> {
        let t = self.data.tables[table as usize];
        let (s, n) = (t.start as usize, t.len as usize);
        let i = self.moves[s..s + n].iter().position(|&m| m == mv)?;
        let c = &self.data.cands[s + i];
        let scored = match self.games {
            Games::Explorer(_) if t.book.entries > 0.0 => c.book.is_some(),
            Games::Explorer(_) => c.graph.is_some(),
            Games::None | Games::Books(_) => true,
        };
        if !scored {
            return None;
        }
        u32::try_from(i).ok()
    }

    fn observe(&mut self, table: u32, prev: Prev, played: u32, first: (u32, u32)) {
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
                first,
            });
        }
    }

    /// Replays one game (index `game`); `sides` says which colours the player had.
    fn game(&mut self, game: u32, line: &OpeningLine, sides: [bool; 2], max_plies: usize) {
        let mut pos = Chess::default();
        let mut prev = Prev::One;
        // A move from a position outside the book, whose share is computed only when
        // the next position needs it: the position, the move and the game's name.
        let mut pending: Option<(Chess, Move, Option<LineId>)> = None;
        let mut named = None;
        // The importer only keeps legal prefixes; nothing is scored past an illegal move.
        for (ply, &mv) in line.moves.iter().take(max_plies).enumerate() {
            let player = sides[usize::from(pos.turn() == Color::Black)];
            let node = self.graph.lookup(&pos);
            if let Some(line) = node.and_then(|n| self.graph.name(n)) {
                named = Some(line);
            }
            let here = self
                .knows(&pos, node)
                .then(|| self.table(&pos, node, named));
            let mut next_pending = None;
            let next_prev = match here {
                Some(table) => match self.find(table, mv) {
                    Some(cand) => {
                        if player {
                            if let Some((p, m, n)) = pending.take() {
                                let t = self.table(&p, None, n);
                                prev = self
                                    .find(t, m)
                                    .map_or(Prev::One, |cand| Prev::Move { table: t, cand });
                            }
                            self.data.counts.moves_scored += 1;
                            let ply = u32::try_from(ply).unwrap_or(u32::MAX);
                            self.observe(table, prev, cand, (game, ply));
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
                    if self.games.is_some() {
                        next_pending = Some((pos.clone(), mv, named));
                    }
                    Prev::One
                }
            };
            prev = next_prev;
            pending = next_pending;
            pos.play_unchecked(mv);
        }
    }

    /// The tables the observations read, each once.
    fn used(&self) -> Vec<u32> {
        let mut used: Vec<u32> = self
            .data
            .obs
            .iter()
            .flat_map(|o| {
                let prev = match o.prev {
                    Prev::Move { table, .. } => Some(table),
                    Prev::One => None,
                };
                std::iter::once(o.table).chain(prev)
            })
            .collect();
        used.sort_unstable();
        used.dedup();
        used
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
        FitData::from_games_with_books(graph, &[], games, player, max_plies)
    }

    /// As [`FitData::from_games`], with the Polyglot `books` as a second source of
    /// candidates (their weights add up, as in
    /// [`MoveSource`](crate::sampler::MoveSource)): a position counts as in the book
    /// when the graph has it or a book has entries there, and a move is scored when it
    /// is a candidate of either source. The likelihood then depends on the popularity
    /// blend as well ([`FitData::score_with`]). Without books this is
    /// [`FitData::from_games`].
    pub fn from_games_with_books(
        graph: &PositionGraph,
        books: &[PolyglotBook<'_>],
        games: &[OpeningLine],
        player: &str,
        max_plies: usize,
    ) -> FitData {
        let source = if books.is_empty() {
            Games::None
        } else {
            Games::Books(books)
        };
        FitData::build(graph, source, games, player, max_plies)
    }

    /// As [`FitData::from_games_with_books`], with an opening explorer's games (under
    /// its filter) where the books would be: the popularity is
    /// [`Popularity::Explorer`](crate::sampler::Popularity::Explorer), so no blend is
    /// fitted (the likelihood is that of the drill with that explorer).
    pub fn from_games_with_explorer(
        graph: &PositionGraph,
        explorer: &dyn ExplorerCounts,
        games: &[OpeningLine],
        player: &str,
        max_plies: usize,
    ) -> FitData {
        FitData::build(graph, Games::Explorer(explorer), games, player, max_plies)
    }

    fn build(
        graph: &PositionGraph,
        source: Games<'_, '_>,
        games: &[OpeningLine],
        player: &str,
        max_plies: usize,
    ) -> FitData {
        let mut b = Builder {
            graph,
            games: source,
            data: FitData {
                books: matches!(source, Games::Books(_)),
                explorer: matches!(source, Games::Explorer(_)),
                ..FitData::default()
            },
            index: FxHashMap::default(),
            needs_name: FxHashMap::default(),
            moves: Vec::new(),
            terms: FxHashMap::default(),
        };
        b.data.counts.games = games.len();
        for (i, line) in games.iter().enumerate() {
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
            b.game(u32::try_from(i).unwrap_or(u32::MAX), line, sides, max_plies);
        }
        b.data.used = b.used();
        b.data.counts.distinct_terms = b.data.obs.len();
        b.data.counts.tables = b.data.tables.len();
        b.data
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
