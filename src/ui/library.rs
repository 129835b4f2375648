//! The book's sources in the window: the embedded ECO list and the PGN files the user
//! loaded, imported and built into a graph on background threads.
//!
//! A [`Library`] keeps the lines of every loaded file. Importing a file and building a
//! graph are jobs on their own threads: the UI thread only starts them, reads their
//! progress counters and takes the result from a channel ([`Library::poll`]), so the
//! board stays usable while a large file loads. Imports run one at a time, in the
//! order they were asked for; a graph is rebuilt when the selection changes and no
//! import is running.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::UNIX_EPOCH;

use super::state::{BookChoice, BookFile, FileMode};
use crate::book::pgn::{ImportError, ImportIssue, ImportMode, ImportOptions, ImportReport};
use crate::book::{LineFilter, OpeningLine, PositionGraph, SourceId};

/// A PGN file whose lines are in the library.
#[derive(Debug, Clone)]
pub struct LoadedFile {
    /// Its source id in the lines.
    pub id: SourceId,
    /// Where it was read from.
    pub path: PathBuf,
    /// The mode it was read in (decided by the importer when the user chose auto).
    pub mode: ImportMode,
    /// The lines it gave.
    pub lines: Arc<Vec<OpeningLine>>,
    /// The import report: counts and issues.
    pub report: ImportReport,
    /// Size and modification time when it was read.
    pub stamp: FileStamp,
}

impl LoadedFile {
    /// The file name, for lists.
    pub fn name(&self) -> String {
        file_name(&self.path)
    }
}

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

/// How far the running import is.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportProgress {
    /// The file being read.
    pub path: PathBuf,
    /// Bytes read so far.
    pub bytes: u64,
    /// The file's size.
    pub total: u64,
    /// Games started so far (counted by their `[Event` tags while reading).
    pub games: u64,
    /// Files waiting after this one.
    pub queued: usize,
}

impl ImportProgress {
    /// The part read, 0 to 1.
    pub fn fraction(&self) -> f32 {
        if self.total == 0 {
            0.0
        } else {
            (self.bytes as f64 / self.total as f64).min(1.0) as f32
        }
    }
}

/// What a finished background job brought.
#[derive(Debug)]
pub enum LibraryEvent {
    /// A file was imported: its index in [`Library::files`].
    Imported {
        /// The index of the file.
        index: usize,
        /// A warning to show with it (the file changed since it was remembered).
        warning: Option<String>,
        /// Whether it was re-imported from the remembered list (at start).
        remembered: bool,
    },
    /// A file could not be imported.
    Failed {
        /// The file.
        path: PathBuf,
        /// Why, for the user.
        message: String,
        /// The issues found on the way (for "no games found").
        issues: Vec<ImportIssue>,
    },
    /// The user cancelled the import of a file.
    Cancelled {
        /// The file.
        path: PathBuf,
    },
    /// A new graph is ready.
    Built {
        /// The graph of the selected lines.
        graph: Arc<PositionGraph>,
        /// Whether the book is only the learner's repertoire (see [`Library::is_repertoire`]).
        repertoire: bool,
        /// Lines that did not replay (should not happen: imported lines replay).
        issues: usize,
    },
}

/// One file waiting to be imported.
#[derive(Debug, Clone)]
struct Queued {
    path: PathBuf,
    mode: FileMode,
    /// What was remembered about the file, when it is re-imported at start.
    remembered: Option<FileStamp>,
}

#[derive(Debug, Default)]
struct Counters {
    bytes: AtomicU64,
    games: AtomicU64,
    cancel: AtomicBool,
}

type ImportResult = Result<(crate::book::PgnImport, FileStamp), ImportError>;

struct ImportJob {
    queued: Queued,
    id: SourceId,
    total: u64,
    counters: Arc<Counters>,
    rx: mpsc::Receiver<ImportResult>,
}

struct BuildJob {
    rx: mpsc::Receiver<crate::book::GraphBuild>,
    repertoire: bool,
}

/// The book's sources and the background jobs that import and build them.
pub struct Library {
    eco_lines: Arc<Vec<OpeningLine>>,
    eco: Arc<PositionGraph>,
    files: Vec<LoadedFile>,
    next_id: u16,
    queue: VecDeque<Queued>,
    import: Option<ImportJob>,
    build: Option<BuildJob>,
    /// A build was asked for while imports were still running.
    build_wanted: Option<BookChoice>,
}

impl Library {
    /// A library with the embedded ECO lines; `eco` is their whole graph (it names PGN
    /// lines and is the theory of repertoire drills).
    pub fn new(eco: Arc<PositionGraph>) -> Library {
        Library {
            eco_lines: Arc::new(eco.lines().to_vec()),
            eco,
            files: Vec::new(),
            next_id: 0,
            queue: VecDeque::new(),
            import: None,
            build: None,
            build_wanted: None,
        }
    }

    /// The whole ECO graph.
    pub fn eco(&self) -> &Arc<PositionGraph> {
        &self.eco
    }

    /// The loaded files, in the order they were loaded.
    pub fn files(&self) -> &[LoadedFile] {
        &self.files
    }

    /// The loaded file read from `path`.
    pub fn file(&self, path: &Path) -> Option<&LoadedFile> {
        self.files.iter().find(|f| f.path == path)
    }

    /// Forgets the file read from `path` (its lines leave the library).
    pub fn remove(&mut self, path: &Path) {
        self.files.retain(|f| f.path != path);
        self.queue.retain(|q| q.path != path);
        if self.import.as_ref().is_some_and(|j| j.queued.path == path) {
            self.cancel_import();
        }
    }

    /// Queues `path` for import in `mode`. `remembered` is what the settings knew about
    /// it, when it is re-imported at start (a changed file gives a warning).
    pub fn queue_import(&mut self, path: PathBuf, mode: FileMode, remembered: Option<FileStamp>) {
        self.queue.push_back(Queued {
            path,
            mode,
            remembered,
        });
    }

    /// Whether an import is running or waiting.
    pub fn is_importing(&self) -> bool {
        self.import.is_some() || !self.queue.is_empty()
    }

    /// Whether a graph is being built (or will be once the imports are done).
    pub fn is_building(&self) -> bool {
        self.build.is_some() || self.build_wanted.is_some()
    }

    /// How far the running import is.
    pub fn progress(&self) -> Option<ImportProgress> {
        let job = self.import.as_ref()?;
        Some(ImportProgress {
            path: job.queued.path.clone(),
            bytes: job.counters.bytes.load(Ordering::Relaxed),
            total: job.total,
            games: job.counters.games.load(Ordering::Relaxed),
            queued: self.queue.len(),
        })
    }

    /// Cancels the running import (the next queued file starts).
    pub fn cancel_import(&mut self) {
        if let Some(job) = &self.import {
            job.counters.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Whether `choice` makes the book only the learner's repertoire: ECO is not ticked
    /// and every ticked file (at least one) was read as a repertoire.
    pub fn is_repertoire(&self, choice: &BookChoice) -> bool {
        let mut selected = self.selected(choice).peekable();
        !choice.eco
            && selected.peek().is_some()
            && selected.all(|f| f.mode == ImportMode::Repertoire)
    }

    fn selected<'a>(&'a self, choice: &'a BookChoice) -> impl Iterator<Item = &'a LoadedFile> {
        self.files
            .iter()
            .filter(|f| choice.files.iter().any(|b| b.path == f.path && b.enabled))
    }

    /// Asks for the graph of `choice`: built on a background thread once no import is
    /// running; a build already running is superseded.
    pub fn request_build(&mut self, choice: &BookChoice) {
        self.build_wanted = Some(choice.clone());
        self.build = None;
    }

    /// Starts the next job if none is running, and returns what finished. With `block`,
    /// waits for the running job to finish (tests and screenshots wait this way; the
    /// window never does).
    pub fn poll(&mut self, block: bool, wake: &Wake) -> Vec<LibraryEvent> {
        let mut events = Vec::new();
        loop {
            if self.import.is_none()
                && let Some(next) = self.queue.pop_front()
            {
                self.start_import(next, wake);
            }
            if let Some(job) = &self.import {
                let result = if block {
                    job.rx.recv().map_err(|_| mpsc::TryRecvError::Disconnected)
                } else {
                    job.rx.try_recv()
                };
                match result {
                    Ok(result) => {
                        let Some(job) = self.import.take() else {
                            break;
                        };
                        events.push(self.finish_import(job, result));
                        continue;
                    }
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => {
                        let Some(job) = self.import.take() else {
                            break;
                        };
                        events.push(LibraryEvent::Failed {
                            path: job.queued.path,
                            message: "the import stopped unexpectedly".to_owned(),
                            issues: Vec::new(),
                        });
                        continue;
                    }
                }
            }
            if self.build.is_none()
                && let Some(choice) = self.build_wanted.take()
            {
                self.start_build(&choice, wake);
            }
            let Some(job) = &self.build else {
                break;
            };
            let result = if block {
                job.rx.recv().map_err(|_| mpsc::TryRecvError::Disconnected)
            } else {
                job.rx.try_recv()
            };
            match result {
                Ok(build) => {
                    let repertoire = job.repertoire;
                    self.build = None;
                    events.push(LibraryEvent::Built {
                        graph: Arc::new(build.graph),
                        repertoire,
                        issues: build.issues.len(),
                    });
                }
                Err(mpsc::TryRecvError::Empty) => {}
                Err(mpsc::TryRecvError::Disconnected) => self.build = None,
            }
            break;
        }
        events
    }

    fn start_import(&mut self, queued: Queued, wake: &Wake) {
        let id = self
            .files
            .iter()
            .find(|f| f.path == queued.path)
            .map_or_else(
                || {
                    self.next_id = self.next_id.saturating_add(1);
                    SourceId(self.next_id)
                },
                |f| f.id,
            );
        let total = FileStamp::of(&queued.path).map_or(0, |s| s.size);
        let counters = Arc::new(Counters::default());
        let (tx, rx) = mpsc::channel();
        let path = queued.path.clone();
        let options = ImportOptions {
            mode: match queued.mode {
                FileMode::Auto => ImportMode::Auto,
                FileMode::Repertoire => ImportMode::Repertoire,
                FileMode::Games => ImportMode::Games,
            },
            max_plies: None,
        };
        let eco = Arc::clone(&self.eco);
        let thread_counters = Arc::clone(&counters);
        let wake = Arc::clone(wake);
        let spawned = std::thread::Builder::new()
            .name("hastings-import".to_owned())
            .spawn(move || {
                let result = import_file(&path, id, &options, &eco, thread_counters);
                let _ = tx.send(result);
                wake();
            });
        if let Err(e) = spawned {
            let (tx, rx2) = mpsc::channel();
            let _ = tx.send(Err(ImportError::Io(e)));
            self.import = Some(ImportJob {
                queued,
                id,
                total,
                counters,
                rx: rx2,
            });
            return;
        }
        self.import = Some(ImportJob {
            queued,
            id,
            total,
            counters,
            rx,
        });
    }

    fn finish_import(&mut self, job: ImportJob, result: ImportResult) -> LibraryEvent {
        let path = job.queued.path;
        match result {
            Ok((import, stamp)) => {
                let warning = job.queued.remembered.filter(|r| *r != stamp).map(|_| {
                    format!(
                        "{} changed since it was loaded; it was read again",
                        file_name(&path)
                    )
                });
                let loaded = LoadedFile {
                    id: job.id,
                    path: path.clone(),
                    mode: import.report.mode,
                    lines: Arc::new(import.lines),
                    report: import.report,
                    stamp,
                };
                let index = match self.files.iter().position(|f| f.path == path) {
                    Some(i) => {
                        self.files[i] = loaded;
                        i
                    }
                    None => {
                        self.files.push(loaded);
                        self.files.len() - 1
                    }
                };
                LibraryEvent::Imported {
                    index,
                    warning,
                    remembered: job.queued.remembered.is_some(),
                }
            }
            Err(_) if job.counters.cancel.load(Ordering::Relaxed) => {
                LibraryEvent::Cancelled { path }
            }
            Err(ImportError::NoGames { issues }) => LibraryEvent::Failed {
                message: format!("{}: no games found", path.display()),
                path,
                issues,
            },
            Err(e) => LibraryEvent::Failed {
                message: format!("{}: {e}", path.display()),
                path,
                issues: Vec::new(),
            },
        }
    }

    fn start_build(&mut self, choice: &BookChoice, wake: &Wake) {
        let mut sources: Vec<Arc<Vec<OpeningLine>>> = Vec::new();
        if choice.eco {
            sources.push(Arc::clone(&self.eco_lines));
        }
        sources.extend(self.selected(choice).map(|f| Arc::clone(&f.lines)));
        let filter = LineFilter {
            sources: None,
            ..choice.filter.clone()
        };
        let repertoire = self.is_repertoire(choice);
        let (tx, rx) = mpsc::channel();
        let wake = Arc::clone(wake);
        let spawned = std::thread::Builder::new()
            .name("hastings-build".to_owned())
            .spawn(move || {
                let lines = sources
                    .iter()
                    .flat_map(|s| s.iter())
                    .filter(|l| filter.matches(l))
                    .cloned();
                let _ = tx.send(PositionGraph::build(lines));
                wake();
            });
        if spawned.is_ok() {
            self.build = Some(BuildJob { rx, repertoire });
        }
    }
}

/// Called by a background job when it has finished (the app asks egui to repaint).
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// Reads one PGN file (on the import thread).
fn import_file(
    path: &Path,
    id: SourceId,
    options: &ImportOptions,
    eco: &PositionGraph,
    counters: Arc<Counters>,
) -> ImportResult {
    let stamp = FileStamp::of(path)?;
    let file = File::open(path)?;
    let reader = CountingReader {
        inner: file,
        counters,
        tail: [0; 7],
    };
    let import = crate::book::pgn::read_pgn(reader, id, options, Some(eco))?;
    Ok((import, stamp))
}

/// Counts bytes and `[Event ` tags at line starts as they pass, and stops with an error
/// when the import is cancelled.
struct CountingReader<R> {
    inner: R,
    counters: Arc<Counters>,
    /// The last bytes of the previous read, so a tag split between reads is counted.
    tail: [u8; 7],
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.counters.cancel.load(Ordering::Relaxed) {
            return Err(io::Error::other("the import was cancelled"));
        }
        let n = self.inner.read(buf)?;
        let data = &buf[..n];
        let mut games = 0;
        for (i, _) in data.iter().enumerate().filter(|(_, b)| **b == b'[') {
            let before = if i == 0 { self.tail[6] } else { data[i - 1] };
            if before != b'\n' && !(i == 0 && self.counters.bytes.load(Ordering::Relaxed) == 0) {
                continue;
            }
            if data.get(i + 1..i + 7) == Some(b"Event ".as_slice()) {
                games += 1;
            }
        }
        if n >= 7 {
            self.tail.copy_from_slice(&data[n - 7..]);
        } else {
            self.tail.rotate_left(n);
            self.tail[7 - n..].copy_from_slice(data);
        }
        self.counters.games.fetch_add(games, Ordering::Relaxed);
        self.counters.bytes.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}
