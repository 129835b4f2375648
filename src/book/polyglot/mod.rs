//! Polyglot opening books (`.bin`), the format every chess GUI reads: reading them
//! from bytes, and writing them from the games of PGN files.
//!
//! A book is a sequence of 16-byte big-endian [`Entry`]s — position key, move, weight,
//! learn — sorted by key. The key is the position's [`key`] (a Zobrist hash with the
//! format's own numbers), the move a [`RawMove`] (castling written as the king taking
//! its rook). The format is described in Debian's `polyglot` package,
//! `/usr/share/doc/polyglot/book_format.html`.
//!
//! - Reading: [`PolyglotBook`] over any byte slice (a memory map, the embedded
//!   [`gnuchess`] book): binary search by key, entries decoded into legal moves at a
//!   position ([`PolyglotBook::moves`]), a full order check ([`PolyglotBook::check`]).
//!   Bad bytes give a [`PolyglotError`] or a counted [`SkippedEntry`], never a panic.
//! - Reading games: [`read_mainlines`] is the one reader of games' mainlines (the
//!   ply limit, bad moves and starts as [`GameIssue`]s), for books, the explorer and
//!   the predictor's training set ([`Mainlines`]).
//! - Writing: [`read_games`] turns PGN text into one record per ply ([`MoveSink`]);
//!   [`MoveCounts`] adds them up per `(position, move)` and gives sorted runs;
//!   [`merge_runs`] joins runs; [`BookWriter`] weighs ([`WeightRule`]), filters and
//!   writes the entries. The file and thread side (`hastings book make`) lives in
//!   `workspace::polyglot_make`.
//!
//! Like the rest of the book, this module opens no files.
//!
//! Files: `key`, `moves` and `entry` (the format), `reader`, `filter` (a bitset of a
//! book's keys that rules out absent positions) and `shared` (one handle threads
//! share) for reading; `games`, `counts`, `merge` and `writer` for making a book;
//! `error`.
//!
//! ```
//! use hastings::book::polyglot::gnuchess;
//! use shakmaty::Chess;
//!
//! let book = gnuchess()?;
//! let moves = book.moves(&Chess::default());
//! assert_eq!(moves.moves[0].weight, 12135); // 1. e4
//! # Ok::<(), hastings::book::polyglot::PolyglotError>(())
//! ```

mod counts;
mod entry;
mod error;
mod filter;
mod games;
mod key;
mod mainline;
mod merge;
mod moves;
mod reader;
mod shared;
mod writer;

pub use counts::{MoveCount, MoveCounts};
pub use entry::{ENTRY_SIZE, Entry};
pub use error::{MoveSkip, PolyglotError};
pub use filter::KeyFilter;
pub use games::{
    DEFAULT_MAX_PLIES, GameIssue, GameIssueReason, GamesReport, MAX_KEPT_ISSUES, MoveSink, PlySink,
    read_games,
};
pub use key::key;
pub use mainline::{Mainlines, read_mainlines};
pub use merge::{MergeRuns, RunRecord, merge_runs};
pub use moves::RawMove;
pub use reader::{BookMove, BookMoves, BookSummary, PolyglotBook, SkippedEntry};
pub use shared::{BookBytes, SharedBook};
pub use writer::{BookWriter, WeightRule, WriteSummary, WriterOptions};

/// The gnuchess opening book, embedded: 180,358 entries from master games, public
/// domain (see `assets/README.md`).
static GNUCHESS: &[u8] = include_bytes!("../../../assets/books/gnuchess.bin");

/// The embedded gnuchess book, its order checked.
///
/// # Errors
///
/// [`PolyglotError`] if the embedded bytes are not a sorted book: a bug in the shipped
/// data, which a test rules out.
pub fn gnuchess() -> Result<PolyglotBook<'static>, PolyglotError> {
    let book = PolyglotBook::new(GNUCHESS)?;
    book.check()?;
    Ok(book)
}
