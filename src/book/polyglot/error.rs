//! Errors of the Polyglot format: a byte slice that is not a book, and book entries
//! whose move cannot be played.

use thiserror::Error;

use super::moves::RawMove;

/// Why bytes are not a usable Polyglot book.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PolyglotError {
    /// The length is not a multiple of 16 bytes.
    #[error(
        "a Polyglot book is a sequence of 16-byte entries, but this one has {len} bytes \
         ({extra} after the last whole entry): the file is truncated or not a Polyglot book"
    )]
    Truncated {
        /// The length in bytes.
        len: usize,
        /// The bytes after the last whole entry (1 to 15).
        extra: usize,
    },
    /// An entry's key is smaller than the key before it, so lookups cannot trust the
    /// order.
    #[error(
        "entry {index} has the key {key:016x}, smaller than the key {previous:016x} before it: \
         the entries are not sorted by key"
    )]
    Unsorted {
        /// The 0-based index of the entry out of order.
        index: usize,
        /// The key of the entry before it.
        previous: u64,
        /// Its key.
        key: u64,
    },
}

/// Why the move of a book entry was skipped at a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
pub enum MoveSkip {
    /// The move is 0 (`a1a1`), which the format says to ignore.
    #[error("null move (a1a1)")]
    Null,
    /// The move has bit 15 set or a promotion code above 4 (queen).
    #[error("malformed move 0x{:04x}", .0.0)]
    Malformed(RawMove),
    /// No legal move of the position has this encoding (a corrupt entry, or another
    /// position with the same key).
    #[error("`{0}` is not a legal move here")]
    Illegal(RawMove),
}
