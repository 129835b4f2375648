//! `hastings book make`: a Polyglot book from PGN files, in bounded memory, on every
//! core.
//!
//! 1. The calling thread reads the files one after the other in chunks of whole games
//!    (a chunk is cut before a line that starts a game) and hands them to the workers
//!    over a bounded channel, so only a few chunks are in memory at once.
//! 2. Each worker reads its chunks' games ([`read_games`]) into a
//!    [`MoveCounts`] map of fixed capacity; when the map is full it leaves as a run
//!    sorted by key and move, spilled to a temporary file. What is left at the end
//!    stays in memory as the worker's last run.
//! 3. The runs are merged ([`merge_runs`]) into a [`BookWriter`], which adds up the
//!    counts of each `(position, move)`, weighs, filters and writes the entries to a
//!    temporary file that is renamed to the output at the end, under the output's
//!    lock ([`WriteLock::write_with`]: a symbolic link is followed, the permissions
//!    kept, a read-only output refused).
//!
//! # Memory
//!
//! `memory` bounds the process's work memory: the chunks in flight take
//! `(2 × threads + 1) × chunk` (chunks of `memory / 64`, from 1 to 8 MB); the rest is
//! split between the workers, half for the map (which grows with the pairs it holds, up
//! to that size) and half for the sorted run taken out of it. The merge reads spilled runs through 256 KB buffers. A game longer than 64 MB of
//! text, or a file without game starts to cut at, makes a larger chunk.
//!
//! The output does not depend on the number of threads, the chunking or the memory:
//! counting is order-free and the book is written in key order.

use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::chunks::{Chunk, MakeFailure, MakePlan, process_chunks};
use super::runs::{RunDir, RunFile, merge_down, read_run, write_run};
use super::store::{StoreError, WriteLock};
use crate::book::polyglot::{
    BookWriter, DEFAULT_MAX_PLIES, GameIssue, GamesReport, MAX_KEPT_ISSUES, MoveCount, MoveCounts,
    MoveSink, RawMove, WeightRule, WriteSummary, WriterOptions, merge_runs, read_games,
};
use crate::job::JobProgress;

/// The memory bound when none is given, in MB.
pub const DEFAULT_MEMORY_MB: usize = 512;

/// The least memory `book make` accepts, in MB.
pub const MIN_MEMORY_MB: usize = 32;

/// Spilled runs merged at once; more are first merged in groups of this many.
const MERGE_WIDTH: usize = 128;

/// The read buffer of one spilled run in the merge.
const RUN_BUFFER: usize = 256 << 10;

/// Options of [`make_book`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MakeOptions {
    /// Plies read from the start of each game.
    pub max_plies: u32,
    /// Leave out moves played fewer times than this from their position.
    pub min_games: u32,
    /// How weights follow from the counts.
    pub weights: WeightRule,
    /// The memory bound in MB (at least [`MIN_MEMORY_MB`]).
    pub memory_mb: usize,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    /// Where runs are spilled; `None` for the output's directory.
    pub temp_dir: Option<PathBuf>,
    /// Pairs a worker counts before it spills a run; `None` to follow from
    /// `memory_mb` (tests set it small to make spills happen).
    pub map_capacity: Option<usize>,
    /// The size of the chunks the files are cut into; `None` to follow from
    /// `memory_mb` (tests set it small to cut files into many chunks).
    pub chunk_bytes: Option<usize>,
}

impl Default for MakeOptions {
    fn default() -> MakeOptions {
        MakeOptions {
            max_plies: DEFAULT_MAX_PLIES,
            min_games: 1,
            weights: WeightRule::Games,
            memory_mb: DEFAULT_MEMORY_MB,
            threads: 0,
            temp_dir: None,
            map_capacity: None,
            chunk_bytes: None,
        }
    }
}

/// A problem with one game of one file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}: {issue}", .file.display())]
pub struct MakeIssue {
    /// The PGN file.
    pub file: PathBuf,
    /// The game (numbered within the file) and what is wrong.
    pub issue: GameIssue,
}

/// What [`make_book`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MakeReport {
    /// PGN bytes read.
    pub bytes: u64,
    /// Games read.
    pub games: u64,
    /// Plies counted.
    pub plies: u64,
    /// The first [`MAX_KEPT_ISSUES`] problems, in file order.
    pub issues: Vec<MakeIssue>,
    /// How many problems there were.
    pub issue_count: u64,
    /// What was written.
    pub written: WriteSummary,
    /// Worker threads used.
    pub threads: usize,
    /// Pairs a worker counted before spilling.
    pub map_capacity: usize,
    /// Runs merged (spilled and in memory).
    pub runs: usize,
    /// Runs spilled to temporary files.
    pub spilled_runs: usize,
}

/// Why no book was made.
#[derive(Debug, Error)]
pub enum MakeError {
    /// No PGN file was given.
    #[error("no PGN file given")]
    NoInput,
    /// The memory bound is below [`MIN_MEMORY_MB`].
    #[error("--memory {mb} MB is too little: at least {MIN_MEMORY_MB} MB")]
    TooLittleMemory {
        /// The bound asked for.
        mb: usize,
    },
    /// A PGN file cannot be read.
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A temporary run cannot be written or read back.
    #[error("temporary files in {}: {source}", .path.display())]
    Temp {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The book cannot be written.
    #[error("cannot write the book {}: {source}", .path.display())]
    Write {
        /// The output file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The output cannot be locked or put in place (another process writes it, it is
    /// read-only, the rename failed).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The files hold no game: no book is written (an empty book would be no book).
    #[error("no games in {}: no book was written", .inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "))]
    NoGames {
        /// The files read.
        inputs: Vec<PathBuf>,
    },
    /// Cancel was asked for.
    #[error("book make was cancelled")]
    Cancelled,
    /// A worker thread ended without a result (it panicked: a bug).
    #[error("a book make thread stopped unexpectedly")]
    Died,
}

impl MakeFailure for MakeError {
    fn no_input() -> Self {
        MakeError::NoInput
    }
    fn too_little_memory(mb: usize) -> Self {
        MakeError::TooLittleMemory { mb }
    }
    fn read(path: PathBuf, source: io::Error) -> Self {
        MakeError::Read { path, source }
    }
    fn cancelled() -> Self {
        MakeError::Cancelled
    }
    fn died() -> Self {
        MakeError::Died
    }
}

/// Makes the book `output` from the games of `inputs`, reporting progress in bytes
/// read and games (items) to `progress`, and stopping when it is cancelled.
///
/// # Errors
///
/// [`MakeError`]: files that cannot be read or written, files with no game (nothing is
/// written then), too little memory, cancellation. Problems inside games are not errors but [`MakeReport::issues`].
pub fn make_book(
    inputs: &[PathBuf],
    output: &Path,
    options: &MakeOptions,
    progress: &JobProgress,
) -> Result<MakeReport, MakeError> {
    let mut plan = MakePlan::new::<MakeError>(
        inputs,
        options.memory_mb,
        MIN_MEMORY_MB,
        options.threads,
        options.chunk_bytes,
    )?;
    if options.chunk_bytes.is_none() {
        plan.fit_chunks_to_input();
    }
    progress.set_total(plan.total);
    let MakePlan {
        paths,
        files,
        total,
        threads,
        chunk_bytes,
        per_worker,
    } = plan;
    let map_capacity = options
        .map_capacity
        .unwrap_or_else(|| MoveCounts::with_memory(per_worker / 2).capacity());
    let temp_parent = match (&options.temp_dir, output.parent()) {
        (Some(dir), _) => dir.clone(),
        (None, Some(dir)) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    };
    let run_dir = RunDir::create(&temp_parent, "book-make").map_err(|source| MakeError::Temp {
        path: temp_parent.clone(),
        source,
    })?;

    let worker = Worker {
        inputs,
        max_plies: options.max_plies,
        run_dir: &run_dir,
        progress,
    };
    let mut outputs = process_chunks(&paths, files, chunk_bytes, threads, progress, |id, next| {
        worker.run(id, next, map_capacity)
    })?;

    let mut report = MakeReport {
        bytes: total,
        threads,
        map_capacity,
        ..MakeReport::default()
    };
    collect_reports(&mut report, &mut outputs, inputs);
    if report.games == 0 {
        return Err(MakeError::NoGames {
            inputs: inputs.to_vec(),
        });
    }
    let written = merge_and_write(outputs, output, options, &run_dir, &mut report)?;
    report.written = written;
    Ok(report)
}

/// What one worker gives back.
#[derive(Debug, Default)]
struct WorkerOutput {
    /// Per chunk: its number, its file and what was read.
    reports: Vec<(usize, usize, GamesReport)>,
    spilled: Vec<RunFile>,
    last: Vec<MoveCount>,
}

struct Worker<'a> {
    inputs: &'a [PathBuf],
    max_plies: u32,
    run_dir: &'a RunDir,
    progress: &'a JobProgress,
}

impl Worker<'_> {
    fn run(
        &self,
        id: usize,
        next: &mut dyn FnMut() -> Option<Chunk>,
        capacity: usize,
    ) -> Result<WorkerOutput, MakeError> {
        let mut sink = SpillingCounts {
            counts: MoveCounts::with_capacity(capacity),
            worker: id,
            run_dir: self.run_dir,
            spilled: Vec::new(),
            error: None,
        };
        let mut reports = Vec::new();
        while let Some(chunk) = next() {
            let report =
                read_games(&chunk.bytes[..], self.max_plies, &mut sink).map_err(|source| {
                    MakeError::Read {
                        path: self.inputs.get(chunk.file).cloned().unwrap_or_default(),
                        source,
                    }
                })?;
            if let Some((path, source)) = sink.error.take() {
                return Err(MakeError::Temp { path, source });
            }
            self.progress.advance(chunk.bytes.len() as u64);
            self.progress.add_items(report.games);
            reports.push((chunk.seq, chunk.file, report));
        }
        let last = sink.counts.take_run();
        Ok(WorkerOutput {
            reports,
            spilled: sink.spilled,
            last,
        })
    }
}

/// Counts that spill a sorted run to a file whenever the map is full.
struct SpillingCounts<'a> {
    counts: MoveCounts,
    worker: usize,
    run_dir: &'a RunDir,
    spilled: Vec<RunFile>,
    error: Option<(PathBuf, io::Error)>,
}

impl MoveSink for SpillingCounts<'_> {
    fn add(&mut self, key: u64, raw_move: RawMove, score: u8) {
        if self.error.is_some() || self.counts.try_add(key, raw_move, score) {
            return;
        }
        let run = self.counts.take_run();
        let path = self
            .run_dir
            .file(&format!("run-{}-{}", self.worker, self.spilled.len()));
        match write_run(&path, run.into_iter().map(Ok)) {
            Ok(file) => {
                self.spilled.push(file);
                self.counts.try_add(key, raw_move, score);
            }
            Err(e) => self.error = Some((path, e)),
        }
    }
}

/// Adds the workers' per-chunk reports up in reading order, numbering each file's
/// games from 1.
fn collect_reports(report: &mut MakeReport, outputs: &mut [WorkerOutput], inputs: &[PathBuf]) {
    let mut chunks: Vec<(usize, usize, GamesReport)> = outputs
        .iter_mut()
        .flat_map(|o| std::mem::take(&mut o.reports))
        .collect();
    chunks.sort_by_key(|c| c.0);
    let mut games_before = vec![0u64; inputs.len()];
    for (_, file, chunk) in chunks {
        let before = games_before.get(file).copied().unwrap_or(0);
        if let Some(slot) = games_before.get_mut(file) {
            *slot += chunk.games;
        }
        report.games += chunk.games;
        report.plies += chunk.plies;
        report.issue_count += chunk.issue_count;
        let path = inputs.get(file).cloned().unwrap_or_default();
        let room = MAX_KEPT_ISSUES.saturating_sub(report.issues.len());
        report
            .issues
            .extend(chunk.issues.into_iter().take(room).map(|mut issue| {
                issue.game += before;
                MakeIssue {
                    file: path.clone(),
                    issue,
                }
            }));
    }
}

type Run = Box<dyn Iterator<Item = io::Result<MoveCount>>>;

/// Merges every run into the book at `output` (through a temporary file).
fn merge_and_write(
    outputs: Vec<WorkerOutput>,
    output: &Path,
    options: &MakeOptions,
    run_dir: &RunDir,
    report: &mut MakeReport,
) -> Result<WriteSummary, MakeError> {
    let temp_error = |path: &Path| {
        let path = path.to_owned();
        move |source| MakeError::Temp { path, source }
    };
    let mut spilled: Vec<RunFile> = Vec::new();
    let mut in_memory: Vec<Vec<MoveCount>> = Vec::new();
    for o in outputs {
        spilled.extend(o.spilled);
        if !o.last.is_empty() {
            in_memory.push(o.last);
        }
    }
    report.spilled_runs = spilled.len();
    // Too many files for one merge: merge them in groups first.
    let spilled = merge_down::<MoveCount>(spilled, run_dir, MERGE_WIDTH, RUN_BUFFER)
        .map_err(|(path, source)| MakeError::Temp { path, source })?;
    report.runs = spilled.len() + in_memory.len();
    let mut runs: Vec<Run> = Vec::with_capacity(report.runs);
    for run in &spilled {
        runs.push(Box::new(
            read_run(run, RUN_BUFFER).map_err(temp_error(&run.path))?,
        ));
    }
    for run in in_memory {
        runs.push(Box::new(run.into_iter().map(Ok)));
    }

    let write_error = |source| MakeError::Write {
        path: output.to_owned(),
        source,
    };
    // Saved as every user file is (one writer, links and permissions kept).
    WriteLock::acquire(output)?.write_with(|file| {
        let mut writer = BookWriter::new(
            BufWriter::with_capacity(1 << 20, file),
            WriterOptions {
                weights: options.weights,
                min_games: options.min_games,
            },
        );
        for count in merge_runs(runs) {
            let count = count.map_err(temp_error(run_dir.path()))?;
            writer.push(count).map_err(write_error)?;
        }
        let (_, summary) = writer.finish().map_err(write_error)?;
        Ok(summary)
    })
}
