//! Reading PGN files from disk: stamps to notice a changed file, and a reader that
//! reports progress and stops when cancelled.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use super::choice::{BookFile, FileMode};
use super::error::WorkspaceError;
use super::import_parts::{Parallel, check_in_parts, import_in_parts};
use crate::book::{ImportError, ImportOptions, ImportReport, PgnImport, PositionGraph, SourceId};
use crate::job::JobProgress;

/// The file name of `path`, or the whole path when it has none.
pub fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// A file's size and modification time, to notice that it changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FileStamp {
    /// Size in bytes.
    pub size: u64,
    /// Modification time, seconds since 1970.
    pub modified: Option<u64>,
}

impl FileStamp {
    /// The stamp of the file at `path`.
    ///
    /// # Errors
    ///
    /// When the file's metadata cannot be read (it is missing).
    pub fn of(path: &Path) -> io::Result<FileStamp> {
        let meta = std::fs::metadata(path)?;
        Ok(FileStamp {
            size: meta.len(),
            modified: meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map(|d| d.as_secs()),
        })
    }

    /// The stamp remembered in a [`BookFile`].
    pub fn remembered(file: &BookFile) -> FileStamp {
        FileStamp {
            size: file.size,
            modified: file.modified,
        }
    }
}

/// Reads the PGN file at `path` as source `id`, reporting bytes read and games started
/// to `progress`; lines without an `[Opening]` tag are named by `names`. A file of 4 MB
/// or more is read in parts on every core, as [`check_file`] does.
///
/// # Errors
///
/// [`WorkspaceError::Open`] when the file cannot be opened, [`WorkspaceError::Cancelled`]
/// when `progress` was cancelled, [`WorkspaceError::Import`] when it cannot be read or
/// holds no game.
pub fn import_file(
    path: &Path,
    id: SourceId,
    options: &ImportOptions,
    names: &PositionGraph,
    progress: &JobProgress,
) -> Result<(PgnImport, FileStamp), WorkspaceError> {
    read_file_in_parts(
        path,
        progress,
        0,
        |reader, parallel| import_in_parts(reader, id, options, names, parallel),
        |reader| crate::book::pgn::read_pgn(reader, id, options, Some(names)),
    )
}

/// Reads the PGN file at `path` as [`import_file`] does and returns only its report
/// (the lines are counted, not kept: `hastings import`).
///
/// # Errors
///
/// As [`import_file`].
///
/// A file of [`MIN_PARALLEL_BYTES`](super::import_parts::MIN_PARALLEL_BYTES) or more is
/// read in parts on `threads` workers (0: one per core; see [`check_in_parts`]), and
/// read again whole in the rare file where a part cannot be read apart.
pub fn check_file(
    path: &Path,
    options: &ImportOptions,
    threads: usize,
    progress: &JobProgress,
) -> Result<(ImportReport, FileStamp), WorkspaceError> {
    read_file_in_parts(
        path,
        progress,
        threads,
        |reader, parallel| check_in_parts(reader, options, parallel),
        |reader| crate::book::pgn::check_pgn(reader, options),
    )
}

/// [`check_file`] on this thread with a progress bar on a terminal (the command line's
/// way): the report of the PGN file at `path`, read in `mode`.
///
/// # Errors
///
/// As [`import_file`].
pub fn check_file_now(
    path: &Path,
    mode: FileMode,
    max_plies: Option<u32>,
    threads: usize,
    progress: &JobProgress,
) -> Result<ImportReport, WorkspaceError> {
    let options = ImportOptions {
        mode: mode.into(),
        max_plies,
    };
    check_file(path, &options, threads, progress).map(|(report, _)| report)
}

/// Runs `in_parts` on the file at `path` when it is big enough to be read in parts on
/// `threads` workers (0: one per core), else `whole`; `whole` also when a part cannot
/// be read apart (the progress then starts again).
fn read_file_in_parts<T>(
    path: &Path,
    progress: &JobProgress,
    threads: usize,
    in_parts: impl FnOnce(ProgressReader<'_, File>, Parallel) -> Result<Option<T>, ImportError>,
    whole: impl FnOnce(ProgressReader<'_, File>) -> Result<T, ImportError>,
) -> Result<(T, FileStamp), WorkspaceError> {
    let size = FileStamp::of(path).map_or(0, |stamp| stamp.size);
    if let Some(parallel) = Parallel::for_file(size, threads) {
        let (found, stamp) = read_file(path, progress, |reader| in_parts(reader, parallel))?;
        if let Some(found) = found {
            return Ok((found, stamp));
        }
        progress.restart();
    }
    read_file(path, progress, whole)
}

/// Runs `read` on the file at `path` through a [`ProgressReader`].
fn read_file<T>(
    path: &Path,
    progress: &JobProgress,
    read: impl FnOnce(ProgressReader<'_, File>) -> Result<T, ImportError>,
) -> Result<(T, FileStamp), WorkspaceError> {
    let open_err = |source| WorkspaceError::Open {
        path: path.to_owned(),
        source,
    };
    let stamp = FileStamp::of(path).map_err(open_err)?;
    let file = File::open(path).map_err(open_err)?;
    progress.set_total(stamp.size);
    match read(ProgressReader::new(file, progress)) {
        Ok(found) => Ok((found, stamp)),
        Err(_) if progress.is_cancelled() => Err(WorkspaceError::Cancelled {
            path: path.to_owned(),
        }),
        Err(source) => Err(WorkspaceError::Import {
            path: PathBuf::from(path),
            source,
        }),
    }
}

/// `[Event `: a game's first tag, counted at line starts.
const TAG: &[u8] = b"[Event ";

/// Counts bytes and `[Event ` tags at line starts as they pass, and stops with an error
/// when the job is cancelled.
struct ProgressReader<'a, R> {
    inner: R,
    progress: &'a JobProgress,
    /// Whether the next byte starts a line.
    line_start: bool,
    /// How many bytes of [`TAG`] the last read ended with, at a line start (0: none).
    partial: usize,
    /// Finds [`TAG`].
    finder: memchr::memmem::Finder<'static>,
}

impl<'a, R> ProgressReader<'a, R> {
    fn new(inner: R, progress: &'a JobProgress) -> ProgressReader<'a, R> {
        ProgressReader {
            inner,
            progress,
            line_start: true,
            partial: 0,
            finder: memchr::memmem::Finder::new(TAG),
        }
    }

    /// The `[Event ` tags at line starts that end in `data`, the bytes after those
    /// already seen.
    fn count_event_tags(&mut self, data: &[u8]) -> u64 {
        let mut games = 0;
        if self.partial > 0 {
            let rest = &TAG[self.partial..];
            let n = rest.len().min(data.len());
            if data[..n] != rest[..n] {
                self.partial = 0;
            } else if n == rest.len() {
                games += 1;
                self.partial = 0;
            } else {
                self.partial += n;
                return games;
            }
        }
        for p in self.finder.find_iter(data) {
            let at_line_start = match p.checked_sub(1) {
                Some(before) => data[before] == b'\n',
                None => self.line_start,
            };
            games += u64::from(at_line_start);
        }
        // The last line may begin a tag that the next read ends.
        let last_line = match memchr::memrchr(b'\n', data) {
            Some(i) => Some(i + 1),
            None => self.line_start.then_some(0),
        };
        if let Some(p) = last_line {
            let line = &data[p..];
            if !line.is_empty() && line.len() < TAG.len() && TAG.starts_with(line) {
                self.partial = line.len();
            }
        }
        if let Some(&last) = data.last() {
            self.line_start = last == b'\n';
        }
        games
    }
}

impl<R: Read> Read for ProgressReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.progress.is_cancelled() {
            return Err(io::Error::other("the import was cancelled"));
        }
        let n = self.inner.read(buf)?;
        let games = self.count_event_tags(&buf[..n]);
        self.progress.add_items(games);
        self.progress.advance(n as u64);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_tags_split_between_reads_are_counted_once() {
        let text = b"[Event \"a\"]\n1. e4 *\n[Eventual\n[Even\n\n[Event \"b\"]\n1. d4 *\n";
        let progress = JobProgress::new();
        for chunk in [1, 2, 3, 5, 7, 8, 9, 64] {
            let progress = JobProgress::new();
            let mut r = ProgressReader::new(ChunkedReader(text.as_slice(), chunk), &progress);
            let mut sink = Vec::new();
            r.read_to_end(&mut sink).unwrap();
            assert_eq!(progress.snapshot().items, 2, "chunks of {chunk}");
            assert_eq!(progress.snapshot().done, text.len() as u64);
        }
        progress.cancel();
        let mut r = ProgressReader::new(text.as_slice(), &progress);
        assert!(r.read(&mut [0; 8]).is_err(), "a cancelled read fails");
    }

    struct ChunkedReader<'a>(&'a [u8], usize);

    impl Read for ChunkedReader<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
}
