//! Where the learner's data lives: the folder eframe keeps the window's settings in, so
//! that the progress, the review log and the settings sit together, and the command
//! line and the window find the same files.

use std::path::{Path, PathBuf};

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

/// The review log of the data folder `dir` (beside the progress file): where the
/// window's review mode, `hastings review` and `hastings compare --record-reviews` all
/// write.
pub fn review_log_in(dir: &Path) -> PathBuf {
    dir.join(LOG_FILE)
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
}
