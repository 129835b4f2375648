//! Reading PGN files from disk: stamps to notice a changed file, and a reader that
//! reports progress and stops when cancelled.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use super::choice::BookFile;
use super::error::WorkspaceError;
use super::job::JobProgress;
use crate::book::{ImportOptions, PgnImport, PositionGraph, SourceId};

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
/// to `progress`; lines without an `[Opening]` tag are named by `names`.
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
    let open_err = |source| WorkspaceError::Open {
        path: path.to_owned(),
        source,
    };
    let stamp = FileStamp::of(path).map_err(open_err)?;
    let file = File::open(path).map_err(open_err)?;
    progress.set_total(stamp.size);
    let reader = ProgressReader {
        inner: file,
        progress,
        tail: Vec::new(),
        at_file_start: true,
    };
    match crate::book::pgn::read_pgn(reader, id, options, Some(names)) {
        Ok(import) => Ok((import, stamp)),
        Err(_) if progress.is_cancelled() => Err(WorkspaceError::Cancelled {
            path: path.to_owned(),
        }),
        Err(source) => Err(WorkspaceError::Import {
            path: PathBuf::from(path),
            source,
        }),
    }
}

/// Counts bytes and `[Event ` tags at line starts as they pass, and stops with an error
/// when the job is cancelled.
struct ProgressReader<'a, R> {
    inner: R,
    progress: &'a JobProgress,
    /// The last bytes read (up to [`TAIL`]), so a tag split between reads is counted.
    tail: Vec<u8>,
    /// Whether `tail` starts at the file's first byte (a tag there counts).
    at_file_start: bool,
}

/// `\n[Event `: the bytes a game's start needs to be seen.
const TAIL: usize = 8;

impl<R: Read> Read for ProgressReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.progress.is_cancelled() {
            return Err(io::Error::other("the import was cancelled"));
        }
        let n = self.inner.read(buf)?;
        let mut window = std::mem::take(&mut self.tail);
        let old = window.len();
        window.extend_from_slice(&buf[..n]);
        let games = count_event_tags(&window, old, self.at_file_start);
        let cut = window.len().saturating_sub(TAIL);
        self.tail = window[cut..].to_vec();
        self.at_file_start &= cut == 0;
        self.progress.add_items(games);
        self.progress.advance(n as u64);
        Ok(n)
    }
}

/// `[Event ` tags at line starts in `window` that end past its first `old` bytes (those
/// were counted by the read before); `at_start` says `window` starts the file.
fn count_event_tags(window: &[u8], old: usize, at_start: bool) -> u64 {
    const TAG: &[u8] = b"[Event ";
    let mut games = 0;
    for p in 0..window.len() {
        let line_start = if p == 0 {
            at_start
        } else {
            window[p - 1] == b'\n'
        };
        if line_start && p + TAG.len() > old && window[p..].starts_with(TAG) {
            games += 1;
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_tags_split_between_reads_are_counted_once() {
        let text = b"[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n";
        let progress = JobProgress::new();
        for chunk in [1, 3, 7, 64] {
            let progress = JobProgress::new();
            let mut r = ProgressReader {
                inner: ChunkedReader(text.as_slice(), chunk),
                progress: &progress,
                tail: Vec::new(),
                at_file_start: true,
            };
            let mut sink = Vec::new();
            r.read_to_end(&mut sink).unwrap();
            assert_eq!(progress.snapshot().items, 2, "chunks of {chunk}");
            assert_eq!(progress.snapshot().done, text.len() as u64);
        }
        progress.cancel();
        let mut r = ProgressReader {
            inner: text.as_slice(),
            progress: &progress,
            tail: Vec::new(),
            at_file_start: true,
        };
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
