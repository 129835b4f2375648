//! `hastings book make` and `hastings book info`: Polyglot opening books.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::CliError;
use super::progress_bar as job;
use crate::book::polyglot::{BookSummary, DEFAULT_MAX_PLIES, WeightRule, WriteSummary};
use crate::workspace::polyglot::PolyglotFile;
use crate::workspace::polyglot_make::{DEFAULT_MEMORY_MB, MakeOptions, MakeReport, make_book};

/// `hastings book …`.
#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Make a Polyglot book from the games of PGN files.
    Make(BookMakeArgs),
    /// Print what a Polyglot book holds, and its moves at a position.
    Info(BookInfoArgs),
}

/// How weights are computed (`--weights`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum WeightsArg {
    /// Games that played the move from the position.
    #[default]
    Games,
    /// polyglot make-book's rule: win 2, draw 1, loss 0 for the side that moved.
    Polyglot,
}

impl From<WeightsArg> for WeightRule {
    fn from(w: WeightsArg) -> WeightRule {
        match w {
            WeightsArg::Games => WeightRule::Games,
            WeightsArg::Polyglot => WeightRule::Polyglot,
        }
    }
}

/// `hastings book make`.
#[derive(Debug, Args)]
pub struct BookMakeArgs {
    /// The PGN files (games; only the mainline counts).
    #[arg(value_name = "FILE.pgn", required = true)]
    pub files: Vec<PathBuf>,
    /// The book to write.
    #[arg(short = 'o', long = "output", value_name = "OUT.bin")]
    pub output: PathBuf,
    /// Plies read from the start of each game.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_PLIES, value_parser = super::args::positive::<u32>)]
    pub max_plies: u32,
    /// Leave out moves played fewer than N times from their position.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_games: u32,
    /// How weights are computed.
    #[arg(long, value_enum, default_value_t = WeightsArg::Games)]
    pub weights: WeightsArg,
    /// The memory bound in MB; counts beyond it spill to temporary files next to the
    /// output.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_MEMORY_MB)]
    pub memory: usize,
    /// Worker threads; 0 for one per core.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
}

/// `hastings book info`.
#[derive(Debug, Args)]
pub struct BookInfoArgs {
    /// The Polyglot book.
    #[arg(value_name = "FILE.bin")]
    pub file: PathBuf,
    /// The position: moves in SAN from the start, e.g. `--moves "e4 e5"`.
    #[arg(long, value_name = "SAN", conflicts_with = "fen")]
    pub moves: Option<String>,
    /// The position as FEN.
    #[arg(long)]
    pub fen: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `hastings book …`.
///
/// # Errors
///
/// [`CliError`] when a file cannot be read or written, or an option is malformed.
pub fn run(command: &BookCommand, out: &mut impl Write) -> Result<(), CliError> {
    match command {
        BookCommand::Make(args) => make(args, out),
        BookCommand::Info(args) => info(args, out),
    }
}

fn make(args: &BookMakeArgs, out: &mut impl Write) -> Result<(), CliError> {
    super::outputs::refuse_input_as_output(&args.output, args.files.iter().map(PathBuf::as_path))?;
    let options = MakeOptions {
        max_plies: args.max_plies,
        min_games: args.min_games,
        weights: args.weights.into(),
        memory_mb: args.memory,
        threads: args.threads,
        ..MakeOptions::default()
    };
    let started = Instant::now();
    let report = job::run_inline("book make", |progress| {
        make_book(&args.files, &args.output, &options, progress)
    })?;
    let seconds = started.elapsed().as_secs_f64();
    super::make_report::print_issues(report.issue_count, &report.issues);
    write_make_report(out, &report, args, seconds)?;
    Ok(())
}

fn write_make_report(
    out: &mut impl Write,
    report: &MakeReport,
    args: &BookMakeArgs,
    seconds: f64,
) -> Result<(), CliError> {
    let WriteSummary {
        entries,
        positions,
        below_min_games,
        zero_weight,
        scaled_positions,
    } = report.written;
    writeln!(out, "book       {}", args.output.display())?;
    writeln!(out, "games      {}", report.games)?;
    writeln!(out, "plies      {}", report.plies)?;
    writeln!(out, "issues     {}", report.issue_count)?;
    writeln!(out, "entries    {entries}")?;
    writeln!(out, "positions  {positions}")?;
    writeln!(
        out,
        "left out   {below_min_games} below --min-games {}, {zero_weight} of weight 0",
        args.min_games
    )?;
    writeln!(
        out,
        "scaled     {scaled_positions} positions to fit 16 bits"
    )?;
    super::make_report::write_runs_and_time(
        out,
        report.runs,
        report.spilled_runs,
        report.threads,
        seconds,
    )?;
    Ok(())
}

/// One move of [`BookInfo::at`].
#[derive(Debug, serde::Serialize)]
pub struct BookInfoMove {
    /// The move in SAN.
    pub san: String,
    /// The move in UCI (castling as `e1g1`).
    pub uci: String,
    /// Its weight (entries of one move added up).
    pub weight: u32,
    /// Its weight over the position's total.
    pub share: f64,
}

/// The report of `hastings book info --json`.
#[derive(Debug, serde::Serialize)]
pub struct BookInfo {
    /// The book file.
    pub file: String,
    /// Entries, positions, bad moves and zero weights of the whole book.
    #[serde(flatten)]
    pub summary: BookSummary,
    /// The position looked up, as FEN.
    pub fen: String,
    /// Its Polyglot key in hex.
    pub key: String,
    /// The book's moves there, heaviest first.
    pub at: Vec<BookInfoMove>,
    /// Entries of the key that are not legal moves there, with why.
    pub skipped: Vec<String>,
}

fn info(args: &BookInfoArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos = looked_up(args.fen.as_deref(), args.moves.as_deref())?;
    let file = PolyglotFile::open(&args.file)?;
    let summary = file.check()?;
    let moves = file.book().moves(&pos);
    let total = moves.total_weight().max(1) as f64;
    let info = BookInfo {
        file: args.file.display().to_string(),
        summary,
        fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
        key: format!("{:016x}", moves.key),
        at: moves
            .moves
            .iter()
            .map(|m| BookInfoMove {
                san: SanPlus::from_move(pos.clone(), m.mv).to_string(),
                uci: UciMove::from_standard(m.mv).to_string(),
                weight: m.weight,
                share: f64::from(m.weight) / total,
            })
            .collect(),
        skipped: moves
            .skipped
            .iter()
            .map(|s| format!("entry {}: {}", s.index, s.reason))
            .collect(),
    };
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&info)?)?;
        return Ok(());
    }
    writeln!(out, "file        {}", info.file)?;
    writeln!(out, "entries     {}", summary.entries)?;
    writeln!(out, "positions   {}", summary.positions)?;
    if summary.bad_moves + summary.zero_weights > 0 {
        writeln!(
            out,
            "bad moves   {}, zero weights {}",
            summary.bad_moves, summary.zero_weights
        )?;
    }
    writeln!(out, "position    {}", info.fen)?;
    writeln!(out, "key         {}", info.key)?;
    if info.at.is_empty() {
        writeln!(out, "(no book move here)")?;
    } else {
        writeln!(out)?;
        writeln!(
            out,
            "{:<8} {:<6} {:>7} {:>7}",
            "move", "uci", "weight", "share"
        )?;
        for m in &info.at {
            writeln!(
                out,
                "{:<8} {:<6} {:>7} {:>7.4}",
                m.san, m.uci, m.weight, m.share
            )?;
        }
    }
    for s in &info.skipped {
        writeln!(out, "skipped     {s}")?;
    }
    Ok(())
}

/// The position a lookup asks about: `--fen`, else the start after `--moves`, else the
/// start (`book info`, `explorer query`).
pub(super) fn looked_up(fen: Option<&str>, moves: Option<&str>) -> Result<Chess, CliError> {
    match (fen, moves) {
        (Some(fen), _) => position_from_fen(fen),
        (None, Some(moves)) => position_after(moves),
        (None, None) => Ok(Chess::default()),
    }
}

fn position_from_fen(fen: &str) -> Result<Chess, CliError> {
    let bad = |reason: String| CliError::Usage(format!("--fen `{fen}`: {reason}"));
    Fen::from_ascii(fen.trim().as_bytes())
        .map_err(|e| bad(e.to_string()))?
        .into_position(CastlingMode::Standard)
        .map_err(|e| bad(e.to_string()))
}

fn position_after(moves: &str) -> Result<Chess, CliError> {
    let played = crate::book::movelist::parse_moves(&Chess::default(), moves)?;
    let mut pos = Chess::default();
    for mv in played {
        pos.play_unchecked(mv);
    }
    Ok(pos)
}
