//! The explorer's unit of counting: the games that played one move from one position,
//! in one partition (all games, or one player's as one colour), one cell (rating band
//! and speed) and one year.

use shakmaty::{Color, KnownOutcome};

use super::game::ExplorerGame;
use super::tags::{RatingBand, Speed};
use crate::book::polyglot::{RawMove, RunRecord};

/// Which games a record counts: all games (0), or player `i`'s games as White
/// (`1 + 2i`) or as Black (`2 + 2i`) for the players the index was made for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Partition(pub u8);

impl Partition {
    /// All games.
    pub const ALL: Partition = Partition(0);
    /// The most players an index keeps trees for.
    pub const MAX_PLAYERS: usize = 127;

    /// Player `player`'s games with `color`; `None` past [`Partition::MAX_PLAYERS`].
    pub fn player(player: usize, color: Color) -> Option<Partition> {
        if player >= Partition::MAX_PLAYERS {
            return None;
        }
        let side = match color {
            Color::White => 1,
            Color::Black => 2,
        };
        Some(Partition(player as u8 * 2 + side))
    }
}

/// A rating band and a speed in one byte: `band × 8 + speed`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u8);

impl Cell {
    /// The cell of a band and a speed.
    pub fn new(band: RatingBand, speed: Speed) -> Cell {
        Cell(band.index() * 8 + speed.index())
    }

    /// The band; `None` for a byte that is no cell.
    pub fn band(self) -> Option<RatingBand> {
        RatingBand::from_index(self.0 / 8)
    }

    /// The speed; `None` for a byte that is no cell.
    pub fn speed(self) -> Option<Speed> {
        Speed::from_index(self.0 % 8)
    }
}

/// Game results and ratings added up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games White won.
    pub white: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games Black won.
    pub black: u32,
    /// The sum of the games' mean ratings (rated games only).
    pub rating_sum: u64,
}

impl Tally {
    /// One game's tally.
    pub fn of_game(outcome: KnownOutcome, rating: Option<u16>) -> Tally {
        let mut t = Tally {
            rating_sum: rating.map_or(0, u64::from),
            ..Tally::default()
        };
        match outcome {
            KnownOutcome::Decisive {
                winner: Color::White,
            } => t.white = 1,
            KnownOutcome::Decisive {
                winner: Color::Black,
            } => t.black = 1,
            KnownOutcome::Draw => t.draws = 1,
        }
        t
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        u64::from(self.white) + u64::from(self.draws) + u64::from(self.black)
    }

    /// Adds `other`.
    pub fn add(&mut self, other: &Tally) {
        self.white = self.white.saturating_add(other.white);
        self.draws = self.draws.saturating_add(other.draws);
        self.black = self.black.saturating_add(other.black);
        self.rating_sum = self.rating_sum.saturating_add(other.rating_sum);
    }
}

/// The highest-rated game of a record: its mean rating (0 unrated) and a reference to it
/// (whatever the index numbers games by; the earlier game wins a tie).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BestGame {
    /// The game's mean rating, 0 when unrated.
    pub rating: u16,
    /// The game.
    pub game: u64,
}

impl BestGame {
    /// Whether `self` ranks before `other` among top games: higher rating, then
    /// earlier game.
    pub fn beats(&self, other: &BestGame) -> bool {
        (self.rating, std::cmp::Reverse(self.game)) > (other.rating, std::cmp::Reverse(other.game))
    }
}

/// The games that played `raw_move` at position `key`, in one partition, cell and year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExplorerRecord {
    /// The position's Polyglot key.
    pub key: u64,
    /// Whose games.
    pub partition: Partition,
    /// The move.
    pub raw_move: RawMove,
    /// Rating band and speed.
    pub cell: Cell,
    /// The year, 0 when unknown.
    pub year: u16,
    /// The games' results and ratings.
    pub tally: Tally,
    /// The highest-rated of them.
    pub best: BestGame,
}

impl ExplorerRecord {
    /// The records of one game: for each position it reached (`(key, move)`, first
    /// occurrences only) and each of its `partitions`.
    pub fn of_game<'a>(
        game: &'a ExplorerGame,
        positions: &'a [(u64, RawMove)],
        partitions: &'a [Partition],
        game_ref: u64,
    ) -> impl Iterator<Item = ExplorerRecord> + 'a {
        let rating = game.rating();
        let cell = Cell::new(game.band(), game.speed);
        let tally = Tally::of_game(game.outcome, rating);
        let best = BestGame {
            rating: rating.unwrap_or(0),
            game: game_ref,
        };
        positions.iter().flat_map(move |&(key, raw_move)| {
            partitions.iter().map(move |&partition| ExplorerRecord {
                key,
                partition,
                raw_move,
                cell,
                year: game.year.unwrap_or(0),
                tally,
                best,
            })
        })
    }
}

impl RunRecord for ExplorerRecord {
    type SortKey = (u64, Partition, RawMove, Cell, u16);
    const BYTES: usize = 8 + 1 + 2 + 1 + 2 + 12 + 8 + 2 + 8;

    fn sort_key(&self) -> Self::SortKey {
        (
            self.key,
            self.partition,
            self.raw_move,
            self.cell,
            self.year,
        )
    }

    fn absorb(&mut self, other: &ExplorerRecord) {
        self.tally.add(&other.tally);
        if other.best.beats(&self.best) {
            self.best = other.best;
        }
    }

    fn write_bytes(&self, out: &mut [u8]) {
        let mut w = ByteWriter { out, at: 0 };
        w.put(&self.key.to_le_bytes());
        w.put(&[self.partition.0]);
        w.put(&self.raw_move.0.to_le_bytes());
        w.put(&[self.cell.0]);
        w.put(&self.year.to_le_bytes());
        w.put(&self.tally.white.to_le_bytes());
        w.put(&self.tally.draws.to_le_bytes());
        w.put(&self.tally.black.to_le_bytes());
        w.put(&self.tally.rating_sum.to_le_bytes());
        w.put(&self.best.rating.to_le_bytes());
        w.put(&self.best.game.to_le_bytes());
    }

    fn read_bytes(bytes: &[u8]) -> ExplorerRecord {
        let mut r = ByteReader { bytes, at: 0 };
        ExplorerRecord {
            key: u64::from_le_bytes(r.take()),
            partition: Partition(r.take::<1>()[0]),
            raw_move: RawMove(u16::from_le_bytes(r.take())),
            cell: Cell(r.take::<1>()[0]),
            year: u16::from_le_bytes(r.take()),
            tally: Tally {
                white: u32::from_le_bytes(r.take()),
                draws: u32::from_le_bytes(r.take()),
                black: u32::from_le_bytes(r.take()),
                rating_sum: u64::from_le_bytes(r.take()),
            },
            best: BestGame {
                rating: u16::from_le_bytes(r.take()),
                game: u64::from_le_bytes(r.take()),
            },
        }
    }
}

struct ByteWriter<'a> {
    out: &'a mut [u8],
    at: usize,
}

impl ByteWriter<'_> {
    fn put(&mut self, bytes: &[u8]) {
        if let Some(slot) = self.out.get_mut(self.at..self.at + bytes.len()) {
            slot.copy_from_slice(bytes);
        }
        self.at += bytes.len();
    }
}

struct ByteReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl ByteReader<'_> {
    /// The next `N` bytes (zeros past the end: run files are written by us).
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        if let Some(src) = self.bytes.get(self.at..self.at + N) {
            out.copy_from_slice(src);
        }
        self.at += N;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_bytes_round_trip() {
        let r = ExplorerRecord {
            key: 0x0123_4567_89ab_cdef,
            partition: Partition(3),
            raw_move: RawMove(0x031c),
            cell: Cell::new(RatingBand::from_mean(1700), Speed::Blitz),
            year: 2025,
            tally: Tally {
                white: 1,
                draws: 70_000,
                black: u32::MAX,
                rating_sum: 1 << 40,
            },
            best: BestGame {
                rating: 2100,
                game: 1 << 35,
            },
        };
        let mut bytes = vec![0u8; ExplorerRecord::BYTES];
        r.write_bytes(&mut bytes);
        assert_eq!(ExplorerRecord::read_bytes(&bytes), r);
        assert_eq!(r.cell.speed(), Some(Speed::Blitz));
        assert_eq!(r.cell.band().and_then(RatingBand::lower_bound), Some(1600));
    }

    #[test]
    fn the_higher_rating_then_the_earlier_game_is_best() {
        let g = |rating, game| BestGame { rating, game };
        assert!(g(2000, 9).beats(&g(1999, 1)));
        assert!(g(2000, 1).beats(&g(2000, 2)));
        assert!(!g(2000, 2).beats(&g(2000, 2)));
    }
}
