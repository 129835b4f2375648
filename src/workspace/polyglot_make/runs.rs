//! Sorted runs of counts spilled to temporary files, and the directory that holds them.

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::book::polyglot::MoveCount;

/// A directory of run files, removed with everything in it when dropped.
#[derive(Debug)]
pub(super) struct RunDir {
    path: PathBuf,
}

impl RunDir {
    /// Creates a fresh directory in `parent`.
    pub fn create(parent: &Path) -> io::Result<RunDir> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = parent.join(format!(
            ".hastings-book-make-{}-{nanos}",
            std::process::id()
        ));
        fs::create_dir(&path)?;
        Ok(RunDir { path })
    }

    /// The path of run `name`.
    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// A run written to a file.
#[derive(Debug)]
pub(super) struct RunFile {
    pub path: PathBuf,
    pub count: u64,
}

/// Writes counts sorted by key and move to `path`, adding up side-by-side counts of
/// one `(key, move)`.
pub(super) fn write_run(
    path: &Path,
    counts: impl IntoIterator<Item = io::Result<MoveCount>>,
) -> io::Result<RunFile> {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
    let mut count = 0u64;
    let mut pending: Option<MoveCount> = None;
    for c in counts {
        let c = c?;
        match &mut pending {
            Some(p) if p.sort_key() == c.sort_key() => {
                p.games = p.games.saturating_add(c.games);
                p.score = p.score.saturating_add(c.score);
            }
            _ => {
                if let Some(p) = pending.replace(c) {
                    out.write_all(&p.to_bytes())?;
                    count += 1;
                }
            }
        }
    }
    if let Some(p) = pending {
        out.write_all(&p.to_bytes())?;
        count += 1;
    }
    out.flush()?;
    Ok(RunFile {
        path: path.to_owned(),
        count,
    })
}

/// Reads a run file back, record by record, through a buffer of `buffer` bytes.
pub(super) fn read_run(
    run: &RunFile,
    buffer: usize,
) -> io::Result<impl Iterator<Item = io::Result<MoveCount>> + use<>> {
    let mut input = BufReader::with_capacity(buffer, File::open(&run.path)?);
    let mut left = run.count;
    Ok(std::iter::from_fn(move || {
        if left == 0 {
            return None;
        }
        left -= 1;
        let mut bytes = [0u8; MoveCount::BYTES];
        Some(
            input
                .read_exact(&mut bytes)
                .map(|()| MoveCount::from_bytes(bytes)),
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::polyglot::RawMove;

    #[test]
    fn a_run_file_reads_back_with_side_by_side_pairs_added_up() {
        let dir = RunDir::create(&std::env::temp_dir()).unwrap();
        let c = |key, games| MoveCount {
            key,
            raw_move: RawMove(9),
            games,
            score: 2 * games,
        };
        let run = write_run(&dir.file("a"), [c(1, 1), c(1, 2), c(4, 1)].map(Ok)).unwrap();
        assert_eq!(run.count, 2);
        let back: Vec<MoveCount> = read_run(&run, 64).unwrap().map(Result::unwrap).collect();
        assert_eq!(back, [c(1, 3), c(4, 1)]);
        let kept = dir.path().to_owned();
        drop(dir);
        assert!(!kept.exists(), "the directory goes with its guard");
    }
}
