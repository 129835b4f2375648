//! `hastings explorer make`, `add` and `query`: opening explorer indexes (`fit-band`:
//! `explorer_fit`).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position as _};

use super::CliError;
use super::book::looked_up;
use super::explorer_eval::ExplorerEvalArgs;
use super::progress_bar as job;
use crate::book::explorer::{DEFAULT_EXPLORER_PLIES, ExplorerFilter, MoveStats};
use crate::coach::explorer::MoveGames;
use crate::coach::format::numbered;
use crate::engine::Score;
use crate::workspace::explorer::{
    BuildOptions, BuildReport, DEFAULT_EXPLORER_MEMORY_MB, DEFAULT_PLAYERS_MIN, ExplorerIndex,
    MakeOptions, add_to_explorer, make_explorer,
};

/// `hastings explorer …`.
#[derive(Debug, Subcommand)]
pub enum ExplorerCommand {
    /// Make an explorer index (a directory) from the games of PGN files.
    Make(ExplorerMakeArgs),
    /// Add the games of more PGN files to an index.
    Add(ExplorerAddArgs),
    /// The moves at a position, with games, results and average rating.
    Query(ExplorerQueryArgs),
    /// Fit the human-like model's temperature to a rating band's games (sparring).
    FitBand(super::explorer_fit::ExplorerFitArgs),
}

/// Memory and threads of `make` and `add`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The memory bound in MB; counts beyond it spill to temporary files in the index.
    #[arg(long = "memory-mb", visible_alias = "memory", value_name = "MB", default_value_t = DEFAULT_EXPLORER_MEMORY_MB)]
    pub memory: usize,
    /// Worker threads; 0 for one per core.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
}

impl BuildArgs {
    fn options(&self) -> BuildOptions {
        BuildOptions {
            memory_mb: self.memory,
            threads: self.threads,
            ..BuildOptions::default()
        }
    }
}

/// `hastings explorer make`.
#[derive(Debug, Args)]
pub struct ExplorerMakeArgs {
    /// The PGN files (games; only the mainline counts, only finished games).
    #[arg(value_name = "GAMES.pgn", required = true)]
    pub files: Vec<PathBuf>,
    /// The index to write (a directory).
    #[arg(short = 'o', long = "output", value_name = "NAME.explorer")]
    pub output: PathBuf,
    /// Plies counted from the start of each game.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_EXPLORER_PLIES, value_parser = super::args::positive::<u32>)]
    pub max_plies: u32,
    /// Also keep this player's games as a tree of their own (the `White`/`Black` tag,
    /// exactly, ignoring case); may be repeated.
    #[arg(long = "player", value_name = "NAME")]
    pub players: Vec<String>,
    /// Also keep a tree for every player with at least N games (most games first, up to
    /// 127 players in all); 0 for none but `--player`'s.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PLAYERS_MIN)]
    pub players_min: u32,
    /// Memory and threads.
    #[command(flatten)]
    pub build: BuildArgs,
}

/// `hastings explorer add`.
#[derive(Debug, Args)]
pub struct ExplorerAddArgs {
    /// The index.
    #[arg(value_name = "NAME.explorer")]
    pub index: PathBuf,
    /// The PGN files to add.
    #[arg(value_name = "MORE.pgn", required = true)]
    pub files: Vec<PathBuf>,
    /// Memory and threads.
    #[command(flatten)]
    pub build: BuildArgs,
}

/// A player's colour (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// The player's games as White.
    White,
    /// The player's games as Black.
    Black,
}

/// `hastings explorer query`.
#[derive(Debug, Args)]
pub struct ExplorerQueryArgs {
    /// The index.
    #[arg(value_name = "NAME.explorer")]
    pub index: PathBuf,
    /// The position: moves in SAN from the start, e.g. `--moves "e4 e5"`.
    #[arg(long, value_name = "SAN", conflicts_with = "fen")]
    pub moves: Option<String>,
    /// The position as FEN.
    #[arg(long)]
    pub fen: Option<String>,
    /// The filters.
    #[command(flatten)]
    pub filter: ExplorerFilterArgs,
    /// A player's tree (the index must have been made with `--player NAME`).
    #[arg(long, value_name = "NAME", requires = "color")]
    pub player: Option<String>,
    /// The player's colour.
    #[arg(long, value_enum, requires = "player")]
    pub color: Option<ColorArg>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// The engine's evaluation of the position after each move.
    #[command(flatten)]
    pub eval: ExplorerEvalArgs,
}

/// The rating, speed and year filters of an explorer query (`explorer query`, and
/// `sample`/`coverage --explorer`; a player's tree is `--player NAME --color` in a
/// query, `--explorer-player NAME --explorer-color` there, `coverage` having a
/// `--color` of its own).
#[derive(Debug, Clone, Default, Args)]
pub struct ExplorerFilterArgs {
    /// Rating bands: `1600-2000` (mean rating 1600 to 1999), `2500`, `unrated`,
    /// comma-separated.
    #[arg(long, value_name = "BANDS")]
    pub ratings: Option<String>,
    /// Speeds, comma-separated: ultrabullet, bullet, blitz, rapid, classical,
    /// correspondence, unknown.
    #[arg(long, value_name = "SPEEDS")]
    pub speeds: Option<String>,
    /// Years, e.g. `2015-2020` (games of unknown year are left out).
    #[arg(long, value_name = "FROM-TO")]
    pub years: Option<String>,
}

impl ExplorerFilterArgs {
    /// The filter these options ask for on `index`, limited to `player`'s tree with a
    /// colour when one is given.
    ///
    /// # Errors
    ///
    /// [`CliError`] when a filter is malformed or the index keeps no tree for the
    /// player.
    pub fn filter(
        &self,
        index: &ExplorerIndex,
        player: Option<(&str, ColorArg)>,
    ) -> Result<ExplorerFilter, CliError> {
        let mut filter = ExplorerFilter::default();
        if let Some(r) = &self.ratings {
            filter = filter.with_ratings(r)?;
        }
        if let Some(s) = &self.speeds {
            filter = filter.with_speeds(s)?;
        }
        if let Some(y) = &self.years {
            filter = filter.with_years(y)?;
        }
        if let Some((name, color)) = player {
            let color = match color {
                ColorArg::White => Color::White,
                ColorArg::Black => Color::Black,
            };
            filter = index.player_filter(filter, name, color)?;
        }
        Ok(filter)
    }
}

/// Runs `hastings explorer …`.
///
/// # Errors
///
/// [`CliError`] when a file cannot be read or written, or an option is malformed.
pub fn run(command: &ExplorerCommand, out: &mut impl Write) -> Result<(), CliError> {
    match command {
        ExplorerCommand::Make(args) => make(args, out),
        ExplorerCommand::Add(args) => add(args, out),
        ExplorerCommand::Query(args) => query(args, out),
        ExplorerCommand::FitBand(args) => super::explorer_fit::fit_band(args, out),
    }
}

fn make(args: &ExplorerMakeArgs, out: &mut impl Write) -> Result<(), CliError> {
    super::outputs::refuse_input_as_output(&args.output, args.files.iter().map(|f| f.as_path()))?;
    let options = MakeOptions {
        max_plies: args.max_plies,
        players: args.players.clone(),
        players_min: (args.players_min > 0).then_some(args.players_min),
        build: args.build.options(),
    };
    let started = Instant::now();
    let report = job::run_inline("explorer make", |progress| {
        make_explorer(&args.files, &args.output, &options, progress)
    })?;
    write_report(out, &args.output, &report, started.elapsed().as_secs_f64())
}

fn add(args: &ExplorerAddArgs, out: &mut impl Write) -> Result<(), CliError> {
    let started = Instant::now();
    let report = job::run_inline("explorer add", |progress| {
        add_to_explorer(&args.index, &args.files, &args.build.options(), progress)
    })?;
    write_report(out, &args.index, &report, started.elapsed().as_secs_f64())
}

fn write_report(
    out: &mut impl Write,
    index: &std::path::Path,
    report: &BuildReport,
    seconds: f64,
) -> Result<(), CliError> {
    super::make_report::print_issues(report.issue_count, &report.issues);
    writeln!(out, "index      {}", index.display())?;
    writeln!(
        out,
        "games      {} ({} finished, counted)",
        report.games, report.counted
    )?;
    writeln!(out, "positions  {}", report.positions)?;
    writeln!(out, "issues     {}", report.issue_count)?;
    writeln!(out, "records    {}", report.records)?;
    writeln!(out, "segment    {} bytes", report.segment_bytes)?;
    super::make_report::write_runs_and_time(
        out,
        report.runs,
        report.spilled_runs,
        report.threads,
        seconds,
    )?;
    Ok(())
}

/// Games and results (`total` of `hastings explorer query --json`).
#[derive(Debug, serde::Serialize)]
pub struct TotalJson {
    /// Games.
    pub games: u64,
    /// White wins.
    pub white: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black: u64,
}

/// One move of `hastings explorer query --json`.
#[derive(Debug, serde::Serialize)]
pub struct MoveJson {
    /// The move in UCI (castling as `e1g1`).
    pub uci: String,
    /// The move in SAN, its games and results, the average rating and performance.
    #[serde(flatten)]
    pub counts: MoveGames,
    /// With `--eval`: the engine's evaluation after the move, from White's point of
    /// view (`+0.32`, `#3`).
    pub eval: Option<String>,
    /// With `--eval`: the same in centipawns (none for a mate).
    pub eval_cp: Option<i32>,
    /// The most recent year.
    pub last_year: Option<u16>,
}

/// A top game of `hastings explorer query --json`.
#[derive(Debug, serde::Serialize)]
pub struct TopGameJson {
    /// The move it played, in UCI.
    pub uci: String,
    /// The move it played, in SAN with its number: `1...c5`.
    pub san: String,
    /// White.
    pub white: String,
    /// Black.
    pub black: String,
    /// The result.
    pub result: String,
    /// The year.
    pub year: Option<u16>,
    /// The mean rating.
    pub rating: Option<u16>,
    /// Its PGN file.
    pub file: String,
    /// Its number in that file.
    pub game: u64,
}

/// The report of `hastings explorer query --json`.
#[derive(Debug, serde::Serialize)]
pub struct QueryJson {
    /// Over every move.
    pub total: TotalJson,
    /// The moves, most played first, then by UCI.
    pub moves: Vec<MoveJson>,
    /// The top games.
    pub top_games: Vec<TopGameJson>,
}

fn query(args: &ExplorerQueryArgs, out: &mut impl Write) -> Result<(), CliError> {
    let pos = looked_up(args.fen.as_deref(), args.moves.as_deref())?;
    let index = ExplorerIndex::open(&args.index)?;
    let player = args.player.as_deref().zip(args.color);
    let filter = args.filter.filter(&index, player)?;
    let stats = index.query_position(&pos, &filter)?;
    let total = stats.total();
    let mut moves: Vec<(Move, MoveJson)> = stats
        .moves
        .iter()
        .filter_map(|m| move_json(&pos, m))
        .collect();
    moves.sort_by(|(_, a), (_, b)| {
        b.counts
            .games
            .cmp(&a.counts.games)
            .then_with(|| a.uci.cmp(&b.uci))
    });
    let played: Vec<Move> = moves.iter().map(|(m, _)| *m).collect();
    let evals = args.eval.evaluate(&pos, &played)?;
    let moves: Vec<MoveJson> = moves
        .into_iter()
        .zip(evals)
        .map(|((_, mut json), eval)| {
            json.eval = eval.map(|s| s.to_string());
            json.eval_cp = match eval {
                Some(Score::Cp(cp)) => Some(cp),
                _ => None,
            };
            json
        })
        .collect();
    let mut top_games = Vec::new();
    for t in &stats.top {
        let top = index.top_game(t)?;
        let (uci, san) = match top.raw_move.to_move(&pos) {
            Ok(m) => (
                UciMove::from_standard(m).to_string(),
                numbered(
                    pos.fullmoves().get(),
                    pos.turn(),
                    &SanPlus::from_move(pos.clone(), m).to_string(),
                ),
            ),
            Err(_) => (top.raw_move.to_string(), top.raw_move.to_string()),
        };
        top_games.push(TopGameJson {
            uci,
            san,
            result: top.game.result().to_owned(),
            white: top.game.white,
            black: top.game.black,
            year: top.game.year,
            rating: top.game.rating,
            file: top.file,
            game: top.game.number,
        });
    }
    let report = QueryJson {
        total: TotalJson {
            games: total.games(),
            white: total.white,
            draws: total.draws,
            black: total.black,
        },
        moves,
        top_games,
    };
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    write_table(out, &report, &filter)
}

fn move_json(pos: &Chess, m: &MoveStats) -> Option<(Move, MoveJson)> {
    let (mv, counts) = MoveGames::at(pos, m)?;
    Some((
        mv,
        MoveJson {
            uci: UciMove::from_standard(mv).to_string(),
            counts,
            eval: None,
            eval_cp: None,
            last_year: m.last_year,
        },
    ))
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn write_table(
    out: &mut impl Write,
    report: &QueryJson,
    filter: &ExplorerFilter,
) -> Result<(), CliError> {
    let total = &report.total;
    writeln!(out, "filter  {filter}")?;
    writeln!(out, "games   {}", total.games)?;
    if report.moves.is_empty() {
        writeln!(out, "(no game reached this position)")?;
        return Ok(());
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:<8} {:>8} {:>6}  {:>5} {:>5} {:>5}  {:>6} {:>6} {:>6}",
        "move", "games", "share", "white", "draw", "black", "rating", "perf", "eval"
    )?;
    for m in &report.moves {
        let games = m.counts.games;
        writeln!(
            out,
            "{:<8} {:>8} {:>5.1}%  {:>4.0}% {:>4.0}% {:>4.0}%  {:>6} {:>6} {:>6}",
            m.counts.san,
            games,
            percent(games, total.games),
            percent(m.counts.white, games),
            percent(m.counts.draws, games),
            percent(m.counts.black, games),
            m.counts
                .avg_rating
                .map_or("-".to_owned(), |r| r.to_string()),
            m.counts
                .performance
                .map_or("-".to_owned(), |r| r.to_string()),
            m.eval.as_deref().unwrap_or("-")
        )?;
    }
    if !report.top_games.is_empty() {
        writeln!(out)?;
        writeln!(out, "top games")?;
        for g in &report.top_games {
            writeln!(
                out,
                "  {} {} - {} {} ({}, {}) {} game {}",
                g.san,
                g.white,
                g.black,
                g.result,
                g.year.map_or("?".to_owned(), |y| y.to_string()),
                g.rating.map_or("unrated".to_owned(), |r| r.to_string()),
                g.file,
                g.game
            )?;
        }
    }
    Ok(())
}
