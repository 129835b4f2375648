//! The log file a bug report can attach: `hastings.log` in the data folder.
//!
//! Warnings and errors only (a file kept aside, a save that failed, an engine that
//! died, a panic), one line each with the time in UTC, so the file says what went wrong
//! without per-frame noise. Any module writes through the `log` crate's macros
//! (`log::warn!`, `log::error!`); [`install`] points them at the file, which is made
//! at the first line (a run without warnings writes nothing). When the file has passed
//! [`ROTATE_AT`] bytes by then, it becomes `hastings.log.1` (the one before is dropped),
//! so two files of about a megabyte each at most are kept.
//!
//! ```
//! use hastings::workspace::log_file::{LOG_FILE, LogFile};
//!
//! let dir = std::env::temp_dir().join(format!("hastings-doc-log-{}", std::process::id()));
//! let log = LogFile::new(&dir);
//! log.write_line(log::Level::Warn, "hastings::doc", "something to know");
//! let text = std::fs::read_to_string(dir.join(LOG_FILE))?;
//! assert!(text.ends_with("WARN hastings::doc: something to know\n"));
//! # std::fs::remove_dir_all(&dir).ok();
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The log file's name in the data folder.
pub const LOG_FILE: &str = "hastings.log";

/// The size (bytes) past which the log is rotated at start.
pub const ROTATE_AT: u64 = 1 << 20;

/// The log file, opened for appending at its first line (a run that logs nothing
/// makes no file, nor the data folder).
#[derive(Debug)]
pub struct LogFile {
    file: Mutex<Option<File>>,
    path: PathBuf,
}

impl LogFile {
    /// The log `hastings.log` in `dir`; nothing is made until a line is written.
    pub fn new(dir: &Path) -> LogFile {
        LogFile {
            file: Mutex::new(None),
            path: dir.join(LOG_FILE),
        }
    }

    /// Opens (or makes) the file, rotating it first when it is larger than
    /// [`ROTATE_AT`].
    fn open_file(&self) -> io::Result<File> {
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir)?;
        }
        if fs::metadata(&self.path).is_ok_and(|m| m.len() > ROTATE_AT) {
            let mut older = self.path.clone().into_os_string();
            older.push(".1");
            fs::rename(&self.path, PathBuf::from(older))?;
        }
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
    }

    /// Where the log is written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one line: the time (UTC), the level, where it comes from and what.
    /// A failure to write is ignored (the log must never stop the program).
    pub fn write_line(&self, level: log::Level, target: &str, message: &str) {
        let now = jiff::Timestamp::now()
            .round(jiff::Unit::Second)
            .unwrap_or(jiff::Timestamp::now());
        // One line a record: a message's own line breaks are kept visible.
        let message = message.replace('\n', " | ");
        let line = format!("{now} {level} {target}: {message}\n");
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if file.is_none() {
            *file = self.open_file().ok();
        }
        if let Some(file) = file.as_mut() {
            let _ = file.write_all(line.as_bytes());
        }
    }
}

impl log::Log for LogFile {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::Level::Warn
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            self.write_line(record.level(), record.target(), &record.args().to_string());
        }
    }

    fn flush(&self) {
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(file) = file.as_mut() {
            let _ = file.flush();
        }
    }
}

/// Sends the `log` crate's warnings and errors to `hastings.log` in `dir`, and logs a
/// panic's message and place there too (after the usual message on stderr). Returns the
/// log's path.
///
/// # Errors
///
/// [`io::ErrorKind::AlreadyExists`] when a logger is already installed.
pub fn install(dir: &Path) -> io::Result<PathBuf> {
    let log = LogFile::new(dir);
    let path = log.path().to_owned();
    log::set_boxed_logger(Box::new(log))
        .map_err(|e| io::Error::new(io::ErrorKind::AlreadyExists, e.to_string()))?;
    log::set_max_level(log::LevelFilter::Warn);
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default_hook(info);
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        log::error!(target: "hastings::panic", "{info}{place}");
        log::logger().flush();
    }));
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_log_is_rotated_at_start() {
        let dir = std::env::temp_dir().join(format!("hastings-log-rotate-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let big = vec![b'x'; (ROTATE_AT + 1) as usize];
        fs::write(dir.join(LOG_FILE), &big).unwrap();
        let log = LogFile::new(&dir);
        log.write_line(log::Level::Error, "t", "after");
        assert_eq!(fs::read(dir.join("hastings.log.1")).unwrap(), big);
        let text = fs::read_to_string(dir.join(LOG_FILE)).unwrap();
        assert_eq!(text.lines().count(), 1);
        assert!(text.contains("ERROR t: after"), "{text}");
        fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn info_and_debug_are_not_logged() {
        let dir = std::env::temp_dir().join(format!("hastings-log-level-{}", std::process::id()));
        let log = LogFile::new(&dir);
        use log::Log as _;
        assert!(log.enabled(&log::Metadata::builder().level(log::Level::Warn).build()));
        assert!(!log.enabled(&log::Metadata::builder().level(log::Level::Info).build()));
        // Nothing logged: no file, not even the folder.
        assert!(!dir.exists());
    }
}
