//! The bytes of the current game, kept while pgn-reader reads it, so that the tokens the
//! reader skips can be found afterwards (see `scan`).
//!
//! [`Tee`] passes the input to the reader and copies it into a [`Capture`], which
//! forgets everything before the current game. A game longer than [`CAPTURE_LIMIT`] is
//! checked only in its first part: its middle is dropped, and the most recent bytes,
//! which hold the start of the next game, are kept.

use std::cell::RefCell;
use std::io::{self, Read};
use std::rc::Rc;

/// How much of one game's text is kept to look for tokens the reader skipped. A longer
/// game is checked only in its first part.
const CAPTURE_LIMIT: usize = 8 << 20;

/// Keeps the bytes from the start of the current game, so that tokens the reader
/// skipped can be found. When a game grows beyond [`CAPTURE_LIMIT`], its middle is
/// dropped and only the most recent bytes are kept, which hold the start of the next
/// game (the reader reads ahead by at most its buffer).
#[derive(Debug, Default)]
pub(super) struct Capture {
    buf: Vec<u8>,
    /// The index in `buf` of the current game's first byte.
    head: usize,
    /// The file offset of `buf[head]`.
    base: u64,
    /// Bytes read from the input so far.
    pub(super) total: u64,
    /// File offsets `[from, to)` that were dropped.
    gap: Option<(u64, u64)>,
    /// Whether the input failed.
    pub(super) failed: bool,
}

/// What is kept behind the reading position when a long game's middle is dropped;
/// more than pgn-reader's read-ahead (16 KiB).
const CAPTURE_KEEP: usize = 256 << 10;

impl Capture {
    pub(super) fn push(&mut self, data: &[u8]) {
        self.total += data.len() as u64;
        self.buf.extend_from_slice(data);
        let live = self.buf.len() - self.head;
        if live > CAPTURE_LIMIT + 2 * CAPTURE_KEEP {
            // Drop from CAPTURE_LIMIT to CAPTURE_KEEP before the end.
            let from = self.head + CAPTURE_LIMIT;
            let to = self.buf.len() - CAPTURE_KEEP;
            let dropped = (to - from) as u64;
            let abs_from = match self.gap {
                Some((f, _)) => f,
                None => self.base + CAPTURE_LIMIT as u64,
            };
            let abs_to = match self.gap {
                Some((_, t)) => t + dropped,
                None => abs_from + dropped,
            };
            self.buf.drain(from..to);
            self.gap = Some((abs_from, abs_to));
        }
    }

    /// The index in `buf` of file offset `at`, if kept.
    fn index(&self, at: u64) -> Option<usize> {
        let rel = at.checked_sub(self.base)?;
        match self.gap {
            Some((from, to)) if at >= to => {
                let rel = rel - (to - from);
                Some(self.head + usize::try_from(rel).ok()?)
            }
            Some((from, _)) if at >= from => None,
            _ => Some(self.head + usize::try_from(rel).ok()?),
        }
    }

    /// Forgets everything before file offset `at` (the start of the next game).
    pub(super) fn trim_to(&mut self, at: u64) {
        let Some(i) = self.index(at).filter(|&i| i <= self.buf.len()) else {
            // Cannot happen: the next game starts after any dropped part.
            self.buf.clear();
            self.head = 0;
            self.base = self.total;
            self.gap = None;
            return;
        };
        self.head = i;
        self.base = at;
        self.gap = None;
        if self.head > (64 << 10) && self.head * 2 > self.buf.len() {
            self.buf.drain(..self.head);
            self.head = 0;
        }
    }

    /// The kept bytes of `[start, end)`, and whether they are all of it.
    pub(super) fn slice(&self, start: u64, end: u64) -> (&[u8], bool) {
        let from = self
            .index(start)
            .unwrap_or(self.buf.len())
            .min(self.buf.len());
        match (self.gap, self.index(end)) {
            (None, Some(to)) => (&self.buf[from..to.clamp(from, self.buf.len())], true),
            (Some((gap_from, _)), _) => {
                let to = self
                    .index(gap_from.saturating_sub(1))
                    .map_or(from, |i| i + 1);
                (&self.buf[from..to.clamp(from, self.buf.len())], false)
            }
            (None, None) => (&self.buf[from..], false),
        }
    }
}

/// Passes the input to the reader and keeps a copy in the [`Capture`].
pub(super) struct Tee<R> {
    pub(super) inner: R,
    pub(super) capture: Rc<RefCell<Capture>>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.capture.borrow_mut().push(&buf[..n]);
                Ok(n)
            }
            Err(e) => {
                if e.kind() != io::ErrorKind::Interrupted {
                    self.capture.borrow_mut().failed = true;
                }
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_keeps_the_next_game_after_a_dropped_middle() {
        let mut c = Capture::default();
        let chunk = vec![b'x'; 1 << 16];
        let total = CAPTURE_LIMIT + 4 * CAPTURE_KEEP;
        while (c.total as usize) < total {
            c.push(&chunk);
        }
        let (bytes, complete) = c.slice(0, c.total - 100);
        assert!(!complete);
        assert_eq!(bytes.len(), CAPTURE_LIMIT);
        c.trim_to(c.total - 100);
        let (bytes, complete) = c.slice(c.total - 100, c.total);
        assert!(complete);
        assert_eq!(bytes.len(), 100);
    }
}
