//! The review log: one line per review, appended and never rewritten. It is the source
//! of truth; every card's state is derived from it (see [`Schedule::replay`]).
//!
//! A line holds six fields separated by tabs (shown here as `→`):
//!
//! ```text
//! 2025-03-01T09:30:00.250+01:00→white→good→4.2→fuzz→r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w
//! ```
//!
//! the time (RFC 3339 at the learner's local offset), the learner's colour, the rating,
//! the seconds the learner took, whether the interval was fuzzed (`fuzz` or `exact`),
//! and the card's key. Lines starting with `#` are comments (the file starts with
//! [`HEADER`]). This module only turns records into bytes and back; the file is
//! written by [`crate::workspace::review_store`].
//!
//! Reading is lenient and loses nothing it can keep: a last line without its newline is
//! a record torn by a crash mid-append and is dropped with a warning; a malformed line
//! elsewhere is reported with its line number and skipped; every other record is kept.
//!
//! [`Schedule::replay`]: super::Schedule::replay

use std::fmt;

use shakmaty::Color;

use super::card::{CardKey, Rating};
use super::time::Timestamp;

/// The first line of a review log.
pub const HEADER: &str = "# hastings review log v1: time, colour, rating, seconds, fuzz, position";

/// One review: the learner answered a card.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewRecord {
    /// When the learner answered, at the learner's local offset.
    pub time: Timestamp,
    /// The learner's colour (the side to move in the card's position).
    pub color: Color,
    /// The grade.
    pub rating: Rating,
    /// Seconds the learner took to answer.
    pub seconds: f32,
    /// Whether the next interval was fuzzed.
    pub fuzz: bool,
    /// The card.
    pub card: CardKey,
}

impl ReviewRecord {
    /// The record as one line of the log, with its newline.
    pub fn to_line(&self) -> String {
        let color = match self.color {
            Color::White => "white",
            Color::Black => "black",
        };
        let seconds = if self.seconds.is_finite() {
            self.seconds.max(0.0)
        } else {
            0.0
        };
        format!(
            "{}\t{color}\t{}\t{seconds:.1}\t{}\t{}\n",
            self.time,
            self.rating,
            if self.fuzz { "fuzz" } else { "exact" },
            self.card
        )
    }

    /// Parses one line (without its newline).
    ///
    /// # Errors
    ///
    /// Why the line is not a record.
    pub fn from_line(line: &str) -> Result<ReviewRecord, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [time, color, rating, seconds, fuzz, card] = fields[..] else {
            return Err(format!("{} fields, expected 6", fields.len()));
        };
        let time = Timestamp::parse_rfc3339(time).map_err(|e| e.to_string())?;
        let color = match color {
            "white" => Color::White,
            "black" => Color::Black,
            _ => return Err(format!("`{color}` is not a colour")),
        };
        let rating: Rating = rating
            .parse()
            .map_err(|e: super::card::RatingError| e.to_string())?;
        let seconds: f32 = match seconds.parse() {
            Ok(s) if f32::is_finite(s) && s >= 0.0 => s,
            _ => return Err(format!("`{seconds}` is not a number of seconds")),
        };
        let fuzz = match fuzz {
            "fuzz" => true,
            "exact" => false,
            _ => return Err(format!("`{fuzz}` is neither `fuzz` nor `exact`")),
        };
        let card: CardKey = card
            .parse()
            .map_err(|e: super::card::CardKeyError| e.to_string())?;
        if card.turn() != color {
            return Err(format!(
                "the learner plays {} but {} is to move",
                color_name(color),
                color_name(card.turn())
            ));
        }
        Ok(ReviewRecord {
            time,
            color,
            rating,
            seconds,
            fuzz,
            card,
        })
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A line of the log that is not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogProblem {
    /// The 1-based line number.
    pub line: usize,
    /// Why it was skipped.
    pub reason: String,
}

impl fmt::Display for LogProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

/// What reading a log found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogRead {
    /// Every record that could be read, in file order.
    pub records: Vec<ReviewRecord>,
    /// Lines that were skipped (each counted, none silently).
    pub problems: Vec<LogProblem>,
    /// The bytes of a last line without its newline (a record torn mid-append); they
    /// are not a record.
    pub torn_tail: Option<Vec<u8>>,
    /// The length of the log up to the end of its last complete line: where the next
    /// append must start.
    pub complete_len: usize,
}

impl LogRead {
    /// Warnings for the learner: a torn last record and skipped lines.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(tail) = &self.torn_tail {
            out.push(format!(
                "the last review ({} bytes) was cut off mid-write and is dropped; {} earlier reviews are kept",
                tail.len(),
                self.records.len()
            ));
        }
        for p in &self.problems {
            out.push(format!("review log {p}: skipped"));
        }
        out
    }
}

/// Reads a log from its bytes (see the module docs for what is kept).
///
/// ```
/// use hastings::review::log::{parse, HEADER};
///
/// let text = format!("{HEADER}\n2025-03-01T09:30:00Z\twhite\tgood\t4.2\tfuzz\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w\n2025-03-01T09:31");
/// let read = parse(text.as_bytes());
/// assert_eq!(read.records.len(), 1);
/// assert!(read.torn_tail.is_some());
/// ```
pub fn parse(bytes: &[u8]) -> LogRead {
    let mut read = LogRead::default();
    let mut start = 0;
    let mut number = 0;
    while start < bytes.len() {
        number += 1;
        let Some(len) = bytes[start..].iter().position(|&b| b == b'\n') else {
            read.torn_tail = Some(bytes[start..].to_vec());
            break;
        };
        let raw = &bytes[start..start + len];
        start += len + 1;
        read.complete_len = start;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let line = match std::str::from_utf8(raw) {
            Ok(l) => l,
            Err(_) => {
                read.problems.push(LogProblem {
                    line: number,
                    reason: "not UTF-8 text".to_owned(),
                });
                continue;
            }
        };
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match ReviewRecord::from_line(line) {
            Ok(r) => read.records.push(r),
            Err(reason) => read.problems.push(LogProblem {
                line: number,
                reason,
            }),
        }
    }
    read
}

/// The bytes of a new log holding `records`: the header, then one line per record.
pub fn format(records: &[ReviewRecord]) -> Vec<u8> {
    let mut out = format!("{HEADER}\n");
    for r in records {
        out.push_str(&r.to_line());
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(minute: i64, rating: Rating) -> ReviewRecord {
        ReviewRecord {
            time: Timestamp::from_unix_ms(1_740_000_000_000 + minute * 60_000, 60),
            color: Color::Black,
            rating,
            seconds: 3.5,
            fuzz: minute % 2 == 0,
            card: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"
                .parse()
                .unwrap(),
        }
    }

    #[test]
    fn records_round_trip_through_bytes() {
        let records: Vec<_> = (0..4).map(|i| record(i, Rating::ALL[i as usize])).collect();
        let read = parse(&format(&records));
        assert_eq!(read.records, records);
        assert!(read.problems.is_empty() && read.torn_tail.is_none());
        assert_eq!(read.complete_len, format(&records).len());
    }

    #[test]
    fn every_cut_inside_the_last_record_keeps_the_complete_ones() {
        let records: Vec<_> = (0..3).map(|i| record(i, Rating::Good)).collect();
        let bytes = format(&records);
        let last_start = bytes.len() - records[2].to_line().len();
        for cut in last_start..bytes.len() {
            let read = parse(&bytes[..cut]);
            assert_eq!(read.records, records[..2], "cut at {cut}");
            assert!(read.problems.is_empty(), "cut at {cut}");
            assert_eq!(read.complete_len, last_start, "cut at {cut}");
            assert_eq!(read.torn_tail.is_some(), cut > last_start, "cut at {cut}");
        }
    }

    #[test]
    fn a_corrupt_middle_record_is_reported_with_its_line_and_the_rest_kept() {
        let records: Vec<_> = (0..3).map(|i| record(i, Rating::Hard)).collect();
        let mut text = String::from_utf8(format(&records)).unwrap();
        text = text
            .replacen("\thard\t", "\thrad\t", 2)
            .replacen("\thrad\t", "\thard\t", 1);
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(b"\x00\xff garbage\n");
        bytes.extend_from_slice(record(9, Rating::Easy).to_line().as_bytes());
        let read = parse(&bytes);
        assert_eq!(read.records.len(), 3);
        assert_eq!(read.records[2].rating, Rating::Easy);
        let lines: Vec<usize> = read.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [3, 5]);
        assert!(
            read.problems[0].reason.contains("hrad"),
            "{}",
            read.problems[0]
        );
        assert_eq!(read.warnings().len(), 2);
    }

    #[test]
    fn a_colour_that_is_not_to_move_is_a_problem() {
        let line = record(0, Rating::Good).to_line().replace("black", "white");
        assert!(ReviewRecord::from_line(line.trim_end()).is_err());
    }
}
