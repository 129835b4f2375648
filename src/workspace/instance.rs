//! One window per data folder: a lock file the running window holds.
//!
//! Two windows sharing a data folder would overwrite each other's progress and review
//! log without either knowing. The first to start takes an exclusive lock on
//! `hastings.lock` in the folder ([`DataLock::acquire`]) and holds it while it runs;
//! a second one is told the folder is in use. The lock is the operating system's
//! (`flock` on Unix, `LockFileEx` on Windows), so it goes away with the process, even
//! one that crashed, and a lock file left behind never blocks anyone.
//!
//! ```
//! use hastings::workspace::instance::{DataLock, DataLockError};
//!
//! let dir = std::env::temp_dir().join(format!("hastings-doc-lock-{}", std::process::id()));
//! let first = DataLock::acquire(&dir)?;
//! assert!(matches!(DataLock::acquire(&dir), Err(DataLockError::Held { .. })));
//! drop(first);
//! let again = DataLock::acquire(&dir)?;
//! # drop(again);
//! # std::fs::remove_dir_all(&dir).ok();
//! # Ok::<(), DataLockError>(())
//! ```

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// The lock file's name in the data folder.
pub const LOCK_FILE: &str = "hastings.lock";

/// Why the data folder could not be locked.
#[derive(Debug, Error)]
pub enum DataLockError {
    /// Another process (another window) holds the lock.
    #[error("{} is in use by another Hastings window", .path.display())]
    Held {
        /// The lock file.
        path: PathBuf,
    },
    /// The folder or the lock file cannot be made or locked.
    #[error("cannot lock {}: {source}", .path.display())]
    Io {
        /// The lock file (or the folder, when it cannot be made).
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// An exclusive lock on a data folder, held while the value lives.
#[derive(Debug)]
pub struct DataLock {
    /// The open lock file; closing it releases the lock.
    file: File,
    path: PathBuf,
}

impl DataLock {
    /// Locks the data folder `dir` (made if missing) through its `hastings.lock`.
    ///
    /// # Errors
    ///
    /// [`DataLockError::Held`] when another open lock file holds it (another process,
    /// or another [`DataLock`] of this process), [`DataLockError::Io`] when the folder
    /// or the file cannot be made or the system refuses the lock.
    pub fn acquire(dir: &Path) -> Result<DataLock, DataLockError> {
        fs::create_dir_all(dir).map_err(|source| DataLockError::Io {
            path: dir.to_owned(),
            source,
        })?;
        let path = dir.join(LOCK_FILE);
        let io_error = |source| DataLockError::Io {
            path: path.clone(),
            source,
        };
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_error)?;
        match file.try_lock() {
            Ok(()) => Ok(DataLock { file, path }),
            Err(TryLockError::WouldBlock) => Err(DataLockError::Held { path }),
            Err(TryLockError::Error(source)) => Err(io_error(source)),
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for DataLock {
    fn drop(&mut self) {
        // Closing the file releases the lock too; unlocking first says so plainly.
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir()
            .join(format!("hastings-lock-{}", std::process::id()))
            .join(name);
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_second_lock_on_the_same_folder_is_refused_while_the_first_lives() {
        let dir = temp_dir("held");
        let first = DataLock::acquire(&dir).unwrap();
        assert_eq!(first.path(), dir.join(LOCK_FILE));
        match DataLock::acquire(&dir) {
            Err(DataLockError::Held { path }) => assert_eq!(path, dir.join(LOCK_FILE)),
            other => panic!("expected Held, got {other:?}"),
        }
        let message = DataLock::acquire(&dir).unwrap_err().to_string();
        assert!(
            message.contains("in use by another Hastings window"),
            "{message}"
        );
        drop(first);
        let again = DataLock::acquire(&dir).unwrap();
        drop(again);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_lock_file_left_behind_does_not_block() {
        let dir = temp_dir("left");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(LOCK_FILE), "from a crashed window").unwrap();
        let lock = DataLock::acquire(&dir).unwrap();
        drop(lock);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn folders_are_locked_apart_and_a_missing_one_is_made() {
        let base = temp_dir("apart");
        let a = DataLock::acquire(&base.join("a")).unwrap();
        let b = DataLock::acquire(&base.join("b")).unwrap();
        assert!(base.join("a").join(LOCK_FILE).exists());
        drop((a, b));
        fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_an_io_error() {
        let dir = temp_dir("file-in-the-way");
        fs::create_dir_all(&dir).unwrap();
        let blocker = dir.join("not-a-dir");
        fs::write(&blocker, "").unwrap();
        let err = DataLock::acquire(&blocker.join("data")).unwrap_err();
        assert!(matches!(err, DataLockError::Io { .. }), "{err:?}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
