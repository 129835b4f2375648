//! Cutting PGN files into chunks of whole games, so that threads can read them apart.
//!
//! Where a chunk may end is the book's rule ([`last_cut`]): before a line that starts
//! with `[` where reading the whole file would be between games, never inside a
//! comment or a game's tags.

use std::io::{self, Read};

use crate::book::pgn::split::last_cut;

/// A chunk that finds no game start grows up to this size before it is cut anyway (a
/// single game this long is cut, and its rest read as a broken game).
pub(crate) const MAX_CHUNK_GROWTH: usize = 64 << 20;

/// A piece of one input file, starting at a game's first line (or the file's start)
/// and ending before another game's first line (or at the file's end).
#[derive(Debug)]
pub(crate) struct Chunk {
    /// The index of the input file.
    pub file: usize,
    /// The chunk's number across all files, in reading order.
    pub seq: usize,
    /// The text.
    pub bytes: Vec<u8>,
}

/// Reads `input` in chunks of about `chunk_bytes`, each cut at a game start
/// ([`last_cut`]; a chunk that finds none grows, up to [`MAX_CHUNK_GROWTH`]), and hands
/// each to `send` (which returns `false` to stop early). A chunk is read into a buffer
/// from `spare` when it has one (buffers handed back after use, so that the memory is
/// not given back to the system and asked for again, chunk after chunk). Returns the
/// bytes read.
pub(crate) fn read_chunks(
    mut input: impl Read,
    chunk_bytes: usize,
    mut spare: impl FnMut() -> Option<Vec<u8>>,
    mut send: impl FnMut(Vec<u8>) -> bool,
) -> io::Result<u64> {
    let mut total = 0u64;
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let mut buf = spare().unwrap_or_default();
        buf.clear();
        buf.extend_from_slice(&carry);
        carry.clear();
        // A chunk without a game start doubles, so a long game is scanned a few times only.
        let want = chunk_bytes
            .saturating_sub(buf.len())
            .max(buf.len())
            .max(4096);
        buf.reserve(want);
        let got = input.by_ref().take(want as u64).read_to_end(&mut buf)?;
        total += got as u64;
        if got < want {
            // The end of the input.
            if !buf.is_empty() {
                send(buf);
            }
            return Ok(total);
        }
        match last_cut(&buf) {
            Some(cut) => {
                carry.extend_from_slice(&buf[cut..]);
                buf.truncate(cut);
            }
            None if buf.len() < MAX_CHUNK_GROWTH => {
                carry = buf;
                continue;
            }
            None => {}
        }
        if !send(buf) {
            return Ok(total);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_hold_whole_games_and_all_the_text() {
        let game = |i: usize| format!("[Event \"{i}\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n");
        let text: String = (0..500).map(game).collect();
        let mut chunks: Vec<Vec<u8>> = Vec::new();
        let read = read_chunks(
            text.as_bytes(),
            4096,
            || None,
            |c| {
                chunks.push(c);
                true
            },
        )
        .unwrap();
        assert_eq!(read, text.len() as u64);
        assert!(chunks.len() > 3);
        for c in &chunks {
            assert!(c.starts_with(b"[Event "), "{}", String::from_utf8_lossy(c));
        }
        assert_eq!(chunks.concat(), text.as_bytes());
    }
}
