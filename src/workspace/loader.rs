//! The workspace's background work: files imported in the order they were asked for
//! (small files several at once, one per core), then the graph rebuilt once no import
//! is running.

use std::path::PathBuf;
use std::sync::Arc;

use super::error::WorkspaceError;
use super::files::{FileStamp, file_name, import_file};
use super::import_parts::MIN_PARALLEL_BYTES;
use super::{FileMode, Workspace, build_job};
use crate::book::{ImportOptions, ImportReport, PgnImport, PositionGraph, SourceId};
use crate::job::{Job, JobPoll, ProgressSnapshot, Wake};

/// One file waiting to be imported.
#[derive(Debug, Clone)]
pub(super) struct Queued {
    pub(super) path: PathBuf,
    pub(super) mode: FileMode,
    /// What was remembered about the file, when it is read again at start.
    pub(super) remembered: Option<FileStamp>,
}

type ImportResult = Result<(PgnImport, FileStamp), WorkspaceError>;

/// The running import.
pub(super) struct ImportJob {
    pub(super) queued: Queued,
    pub(super) id: SourceId,
    pub(super) job: Job<ImportResult>,
}

/// How far the running import is.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportProgress {
    /// The file being read.
    pub path: PathBuf,
    /// Bytes read (`done`) of the file's size (`total`), games started (`items`).
    pub counters: ProgressSnapshot,
    /// Files waiting after this one.
    pub queued: usize,
}

/// What a finished background job brought.
#[derive(Debug)]
pub enum WorkspaceEvent {
    /// A file was imported (and is now in [`Workspace::files`] and the choice).
    Imported {
        /// The file.
        path: PathBuf,
        /// Its report.
        report: ImportReport,
        /// Whether it was read again from the remembered list (at start).
        remembered: bool,
    },
    /// A file could not be imported. A remembered file also gives a warning in
    /// [`Workspace::warnings`].
    ImportFailed {
        /// The file.
        path: PathBuf,
        /// Why.
        error: WorkspaceError,
        /// Whether it was read again from the remembered list (at start).
        remembered: bool,
    },
    /// The learner cancelled the import of a file.
    Cancelled {
        /// The file.
        path: PathBuf,
    },
    /// A new graph is ready.
    Built {
        /// The graph of the chosen lines.
        graph: Arc<PositionGraph>,
        /// The theory the drill compares with: ECO in repertoire mode, else none.
        theory: Option<Arc<PositionGraph>>,
    },
    /// The graph could not be built (no thread could be started, or the build died).
    BuildFailed {
        /// Why.
        error: WorkspaceError,
    },
}

pub(super) fn poll(ws: &mut Workspace, block: bool, wake: &Wake) -> Vec<WorkspaceEvent> {
    let mut events = Vec::new();
    loop {
        if let Some(next) = next_to_start(ws) {
            match start_import(ws, next.clone(), wake) {
                Ok(job) => ws.imports.push_back(job),
                Err(error) => events.push(failed(ws, next, error)),
            }
            continue;
        }
        // The oldest import first: the events keep the order the files were asked in.
        if let Some(job) = ws.imports.front() {
            let result = if block {
                job.job.poll_blocking()
            } else {
                job.job.poll()
            };
            let result = match result {
                JobPoll::Running => break,
                JobPoll::Finished(r) => r,
                JobPoll::Died(e) => Err(e.into()),
            };
            let Some(job) = ws.imports.pop_front() else {
                break;
            };
            events.push(finish_import(ws, job, result));
            continue;
        }
        if ws.build.is_none() && ws.build_wanted {
            ws.build_wanted = false;
            match build_job(ws.selection(), wake) {
                Ok(job) => ws.build = Some(job),
                Err(error) => events.push(WorkspaceEvent::BuildFailed { error }),
            }
        }
        let Some(job) = &ws.build else {
            break;
        };
        let result = if block {
            job.poll_blocking()
        } else {
            job.poll()
        };
        match result {
            JobPoll::Running => {}
            JobPoll::Finished(build) => {
                ws.build = None;
                if !build.issues.is_empty() {
                    ws.warnings.push(format!(
                        "{} lines could not be replayed and were left out",
                        build.issues.len()
                    ));
                }
                let theory = ws.theory();
                events.push(WorkspaceEvent::Built {
                    graph: Arc::new(build.graph),
                    theory,
                });
            }
            JobPoll::Died(e) => {
                ws.build = None;
                events.push(WorkspaceEvent::BuildFailed { error: e.into() });
            }
        }
        break;
    }
    events
}

/// The queued file to start now, taken from the queue: the first when nothing runs; the
/// next beside running ones while all of them are small files (under
/// [`MIN_PARALLEL_BYTES`]: a larger one is read in parts on every core by itself) and
/// fewer than the cores run — a folder of small files reads at the speed of one large
/// file.
fn next_to_start(ws: &mut Workspace) -> Option<Queued> {
    let next = ws.queue.front()?;
    if !ws.imports.is_empty() {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let small = |path: &std::path::Path| {
            std::fs::metadata(path).is_ok_and(|m| m.len() < MIN_PARALLEL_BYTES)
        };
        let side_by_side = ws.imports.len() < cores
            && small(&next.path)
            && ws
                .imports
                .iter()
                .all(|j| small(&j.queued.path) && j.queued.path != next.path);
        if !side_by_side {
            return None;
        }
    }
    ws.queue.pop_front()
}

fn start_import(
    ws: &mut Workspace,
    queued: Queued,
    wake: &Wake,
) -> Result<ImportJob, WorkspaceError> {
    let id = ws.source_id(&queued.path);
    let options = ImportOptions {
        mode: queued.mode.into(),
        max_plies: None,
    };
    let names = Arc::clone(ws.eco());
    let path = queued.path.clone();
    let job = Job::spawn("import", Arc::clone(wake), move |progress| {
        import_file(&path, id, &options, &names, progress)
    })?;
    Ok(ImportJob { queued, id, job })
}

fn finish_import(ws: &mut Workspace, job: ImportJob, result: ImportResult) -> WorkspaceEvent {
    let queued = job.queued;
    match result {
        Ok((import, stamp)) => {
            if queued.remembered.is_some_and(|r| r != stamp) {
                ws.warnings.push(format!(
                    "{} changed since it was loaded; it was read again",
                    file_name(&queued.path)
                ));
            }
            let report = import.report.clone();
            ws.add_file(&queued.path, job.id, queued.mode, import, stamp);
            ws.request_build();
            WorkspaceEvent::Imported {
                path: queued.path,
                report,
                remembered: queued.remembered.is_some(),
            }
        }
        Err(WorkspaceError::Cancelled { path }) => WorkspaceEvent::Cancelled { path },
        Err(error) => failed(ws, queued, error),
    }
}

fn failed(ws: &mut Workspace, queued: Queued, error: WorkspaceError) -> WorkspaceEvent {
    let remembered = queued.remembered.is_some();
    if remembered {
        ws.warnings.push(error.to_string());
    }
    WorkspaceEvent::ImportFailed {
        path: queued.path,
        error,
        remembered,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

    use super::*;
    use crate::workspace::{BookChoice, FileMode};

    fn fixture(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name)
    }

    /// Small files run side by side, one per core, and their events come in the order
    /// they were asked for; the same file twice waits for itself.
    #[test]
    fn small_files_are_imported_side_by_side_and_reported_in_order() {
        let wake: Wake = Arc::new(|| {});
        let mut ws = Workspace::new(BookChoice::default()).unwrap();
        let files = [
            "twic1599_100k.pgn",
            "lichess_db_100k.pgn",
            "repertoire.pgn",
            "repertoire.pgn",
        ];
        ws.open(files.iter().map(|f| fixture(f)).collect(), FileMode::Games);
        let mut events = ws.poll(false, &wake);
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        // Nothing has finished yet, or the first has: either way the start filled the cores.
        if events.is_empty() {
            assert_eq!(ws.imports.len(), cores.min(3), "one import per core");
        }
        while ws.is_busy() {
            events.extend(ws.poll(true, &wake));
        }
        let imported: Vec<PathBuf> = events
            .iter()
            .filter_map(|e| match e {
                WorkspaceEvent::Imported { path, .. } => Some(path.clone()),
                _ => None,
            })
            .collect();
        let asked: Vec<PathBuf> = files.iter().map(|f| fixture(f)).collect();
        assert_eq!(imported, asked);
        assert!(matches!(events.last(), Some(WorkspaceEvent::Built { .. })));
        // The file read twice is one source.
        assert_eq!(ws.files().len(), 3);
    }
}
