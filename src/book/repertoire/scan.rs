//! A PGN file cut into games, and one game's text into tokens, with the rules of
//! pgn-reader's `read_tags` and `read_movetext` (`pgn-reader/src/reader.rs`), so that
//! the chapters are the games every reader of this program sees: a game's movetext
//! ends at a blank line or at a line that starts with `[` outside a comment.
//!
//! Unlike pgn-reader, nothing is skipped in silence: a token that is no move, NAG,
//! comment, parenthesis, move number or result is an error, which keeps its chapter
//! from being edited (it is kept as written). A move token is read as python-chess
//! reads it ([`movelist::parse_token`]: SAN, UCI, long algebraic). A `;` comment
//! becomes a comment like a `{…}` one.

use std::ops::Range;

use shakmaty::san::San;

use crate::book::movelist;
use crate::book::pgn::is_token_end;

/// One token of a game's movetext.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Token {
    /// A move, with the text it was written as.
    Move(San, String),
    /// A NAG (`$14`, or a glyph such as `!?`).
    Nag(u8),
    /// A comment's text, trimmed.
    Comment(String),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// A result: `1-0`, `0-1`, `1/2-1/2`, `*`.
    Result(String),
}

/// A token that cannot be read, and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ScanError {
    /// Byte offset in the game's text.
    pub offset: usize,
    /// The token (at most 40 characters).
    pub token: String,
    /// Why.
    pub reason: &'static str,
}

/// A game's tags and movetext tokens, or the first error.
#[derive(Debug, Clone, Default)]
pub(super) struct Scanned {
    /// The tags, values unescaped, in order.
    pub tags: Vec<(String, String)>,
    /// The movetext's tokens.
    pub tokens: Vec<Token>,
    /// The first token that could not be read.
    pub error: Option<ScanError>,
}

/// Where the games of `bytes` are: the end of the text before the first game (a byte
/// order mark, whitespace, `%` lines), and each game's span, which runs up to the next
/// game's first byte (the whitespace between games belongs to the game before).
pub(super) fn split(bytes: &[u8]) -> (usize, Vec<Range<usize>>) {
    let mut i = if bytes.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    };
    i = skip_whitespace(bytes, i, true);
    let preamble = i;
    let mut spans = Vec::new();
    while i < bytes.len() {
        let start = i;
        let mut scanner = Scanner::new(bytes, start);
        scanner.game();
        let next = skip_whitespace(bytes, scanner.i.max(start + 1), false);
        spans.push(start..next);
        i = next;
    }
    (preamble, spans)
}

/// The tags and tokens of one game's text (a span from [`split`]).
pub(super) fn scan(game: &[u8]) -> Scanned {
    let mut scanner = Scanner::new(game, 0);
    scanner.game();
    scanner.out
}

fn skip_whitespace(bytes: &[u8], mut i: usize, mut new_line: bool) -> usize {
    while let Some(&b) = bytes.get(i) {
        match b {
            b' ' | b'\t' | b'\r' => i += 1,
            b'\n' => {
                new_line = true;
                i += 1;
            }
            b'%' if new_line => {
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |k| i + k + 1);
            }
            _ => break,
        }
    }
    i
}

struct Scanner<'a> {
    bytes: &'a [u8],
    i: usize,
    base: usize,
    out: Scanned,
}

impl<'a> Scanner<'a> {
    fn new(bytes: &'a [u8], i: usize) -> Scanner<'a> {
        Scanner {
            bytes,
            i,
            base: i,
            out: Scanned::default(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    fn eat(&mut self, s: &[u8]) -> bool {
        if self.bytes[self.i.min(self.bytes.len())..].starts_with(s) {
            self.i += s.len();
            true
        } else {
            false
        }
    }

    fn eat_dash(&mut self) -> bool {
        self.eat(b"-") || self.eat("–".as_bytes()) || self.eat("—".as_bytes())
    }

    fn fail(&mut self, at: usize, reason: &'static str) {
        if self.out.error.is_none() {
            let end = (at..self.bytes.len())
                .find(|&k| is_token_end(self.bytes[k]))
                .unwrap_or(self.bytes.len())
                .max(at + 1)
                .min(self.bytes.len());
            let token: String = String::from_utf8_lossy(&self.bytes[at.min(end)..end])
                .chars()
                .take(40)
                .collect();
            self.out.error = Some(ScanError {
                offset: at - self.base,
                token,
                reason,
            });
        }
    }

    fn token_end(&self) -> usize {
        (self.i..self.bytes.len())
            .find(|&k| is_token_end(self.bytes[k]))
            .unwrap_or(self.bytes.len())
    }

    fn game(&mut self) {
        self.tags();
        self.movetext();
    }

    fn tags(&mut self) {
        while self.peek() == Some(b'[') {
            let at = self.i;
            self.i += 1;
            let rest = &self.bytes[self.i..];
            let quote = match memchr::memchr3(b'"', b'\n', b']', rest) {
                Some(k) if rest[k] == b'"' => k,
                Some(k) => {
                    self.fail(at, "a tag without a quoted value");
                    self.i += k + 1;
                    self.ket();
                    continue;
                }
                None => {
                    self.fail(at, "an unterminated tag");
                    self.i = self.bytes.len();
                    return;
                }
            };
            let name = String::from_utf8_lossy(&rest[..quote]).trim().to_owned();
            let mut value = Vec::new();
            let mut k = quote + 1;
            let consumed = loop {
                match rest.get(k) {
                    Some(b'"') => break k + 1,
                    Some(b'\n') => break k,
                    Some(b'\\') => {
                        // Only `\\` and `\"` are escapes (as pgn-reader and
                        // python-chess read them); another backslash is kept.
                        match rest.get(k + 1) {
                            Some(&c @ (b'\\' | b'"')) => value.push(c),
                            Some(&c) => value.extend_from_slice(&[b'\\', c]),
                            None => {}
                        }
                        k += 2;
                    }
                    Some(&c) => {
                        value.push(c);
                        k += 1;
                    }
                    None => {
                        self.fail(at, "an unterminated tag");
                        self.i = self.bytes.len();
                        return;
                    }
                }
            };
            if name.is_empty() {
                self.fail(at, "a tag without a name");
            }
            self.out
                .tags
                .push((name, String::from_utf8_lossy(&value).into_owned()));
            self.i += consumed;
            self.ket();
        }
    }

    /// pgn-reader's `skip_ket`: spaces, then `]` or a line break, then whitespace.
    fn ket(&mut self) {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b']' => {
                    self.i = skip_whitespace(self.bytes, self.i + 1, false);
                    return;
                }
                b'\n' => {
                    self.i = skip_whitespace(self.bytes, self.i + 1, true);
                    return;
                }
                _ => return,
            }
        }
    }

    fn movetext(&mut self) {
        while let Some(b) = self.peek() {
            let at = self.i;
            match b {
                b'{' => match memchr::memchr(b'}', &self.bytes[at + 1..]) {
                    Some(k) => {
                        let text = String::from_utf8_lossy(&self.bytes[at + 1..at + 1 + k]);
                        self.out.tokens.push(Token::Comment(text.trim().to_owned()));
                        self.i = at + k + 2;
                    }
                    None => {
                        self.fail(at, "an unterminated comment");
                        self.i = self.bytes.len();
                    }
                },
                b';' => {
                    let end = memchr::memchr(b'\n', &self.bytes[at..])
                        .map_or(self.bytes.len(), |k| at + k);
                    let text = String::from_utf8_lossy(&self.bytes[at + 1..end]);
                    self.out.tokens.push(Token::Comment(text.trim().to_owned()));
                    self.i = end;
                }
                b'\n' => {
                    self.i += 1;
                    match self.peek() {
                        Some(b'%') => {
                            self.i = memchr::memchr(b'\n', &self.bytes[self.i..])
                                .map_or(self.bytes.len(), |k| self.i + k);
                        }
                        Some(b'[' | b'\n') => return,
                        Some(b'\r') => {
                            self.i += 1;
                            if self.peek() == Some(b'\n') {
                                return;
                            }
                        }
                        _ => {}
                    }
                }
                b'0' | b'1' | b'\xc2' if self.result() => {}
                b'0'..=b'9' => {
                    while matches!(self.peek(), Some(b'0'..=b'9')) {
                        self.i += 1;
                    }
                    if !matches!(
                        self.peek(),
                        Some(b'.' | b' ' | b'\t' | b'\r' | b'\n') | None
                    ) {
                        // Not a move number: `0-0` or a move such as `1e4`.
                        self.i = at;
                        self.word();
                    }
                }
                b'(' => {
                    self.i += 1;
                    self.out.tokens.push(Token::Open);
                }
                b')' => {
                    self.i += 1;
                    self.out.tokens.push(Token::Close);
                }
                b'$' => {
                    self.i += 1;
                    let end = self.token_end();
                    match std::str::from_utf8(&self.bytes[self.i..end])
                        .ok()
                        .and_then(|s| s.parse::<u8>().ok())
                    {
                        Some(nag) => self.out.tokens.push(Token::Nag(nag)),
                        None => self.fail(at, "not a NAG"),
                    }
                    self.i = end.max(self.i);
                }
                b'!' | b'?' => {
                    self.i += 1;
                    let nag = match (b, self.peek()) {
                        (b'!', Some(b'!')) => 3,
                        (b'!', Some(b'?')) => 5,
                        (b'?', Some(b'?')) => 4,
                        (b'?', Some(b'!')) => 6,
                        (b'!', _) => 1,
                        _ => 2,
                    };
                    if nag > 2 {
                        self.i += 1;
                    }
                    self.out.tokens.push(Token::Nag(nag));
                }
                b'*' => {
                    self.i += 1;
                    self.out.tokens.push(Token::Result("*".to_owned()));
                }
                b' ' | b'\t' | b'\r' | b'.' => self.i += 1,
                _ => self.word(),
            }
        }
    }

    /// A result token at the cursor (`1-0`, `0-1`, `1/2-1/2`, `½-½`), taken if there.
    fn result(&mut self) -> bool {
        let at = self.i;
        let found = if self.eat(b"1") {
            if self.eat_dash() && self.eat(b"0") {
                Some("1-0")
            } else if self.eat(b"/2") && self.eat_dash() && self.eat(b"1/2") {
                Some("1/2-1/2")
            } else {
                None
            }
        } else if self.eat(b"0") {
            (self.eat_dash() && self.eat(b"1")).then_some("0-1")
        } else if self.eat("½".as_bytes()) {
            (self.eat_dash() && self.eat("½".as_bytes())).then_some("1/2-1/2")
        } else {
            None
        };
        match found {
            Some(r) => {
                self.out.tokens.push(Token::Result(r.to_owned()));
                true
            }
            None => {
                self.i = at;
                false
            }
        }
    }

    /// A move token up to the next token end.
    fn word(&mut self) {
        let at = self.i;
        let end = self.token_end().max(at + 1);
        let text = String::from_utf8_lossy(&self.bytes[at..end]).into_owned();
        match movelist::parse_token(&text) {
            Some(san) => self.out.tokens.push(Token::Move(san, text)),
            None => self.fail(at, "not a move"),
        }
        self.i = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_end_at_a_blank_line_or_a_tag_line_not_inside_comments() {
        let text = b"\xef\xbb\xbf\n[Event \"a\"]\n\n1. e4 {x\n\n[y]} e5 *\n\n1. d4 *\n[Event \"c\"]\n1. c4 *";
        let (pre, spans) = split(text);
        assert_eq!(pre, 4);
        assert_eq!(spans.len(), 3);
        assert!(text[spans[1].clone()].starts_with(b"1. d4"));
        assert!(text[spans[2].clone()].starts_with(b"[Event \"c\"]"));
        assert_eq!(spans[2].end, text.len());
        let first = scan(&text[spans[0].clone()]);
        assert_eq!(first.tags, [("Event".to_owned(), "a".to_owned())]);
        assert_eq!(first.tokens.len(), 4);
        assert!(first.error.is_none());
    }

    #[test]
    fn glyphs_results_numbers_and_escapes_are_tokens() {
        let s = scan(b"[White \"a \\\"b\\\"\"]\n\n1.e4!? 1... e5?? 2. O-O $14 (2. g1f3) 1/2-1/2");
        assert_eq!(s.tags[0].1, "a \"b\"");
        assert!(s.error.is_none(), "{:?}", s.error);
        let kinds: Vec<String> = s
            .tokens
            .iter()
            .map(|t| match t {
                Token::Move(_, text) => text.clone(),
                Token::Nag(n) => format!("${n}"),
                Token::Result(r) => r.clone(),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "e4", "$5", "e5", "$4", "O-O", "$14", "Open", "g1f3", "Close", "1/2-1/2"
            ]
        );
    }

    #[test]
    fn unknown_tokens_and_open_comments_are_errors_with_their_place() {
        let s = scan(b"1. e4 e5 2. Nf3 @@ *");
        let e = s.error.unwrap();
        assert_eq!((e.offset, e.token.as_str()), (16, "@@"));
        assert!(scan(b"1. e4 {open").error.is_some());
    }
}
