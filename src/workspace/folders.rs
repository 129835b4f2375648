//! Folders opened or dropped: every PGN file in them, at any depth ("Open a folder…").

use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why a folder gave no file to read.
#[derive(Debug, Error)]
pub enum FolderError {
    /// The folder (or one inside it) cannot be listed.
    #[error("cannot read the folder {}: {source}", .path.display())]
    Read {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Nothing in the folder or below is a PGN file.
    #[error("the folder {} has no PGN file (none ends in .pgn, at any depth)", .0.display())]
    NoPgn(PathBuf),
}

/// `paths` with each folder replaced by the PGN files in it and in its folders, in name
/// order; files are kept as given. Links to folders are not followed (a link can loop).
///
/// # Errors
///
/// [`FolderError`] for the first folder that cannot be read or holds no PGN file.
pub fn expand_folders(paths: Vec<PathBuf>) -> Result<Vec<PathBuf>, FolderError> {
    let mut out = Vec::with_capacity(paths.len());
    for path in paths {
        if path.is_dir() {
            let before = out.len();
            pgn_files_in(&path, &mut out)?;
            if out.len() == before {
                return Err(FolderError::NoPgn(path));
            }
        } else {
            out.push(path);
        }
    }
    Ok(out)
}

/// Appends the PGN files under `dir`, in name order, folders after the files beside them.
fn pgn_files_in(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), FolderError> {
    let read = |source| FolderError::Read {
        path: dir.to_owned(),
        source,
    };
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(read)? {
        let entry = entry.map_err(read)?;
        let kind = entry.file_type().map_err(read)?;
        entries.push((kind.is_dir(), entry.path()));
    }
    entries.sort();
    for (is_dir, path) in entries {
        if is_dir {
            pgn_files_in(&path, out)?;
        } else if is_pgn(&path) {
            out.push(path);
        }
    }
    Ok(())
}

fn is_pgn(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_folder_becomes_its_pgn_files_at_any_depth_in_name_order() {
        let dir = std::env::temp_dir().join(format!("hastings-folders-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("b/deeper")).unwrap();
        std::fs::create_dir_all(dir.join("empty")).unwrap();
        for f in ["z.pgn", "a.PGN", "notes.txt", "b/c.pgn", "b/deeper/d.pgn"] {
            std::fs::write(dir.join(f), "1. e4 *\n").unwrap();
        }
        let single = dir.join("z.pgn");
        let got = expand_folders(vec![single.clone(), dir.clone()]).unwrap();
        let names: Vec<String> = got
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().display().to_string())
            .collect();
        assert_eq!(
            names,
            ["z.pgn", "a.PGN", "z.pgn", "b/c.pgn", "b/deeper/d.pgn"]
        );
        let err = expand_folders(vec![dir.join("empty")]).unwrap_err();
        assert!(err.to_string().contains("has no PGN file"), "{err}");
        assert!(err.to_string().contains("empty"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
