//! The temperatures fitted to an index's games ([`BandFit`]), kept per filter (a band
//! and speed, or a player's tree) in `spar-fits.json` in the index's folder, beside its
//! manifest, written atomically as the other data files are. A fit is kept with the
//! games the index had then: once games are added it no longer answers, and is fitted
//! again. Readers of the index ignore the file.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::ExplorerIndex;
use crate::book::explorer::ExplorerFilter;
use crate::trainer::spar::fit::BandFit;
use crate::workspace::store::{StoreError, write_atomic};

/// The file's name in the index's folder.
pub const SPAR_FITS: &str = "spar-fits.json";

/// The file's format.
const VERSION: u32 = 1;

/// Why the fits cannot be read or kept.
#[derive(Debug, Error)]
pub enum SparFitsError {
    /// The file cannot be read.
    #[error("{}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file is not the fits' JSON.
    #[error("{} is not a file of fitted temperatures: {reason}", .path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The file cannot be written.
    #[error(transparent)]
    Write(#[from] StoreError),
}

/// One fit and what it was fitted to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Entry {
    /// The filter ([`filter_key`]).
    filter: String,
    /// The index's games when it was fitted.
    games: u64,
    /// The fit.
    fit: BandFit,
}

/// The file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct FitsFile {
    version: u32,
    fits: Vec<Entry>,
}

/// A filter as the file names it.
pub fn filter_key(filter: &ExplorerFilter) -> String {
    format!(
        "bands {:#06x} speeds {:#04x} years {:?} partition {:?}",
        filter.bands, filter.speeds, filter.years, filter.partition
    )
}

/// The file of `index`.
pub fn fits_path(index: &ExplorerIndex) -> PathBuf {
    index.dir().join(SPAR_FITS)
}

fn read(path: &Path) -> Result<FitsFile, SparFitsError> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(FitsFile {
                version: VERSION,
                fits: Vec::new(),
            });
        }
        Err(source) => {
            return Err(SparFitsError::Read {
                path: path.to_owned(),
                source,
            });
        }
    };
    let file: FitsFile = serde_json::from_str(&text).map_err(|e| SparFitsError::Parse {
        path: path.to_owned(),
        reason: e.to_string(),
    })?;
    if file.version != VERSION {
        return Err(SparFitsError::Parse {
            path: path.to_owned(),
            reason: format!("format {} (this Hastings reads {VERSION})", file.version),
        });
    }
    Ok(file)
}

/// The fit kept for `filter` of `index`, if one was made with the games it has now.
///
/// # Errors
///
/// [`SparFitsError`] when the file is there but cannot be read.
pub fn load_fit(
    index: &ExplorerIndex,
    filter: &ExplorerFilter,
) -> Result<Option<BandFit>, SparFitsError> {
    let key = filter_key(filter);
    let file = read(&fits_path(index))?;
    Ok(file
        .fits
        .into_iter()
        .find(|e| e.filter == key && e.games == index.games())
        .map(|e| e.fit))
}

/// Keeps `fit` for `filter` of `index` (replacing an older one), written atomically.
///
/// # Errors
///
/// [`SparFitsError::Write`] when the file cannot be written (a read-only index):
/// the old file is intact. A file that cannot be read is replaced.
pub fn save_fit(
    index: &ExplorerIndex,
    filter: &ExplorerFilter,
    fit: &BandFit,
) -> Result<(), SparFitsError> {
    let path = fits_path(index);
    let key = filter_key(filter);
    let mut file = read(&path).unwrap_or(FitsFile {
        version: VERSION,
        fits: Vec::new(),
    });
    file.fits.retain(|e| e.filter != key);
    file.fits.push(Entry {
        filter: key,
        games: index.games(),
        fit: fit.clone(),
    });
    let text = serde_json::to_string_pretty(&file).map_err(|e| StoreError::Encode {
        path: path.clone(),
        source: Box::new(e),
    })?;
    write_atomic(&path, text.as_bytes())?;
    Ok(())
}
