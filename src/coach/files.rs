//! The coach's side of files and books: files opened or dropped, what the workspace's
//! background work reports (imports, a rebuilt book), the drill moved onto a new book,
//! and the drill's line or a source exported or copied as PGN.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::command::ExportWhat;
use super::report::ReportView;
use super::{Coach, Notice, format, play_on};
use crate::book::PositionGraph;
use crate::engine::predictor::Predictor;
use crate::trainer::PastBook;
use crate::workspace::{WorkspaceError, WorkspaceEvent, export};

impl Coach {
    /// Files were chosen in the file dialog or dropped on the window: Polyglot books
    /// (`.bin`) become sources at once; the PGN files are returned (the window asks how
    /// to read them).
    pub fn open_files(&mut self, paths: Vec<PathBuf>) -> Vec<PathBuf> {
        // A Polyglot book needs no "read as" question: it gives popularity.
        let (books, pgn): (Vec<PathBuf>, Vec<PathBuf>) = paths
            .into_iter()
            .partition(|p| crate::workspace::books::is_polyglot(p));
        if !books.is_empty() {
            self.ctx
                .workspace
                .open(books, crate::workspace::FileMode::Auto);
        }
        pgn
    }

    /// Waits until every import and graph build has finished and applies the results,
    /// as the frames would one by one. For tests and the screenshot mode; the window
    /// itself never waits.
    pub fn finish_loading(&mut self) {
        let wake = self.ctx.wake();
        while self.ctx.workspace.is_busy() {
            for event in self.ctx.workspace.poll(true, &wake) {
                self.on_workspace_event(event);
            }
            self.run_events();
        }
    }

    /// Writes what `what` exports to `path` as PGN; returns the number of games.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::NothingToExport`] when there is nothing to export, else why
    /// writing failed.
    pub fn export_to(
        &self,
        what: ExportWhat,
        path: &std::path::Path,
    ) -> Result<usize, WorkspaceError> {
        let (lines, _) = self.export_lines(what)?;
        export::write_pgn_file(&lines, path)
    }

    /// The lines `what` exports and a file name to suggest.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::NothingToExport`] when there is nothing to export.
    pub fn export_lines(
        &self,
        what: ExportWhat,
    ) -> Result<(Vec<crate::book::OpeningLine>, String), WorkspaceError> {
        match what {
            ExportWhat::Source(id) => self
                .ctx
                .workspace
                .source_lines(id)
                .map(|(lines, name)| (lines.to_vec(), name))
                .ok_or(WorkspaceError::NothingToExport),
            ExportWhat::Line => self
                .ctx
                .session
                .to_line()
                .map(|line| (vec![line], "drill.pgn".to_owned()))
                .ok_or(WorkspaceError::NothingToExport),
        }
    }

    /// Puts the game on the board on the clipboard as PGN: the play-on game, else the
    /// drill's line as "Export" writes it.
    pub(crate) fn copy_pgn(&mut self) {
        if self.play_on.is_active() {
            self.play_on
                .apply(play_on::PlayOnCommand::CopyPgn, &mut self.ctx);
            return;
        }
        let mut out = Vec::new();
        let copied = self.export_lines(ExportWhat::Line).and_then(|(lines, _)| {
            crate::book::export::write_pgn(lines.iter(), &mut out)?;
            Ok(())
        });
        self.ctx.message = Some(match copied {
            Ok(()) => {
                self.ctx
                    .notify(Notice::CopyText(String::from_utf8_lossy(&out).into_owned()));
                "Copied the line as PGN.".to_owned()
            }
            Err(e) => format!("Nothing copied: {e}."),
        });
    }

    /// Gives the drill the workspace's Polyglot books and popularity, and play past the
    /// book as the settings say.
    pub(crate) fn sync_books(&mut self) {
        self.drill.books_seen = self.ctx.workspace.open_books().generation();
        self.ctx.settings.book = self.ctx.workspace.choice().clone();
        let books = self.ctx.workspace.books();
        self.ctx
            .session
            .set_books(books, self.ctx.settings.book.popularity);
        let plies = self.ctx.settings.past_book_plies;
        let past_book = match (plies, Predictor::shared()) {
            (0, _) => None,
            (plies, Ok(predictor)) => Some(PastBook::new(predictor, plies)),
            (_, Err(e)) => {
                self.ctx.message = Some(format!("Past the book is off: {e}"));
                None
            }
        };
        self.ctx.session.set_past_book(past_book);
        self.explorer.sync_drill(&mut self.ctx);
        self.ctx.invalidate_chart();
    }

    pub(crate) fn poll_workspace(&mut self) {
        if self.ctx.workspace.open_books().generation() != self.drill.books_seen {
            self.sync_books();
        }
        let wake = self.ctx.wake();
        for event in self.ctx.workspace.poll(false, &wake) {
            self.on_workspace_event(event);
            self.ctx.request_repaint();
        }
        if self.ctx.workspace.is_importing() {
            // The progress bar moves while the file is read.
            self.ctx.request_repaint_after(Duration::from_millis(50));
        }
    }

    fn on_workspace_event(&mut self, event: WorkspaceEvent) {
        match event {
            WorkspaceEvent::Imported {
                path,
                report,
                remembered,
            } => {
                self.style.sides.after_import(&path, &mut self.ctx);
                if !remembered || !report.issues.is_empty() {
                    self.report = Some(ReportView::of_report(path, report));
                }
            }
            WorkspaceEvent::ImportFailed {
                path,
                error,
                remembered,
            } => {
                // A remembered file's failure is a warning of the workspace's.
                if !remembered {
                    self.report = Some(ReportView::of_error(path, &error));
                }
            }
            WorkspaceEvent::Cancelled { path } => {
                self.ctx.message = Some(format!(
                    "Loading {} was cancelled.",
                    crate::workspace::file_name(&path)
                ));
            }
            WorkspaceEvent::Built { graph, theory } => {
                self.set_book(graph, theory);
                self.style.sides.align_learner(&mut self.ctx);
            }
            WorkspaceEvent::BuildFailed { error } => {
                self.ctx.message = Some(format!("The book could not be rebuilt: {error}"));
            }
        }
        self.ctx.settings.book = self.ctx.workspace.choice().clone();
    }

    /// Drills on a new book.
    fn set_book(&mut self, graph: Arc<PositionGraph>, theory: Option<Arc<PositionGraph>>) {
        self.sampled_lines.reset();
        let repertoire = theory.is_some();
        // The repertoire editor's subtree is trained no more: this is another book.
        self.stop_repertoire_training();
        self.ctx.session.set_graph(Arc::clone(&graph));
        self.ctx.session.set_theory(theory);
        let old = std::mem::replace(&mut self.ctx.graph, graph);
        // A large graph takes a while to free: not on the caller's thread. Should the
        // thread not start, the closure and the graph are dropped here: only slower.
        let _ = std::thread::Builder::new()
            .name("hastings-drop".to_owned())
            .spawn(move || drop(old));
        self.ctx.book_generation += 1;
        self.coverage.book_changed();
        self.ctx.invalidate_chart();
        self.ctx.last_reply = None;
        self.drill.reply_due = None;
        // A review session's cards are the new book's.
        self.review.restart(&mut self.ctx);
        self.ctx.message = Some(format!(
            "The book now has {} lines{}.",
            format::count(self.ctx.graph.lines().len()),
            if repertoire { " (your repertoire)" } else { "" }
        ));
    }
}
