//! Cutting PGN files into chunks of whole games, so that threads can read them apart.

use std::io::{self, Read};

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

/// The start of the last game in `buf` after its first byte: a line beginning with
/// `[` that follows a blank line, or a line beginning with `[Event `. A `[` inside a
/// comment that happens to follow a blank line would be taken for a game start too;
/// the game around it is then read as two broken games and reported.
pub(crate) fn last_game_start(buf: &[u8]) -> Option<usize> {
    let mut end = buf.len();
    while let Some(i) = buf[..end].iter().rposition(|&b| b == b'[') {
        if i > 0 && buf[i - 1] == b'\n' {
            let line_end = i - 1;
            let line_start = buf[..line_end]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            let blank_before = buf[line_start..line_end]
                .iter()
                .all(|b| matches!(b, b' ' | b'\t' | b'\r'));
            if blank_before || buf[i..].starts_with(b"[Event ") {
                return Some(i);
            }
        }
        end = i;
    }
    None
}

/// Reads `input` in chunks of about `chunk_bytes`, each cut at a game start, and hands
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
        match last_game_start(&buf) {
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
    fn a_game_starts_at_a_tag_after_a_blank_line() {
        let text =
            b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 { [%clk 0:01] } *\n\n[Event \"c\"]\n\n1. d4 *\n";
        let start = last_game_start(text).unwrap();
        assert!(text[start..].starts_with(b"[Event \"c\"]"));
        assert_eq!(last_game_start(&text[..start]), None);
        let crlf = b"1. e4 *\r\n\r\n[White \"x\"]\r\n\r\n1. d4 *\r\n";
        assert!(crlf[last_game_start(crlf).unwrap()..].starts_with(b"[White"));
        let no_blank = b"1. e4 1-0\n[Event \"x\"]\n1. d4 1-0\n";
        assert!(no_blank[last_game_start(no_blank).unwrap()..].starts_with(b"[Event"));
    }

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
