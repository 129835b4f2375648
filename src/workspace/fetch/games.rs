//! A stream of PGN cut into games as it arrives, without holding more than one game:
//! what a fetch writes game by game, and what it reads of a file it adds to.
//!
//! A line that starts with `[` begins a new game where the text before it
//! [`ends_cleanly`] (the book's one rule for cutting PGN: not inside a `{` comment, not
//! among a game's tags).

use std::io::{self, BufRead};

use crate::book::pgn::split::ends_cleanly;

/// One game's text and the tags a fetch reads from it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct GameText {
    /// The game as it came, tags and movetext.
    pub text: Vec<u8>,
    /// What tells this game from every other: its `[Link]` (chess.com) or its
    /// `[Site]` when that is an address (lichess); `None` when it has neither.
    pub key: Option<String>,
    /// When it was played, from `[UTCDate]` and `[UTCTime]`, in milliseconds since
    /// 1970 (UTC); `None` without them.
    pub utc_ms: Option<i64>,
    /// The year and month it ended (chess.com files a game under that month), from
    /// `[EndDate]`, else `[UTCDate]`, else `[Date]`.
    pub month: Option<(i16, i8)>,
}

/// Cuts PGN read from `reader` into games ([`PgnGames::next_game`]).
#[derive(Debug)]
pub struct PgnGames<R> {
    reader: R,
    /// The first line of the next game, read while ending this one.
    pending: Vec<u8>,
    line: Vec<u8>,
}

impl<R: BufRead> PgnGames<R> {
    /// Games read from `reader`.
    pub fn new(reader: R) -> PgnGames<R> {
        PgnGames {
            reader,
            pending: Vec::new(),
            line: Vec::new(),
        }
    }

    /// The next game, `None` at the end of the stream (text of white space only is no
    /// game).
    ///
    /// # Errors
    ///
    /// The reader's error (a connection cut in the middle of a game).
    pub fn next_game(&mut self) -> io::Result<Option<GameText>> {
        let mut text = std::mem::take(&mut self.pending);
        loop {
            self.line.clear();
            let n = self.reader.read_until(b'\n', &mut self.line)?;
            if n == 0 {
                break;
            }
            let starts_game = self.line.first() == Some(&b'[')
                && text.iter().any(|b| !b.is_ascii_whitespace())
                && ends_cleanly(&text);
            if starts_game {
                self.pending.extend_from_slice(&self.line);
                break;
            }
            text.extend_from_slice(&self.line);
        }
        if text.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        Ok(Some(GameText::from_text(text)))
    }
}

impl GameText {
    /// `text` (one game) with its tags read.
    pub fn from_text(text: Vec<u8>) -> GameText {
        let (mut site, mut link, mut utc_date, mut utc_time, mut date, mut end_date) =
            (None, None, None, None, None, None);
        for line in text.split(|&b| b == b'\n') {
            let Some((name, value)) = tag(line) else {
                continue;
            };
            let slot = match name {
                "Site" => &mut site,
                "Link" => &mut link,
                "UTCDate" => &mut utc_date,
                "UTCTime" => &mut utc_time,
                "Date" => &mut date,
                "EndDate" => &mut end_date,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(value.to_owned());
            }
        }
        let key = link
            .filter(|l| !l.is_empty())
            .or_else(|| site.filter(|s| s.contains("://")));
        let utc_ms = utc_date
            .as_deref()
            .zip(utc_time.as_deref())
            .and_then(|(d, t)| utc_millis(d, t));
        let month = [end_date, utc_date, date]
            .iter()
            .flatten()
            .find_map(|d| year_month(d));
        GameText {
            text,
            key,
            utc_ms,
            month,
        }
    }
}

/// A tag line's name and value: `[Name "Value"]` (no escapes in the values read here).
fn tag(line: &[u8]) -> Option<(&str, &str)> {
    let line = std::str::from_utf8(line).ok()?.trim();
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name, value))
}

/// `2024.01.05` and `12:34:56` (UTC) in milliseconds since 1970.
fn utc_millis(date: &str, time: &str) -> Option<i64> {
    let d: jiff::civil::Date = date.replace('.', "-").parse().ok()?;
    let t: jiff::civil::Time = time.parse().ok()?;
    let ts = d.to_datetime(t).to_zoned(jiff::tz::TimeZone::UTC).ok()?;
    Some(ts.timestamp().as_millisecond())
}

/// The year and month of `2024.01.05` (`2024.01.??` too).
fn year_month(date: &str) -> Option<(i16, i8)> {
    let mut parts = date.split('.');
    let year = parts.next()?.parse().ok()?;
    let month: i8 = parts.next()?.parse().ok()?;
    (1..=12).contains(&month).then_some((year, month))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &str) -> Vec<GameText> {
        let mut g = PgnGames::new(text.as_bytes());
        std::iter::from_fn(|| g.next_game().unwrap()).collect()
    }

    #[test]
    fn a_lichess_file_is_cut_into_its_games_with_their_sites_and_times() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/lichess_db_100k.pgn"
        ))
        .unwrap();
        let got = games(&text);
        assert_eq!(got.len(), text.matches("[Event ").count());
        let joined: Vec<u8> = got.iter().flat_map(|g| g.text.clone()).collect();
        assert_eq!(joined, text.as_bytes(), "nothing lost or added");
        assert_eq!(got[0].key.as_deref(), Some("https://lichess.org/ENPo6ReH"));
        // 2025.05.01 00:00:06 UTC.
        assert_eq!(got[0].utc_ms, Some(1_746_057_606_000));
        assert_eq!(got[0].month, Some((2025, 5)));
        assert!(got.iter().all(|g| g.key.is_some()));
    }

    #[test]
    fn a_tag_line_inside_a_comment_does_not_start_a_game() {
        let text = "[Event \"a\"]\n[Site \"Chess.com\"]\n[UTCDate \"2024.01.31\"]\n[EndDate \"2024.02.02\"]\n[Link \"https://www.chess.com/game/live/1\"]\n\n1. e4 {see\n[Event \"b\"]\n} e5 *\n\n[Event \"c\"]\n\n1. d4 *\n";
        let got = games(text);
        assert_eq!(got.len(), 2);
        assert_eq!(
            got[0].key.as_deref(),
            Some("https://www.chess.com/game/live/1"),
            "the Link, not the Site that every chess.com game has"
        );
        assert_eq!(
            got[0].month,
            Some((2024, 2)),
            "filed under the month it ended"
        );
        assert_eq!(got[1].key, None);
    }
}
