//! The journal of a repertoire file's unsaved edits, so that a crash, a SIGTERM or a
//! `kill -9` loses none of them.
//!
//! In the file's folder of the data folder ([`super::backups::folder`]), `journal/`
//! holds `base.pgn`, the bytes the document was read from (written atomically when the
//! first edit is journaled), and `edits.jsonl`, one JSON entry a line: a header (the
//! file's path, the base's SHA-256 and size), then every edit ([`Op`]), undo, redo and
//! save in order, each appended and synced before the edit returns. Node ids are given
//! out in order, so replaying the entries on the base gives the same document, with its
//! undo history.
//!
//! Reading stops at the first line that is not a whole entry: a torn last line (a
//! write cut by a crash) is dropped; the journal is then copied aside
//! (`edits.jsonl.torn-<unix time>`) before it is cut back to its whole entries.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::store::{StoreError, create_aside, write_atomic};
use crate::book::repertoire::Op;

/// One line of the journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Entry {
    /// The first line: which file, and the base the edits apply to.
    Header {
        /// The file's path.
        path: PathBuf,
        /// The base's SHA-256, hex.
        sha256: String,
        /// The base's size in bytes.
        size: u64,
    },
    /// An edit.
    Op(Op),
    /// An undo.
    Undo,
    /// A redo.
    Redo,
    /// The document was saved: the file then held these bytes.
    Saved {
        /// Their SHA-256, hex.
        sha256: String,
        /// Their size.
        size: u64,
    },
}

/// The hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_owned(),
        source,
    }
}

/// An open journal, appended to.
#[derive(Debug)]
pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// Starts a journal in `dir` for `file` whose document was read from `base`, with
    /// the entries `prior` already made: writes `base.pgn`, then the header and those
    /// entries (each file atomically), replacing any journal there.
    ///
    /// # Errors
    ///
    /// [`StoreError::Io`] when the folder or files cannot be written.
    pub fn start(
        dir: &Path,
        file: &Path,
        base: &[u8],
        prior: &[Entry],
    ) -> Result<Journal, StoreError> {
        write_atomic(&dir.join("base.pgn"), base)?;
        let header = Entry::Header {
            path: file.to_owned(),
            sha256: sha256_hex(base),
            size: base.len() as u64,
        };
        let path = dir.join("edits.jsonl");
        let mut text = line(&header, &path)?;
        for entry in prior {
            text.extend(line(entry, &path)?);
        }
        write_atomic(&path, &text)?;
        Journal::append_to(&path)
    }

    /// Opens the journal at `path` to append to it.
    fn append_to(path: &Path) -> Result<Journal, StoreError> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io(path))?;
        Ok(Journal {
            file,
            path: path.to_owned(),
        })
    }

    /// Appends `entry` and syncs it to disk.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when it cannot be written.
    pub fn append(&mut self, entry: &Entry) -> Result<(), StoreError> {
        let bytes = line(entry, &self.path)?;
        self.file.write_all(&bytes).map_err(io(&self.path))?;
        self.file.sync_data().map_err(io(&self.path))
    }
}

fn line(entry: &Entry, path: &Path) -> Result<Vec<u8>, StoreError> {
    let mut bytes = serde_json::to_vec(entry).map_err(|e| StoreError::encode(path, e))?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// A journal as found on disk.
#[derive(Debug, Clone)]
pub struct Found {
    /// The bytes the edits apply to.
    pub base: Vec<u8>,
    /// The file's path, from the header.
    pub path: PathBuf,
    /// The entries after the header, whole lines only.
    pub entries: Vec<Entry>,
    /// Whether a last line was torn (or a line damaged) and left out.
    pub torn: bool,
    /// The length of the whole lines (header included), in bytes.
    pub whole: u64,
}

impl Found {
    /// How many entries come after the last save (or the start): the unsaved edits.
    pub fn unsaved(&self) -> usize {
        let last_save = self
            .entries
            .iter()
            .rposition(|e| matches!(e, Entry::Saved { .. }))
            .map_or(0, |i| i + 1);
        self.entries.len() - last_save
    }
}

/// Reads the journal in `dir`; `None` when there is none (or no header).
///
/// # Errors
///
/// [`StoreError::Io`] when it exists but cannot be read, or its base is missing.
pub fn read(dir: &Path) -> Result<Option<Found>, StoreError> {
    let path = dir.join("edits.jsonl");
    let bytes = match fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(StoreError::Io { path, source }),
    };
    let mut entries = Vec::new();
    let mut whole = 0usize;
    let mut torn = false;
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        let Some(end) = memchr::memchr(b'\n', rest) else {
            torn = true;
            break;
        };
        match serde_json::from_slice::<Entry>(&rest[..end]) {
            Ok(entry) => entries.push(entry),
            Err(_) => {
                torn = true;
                break;
            }
        }
        whole += end + 1;
        rest = &rest[end + 1..];
    }
    let mut entries = entries.into_iter();
    let Some(Entry::Header { path: file, .. }) = entries.next() else {
        return Ok(None);
    };
    let base_path = dir.join("base.pgn");
    let base = fs::read(&base_path).map_err(io(&base_path))?;
    Ok(Some(Found {
        base,
        path: file,
        entries: entries.collect(),
        torn,
        whole: whole as u64,
    }))
}

/// Opens the journal in `dir` to go on appending after a recovery: a torn or damaged
/// tail is first copied aside (`edits.jsonl.torn-<unix time>`), then cut off.
///
/// # Errors
///
/// [`StoreError::Io`] when the journal cannot be copied, cut or opened.
pub fn resume(dir: &Path, found: &Found) -> Result<Journal, StoreError> {
    let path = dir.join("edits.jsonl");
    if found.torn {
        let bytes = fs::read(&path).map_err(io(&path))?;
        create_aside(&path, "torn", &bytes)?;
        let file = OpenOptions::new()
            .write(true)
            .open(&path)
            .map_err(io(&path))?;
        file.set_len(found.whole).map_err(io(&path))?;
        file.sync_all().map_err(io(&path))?;
    }
    Journal::append_to(&path)
}

/// Deletes the journal in `dir` (the edits are saved, or thrown away).
///
/// # Errors
///
/// [`StoreError::Io`] when it exists but cannot be deleted.
pub fn remove(dir: &Path) -> Result<(), StoreError> {
    for name in ["edits.jsonl", "base.pgn"] {
        let p = dir.join(name);
        match fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(StoreError::Io { path: p, source }),
        }
    }
    Ok(())
}
