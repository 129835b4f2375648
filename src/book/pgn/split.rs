//! Reading one PGN file in parts, on several threads, with the report and lines that
//! reading it whole gives.
//!
//! A file is cut before a line that starts with `[` ([`last_cut`]), and each part is
//! read by [`check_part`](super::check_part) or
//! [`read_part`](super::read_part) from a fresh reader. That is
//! what reading the whole file does at that line, provided the reader would be between
//! games there: in the movetext of a game, where a line starting with `[` ends it. It
//! is not when the cut falls inside a `{` comment (which pgn-reader reads across lines)
//! or among a game's tags (blank lines between tags do not end them). [`ends_cleanly`]
//! tells these apart by the part before the cut; a file with such a cut is read whole.
//!
//! The mode is per file: in [`ImportMode::Auto`] the parts are read in order, one at a
//! time, until one decides it (the first game with moves); the rest are then read in
//! the decided mode, which is what the whole file's reader would use for them.

use super::report::{ImportError, ImportReport};
use super::{ImportMode, MAX_KEPT_ISSUES, PartCheck, PgnImport};
use crate::book::line::LineSource;

/// Whether a part that starts at a game's first line (or the file's start) ends where
/// reading the whole file would be in a game's movetext or between games: not inside a
/// `{` comment, and not with tags that the next part's first line would continue.
///
/// The part is walked by lines as pgn-reader reads them: a line that starts with `[` is
/// a tag, a line that starts with `%` is skipped, and in other lines a `;` comments out
/// the rest of the line and a `{` opens a comment that ends at the next `}`, on any
/// line. A tag line with a `{` (which opens a comment after the tag, not in its value)
/// counts as not clean: the file is then read whole, which is always right.
///
/// ```
/// use hastings::book::pgn::split::ends_cleanly;
///
/// assert!(ends_cleanly(b"[Event \"a\"]\n\n1. e4 {good} e5 *\n\n"));
/// assert!(!ends_cleanly(b"[Event \"a\"]\n\n1. e4 {a comment\n\n"));
/// assert!(!ends_cleanly(b"[Event \"a\"]\n\n"));
/// assert!(ends_cleanly(b"[Event \"a\"]\n\n1. e4 ; {\n*\n"));
/// assert!(!ends_cleanly(b"[Event \"a\"] { a comment\n\n"));
/// ```
pub fn ends_cleanly(part: &[u8]) -> bool {
    walk(part, |_| {})
}

/// The last place after the first byte of `part` (which starts at a game's first line,
/// or is the file's start) where the file may be cut for reading in parts: the start
/// of a line that begins with `[` and before which the text [`ends_cleanly`]. `None`
/// when there is none: the part must grow (or be read whole).
///
/// This is the one rule for cutting a PGN file: the parts it gives are read as the
/// whole file is.
///
/// ```
/// use hastings::book::pgn::split::last_cut;
///
/// let text = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
/// assert_eq!(last_cut(text), Some(22));
/// assert!(text[22..].starts_with(b"[Event \"b\"]"));
/// // A `[` inside a comment, even after a blank line, is no game start.
/// assert_eq!(last_cut(b"[Event \"a\"]\n\n1. e4 {see\n\n[Event \"b\"]\n} *\n"), None);
/// ```
pub fn last_cut(part: &[u8]) -> Option<usize> {
    let mut cut = None;
    walk(part, |at| {
        if at > 0 {
            cut = Some(at);
        }
    });
    cut
}

/// Walks `part` by lines as pgn-reader reads them (see [`ends_cleanly`]), calling
/// `clean_tag_line` with the start of every line that begins with `[` and before which
/// the text ends cleanly. Returns whether the whole part ends cleanly; the walk stops
/// (`false`) at a comment that is not closed or a tag line with a `{`.
fn walk(part: &[u8], mut clean_tag_line: impl FnMut(usize)) -> bool {
    let mut i = 0;
    let mut last_is_tag = false;
    while i < part.len() {
        // `i` is at a line start.
        let line_end = memchr::memchr(b'\n', &part[i..]).map_or(part.len(), |k| i + k);
        match part[i] {
            b'[' => {
                if !last_is_tag {
                    clean_tag_line(i);
                }
                // A `{` after a tag on its line opens a comment; in a tag's value it
                // does not. Rather than tell them apart, such a part is read whole.
                if memchr::memchr(b'{', &part[i..line_end]).is_some() {
                    return false;
                }
                last_is_tag = true;
                i = line_end + 1;
                continue;
            }
            b'%' => {
                i = line_end + 1;
                continue;
            }
            _ => {}
        }
        // A movetext line: up to its end, through any comments it opens.
        let mut j = i;
        let mut said = false;
        loop {
            let rest = &part[j..];
            match memchr::memchr3(b'{', b';', b'\n', rest) {
                Some(k) => {
                    said |= rest[..k].iter().any(|b| !b.is_ascii_whitespace());
                    match rest[k] {
                        b'{' => {
                            said = true;
                            match memchr::memchr(b'}', &rest[k + 1..]) {
                                Some(close) => j += k + 1 + close + 1,
                                None => return false,
                            }
                        }
                        b';' => {
                            said = true;
                            j = memchr::memchr(b'\n', &rest[k..]).map_or(part.len(), |n| j + k + n);
                        }
                        _ => {
                            j += k;
                            break;
                        }
                    }
                }
                None => {
                    said |= rest.iter().any(|b| !b.is_ascii_whitespace());
                    j = part.len();
                    break;
                }
            }
        }
        if said {
            last_is_tag = false;
        }
        i = j + 1;
    }
    !last_is_tag
}

/// Puts the reports of the parts of one file together, as reading the file whole
/// reports it: `parts` in file order, each with the byte offset it starts at; `mode`
/// the mode decided; `positions` the distinct positions of the shared set.
///
/// # Errors
///
/// [`ImportError::NoGames`] when no part had a game.
pub fn merge(
    parts: impl IntoIterator<Item = (u64, PartCheck)>,
    mode: ImportMode,
    positions: usize,
) -> Result<ImportReport, ImportError> {
    let mut out = Merged::new(mode, positions);
    for (offset, part) in parts {
        out.add(offset, part.report, part.numbers);
    }
    out.finish()
}

/// Puts the imports of the parts of one file together, lines in file order with
/// their game numbers counted from the file's start, as [`read_pgn`](super::read_pgn)
/// reads the whole: `parts` in file order, each with its byte offset, its import and
/// the game numbers it used ([`read_part`](super::read_part)).
///
/// # Errors
///
/// [`ImportError::NoGames`] when no part had a game.
pub fn merge_imports(
    parts: impl IntoIterator<Item = (u64, PgnImport, u32)>,
    mode: ImportMode,
    positions: usize,
) -> Result<PgnImport, ImportError> {
    let mut out = Merged::new(mode, positions);
    let mut lines = Vec::new();
    for (offset, import, numbers) in parts {
        let before = out.numbers;
        lines.extend(import.lines.into_iter().map(|mut line| {
            if let LineSource::Pgn { game, .. } = &mut line.source {
                *game = game.saturating_add(before);
            }
            line
        }));
        out.add(offset, import.report, numbers);
    }
    Ok(PgnImport {
        lines,
        report: out.finish()?,
    })
}

/// Reports being put together.
struct Merged {
    report: ImportReport,
    /// Game numbers used by the parts so far.
    numbers: u32,
}

impl Merged {
    fn new(mode: ImportMode, positions: usize) -> Merged {
        Merged {
            report: ImportReport {
                mode,
                positions,
                ..ImportReport::default()
            },
            numbers: 0,
        }
    }

    fn add(&mut self, offset: u64, report: ImportReport, numbers: u32) {
        let out = &mut self.report;
        out.games += report.games;
        out.imported += report.imported;
        out.without_moves += report.without_moves;
        out.lines += report.lines;
        out.issue_count += report.issue_count;
        let room = MAX_KEPT_ISSUES.saturating_sub(out.issues.len());
        let before = self.numbers;
        out.issues
            .extend(report.issues.into_iter().take(room).map(|mut issue| {
                issue.game = issue.game.saturating_add(before);
                issue.offset += offset;
                issue
            }));
        self.numbers = self.numbers.saturating_add(numbers);
    }

    fn finish(self) -> Result<ImportReport, ImportError> {
        if self.report.games == 0 {
            return Err(ImportError::NoGames {
                issues: self.report.issues,
            });
        }
        Ok(self.report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_inside_comments_or_tags_are_told_apart() {
        let clean: [&[u8]; 6] = [
            b"",
            b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 e5 1-0\n\n",
            b"[Event \"a\"]\r\n\r\n1. e4 {a\n\n[Event \"b\"]\n} e5 *\r\n\r\n",
            b"[Event \"a\"]\n\n1. e4 e5\n%{ escaped\n",
            b"[Event \"a\"]\n\n1. e4 ; {\n",
            b"junk without tags\n\n",
        ];
        for part in clean {
            assert!(ends_cleanly(part), "{}", String::from_utf8_lossy(part));
        }
        let broken: [&[u8]; 7] = [
            b"[Event \"a\"]\n\n1. e4 {a\n\n",
            b"[Event \"a\"]\n\n{",
            b"[Event \"a\"]\n[Site \"b\"]\n\n",
            b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n  \n",
            b"[Event \"a\"]\n\n1. e4 { } e5 {\n}{\n",
            b"[Event \"a\"] {\n\n",
            b"[Annotator \"{x}\"]\n\n1. e4 *\n",
        ];
        for part in broken {
            assert!(!ends_cleanly(part), "{}", String::from_utf8_lossy(part));
        }
    }

    #[test]
    fn a_game_starts_at_a_tag_after_a_blank_line() {
        let text =
            b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 { [%clk 0:01] } *\n\n[Event \"c\"]\n\n1. d4 *\n";
        let start = last_cut(text).unwrap();
        assert!(text[start..].starts_with(b"[Event \"c\"]"));
        assert_eq!(last_cut(&text[..start]), None);
        let crlf = b"1. e4 *\r\n\r\n[White \"x\"]\r\n\r\n1. d4 *\r\n";
        assert!(crlf[last_cut(crlf).unwrap()..].starts_with(b"[White"));
        let no_blank = b"1. e4 1-0\n[Event \"x\"]\n1. d4 1-0\n";
        assert!(no_blank[last_cut(no_blank).unwrap()..].starts_with(b"[Event"));
    }

    #[test]
    fn cuts_fall_only_where_the_whole_file_is_between_games() {
        // A `[` line after a blank line inside a comment, and tags split by a blank
        // line: neither is a place to cut.
        let text = b"[Event \"a\"]\n\n1. e4 {a note\n\n[Event \"not a tag\"]\n} e5 *\n\n\
                     [Event \"b\"]\n\n[Site \"still b\"]\n\n1. d4 *\n";
        let cut = last_cut(text).unwrap();
        assert!(text[cut..].starts_with(b"[Event \"b\"]"), "{cut}");
        assert!(ends_cleanly(&text[..cut]));
        // Before that, the only `[` lines are inside the comment or the first tag.
        assert_eq!(last_cut(&text[..cut]), None);
        // A cut after a tag line with a `{` is never taken.
        let braces =
            b"[Event \"a\"]\n\n1. e4 *\n\n[Annotator \"{x}\"]\n\n1. d4 *\n\n[Event \"c\"]\n";
        let cut = last_cut(braces).unwrap();
        assert!(braces[cut..].starts_with(b"[Annotator"));
    }
}
