//! The manifest of an explorer index: which segments are committed, the ply limit and
//! the players it keeps trees for. It is replaced atomically (temporary file, sync,
//! rename, sync of the directory), so an index is always the segments of its last
//! committed manifest; segment files it does not list are leftovers of an interrupted
//! write and are ignored (and removed by the next write).

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ExplorerError;
use crate::workspace::store::write_atomic;

/// The manifest's file name in the index directory.
pub const MANIFEST: &str = "manifest.json";

/// The manifest's format version.
const FORMAT: u32 = 1;

/// One committed segment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentInfo {
    /// Its file name in the index directory.
    pub file: String,
    /// Games counted in it.
    pub games: u64,
    /// Records it holds.
    pub records: u64,
    /// Its length in bytes (checked when it is opened).
    pub bytes: u64,
    /// The PGN files its games came from, as given.
    pub sources: Vec<String>,
}

/// What an index holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The format version.
    pub format: u32,
    /// Plies counted from the start of each game.
    pub max_plies: u32,
    /// The players whose trees are kept, as given.
    pub players: Vec<String>,
    /// The committed segments, oldest first.
    pub segments: Vec<SegmentInfo>,
    /// The number of the next segment file.
    pub next_segment: u64,
}

impl Manifest {
    /// A manifest with no segment.
    pub fn new(max_plies: u32, players: Vec<String>) -> Manifest {
        Manifest {
            format: FORMAT,
            max_plies,
            players,
            segments: Vec::new(),
            next_segment: 1,
        }
    }

    /// Reads the manifest of the index at `dir`.
    ///
    /// # Errors
    ///
    /// [`ExplorerError::NotAnIndex`] when there is no manifest,
    /// [`ExplorerError::BadManifest`] when it cannot be read.
    pub fn load(dir: &Path) -> Result<Manifest, ExplorerError> {
        let path = dir.join(MANIFEST);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(ExplorerError::NotAnIndex {
                    path: dir.to_owned(),
                });
            }
            Err(source) => return Err(ExplorerError::Io { path, source }),
        };
        let manifest: Manifest =
            serde_json::from_str(&text).map_err(|e| ExplorerError::BadManifest {
                path: path.clone(),
                reason: e.to_string(),
            })?;
        if manifest.format != FORMAT {
            return Err(ExplorerError::BadManifest {
                path,
                reason: format!("format {}, expected {FORMAT}", manifest.format),
            });
        }
        Ok(manifest)
    }

    /// Commits the manifest to `dir`: written atomically, then the directory synced.
    ///
    /// # Errors
    ///
    /// [`ExplorerError::Io`] when it cannot be written.
    pub fn commit(&self, dir: &Path) -> Result<(), ExplorerError> {
        let path = dir.join(MANIFEST);
        let text = serde_json::to_vec_pretty(self).map_err(|e| ExplorerError::BadManifest {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        super::crash_point("manifest-write");
        write_atomic(&path, &text).map_err(ExplorerError::Store)?;
        super::crash_point("manifest-renamed");
        sync_dir(dir)
    }

    /// The next segment's file name, counted as used.
    pub fn take_segment_name(&mut self) -> String {
        let name = format!("seg-{:06}.seg", self.next_segment);
        self.next_segment += 1;
        name
    }

    /// Games in every segment.
    pub fn games(&self) -> u64 {
        self.segments.iter().map(|s| s.games).sum()
    }

    /// Removes files of `dir` that no committed manifest names: segments and
    /// temporary files of an interrupted write.
    pub fn remove_leftovers(&self, dir: &Path) -> Vec<PathBuf> {
        let mut removed = Vec::new();
        let Ok(entries) = fs::read_dir(dir) else {
            return removed;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if name.starts_with(".hastings-explorer-") && path.is_dir() {
                if fs::remove_dir_all(&path).is_ok() {
                    removed.push(path);
                }
                continue;
            }
            let ours = name.starts_with("seg-") || name.ends_with(".tmp");
            let committed = self.segments.iter().any(|s| s.file == name);
            if ours && !committed && fs::remove_file(&path).is_ok() {
                removed.push(path);
            }
        }
        removed
    }
}

/// Syncs a directory, so that renames in it are on disk.
///
/// # Errors
///
/// [`ExplorerError::Io`] when it cannot be opened or synced.
pub fn sync_dir(dir: &Path) -> Result<(), ExplorerError> {
    let io_err = |source| ExplorerError::Io {
        path: dir.to_owned(),
        source,
    };
    File::open(dir).map_err(io_err)?.sync_all().map_err(io_err)
}
