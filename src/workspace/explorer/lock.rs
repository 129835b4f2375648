//! One writer per index: `make` and `add` hold an exclusive lock on the index's
//! `writer.lock` for the whole write. A second writer waits up to [`WAIT`] for it,
//! then is refused with the index and the holder's process id; readers take no lock
//! (they read the committed manifest and the immutable segments it names). The lock
//! is the operating system's (`flock` on Unix, `LockFileEx` on Windows), so it goes
//! with its process, even one that crashed: a lock file left behind never blocks.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::ExplorerError;

/// The lock file's name in the index directory.
pub const LOCK_FILE: &str = "writer.lock";

/// How long a second writer waits for the first before it is refused.
pub const WAIT: Duration = Duration::from_secs(3);

/// The exclusive right to write an index, held while the value lives.
#[derive(Debug)]
pub(super) struct WriterLock {
    file: File,
    path: PathBuf,
}

impl WriterLock {
    /// Locks the index `dir` (an existing directory), waiting up to [`WAIT`] for
    /// another writer to finish.
    ///
    /// # Errors
    ///
    /// [`ExplorerError::Busy`] when another writer holds it all that time,
    /// [`ExplorerError::Io`] when the lock file cannot be made or locked.
    pub fn acquire(dir: &Path) -> Result<WriterLock, ExplorerError> {
        WriterLock::acquire_within(dir, WAIT)
    }

    /// [`WriterLock::acquire`], waiting up to `wait` instead of [`WAIT`].
    ///
    /// # Errors
    ///
    /// As [`WriterLock::acquire`].
    pub fn acquire_within(dir: &Path, wait: Duration) -> Result<WriterLock, ExplorerError> {
        let path = dir.join(LOCK_FILE);
        let io_err = |source| ExplorerError::Io {
            path: path.clone(),
            source,
        };
        let deadline = Instant::now() + wait;
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(io_err)?;
            match file.try_lock() {
                // The lock is only ours if the file is still the one at `path` (a
                // failed `make` removes the lock file of a folder it made).
                Ok(()) if same_file(&file, &path) => {
                    // Who holds it, for the writer refused meanwhile.
                    file.set_len(0).map_err(io_err)?;
                    file.rewind().map_err(io_err)?;
                    writeln!(file, "{}", std::process::id()).map_err(io_err)?;
                    return Ok(WriterLock { file, path });
                }
                Ok(()) => {}
                Err(TryLockError::WouldBlock) if Instant::now() >= deadline => {
                    let mut holder = String::new();
                    let _ = file.read_to_string(&mut holder);
                    return Err(ExplorerError::Busy {
                        path: dir.to_owned(),
                        holder: holder.trim().parse().ok(),
                    });
                }
                Err(TryLockError::WouldBlock) => {}
                Err(TryLockError::Error(source)) => return Err(io_err(source)),
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Releases the lock and removes the lock file (for a `make` that leaves no
    /// index behind).
    pub fn remove(self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Drop for WriterLock {
    fn drop(&mut self) {
        // Closing the file releases the lock too; unlocking first says so plainly.
        let _ = self.file.unlock();
    }
}

/// Whether the open `file` is the file at `path`.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Whether the open `file` is the file at `path` (elsewhere an open file cannot be
/// removed, so it is).
#[cfg(not(unix))]
fn same_file(_file: &File, path: &Path) -> bool {
    path.exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_with_the_holder_then_served_once_it_is_gone() {
        let dir = std::env::temp_dir().join(format!("hastings-writer-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = WriterLock::acquire(&dir).unwrap();
        // (A tenth of a second of waiting refuses the same way as `WAIT`'s three.)
        let err = WriterLock::acquire_within(&dir, Duration::from_millis(100)).unwrap_err();
        let ExplorerError::Busy { path, holder } = &err else {
            panic!("{err}");
        };
        assert_eq!(path, &dir);
        assert_eq!(*holder, Some(std::process::id()));
        let text = err.to_string();
        assert!(
            text.contains(&dir.display().to_string()) && text.contains("another process"),
            "{text}"
        );
        drop(first);
        let second = WriterLock::acquire(&dir).unwrap();
        second.remove();
        assert!(!dir.join(LOCK_FILE).exists());
        std::fs::remove_dir(&dir).unwrap();
    }
}
