//! The Book tab's side of the coach ([`BookState`]): files opened or dropped, what the
//! workspace's background work reports (imports, a rebuilt book), the import report
//! shown, the drill moved onto a new book, and the drill's line or a source exported
//! or copied as PGN.
//!
//! Named after the Book tab, where the learner chooses the sources the book is built
//! from (the loaded files, ECO, the Polyglot books): the user's word for what
//! [`crate::workspace`] keeps and [`crate::book`] builds. A new book is an event
//! ([`Event::NewBook`]): the chart, the coverage, the sampled lines and review mode
//! start over, each in its own feature.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

pub mod batch;
pub mod empty;
pub mod fetch;
pub(crate) mod paste;
pub mod repertoires;
pub mod report;

use self::report::ReportView;
use crate::book::{OpeningLine, PositionGraph, SourceId};
use crate::coach::context::{Context, Event};
use crate::coach::format;
use crate::coach::notice::Notice;
use crate::workspace::{BookChoice, FileMode, WorkspaceError, WorkspaceEvent, export};

/// What to export as PGN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportWhat {
    /// The lines of one source (a loaded file, or ECO).
    Source(SourceId),
    /// The moves of the current drill.
    Line,
}

/// The Book tab's commands: files opened, imported, removed; the book's sources; the
/// import report; the drill's line or a source exported, copied or saved; text pasted.
#[derive(Debug, Clone, PartialEq)]
pub enum BookCommand {
    /// Files chosen or dropped: Polyglot books are added, the PGN files asked about.
    OpenFiles(Vec<PathBuf>),
    /// Import these files, read this way.
    Import(Vec<PathBuf>, FileMode),
    /// The "how to read" question was dismissed.
    CancelOpen,
    /// Stop the running import.
    CancelImport,
    /// Build the book from these sources.
    SetBook(BookChoice),
    /// Remove a loaded file.
    RemoveFile(PathBuf),
    /// Show a loaded file's import report.
    ShowReport(PathBuf),
    /// Close the import report.
    CloseReport,
    /// Export as PGN (asks where).
    Export(ExportWhat),
    /// Copy the drill's line as PGN.
    CopyLine,
    /// Write these lines to this file as PGN.
    SaveLines(Vec<OpeningLine>, PathBuf),
    /// Text pasted on the window: moves to drill from, or PGN games kept and opened.
    Paste(String),
    /// Games or a study from lichess or chess.com, kept in the data folder and opened.
    Fetch(fetch::FetchCommand),
    /// Let the user choose a folder of PGN files (a folder dialog).
    ChooseFolder,
    /// Drill these repertoire files alone (My repertoires).
    TrainRepertoires(Vec<PathBuf>),
}

/// The Book tab's runtime state: the import report shown, if any, and the fetch.
#[derive(Default)]
pub struct BookState {
    /// The import report shown, if any.
    pub(crate) report: Option<ReportView>,
    /// Games or a study being fetched from the web, and the last fetch's outcome.
    pub(crate) fetch: fetch::FetchJob,
    /// Files the learner chose to read as "My repertoire", not read yet: once read, the
    /// book is the repertoire alone (a file read again after a save is not among them).
    alone: Vec<PathBuf>,
    /// The files of an import of several, until all have finished (then one report).
    batch: Option<batch::Batch>,
    /// My repertoires: a row per repertoire file.
    pub(crate) repertoires: repertoires::MyRepertoires,
    /// The paste being read.
    paste: paste::PasteJob,
}

impl std::fmt::Debug for BookState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BookState")
            .field("report", &self.report)
            .field("alone", &self.alone)
            .finish_non_exhaustive()
    }
}

impl BookState {
    /// The fetch from lichess or chess.com: its progress and last outcome.
    pub fn fetch(&self) -> &fetch::FetchJob {
        &self.fetch
    }

    /// The import report shown, if any.
    pub fn report(&self) -> Option<&ReportView> {
        self.report.as_ref()
    }

    /// Whether pasted text is being read (its games, moves or FEN not used yet).
    pub fn is_reading_paste(&self) -> bool {
        self.paste.is_reading()
    }

    /// My repertoires: a row per repertoire file loaded.
    pub fn repertoires(&self) -> &repertoires::MyRepertoires {
        &self.repertoires
    }

    /// Whether My repertoires is shown: its rows are kept up to date only then.
    pub fn set_repertoires_shown(&mut self, shown: bool) {
        self.repertoires.shown = shown;
    }

    /// Carries out one of the Book tab's commands (a pasted line to drill from is an
    /// event).
    pub(crate) fn apply(&mut self, command: BookCommand, ctx: &mut Context) {
        match command {
            BookCommand::OpenFiles(paths) => {
                let pgn = self.open_files(paths, ctx);
                if !pgn.is_empty() {
                    ctx.notify(Notice::AskHowToRead(pgn));
                }
            }
            BookCommand::Import(paths, mode) => {
                ctx.notify(Notice::CloseHowToRead);
                for path in &paths {
                    ctx.settings.remember_recent(path);
                }
                if mode == FileMode::Repertoire {
                    self.alone.extend(paths.iter().cloned());
                }
                self.batch = (paths.len() > 1).then(|| batch::Batch::new(&paths));
                ctx.workspace.open(paths, mode);
            }
            BookCommand::CancelOpen => ctx.notify(Notice::CloseHowToRead),
            BookCommand::CancelImport => ctx.workspace.cancel_import(),
            BookCommand::SetBook(choice) => ctx.workspace.set_choice(choice),
            BookCommand::RemoveFile(path) => ctx.workspace.remove(&path),
            BookCommand::ShowReport(path) => self.show_report(&path, ctx),
            BookCommand::CloseReport => self.close_report(),
            BookCommand::Export(what) => match export_lines(what, ctx) {
                Ok((lines, name)) => ctx.notify(Notice::ExportAs(lines, name)),
                Err(e) => ctx.message = Some(format!("Cannot export: {e}.")),
            },
            BookCommand::CopyLine => copy_line(ctx),
            BookCommand::SaveLines(lines, path) => {
                ctx.message = Some(match export::write_pgn_file(&lines, &path) {
                    Ok(n) => format!("Saved {} games to {}.", format::count(n), path.display()),
                    Err(e) => format!("Cannot export to {}: {e}.", path.display()),
                });
            }
            BookCommand::Paste(text) => {
                let data_dir = ctx.review_log.as_deref().and_then(Path::parent);
                let data_dir = data_dir.map(Path::to_path_buf);
                self.paste.start(text, data_dir, ctx);
            }
            BookCommand::ChooseFolder => ctx.notify(Notice::ChooseFolder),
            BookCommand::TrainRepertoires(paths) => {
                repertoires::train_repertoires(&paths, ctx);
            }
            BookCommand::Fetch(command) => {
                let data_dir = ctx.review_log.as_deref().and_then(Path::parent);
                let data_dir = data_dir.map(Path::to_path_buf);
                self.fetch.apply(command, data_dir.as_deref(), ctx.wake());
            }
        }
    }

    /// Files were chosen in the file dialog or dropped on the window: Polyglot books
    /// (`.bin`) become sources at once; the PGN files are returned (the window asks how
    /// to read them).
    pub(crate) fn open_files(&mut self, paths: Vec<PathBuf>, ctx: &mut Context) -> Vec<PathBuf> {
        // A folder is every PGN file in it, at any depth.
        let paths = match crate::workspace::folders::expand_folders(paths) {
            Ok(paths) => paths,
            Err(e) => {
                ctx.message = Some(format!("Nothing opened: {e}."));
                return Vec::new();
            }
        };
        // A Polyglot book needs no "read as" question: it gives popularity.
        let (books, pgn): (Vec<PathBuf>, Vec<PathBuf>) = paths
            .into_iter()
            .partition(|p| crate::workspace::books::is_polyglot(p));
        if !books.is_empty() {
            ctx.workspace.open(books, FileMode::Auto);
        }
        pgn
    }

    /// Shows the import report of the loaded file at `path` again.
    pub(crate) fn show_report(&mut self, path: &Path, ctx: &Context) {
        if let Some(f) = ctx.workspace.file(path) {
            self.report = Some(ReportView::of_report(f.path.clone(), f.report.clone()));
        }
    }

    /// Closes the import report.
    pub(crate) fn close_report(&mut self) {
        self.report = None;
    }

    /// Each frame: what the workspace's background work reports (the events it sends
    /// are the coach's to carry out right after).
    pub(crate) fn poll(&mut self, ctx: &mut Context) {
        self.poll_paste(ctx, false);
        if let Some(path) = self.fetch.poll() {
            self.apply(BookCommand::OpenFiles(vec![path]), ctx);
            ctx.request_repaint();
        }
        if self.fetch.progress().is_some() {
            // The count of games moves while they arrive.
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        let wake = ctx.wake();
        for event in ctx.workspace.poll(false, &wake) {
            self.on_workspace_event(event, ctx);
            ctx.request_repaint();
        }
        self.finish_batch();
        if self.repertoires.shown {
            let now = crate::review::Timestamp::from_clock(crate::clock::Clock::local());
            self.repertoires.refresh(ctx, now);
        }
        if ctx.workspace.is_importing() {
            // The progress bar moves while the file is read.
            ctx.request_repaint_after(Duration::from_millis(50));
        }
    }

    /// Waits for the workspace's imports and builds, one batch of its reports (the
    /// caller carries out the events they send and calls again while it is busy).
    pub(crate) fn wait(&mut self, ctx: &mut Context) {
        let wake = ctx.wake();
        for event in ctx.workspace.poll(true, &wake) {
            self.on_workspace_event(event, ctx);
        }
        self.finish_batch();
    }

    /// Takes the paste's result when it has been read (waiting for it when `block`): the
    /// games asked how to read, the line of moves drilled from, or the line said.
    pub(crate) fn poll_paste(&mut self, ctx: &mut Context, block: bool) {
        match self.paste.poll(ctx, block) {
            Some(paste::Pasting::OpenFile(path)) => {
                self.apply(BookCommand::OpenFiles(vec![path]), ctx);
            }
            Some(paste::Pasting::DrillFrom(moves)) => ctx.send(Event::Pasted(moves)),
            Some(paste::Pasting::Said) | None => {}
        }
    }

    /// Once every file of an import of several has finished: their report.
    fn finish_batch(&mut self) {
        if self.batch.as_ref().is_some_and(batch::Batch::is_done)
            && let Some(batch) = self.batch.take()
        {
            self.report = Some(ReportView::of_batch(batch));
        }
    }

    fn on_workspace_event(&mut self, event: WorkspaceEvent, ctx: &mut Context) {
        match event {
            WorkspaceEvent::Imported {
                path,
                report,
                remembered,
            } => {
                ctx.send(Event::FileImported(path.clone()));
                if !remembered && self.alone.contains(&path) {
                    self.alone.retain(|p| *p != path);
                    drill_repertoire_alone(ctx);
                }
                if let Some(batch) = self.batch.as_mut().filter(|b| b.waits_for(&path)) {
                    batch.finish_read(&path, &report);
                } else if !remembered || !report.issues.is_empty() {
                    self.report = Some(ReportView::of_report(path, report));
                }
            }
            WorkspaceEvent::ImportFailed {
                path,
                error,
                remembered,
            } => {
                self.alone.retain(|p| *p != path);
                if let Some(batch) = self.batch.as_mut().filter(|b| b.waits_for(&path)) {
                    batch.finish(&path, batch::BatchOutcome::Failed(error.to_string()));
                } else if !remembered {
                    // A remembered file's failure is a warning of the workspace's.
                    self.report = Some(ReportView::of_error(path, &error));
                }
            }
            WorkspaceEvent::Cancelled { path } => {
                self.alone.retain(|p| *p != path);
                if let Some(batch) = self.batch.as_mut() {
                    batch.finish(&path, batch::BatchOutcome::Cancelled);
                }
                ctx.message = Some(format!(
                    "Loading {} was cancelled.",
                    crate::workspace::file_name(&path)
                ));
            }
            WorkspaceEvent::Built { graph, theory } => {
                set_book(graph, theory, ctx);
                ctx.send(Event::AlignLearner);
            }
            WorkspaceEvent::BuildFailed { error } => {
                ctx.message = Some(format!("The book could not be rebuilt: {error}"));
            }
        }
        ctx.settings.book = ctx.workspace.choice().clone();
    }
}

/// A file the learner chose to read as "My repertoire" was read: the book becomes the
/// repertoire alone, and ECO the theory it is compared with. ECO stays a source the
/// learner can tick again in the Book tab.
fn drill_repertoire_alone(ctx: &mut Context) {
    if !ctx.workspace.choice().eco {
        return;
    }
    let mut choice = ctx.workspace.choice().clone();
    choice.eco = false;
    ctx.workspace.set_choice(choice);
}

/// The drill panel's line in repertoire mode: what is drilled and what ECO is for.
pub const REPERTOIRE_ALONE: &str = "Drilling only your repertoire: ECO is the theory it is compared with (tick it in the \
     Book tab to drill it too).";

/// Drills on a new book; the features that depend on the book are told
/// ([`Event::NewBook`]).
fn set_book(graph: Arc<PositionGraph>, theory: Option<Arc<PositionGraph>>, ctx: &mut Context) {
    let repertoire = theory.is_some();
    ctx.session.set_graph(Arc::clone(&graph));
    ctx.session.set_theory(theory);
    let old = std::mem::replace(&mut ctx.graph, graph);
    // A large graph takes a while to free: not on the caller's thread. Should the
    // thread not start, the closure and the graph are dropped here: only slower.
    let _ = std::thread::Builder::new()
        .name("hastings-drop".to_owned())
        .spawn(move || drop(old));
    ctx.book_generation += 1;
    ctx.invalidate_chart();
    ctx.last_reply = None;
    ctx.send(Event::NewBook);
    ctx.send(Event::Message(format!(
        "The book now has {} lines{}.",
        format::count(ctx.graph.lines().len()),
        if repertoire { " (your repertoire)" } else { "" }
    )));
}

/// The lines `what` exports and a file name to suggest.
///
/// # Errors
///
/// [`WorkspaceError::NothingToExport`] when there is nothing to export.
pub(crate) fn export_lines(
    what: ExportWhat,
    ctx: &Context,
) -> Result<(Vec<OpeningLine>, String), WorkspaceError> {
    match what {
        ExportWhat::Source(id) => ctx
            .workspace
            .source_lines(id)
            .map(|(lines, name)| (lines.to_vec(), name))
            .ok_or(WorkspaceError::NothingToExport),
        ExportWhat::Line => ctx
            .session
            .to_line()
            .map(|line| (vec![line], "drill.pgn".to_owned()))
            .ok_or(WorkspaceError::NothingToExport),
    }
}

/// Writes what `what` exports to `path` as PGN; returns the number of games.
///
/// # Errors
///
/// [`WorkspaceError::NothingToExport`] when there is nothing to export, else why
/// writing failed.
pub(crate) fn export_to(
    what: ExportWhat,
    path: &Path,
    ctx: &Context,
) -> Result<usize, WorkspaceError> {
    let (lines, _) = export_lines(what, ctx)?;
    export::write_pgn_file(&lines, path)
}

/// Puts the drill's line on the clipboard as PGN, as "Export" writes it.
pub(crate) fn copy_line(ctx: &mut Context) {
    let mut out = Vec::new();
    let copied = export_lines(ExportWhat::Line, ctx).and_then(|(lines, _)| {
        crate::book::export::write_pgn(lines.iter(), &mut out)?;
        Ok(())
    });
    ctx.message = Some(match copied {
        Ok(()) => {
            ctx.notify(Notice::CopyText(String::from_utf8_lossy(&out).into_owned()));
            "Copied the line as PGN.".to_owned()
        }
        Err(e) => format!("Nothing copied: {e}."),
    });
}
