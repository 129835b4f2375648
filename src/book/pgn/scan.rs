//! Finds the tokens that pgn-reader skips without telling its visitor.
//!
//! pgn-reader drops a movetext token it cannot read (`e2-e4`, `Nf3x`, stray `}`, binary
//! junk) silently. To report such a token with its game and ply, the importer keeps the
//! bytes of the current game and walks them again here, mirroring the reader's
//! tokenizer (`pgn-reader/src/reader.rs`, `read_tags` and `read_movetext`) branch by
//! branch, and checks that every token it sees is the event the visitor recorded. If the
//! two ever disagree (a pathological tag longer than the reader's buffer, say), the walk
//! gives up without a report rather than cut the game at the wrong place.
//!
//! A skipped token that python-chess reads as a move (long algebraic `g1-f3`, a UCI
//! promotion `e7e8q`) is not a problem: the walk returns it with the event index it
//! stands at, and goes on.

use memchr::{memchr, memchr3};
use shakmaty::san::{San, SanPlus};
use shakmaty::{CastlingSide, Role};

use super::visitor::{Event, UNKNOWN_LEN};
use crate::book::movelist;

/// A token that pgn-reader skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Unknown {
    /// How many of the visitor's events come before the token.
    pub event: usize,
    /// The token as written (lossy UTF-8, at most 40 characters).
    pub token: String,
    /// Whether only whitespace follows the token in the game's bytes.
    pub last: bool,
}

/// What the walk over one game's bytes needs to know.
pub(super) struct Walk<'a> {
    /// The game's bytes, from its first tag (or first movetext byte) on.
    pub bytes: &'a [u8],
    /// Whether `bytes` holds the whole game (false when the game was longer than the
    /// capture limit).
    pub complete: bool,
    /// The events the visitor recorded.
    pub events: &'a [Event],
    /// Whether the visitor stopped the reader early (ply limit): events after the last
    /// recorded one are not checked.
    pub stopped: bool,
    /// Whether the visitor skipped variations (games mode).
    pub skip_variations: bool,
}

const MAX_TOKEN_CHARS: usize = 40;

/// What the reader skipped in one game.
#[derive(Debug, Default)]
pub(super) struct Rescan {
    /// Moves python-chess reads, with the index of the event each stands before.
    pub moves: Vec<(usize, San)>,
    /// The first token that is no move, if any.
    pub unknown: Option<Unknown>,
}

/// The tokens of the game that the reader skipped: moves in other notations, and the
/// first unknown token.
pub(super) fn rescan(walk: &Walk<'_>) -> Rescan {
    let mut s = Scanner {
        data: walk.bytes,
        i: 0,
        events: walk.events,
        seen: 0,
        misaligned: false,
        complete: walk.complete,
        moves: Vec::new(),
    };
    s.skip_tags();
    let found = s.movetext(walk.skip_variations, walk.stopped);
    if s.misaligned {
        return Rescan::default();
    }
    let unknown = found.and_then(|(start, end)| {
        // A token cut by the end of the capture proves nothing.
        if !walk.complete && end >= s.data.len() {
            return None;
        }
        let token = String::from_utf8_lossy(&s.data[start..end]);
        Some(Unknown {
            event: s.seen,
            token: token.chars().take(MAX_TOKEN_CHARS).collect(),
            last: walk.complete && s.data[end..].iter().all(u8::is_ascii_whitespace),
        })
    });
    Rescan {
        moves: s.moves,
        unknown,
    }
}

struct Scanner<'a> {
    data: &'a [u8],
    i: usize,
    events: &'a [Event],
    /// Events matched so far.
    seen: usize,
    misaligned: bool,
    /// Whether `data` is the whole game.
    complete: bool,
    /// Skipped tokens that are moves, with the event index they stand at.
    moves: Vec<(usize, San)>,
}

#[derive(Clone, Copy)]
enum Kind {
    San(shakmaty::san::San),
    Nag(u8),
    Comment,
    Begin,
    End,
    Outcome,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.data.get(self.i).copied()
    }

    fn rest(&self) -> &[u8] {
        &self.data[self.i.min(self.data.len())..]
    }

    fn bump(&mut self) {
        self.i += 1;
    }

    fn eat(&mut self, bytes: &[u8]) -> bool {
        if self.rest().starts_with(bytes) {
            self.i += bytes.len();
            true
        } else {
            false
        }
    }

    fn eat_dash(&mut self) -> bool {
        self.eat(b"-") || self.eat("–".as_bytes()) || self.eat("—".as_bytes())
    }

    /// Moves to the next `needle` (not consumed), or to the end.
    fn skip_until(&mut self, needle: u8) {
        self.i = match memchr(needle, self.rest()) {
            Some(k) => self.i + k,
            None => self.data.len(),
        };
    }

    /// Moves past the next `needle`, or to the end.
    fn skip_until_after(&mut self, needle: u8) {
        self.skip_until(needle);
        if self.i < self.data.len() {
            self.i += 1;
        }
    }

    fn skip_token(&mut self) {
        self.i = match self.rest().iter().position(|&b| is_token_end(b)) {
            Some(k) => self.i + k,
            None => self.data.len(),
        };
    }

    fn skip_whitespace(&mut self, mut new_line: bool) {
        while let Some(ch) = self.peek() {
            match ch {
                b' ' | b'\t' | b'\r' => self.bump(),
                b'\n' => {
                    new_line = true;
                    self.bump();
                }
                b'%' if new_line => {
                    self.bump();
                    self.skip_until_after(b'\n');
                }
                _ => return,
            }
        }
    }

    fn skip_ket(&mut self) {
        while let Some(ch) = self.peek() {
            match ch {
                b' ' | b'\t' | b'\r' => self.bump(),
                b']' => {
                    self.bump();
                    return self.skip_whitespace(false);
                }
                b'\n' => {
                    self.bump();
                    return self.skip_whitespace(true);
                }
                _ => return,
            }
        }
    }

    /// `read_tags`: the game's bytes start after the whitespace before the game.
    fn skip_tags(&mut self) {
        while self.peek() == Some(b'[') {
            self.bump();
            let rest = self.rest();
            let Some(k) = memchr3(b'"', b'\n', b']', rest) else {
                self.i = self.data.len();
                return;
            };
            if rest[k] != b'"' {
                self.i += k + 1;
                self.skip_ket();
                continue;
            }
            let mut j = self.i + k + 1;
            loop {
                match memchr3(b'\\', b'"', b'\n', &self.data[j.min(self.data.len())..]) {
                    Some(d) if self.data[j + d] == b'"' => {
                        self.i = j + d + 1;
                        break;
                    }
                    Some(d) if self.data[j + d] == b'\n' => {
                        self.i = j + d;
                        break;
                    }
                    Some(d) => j = (j + d + 2).min(self.data.len()),
                    None => {
                        self.i = self.data.len();
                        return;
                    }
                }
            }
            self.skip_ket();
        }
    }

    /// Matches one token against the next recorded event. Returns false when the walk
    /// must stop: all recorded events are matched and the reader was stopped, or the
    /// walk disagrees with the recording.
    fn event(&mut self, kind: Kind, stopped: bool) -> bool {
        let Some(recorded) = self.events.get(self.seen) else {
            // More tokens than events: fine after a stop, a disagreement otherwise.
            self.misaligned = !stopped;
            return false;
        };
        let same = match (kind, recorded) {
            (Kind::San(a), Event::San(b)) => a == *b,
            (Kind::Nag(a), Event::Nag(b)) => a == *b,
            (Kind::Comment, Event::Comment(..))
            | (Kind::Begin, Event::Begin)
            | (Kind::End, Event::End)
            | (Kind::Outcome, Event::Outcome) => true,
            _ => false,
        };
        if !same {
            self.misaligned = true;
            return false;
        }
        self.seen += 1;
        if stopped && self.seen == self.events.len() {
            return false;
        }
        true
    }

    /// `skip_variation`: after a `(` that the visitor asked to skip.
    fn skip_variation(&mut self) {
        let mut depth = 0usize;
        while let Some(ch) = self.peek() {
            match ch {
                b'(' => {
                    self.bump();
                    depth += 1;
                }
                b')' => match depth.checked_sub(1) {
                    Some(d) => {
                        self.bump();
                        depth = d;
                    }
                    None => break,
                },
                b'{' => {
                    self.bump();
                    self.skip_until_after(b'}');
                }
                b';' => {
                    self.bump();
                    self.skip_until(b'\n');
                }
                b'\n' => match self.data.get(self.i + 1).copied() {
                    Some(b'%') => {
                        self.i += 2;
                        self.skip_until(b'\n');
                    }
                    Some(b'[' | b'\n') => break,
                    Some(b'\r') if self.data.get(self.i + 2).copied() == Some(b'\n') => break,
                    _ => self.bump(),
                },
                _ => self.bump(),
            }
        }
    }

    /// `read_movetext`. Returns the byte range of the first skipped token.
    fn movetext(&mut self, skip_variations: bool, stopped: bool) -> Option<(usize, usize)> {
        if stopped && self.events.is_empty() {
            return None;
        }
        while let Some(ch) = self.peek() {
            let kind = match ch {
                b'{' => {
                    self.bump();
                    // The comment the visitor recorded next, whose length it kept: no
                    // search for its end (a lichess file is mostly clock comments).
                    if let Some(&Event::Comment(_, len)) = self.events.get(self.seen)
                        && len != UNKNOWN_LEN
                        && self.data.get(self.i + len as usize) == Some(&b'}')
                    {
                        self.i += len as usize + 1;
                        self.seen += 1;
                        if stopped && self.seen == self.events.len() {
                            return None;
                        }
                        continue;
                    }
                    match memchr(b'}', self.rest()) {
                        Some(k) => {
                            self.i += k + 1;
                            Some(Kind::Comment)
                        }
                        // Unterminated: the reader reports an error for it.
                        None => return None,
                    }
                }
                b'\n' => {
                    self.bump();
                    match self.peek() {
                        Some(b'%') => {
                            self.bump();
                            self.skip_until(b'\n');
                        }
                        Some(b'[' | b'\n') => break,
                        Some(b'\r') => {
                            self.bump();
                            if self.peek() == Some(b'\n') {
                                break;
                            }
                        }
                        _ => {}
                    }
                    None
                }
                b';' => {
                    self.bump();
                    self.skip_until(b'\n');
                    None
                }
                b'0' => {
                    self.bump();
                    let mut kind = None;
                    if self.eat_dash() {
                        if self.eat(b"1") {
                            kind = Some(Kind::Outcome);
                        } else if self.eat(b"0") {
                            let side = if self.eat_dash() && self.eat(b"0") {
                                shakmaty::CastlingSide::QueenSide
                            } else {
                                shakmaty::CastlingSide::KingSide
                            };
                            if matches!(self.peek(), Some(b'+' | b'#')) {
                                self.bump();
                            }
                            kind = Some(Kind::San(shakmaty::san::San::Castle(side)));
                        }
                    }
                    kind
                }
                b'1' => {
                    self.bump();
                    if self.eat_dash() {
                        self.eat(b"0").then_some(Kind::Outcome)
                    } else if self.eat(b"/2") && self.eat_dash() && self.eat(b"1/2") {
                        Some(Kind::Outcome)
                    } else {
                        self.skip_move_number();
                        None
                    }
                }
                b'\xc2' => {
                    self.bump();
                    (self.eat(b"\xbd") && self.eat_dash() && self.eat("½".as_bytes()))
                        .then_some(Kind::Outcome)
                }
                b'2'..=b'9' => {
                    self.bump();
                    self.skip_move_number();
                    None
                }
                b'(' => {
                    self.bump();
                    if !self.event(Kind::Begin, stopped) {
                        return None;
                    }
                    if skip_variations {
                        self.skip_variation();
                    }
                    continue;
                }
                b')' => {
                    self.bump();
                    Some(Kind::End)
                }
                b'$' => {
                    self.bump();
                    match self.rest().iter().position(|&b| is_token_end(b)) {
                        Some(end) => {
                            let nag = parse_nag(&self.rest()[..end]);
                            self.i += end;
                            nag.map(Kind::Nag)
                        }
                        None => {
                            self.i = self.data.len();
                            None
                        }
                    }
                }
                b'!' | b'?' => {
                    // `!` `?` `!!` `??` `!?` `?!`: NAGs 1 to 6, as the reader reads them.
                    self.bump();
                    let nag = match (ch, self.peek()) {
                        (b'!', Some(b'!')) => 3,
                        (b'?', Some(b'?')) => 4,
                        (b'!', Some(b'?')) => 5,
                        (b'?', Some(b'!')) => 6,
                        (b'!', _) => 1,
                        _ => 2,
                    };
                    if nag > 2 {
                        self.bump();
                    }
                    Some(Kind::Nag(nag))
                }
                b'*' => {
                    self.bump();
                    Some(Kind::Outcome)
                }
                b' ' | b'\t' | b'\r' | b'.' => {
                    self.bump();
                    None
                }
                _ => {
                    let start = self.i;
                    if let Some(Event::San(expected)) = self.events.get(self.seen)
                        && let Some(n) = written_as(self.rest(), *expected)
                    {
                        // The move the visitor recorded next, as SAN writes it.
                        self.i += n;
                        self.seen += 1;
                        if stopped && self.seen == self.events.len() {
                            return None;
                        }
                        continue;
                    } else if let Ok((san, n)) = SanPlus::from_ascii_prefix(self.rest()) {
                        self.i += n;
                        if self.peek().is_none_or(is_token_end) {
                            Some(Kind::San(san.san))
                        } else {
                            self.skip_token();
                            if let Some(token) = self.skipped(start) {
                                return Some(token);
                            }
                            None
                        }
                    } else {
                        self.bump();
                        self.skip_token();
                        if let Some(token) = self.skipped(start) {
                            return Some(token);
                        }
                        None
                    }
                }
            };
            if let Some(kind) = kind
                && !self.event(kind, stopped)
            {
                return None;
            }
        }
        if self.seen != self.events.len() {
            // The walk found fewer tokens than the visitor saw.
            self.misaligned = true;
        }
        None
    }

    /// A token from `start` to here that the reader skipped: kept as a move when
    /// python-chess reads it as one, else returned as the unknown token's range.
    fn skipped(&mut self, start: usize) -> Option<(usize, usize)> {
        let end = self.i.max(start + 1).min(self.data.len());
        let cut = !self.complete && end >= self.data.len();
        match movelist::parse_long(&self.data[start..end]) {
            Some(san) if !cut => {
                self.moves.push((self.seen, san));
                None
            }
            _ => Some((start, end)),
        }
    }

    fn skip_move_number(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.bump();
        }
        while matches!(self.peek(), Some(b'.' | b' ')) {
            self.bump();
        }
    }
}

/// `$12` → 12, like `btoi::btou::<u8>`: digits only, at most 255.
fn parse_nag(digits: &[u8]) -> Option<u8> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u8, |acc, &d| {
        if d.is_ascii_digit() {
            acc.checked_mul(10)?.checked_add(d - b'0')
        } else {
            None
        }
    })
}

/// The length of the token at the start of `bytes` if it is `san` as SAN writes it
/// (`Nbd2`, `exd5`, `e8=Q`, `O-O`), with a `+` or `#` or not; `None` when it is written
/// otherwise (the token is then read in full). A token written so is read by pgn-reader
/// as `san`, so matching the recorded move this way, without parsing the token, finds
/// what parsing would find.
fn written_as(bytes: &[u8], san: San) -> Option<usize> {
    let mut rest = bytes.iter();
    let mut take = |b: u8| rest.next() == Some(&b);
    let written = match san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            (role == Role::Pawn || take(role.upper_char() as u8))
                && file.is_none_or(|f| take(f.char() as u8))
                && rank.is_none_or(|r| take(r.char() as u8))
                && (!capture || take(b'x'))
                && take(to.file().char() as u8)
                && take(to.rank().char() as u8)
                && promotion.is_none_or(|p| take(b'=') && take(p.upper_char() as u8))
        }
        San::Castle(side) => {
            take(b'O')
                && take(b'-')
                && take(b'O')
                && (side == CastlingSide::KingSide || (take(b'-') && take(b'O')))
        }
        San::Put { .. } | San::Null => false,
    };
    if !written {
        return None;
    }
    let mut len = bytes.len() - rest.as_slice().len();
    if matches!(bytes.get(len), Some(b'+' | b'#')) {
        len += 1;
    }
    bytes
        .get(len)
        .is_none_or(|&b| is_token_end(b))
        .then_some(len)
}

/// The reader's token boundaries (`is_token_end` in pgn-reader).
pub(crate) fn is_token_end(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'!'
            | b'?'
            | b'$'
            | b';'
            | b'.'
            | b'*'
    )
}

#[cfg(test)]
mod tests;
