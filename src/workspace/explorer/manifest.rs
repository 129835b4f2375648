//! The manifest of an explorer index: which segments are committed, the ply limit and
//! the players it keeps trees for, with a CRC32C of its contents. It is replaced
//! atomically (temporary file, sync, rename, sync of the directory): the rename is the
//! commit, so an index is always the segments of its last committed manifest. Files a
//! writer leaves when it is interrupted are the index's own by their exact names
//! ([`Manifest::is_leftover`]) and are removed by the next writer; no other file of
//! the directory is ever touched.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ExplorerError;
use super::checksum::crc;
use super::lock::LOCK_FILE;

/// The manifest's file name in the index directory.
pub const MANIFEST: &str = "manifest.json";

/// The temporary file a commit writes.
const MANIFEST_TEMP: &str = "manifest.json.tmp";

/// The manifest's format version: 2 has a checksum and the retired segments (1,
/// before 2026-11-28, had neither).
const FORMAT: u32 = 2;

/// The prefix of the directories of runs spilled while a segment is made
/// (`RunDir`, purpose `explorer-make`).
const RUN_DIR_PREFIX: &str = ".hastings-explorer-make-";

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
    /// Segment files this manifest's commit replaced (by their merge): removed after
    /// the commit, or by the next writer when that was interrupted.
    pub retired: Vec<String>,
    /// The CRC32C of the manifest as written with this field 0.
    pub checksum: u32,
}

/// The format version, read before the rest.
#[derive(Deserialize)]
struct Format {
    format: u32,
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
            retired: Vec::new(),
            checksum: 0,
        }
    }

    /// The manifest's text with its checksum.
    fn to_text(&self) -> Result<(Vec<u8>, u32), serde_json::Error> {
        let unsummed = serde_json::to_vec_pretty(&Manifest {
            checksum: 0,
            ..self.clone()
        })?;
        let checksum = crc(&unsummed);
        let text = serde_json::to_vec_pretty(&Manifest {
            checksum,
            ..self.clone()
        })?;
        Ok((text, checksum))
    }

    /// Reads the manifest of the index at `dir` and checks its checksum.
    ///
    /// # Errors
    ///
    /// [`ExplorerError::NotAnIndex`] when there is no manifest,
    /// [`ExplorerError::BadManifest`] when it cannot be read, is damaged or is of
    /// another format.
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
        let bad = |reason: String| ExplorerError::BadManifest {
            path: path.clone(),
            reason,
        };
        let format = serde_json::from_str::<Format>(&text)
            .map_err(|e| bad(e.to_string()))?
            .format;
        if format < FORMAT {
            return Err(bad(format!(
                "format {format}, made by an earlier Hastings; this one reads format \
                 {FORMAT}: make the index again with `hastings explorer make`"
            )));
        }
        if format != FORMAT {
            return Err(bad(format!(
                "format {format}, expected {FORMAT} (made by a newer Hastings?)"
            )));
        }
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        let (_, checksum) = manifest.to_text().map_err(|e| bad(e.to_string()))?;
        if checksum != manifest.checksum {
            return Err(bad(format!(
                "it is damaged: its checksum is {checksum:08x}, it says {:08x}",
                manifest.checksum
            )));
        }
        Ok(manifest)
    }

    /// Commits the manifest to `dir`: written to a temporary file and synced, then
    /// renamed over the manifest. The rename is the commit: an error means the index
    /// is as it was; nothing after it can fail (the directory's sync after it is
    /// only asked for).
    ///
    /// # Errors
    ///
    /// [`ExplorerError::Io`] when it cannot be written or renamed.
    pub fn commit(&mut self, dir: &Path) -> Result<(), ExplorerError> {
        let path = dir.join(MANIFEST);
        let temp = dir.join(MANIFEST_TEMP);
        let (text, checksum) = self.to_text().map_err(|e| ExplorerError::BadManifest {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        super::fault_point("manifest-write", &temp)?;
        let written = File::create(&temp).and_then(|mut f| {
            f.write_all(&text)?;
            f.sync_all()
        });
        if let Err(source) = written.and_then(|()| fs::rename(&temp, &path)) {
            let _ = fs::remove_file(&temp);
            return Err(ExplorerError::Io { path, source });
        }
        self.checksum = checksum;
        super::crash_point("manifest-renamed");
        let _ = sync_dir(dir);
        Ok(())
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

    /// Whether `name` in the index directory is a file an interrupted writer of this
    /// index left: a segment (or its temporary file) of a number the manifest has not
    /// given out, a segment its commit retired, the manifest's temporary file or a
    /// directory of spilled runs, by their exact names. Committed segments, the
    /// manifest, the lock and any other name are not.
    pub fn is_leftover(&self, name: &str) -> bool {
        if self.segments.iter().any(|s| s.file == name) {
            return false;
        }
        if name == MANIFEST_TEMP || self.retired.iter().any(|r| r == name) {
            return true;
        }
        if let Some(rest) = name.strip_prefix(RUN_DIR_PREFIX) {
            return rest.split_once('-').is_some_and(|(pid, nanos)| {
                [pid, nanos]
                    .iter()
                    .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            });
        }
        let number = name
            .strip_prefix("seg-")
            .and_then(|n| n.strip_suffix(".tmp").unwrap_or(n).strip_suffix(".seg"));
        number.is_some_and(|n| {
            n.len() >= 6
                && n.bytes().all(|b| b.is_ascii_digit())
                && n.parse::<u64>().is_ok_and(|n| n >= self.next_segment)
        })
    }

    /// Removes the files of `dir` an interrupted writer left ([`Manifest::is_leftover`]);
    /// gives what was removed.
    pub fn remove_leftovers(&self, dir: &Path) -> Vec<PathBuf> {
        let mut removed = Vec::new();
        let Ok(entries) = fs::read_dir(dir) else {
            return removed;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !self.is_leftover(&name) {
                continue;
            }
            let path = entry.path();
            let gone = if name.starts_with(RUN_DIR_PREFIX) {
                fs::remove_dir_all(&path)
            } else {
                fs::remove_file(&path)
            };
            if gone.is_ok() {
                removed.push(path);
            }
        }
        removed
    }
}

/// What `dir` holds that is neither the lock file nor a leftover of an interrupted
/// `make` (which writes the segment `seg-000001.seg` and has no manifest yet): a
/// folder `make` may not write into when this is not empty.
pub(super) fn foreign_files(dir: &Path) -> io::Result<Vec<String>> {
    let fresh = Manifest::new(0, Vec::new());
    let mut names: Vec<String> = fs::read_dir(dir)?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<io::Result<_>>()?;
    let ours = names.iter().any(|n| n == LOCK_FILE);
    names.retain(|n| !ours || (n != LOCK_FILE && !fresh.is_leftover(n)));
    names.sort();
    Ok(names)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_index_s_own_names_are_leftovers() {
        let mut m = Manifest::new(12, Vec::new());
        for _ in 0..3 {
            m.take_segment_name();
        }
        m.segments.push(SegmentInfo {
            file: "seg-000003.seg".to_owned(),
            games: 1,
            records: 1,
            bytes: 1,
            sources: Vec::new(),
        });
        m.retired = vec!["seg-000001.seg".to_owned(), "seg-000002.seg".to_owned()];
        for own in [
            "seg-000004.seg",
            "seg-000004.seg.tmp",
            "seg-1234567.seg",
            "seg-000001.seg",
            "manifest.json.tmp",
            ".hastings-explorer-make-123-456",
        ] {
            assert!(m.is_leftover(own), "{own}");
        }
        for foreign in [
            "seg-000003.seg",
            "seg-000003.seg.tmp",
            "manifest.json",
            "writer.lock",
            "notes.tmp",
            "seg-notes.txt",
            "seg-4.seg",
            "seg-00000x.seg",
            "seg-000009.seg.bak",
            ".hastings-explorer-make-",
            ".hastings-explorer-make-1-x",
            "games.pgn",
        ] {
            assert!(!m.is_leftover(foreign), "{foreign}");
        }
    }
}
