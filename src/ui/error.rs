//! What can stop the window from running ([`UiError`]): what `native` returns and the
//! screenshot reports.

use std::path::PathBuf;

use thiserror::Error;

use crate::book::BookError;
use crate::coach::moves::BookMovesError;
use crate::workspace::store::StoreError;

/// What can stop the window from running.
#[derive(Debug, Error)]
pub enum UiError {
    /// The embedded book failed to load (a bug in the shipped data).
    #[error(transparent)]
    Book(#[from] BookError),
    /// A move of `--moves` cannot be read or played, or leaves the book.
    #[error("--moves: {0}")]
    Moves(#[from] BookMovesError),
    /// `--reset-progress` could not write the empty progress file.
    #[error("cannot reset the progress: {0}")]
    ResetProgress(#[from] StoreError),
    /// The window could not be opened or crashed.
    #[error("the window failed: {0}")]
    Window(String),
    /// The screenshot could not be taken or written.
    #[error("screenshot {path}: {reason}")]
    Screenshot {
        /// Where it was to be written.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
}
