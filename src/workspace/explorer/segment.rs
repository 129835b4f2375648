//! One immutable segment of an explorer index: a file of records sorted by position,
//! cut into blocks found by binary search in a sparse index, and the table of its
//! games.
//!
//! ```text
//! header   64 bytes: magic "HSTEXPL1", version (2), records, blocks, games,
//!          index offset, games offset, file length (u64 little-endian)
//! blocks   up to 64 records each. A record starts with a byte: bits 0–3 the number
//!          n of bytes of its key's difference from the record before it in the
//!          block (the first record: from the block's first key; n = 0 for the same
//!          key), bit 4 set for a record of one game, bit 5 set when a partition
//!          byte follows, bits 6–7 zero. Then the difference (n bytes, little-endian),
//!          the partition when not 0, and LEB128 varints: the move, then
//!          - for a record of one game (whose year, cell, result and rating are its
//!            game's): the game's number;
//!          - else: cell, year, white, draws, black, rating sum, best game's rating,
//!            best game's number.
//! index    per block: first key, offset (u64 each)
//! games    the table of games (`games.rs`)
//! ```
//!
//! Most records deep in the openings count one game each: such a record takes about
//! 11 bytes (the general form about 21).
//!
//! A lookup touches the index's binary search path and the one or two blocks that hold
//! the position, and the facts of the games that their single-game records name. Every
//! read is bounds-checked: a damaged file gives a [`SegmentError`], never a panic.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use thiserror::Error;

use super::games::{GameEntry, GameFacts, GameTable};
use crate::book::explorer::{BestGame, Cell, ExplorerRecord, Partition, PositionTally, Tally};
use crate::book::polyglot::RawMove;

const MAGIC: &[u8; 8] = b"HSTEXPL1";
/// The format: 2 keeps single-game records compact (version 1, before 2026-11-28, had
/// every record in the general form and the games as text lines).
const VERSION: u32 = 2;
const HEADER: usize = 64;
/// Records per block.
pub(super) const BLOCK_RECORDS: usize = 64;

/// A segment that cannot be read.
#[derive(Debug, Error)]
pub enum SegmentError {
    /// The file cannot be opened or mapped.
    #[error("cannot read the segment {}: {source}", .path.display())]
    Io {
        /// The segment file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The segment was written in an older format: the index must be made again.
    #[error(
        "{} is in explorer format {version}, made by an earlier Hastings; this one reads \
         format {VERSION}: make the index again with `hastings explorer make`",
        .path.display()
    )]
    OldFormat {
        /// The segment file.
        path: PathBuf,
        /// Its format version.
        version: u32,
    },
    /// The file is not a segment, or is damaged.
    #[error("the segment {} is damaged: {reason}", .path.display())]
    Corrupt {
        /// The segment file.
        path: PathBuf,
        /// What is wrong, and where.
        reason: String,
    },
}

/// Writes a segment: records in sort order (each sort key once), then the games.
pub(super) struct SegmentWriter<'g> {
    out: BufWriter<File>,
    games: &'g GameTable,
    records: u64,
    index: Vec<(u64, u64)>,
    in_block: usize,
    previous_key: u64,
    at: u64,
    buf: Vec<u8>,
}

/// Record byte: a record of one game.
const SINGLE: u8 = 0x10;
/// Record byte: a partition byte follows.
const HAS_PARTITION: u8 = 0x20;
/// Record byte: the bits for the key difference's length.
const KEY_BYTES: u8 = 0x0f;

impl<'g> SegmentWriter<'g> {
    /// Starts the segment file `path` (created, or truncated) for records of `games`.
    pub fn create(path: &Path, games: &'g GameTable) -> io::Result<SegmentWriter<'g>> {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
        out.write_all(&[0u8; HEADER])?;
        Ok(SegmentWriter {
            out,
            games,
            records: 0,
            index: Vec::new(),
            in_block: 0,
            previous_key: 0,
            at: HEADER as u64,
            buf: Vec::with_capacity(64),
        })
    }

    /// Adds the next record (records come sorted by key).
    pub fn push(&mut self, r: &ExplorerRecord) -> io::Result<()> {
        if self.in_block == 0 || self.in_block == BLOCK_RECORDS {
            self.index.push((r.key, self.at));
            self.in_block = 0;
            self.previous_key = r.key;
        }
        let single = self
            .games
            .facts(r.best.game)
            .is_some_and(|f| f.is_record_of(r));
        let delta = r.key.wrapping_sub(self.previous_key);
        let key_bytes = (64 - delta.leading_zeros()).div_ceil(8) as usize;
        let mut first = key_bytes as u8;
        if single {
            first |= SINGLE;
        }
        if r.partition != Partition::ALL {
            first |= HAS_PARTITION;
        }
        let buf = &mut self.buf;
        buf.clear();
        buf.push(first);
        buf.extend_from_slice(&delta.to_le_bytes()[..key_bytes]);
        if r.partition != Partition::ALL {
            buf.push(r.partition.0);
        }
        put(buf, u64::from(r.raw_move.0));
        if !single {
            put(buf, u64::from(r.cell.0));
            put(buf, u64::from(r.year));
            put(buf, u64::from(r.tally.white));
            put(buf, u64::from(r.tally.draws));
            put(buf, u64::from(r.tally.black));
            put(buf, r.tally.rating_sum);
            put(buf, u64::from(r.best.rating));
        }
        put(buf, r.best.game);
        self.out.write_all(buf)?;
        self.at += buf.len() as u64;
        self.previous_key = r.key;
        self.in_block += 1;
        self.records += 1;
        Ok(())
    }

    /// Writes the index, the games, the header, and syncs the file. Returns the
    /// records and the file's length.
    pub fn finish(mut self) -> io::Result<(u64, u64)> {
        let index_offset = self.at;
        for &(key, offset) in &self.index {
            self.out.write_all(&key.to_le_bytes())?;
            self.out.write_all(&offset.to_le_bytes())?;
        }
        let games_offset = index_offset + 16 * self.index.len() as u64;
        let len = games_offset + self.games.write(&mut self.out)?;
        let mut header = Vec::with_capacity(HEADER);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&0u32.to_le_bytes());
        for v in [
            self.records,
            self.index.len() as u64,
            self.games.len(),
            index_offset,
            games_offset,
            len,
        ] {
            header.extend_from_slice(&v.to_le_bytes());
        }
        header.resize(HEADER, 0);
        let mut file = self.out.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&header)?;
        file.sync_all()?;
        Ok((self.records, len))
    }
}

fn put(buf: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            buf.push(byte);
            return;
        }
        buf.push(byte | 0x80);
    }
}

/// A segment opened for reading (memory-mapped).
#[derive(Debug)]
pub struct Segment {
    path: PathBuf,
    map: Mmap,
    records: u64,
    blocks: u64,
    games: u64,
    index_offset: usize,
    games_offset: usize,
}

impl Segment {
    /// Maps the segment at `path` and checks its header and sections.
    ///
    /// # Errors
    ///
    /// [`SegmentError`] when the file cannot be read, is not a segment, or its
    /// sections do not fit its length (a truncated file).
    pub fn open(path: &Path) -> Result<Segment, SegmentError> {
        let io_err = |source| SegmentError::Io {
            path: path.to_owned(),
            source,
        };
        let file = File::open(path).map_err(io_err)?;
        // SAFETY: segments are immutable once committed (a new one is written beside,
        // never over them); a file truncated by someone else under the map would be
        // undefined behaviour, as for every memory-mapped reader.
        let map = unsafe { Mmap::map(&file) }.map_err(io_err)?;
        let corrupt = |reason: String| SegmentError::Corrupt {
            path: path.to_owned(),
            reason,
        };
        if map.len() < HEADER || map.get(..8) != Some(MAGIC.as_slice()) {
            return Err(corrupt(format!(
                "not an explorer segment (no header; {} bytes)",
                map.len()
            )));
        }
        let word = |at: usize| read_u64(&map, at).unwrap_or(0);
        let version = u32::from_le_bytes([map[8], map[9], map[10], map[11]]);
        if version < VERSION {
            return Err(SegmentError::OldFormat {
                path: path.to_owned(),
                version,
            });
        }
        if version != VERSION {
            return Err(corrupt(format!(
                "format version {version}, expected {VERSION} (made by a newer Hastings?)"
            )));
        }
        let [records, blocks, games, index_offset, games_offset, len] =
            [16, 24, 32, 40, 48, 56].map(word);
        if len != map.len() as u64 {
            return Err(corrupt(format!(
                "the header says {len} bytes, the file has {} (truncated?)",
                map.len()
            )));
        }
        let index_end = index_offset.checked_add(blocks.saturating_mul(16));
        let games_table_end = games_offset.checked_add(
            games
                .saturating_mul(GameFacts::BYTES as u64 + 8)
                .saturating_add(8),
        );
        if index_offset < HEADER as u64
            || index_end != Some(games_offset)
            || games_table_end.is_none_or(|end| end > len)
            || blocks > records
        {
            return Err(corrupt("its sections do not fit together".to_owned()));
        }
        Ok(Segment {
            path: path.to_owned(),
            records,
            blocks,
            games,
            index_offset: index_offset as usize,
            games_offset: games_offset as usize,
            map,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records held.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Games held.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Bytes on disk.
    pub fn bytes(&self) -> u64 {
        self.map.len() as u64
    }

    fn corrupt(&self, reason: String) -> SegmentError {
        SegmentError::Corrupt {
            path: self.path.clone(),
            reason,
        }
    }

    /// Block `i`'s first key and byte range.
    fn block(&self, i: u64) -> Result<(u64, usize, usize), SegmentError> {
        let at = self.index_offset + 16 * i as usize;
        let (Some(key), Some(start)) = (read_u64(&self.map, at), read_u64(&self.map, at + 8))
        else {
            return Err(self.corrupt(format!("block {i} is past the index")));
        };
        let end = if i + 1 < self.blocks {
            read_u64(&self.map, at + 24).unwrap_or(0)
        } else {
            self.index_offset as u64
        };
        if start > end || end > self.index_offset as u64 || start < HEADER as u64 {
            return Err(self.corrupt(format!("block {i} has a bad offset")));
        }
        Ok((key, start as usize, end as usize))
    }

    /// Adds the records of position `key` to `tally` (as source `source`).
    ///
    /// # Errors
    ///
    /// [`SegmentError::Corrupt`] when a block on the way cannot be decoded.
    pub fn query(
        &self,
        key: u64,
        source: u32,
        tally: &mut PositionTally,
    ) -> Result<(), SegmentError> {
        // The first block whose first key is not below `key`; the one before may hold
        // the position's first records.
        let (mut lo, mut hi) = (0u64, self.blocks);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.block(mid)?.0 < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut i = lo.saturating_sub(1);
        while i < self.blocks {
            let (first, start, end) = self.block(i)?;
            if first > key {
                break;
            }
            let past = self.decode_block(i, first, start, end, Some(key), |r| {
                tally.add(source, r);
            })?;
            if past {
                break;
            }
            i += 1;
        }
        Ok(())
    }

    /// Every record, in order, decoded one block at a time (for merging segments).
    pub(super) fn iter_records(
        &self,
    ) -> impl Iterator<Item = Result<ExplorerRecord, SegmentError>> + '_ {
        let mut block = 0u64;
        let mut buffer: std::vec::IntoIter<ExplorerRecord> = Vec::new().into_iter();
        let mut failed = false;
        std::iter::from_fn(move || {
            loop {
                if let Some(r) = buffer.next() {
                    return Some(Ok(r));
                }
                if failed || block >= self.blocks {
                    return None;
                }
                let mut decoded = Vec::with_capacity(BLOCK_RECORDS);
                let done = self.block(block).and_then(|(first, start, end)| {
                    self.decode_block(block, first, start, end, None, |r| decoded.push(*r))
                });
                block += 1;
                if let Err(e) = done {
                    failed = true;
                    return Some(Err(e));
                }
                buffer = decoded.into_iter();
            }
        })
    }

    /// Decodes block `i` (first key `first`, bytes `start..end`) and gives `f` its
    /// records, or only those of position `only`; returns whether the block goes past
    /// `only` (then the position has no records further on).
    fn decode_block(
        &self,
        i: u64,
        first: u64,
        start: usize,
        end: usize,
        only: Option<u64>,
        mut f: impl FnMut(&ExplorerRecord),
    ) -> Result<bool, SegmentError> {
        let Some(bytes) = self.map.get(start..end) else {
            return Err(self.corrupt(format!("block {i} is past the end")));
        };
        let cut = || self.corrupt(format!("block {i}: a record is cut short"));
        let mut at = 0usize;
        let mut key = first;
        while let Some(&flags) = bytes.get(at) {
            at += 1;
            let key_bytes = usize::from(flags & KEY_BYTES);
            if key_bytes > 8 || flags & !(KEY_BYTES | SINGLE | HAS_PARTITION) != 0 {
                return Err(self.corrupt(format!("block {i}: a record starts with {flags:#04x}")));
            }
            let mut delta = [0u8; 8];
            delta[..key_bytes].copy_from_slice(bytes.get(at..at + key_bytes).ok_or_else(cut)?);
            at += key_bytes;
            key = key.wrapping_add(u64::from_le_bytes(delta));
            let partition = if flags & HAS_PARTITION != 0 {
                at += 1;
                Partition(*bytes.get(at - 1).ok_or_else(cut)?)
            } else {
                Partition::ALL
            };
            let narrow = |v: u64, what: &str| {
                u32::try_from(v)
                    .map_err(|_| self.corrupt(format!("block {i}: {what} {v} is too large")))
            };
            let raw_move = RawMove(narrow(take(bytes, &mut at).ok_or_else(cut)?, "move")? as u16);
            let wanted = only.is_none_or(|only| only == key);
            if only.is_some_and(|only| key > only) {
                return Ok(true);
            }
            let record = if flags & SINGLE != 0 {
                let game = take(bytes, &mut at).ok_or_else(cut)?;
                if !wanted {
                    continue;
                }
                self.facts(game)
                    .map_err(|reason| self.corrupt(format!("block {i}: {reason}")))?
                    .record(key, partition, raw_move, game)
            } else {
                let mut field = || take(bytes, &mut at).ok_or_else(cut);
                let [
                    cell,
                    year,
                    white,
                    draws,
                    black,
                    rating_sum,
                    best_rating,
                    best_game,
                ] = [
                    field()?,
                    field()?,
                    field()?,
                    field()?,
                    field()?,
                    field()?,
                    field()?,
                    field()?,
                ];
                ExplorerRecord {
                    key,
                    partition,
                    raw_move,
                    cell: Cell(narrow(cell, "cell")? as u8),
                    year: narrow(year, "year")? as u16,
                    tally: Tally {
                        white: narrow(white, "count")?,
                        draws: narrow(draws, "count")?,
                        black: narrow(black, "count")?,
                        rating_sum,
                    },
                    best: BestGame {
                        rating: narrow(best_rating, "rating")? as u16,
                        game: best_game,
                    },
                }
            };
            if wanted {
                f(&record);
            }
        }
        Ok(false)
    }

    /// Game `n`'s facts.
    fn facts(&self, n: u64) -> Result<GameFacts, String> {
        if n >= self.games {
            return Err(format!("game {n} is past the table's {} games", self.games));
        }
        let at = self.games_offset + GameFacts::BYTES * n as usize;
        self.map
            .get(at..at + GameFacts::BYTES)
            .and_then(|b| GameFacts::from_bytes(b.try_into().ok()?))
            .ok_or_else(|| format!("game {n}: its facts cannot be read"))
    }

    /// Game `n` of the table.
    ///
    /// # Errors
    ///
    /// [`SegmentError::Corrupt`] when the game is not in the table or its line cannot
    /// be read.
    pub fn game(&self, n: u64) -> Result<GameEntry, SegmentError> {
        let facts = self.facts(n).map_err(|reason| self.corrupt(reason))?;
        let offsets = self.games_offset + GameFacts::BYTES * self.games as usize;
        let at = offsets + 8 * n as usize;
        let text = offsets + 8 * (self.games as usize + 1);
        let (Some(start), Some(end)) = (read_u64(&self.map, at), read_u64(&self.map, at + 8))
        else {
            return Err(self.corrupt(format!("game {n}: the table is cut short")));
        };
        let line = usize::try_from(start)
            .ok()
            .zip(usize::try_from(end).ok())
            .and_then(|(start, end)| {
                self.map
                    .get(text.checked_add(start)?..text.checked_add(end)?)
            })
            .and_then(|b| std::str::from_utf8(b).ok())
            .and_then(|line| GameEntry::from_parts(facts, line));
        line.ok_or_else(|| self.corrupt(format!("game {n}: its line cannot be read")))
    }
}

fn read_u64(bytes: &[u8], at: usize) -> Option<u64> {
    let b: [u8; 8] = bytes.get(at..at.checked_add(8)?)?.try_into().ok()?;
    Some(u64::from_le_bytes(b))
}

fn take(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at)?;
        *at += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}
