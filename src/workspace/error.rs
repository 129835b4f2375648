//! What can go wrong in the workspace: files that cannot be opened or read, jobs that
//! cannot start, exports that cannot be written. Each variant names the file and why.

use std::path::PathBuf;

use thiserror::Error;

use super::store::StoreError;
use crate::book::export::ExportError;
use crate::book::{BookError, ImportError};
use crate::job::JobError;

/// A failure of the workspace, with the file it concerns.
#[derive(Debug, Error)]
pub enum WorkspaceError {
    /// The embedded ECO list does not load (a bug in the shipped data).
    #[error(transparent)]
    Book(#[from] BookError),
    /// A file could not be opened.
    #[error("cannot open {}: {source}", .path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A PGN file could not be read, or it holds no game.
    #[error("{}: {source}", .path.display())]
    Import {
        /// The file.
        path: PathBuf,
        /// Why.
        source: ImportError,
    },
    /// The learner cancelled the import of a file.
    #[error("loading {} was cancelled", .path.display())]
    Cancelled {
        /// The file.
        path: PathBuf,
    },
    /// A background job could not start or died.
    #[error(transparent)]
    Job(#[from] JobError),
    /// There is nothing to export (an empty drill, an unknown source).
    #[error("nothing to export")]
    NothingToExport,
    /// Writing PGN failed.
    #[error("cannot export: {0}")]
    Export(#[from] ExportError),
    /// Writing a file failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl WorkspaceError {
    /// The problems found in a file that held no game (empty otherwise).
    pub fn issues(&self) -> &[crate::book::ImportIssue] {
        match self {
            WorkspaceError::Import {
                source: ImportError::NoGames { issues },
                ..
            } => issues,
            _ => &[],
        }
    }
}
