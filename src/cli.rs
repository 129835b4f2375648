//! The headless commands: `stats`, `sample`, `import`, `export` and `book`.

pub mod book;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use thiserror::Error;

use crate::book::export::ExportError;
use crate::book::pgn::{ImportError, ImportMode, ImportOptions, ImportReport};
use crate::book::{BookError, BookSources, LineFilter, PositionGraph, SourceId};
use crate::sampler::{Style, StyleError};

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "hastings",
    version,
    about = "A chess opening trainer",
    long_about = None,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// A headless command; without one, the trainer window opens.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of the trainer window.
    #[command(flatten)]
    pub gui: GuiArgs,
}

/// Options of the trainer window (used when no command is given).
#[derive(Debug, Clone, Default, Args)]
pub struct GuiArgs {
    /// Render a few frames in a real window, write them to this PNG file, and exit.
    #[arg(long, value_name = "PNG")]
    pub screenshot: Option<std::path::PathBuf>,
    /// With `--screenshot`: the moves to show, in SAN from the start: `--moves "e4 e5"`.
    #[arg(long, value_name = "SAN", requires = "screenshot")]
    pub moves: Option<String>,
    /// The window size in points, `WIDTHxHEIGHT`.
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(u32, u32)>,
    /// Start with empty progress (the saved progress is overwritten).
    #[arg(long)]
    pub reset_progress: bool,
    /// PGN files to load into the book (a repertoire or a game collection, decided from
    /// each file).
    #[arg(value_name = "FILE.pgn")]
    pub files: Vec<std::path::PathBuf>,
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("`{s}` is not a window size like 1280x800");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if !(200..=16384).contains(&w) || !(200..=16384).contains(&h) {
        return Err(format!(
            "window size `{s}` must be between 200x200 and 16384x16384"
        ));
    }
    Ok((w, h))
}

/// The headless commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build the position graph and print its size.
    Stats(StatsArgs),
    /// Print the reply distribution at a position and sample lines from it.
    Sample(SampleArgs),
    /// Read a PGN file (repertoire or games) and print what it holds.
    Import(ImportArgs),
    /// Write the book (or some of its sources) as PGN with nested variations.
    Export(ExportArgs),
    /// Make or inspect a Polyglot opening book (.bin).
    #[command(subcommand)]
    Book(book::BookCommand),
}

/// Which lines the graph is built from (thesis §5.4 subsamples).
#[derive(Debug, Clone, Default, Args)]
pub struct BookArgs {
    /// Keep lines in which both sides make at least N moves.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub min_moves: u32,
    /// Keep lines of these ECO volumes, e.g. `--volumes A,B`.
    #[arg(long, value_delimiter = ',', value_name = "LETTERS")]
    pub volumes: Vec<char>,
    /// Keep lines whose ECO code lies in this range, e.g. `--eco C60-C99`.
    #[arg(long, value_name = "FROM-TO", value_parser = parse_eco_range)]
    pub eco: Option<(String, String)>,
    /// Keep lines whose name contains this text (case-insensitive).
    #[arg(long, value_name = "TEXT")]
    pub name: Option<String>,
    /// Add the lines of a PGN file (repeatable; numbered 1, 2, … as sources).
    #[arg(long = "pgn", value_name = "FILE")]
    pub pgn: Vec<PathBuf>,
    /// Leave out the embedded ECO list.
    #[arg(long)]
    pub no_eco: bool,
    /// Keep lines of these sources: `eco` or the number of a `--pgn` file, e.g.
    /// `--source eco,2`.
    #[arg(long = "source", value_delimiter = ',', value_name = "SOURCES", value_parser = parse_source)]
    pub sources: Vec<SourceId>,
}

impl BookArgs {
    /// The line filter these options describe.
    pub fn filter(&self) -> LineFilter {
        LineFilter {
            min_moves_per_side: self.min_moves,
            volumes: self.volumes.clone(),
            eco_range: self.eco.clone(),
            name_contains: self.name.clone(),
            sources: (!self.sources.is_empty()).then(|| self.sources.clone()),
        }
    }

    /// Builds the graph these options select, and the time it took in milliseconds.
    ///
    /// # Errors
    ///
    /// As [`PositionGraph::eco_filtered`], and [`CliError::Open`] or
    /// [`CliError::Import`] for a `--pgn` file.
    pub fn build(&self) -> Result<(PositionGraph, f64), CliError> {
        let started = Instant::now();
        self.check_sources()?;
        let graph = if self.pgn.is_empty() && !self.no_eco {
            PositionGraph::eco_filtered(&self.filter())?
        } else {
            self.sources()?.into_graph(&self.filter()).graph
        };
        Ok((graph, started.elapsed().as_secs_f64() * 1e3))
    }
}

fn parse_eco_range(s: &str) -> Result<(String, String), String> {
    let valid = |c: &str| {
        let b = c.as_bytes();
        b.len() == 3 && b[0].is_ascii_alphabetic() && b[1..].iter().all(u8::is_ascii_digit)
    };
    let (from, to) = s.split_once('-').unwrap_or((s, s));
    if valid(from) && valid(to) {
        Ok((from.to_ascii_uppercase(), to.to_ascii_uppercase()))
    } else {
        Err(format!("`{s}` is not an ECO range like C60-C99"))
    }
}

/// `hastings stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Which lines to use.
    #[command(flatten)]
    pub book: BookArgs,
}

/// What went wrong in a headless command.
#[derive(Debug, Error)]
pub enum CliError {
    /// The book could not be built.
    #[error(transparent)]
    Book(#[from] BookError),
    /// Writing the output failed.
    #[error("cannot write the output: {0}")]
    Io(#[from] io::Error),
    /// A style value is out of range.
    #[error(transparent)]
    Style(#[from] StyleError),
    /// A move of `--moves` cannot be played.
    #[error("--moves: move {ply} `{san}`: {reason}")]
    Move {
        /// The 1-based ply.
        ply: usize,
        /// The move as given.
        san: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// An option's value is malformed.
    #[error("{0}")]
    Usage(String),
    /// The position is not in the book.
    #[error("the position after `{moves}` is not in the book")]
    NotInBook {
        /// The moves given.
        moves: String,
    },
    /// The output could not be serialised.
    #[error("cannot write JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// A file could not be opened.
    #[error("cannot open {}: {source}", .path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A PGN file could not be read.
    #[error("{}: {source}", .path.display())]
    Import {
        /// The file.
        path: PathBuf,
        /// Why.
        source: ImportError,
    },
    /// `hastings import` read no game that gave a line.
    #[error("{}: no game could be imported", .path.display())]
    NothingImported {
        /// The file.
        path: PathBuf,
    },
    /// Writing PGN failed.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// A Polyglot book cannot be read.
    #[error(transparent)]
    PolyglotFile(#[from] crate::workspace::polyglot::PolyglotFileError),
    /// `hastings book make` failed.
    #[error(transparent)]
    MakeBook(#[from] crate::workspace::polyglot_make::MakeError),
}

impl CliError {
    /// The process exit code for this error: 2 when a PGN file gave no game (so
    /// scripts can tell an empty import from a failure), 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::NothingImported { .. }
            | CliError::Import {
                source: ImportError::NoGames { .. },
                ..
            } => 2,
            _ => 1,
        }
    }
}

/// Runs a headless command, writing its output to `out`.
///
/// # Errors
///
/// [`CliError`] when the book cannot be built or the output cannot be written.
pub fn run(command: &Command, out: &mut impl Write) -> Result<(), CliError> {
    match command {
        Command::Stats(args) => stats(args, out),
        Command::Sample(args) => sample(args, out),
        Command::Import(args) => import(args, out),
        Command::Export(args) => export(args, out),
        Command::Book(command) => book::run(command, out),
    }
}

fn stats(args: &StatsArgs, out: &mut impl Write) -> Result<(), CliError> {
    let (graph, build_ms) = args.book.build()?;
    let s = graph.stats();
    if args.json {
        #[derive(serde::Serialize)]
        struct Report {
            #[serde(flatten)]
            stats: crate::book::GraphStats,
            build_ms: f64,
        }
        let report = Report {
            stats: s,
            build_ms: (build_ms * 100.0).round() / 100.0,
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        writeln!(out, "lines                   {}", s.lines)?;
        writeln!(out, "nodes                   {}", s.nodes)?;
        writeln!(out, "book edges              {}", s.book_edges)?;
        writeln!(out, "implied transpositions  {}", s.implied_transpositions)?;
        writeln!(out, "merge points            {}", s.merge_points)?;
        writeln!(out, "max depth (plies)       {}", s.max_depth)?;
        writeln!(out, "build time              {build_ms:.1} ms")?;
    }
    Ok(())
}

/// `hastings sample`.
#[derive(Debug, Args)]
pub struct SampleArgs {
    /// The moves from the start position, in SAN: `--moves "e4 e5 Nf3"`.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// The five style parameters (gambits, uncommon, 1.c4, 1.d4, 1.e4), 0 or 1 each.
    #[arg(long, value_delimiter = ',', default_values_t = [0u8; 5], value_parser = clap::value_parser!(u8).range(0..=1))]
    pub params: Vec<u8>,
    /// The five weights, each from 0 to 1.
    #[arg(long, value_delimiter = ',', default_values_t = [0.4f64; 5])]
    pub weights: Vec<f64>,
    /// The weight of implied transpositions, from 0 to 1.
    #[arg(long, default_value_t = 1.0)]
    pub tau: f64,
    /// How many lines to sample from the position.
    #[arg(long, default_value_t = 1000)]
    pub iterations: u32,
    /// The most moves a sampled line plays.
    #[arg(long, default_value_t = 40)]
    pub ply_limit: u32,
    /// The random seed (printed; random when not given).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Which lines to use.
    #[command(flatten)]
    pub book: BookArgs,
}

impl SampleArgs {
    fn style(&self) -> Result<Style, CliError> {
        for (name, n) in [
            ("--params", self.params.len()),
            ("--weights", self.weights.len()),
        ] {
            if n != 5 {
                return Err(CliError::Usage(format!(
                    "{name} takes 5 comma-separated values (gambits, uncommon, c4, d4, e4), got {n}"
                )));
            }
        }
        let mut params = [0u8; 5];
        let mut weights = [0.4f64; 5];
        for (dst, src) in params.iter_mut().zip(&self.params) {
            *dst = *src;
        }
        for (dst, src) in weights.iter_mut().zip(&self.weights) {
            *dst = *src;
        }
        Ok(Style::from_vectors(params, weights, self.tau)?)
    }
}

/// The report of `hastings sample --json`.
#[derive(Debug, serde::Serialize)]
pub struct SampleReport {
    /// The position (the game's own FEN).
    pub fen: String,
    /// The share of the last move, as the formulas use it.
    pub s_prev: f64,
    /// The number of sampled lines.
    pub iterations: u32,
    /// The seed used.
    pub seed: u64,
    /// Every candidate, most probable first.
    pub candidates: Vec<CandidateReport>,
    /// The ten line names the sampled lines reached most.
    pub reached: Vec<ReachedReport>,
}

/// One candidate of [`SampleReport`].
#[derive(Debug, serde::Serialize)]
pub struct CandidateReport {
    /// The move in SAN.
    pub san: String,
    /// The move in UCI.
    pub uci: String,
    /// `"book"` or `"transposition"`.
    pub kind: crate::sampler::CandidateKind,
    /// Popularity share.
    pub share: f64,
    /// Style bonus.
    pub bonus: f64,
    /// Acceptance `A`.
    pub acceptance: f64,
    /// Exact probability `P`.
    pub p: f64,
    /// Frequency among the first steps of the sampled lines.
    pub sampled: f64,
}

/// One reached name of [`SampleReport`].
#[derive(Debug, serde::Serialize)]
pub struct ReachedReport {
    /// `"ECO name"` of the line a sampled line ended in.
    pub name: String,
    /// How many sampled lines ended there.
    pub count: u32,
}

/// Computes the report of `hastings sample` on `graph`.
///
/// # Errors
///
/// [`CliError`] when a move cannot be played or the position is not in the book.
pub fn sample_report(
    graph: &PositionGraph,
    moves: &str,
    style: &Style,
    limits: crate::sampler::ExploreLimits,
    seed: u64,
) -> Result<SampleReport, CliError> {
    use rand::SeedableRng;
    use shakmaty::{Chess, EnPassantMode, Position, fen::Fen, san::SanPlus};

    use crate::sampler::{Distribution, explore, move_share};

    let mut pos = Chess::default();
    let mut s_prev = 1.0;
    for (i, token) in moves.split_whitespace().enumerate() {
        let bad = |reason: String| CliError::Move {
            ply: i + 1,
            san: token.to_owned(),
            reason,
        };
        let san = SanPlus::from_ascii(token.as_bytes()).map_err(|e| bad(e.to_string()))?;
        let mv = san.san.to_move(&pos).map_err(|e| {
            bad(match e {
                shakmaty::san::SanError::IllegalSan => "illegal move".to_owned(),
                shakmaty::san::SanError::AmbiguousSan => "ambiguous move".to_owned(),
            })
        })?;
        s_prev = move_share(graph, &pos, mv, style);
        pos.play_unchecked(mv);
    }
    let node = graph.lookup(&pos).ok_or_else(|| CliError::NotInBook {
        moves: moves.to_owned(),
    })?;
    let dist = Distribution::at(graph, node, &pos, style, s_prev);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let ex = explore(graph, node, &pos, style, s_prev, limits, &mut rng);
    let n = f64::from(limits.iterations.max(1));
    let mut candidates: Vec<CandidateReport> = dist
        .candidates
        .iter()
        .zip(&ex.first_steps)
        .map(|(c, &count)| CandidateReport {
            san: SanPlus::from_move(pos.clone(), c.mv).to_string(),
            uci: PositionGraph::uci(c.mv).to_string(),
            kind: c.kind,
            share: c.share,
            bonus: c.bonus,
            acceptance: c.acceptance,
            p: c.p,
            sampled: f64::from(count) / n,
        })
        .collect();
    candidates.sort_by(|a, b| b.p.total_cmp(&a.p));
    let reached = ex
        .reached(graph)
        .into_iter()
        .take(10)
        .map(|(name, count)| ReachedReport { name, count })
        .collect();
    Ok(SampleReport {
        fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
        s_prev: dist.s_prev,
        iterations: limits.iterations,
        seed,
        candidates,
        reached,
    })
}

fn sample(args: &SampleArgs, out: &mut impl Write) -> Result<(), CliError> {
    let style = args.style()?;
    let (graph, _) = args.book.build()?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let limits = crate::sampler::ExploreLimits {
        iterations: args.iterations,
        ply_limit: args.ply_limit,
    };
    let report = sample_report(&graph, &args.moves, &style, limits, seed)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    writeln!(out, "position  {}", report.fen)?;
    writeln!(
        out,
        "s_prev    {:.4}    iterations {}    seed {}",
        report.s_prev, report.iterations, report.seed
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "{:<8} {:<6} {:<13} {:>7} {:>7} {:>7} {:>7} {:>8}",
        "move", "uci", "kind", "share", "bonus", "A", "P", "sampled"
    )?;
    for c in &report.candidates {
        let kind = match c.kind {
            crate::sampler::CandidateKind::Book => "book",
            crate::sampler::CandidateKind::Transposition => "transposition",
        };
        writeln!(
            out,
            "{:<8} {:<6} {:<13} {:>7.4} {:>7.4} {:>7.4} {:>7.4} {:>8.4}",
            c.san, c.uci, kind, c.share, c.bonus, c.acceptance, c.p, c.sampled
        )?;
    }
    if report.candidates.is_empty() {
        writeln!(out, "(no book move: the line ends here)")?;
    }
    writeln!(out)?;
    writeln!(out, "most reached lines:")?;
    for r in &report.reached {
        writeln!(out, "{:>7}  {}", r.count, r.name)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// PGN sources, `hastings import` and `hastings export`.

fn parse_source(s: &str) -> Result<SourceId, String> {
    if s.eq_ignore_ascii_case("eco") {
        return Ok(SourceId::ECO);
    }
    match s.parse::<u16>() {
        Ok(n) if n > 0 => Ok(SourceId(n)),
        _ => Err(format!(
            "`{s}` is not a source: `eco`, or the number of a --pgn file (1, 2, …)"
        )),
    }
}

impl BookArgs {
    /// Whether every `--source` names a loaded source.
    fn check_sources(&self) -> Result<(), CliError> {
        for s in &self.sources {
            let known = if *s == SourceId::ECO {
                !self.no_eco
            } else {
                usize::from(s.0) <= self.pgn.len()
            };
            if !known {
                let name = if *s == SourceId::ECO {
                    "eco (left out by --no-eco)".to_owned()
                } else {
                    format!("{} (there are {} --pgn files)", s.0, self.pgn.len())
                };
                return Err(CliError::Usage(format!("--source {name}: no such source")));
            }
        }
        Ok(())
    }

    /// Loads the sources these options name: the ECO list unless `--no-eco`, then
    /// every `--pgn` file in order (auto-detected mode, default ply limit). Problems
    /// within the files are summed up on stderr.
    ///
    /// # Errors
    ///
    /// [`CliError::Book`], [`CliError::Open`], or [`CliError::Import`] when a file
    /// cannot be read or holds no game.
    pub fn sources(&self) -> Result<BookSources, CliError> {
        let mut book = BookSources::new();
        if !self.no_eco {
            book.add_eco()?;
        }
        for path in &self.pgn {
            let file = open(path)?;
            let name = path.display().to_string();
            let import = book
                .add_pgn(&name, progress(file, path), &ImportOptions::default())
                .map_err(|source| CliError::Import {
                    path: path.clone(),
                    source,
                })?;
            if let Some(report) = &import.report
                && let Some(first) = report.issues.first()
            {
                eprintln!(
                    "hastings: {name}: {} problem(s), first: {first}",
                    report.issue_count
                );
            }
        }
        Ok(book)
    }
}

fn open(path: &Path) -> Result<std::fs::File, CliError> {
    std::fs::File::open(path).map_err(|source| CliError::Open {
        path: path.to_owned(),
        source,
    })
}

/// Files at least this large get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 16 << 20;

/// Wraps `file` in a progress bar on stderr when stderr is a terminal and the file is
/// large; otherwise returns it as it is.
fn progress(file: std::fs::File, path: &Path) -> Box<dyn io::Read> {
    use std::io::IsTerminal;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    if size < PROGRESS_MIN_BYTES || !io::stderr().is_terminal() {
        return Box::new(file);
    }
    Box::new(Progress {
        inner: file,
        label: path.display().to_string(),
        size,
        read: 0,
        shown: u64::MAX,
    })
}

/// A reader that draws `label [=====     ] 42%` on stderr as it is read.
struct Progress<R> {
    inner: R,
    label: String,
    size: u64,
    read: u64,
    shown: u64,
}

impl<R: io::Read> io::Read for Progress<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        let percent = (self.read * 100 / self.size.max(1)).min(100);
        if n == 0 {
            eprint!("\r\x1b[K");
        } else if percent != self.shown {
            self.shown = percent;
            let filled = (percent / 5) as usize;
            eprint!(
                "\r{} [{}{}] {percent:>3}%",
                self.label,
                "=".repeat(filled),
                " ".repeat(20 - filled)
            );
        }
        Ok(n)
    }
}

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
    #[arg(long, value_name = "N")]
    pub max_plies: Option<u32>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

impl ImportArgs {
    /// The import options these flags describe.
    pub fn options(&self) -> ImportOptions {
        let mode = match (self.games, self.repertoire) {
            (true, _) => ImportMode::Games,
            (_, true) => ImportMode::Repertoire,
            _ => ImportMode::Auto,
        };
        ImportOptions {
            mode,
            max_plies: self.max_plies,
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

fn import(args: &ImportArgs, out: &mut impl Write) -> Result<(), CliError> {
    let file = open(&args.file)?;
    let names = PositionGraph::eco()?;
    let read = crate::book::pgn::read_pgn(
        progress(file, &args.file),
        SourceId(1),
        &args.options(),
        Some(&names),
    );
    let report = match read {
        Ok(import) => import.report,
        Err(ImportError::NoGames { issues }) => ImportReport {
            issue_count: issues.len(),
            issues,
            mode: args.options().mode,
            ..ImportReport::default()
        },
        Err(source) => {
            return Err(CliError::Import {
                path: args.file.clone(),
                source,
            });
        }
    };
    let json = ImportJson::new(&args.file, &report);
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        writeln!(out, "file       {}", json.file)?;
        writeln!(out, "mode       {}", json.mode)?;
        writeln!(out, "games      {}", json.games)?;
        writeln!(out, "imported   {}", json.imported)?;
        writeln!(out, "lines      {}", json.lines)?;
        writeln!(out, "positions  {}", json.positions)?;
        writeln!(out, "issues     {}", json.issue_count)?;
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
    }
    if report.games == 0 {
        return Err(CliError::Import {
            path: args.file.clone(),
            source: ImportError::NoGames { issues: Vec::new() },
        });
    }
    if report.imported == 0 {
        return Err(CliError::NothingImported {
            path: args.file.clone(),
        });
    }
    Ok(())
}

/// `hastings export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Which lines to write (`--source` picks sources).
    #[command(flatten)]
    pub book: BookArgs,
}

fn export(args: &ExportArgs, out: &mut impl Write) -> Result<(), CliError> {
    let (graph, _) = args.book.build()?;
    let games = match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(|source| CliError::Open {
                path: path.clone(),
                source,
            })?;
            let mut w = io::BufWriter::new(file);
            let games = crate::book::export::write_graph(&graph, None, &mut w)?;
            w.flush()?;
            games
        }
        None => crate::book::export::write_graph(&graph, None, out)?,
    };
    eprintln!(
        "hastings: wrote {games} games ({} lines)",
        graph.stats().lines
    );
    Ok(())
}
