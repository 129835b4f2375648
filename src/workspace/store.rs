//! User data on disk: atomic writes, and corrupt files kept aside.
//!
//! A file is written to a temporary file beside it, synced, and renamed over the old
//! one, so a crash leaves either the old or the new file, never half of one; one
//! Hastings process writes a file at a time ([`write_atomic`], [`WriteLock`]). A file
//! that fails to parse is moved to `NAME.corrupt-<unix time>` and reported, so the next
//! save cannot overwrite what the user may want to recover; two copies kept aside in
//! the same second get names of their own ([`move_aside`], [`create_aside`]).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use thiserror::Error;

use super::file_lock;
pub use super::file_lock::WriteLock;
use crate::job::{Job, JobPoll};
use crate::trainer::progress::Progress;

/// A failure to read or write user data.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The file system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The data could not be written as text (RON or JSON); nothing was written, an old
    /// file is intact.
    #[error("{path}: the data cannot be written as text: {source}")]
    Encode {
        /// The file that was to be written.
        path: PathBuf,
        /// Why the serialiser refused (a `ron::Error` or `serde_json::Error`).
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Another Hastings process held the file for writing all the time we waited.
    #[error(
        "{}: another Hastings process{} is writing it; nothing was written (try again when it is done)",
        .path.display(),
        .holder.map(|pid| format!(" (pid {pid})")).unwrap_or_default()
    )]
    Busy {
        /// The file.
        path: PathBuf,
        /// The process holding it, when its lock file says.
        holder: Option<u32>,
    },
    /// The file is read-only (no write permission); nothing was written.
    #[error("{} is read-only; nothing was written", .path.display())]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
}

impl StoreError {
    /// [`StoreError::Encode`] for `path`.
    pub fn encode(
        path: &Path,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> StoreError {
        StoreError::Encode {
            path: path.to_owned(),
            source: Box::new(source),
        }
    }
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_owned(),
        source,
    }
}

/// First half of [`write_atomic`]: writes and syncs a temporary file of this writer
/// alone beside `path` (`.NAME.<pid>-<n>.tmp`) and returns its path; the next save of
/// `path` removes it if it is left.
///
/// # Errors
///
/// [`StoreError::Io`] when the directory or file cannot be written (a full disk); the
/// partly written temporary file is removed then.
pub fn write_temp(path: &Path, contents: &[u8]) -> Result<PathBuf, StoreError> {
    file_lock::write_temp_file(&file_lock::follow_links(path), contents, None)
}

/// Saves `contents` as `path`: the one way Hastings writes a user's file. Locks the
/// file against other Hastings processes (waiting a few seconds for one that writes
/// it), writes a temporary file beside it and renames it over the file; a symbolic
/// link is followed, the permissions are kept and a read-only file is refused (see
/// [`WriteLock`]).
///
/// # Errors
///
/// [`StoreError::Busy`] when another process writes the file, [`StoreError::ReadOnly`]
/// when it is read-only, [`StoreError::Io`] when writing or renaming fails; the old
/// file is then intact and no temporary file is left.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), StoreError> {
    WriteLock::acquire(path)?.write(contents)
}

/// `NAME.<what>-<unix time>` beside `path`, or `NAME.<what>-<unix time>-<n>` when that
/// exists: a name for a copy kept aside that no other copy has. The caller creates it
/// with [`create_aside`] (or renames onto it at once).
fn aside_candidate(path: &Path, what: &str, n: u32) -> PathBuf {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    if n == 0 {
        name.push(format!(".{what}-{secs}"));
    } else {
        name.push(format!(".{what}-{secs}-{n}"));
    }
    path.with_file_name(name)
}

/// Keeps `bytes` (a damaged part of `path`) in a new file beside it,
/// `NAME.<what>-<unix time>` (with `-<n>` added when a copy of that second exists):
/// created new, so it never replaces another copy. Returns its path.
///
/// # Errors
///
/// [`StoreError::Io`] when the copy cannot be written.
pub fn create_aside(path: &Path, what: &str, bytes: &[u8]) -> Result<PathBuf, StoreError> {
    create_first_free(path, |n| aside_candidate(path, what, n), bytes)
}

/// Writes `bytes` to a new file in `dir`, `STEM-<unix time>.EXT` (with `-<n>` before the
/// extension when a file of that second exists): created new, so it never replaces
/// another file (text pasted into the window, kept as a file). Returns its path.
///
/// # Errors
///
/// [`StoreError::Io`] when the folder or the file cannot be written.
pub fn create_unique(
    dir: &Path,
    stem: &str,
    ext: &str,
    bytes: &[u8],
) -> Result<PathBuf, StoreError> {
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let candidate = |n: u32| match n {
        0 => dir.join(format!("{stem}-{secs}.{ext}")),
        n => dir.join(format!("{stem}-{secs}-{n}.{ext}")),
    };
    create_first_free(dir, candidate, bytes)
}

/// Writes `bytes` to the first of `candidate(0)`, `candidate(1)`, … that does not exist,
/// created new and synced; `path` names the file in the error when none is free. A file
/// whose write fails part way (a full disk, a file size limit) is removed: nothing
/// half-written is left.
fn create_first_free(
    path: &Path,
    candidate: impl Fn(u32) -> PathBuf,
    bytes: &[u8],
) -> Result<PathBuf, StoreError> {
    for n in 0..10_000 {
        let aside = candidate(n);
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&aside)
        {
            Ok(mut f) => {
                let written = f.write_all(bytes).and_then(|()| f.sync_all());
                return match written {
                    Ok(()) => Ok(aside),
                    Err(e) => {
                        drop(f);
                        // Best effort: the error below says what failed either way.
                        let _ = fs::remove_file(&aside);
                        Err(io_err(&aside)(e))
                    }
                };
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io_err(&aside)(e)),
        }
    }
    Err(StoreError::Io {
        path: path.to_owned(),
        source: io::Error::new(io::ErrorKind::AlreadyExists, "too many files of that name"),
    })
}

/// Moves `path` aside to a new name, `NAME.<what>-<unix time>` (with `-<n>` added when
/// a copy of that second exists), never replacing another copy: the name is first
/// taken with an empty file created new, then `path` renamed onto it. Returns the new
/// path.
///
/// # Errors
///
/// [`StoreError::Io`] when the file cannot be moved.
pub fn move_aside(path: &Path, what: &str) -> Result<PathBuf, StoreError> {
    let aside = create_aside(path, what, &[])?;
    fs::rename(path, &aside).map_err(|e| {
        let _ = fs::remove_file(&aside);
        io_err(path)(e)
    })?;
    Ok(aside)
}

/// What loading user data found.
#[derive(Debug)]
pub struct Loaded<T> {
    /// The data: what the file held, or the default when it was missing or corrupt.
    pub value: T,
    /// A warning for the user: where a corrupt file was moved, or why it could not be read.
    pub warning: Option<String>,
}

/// Loads `path` with `parse`. A missing file gives the default; a file that fails to
/// parse is moved aside to `NAME.corrupt-<unix time>` (see [`move_aside`]: a second
/// copy in the same second gets `-1` added, and so on) and gives the default with a
/// warning.
pub fn load_or_set_aside<T: Default, E: std::fmt::Display>(
    path: &Path,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Loaded<T> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Loaded {
                value: T::default(),
                warning: None,
            };
        }
        Err(e) => {
            return Loaded {
                value: T::default(),
                warning: Some(format!("cannot read {}: {e}", path.display())),
            };
        }
    };
    let parsed = match std::str::from_utf8(&bytes) {
        Ok(text) => parse(text).map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    match parsed {
        Ok(value) => Loaded {
            value,
            warning: None,
        },
        Err(reason) => {
            let warning = match move_aside(path, "corrupt") {
                Ok(aside) => format!(
                    "{} could not be read ({reason}); it was kept as {} and a fresh one started",
                    path.display(),
                    aside.display()
                ),
                Err(e) => format!(
                    "{} could not be read ({reason}) nor moved aside ({e})",
                    path.display()
                ),
            };
            log::warn!("{warning}");
            Loaded {
                value: T::default(),
                warning: Some(warning),
            }
        }
    }
}

/// Loads progress from `path` (see [`load_or_set_aside`]).
pub fn load_progress(path: &Path) -> Loaded<Progress> {
    load_or_set_aside(path, Progress::from_ron)
}

/// Saves progress to `path` atomically.
///
/// # Errors
///
/// [`StoreError::Encode`] when the progress cannot be written as text (nothing is
/// written), otherwise as [`write_atomic`].
pub fn save_progress(path: &Path, progress: &Progress) -> Result<(), StoreError> {
    let text = progress.to_ron().map_err(|e| StoreError::encode(path, e))?;
    write_atomic(path, text.as_bytes())
}

/// The learner's progress and the file it is kept in (`progress.ron`).
///
/// [`ProgressFile::save`] writes on a background thread, so that a frame never waits for
/// the disk; one write runs at a time, and a change made meanwhile is written when it
/// ends ([`ProgressFile::poll`], once a frame). [`ProgressFile::save_now`] waits for the
/// disk (closing the window). A failed save keeps the progress in memory and sets
/// [`ProgressFile::warning`]; the next save tries again.
#[derive(Debug, Default)]
pub struct ProgressFile {
    path: Option<PathBuf>,
    progress: Progress,
    warning: Option<String>,
    dirty: bool,
    /// Counts the calls to [`ProgressFile::progress_mut`]: what was shown of the progress
    /// is up to date while it is unchanged.
    generation: u64,
    /// The write running on its own thread, if any.
    writing: Option<Job<Result<(), StoreError>>>,
}

impl ProgressFile {
    /// The progress saved at `path` (a corrupt file is set aside with a warning, see
    /// [`load_or_set_aside`]); `None` keeps the progress in memory only.
    pub fn load(path: Option<PathBuf>) -> ProgressFile {
        let (progress, warning) = match &path {
            Some(p) => {
                let loaded = load_progress(p);
                (loaded.value, loaded.warning)
            }
            None => (Progress::new(), None),
        };
        ProgressFile {
            path,
            progress,
            warning,
            dirty: false,
            generation: 0,
            writing: None,
        }
    }

    /// The progress.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// The progress, to record something; it is saved at the next [`ProgressFile::save`].
    pub fn progress_mut(&mut self) -> &mut Progress {
        self.dirty = true;
        self.generation += 1;
        &mut self.progress
    }

    /// Changes when the progress may have changed (each [`ProgressFile::progress_mut`]).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// A warning for the learner: the file was corrupt and set aside, or cannot be saved.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    /// Starts writing the progress on a background thread if it changed since the last
    /// save (after the write running now, if one is). Where no thread can be started,
    /// writes at once.
    pub fn save(&mut self) {
        let Some(path) = &self.path else {
            return;
        };
        if !self.dirty || self.writing.is_some() {
            return;
        }
        let (path, progress) = (path.clone(), self.progress.clone());
        let job = Job::spawn("save-progress", Arc::new(|| {}), move |_| {
            save_progress(&path, &progress)
        });
        match job {
            Ok(job) => {
                self.writing = Some(job);
                self.dirty = false;
            }
            Err(_) => self.save_now(),
        }
    }

    /// Takes the result of a background write (once a frame); starts the next one when
    /// the progress changed meanwhile.
    pub fn poll(&mut self) {
        if let Some(job) = &self.writing {
            let polled = job.poll();
            if !matches!(polled, JobPoll::Running) {
                self.writing = None;
                // After a failure, the next save waits for the next change or the exit.
                if self.finished(polled) {
                    self.save();
                }
            }
        }
    }

    /// Writes the progress now if it changed, after the background write running, if
    /// any (what closing the window does).
    pub fn save_now(&mut self) {
        if let Some(job) = self.writing.take() {
            let polled = job.poll_blocking();
            self.finished(polled);
        }
        let Some(path) = &self.path else {
            return;
        };
        if !self.dirty {
            return;
        }
        match save_progress(path, &self.progress) {
            Ok(()) => self.dirty = false,
            Err(e) => self.warning = Some(format!("The progress could not be saved: {e}")),
        }
    }

    /// A background write ended: whether it succeeded. A failure is kept as the
    /// warning and the progress is saved again next time.
    fn finished(&mut self, polled: JobPoll<Result<(), StoreError>>) -> bool {
        let failure = match polled {
            JobPoll::Finished(Ok(())) | JobPoll::Running => return true,
            JobPoll::Finished(Err(e)) => e.to_string(),
            JobPoll::Died(e) => e.to_string(),
        };
        self.warning = Some(format!("The progress could not be saved: {failure}"));
        self.dirty = true;
        false
    }
}
