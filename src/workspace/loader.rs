//! The workspace's background work: files imported one at a time in the order they
//! were asked for, then the graph rebuilt once no import is running.

use std::path::PathBuf;
use std::sync::Arc;

use super::error::WorkspaceError;
use super::files::{FileStamp, file_name, import_file};
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
        if ws.import.is_none()
            && let Some(next) = ws.queue.pop_front()
        {
            match start_import(ws, next.clone(), wake) {
                Ok(job) => ws.import = Some(job),
                Err(error) => events.push(failed(ws, next, error)),
            }
            continue;
        }
        if let Some(job) = &ws.import {
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
            let Some(job) = ws.import.take() else {
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
