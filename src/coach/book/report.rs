//! An import report as the window shows it: a file's summary and problems, or why it
//! could not be read.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::batch::Batch;
use crate::book::{ImportIssue, ImportReport};
use crate::coach::format::count;
use crate::workspace::WorkspaceError;

/// What the import report window shows: a file's report, or why it failed.
#[derive(Debug, Clone)]
pub struct ReportView {
    /// The file.
    pub path: PathBuf,
    /// The report, when the file was read.
    pub report: Option<ImportReport>,
    /// Why the file could not be read.
    pub error: Option<String>,
    /// Issues of a failed import.
    pub issues: Vec<ImportIssue>,
    /// The files of an import of several, once all have finished (then `path` is the
    /// first file's).
    pub batch: Option<Batch>,
}

impl ReportView {
    /// The report of a file that was read.
    pub fn of_report(path: PathBuf, report: ImportReport) -> ReportView {
        ReportView {
            path,
            report: Some(report),
            error: None,
            issues: Vec::new(),
            batch: None,
        }
    }

    /// Why a file could not be read, with the problems found on the way.
    pub fn of_error(path: PathBuf, error: &WorkspaceError) -> ReportView {
        ReportView {
            path,
            report: None,
            error: Some(error.to_string()),
            issues: error.issues().to_vec(),
            batch: None,
        }
    }

    /// The report of an import of several files, once all have finished.
    pub fn of_batch(batch: Batch) -> ReportView {
        ReportView {
            path: batch
                .files()
                .first()
                .map(|f| f.path.clone())
                .unwrap_or_default(),
            report: None,
            error: None,
            issues: Vec::new(),
            batch: Some(batch),
        }
    }

    /// The issues shown.
    pub fn issues(&self) -> &[ImportIssue] {
        self.report.as_ref().map_or(&self.issues, |r| &r.issues)
    }

    /// The summary line: games, lines, positions (or the error).
    pub fn summary(&self) -> String {
        if let Some(e) = &self.error {
            return e.clone();
        }
        if let Some(batch) = &self.batch {
            return batch.summary();
        }
        let Some(r) = &self.report else {
            return String::new();
        };
        let without_moves = match r.without_moves {
            0 => String::new(),
            1 => "; 1 game has no moves (skipped)".to_owned(),
            n => format!("; {} games have no moves (skipped)", count(n)),
        };
        format!(
            "{} games read, {} imported as {}: {} lines, {} positions{without_moves}; {} issue{}",
            count(r.games),
            count(r.imported),
            r.mode,
            count(r.lines),
            count(r.positions),
            count(r.issue_count),
            if r.issue_count == 1 { "" } else { "s" }
        )
    }

    /// The report as text, one issue per line (what "Copy" puts on the clipboard).
    pub fn text(&self) -> String {
        if let Some(batch) = &self.batch {
            let mut out = format!("{}\n", batch.summary());
            for f in batch.files() {
                let _ = writeln!(out, "{}\t{}", f.path.display(), f.outcome.text());
            }
            return out;
        }
        let mut out = format!("{}\n{}\n", self.path.display(), self.summary());
        for i in self.issues() {
            let _ = writeln!(
                out,
                "game {}\t{}\tply {}\t{}\t{}",
                i.game, i.summary.0, i.ply, i.san, i.reason
            );
        }
        if let Some(r) = &self.report
            && r.issue_count > r.issues.len()
        {
            let _ = writeln!(out, "… and {} more", r.issue_count - r.issues.len());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::SourceId;
    use crate::book::pgn::{ImportOptions, read_pgn};

    #[test]
    fn games_without_moves_are_counted_and_said_to_be_skipped() {
        // A forfeit (tags, no moves) between two games, as lichess exports them.
        let text = "[Event \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
                    [Event \"Forfeit\"]\n[Result \"1-0\"]\n\n1-0\n\n\
                    [Event \"B\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";
        let import = read_pgn(
            text.as_bytes(),
            SourceId(1),
            &ImportOptions::default(),
            None,
        )
        .unwrap();
        assert_eq!(import.report.games, 3);
        assert_eq!(import.report.imported, 2);
        assert_eq!(import.report.without_moves, 1);
        let view = ReportView::of_report(PathBuf::from("games.pgn"), import.report);
        let summary = view.summary();
        assert!(
            summary.contains("3 games read, 2 imported")
                && summary.contains("; 1 game has no moves (skipped); 0 issues"),
            "{summary}"
        );
    }
}
