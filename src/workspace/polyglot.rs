//! Polyglot books on disk, opened through a memory map: opening costs the same for a
//! 3 MB or a 3 GB book, and a lookup reads only the pages its binary search touches
//! (about log2(entries) of them, cached by the operating system).
//!
//! ```no_run
//! use hastings::workspace::polyglot::PolyglotFile;
//! use shakmaty::Chess;
//!
//! let file = PolyglotFile::open("book.bin".as_ref())?;
//! for m in file.book().moves(&Chess::default()).moves {
//!     println!("{:?} {}", m.mv, m.weight);
//! }
//! # Ok::<(), hastings::workspace::polyglot::PolyglotFileError>(())
//! ```

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use thiserror::Error;

use crate::book::polyglot::{BookSummary, PolyglotBook, PolyglotError, SharedBook};

/// Why a Polyglot book file cannot be used.
#[derive(Debug, Error)]
pub enum PolyglotFileError {
    /// The file cannot be opened or mapped.
    #[error("cannot open the book {}: {source}", .path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file is not a (sorted) Polyglot book.
    #[error("{}: {source}", .path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: PolyglotError,
    },
}

/// A Polyglot book file mapped into memory, read-only.
#[derive(Debug)]
pub struct PolyglotFile {
    path: PathBuf,
    map: Mmap,
}

impl PolyglotFile {
    /// Maps the book at `path`. Only the length is checked (a multiple of 16 bytes);
    /// [`PolyglotFile::check`] reads the whole file to prove the order.
    ///
    /// # Errors
    ///
    /// [`PolyglotFileError::Open`] when the file cannot be opened or mapped,
    /// [`PolyglotFileError::Format`] when its length is not a multiple of 16.
    pub fn open(path: &Path) -> Result<PolyglotFile, PolyglotFileError> {
        let open_error = |source| PolyglotFileError::Open {
            path: path.to_owned(),
            source,
        };
        let file = File::open(path).map_err(open_error)?;
        // SAFETY: `Mmap::map` is unsafe because the bytes behind the slice can change
        // if another process writes to or truncates the file while it is mapped. We map
        // read-only and never write. A concurrent rewrite can at worst show us other
        // bytes: every use of them is checked (lengths are fixed at map time and every
        // slice access is bounds-checked, every move is decoded against the legal
        // moves of the position, unsorted keys only make lookups miss). Truncating the
        // file under the map can raise SIGBUS on the next read of a page past the new
        // end; that risk is the price of not reading large books whole, the same that
        // python-chess's and Scid's memory-mapped readers take. Books are files the
        // learner chose and nothing in Hastings rewrites a book it has open (`book
        // make` writes a temporary file and renames it).
        let map = unsafe { Mmap::map(&file) }.map_err(open_error)?;
        let opened = PolyglotFile {
            path: path.to_owned(),
            map,
        };
        PolyglotBook::new(&opened.map).map_err(|source| opened.format_error(source))?;
        Ok(opened)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The size in bytes.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the file is empty (a book without entries).
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The book over the mapped bytes.
    pub fn book(&self) -> PolyglotBook<'_> {
        // The length was checked in `open`, and a map keeps its length.
        PolyglotBook::whole_entries(&self.map)
    }

    /// The book as a [`SharedBook`] named after the file, for sessions and threads.
    ///
    /// # Errors
    ///
    /// [`PolyglotFileError::Format`] when the length is not a multiple of 16 (checked
    /// in [`PolyglotFile::open`] already, so not expected).
    pub fn into_shared(self) -> Result<SharedBook, PolyglotFileError> {
        let name = self.path.file_name().map_or_else(
            || self.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let path = self.path;
        SharedBook::new(name, std::sync::Arc::new(self.map))
            .map_err(|source| PolyglotFileError::Format { path, source })
    }

    /// Reads every entry: the order, and the counts of [`BookSummary`].
    ///
    /// # Errors
    ///
    /// [`PolyglotFileError::Format`] when the keys are not sorted.
    pub fn check(&self) -> Result<BookSummary, PolyglotFileError> {
        self.book()
            .check()
            .map_err(|source| self.format_error(source))
    }

    fn format_error(&self, source: PolyglotError) -> PolyglotFileError {
        PolyglotFileError::Format {
            path: self.path.clone(),
            source,
        }
    }
}
