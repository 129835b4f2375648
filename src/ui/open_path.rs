//! Opening a file or folder with the system's own program (the user guide in the
//! browser, the data folder in the file manager), and where the installed user guide is.

use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The program that opens a path the way a double click would.
const OPENER: &str = if cfg!(target_os = "macos") {
    "open"
} else if cfg!(windows) {
    "explorer"
} else {
    "xdg-open"
};

/// Opens `path` with the system's program, without waiting for it.
///
/// # Errors
///
/// The opener could not be started (not installed, say).
pub(super) fn open_with_system(path: &Path) -> io::Result<()> {
    let mut child = Command::new(OPENER).arg(path).spawn()?;
    // Reaped on a thread of its own, so neither the window waits nor a zombie stays.
    std::thread::spawn(move || child.wait());
    Ok(())
}

/// The user guide's first page: beside the binary (the portable archive:
/// `guide/index.html`), under the installation's prefix (`../share/doc/hastings/guide`
/// from its `bin`), or where the Debian package puts it.
pub(super) fn guide_path() -> Option<PathBuf> {
    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf));
    let mut candidates = Vec::new();
    if let Some(dir) = exe_dir {
        candidates.push(dir.join("guide").join("index.html"));
        candidates.push(dir.join("../share/doc/hastings/guide/index.html"));
    }
    candidates.push(PathBuf::from("/usr/share/doc/hastings/guide/index.html"));
    candidates.into_iter().find(|p| p.is_file())
}

/// Opens `path` and says what went wrong, for a label under the button.
pub(super) fn open_or_say(path: &Path) -> Option<String> {
    open_with_system(path)
        .err()
        .map(|e| format!("Could not start {OPENER} for {}: {e}", path.display()))
}
