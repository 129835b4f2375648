//! The table of a segment's games: for each game, fixed-width facts (year, rating,
//! cell, result) that records of a single game take instead of repeating them, and a
//! text line with the players and where the game came from.
//!
//! ```text
//! facts      8 bytes a game: year, mean rating (u16 little-endian, 0 unknown), cell,
//!            result (0 white won, 1 draw, 2 black won), 2 bytes zero
//! facts CRC  per 8 games, the CRC32C of their facts (u32 little-endian)
//! offsets    (games + 1) u64: where each game's line starts in the text, and its end
//! lines CRC  per 64 games, the CRC32C of their offsets (the 65 from the first game's
//!            start to the last game's end) and their lines
//! text       one line per game: white TAB black TAB source TAB number
//! ```

use std::ops::Range;

use shakmaty::{Color, KnownOutcome};

use super::checksum::{
    CRC_BYTES, FACTS_PAGE, LINES_PAGE, crc, crc_append, mismatch, page_entries, pages, read_u32,
    read_u64, slice,
};
use crate::book::explorer::{
    BestGame, Cell, ExplorerGame, ExplorerRecord, Partition, Tally, outcome_name,
};
use crate::book::polyglot::RawMove;

/// One game of a segment's table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEntry {
    /// The `White` tag.
    pub white: String,
    /// The `Black` tag.
    pub black: String,
    /// The result.
    pub outcome: KnownOutcome,
    /// The year, when known.
    pub year: Option<u16>,
    /// The mean rating, when both are known.
    pub rating: Option<u16>,
    /// Rating band and speed.
    pub cell: Cell,
    /// The index of its PGN file among the segment's sources.
    pub source: usize,
    /// Its 1-based number in that file.
    pub number: u64,
}

impl GameEntry {
    /// The table's entry for `game`, game `game.number` of source file `source`.
    pub fn of_game(game: &ExplorerGame, source: usize) -> GameEntry {
        GameEntry {
            white: game.white.clone(),
            black: game.black.clone(),
            outcome: game.outcome,
            year: game.year,
            rating: game.rating(),
            cell: Cell::new(game.band(), game.speed),
            source,
            number: game.number,
        }
    }

    /// The result as PGN writes it: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        outcome_name(self.outcome)
    }

    /// The facts kept in fixed width.
    pub(super) fn facts(&self) -> GameFacts {
        GameFacts {
            year: self.year.unwrap_or(0),
            rating: self.rating.unwrap_or(0),
            cell: self.cell,
            outcome: self.outcome,
        }
    }

    /// The text line a segment keeps for the game (white TAB black TAB source TAB
    /// number; tabs and line ends in names become spaces).
    pub fn to_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}",
            clean_name(&self.white),
            clean_name(&self.black),
            self.source,
            self.number
        )
    }

    /// The entry of `facts` and a [`GameEntry::line`]; `None` when the line is damaged.
    pub(super) fn from_parts(facts: GameFacts, line: &str) -> Option<GameEntry> {
        let mut cols = line.split('\t');
        let white = cols.next()?.to_owned();
        let black = cols.next()?.to_owned();
        let source = cols.next()?.parse::<usize>().ok()?;
        let number = cols.next()?.parse::<u64>().ok()?;
        if cols.next().is_some() {
            return None;
        }
        Some(GameEntry {
            white,
            black,
            outcome: facts.outcome,
            year: (facts.year > 0).then_some(facts.year),
            rating: (facts.rating > 0).then_some(facts.rating),
            cell: facts.cell,
            source,
            number,
        })
    }
}

/// A player's name as the table keeps it: tabs and line ends become spaces.
pub(super) fn clean_name(name: &str) -> String {
    name.replace(['\t', '\n', '\r'], " ")
}

/// What a record of one game can take from the game's table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct GameFacts {
    /// The year, 0 when unknown.
    pub year: u16,
    /// The mean rating, 0 when unrated.
    pub rating: u16,
    /// Rating band and speed.
    pub cell: Cell,
    /// The result.
    pub outcome: KnownOutcome,
}

impl GameFacts {
    /// Bytes a game's facts take.
    pub const BYTES: usize = 8;

    /// The facts of `game`, as its [`GameEntry::of_game`] keeps them.
    pub fn of_game(game: &ExplorerGame) -> GameFacts {
        GameFacts {
            year: game.year.unwrap_or(0),
            rating: game.rating().unwrap_or(0),
            cell: Cell::new(game.band(), game.speed),
            outcome: game.outcome,
        }
    }

    /// The facts as stored.
    pub fn to_bytes(self) -> [u8; GameFacts::BYTES] {
        let [y0, y1] = self.year.to_le_bytes();
        let [r0, r1] = self.rating.to_le_bytes();
        let outcome = match self.outcome {
            KnownOutcome::Decisive {
                winner: Color::White,
            } => 0,
            KnownOutcome::Draw => 1,
            KnownOutcome::Decisive {
                winner: Color::Black,
            } => 2,
        };
        [y0, y1, r0, r1, self.cell.0, outcome, 0, 0]
    }

    /// Reads [`GameFacts::to_bytes`]; `None` when they are damaged.
    pub fn from_bytes(b: [u8; GameFacts::BYTES]) -> Option<GameFacts> {
        let outcome = match b[5] {
            0 => KnownOutcome::Decisive {
                winner: Color::White,
            },
            1 => KnownOutcome::Draw,
            2 => KnownOutcome::Decisive {
                winner: Color::Black,
            },
            _ => return None,
        };
        let cell = Cell(b[4]);
        if cell.band().is_none() || cell.speed().is_none() || b[6..] != [0, 0] {
            return None;
        }
        Some(GameFacts {
            year: u16::from_le_bytes([b[0], b[1]]),
            rating: u16::from_le_bytes([b[2], b[3]]),
            cell,
            outcome,
        })
    }

    /// The game's tally.
    fn tally(&self) -> Tally {
        Tally::of_game(self.outcome, (self.rating > 0).then_some(self.rating))
    }

    /// Whether `r` counts exactly this one game, game `r.best.game`: then the segment
    /// keeps only its key, partition, move and game.
    pub fn is_record_of(&self, r: &ExplorerRecord) -> bool {
        r.tally == self.tally()
            && r.year == self.year
            && r.cell == self.cell
            && r.best.rating == self.rating
    }

    /// The record of this one game (game number `game`) at `key`.
    pub fn record(
        &self,
        key: u64,
        partition: Partition,
        raw_move: RawMove,
        game: u64,
    ) -> ExplorerRecord {
        ExplorerRecord {
            key,
            partition,
            raw_move,
            cell: self.cell,
            year: self.year,
            tally: self.tally(),
            best: BestGame {
                rating: self.rating,
                game,
            },
        }
    }
}

/// Where the parts of a segment's table of games are, and reading them with their
/// checksums checked (errors are the reason, for the segment to name its file).
#[derive(Debug, Clone, Copy)]
pub(super) struct TableLayout {
    games: u64,
    facts: u64,
    facts_crc: u64,
    offsets: u64,
    lines_crc: u64,
    text: u64,
}

impl TableLayout {
    /// The table of `games` games starting at byte `at`; `None` when it cannot fit in
    /// a file.
    pub fn new(at: u64, games: u64) -> Option<TableLayout> {
        let facts_crc = at.checked_add(games.checked_mul(GameFacts::BYTES as u64)?)?;
        let offsets = facts_crc.checked_add(pages(games, FACTS_PAGE).checked_mul(CRC_BYTES)?)?;
        let lines_crc = offsets.checked_add(games.checked_add(1)?.checked_mul(8)?)?;
        let text = lines_crc.checked_add(pages(games, LINES_PAGE).checked_mul(CRC_BYTES)?)?;
        Some(TableLayout {
            games,
            facts: at,
            facts_crc,
            offsets,
            lines_crc,
            text,
        })
    }

    /// Where the text starts: the table ends at the text's start plus its last
    /// offset.
    pub fn text_start(&self) -> u64 {
        self.text
    }

    /// The table's end in `bytes` (the text's end), when its last offset can be read.
    pub fn end(&self, bytes: &[u8]) -> Option<u64> {
        self.text
            .checked_add(read_u64(bytes, self.offsets + 8 * self.games)?)
    }

    /// `bytes[range]` after checking it against the checksum at `crc_at`.
    fn checked(
        bytes: &[u8],
        range: Range<u64>,
        crc_at: u64,
        what: impl Fn() -> String,
    ) -> Result<&[u8], String> {
        let (Some(piece), Some(stored)) = (slice(bytes, range), read_u32(bytes, crc_at)) else {
            return Err(format!("{} is past the end", what()));
        };
        let found = crc(piece);
        if found != stored {
            return Err(mismatch(&what(), stored, found));
        }
        Ok(piece)
    }

    /// The facts of the games of page `page`, checked.
    fn facts_page<'b>(&self, bytes: &'b [u8], page: u64) -> Result<&'b [u8], String> {
        let games = page_entries(page, FACTS_PAGE, self.games);
        let size = GameFacts::BYTES as u64;
        let range = self.facts + size * games.start..self.facts + size * games.end;
        Self::checked(bytes, range, self.facts_crc + CRC_BYTES * page, || {
            format!("the facts of games {} to {}", games.start, games.end)
        })
    }

    /// Game `n`'s facts.
    pub fn facts(&self, bytes: &[u8], n: u64) -> Result<GameFacts, String> {
        if n >= self.games {
            return Err(format!("game {n} is past the table's {} games", self.games));
        }
        let page = self.facts_page(bytes, n / FACTS_PAGE)?;
        let at = GameFacts::BYTES * (n % FACTS_PAGE) as usize;
        page.get(at..at + GameFacts::BYTES)
            .and_then(|b| GameFacts::from_bytes(b.try_into().ok()?))
            .ok_or_else(|| format!("game {n}: its facts cannot be read"))
    }

    /// The lines of the games of page `page` with the offsets that cut them (from the
    /// page's first game's start), checked.
    fn lines_page<'b>(&self, bytes: &'b [u8], page: u64) -> Result<(u64, &'b [u8]), String> {
        let games = page_entries(page, LINES_PAGE, self.games);
        let what = || format!("the lines of games {} to {}", games.start, games.end);
        let bounds = self.offsets + 8 * games.start..self.offsets + 8 * (games.end + 1);
        let stored = read_u32(bytes, self.lines_crc + CRC_BYTES * page);
        let (Some(bound_bytes), Some(stored), Some(first), Some(last)) = (
            slice(bytes, bounds),
            stored,
            read_u64(bytes, self.offsets + 8 * games.start),
            read_u64(bytes, self.offsets + 8 * games.end),
        ) else {
            return Err(format!("{} are past the end", what()));
        };
        let text = first
            .checked_add(self.text)
            .zip(last.checked_add(self.text))
            .and_then(|(start, end)| slice(bytes, start..end))
            .ok_or_else(|| format!("{} are past the end", what()))?;
        let found = crc_append(crc(bound_bytes), text);
        if found != stored {
            return Err(mismatch(&what(), stored, found));
        }
        Ok((first, text))
    }

    /// Game `n` of the table.
    pub fn entry(&self, bytes: &[u8], n: u64) -> Result<GameEntry, String> {
        let facts = self.facts(bytes, n)?;
        let (first, text) = self.lines_page(bytes, n / LINES_PAGE)?;
        let (Some(start), Some(end)) = (
            read_u64(bytes, self.offsets + 8 * n),
            read_u64(bytes, self.offsets + 8 * (n + 1)),
        ) else {
            return Err(format!("game {n}: the table is cut short"));
        };
        start
            .checked_sub(first)
            .zip(end.checked_sub(first))
            .and_then(|(start, end)| slice(text, start..end))
            .and_then(|b| std::str::from_utf8(b).ok())
            .and_then(|line| GameEntry::from_parts(facts, line))
            .ok_or_else(|| format!("game {n}: its line cannot be read"))
    }

    /// Checks every checksum of the table.
    pub fn verify(&self, bytes: &[u8]) -> Result<(), String> {
        for page in 0..pages(self.games, FACTS_PAGE) {
            self.facts_page(bytes, page)?;
        }
        for page in 0..pages(self.games, LINES_PAGE) {
            self.lines_page(bytes, page)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::explorer::{RatingBand, Speed};
    use crate::book::polyglot::RunRecord;

    fn entry(result: &str, year: Option<u16>, rating: Option<u16>) -> GameEntry {
        let outcome = match result {
            "1-0" => KnownOutcome::Decisive {
                winner: Color::White,
            },
            "0-1" => KnownOutcome::Decisive {
                winner: Color::Black,
            },
            _ => KnownOutcome::Draw,
        };
        GameEntry {
            white: "Carlsen,\tMagnus".to_owned(),
            black: "Nepo".to_owned(),
            outcome,
            year,
            rating,
            cell: Cell::new(RatingBand::from_mean(2700), Speed::Classical),
            source: 2,
            number: 77,
        }
    }

    #[test]
    fn an_entry_comes_back_from_its_facts_and_line() {
        for e in [
            entry("1-0", Some(2021), Some(2780)),
            entry("0-1", None, None),
            entry("1/2-1/2", Some(1851), None),
        ] {
            let facts = e.facts();
            let back = GameFacts::from_bytes(facts.to_bytes()).unwrap();
            assert_eq!(back, facts);
            let got = GameEntry::from_parts(back, &e.to_line()).unwrap();
            assert_eq!(got.white, "Carlsen, Magnus");
            assert_eq!(got.result(), e.result());
            assert_eq!(
                GameEntry {
                    white: e.white.clone(),
                    ..got
                },
                e
            );
        }
        let facts = entry("1-0", None, None).facts();
        assert!(GameEntry::from_parts(facts, "a\tb\t1").is_none());
        assert!(GameEntry::from_parts(facts, "a\tb\t1\t2\t3").is_none());
        assert!(GameEntry::from_parts(facts, "a\tb\tx\t2").is_none());
    }

    #[test]
    fn damaged_facts_are_refused() {
        let good = entry("1-0", Some(2000), Some(1500)).facts().to_bytes();
        for (at, byte) in [(4, 255), (5, 3), (6, 1), (7, 9)] {
            let mut bad = good;
            bad[at] = byte;
            assert!(GameFacts::from_bytes(bad).is_none(), "byte {at} = {byte}");
        }
    }

    #[test]
    fn only_a_records_own_game_is_compact() {
        let e = entry("0-1", Some(2019), Some(2410));
        let facts = e.facts();
        let r = facts.record(42, Partition::ALL, RawMove(796), 5);
        assert!(facts.is_record_of(&r));
        assert_eq!(r.tally.games(), 1);
        assert_eq!(r.tally.rating_sum, 2410);
        let mut two = r;
        RunRecord::absorb(&mut two, &r);
        assert!(!facts.is_record_of(&two));
        for changed in [
            ExplorerRecord { year: 2018, ..r },
            ExplorerRecord { cell: Cell(0), ..r },
            ExplorerRecord {
                best: BestGame { rating: 0, game: 5 },
                ..r
            },
        ] {
            assert!(!facts.is_record_of(&changed));
        }
    }
}
