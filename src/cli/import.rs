//! `hastings import`: read a PGN file and report what it holds.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::CliError;
use crate::book::{ImportError, ImportMode, ImportReport};
use crate::workspace::{FileMode, WorkspaceError, check_file_now};

/// `hastings import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The PGN file.
    pub file: PathBuf,
    /// Read a game collection: one line per game, cut at --max-plies (default 30).
    #[arg(long, conflicts_with = "repertoire")]
    pub games: bool,
    /// Read a repertoire: every path through the nested variations is a line.
    #[arg(long)]
    pub repertoire: bool,
    /// Cut every line at N plies (default: 30 for games, no limit for repertoires).
    #[arg(long, value_name = "N", value_parser = super::args::positive::<u32>)]
    pub max_plies: Option<u32>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Threads reading a file of 4 MB or more in parts; 0 for one per core, 1 to read
    /// it whole on one.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
}

impl ImportArgs {
    /// The mode these flags ask for.
    pub fn mode(&self) -> FileMode {
        match (self.games, self.repertoire) {
            (true, _) => FileMode::Games,
            (_, true) => FileMode::Repertoire,
            _ => FileMode::Auto,
        }
    }
}

/// One issue of [`ImportJson`].
#[derive(Debug, serde::Serialize)]
pub struct IssueJson {
    /// The 1-based game number.
    pub game: u32,
    /// The byte offset of the game in the file.
    pub offset: u64,
    /// The 1-based ply, 0 when not about a move.
    pub ply: u32,
    /// The move or token.
    pub san: String,
    /// Why.
    pub reason: String,
}

/// The report of `hastings import --json`.
#[derive(Debug, serde::Serialize)]
pub struct ImportJson {
    /// The file.
    pub file: String,
    /// `"games"` or `"repertoire"` (as decided when auto-detected).
    pub mode: String,
    /// Games read.
    pub games: usize,
    /// Games that gave lines.
    pub imported: usize,
    /// Games with tags but no moves (skipped, not a problem).
    pub without_moves: usize,
    /// Lines.
    pub lines: usize,
    /// Distinct positions of the lines.
    pub positions: usize,
    /// The problems (at most 10,000).
    pub issues: Vec<IssueJson>,
    /// How many problems there were.
    pub issue_count: usize,
}

impl ImportJson {
    fn new(file: &Path, report: &ImportReport) -> ImportJson {
        ImportJson {
            file: file.display().to_string(),
            mode: report.mode.to_string(),
            games: report.games,
            imported: report.imported,
            without_moves: report.without_moves,
            lines: report.lines,
            positions: report.positions,
            issues: report
                .issues
                .iter()
                .map(|i| IssueJson {
                    game: i.game,
                    offset: i.offset,
                    ply: i.ply,
                    san: i.san.clone(),
                    reason: i.reason.to_string(),
                })
                .collect(),
            issue_count: report.issue_count,
        }
    }
}

pub(super) fn run(args: &ImportArgs, out: &mut impl Write) -> Result<(), CliError> {
    // Only the report is wanted: the lines are counted, not kept, and not named.
    let progress = super::progress_bar::terminal_progress(&args.file.display().to_string());
    let (report, error) = match check_file_now(
        &args.file,
        args.mode(),
        args.max_plies,
        args.threads,
        &progress,
    ) {
        Ok(report) => (report, None),
        Err(
            e @ WorkspaceError::Import {
                source: ImportError::NoGames { .. },
                ..
            },
        ) => {
            // Still print what was found: the issues say why nothing was read.
            let report = ImportReport {
                issue_count: e.issues().len(),
                issues: e.issues().to_vec(),
                mode: ImportMode::from(args.mode()),
                ..ImportReport::default()
            };
            (report, Some(e))
        }
        Err(e) => return Err(e.into()),
    };
    print_report(&args.file, &report, args.json, out)?;
    if let Some(e) = error {
        return Err(e.into());
    }
    if report.imported == 0 {
        return Err(CliError::NothingImported {
            path: args.file.clone(),
        });
    }
    Ok(())
}

fn print_report(
    file: &Path,
    report: &ImportReport,
    json: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let report_json = ImportJson::new(file, report);
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report_json)?)?;
        return Ok(());
    }
    let j = report_json;
    writeln!(out, "file       {}", j.file)?;
    writeln!(out, "mode       {}", j.mode)?;
    writeln!(out, "games      {}", j.games)?;
    writeln!(out, "imported   {}", j.imported)?;
    writeln!(out, "no moves   {}", j.without_moves)?;
    writeln!(out, "lines      {}", j.lines)?;
    writeln!(out, "positions  {}", j.positions)?;
    writeln!(out, "issues     {}", j.issue_count)?;
    for issue in &report.issues {
        writeln!(out, "  {issue}")?;
    }
    if report.issue_count > report.issues.len() {
        writeln!(
            out,
            "  … and {} more",
            report.issue_count - report.issues.len()
        )?;
    }
    Ok(())
}
