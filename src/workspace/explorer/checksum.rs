//! CRC32C checksums of a segment's pieces, as RocksDB keeps one per block: each block
//! of records ends with the checksum of its bytes, and the sparse index, the games'
//! facts and their lines have one checksum per page of entries ([`INDEX_PAGE`],
//! [`FACTS_PAGE`], [`LINES_PAGE`]), kept after the section. A lookup checks only the
//! pages and blocks it reads, so a query still reads only what it needs; pages are
//! small where a lookup reads one entry of them (a step of the binary search, the facts
//! of a record's game), so that a check costs little more than the read;
//! [`crate::workspace::explorer::ExplorerIndex::verify`] checks them all.

use std::ops::Range;

/// Index entries (16 bytes each) under one checksum.
pub(super) const INDEX_PAGE: u64 = 16;

/// Games' facts (8 bytes each) under one checksum.
pub(super) const FACTS_PAGE: u64 = 8;

/// Games' lines (read for top games only) under one checksum.
pub(super) const LINES_PAGE: u64 = 64;

/// Bytes of one checksum.
pub(super) const CRC_BYTES: u64 = 4;

/// The number of pages of `size` entries that `entries` entries take.
pub(super) fn pages(entries: u64, size: u64) -> u64 {
    entries.div_ceil(size)
}

/// The entries of page `page` (of `size` entries) of `entries` entries.
pub(super) fn page_entries(page: u64, size: u64, entries: u64) -> Range<u64> {
    let start = page.saturating_mul(size).min(entries);
    start..start.saturating_add(size).min(entries)
}

/// The CRC32C of `bytes`.
pub(super) fn crc(bytes: &[u8]) -> u32 {
    crc32c::crc32c(bytes)
}

/// The CRC32C of what `crc` covered followed by `bytes`.
pub(super) fn crc_append(crc: u32, bytes: &[u8]) -> u32 {
    crc32c::crc32c_append(crc, bytes)
}

/// The little-endian `u32` at `at`.
pub(super) fn read_u32(bytes: &[u8], at: u64) -> Option<u32> {
    let at = usize::try_from(at).ok()?;
    let b: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_le_bytes(b))
}

/// The little-endian `u64` at `at`.
pub(super) fn read_u64(bytes: &[u8], at: u64) -> Option<u64> {
    let at = usize::try_from(at).ok()?;
    let b: [u8; 8] = bytes.get(at..at.checked_add(8)?)?.try_into().ok()?;
    Some(u64::from_le_bytes(b))
}

/// `bytes[range]`, when it is within `bytes`.
pub(super) fn slice(bytes: &[u8], range: Range<u64>) -> Option<&[u8]> {
    let start = usize::try_from(range.start).ok()?;
    let end = usize::try_from(range.end).ok()?;
    bytes.get(start..end)
}

/// Why a checked piece cannot be used.
pub(super) fn mismatch(what: &str, stored: u32, found: u32) -> String {
    format!(
        "{what}: checksum {found:08x}, stored {stored:08x} (the file changed since it was written)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_cover_every_entry_once() {
        for size in [INDEX_PAGE, FACTS_PAGE, LINES_PAGE] {
            for entries in [0u64, 1, 7, 8, 9, 63, 64, 65, 200] {
                let covered: u64 = (0..pages(entries, size))
                    .map(|p| page_entries(p, size, entries))
                    .map(|r| r.end - r.start)
                    .sum();
                assert_eq!(covered, entries);
                assert!(page_entries(pages(entries, size), size, entries).is_empty());
            }
        }
    }

    #[test]
    fn one_flipped_bit_changes_the_checksum() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 37 % 251) as u8).collect();
        let good = crc(&bytes);
        assert_eq!(crc_append(crc(&bytes[..300]), &bytes[300..]), good);
        for bit in 0..bytes.len() * 8 {
            let mut flipped = bytes.clone();
            flipped[bit / 8] ^= 1 << (bit % 8);
            assert_ne!(crc(&flipped), good, "bit {bit}");
        }
    }
}
