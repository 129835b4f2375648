//! One immutable segment of an explorer index: a file of records sorted by position,
//! cut into blocks found by binary search in a sparse index, and the table of its
//! games, every piece under a CRC32C checksum (`checksum.rs`).
//!
//! ```text
//! header   64 bytes: magic "HSTEXPL1", version (3, u32), the header's CRC32C (taken
//!          with this field zero, u32), records, blocks, games, index offset, games
//!          offset, file length (u64 little-endian)
//! blocks   up to 64 records each, then the CRC32C of those records' bytes (u32). A
//!          record starts with a byte: bits 0–3 the number n of bytes of its key's
//!          difference from the record before it in the block (the first record:
//!          from the block's first key; n = 0 for the same key), bit 4 set for a
//!          record of one game, bit 5 set when a partition byte follows, bits 6–7
//!          zero. Then the difference (n bytes, little-endian), the partition when
//!          not 0, and LEB128 varints: the move, then
//!          - for a record of one game (whose year, cell, result and rating are its
//!            game's): the game's number;
//!          - else: cell, year, white, draws, black, rating sum, best game's rating,
//!            best game's number.
//! index    per block: first key, offset (u64 each); then per 16 blocks the CRC32C
//!          of their entries (u32)
//! games    the table of games with its checksums (`games.rs`)
//! ```
//!
//! Most records deep in the openings count one game each: such a record takes about
//! 11 bytes (the general form about 21); the checksums add 4 bytes a block of 64
//! records, 4 bytes per 16 index entries and 4 bytes per 8 games plus 4 per 64.
//!
//! A lookup touches the index pages of its binary search and the one or two blocks
//! that hold the position, and the facts of the games that their single-game records
//! name, and checks the checksum of each before it uses it: a damaged piece gives a
//! [`SegmentError`] naming the file, never other counts. Every read is bounds-checked:
//! a damaged file gives a [`SegmentError`], never a panic.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use thiserror::Error;

use super::block;
use super::checksum::{
    CRC_BYTES, INDEX_PAGE, crc, mismatch, page_entries, pages, read_u32, read_u64, slice,
};
use super::games::{GameEntry, TableLayout};
use crate::book::explorer::{ExplorerRecord, Partition, PositionTally};

const MAGIC: &[u8; 8] = b"HSTEXPL1";
/// The format: 4 bit-packs each block's records with the block's own widths
/// (`block.rs`); 3 (2026-11-28) kept a CRC32C per block, index page and page of games
/// with byte-aligned records; 2 had no checksums; 1 had every record in the general
/// form and the games as text lines.
const VERSION: u32 = 4;
/// Bytes of the header.
pub(super) const HEADER: usize = 64;
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

/// Where the header keeps its checksum.
const HEADER_CRC: std::ops::Range<usize> = 12..16;

/// The checksum of `header`, taken with its checksum field zero.
fn header_crc(header: &[u8]) -> u32 {
    let mut bytes = header.get(..HEADER).unwrap_or(header).to_vec();
    if let Some(field) = bytes.get_mut(HEADER_CRC) {
        field.fill(0);
    }
    crc(&bytes)
}

/// The header of a segment with `fields` (records, blocks, games, index offset, games
/// offset, length), its checksum in place.
pub(super) fn header_bytes(fields: [u64; 6]) -> Vec<u8> {
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&0u32.to_le_bytes());
    for v in fields {
        header.extend_from_slice(&v.to_le_bytes());
    }
    header.resize(HEADER, 0);
    let sum = header_crc(&header);
    header[HEADER_CRC].copy_from_slice(&sum.to_le_bytes());
    header
}

/// The index pages a lookup has checked (the last two: a binary search ends in one
/// page, a scan goes on to the next).
#[derive(Debug)]
struct Checked([u64; 2]);

impl Checked {
    fn new() -> Checked {
        Checked([u64::MAX; 2])
    }

    fn has(&self, page: u64) -> bool {
        self.0.contains(&page)
    }

    fn add(&mut self, page: u64) {
        self.0 = [page, self.0[0]];
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
    index_offset: u64,
    index_crc: u64,
    table: TableLayout,
}

impl Segment {
    /// Maps the segment at `path` and checks its header (with its checksum) and that
    /// its sections fit its length.
    ///
    /// # Errors
    ///
    /// [`SegmentError`] when the file cannot be read, is not a segment, is of an older
    /// format, its header is damaged or its sections do not fit its length (a
    /// truncated file).
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
        let version = read_u32(&map, 8).unwrap_or(0);
        let stored = read_u32(&map, HEADER_CRC.start as u64).unwrap_or(0);
        // Formats before 3 had no checksums: their checksum field is zero.
        let old = SegmentError::OldFormat {
            path: path.to_owned(),
            version,
        };
        if version < 3 && stored == 0 {
            return Err(old);
        }
        let found = header_crc(&map);
        if found != stored {
            return Err(corrupt(mismatch("its header", stored, found)));
        }
        if version < VERSION {
            return Err(old);
        }
        if version != VERSION {
            return Err(corrupt(format!(
                "format version {version}, expected {VERSION} (made by a newer Hastings?)"
            )));
        }
        let word = |at: u64| read_u64(&map, at).unwrap_or(0);
        let [records, blocks, games, index_offset, games_offset, len] =
            [16, 24, 32, 40, 48, 56].map(word);
        if len != map.len() as u64 {
            return Err(corrupt(format!(
                "the header says {len} bytes, the file has {} (truncated?)",
                map.len()
            )));
        }
        let index_crc = index_offset.checked_add(blocks.saturating_mul(16));
        let index_end = index_crc
            .and_then(|at| at.checked_add(pages(blocks, INDEX_PAGE).saturating_mul(CRC_BYTES)));
        let table = TableLayout::new(games_offset, games);
        let (Some(index_crc), Some(table)) = (index_crc, table) else {
            return Err(corrupt("its sections do not fit together".to_owned()));
        };
        if index_offset < HEADER as u64
            || index_end != Some(games_offset)
            || table.text_start() > len
            || table.end(&map) != Some(len)
            || blocks > records
        {
            return Err(corrupt("its sections do not fit together".to_owned()));
        }
        Ok(Segment {
            path: path.to_owned(),
            records,
            blocks,
            games,
            index_offset,
            index_crc,
            table,
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

    /// Checks page `page` of the index against its checksum.
    fn check_index_page(&self, page: u64) -> Result<(), SegmentError> {
        let entries = page_entries(page, INDEX_PAGE, self.blocks);
        let range = self.index_offset + 16 * entries.start..self.index_offset + 16 * entries.end;
        let stored = read_u32(&self.map, self.index_crc + CRC_BYTES * page);
        let (Some(bytes), Some(stored)) = (slice(&self.map, range), stored) else {
            return Err(self.corrupt(format!("index page {page} is past the end")));
        };
        let found = crc(bytes);
        if found != stored {
            let what = format!("the index of blocks {} to {}", entries.start, entries.end);
            return Err(self.corrupt(mismatch(&what, stored, found)));
        }
        Ok(())
    }

    /// Index entry `i` (block `i`'s first key and offset), its page checked once per
    /// lookup.
    fn entry(&self, i: u64, checked: &mut Checked) -> Result<(u64, u64), SegmentError> {
        let page = i / INDEX_PAGE;
        if !checked.has(page) {
            self.check_index_page(page)?;
            checked.add(page);
        }
        let at = self.index_offset + 16 * i;
        match (read_u64(&self.map, at), read_u64(&self.map, at + 8)) {
            (Some(key), Some(offset)) if i < self.blocks => Ok((key, offset)),
            _ => Err(self.corrupt(format!("block {i} is past the index"))),
        }
    }

    /// Block `i`'s first key and its records' bytes, checked against its checksum.
    fn block(&self, i: u64, checked: &mut Checked) -> Result<(u64, &[u8]), SegmentError> {
        let (key, start) = self.entry(i, checked)?;
        let end = if i + 1 < self.blocks {
            self.entry(i + 1, checked)?.1
        } else {
            self.index_offset
        };
        if start < HEADER as u64 || start.saturating_add(CRC_BYTES) > end || end > self.index_offset
        {
            return Err(self.corrupt(format!("block {i} has a bad offset")));
        }
        let records = start..end - CRC_BYTES;
        let (Some(bytes), Some(stored)) = (
            slice(&self.map, records),
            read_u32(&self.map, end - CRC_BYTES),
        ) else {
            return Err(self.corrupt(format!("block {i} is past the end")));
        };
        let found = crc(bytes);
        if found != stored {
            return Err(self.corrupt(mismatch(&format!("block {i}"), stored, found)));
        }
        Ok((key, bytes))
    }

    /// Adds the records of position `key` to `tally` (as source `source`).
    ///
    /// # Errors
    ///
    /// [`SegmentError::Corrupt`] when a block, index page or game on the way is
    /// damaged (its checksum does not match) or cannot be decoded.
    pub fn query(
        &self,
        key: u64,
        source: u32,
        tally: &mut PositionTally,
    ) -> Result<(), SegmentError> {
        let mut checked = Checked::new();
        // The first block whose first key is not below `key`; the one before may hold
        // the position's first records.
        let (mut lo, mut hi) = (0u64, self.blocks);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.entry(mid, &mut checked)?.0 < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut i = lo.saturating_sub(1);
        while i < self.blocks {
            let (first, bytes) = self.block(i, &mut checked)?;
            if first > key {
                break;
            }
            let past = self.decode(i, first, bytes, (Some(key), Some(tally.partition())), |r| {
                tally.add(source, r)
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
        let mut checked = Checked::new();
        std::iter::from_fn(move || {
            loop {
                if let Some(r) = buffer.next() {
                    return Some(Ok(r));
                }
                if failed || block >= self.blocks {
                    return None;
                }
                let mut decoded = Vec::with_capacity(BLOCK_RECORDS);
                let done = self.block(block, &mut checked).and_then(|(first, bytes)| {
                    self.decode(block, first, bytes, (None, None), |r| decoded.push(*r))
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

    /// Checks every checksum of the segment: its index, blocks and games.
    ///
    /// # Errors
    ///
    /// [`SegmentError::Corrupt`] naming the first damaged piece.
    pub fn verify(&self) -> Result<(), SegmentError> {
        let mut checked = Checked::new();
        for i in 0..self.blocks {
            self.block(i, &mut checked)?;
        }
        self.table
            .verify(&self.map)
            .map_err(|reason| self.corrupt(reason))
    }

    /// Decodes block `i` (first key `first`, records `bytes`) as [`decode_block`] does,
    /// `only` the records of a position and a partition, if given.
    fn decode(
        &self,
        i: u64,
        first: u64,
        bytes: &[u8],
        only: (Option<u64>, Option<Partition>),
        f: impl FnMut(&ExplorerRecord),
    ) -> Result<bool, SegmentError> {
        let facts = |n| self.table.facts(&self.map, n);
        block::decode_block(bytes, first, only.0, only.1, facts, f)
            .map_err(|reason| self.corrupt(format!("block {i}: {reason}")))
    }

    /// Game `n` of the table.
    ///
    /// # Errors
    ///
    /// [`SegmentError::Corrupt`] when the game is not in the table, or its facts or
    /// line are damaged.
    pub fn game(&self, n: u64) -> Result<GameEntry, SegmentError> {
        self.table
            .entry(&self.map, n)
            .map_err(|reason| self.corrupt(reason))
    }
}
