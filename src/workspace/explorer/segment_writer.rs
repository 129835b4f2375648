//! Writing a segment (the format is in `segment.rs`): records in sort order cut into
//! blocks, each ending with its checksum, then the sparse index, the games and the
//! header, each with their checksums.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use super::checksum::{INDEX_PAGE, crc, crc_append};
use super::game_table::GameTable;
use super::segment::{BLOCK_RECORDS, HAS_PARTITION, HEADER, SINGLE, header_bytes};
use crate::book::explorer::{ExplorerRecord, Partition};

/// Writes a segment: records in sort order (each sort key once), then the games.
pub(super) struct SegmentWriter<'g> {
    out: BufWriter<File>,
    games: &'g mut GameTable,
    records: u64,
    index: Vec<(u64, u64)>,
    in_block: usize,
    block_crc: u32,
    previous_key: u64,
    at: u64,
    buf: Vec<u8>,
}

impl<'g> SegmentWriter<'g> {
    /// Starts the segment file `path` (created, or truncated) for records of `games`.
    pub fn create(path: &Path, games: &'g mut GameTable) -> io::Result<SegmentWriter<'g>> {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
        out.write_all(&[0u8; HEADER])?;
        Ok(SegmentWriter {
            out,
            games,
            records: 0,
            index: Vec::new(),
            in_block: 0,
            block_crc: 0,
            previous_key: 0,
            at: HEADER as u64,
            buf: Vec::with_capacity(64),
        })
    }

    /// Ends the block being written with its checksum.
    fn end_block(&mut self) -> io::Result<()> {
        self.out.write_all(&self.block_crc.to_le_bytes())?;
        self.at += 4;
        self.in_block = 0;
        self.block_crc = 0;
        Ok(())
    }

    /// Adds the next record (records come sorted by key).
    pub fn push(&mut self, r: &ExplorerRecord) -> io::Result<()> {
        if self.in_block == BLOCK_RECORDS {
            self.end_block()?;
        }
        if self.in_block == 0 {
            self.index.push((r.key, self.at));
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
        self.block_crc = crc_append(self.block_crc, buf);
        self.at += buf.len() as u64;
        self.previous_key = r.key;
        self.in_block += 1;
        self.records += 1;
        Ok(())
    }

    /// Writes the last block's checksum, the index, the games, the header, and syncs
    /// the file. Returns the records and the file's length.
    pub fn finish(mut self) -> io::Result<(u64, u64)> {
        if self.in_block > 0 {
            self.end_block()?;
        }
        let index_offset = self.at;
        let index: Vec<u8> = self
            .index
            .iter()
            .flat_map(|&(key, offset)| [key.to_le_bytes(), offset.to_le_bytes()])
            .flatten()
            .collect();
        self.out.write_all(&index)?;
        let mut index_bytes = index.len() as u64;
        for page in index.chunks(16 * INDEX_PAGE as usize) {
            self.out.write_all(&crc(page).to_le_bytes())?;
            index_bytes += 4;
        }
        let games_offset = index_offset + index_bytes;
        let len = games_offset + self.games.write(&mut self.out)?;
        let header = header_bytes([
            self.records,
            self.index.len() as u64,
            self.games.len(),
            index_offset,
            games_offset,
            len,
        ]);
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
