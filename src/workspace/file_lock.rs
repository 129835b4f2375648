//! Saving a user file: one writer at a time across processes, and a save that keeps
//! what the file is.
//!
//! [`WriteLock::acquire`] takes an advisory lock (the operating system's: `flock` on
//! Unix, `LockFileEx` on Windows) on `.NAME.lock` beside the file, so two Hastings
//! processes (two windows, the window and the CLI, two CLI commands) never write one
//! file at once: the second waits up to [`WAIT`], then fails with
//! [`StoreError::Busy`] naming the file. The lock file is removed when the lock is
//! released; one left by a crash is taken over by the next writer.
//!
//! [`WriteLock::write`] then writes the new bytes to a temporary file of this writer
//! alone (`.NAME.<pid>-<n>.tmp`, created new, beside the file), syncs it, renames it
//! over the file and syncs the folder, so a crash leaves the old or the new file,
//! never half of one. The save keeps what the file is:
//!
//! - a symbolic link is followed: its target is written and the link stays a link;
//! - the file's permissions are kept (a `0600` file stays `0600`), and its owner and
//!   group where the system allows (root saving a learner's file);
//! - a read-only file (no write permission for anyone, `0444`) is refused with
//!   [`StoreError::ReadOnly`] and nothing is written, as an editor does;
//! - hard links are broken: the file is a new one, so another name of the old file
//!   keeps the old contents (use a symbolic link to share a repertoire);
//! - temporary files a crashed writer left beside the file are removed.
//!
//! [`WriteLock::write_checked`] calls a check right before the rename, still under the
//! lock, so a caller can refuse to replace a file that changed since it was read.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::store::StoreError;

/// How long a writer waits for another to finish before giving up.
pub const WAIT: Duration = Duration::from_secs(5);

/// How often a waiting writer tries the lock again.
const POLL: Duration = Duration::from_millis(10);

/// Gives out the temporary files' numbers within this process.
static NEXT_TEMP: AtomicU64 = AtomicU64::new(0);

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_owned(),
        source,
    }
}

/// The right to write one file, held while the value lives (see the [module
/// docs](self)).
#[derive(Debug)]
pub struct WriteLock {
    /// The file as the caller named it (errors name it so).
    path: PathBuf,
    /// The file written: `path` with its symbolic links followed.
    target: PathBuf,
    /// `.NAME.lock` beside `target`.
    lock_path: PathBuf,
    /// The open lock file; closing it releases the lock.
    _file: File,
}

impl WriteLock {
    /// Locks `path` for writing, waiting up to [`WAIT`] for another writer (the
    /// folder is made if missing).
    ///
    /// # Errors
    ///
    /// [`StoreError::Busy`] when another process holds the lock after the wait,
    /// [`StoreError::Io`] when the folder or the lock file cannot be made.
    pub fn acquire(path: &Path) -> Result<WriteLock, StoreError> {
        WriteLock::acquire_within(path, WAIT)
    }

    /// [`WriteLock::acquire`], waiting at most `wait`.
    ///
    /// # Errors
    ///
    /// As [`WriteLock::acquire`].
    pub fn acquire_within(path: &Path, wait: Duration) -> Result<WriteLock, StoreError> {
        let target = follow_links(path);
        let Some(name) = target.file_name() else {
            return Err(StoreError::Io {
                path: path.to_owned(),
                source: io::Error::new(io::ErrorKind::InvalidInput, "not a file name"),
            });
        };
        let dir = folder_of(&target);
        fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        let mut lock_name = std::ffi::OsString::from(".");
        lock_name.push(name);
        lock_name.push(".lock");
        let lock_path = dir.join(lock_name);
        let started = Instant::now();
        loop {
            // Another writer may remove the lock file between our open and our lock:
            // the lock is ours only if the path still names the file we locked.
            let file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .read(true)
                .write(true)
                .open(&lock_path);
            match file {
                Ok(mut file) => match file.try_lock() {
                    Ok(()) if still_names(&lock_path, &file) => {
                        // Who holds it, for a writer that has to give up.
                        let _ = file.set_len(0).and_then(|()| {
                            file.write_all(std::process::id().to_string().as_bytes())
                        });
                        return Ok(WriteLock {
                            path: path.to_owned(),
                            target,
                            lock_path,
                            _file: file,
                        });
                    }
                    Ok(()) => continue,
                    Err(fs::TryLockError::WouldBlock) => {}
                    Err(fs::TryLockError::Error(source)) => {
                        return Err(StoreError::Io {
                            path: lock_path,
                            source,
                        });
                    }
                },
                // Windows refuses to open a file another writer is removing.
                Err(e) if e.kind() == io::ErrorKind::PermissionDenied && cfg!(windows) => {}
                Err(source) => {
                    return Err(StoreError::Io {
                        path: lock_path,
                        source,
                    });
                }
            }
            if started.elapsed() >= wait {
                let holder = fs::read_to_string(&lock_path)
                    .ok()
                    .and_then(|text| text.trim().parse().ok());
                return Err(StoreError::Busy {
                    path: path.to_owned(),
                    holder,
                });
            }
            std::thread::sleep(POLL);
        }
    }

    /// The file written: the path given, its symbolic links followed.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Writes `contents` to the file atomically, keeping what it is (see the [module
    /// docs](self)).
    ///
    /// # Errors
    ///
    /// [`StoreError::ReadOnly`] when the file is read-only, [`StoreError::Io`] when
    /// writing or renaming fails; the old file is then intact and no temporary file is
    /// left.
    pub fn write(&self, contents: &[u8]) -> Result<(), StoreError> {
        self.write_checked(contents, || Ok(true)).map(|_| ())
    }

    /// As [`WriteLock::write`], but `check` is called when the temporary file is
    /// written, right before the rename: when it answers `false` (the file changed on
    /// disk and must not be replaced) nothing is written and this returns `false`.
    ///
    /// # Errors
    ///
    /// As [`WriteLock::write`], or `check`'s error (nothing written).
    pub fn write_checked(
        &self,
        contents: &[u8],
        check: impl FnOnce() -> Result<bool, StoreError>,
    ) -> Result<bool, StoreError> {
        let old = self.writable()?;
        let tmp = write_temp_file(&self.target, contents, old.as_ref())?;
        let go = check().inspect_err(|_| {
            let _ = fs::remove_file(&tmp);
        })?;
        if !go {
            let _ = fs::remove_file(&tmp);
            return Ok(false);
        }
        self.put_in_place(&tmp)?;
        Ok(true)
    }

    /// As [`WriteLock::write`], the contents written by `fill` into the temporary file
    /// (a large output written as it is made, e.g. a Polyglot book). The file is
    /// synced and renamed when `fill` succeeds, and removed when it fails.
    ///
    /// # Errors
    ///
    /// As [`WriteLock::write`], or `fill`'s error (nothing written).
    pub fn write_with<T, E: From<StoreError>>(
        &self,
        fill: impl FnOnce(&mut File) -> Result<T, E>,
    ) -> Result<T, E> {
        let old = self.writable()?;
        let (tmp, mut file) = create_temp(&self.target)?;
        let filled = (|| -> Result<T, E> {
            if let Some(old) = &old {
                keep_owner(&file, old);
                file.set_permissions(old.permissions())
                    .map_err(io_err(&tmp))?;
            }
            let value = fill(&mut file)?;
            file.sync_all().map_err(io_err(&tmp))?;
            Ok(value)
        })();
        drop(file);
        let value = filled.inspect_err(|_| {
            let _ = fs::remove_file(&tmp);
        })?;
        self.put_in_place(&tmp)?;
        Ok(value)
    }

    /// The file's metadata (`None`: it does not exist) once it is known to be
    /// writable; the temporary files a crashed writer left are removed.
    fn writable(&self) -> Result<Option<Metadata>, StoreError> {
        let old = match fs::metadata(&self.target) {
            Ok(m) if m.permissions().readonly() => {
                return Err(StoreError::ReadOnly {
                    path: self.path.clone(),
                });
            }
            Ok(m) => Some(m),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(source) => {
                return Err(StoreError::Io {
                    path: self.path.clone(),
                    source,
                });
            }
        };
        remove_stale_temps(&self.target);
        Ok(old)
    }

    /// Renames the written temporary file `tmp` over the file and syncs the folder.
    fn put_in_place(&self, tmp: &Path) -> Result<(), StoreError> {
        fs::rename(tmp, &self.target).map_err(|source| {
            let _ = fs::remove_file(tmp);
            StoreError::Io {
                path: self.path.clone(),
                source,
            }
        })?;
        sync_folder(&folder_of(&self.target));
        Ok(())
    }
}

impl WriteLock {
    /// Writes `contents` as a new file: `false` (nothing written) when the file exists.
    /// Under the lock, so two writers cannot both find it missing.
    ///
    /// # Errors
    ///
    /// As [`WriteLock::write`].
    pub fn write_new(&self, contents: &[u8]) -> Result<bool, StoreError> {
        if fs::symlink_metadata(&self.path).is_ok() {
            return Ok(false);
        }
        self.write(contents)?;
        Ok(true)
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        // Removed while still locked: a writer waiting on this file finds, once it
        // has the lock, that the path no longer names it, and starts again.
        let _ = fs::remove_file(&self.lock_path);
    }
}

/// Whether `path` still names the open `file` (Unix: the same device and inode).
#[cfg(unix)]
fn still_names(path: &Path, file: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (fs::metadata(path), file.metadata()) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Whether `path` still names the open `file` (elsewhere: that it exists; Windows
/// does not open a file being removed).
#[cfg(not(unix))]
fn still_names(path: &Path, _file: &File) -> bool {
    path.exists()
}

/// Whether `a` and `b` name one existing file, after symbolic links (Unix: the same
/// device and inode, so a hard link counts too; elsewhere the same canonical path).
#[cfg(unix)]
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Whether `a` and `b` name one existing file, after symbolic links (the same
/// canonical path).
#[cfg(not(unix))]
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// `path` with the symbolic links of its last part followed (at most 40), so that
/// the rename replaces the file they lead to, not the link.
pub fn follow_links(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        let is_link = fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            break;
        }
        match fs::read_link(&p) {
            Ok(to) => p = folder_of(&p).join(to),
            Err(_) => break,
        }
    }
    p
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The start and end of the temporary files' names of `target`: `.NAME.` and `.tmp`.
fn temp_affixes(target: &Path) -> (String, &'static str) {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    (format!(".{name}."), ".tmp")
}

/// Writes and syncs a new temporary file of `target` beside it and returns its path;
/// with `like` (the file it replaces), with its permissions and, where allowed, its
/// owner and group.
///
/// # Errors
///
/// [`StoreError::Io`] when the folder or file cannot be written (a full disk); the
/// partly written temporary file is removed then.
pub fn write_temp_file(
    target: &Path,
    contents: &[u8],
    like: Option<&Metadata>,
) -> Result<PathBuf, StoreError> {
    let (tmp, mut file) = create_temp(target)?;
    let written = (|| {
        if let Some(old) = like {
            keep_owner(&file, old);
            file.set_permissions(old.permissions())?;
        }
        file.write_all(contents)?;
        file.sync_all()
    })();
    if let Err(source) = written {
        drop(file);
        let _ = fs::remove_file(&tmp);
        return Err(StoreError::Io { path: tmp, source });
    }
    Ok(tmp)
}

/// Gives `file` the owner and group of `old` (Unix; best effort: only root may give a
/// file away, an owner only to a group it is in).
#[cfg(unix)]
fn keep_owner(file: &File, old: &Metadata) {
    use std::os::unix::fs::MetadataExt;
    let same = file
        .metadata()
        .is_ok_and(|now| now.uid() == old.uid() && now.gid() == old.gid());
    if !same {
        let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
    }
}

/// Elsewhere a new file's owner is the writer, as the old one's was.
#[cfg(not(unix))]
fn keep_owner(_file: &File, _old: &Metadata) {}

/// Creates a new temporary file of `target` beside it, `.NAME.<pid>-<n>.tmp`.
fn create_temp(target: &Path) -> Result<(PathBuf, File), StoreError> {
    let dir = folder_of(target);
    fs::create_dir_all(&dir).map_err(io_err(&dir))?;
    let (start, end) = temp_affixes(target);
    loop {
        let n = NEXT_TEMP.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!("{start}{}-{n}{end}", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            // Left by a crashed process that had this process's id.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(source) => return Err(StoreError::Io { path: tmp, source }),
        }
    }
}

/// Removes the temporary files of `target` a crashed writer left (called under the
/// lock, so no other writer's temporary file is there): `.NAME.<pid>-<n>.tmp`.
fn remove_stale_temps(target: &Path) {
    let (start, end) = temp_affixes(target);
    let Ok(entries) = fs::read_dir(folder_of(target)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let Some(middle) = name
            .strip_prefix(start.as_str())
            .and_then(|r| r.strip_suffix(end))
        else {
            continue;
        };
        let ours = middle.split_once('-').is_some_and(|(pid, n)| {
            !pid.is_empty()
                && !n.is_empty()
                && pid.bytes().all(|b| b.is_ascii_digit())
                && n.bytes().all(|b| b.is_ascii_digit())
        });
        if ours {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Syncs the folder `dir`, so a rename in it survives a crash (Unix; elsewhere the
/// rename is durable as it is). Best effort: some file systems cannot sync a folder.
#[cfg(unix)]
fn sync_folder(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Elsewhere the rename is durable as it is.
#[cfg(not(unix))]
fn sync_folder(_dir: &Path) {}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hastings-lock-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_second_writer_waits_then_is_told_the_file_is_busy() {
        let dir = scratch("busy");
        let path = dir.join("rep.pgn");
        let held = WriteLock::acquire(&path).unwrap();
        let err = WriteLock::acquire_within(&path, Duration::from_millis(50)).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, StoreError::Busy { .. }), "{text}");
        assert!(text.contains("rep.pgn"), "{text}");
        assert!(text.contains("another Hastings process"), "{text}");
        // It says who: the holder's process id, from the lock file.
        let pid = std::process::id();
        assert!(text.contains(&format!("(pid {pid})")), "{text}");
        drop(held);
        // Released: the lock file is gone and the next writer gets the lock at once.
        assert!(!dir.join(".rep.pgn.lock").exists());
        let again = WriteLock::acquire_within(&path, Duration::ZERO).unwrap();
        again.write(b"x").unwrap();
        drop(again);
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["rep.pgn"], "no lock or temporary file is left");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_check_that_answers_no_writes_nothing() {
        let dir = scratch("check");
        let path = dir.join("f.txt");
        fs::write(&path, "old").unwrap();
        let lock = WriteLock::acquire(&path).unwrap();
        assert!(!lock.write_checked(b"new", || Ok(false)).unwrap());
        drop(lock);
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "the temporary file is removed"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_crashed_writers_temporary_file_is_removed_and_a_users_file_kept() {
        let dir = scratch("stale");
        let path = dir.join("f.txt");
        let stale = write_temp_file(&path, b"half", None).unwrap();
        let users = dir.join(".f.txt.mine.tmp");
        fs::write(&users, "mine").unwrap();
        WriteLock::acquire(&path).unwrap().write(b"new").unwrap();
        assert!(!stale.exists());
        assert_eq!(fs::read_to_string(&users).unwrap(), "mine");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_save_keeps_the_owner_where_the_system_allows() {
        use std::os::unix::fs::MetadataExt;
        let dir = scratch("owner");
        let path = dir.join("rep.pgn");
        fs::write(&path, "old").unwrap();
        // Only root may give a file away: elsewhere there is nothing to keep.
        if std::os::unix::fs::chown(&path, Some(4321), Some(4321)).is_err() {
            return;
        }
        WriteLock::acquire(&path).unwrap().write(b"new").unwrap();
        let m = fs::metadata(&path).unwrap();
        assert_eq!((m.uid(), m.gid()), (4321, 4321));
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        fs::remove_dir_all(&dir).unwrap();
    }
}
