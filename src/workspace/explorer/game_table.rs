//! The table of games of a segment being written (the format is in `games.rs`): each
//! game's fixed-width facts and where its line ends in memory (16 bytes a game), the
//! lines themselves in memory or, for a build, in a temporary file, so that the
//! memory a build holds for its games does not grow with their names.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::checksum::{FACTS_PAGE, LINES_PAGE, crc, crc_append, page_entries, pages};
use super::games::{GameEntry, GameFacts};

/// Where a table's lines are kept until the segment is written.
#[derive(Debug)]
enum Lines {
    Memory(Vec<u8>),
    File { path: PathBuf, out: BufWriter<File> },
}

/// The games of a segment being written, in the order of their numbers.
#[derive(Debug)]
pub(super) struct GameTable {
    facts: Vec<GameFacts>,
    ends: Vec<u64>,
    lines: Lines,
}

impl Default for GameTable {
    fn default() -> GameTable {
        GameTable {
            facts: Vec::new(),
            ends: Vec::new(),
            lines: Lines::Memory(Vec::new()),
        }
    }
}

impl GameTable {
    /// A table whose lines go to the file `path` (created, or truncated; the caller
    /// removes it).
    pub fn spilled(path: &Path) -> io::Result<GameTable> {
        Ok(GameTable {
            lines: Lines::File {
                path: path.to_owned(),
                out: BufWriter::with_capacity(64 << 10, File::create(path)?),
            },
            ..GameTable::default()
        })
    }

    /// Adds the next game.
    pub fn push(&mut self, game: &GameEntry) -> io::Result<()> {
        self.push_line(game.facts(), game.to_line().as_bytes())
    }

    /// Adds the next game: its facts and its line (as [`GameEntry::to_line`] writes
    /// it).
    pub fn push_line(&mut self, facts: GameFacts, line: &[u8]) -> io::Result<()> {
        let end = self.ends.last().copied().unwrap_or(0) + line.len() as u64;
        match &mut self.lines {
            Lines::Memory(text) => text.extend_from_slice(line),
            Lines::File { out, .. } => out.write_all(line)?,
        }
        self.facts.push(facts);
        self.ends.push(end);
        Ok(())
    }

    /// Games held.
    pub fn len(&self) -> u64 {
        self.facts.len() as u64
    }

    /// Game `n`'s facts.
    pub fn facts(&self, n: u64) -> Option<GameFacts> {
        self.facts.get(usize::try_from(n).ok()?).copied()
    }

    /// The lines from the first, read from wherever they are kept.
    fn lines(&mut self) -> io::Result<Box<dyn Read + '_>> {
        match &mut self.lines {
            Lines::Memory(text) => Ok(Box::new(text.as_slice())),
            Lines::File { path, out } => {
                out.flush()?;
                Ok(Box::new(BufReader::with_capacity(
                    64 << 10,
                    File::open(&*path)?,
                )))
            }
        }
    }

    /// Writes the table as a segment keeps it, with its checksums; returns the bytes
    /// written.
    pub fn write(&mut self, out: &mut impl Write) -> io::Result<u64> {
        let mut written = 0u64;
        let mut put = |out: &mut dyn Write, bytes: &[u8]| {
            written += bytes.len() as u64;
            out.write_all(bytes)
        };
        for page in self.facts.chunks(FACTS_PAGE as usize) {
            let facts: Vec<u8> = page.iter().flat_map(|f| f.to_bytes()).collect();
            put(out, &facts)?;
        }
        for page in self.facts.chunks(FACTS_PAGE as usize) {
            let facts: Vec<u8> = page.iter().flat_map(|f| f.to_bytes()).collect();
            put(out, &crc(&facts).to_le_bytes())?;
        }
        let offset = |i: u64| -> u64 {
            i.checked_sub(1)
                .and_then(|i| self.ends.get(i as usize).copied())
                .unwrap_or(0)
        };
        for i in 0..=self.len() {
            put(out, &offset(i).to_le_bytes())?;
        }
        let games = self.len();
        let bounds: Vec<(Vec<u8>, u64)> = (0..pages(games, LINES_PAGE))
            .map(|page| {
                let range = page_entries(page, LINES_PAGE, games);
                let bytes = (range.start..=range.end)
                    .flat_map(|i| offset(i).to_le_bytes())
                    .collect();
                (bytes, offset(range.end) - offset(range.start))
            })
            .collect();
        let mut lines = self.lines()?;
        let mut text = Vec::new();
        for (bytes, len) in bounds {
            text.clear();
            (&mut lines).take(len).read_to_end(&mut text)?;
            if text.len() as u64 != len {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the games' lines are shorter than their offsets",
                ));
            }
            put(out, &crc_append(crc(&bytes), &text).to_le_bytes())?;
        }
        drop(lines);
        let mut lines = self.lines()?;
        let mut writer = Counting { out, written: 0 };
        io::copy(&mut lines, &mut writer)?;
        Ok(written + writer.written)
    }
}

/// A writer that counts what passes.
struct Counting<'w, W: Write> {
    out: &'w mut W,
    written: u64,
}

impl<W: Write> Write for Counting<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
