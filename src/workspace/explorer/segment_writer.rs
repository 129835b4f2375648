//! Writing a segment (the format is in `segment.rs`): records in sort order cut into
//! blocks, each ending with its checksum, then the sparse index, the games and the
//! header, each with their checksums.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use super::block::encode_block;
use super::checksum::{INDEX_PAGE, crc};
use super::game_table::GameTable;
use super::segment::{BLOCK_RECORDS, HEADER, header_bytes};
use crate::book::explorer::ExplorerRecord;

/// Writes a segment: records in sort order (each sort key once), then the games.
pub(super) struct SegmentWriter<'g> {
    out: BufWriter<File>,
    games: &'g mut GameTable,
    records: u64,
    index: Vec<(u64, u64)>,
    block: Vec<(ExplorerRecord, bool)>,
    at: u64,
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
            block: Vec::with_capacity(BLOCK_RECORDS),
            at: HEADER as u64,
        })
    }

    /// Writes the block of the records held, then its checksum.
    fn end_block(&mut self) -> io::Result<()> {
        let Some((first, _)) = self.block.first() else {
            return Ok(());
        };
        self.index.push((first.key, self.at));
        let bytes = encode_block(&self.block);
        self.out.write_all(&bytes)?;
        self.out.write_all(&crc(&bytes).to_le_bytes())?;
        self.at += bytes.len() as u64 + 4;
        self.block.clear();
        Ok(())
    }

    /// Adds the next record (records come sorted by key).
    pub fn push(&mut self, r: &ExplorerRecord) -> io::Result<()> {
        if self.block.len() == BLOCK_RECORDS {
            self.end_block()?;
        }
        let single = self
            .games
            .facts(r.best.game)
            .is_some_and(|f| f.is_record_of(r));
        self.block.push((*r, single));
        self.records += 1;
        Ok(())
    }

    /// Writes the last block's checksum, the index, the games, the header, and syncs
    /// the file. Returns the records and the file's length.
    pub fn finish(mut self) -> io::Result<(u64, u64)> {
        self.end_block()?;
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
