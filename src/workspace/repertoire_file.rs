//! A repertoire file open for editing: the learner's own PGN file, its
//! [`Document`], saving in place with a backup, conflicts with changes made on disk,
//! and the journal that keeps unsaved edits across a crash.
//!
//! - **Save** ([`RepertoireFile::save`]) first reads the file again: when its bytes
//!   (SHA-256) are not those read or last saved, nothing is written and the outcome is
//!   [`SaveOutcome::Conflict`] (the window asks: reload, overwrite, save as). Otherwise
//!   the version on disk is kept as a backup ([`super::backups`], the last 10) and the
//!   document is written atomically.
//! - **Journal**: with a data folder, every edit, undo and redo is appended to the
//!   journal and synced before the call returns ([`super::repertoire_journal`]). At the
//!   next start, [`recoverable`] tells whether a file has unsaved edits,
//!   [`recover`] opens it with them (the undo history too), [`discard`] drops them.
//!   Closing a file with nothing unsaved ([`RepertoireFile::close`]) removes its
//!   journal.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use thiserror::Error;

use super::backups;
use super::repertoire_journal::{self as journal, Entry, Journal, sha256_hex};
use super::store::{StoreError, WriteLock};
use crate::book::repertoire::{Change, ChangeKind, Document, EditError, Op};

/// What went wrong with a repertoire file.
#[derive(Debug, Error)]
pub enum RepertoireFileError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file to create exists already.
    #[error("{} exists already; nothing was written", .path.display())]
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// Writing the file, a backup or the journal failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An edit was refused.
    #[error(transparent)]
    Edit(#[from] EditError),
    /// An edit of this file was refused (a command's: the file named).
    #[error("{}: {source}", .path.display())]
    EditOf {
        /// The file.
        path: PathBuf,
        /// Why the edit was refused.
        source: EditError,
    },
    /// A journal's edits could not be replayed on its base.
    #[error("the unsaved edits of {} cannot be replayed: entry {entry}: {reason}", .path.display())]
    Replay {
        /// The file.
        path: PathBuf,
        /// The entry, from 1.
        entry: usize,
        /// Why.
        reason: String,
    },
    /// There is no journal to recover for the file.
    #[error("there are no unsaved edits of {} to recover", .path.display())]
    NothingToRecover {
        /// The file.
        path: PathBuf,
    },
}

/// What the file on disk was when read or last saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiskStamp {
    /// Size in bytes.
    pub size: u64,
    /// Modification time, nanoseconds since 1970 (when the system says).
    pub modified_ns: Option<u128>,
    /// SHA-256 of the bytes, hex.
    pub sha256: String,
}

impl DiskStamp {
    fn of(path: &Path, bytes: &[u8]) -> DiskStamp {
        DiskStamp {
            size: bytes.len() as u64,
            modified_ns: fs::metadata(path)
                .ok()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map(|d| d.as_nanos()),
            sha256: sha256_hex(bytes),
        }
    }
}

/// What the file at `path` holds now: its bytes and their stamp, `None` when it is
/// missing.
type OnDisk = Option<(Vec<u8>, DiskStamp)>;

/// A failure to read the file as [`RepertoireFileError::Read`] ("cannot read …").
fn cannot_read(e: StoreError) -> RepertoireFileError {
    match e {
        StoreError::Io { path, source } => RepertoireFileError::Read { path, source },
        other => other.into(),
    }
}

/// Reads [`OnDisk`] of `path`.
fn read_on_disk(path: &Path) -> Result<OnDisk, StoreError> {
    match fs::read(path) {
        Ok(bytes) => {
            let stamp = DiskStamp::of(path, &bytes);
            Ok(Some((bytes, stamp)))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(StoreError::Io {
            path: path.to_owned(),
            source,
        }),
    }
}

/// How a save ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveOutcome {
    /// Written; the replaced version was kept as this backup (`None` without a data
    /// folder, or when the file did not exist).
    Saved {
        /// The backup.
        backup: Option<PathBuf>,
    },
    /// The file changed on disk since it was read or saved: nothing was written.
    Conflict {
        /// What is on disk now (`None`: the file is gone).
        on_disk: Option<DiskStamp>,
    },
}

/// A repertoire file open for editing (see the [module docs](self)).
#[derive(Debug)]
pub struct RepertoireFile {
    path: PathBuf,
    doc: Document,
    stamp: Option<DiskStamp>,
    /// The bytes the document was read from (the journal's base).
    base: Vec<u8>,
    data_dir: Option<PathBuf>,
    journal: Option<Journal>,
    journaling: bool,
    /// Every entry journaled since the base was read (to start a journal again after
    /// "save as").
    log: Vec<Entry>,
    /// The lock on the file, when held from the read ([`RepertoireFile::open_locked`]).
    held: Option<WriteLock>,
}

impl RepertoireFile {
    /// Opens `path`; `data_dir` is where backups and the journal go (`None`: neither).
    ///
    /// # Errors
    ///
    /// [`RepertoireFileError::Read`] when the file cannot be read.
    pub fn open(
        path: &Path,
        data_dir: Option<&Path>,
    ) -> Result<RepertoireFile, RepertoireFileError> {
        let bytes = fs::read(path).map_err(|source| RepertoireFileError::Read {
            path: path.to_owned(),
            source,
        })?;
        Ok(RepertoireFile {
            path: path.to_owned(),
            doc: Document::read(&bytes),
            stamp: Some(DiskStamp::of(path, &bytes)),
            base: bytes,
            data_dir: data_dir.map(Path::to_path_buf),
            journal: None,
            journaling: true,
            log: Vec::new(),
            held: None,
        })
    }

    /// Opens `path` as [`RepertoireFile::open`] does, locked against other Hastings
    /// processes from the read until it is dropped: a command that reads, edits and
    /// saves at once, so that no other writer comes between (another waits).
    ///
    /// # Errors
    ///
    /// [`StoreError::Busy`] when another process writes the file (after a wait),
    /// [`RepertoireFileError::Read`] when it cannot be read.
    pub fn open_locked(
        path: &Path,
        data_dir: Option<&Path>,
    ) -> Result<RepertoireFile, RepertoireFileError> {
        let lock = WriteLock::acquire(path)?;
        let mut file = RepertoireFile::open(path, data_dir)?;
        file.held = Some(lock);
        Ok(file)
    }

    /// Writes the new document `doc` to `path`, which must not exist, and opens it.
    ///
    /// # Errors
    ///
    /// [`RepertoireFileError::Exists`] when the file exists, [`StoreError`] when it
    /// cannot be written.
    pub fn create(
        path: &Path,
        doc: &Document,
        data_dir: Option<&Path>,
    ) -> Result<RepertoireFile, RepertoireFileError> {
        if !WriteLock::acquire(path)?.write_new(&doc.to_pgn())? {
            return Err(RepertoireFileError::Exists {
                path: path.to_owned(),
            });
        }
        RepertoireFile::open(path, data_dir)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The document.
    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// Whether edits are journaled (on by default when there is a data folder). A
    /// command that saves right after its edit may turn it off.
    pub fn set_journaling(&mut self, on: bool) {
        self.journaling = on;
    }

    /// Applies an edit and journals it.
    ///
    /// # Errors
    ///
    /// [`RepertoireFileError::Edit`] when it is refused (nothing changes), [`StoreError`]
    /// when the journal cannot be written (the edit is made but not safe from a crash).
    pub fn edit(&mut self, op: &Op) -> Result<Change, RepertoireFileError> {
        // A played move is journaled as its SAN at the position before it.
        let recorded = self.doc.recorded(op)?;
        let change = self.doc.apply(op)?;
        if change.kind != ChangeKind::MoveSelected {
            self.journal(&Entry::Op(recorded))?;
        }
        Ok(change)
    }

    /// Undoes the last edit, journaled.
    ///
    /// # Errors
    ///
    /// As [`RepertoireFile::edit`].
    pub fn undo(&mut self) -> Result<Change, RepertoireFileError> {
        let change = self.doc.undo()?;
        self.journal(&Entry::Undo)?;
        Ok(change)
    }

    /// Redoes the last undone edit, journaled.
    ///
    /// # Errors
    ///
    /// As [`RepertoireFile::edit`].
    pub fn redo(&mut self) -> Result<Change, RepertoireFileError> {
        let change = self.doc.redo()?;
        self.journal(&Entry::Redo)?;
        Ok(change)
    }

    fn journal(&mut self, entry: &Entry) -> Result<(), RepertoireFileError> {
        let Some(data_dir) = self.data_dir.as_deref().filter(|_| self.journaling) else {
            return Ok(());
        };
        match &mut self.journal {
            Some(j) => j.append(entry)?,
            None => {
                let dir = backups::folder(data_dir, &self.path).join("journal");
                let mut all = self.log.clone();
                all.push(entry.clone());
                self.journal = Some(Journal::start(&dir, &self.path, &self.base, &all)?);
            }
        }
        self.log.push(entry.clone());
        Ok(())
    }

    /// Saves to the file unless it changed on disk since it was read or saved
    /// ([`SaveOutcome::Conflict`]: nothing written). The file is locked against other
    /// Hastings processes from the check to the rename, and checked again right before
    /// the rename, so a change made meanwhile is never overwritten.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the backup or the file cannot be written, or another process
    /// writes it (the file is then as it was).
    pub fn save(&mut self) -> Result<SaveOutcome, RepertoireFileError> {
        self.with_lock(|file, lock| {
            let on_disk = read_on_disk(&file.path).map_err(cannot_read)?;
            let same = match (&on_disk, &file.stamp) {
                (Some((_, now)), Some(then)) => now.sha256 == then.sha256,
                (None, None) => true,
                _ => false,
            };
            if !same {
                return Ok(SaveOutcome::Conflict {
                    on_disk: on_disk.map(|(_, stamp)| stamp),
                });
            }
            file.write_to_file(lock, on_disk)
        })
    }

    /// Saves to the file whatever is on disk now (after a conflict, when the learner
    /// chose to overwrite); the version replaced is kept as a backup. A change made
    /// while this saves is still not overwritten ([`SaveOutcome::Conflict`]).
    ///
    /// # Errors
    ///
    /// As [`RepertoireFile::save`].
    pub fn save_overwrite(&mut self) -> Result<SaveOutcome, RepertoireFileError> {
        self.with_lock(|file, lock| {
            let on_disk = read_on_disk(&file.path).map_err(cannot_read)?;
            file.write_to_file(lock, on_disk)
        })
    }

    /// Saves to another file, which this then is (its own backups and journal).
    ///
    /// # Errors
    ///
    /// As [`RepertoireFile::save`].
    pub fn save_as(&mut self, path: &Path) -> Result<SaveOutcome, RepertoireFileError> {
        // The journal is keyed by the path: the new file's starts again (from the same
        // base, with every entry so far) at its next entry.
        if let Some(dir) = self.journal_dir() {
            self.journal = None;
            journal::remove(&dir)?;
        }
        self.held = None;
        self.path = path.to_owned();
        self.save_overwrite()
    }

    /// Runs `f` with the file locked: the lock held since
    /// [`RepertoireFile::open_locked`], or one taken for the call.
    fn with_lock<T>(
        &mut self,
        f: impl FnOnce(&mut RepertoireFile, &WriteLock) -> Result<T, RepertoireFileError>,
    ) -> Result<T, RepertoireFileError> {
        let held = self.held.is_some();
        let lock = match self.held.take() {
            Some(lock) => lock,
            None => WriteLock::acquire(&self.path)?,
        };
        let result = f(self, &lock);
        if held {
            self.held = Some(lock);
        }
        result
    }

    /// Writes the document under `lock`, the file holding `on_disk` (its bytes and
    /// stamp; `None`: missing), which is kept as a backup first.
    fn write_to_file(
        &mut self,
        lock: &WriteLock,
        on_disk: OnDisk,
    ) -> Result<SaveOutcome, RepertoireFileError> {
        let bytes = self.doc.to_pgn();
        let backup = match (&self.data_dir, &on_disk) {
            (Some(dir), Some((old, _))) => Some(backups::keep(dir, &self.path, old)?),
            _ => None,
        };
        let expected = on_disk.map(|(_, stamp)| stamp.sha256);
        let mut now = None;
        let written = lock.write_checked(&bytes, || {
            now = read_on_disk(&self.path)?;
            Ok(now.as_ref().map(|(_, s)| &s.sha256) == expected.as_ref())
        })?;
        if !written {
            return Ok(SaveOutcome::Conflict {
                on_disk: now.map(|(_, stamp)| stamp),
            });
        }
        let stamp = DiskStamp::of(&self.path, &bytes);
        self.doc.mark_saved();
        if !self.log.is_empty() {
            self.journal(&Entry::Saved {
                sha256: stamp.sha256.clone(),
                size: stamp.size,
            })?;
        }
        self.stamp = Some(stamp);
        Ok(SaveOutcome::Saved { backup })
    }

    /// Closes the file: with nothing unsaved, its journal is removed. With unsaved
    /// edits the journal stays, to be offered at the next start.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the journal cannot be removed.
    pub fn close(mut self) -> Result<(), RepertoireFileError> {
        if !self.doc.is_dirty()
            && let Some(dir) = self.journal_dir()
        {
            self.journal = None;
            journal::remove(&dir)?;
        }
        Ok(())
    }

    fn journal_dir(&self) -> Option<PathBuf> {
        self.data_dir
            .as_deref()
            .map(|d| backups::folder(d, &self.path).join("journal"))
    }
}

/// Unsaved edits of a file found at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recoverable {
    /// The file.
    pub path: PathBuf,
    /// How many journal entries (edits, undos, redos) came after the last save.
    pub unsaved: usize,
    /// Whether a torn last entry (a write cut by the crash) was left out.
    pub torn: bool,
}

/// Whether `path` has unsaved edits in the data folder `data_dir` ("recover unsaved
/// edits for FILE?").
///
/// # Errors
///
/// [`StoreError`] when a journal exists but cannot be read.
pub fn recoverable(data_dir: &Path, path: &Path) -> Result<Option<Recoverable>, StoreError> {
    let dir = backups::folder(data_dir, path).join("journal");
    let Some(found) = journal::read(&dir)? else {
        return Ok(None);
    };
    let unsaved = found.unsaved();
    Ok((unsaved > 0).then(|| Recoverable {
        path: path.to_owned(),
        unsaved,
        torn: found.torn,
    }))
}

/// Opens `path` with its unsaved edits replayed from the journal (with their undo
/// history); the document is dirty, and saving it checks the file against the last
/// version saved (or read) as usual.
///
/// # Errors
///
/// [`RepertoireFileError::NothingToRecover`] without a journal,
/// [`RepertoireFileError::Replay`] when an entry does not apply, [`StoreError`] when
/// the journal cannot be read or resumed.
pub fn recover(data_dir: &Path, path: &Path) -> Result<RepertoireFile, RepertoireFileError> {
    let dir = backups::folder(data_dir, path).join("journal");
    let Some(found) = journal::read(&dir)? else {
        return Err(RepertoireFileError::NothingToRecover {
            path: path.to_owned(),
        });
    };
    let mut doc = Document::read(&found.base);
    let mut stamp = DiskStamp {
        size: found.base.len() as u64,
        modified_ns: None,
        sha256: sha256_hex(&found.base),
    };
    for (i, entry) in found.entries.iter().enumerate() {
        let replayed = match entry {
            Entry::Op(op) => doc.apply(op).map(|_| ()),
            Entry::Undo => doc.undo().map(|_| ()),
            Entry::Redo => doc.redo().map(|_| ()),
            Entry::Saved { sha256, size } => {
                doc.mark_saved();
                stamp = DiskStamp {
                    size: *size,
                    modified_ns: None,
                    sha256: sha256.clone(),
                };
                Ok(())
            }
            Entry::Header { .. } => Ok(()),
        };
        replayed.map_err(|e| RepertoireFileError::Replay {
            path: path.to_owned(),
            entry: i + 1,
            reason: e.to_string(),
        })?;
    }
    let journal = journal::resume(&dir, &found)?;
    Ok(RepertoireFile {
        path: path.to_owned(),
        doc,
        stamp: Some(stamp),
        base: found.base,
        data_dir: Some(data_dir.to_owned()),
        journal: Some(journal),
        journaling: true,
        log: found.entries,
        held: None,
    })
}

/// Throws away the unsaved edits of `path`.
///
/// # Errors
///
/// [`StoreError`] when the journal cannot be removed.
pub fn discard(data_dir: &Path, path: &Path) -> Result<(), StoreError> {
    journal::remove(&backups::folder(data_dir, path).join("journal"))
}
