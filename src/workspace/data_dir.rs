//! Where the learner's data lives: the folder eframe keeps the window's settings in, so
//! that the progress, the review log and the settings sit together, and the command
//! line and the window find the same files.

use std::path::{Path, PathBuf};

use super::instance::{DataLock, DataLockError};
use super::review_store::LOG_FILE;

/// The application's id: the data folder's name.
const APP_ID: &str = "hastings";

/// The data folder: `$XDG_DATA_HOME/hastings` (else `~/.local/share/hastings`) on Linux,
/// `~/Library/Application Support/hastings` on macOS, `%APPDATA%\hastings\data` on
/// Windows — eframe's storage folder for the app id `hastings`. `None` where the system
/// has no home folder.
pub fn data_dir() -> Option<PathBuf> {
    let base = dirs::data_dir()?;
    Some(if cfg!(windows) {
        base.join(APP_ID).join("data")
    } else {
        base.join(APP_ID)
    })
}

/// Where the learner's progress is saved: `progress.ron` in the [`data_dir`].
pub fn progress_path() -> Option<PathBuf> {
    data_dir().map(|d| d.join("progress.ron"))
}

/// Where the window's settings are saved: `settings.json` in the [`data_dir`].
pub fn settings_path() -> Option<PathBuf> {
    data_dir().map(|d| d.join(super::settings_file::SETTINGS_FILE))
}

/// The review log of the data folder `dir` (beside the progress file): where the
/// window's review mode, `hastings review` and `hastings compare --record-reviews` all
/// write.
pub fn review_log_in(dir: &Path) -> PathBuf {
    dir.join(LOG_FILE)
}

/// The data folder as one window may use it: the progress file to load and save, the
/// lock that keeps a second window out while this one runs, and what to tell the
/// learner when the folder could not be claimed.
#[derive(Debug)]
pub struct ClaimedFolder {
    /// Where the progress is saved; `None`: kept in memory only.
    pub progress_file: Option<PathBuf>,
    /// Held while the window runs (dropping it lets another window in).
    pub lock: Option<DataLock>,
    /// Why the progress is kept in memory only, or why the folder is not locked.
    pub warning: Option<String>,
}

impl ClaimedFolder {
    /// Whether this window may write the learner's files (it holds the folder).
    pub fn is_writable(&self) -> bool {
        self.progress_file.is_some()
    }
}

/// Claims the data folder `dir` for a window. When another window holds it, this one
/// keeps its progress in memory only (neither loses what the other saves) and says
/// so; when the system cannot lock files there, the window still saves, and says that
/// a second window would not be noticed.
pub fn claim(dir: Option<PathBuf>) -> ClaimedFolder {
    let Some(dir) = dir else {
        return ClaimedFolder {
            progress_file: None,
            lock: None,
            warning: Some(
                "There is no data folder (no home folder): your progress is not saved.".to_owned(),
            ),
        };
    };
    match DataLock::acquire(&dir) {
        Ok(lock) => ClaimedFolder {
            progress_file: Some(dir.join("progress.ron")),
            lock: Some(lock),
            warning: None,
        },
        Err(DataLockError::Held { .. }) => ClaimedFolder {
            progress_file: None,
            lock: None,
            warning: Some(
                "Another Hastings window is open: this one keeps your progress, reviews and \
                 settings in memory only, so that neither window loses what the other \
                 saves."
                    .to_owned(),
            ),
        },
        Err(e @ DataLockError::Io { .. }) => ClaimedFolder {
            progress_file: Some(dir.join("progress.ron")),
            lock: None,
            warning: Some(format!(
                "{e}; a second Hastings window would not be noticed."
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn the_data_folder_follows_xdg_data_home_as_eframe_does() {
        // eframe 0.37 `storage_dir`: $XDG_DATA_HOME when absolute, else ~/.local/share.
        let dir = data_dir().unwrap();
        match std::env::var_os("XDG_DATA_HOME").map(PathBuf::from) {
            Some(xdg) if xdg.is_absolute() => assert_eq!(dir, xdg.join("hastings")),
            _ => assert!(dir.ends_with(".local/share/hastings"), "{}", dir.display()),
        }
        assert_eq!(progress_path().unwrap(), dir.join("progress.ron"));
    }

    #[test]
    fn a_second_window_keeps_its_progress_in_memory_and_says_so() {
        let dir = std::env::temp_dir().join(format!("hastings-claim-{}", std::process::id()));
        let first = claim(Some(dir.clone()));
        assert!(first.is_writable() && first.lock.is_some() && first.warning.is_none());
        assert_eq!(first.progress_file, Some(dir.join("progress.ron")));
        let second = claim(Some(dir.clone()));
        assert!(!second.is_writable());
        assert!(
            second
                .warning
                .unwrap()
                .contains("Another Hastings window is open")
        );
        drop(first);
        assert!(
            claim(Some(dir.clone())).is_writable(),
            "free again once closed"
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
