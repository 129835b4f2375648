//! Style profile files: read with a clear error, written atomically.
//!
//! A profile that cannot be read is an error naming the file, the line and column, and
//! why; nothing is changed (the caller keeps its style). Unlike the learner's progress,
//! a corrupt profile is not moved aside: it is the learner's own file, given by path.

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::store::{StoreError, write_atomic};
use crate::sampler::profile::{ProfileError, StyleProfile};

/// A profile file that cannot be read or written.
#[derive(Debug, Error)]
pub enum ProfileFileError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file is not a profile.
    #[error("{}: {source}", .path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and why.
        source: ProfileError,
    },
    /// The file cannot be written.
    #[error(transparent)]
    Write(#[from] StoreError),
}

/// Reads the profile at `path`.
///
/// # Errors
///
/// [`ProfileFileError::Read`] when the file cannot be read (or is not UTF-8),
/// [`ProfileFileError::Parse`] with line, column and reason when it is not a profile.
pub fn load_profile(path: &Path) -> Result<StyleProfile, ProfileFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| ProfileFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    StyleProfile::from_ron(&text).map_err(|source| ProfileFileError::Parse {
        path: path.to_owned(),
        source,
    })
}

/// Writes `profile` to `path` atomically (a temporary file renamed over the old one).
///
/// # Errors
///
/// [`ProfileFileError::Write`] when the profile cannot be written as text
/// ([`StoreError::Encode`]) or the file cannot be written; nothing is written then and an
/// old file is intact.
pub fn save_profile(path: &Path, profile: &StyleProfile) -> Result<(), ProfileFileError> {
    let text = profile.to_ron().map_err(|e| StoreError::encode(path, e))?;
    write_atomic(path, text.as_bytes())?;
    Ok(())
}
