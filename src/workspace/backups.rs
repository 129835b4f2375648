//! Where Hastings keeps what it needs beside a repertoire file the learner edits, in
//! the data folder: `repertoires/<file name>-<hash of its path>/`, holding
//!
//! - `backups/<unix ms>-<n>.pgn`: the version of the file each save replaced, the last
//!   [`KEEP`] of them (older ones are deleted after a save);
//! - `journal/`: the unsaved edits (see [`super::repertoire_journal`]).
//!
//! Every backup is written atomically ([`super::store::write_atomic`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use super::store::{StoreError, WriteLock, write_atomic};

/// How many backups of one file are kept.
pub const KEEP: usize = 10;

/// The folder of `file`'s backups and journal in the data folder `data_dir`.
pub fn folder(data_dir: &Path, file: &Path) -> PathBuf {
    let absolute = absolute(file);
    let digest = Sha256::digest(absolute.to_string_lossy().as_bytes());
    let hash: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let name: String = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    data_dir.join("repertoires").join(format!("{name}-{hash}"))
}

/// The file's absolute path, its folder's symbolic links resolved where it exists.
fn absolute(file: &Path) -> PathBuf {
    if let Ok(p) = fs::canonicalize(file) {
        return p;
    }
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty());
    let dir = dir.map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let dir = fs::canonicalize(&dir).unwrap_or(dir);
    match file.file_name() {
        Some(name) => dir.join(name),
        None => dir,
    }
}

/// One backup of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// Where it is.
    pub path: PathBuf,
    /// When it was taken, in milliseconds since 1970.
    pub taken_ms: u64,
    /// Its size in bytes.
    pub size: u64,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Keeps `bytes` (the version of `file` about to be replaced) as its newest backup,
/// then deletes all but the last [`KEEP`]. Returns the backup's path.
///
/// # Errors
///
/// [`StoreError::Io`] when the backup cannot be written (nothing is deleted then) or an
/// old one cannot be deleted.
pub fn keep(data_dir: &Path, file: &Path, bytes: &[u8]) -> Result<PathBuf, StoreError> {
    let dir = folder(data_dir, file).join("backups");
    let ms = now_ms();
    let mut n = 0u32;
    let path = loop {
        let p = dir.join(format!("{ms:016}-{n:03}.pgn"));
        if !p.exists() {
            break p;
        }
        n += 1;
    };
    write_atomic(&path, bytes)?;
    for old in list(data_dir, file)?.into_iter().skip(KEEP) {
        fs::remove_file(&old.path).map_err(|source| StoreError::Io {
            path: old.path.clone(),
            source,
        })?;
    }
    Ok(path)
}

/// The backups of `file`, newest first.
///
/// # Errors
///
/// [`StoreError::Io`] when the folder exists but cannot be read.
pub fn list(data_dir: &Path, file: &Path) -> Result<Vec<Backup>, StoreError> {
    let dir = folder(data_dir, file).join("backups");
    let entries = match fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(StoreError::Io { path: dir, source }),
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(".pgn") else {
            continue;
        };
        let Some(taken_ms) = stem.split('-').next().and_then(|t| t.parse().ok()) else {
            continue;
        };
        let size = entry.metadata().map_or(0, |m| m.len());
        out.push(Backup {
            path,
            taken_ms,
            size,
        });
    }
    out.sort_by(|a, b| b.path.cmp(&a.path));
    Ok(out)
}

/// Puts `backup` back as `file`: the current version of the file is itself kept as a
/// backup first, so a restore can be undone by another.
///
/// # Errors
///
/// [`StoreError::Io`] when the backup cannot be read or the file written, or the file
/// changed on disk meanwhile (nothing written); [`StoreError::Busy`] when another
/// process writes it.
pub fn restore(data_dir: &Path, file: &Path, backup: &Backup) -> Result<(), StoreError> {
    let bytes = fs::read(&backup.path).map_err(|source| StoreError::Io {
        path: backup.path.clone(),
        source,
    })?;
    let lock = WriteLock::acquire(file)?;
    let current = match fs::read(file) {
        Ok(current) => {
            keep(data_dir, file, &current)?;
            Some(current)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(StoreError::Io {
                path: file.to_owned(),
                source,
            });
        }
    };
    // A change made since the read is not overwritten unkept: it would be in no backup.
    let unchanged = lock.write_checked(&bytes, || Ok(fs::read(file).ok() == current))?;
    if unchanged {
        Ok(())
    } else {
        Err(StoreError::Io {
            path: file.to_owned(),
            source: std::io::Error::other(
                "it changed on disk while the backup was restored; nothing was written",
            ),
        })
    }
}
