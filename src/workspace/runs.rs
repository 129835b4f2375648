//! Sorted runs of records spilled to temporary files, and the directory that holds
//! them: the external sort that `book make` and `explorer make` share (any
//! [`RunRecord`]).

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::book::polyglot::RunRecord;

/// A directory of run files, removed with everything in it when dropped.
#[derive(Debug)]
pub(crate) struct RunDir {
    path: PathBuf,
}

impl RunDir {
    /// Creates a fresh directory in `parent`, named after `purpose`.
    pub fn create(parent: &Path, purpose: &str) -> io::Result<RunDir> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = parent.join(format!(
            ".hastings-{purpose}-{}-{nanos}",
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
pub(crate) struct RunFile {
    pub path: PathBuf,
    pub count: u64,
}

/// Writes records sorted by their sort key to `path`, adding up side-by-side records
/// of one key.
pub(crate) fn write_run<T: RunRecord>(
    path: &Path,
    records: impl IntoIterator<Item = io::Result<T>>,
) -> io::Result<RunFile> {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
    let mut count = 0u64;
    let mut bytes = vec![0u8; T::BYTES];
    let mut pending: Option<T> = None;
    for c in records {
        let c = c?;
        match &mut pending {
            Some(p) if RunRecord::sort_key(p) == RunRecord::sort_key(&c) => p.absorb(&c),
            _ => {
                if let Some(p) = pending.replace(c) {
                    p.write_bytes(&mut bytes);
                    out.write_all(&bytes)?;
                    count += 1;
                }
            }
        }
    }
    if let Some(p) = pending {
        p.write_bytes(&mut bytes);
        out.write_all(&bytes)?;
        count += 1;
    }
    out.flush()?;
    Ok(RunFile {
        path: path.to_owned(),
        count,
    })
}

/// Reads a run file back, record by record, through a buffer of `buffer` bytes.
pub(crate) fn read_run<T: RunRecord>(
    run: &RunFile,
    buffer: usize,
) -> io::Result<impl Iterator<Item = io::Result<T>> + use<T>> {
    let mut input = BufReader::with_capacity(buffer, File::open(&run.path)?);
    let mut left = run.count;
    let mut bytes = vec![0u8; T::BYTES];
    Ok(std::iter::from_fn(move || {
        if left == 0 {
            return None;
        }
        left -= 1;
        Some(input.read_exact(&mut bytes).map(|()| T::read_bytes(&bytes)))
    }))
}

/// Merges spilled runs in groups of `width` into fewer, larger runs until at most
/// `width` are left (so that the final merge keeps at most `width` files open), each
/// read through a buffer of `buffer` bytes. Merged runs are removed.
///
/// # Errors
///
/// The path of the run and the I/O error when a run cannot be read or written.
pub(crate) fn merge_down<T: RunRecord>(
    mut spilled: Vec<RunFile>,
    run_dir: &RunDir,
    width: usize,
    buffer: usize,
) -> Result<Vec<RunFile>, (PathBuf, io::Error)> {
    let width = width.max(2);
    let mut round = 0;
    while spilled.len() > width {
        let mut next = Vec::new();
        for (i, group) in spilled.chunks(width).enumerate() {
            let path = run_dir.file(&format!("merged-{round}-{i}"));
            let mut runs: Vec<Box<dyn Iterator<Item = io::Result<T>>>> =
                Vec::with_capacity(group.len());
            for run in group {
                runs.push(Box::new(
                    read_run::<T>(run, buffer).map_err(|e| (run.path.clone(), e))?,
                ));
            }
            next.push(
                write_run(&path, crate::book::polyglot::merge_runs(runs))
                    .map_err(|e| (path.clone(), e))?,
            );
            for run in group {
                let _ = fs::remove_file(&run.path);
            }
        }
        spilled = next;
        round += 1;
    }
    Ok(spilled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::polyglot::{MoveCount, RawMove};

    #[test]
    fn a_run_file_reads_back_with_side_by_side_pairs_added_up() {
        let dir = RunDir::create(&std::env::temp_dir(), "runs-test").unwrap();
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
