//! A position's answer: its records that pass a filter added up per move, and its top
//! games.

use shakmaty::Color;

use super::filter::ExplorerFilter;
use super::performance::{MIN_PERFORMANCE_GAMES, performance_of};
use super::record::{BestGame, Cell, ExplorerRecord, Partition};
use crate::book::polyglot::RawMove;

/// How many top games a position's answer keeps.
pub const TOP_GAMES: usize = 4;

/// One move's games under a filter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveStats {
    /// The move.
    pub raw_move: RawMove,
    /// Games White won.
    pub white: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The sum of the rated games' mean ratings.
    pub rating_sum: u64,
    /// Rated games.
    pub rated_games: u64,
    /// The most recent year of a game, when one has a known year.
    pub last_year: Option<u16>,
}

impl MoveStats {
    /// Games.
    pub fn games(&self) -> u64 {
        self.white + self.draws + self.black
    }

    /// The rated games' average mean rating, rounded down; `None` without one.
    pub fn average_rating(&self) -> Option<u64> {
        self.rating_sum.checked_div(self.rated_games)
    }

    /// The performance rating of `color`, the side that played the move: the rated
    /// games' average rating plus FIDE's `dp` for its score over the games (lichess's
    /// formula, [`performance_of`]); `None` under [`MIN_PERFORMANCE_GAMES`] games or
    /// without a rated game.
    pub fn performance(&self, color: Color) -> Option<i32> {
        if self.games() < MIN_PERFORMANCE_GAMES || self.rated_games == 0 {
            return None;
        }
        let average = self.rating_sum as f64 / self.rated_games as f64;
        performance_of(color, average, self.white, self.draws, self.black)
    }

    fn add(&mut self, record: &ExplorerRecord, rated: bool) {
        let t = &record.tally;
        self.white += u64::from(t.white);
        self.draws += u64::from(t.draws);
        self.black += u64::from(t.black);
        self.rating_sum += t.rating_sum;
        if rated {
            self.rated_games += t.games();
        }
        if record.year != 0 && t.games() > 0 {
            self.last_year = self.last_year.max(Some(record.year));
        }
    }
}

/// A top game before its details are looked up: the best game of one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopCandidate {
    /// The move it played.
    pub raw_move: RawMove,
    /// Its rating and its number in `source`.
    pub best: BestGame,
    /// Where its number counts (the segment of an index, oldest first).
    pub source: u32,
    /// Its year (0 unknown) and cell.
    pub year: u16,
    /// Its rating band and speed.
    pub cell: Cell,
}

impl TopCandidate {
    fn beats(&self, other: &TopCandidate) -> bool {
        (
            self.best.rating,
            std::cmp::Reverse(self.source),
            std::cmp::Reverse(self.best.game),
        ) > (
            other.best.rating,
            std::cmp::Reverse(other.source),
            std::cmp::Reverse(other.best.game),
        )
    }
}

/// A position's moves under a filter, most played first (then by move), and its top
/// games: the highest-rated (the earliest on a tie) of the best games of the records
/// that pass the filter, one best game per move, cell and year.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PositionStats {
    /// The moves.
    pub moves: Vec<MoveStats>,
    /// The top games, best first, at most [`TOP_GAMES`].
    pub top: Vec<TopCandidate>,
}

impl PositionStats {
    /// Games White won, drawn, Black won, over every move.
    pub fn total(&self) -> MoveStats {
        let mut total = MoveStats::default();
        for m in &self.moves {
            total.white += m.white;
            total.draws += m.draws;
            total.black += m.black;
            total.rating_sum += m.rating_sum;
            total.rated_games += m.rated_games;
            total.last_year = total.last_year.max(m.last_year);
        }
        total
    }

    /// The stats of `raw_move`.
    pub fn of_move(&self, raw_move: RawMove) -> Option<&MoveStats> {
        self.moves.iter().find(|m| m.raw_move == raw_move)
    }
}

/// Adds up a position's records (from any number of sources) into [`PositionStats`].
#[derive(Debug, Clone)]
pub struct PositionTally {
    filter: ExplorerFilter,
    stats: PositionStats,
}

impl PositionTally {
    /// An empty tally under `filter`.
    pub fn new(filter: ExplorerFilter) -> PositionTally {
        PositionTally {
            filter,
            stats: PositionStats::default(),
        }
    }

    /// The partition counted (all games, or a player's tree): records of the others
    /// need not be read.
    pub fn partition(&self) -> Partition {
        self.filter.partition
    }

    /// Counts `record` (of source `source`) if the filter accepts it.
    pub fn add(&mut self, source: u32, record: &ExplorerRecord) {
        if !self
            .filter
            .accepts(record.partition, record.cell, record.year)
        {
            return;
        }
        let rated = record
            .cell
            .band()
            .is_some_and(|b| b.lower_bound().is_some());
        let moves = &mut self.stats.moves;
        match moves.iter_mut().find(|m| m.raw_move == record.raw_move) {
            Some(m) => m.add(record, rated),
            None => {
                let mut m = MoveStats {
                    raw_move: record.raw_move,
                    ..MoveStats::default()
                };
                m.add(record, rated);
                moves.push(m);
            }
        }
        if record.tally.games() == 0 {
            return;
        }
        let candidate = TopCandidate {
            raw_move: record.raw_move,
            best: record.best,
            source,
            year: record.year,
            cell: record.cell,
        };
        let top = &mut self.stats.top;
        let at = top
            .iter()
            .position(|t| candidate.beats(t))
            .unwrap_or(top.len());
        if at < TOP_GAMES {
            top.insert(at, candidate);
            top.truncate(TOP_GAMES);
        }
    }

    /// The moves, most played first, then by move.
    pub fn finish(mut self) -> PositionStats {
        self.stats
            .moves
            .sort_by_key(|m| (std::cmp::Reverse(m.games()), m.raw_move));
        self.stats
    }
}
