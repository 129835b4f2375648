//! What the command line and the window share: the book's sources (the embedded ECO
//! list and the PGN files the learner loaded), rebuilding the graph, the theory of
//! repertoire drills, export, the learner's data on disk, and long work run as
//! [`crate::job::Job`]s with progress and cancel.
//!
//! - [`Workspace`]: the sources and the jobs that import and build them. The window
//!   queues work and polls it each frame ([`Workspace::poll`]); the command line runs
//!   the same steps on its own thread ([`Workspace::import_now`], [`Workspace::build_now`]).
//! - [`choice`]: which sources and filters the book uses (saved with the settings).
//! - [`chapters`]: which chapters of a repertoire are drilled, and from which side.
//! - [`files`]: file stamps and the progress-counting PGN reader; [`folders`]: a folder
//!   opened is every PGN file in it.
//! - [`export`]: PGN files written atomically.
//! - [`instance`]: one window per data folder (a lock file).
//! - [`log_file`]: `hastings.log`, the warnings and errors a bug report can attach.
//! - [`store`]: the learner's data written atomically, corrupt files kept aside.
//! - [`settings_file`]: the settings (`settings.json`), one entry a line, never reset
//!   silently.
//! - [`profiles`]: style profile files.
//! - [`eval_files`]: the weights and tuning states of seed 003's evaluation (the
//!   genetically tuned evaluation of Klevansky, Ostroff and Offen; `ARCHITECTURE.md`,
//!   References).
//! - [`data_dir`]: the data folder, the review log in it, one window per folder.
//! - [`compare_games`]: compare my games (the CLI and the Coverage tab).
//! - [`analysis_cache`]: engine analyses kept on disk (repertoire checks);
//!   [`check`]: the engine check as the CLI and the window run it.
//! - [`review_store`]: the review log of spaced repetition (append-only, synced).
//! - [`repertoire_file`]: a repertoire file open for editing: save with a backup,
//!   conflicts, recovery of unsaved edits ([`backups`], [`repertoire_journal`]).
//! - [`repertoire_edit`]: "Add the most popular answer", a copy of the repertoire file
//!   with one more game.
//! - [`books`], [`polyglot`], [`polyglot_make`]: Polyglot books among the sources,
//!   memory-mapped, and `hastings book make`.
//! - [`explorer`]: explorer indexes on disk (`hastings explorer make`, `add`, `query`).
//! - [`fetch`]: games and studies fetched from lichess and chess.com into a PGN file;
//!   [`paste`]: clipboard text read as PGN games, a FEN or a line of SAN moves.
//! - [`import_parts`]: a PGN file read in parts on every core; `chunks` (PGN cut into
//!   chunks of whole games for worker threads) and `runs` (sorted runs spilled to
//!   temporary files) are what `book make` and `explorer make` share, `pool` the worker
//!   threads that read chunks (theirs and the parts'); `loader` runs
//!   the imports and the rebuild in the background.
//! - [`predictor_dataset`] (with [`npy`]): the move predictor's training set.
//! - [`error`]: the workspace's errors, each naming the file and why.
//!
//! The workspace opens files; the layers below it (`book`, `sampler`, `trainer`) never
//! do. It knows no egui.

pub mod analysis_cache;
pub mod backups;
pub mod books;
pub mod chapters;
pub mod check;
pub mod choice;
mod chunks;
pub mod compare_games;
pub mod data_dir;
pub mod error;
pub mod eval_files;
pub mod explorer;
pub mod export;
pub mod fetch;
pub mod file_lock;
pub mod files;
pub mod folders;
pub mod import_parts;
pub mod instance;
mod loader;
pub mod log_file;
pub mod npy;
pub mod paste;
pub mod polyglot;
pub mod polyglot_make;
mod pool;
pub mod predictor_dataset;
pub mod profiles;
pub mod repertoire_edit;
pub mod repertoire_file;
pub mod repertoire_journal;
pub mod repertoires;
pub mod review_store;
mod runs;
pub mod save_dir;
pub mod settings_file;
pub mod store;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use choice::{BookChoice, BookFile, FileMode, PolyglotChoice};
pub use error::WorkspaceError;
pub use files::{FileStamp, check_file_now, file_name};
pub use loader::{ImportProgress, WorkspaceEvent};

use crate::book::{
    GraphBuild, ImportMode, ImportOptions, ImportReport, OpeningLine, PositionGraph, SourceId,
};
use crate::job::{Job, JobProgress, Wake};

/// A PGN file whose lines are in the workspace.
#[derive(Debug, Clone)]
pub struct LoadedFile {
    /// Its source id in the lines.
    pub id: SourceId,
    /// Where it was read from.
    pub path: PathBuf,
    /// The mode it was read in (decided by the importer when the learner chose auto).
    pub mode: ImportMode,
    /// The lines it gave.
    pub lines: Arc<Vec<OpeningLine>>,
    /// The import report: counts and issues.
    pub report: ImportReport,
    /// Its chapters (games), with titles and sides.
    pub chapters: Vec<crate::book::chapters::Chapter>,
    /// Size and modification time when it was read.
    pub stamp: FileStamp,
}

impl LoadedFile {
    /// The file name, for lists.
    pub fn name(&self) -> String {
        file_name(&self.path)
    }
}

/// The book's sources and the background jobs that import and build them.
///
/// ```
/// use hastings::book::{ImportMode, LineFilter};
/// use hastings::workspace::{BookChoice, FileMode, Workspace};
///
/// let path = std::env::temp_dir().join(format!("ws-doc-{}.pgn", std::process::id()));
/// std::fs::write(&path, "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n")?;
/// let mut ws = Workspace::new(BookChoice::default())?;
/// let file = ws.import_now(&path, FileMode::Auto, None)?;
/// assert_eq!(file.mode, ImportMode::Repertoire);
/// let build = ws.build_now();
/// assert_eq!(build.graph.stats().lines, 3808);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Workspace {
    eco_lines: Arc<Vec<OpeningLine>>,
    eco: Option<Arc<PositionGraph>>,
    choice: BookChoice,
    files: Vec<LoadedFile>,
    next_id: u16,
    queue: VecDeque<loader::Queued>,
    /// The imports running, oldest first (several small files at once; their events in
    /// the order they were asked for).
    imports: VecDeque<loader::ImportJob>,
    build: Option<Job<GraphBuild>>,
    /// A build was asked for while imports were still running (or none runs yet).
    build_wanted: bool,
    /// Missing or changed files, failed re-imports, lines left out.
    warnings: Vec<String>,
    /// The Polyglot books of the choice, opened.
    books: books::OpenBooks,
}

impl Workspace {
    /// A workspace with the embedded ECO lines and `choice` (its files are not read
    /// yet: see [`Workspace::restore`]).
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::Book`] if the embedded ECO data does not load (a bug a test
    /// rules out).
    pub fn new(choice: BookChoice) -> Result<Workspace, WorkspaceError> {
        let eco = crate::book::eco::embedded();
        if !eco.issues.is_empty() {
            return Err(crate::book::BookError::Eco(eco.issues).into());
        }
        if !eco.line_issues.is_empty() {
            return Err(crate::book::BookError::Lines(eco.line_issues).into());
        }
        Ok(Workspace::from_parts(Arc::new(eco.lines), None, choice))
    }

    /// A workspace on the whole ECO graph, already built (the window builds it first, to
    /// draw the board at once); the ECO lines are the graph's.
    pub fn with_eco(eco: Arc<PositionGraph>, choice: BookChoice) -> Workspace {
        Workspace::from_parts(Arc::new(eco.lines().to_vec()), Some(eco), choice)
    }

    fn from_parts(
        eco_lines: Arc<Vec<OpeningLine>>,
        eco: Option<Arc<PositionGraph>>,
        choice: BookChoice,
    ) -> Workspace {
        let mut ws = Workspace {
            eco_lines,
            eco,
            choice,
            files: Vec::new(),
            next_id: 0,
            queue: VecDeque::new(),
            imports: VecDeque::new(),
            build: None,
            build_wanted: false,
            warnings: Vec::new(),
            books: books::OpenBooks::default(),
        };
        ws.books.sync(&ws.choice);
        ws
    }

    /// Queues the remembered files for import (a missing one gives a warning) and, when
    /// the choice is not the whole ECO list, a build.
    pub fn restore(&mut self) {
        for f in self.choice.files.clone() {
            match FileStamp::of(&f.path) {
                Ok(_) => self.queue.push_back(loader::Queued {
                    path: f.path.clone(),
                    mode: f.mode,
                    remembered: Some(FileStamp::remembered(&f)),
                }),
                Err(e) => self.warnings.push(format!(
                    "{} is missing ({e}); its lines are not in the book",
                    f.path.display()
                )),
            }
        }
        self.books.sync(&self.choice);
        for b in &self.choice.books {
            if let Some(Err(e)) = self.books.status(&b.path) {
                self.warnings
                    .push(format!("{e}; the book gives no popularity"));
            }
        }
        if !self.choice.same_graph(&BookChoice::default()) {
            self.build_wanted = true;
        }
    }

    /// The whole ECO graph: it names PGN lines without an `[Opening]` tag and is the
    /// theory of repertoire drills. Built on first use.
    pub fn eco(&mut self) -> &Arc<PositionGraph> {
        let lines = &self.eco_lines;
        self.eco
            .get_or_insert_with(|| Arc::new(PositionGraph::build(lines.iter().cloned()).graph))
    }

    /// The embedded ECO lines.
    pub fn eco_lines(&self) -> &Arc<Vec<OpeningLine>> {
        &self.eco_lines
    }

    /// The sources and filters chosen.
    pub fn choice(&self) -> &BookChoice {
        &self.choice
    }

    /// Uses these sources and filters; the graph is rebuilt when they change it (books
    /// and popularity do not).
    pub fn set_choice(&mut self, choice: BookChoice) {
        let rebuild = !self.choice.same_graph(&choice)
            || (self.choice.side != choice.side && self.has_sided_chapters());
        self.choice = choice;
        self.books.sync(&self.choice);
        if rebuild {
            self.request_build();
        }
    }

    /// The Polyglot books a drill draws popularity from (see [`books::OpenBooks::books`]).
    pub fn books(&mut self) -> Vec<crate::book::polyglot::SharedBook> {
        self.books.books(&self.choice)
    }

    /// The opened Polyglot books: their status and a generation that changes with them.
    pub fn open_books(&self) -> &books::OpenBooks {
        &self.books
    }

    /// The loaded files, in the order they were loaded.
    pub fn files(&self) -> &[LoadedFile] {
        &self.files
    }

    /// The loaded file read from `path`.
    pub fn file(&self, path: &Path) -> Option<&LoadedFile> {
        self.files.iter().find(|f| f.path == path)
    }

    /// Warnings for the learner: missing or changed files, failed re-imports.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Queues `paths` for import in `mode`. A file already remembered is read anew in
    /// that mode.
    pub fn open(&mut self, paths: Vec<PathBuf>, mode: FileMode) {
        let (bins, paths): (Vec<PathBuf>, Vec<PathBuf>) =
            paths.into_iter().partition(|p| books::is_polyglot(p));
        if !bins.is_empty() {
            for path in bins {
                if !self.choice.books.iter().any(|b| b.path == path) {
                    self.choice.books.push(choice::PolyglotChoice {
                        path,
                        enabled: true,
                    });
                }
            }
            // A book is for popularity: opening one means using it.
            if !self.choice.popularity.uses_book() {
                self.choice.popularity = crate::sampler::Popularity::Games;
            }
            self.books.sync(&self.choice);
        }
        for path in paths {
            if let Some(b) = self.choice.files.iter_mut().find(|b| b.path == path) {
                b.mode = mode;
            }
            self.queue.push_back(loader::Queued {
                path,
                mode,
                remembered: None,
            });
        }
    }

    /// Forgets the file read from `path` (its lines leave the book; the file itself is
    /// untouched) and rebuilds the graph.
    pub fn remove(&mut self, path: &Path) {
        if self.choice.books.iter().any(|b| b.path == path) {
            self.choice.books.retain(|b| b.path != path);
            self.books.sync(&self.choice);
            return;
        }
        self.choice.files.retain(|b| b.path != path);
        self.files.retain(|f| f.path != path);
        self.queue.retain(|q| q.path != path);
        for job in self.imports.iter().filter(|j| j.queued.path == path) {
            job.job.cancel();
        }
        self.request_build();
    }

    /// Cancels the import shown ([`Workspace::import_progress`]; the next queued file
    /// starts).
    pub fn cancel_import(&mut self) {
        if let Some(job) = self.imports.front() {
            job.job.cancel();
        }
    }

    /// Cancels every job (the window is closing).
    pub fn cancel_all(&mut self) {
        self.queue.clear();
        for job in &self.imports {
            job.job.cancel();
        }
        if let Some(build) = &self.build {
            build.cancel();
        }
    }

    /// Whether an import is running or waiting.
    pub fn is_importing(&self) -> bool {
        !self.imports.is_empty() || !self.queue.is_empty()
    }

    /// Whether a graph is being built (or will be once the imports are done).
    pub fn is_building(&self) -> bool {
        self.build.is_some() || self.build_wanted
    }

    /// Whether files are being loaded or the book is being built.
    pub fn is_busy(&self) -> bool {
        self.is_importing() || self.is_building()
    }

    /// Whether the chosen book is only the learner's repertoire: ECO is not ticked and
    /// every ticked file (at least one) was read as a repertoire. ECO is then the theory
    /// the drill compares with.
    pub fn is_repertoire(&self) -> bool {
        let mut selected = self.selected().peekable();
        !self.choice.eco
            && selected.peek().is_some()
            && selected.all(|f| f.mode == ImportMode::Repertoire)
    }

    /// The theory for the chosen book: the ECO graph in repertoire mode, else none.
    pub fn theory(&mut self) -> Option<Arc<PositionGraph>> {
        if self.is_repertoire() {
            Some(Arc::clone(self.eco()))
        } else {
            None
        }
    }

    fn selected(&self) -> impl Iterator<Item = &LoadedFile> {
        self.files.iter().filter(|f| {
            self.choice
                .files
                .iter()
                .any(|b| b.path == f.path && b.enabled)
        })
    }

    /// Builds the graph of the chosen sources and filters on this thread.
    pub fn build_now(&self) -> GraphBuild {
        build_graph(&self.selection())
    }

    /// Builds the graph of the chosen sources and filters on this thread, giving the
    /// lines to the graph instead of copying them (the command line's way: it needs
    /// the workspace no more).
    pub fn into_build(self) -> GraphBuild {
        let mut selection = self.selection();
        drop(self);
        let sources = std::mem::take(&mut selection.sources);
        let expected = sources.iter().map(|s| s.len()).sum();
        PositionGraph::build_expecting(
            sources
                .into_iter()
                .flat_map(|s| {
                    Arc::try_unwrap(s)
                        .unwrap_or_else(|shared| shared.to_vec())
                        .into_iter()
                        .enumerate()
                })
                .filter(|(i, l)| selection.matches(*i, l))
                .map(|(_, l)| l),
            expected,
        )
    }

    /// Asks for the graph of the chosen sources: built on a background thread once no
    /// import is running; a build already running is superseded.
    pub fn request_build(&mut self) {
        if let Some(old) = self.build.take() {
            old.cancel();
        }
        self.build_wanted = true;
    }

    /// Reads the PGN file at `path` on this thread (the command line's way), with a
    /// progress bar on a terminal, and adds it as the next source, enabled.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError`] when the file cannot be opened or read, or holds no game.
    pub fn import_now(
        &mut self,
        path: &Path,
        mode: FileMode,
        max_plies: Option<u32>,
    ) -> Result<&LoadedFile, WorkspaceError> {
        self.import_now_with(path, mode, max_plies, &JobProgress::new())
    }

    /// As [`Workspace::import_now`], reporting how far it is to `progress` (the CLI
    /// draws it as a terminal bar).
    ///
    /// # Errors
    ///
    /// As [`Workspace::import_now`].
    pub fn import_now_with(
        &mut self,
        path: &Path,
        mode: FileMode,
        max_plies: Option<u32>,
        progress: &JobProgress,
    ) -> Result<&LoadedFile, WorkspaceError> {
        let id = self.source_id(path);
        let options = ImportOptions {
            mode: mode.into(),
            max_plies,
        };
        let names = Arc::clone(self.eco());
        let (import, stamp) = files::import_file(path, id, &options, &names, progress)?;
        let index = self.add_file(path, id, mode, import, stamp);
        Ok(&self.files[index])
    }

    /// The id of the file at `path`: its old id when it was loaded before, else the next.
    fn source_id(&mut self, path: &Path) -> SourceId {
        match self.files.iter().find(|f| f.path == path) {
            Some(f) => f.id,
            None => {
                self.next_id = self.next_id.saturating_add(1);
                SourceId(self.next_id)
            }
        }
    }

    /// Keeps an imported file and remembers it in the choice; returns its index.
    fn add_file(
        &mut self,
        path: &Path,
        id: SourceId,
        mode: FileMode,
        import: crate::book::PgnImport,
        stamp: FileStamp,
    ) -> usize {
        match self.choice.files.iter_mut().find(|b| b.path == path) {
            Some(b) => {
                // Lines are picked by their place in the file: a changed file drops them.
                let changed = b.size != stamp.size || b.modified != stamp.modified;
                if changed && b.lines.take().is_some() {
                    self.warnings.push(format!(
                        "{} has changed: the lines picked in it are all drilled again",
                        path.display()
                    ));
                }
                b.size = stamp.size;
                b.modified = stamp.modified;
            }
            None => self.choice.files.push(BookFile {
                path: path.to_owned(),
                mode,
                size: stamp.size,
                modified: stamp.modified,
                ..BookFile::default()
            }),
        }
        let loaded = LoadedFile {
            id,
            path: path.to_owned(),
            mode: import.report.mode,
            chapters: crate::book::chapters::chapters(&import.lines),
            lines: Arc::new(import.lines),
            report: import.report,
            stamp,
        };
        match self.files.iter().position(|f| f.path == path) {
            Some(i) => {
                self.files[i] = loaded;
                i
            }
            None => {
                self.files.push(loaded);
                self.files.len() - 1
            }
        }
    }

    /// Starts the next job if none is running, and returns what finished. `wake` is
    /// called from a job's thread when it finishes (the window asks for a repaint).
    /// With `block`, waits for the running jobs to finish (tests and the screenshot
    /// mode wait; the window never does).
    pub fn poll(&mut self, block: bool, wake: &Wake) -> Vec<WorkspaceEvent> {
        loader::poll(self, block, wake)
    }

    /// How far the oldest running import is (the others running beside it count as
    /// waiting).
    pub fn import_progress(&self) -> Option<ImportProgress> {
        let job = self.imports.front()?;
        Some(ImportProgress {
            path: job.queued.path.clone(),
            counters: job.job.progress().snapshot(),
            queued: self.queue.len() + self.imports.len() - 1,
        })
    }

    /// The lines of a source and a file name to suggest for their export: ECO, or a
    /// loaded file.
    pub fn source_lines(&self, id: SourceId) -> Option<(Arc<Vec<OpeningLine>>, String)> {
        if id == SourceId::ECO {
            return Some((Arc::clone(&self.eco_lines), "eco.pgn".to_owned()));
        }
        let f = self.files.iter().find(|f| f.id == id)?;
        Some((
            Arc::clone(&f.lines),
            format!("{}-export.pgn", f.name().trim_end_matches(".pgn")),
        ))
    }
}

/// The graph of the lines a selection keeps.
fn build_graph(selection: &chapters::Selection) -> GraphBuild {
    PositionGraph::build_expecting(
        selection
            .sources
            .iter()
            .flat_map(|s| s.iter().enumerate())
            .filter(|(i, l)| selection.matches(*i, l))
            .map(|(_, l)| l.clone()),
        selection.sources.iter().map(|s| s.len()).sum(),
    )
}

/// Builds the graph of a selection on a background thread (the loader's way).
fn build_job(
    selection: chapters::Selection,
    wake: &Wake,
) -> Result<Job<GraphBuild>, WorkspaceError> {
    Ok(Job::spawn(
        "build",
        Arc::clone(wake),
        move |_: &JobProgress| build_graph(&selection),
    )?)
}
