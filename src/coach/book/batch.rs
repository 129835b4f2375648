//! An import of several files at once (a folder, a drop, the file dialog's several
//! files): each file's outcome as it comes, and once all have come, one report with the
//! totals and a row per file, instead of each file's report replacing the one before.

use std::path::{Path, PathBuf};

use crate::book::ImportReport;
use crate::coach::format::count;

/// How one file of the batch ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchOutcome {
    /// Read: its games, the lines they gave and the problems found.
    Read {
        /// Games read.
        games: u64,
        /// Lines imported.
        lines: u64,
        /// Problems found (the rest of each game before a problem was kept).
        issues: u64,
    },
    /// Not read, and why.
    Failed(String),
    /// Its loading was cancelled.
    Cancelled,
}

impl BatchOutcome {
    /// In a few words: "1,200 games, 900 lines, 2 problems", or why it was not read.
    pub fn text(&self) -> String {
        match self {
            BatchOutcome::Read {
                games,
                lines,
                issues,
            } => format!(
                "{} games, {} lines, {} problem{}",
                count(*games),
                count(*lines),
                count(*issues),
                if *issues == 1 { "" } else { "s" }
            ),
            BatchOutcome::Failed(why) => format!("not read: {why}"),
            BatchOutcome::Cancelled => "cancelled".to_owned(),
        }
    }
}

/// A file of the batch and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchFile {
    /// The file.
    pub path: PathBuf,
    /// How its import ended.
    pub outcome: BatchOutcome,
}

/// The files of one import of several, as they finish.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    /// Files not finished yet.
    pending: Vec<PathBuf>,
    /// Files finished, in the order they finished.
    files: Vec<BatchFile>,
}

impl Batch {
    /// A batch of `paths`, none finished.
    pub(crate) fn new(paths: &[PathBuf]) -> Batch {
        Batch {
            pending: paths.to_vec(),
            files: Vec::new(),
        }
    }

    /// Whether `path` is a file of the batch not finished yet.
    pub(crate) fn waits_for(&self, path: &Path) -> bool {
        self.pending.iter().any(|p| p == path)
    }

    /// Records how `path` ended; a path not waited for is left alone.
    pub(crate) fn finish(&mut self, path: &Path, outcome: BatchOutcome) {
        if let Some(i) = self.pending.iter().position(|p| p == path) {
            self.pending.remove(i);
            self.files.push(BatchFile {
                path: path.to_path_buf(),
                outcome,
            });
        }
    }

    /// Records a file read with `report`.
    pub(crate) fn finish_read(&mut self, path: &Path, report: &ImportReport) {
        let outcome = BatchOutcome::Read {
            games: report.games as u64,
            lines: report.lines as u64,
            issues: report.issue_count as u64,
        };
        self.finish(path, outcome);
    }

    /// Whether every file has finished.
    pub fn is_done(&self) -> bool {
        self.pending.is_empty()
    }

    /// The files finished, in the order they finished.
    pub fn files(&self) -> &[BatchFile] {
        &self.files
    }

    /// One line: the files read, their games and lines, the files with problems, those
    /// not read.
    pub fn summary(&self) -> String {
        let (mut read, mut games, mut lines, mut with_issues, mut failed, mut cancelled) =
            (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
        for f in &self.files {
            match &f.outcome {
                BatchOutcome::Read {
                    games: g,
                    lines: l,
                    issues,
                } => {
                    read += 1;
                    games += g;
                    lines += l;
                    with_issues += u64::from(*issues > 0);
                }
                BatchOutcome::Failed(_) => failed += 1,
                BatchOutcome::Cancelled => cancelled += 1,
            }
        }
        let plural = |n: u64, one: &str, many: &str| {
            format!("{} {}", count(n), if n == 1 { one } else { many })
        };
        let mut out = format!(
            "{} read: {}, {}",
            plural(read, "file", "files"),
            plural(games, "game", "games"),
            plural(lines, "line", "lines")
        );
        if with_issues > 0 {
            out.push_str(&format!(
                "; {} with problems",
                plural(with_issues, "file", "files")
            ));
        }
        if failed > 0 {
            out.push_str(&format!(
                "; {} could not be read",
                plural(failed, "file", "files")
            ));
        }
        if cancelled > 0 {
            out.push_str(&format!(
                "; {} cancelled",
                plural(cancelled, "file", "files")
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_adds_up_the_files_and_names_the_problems() {
        let paths: Vec<PathBuf> = ["a.pgn", "b.pgn", "c.pgn", "d.pgn"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let mut batch = Batch::new(&paths);
        let read = |games, lines, issues| BatchOutcome::Read {
            games,
            lines,
            issues,
        };
        batch.finish(Path::new("b.pgn"), read(1200, 900, 0));
        batch.finish(Path::new("elsewhere.pgn"), read(5, 5, 0));
        assert!(!batch.is_done());
        assert!(batch.waits_for(Path::new("a.pgn")));
        assert!(!batch.waits_for(Path::new("b.pgn")));
        batch.finish(Path::new("a.pgn"), read(1, 1, 2));
        batch.finish(
            Path::new("c.pgn"),
            BatchOutcome::Failed("not PGN".to_owned()),
        );
        batch.finish(Path::new("d.pgn"), BatchOutcome::Cancelled);
        assert!(batch.is_done());
        assert_eq!(batch.files().len(), 4);
        assert_eq!(batch.files()[0].path, Path::new("b.pgn"));
        assert_eq!(
            batch.summary(),
            "2 files read: 1,201 games, 901 lines; 1 file with problems; 1 file could not \
             be read; 1 file cancelled"
        );
    }
}
