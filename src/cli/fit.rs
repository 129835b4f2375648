//! `hastings fit`: the style under which a player's own moves are most likely.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use rustc_hash::FxHashMap;

use super::CliError;
use crate::book::OpeningLine;
use crate::book::polyglot::SharedBook;
use crate::sampler::fit::{FitData, FitReport, GaConfig, fit, names_player};
use crate::sampler::profile::{FitProvenance, StyleProfile};
use crate::workspace::explorer::FilteredExplorer;
use crate::workspace::polyglot::PolyglotFile;
use crate::workspace::profiles::save_profile;
use crate::workspace::{BookChoice, FileMode, Workspace};

/// `hastings fit`.
#[derive(Debug, Args)]
pub struct FitArgs {
    /// The player's games (PGN, read as a game collection).
    #[arg(long, value_name = "PGN")]
    pub games: PathBuf,
    /// The player, as in the `White`/`Black` tags (case-insensitive; a part of the name
    /// is enough: `--player carlsen`).
    #[arg(long, value_name = "NAME")]
    pub player: String,
    /// The book the player's moves are compared with: `eco` (the embedded ECO list), or
    /// a Polyglot book `FILE.bin` (or `gnuchess`, the embedded gnuchess book) together
    /// with the ECO list, in which case the popularity blend λ of the two is fitted
    /// as well (0 = the ECO lines' popularity, 1 = the book's).
    #[arg(long, value_name = "eco|gnuchess|FILE.bin", default_value = "eco")]
    pub theory: String,
    /// An explorer index's games (under its filters, or a player's tree) as the
    /// popularity instead of a Polyglot book (`--theory eco` only): the style is fitted
    /// with `--popularity explorer`, the ECO lines deciding where no game reached a
    /// position.
    #[command(flatten)]
    pub explorer: super::args::ExplorerArgs,
    /// Plies read from each game.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = super::args::positive::<u32>)]
    pub max_plies: u32,
    /// Generations of the genetic algorithm.
    #[arg(long, value_name = "G", default_value_t = 40)]
    pub generations: u32,
    /// Organisms per generation.
    #[arg(long, value_name = "P", default_value_t = 50)]
    pub population: u32,
    /// The seed of the genetic algorithm (the same seed gives the same fit).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Write the fitted style as a profile (`--style FILE` of `sample` loads it).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The report of `hastings fit --json` (parameters in the thesis's order: gambits,
/// uncommon, 1.c4, 1.d4, 1.e4).
#[derive(Debug, serde::Serialize)]
pub struct FitJson {
    /// On (1) or off (0).
    pub params: [u8; 5],
    /// The weights (0 for a parameter that is off).
    pub weights: [f64; 5],
    /// The transposition weight.
    pub tau: f64,
    /// The fitted popularity: `eco` (the lines'; always without a book), `book` or
    /// `blend:λ`; `explorer` with `--explorer`.
    pub popularity: String,
    /// `Σ ln P` of the scored moves under the fitted style.
    pub log_likelihood: f64,
    /// The same under the neutral style.
    pub log_likelihood_neutral: f64,
    /// The player's moves scored (book continuations and implied transpositions).
    pub moves_scored: u64,
    /// The player's moves that left the book.
    pub moves_out_of_book: u64,
    /// Top-1 agreement of the fitted style.
    pub top1: f64,
    /// Top-1 agreement of the neutral style.
    pub top1_neutral: f64,
}

impl FitJson {
    /// The JSON report of a fit.
    pub fn of(report: &FitReport) -> FitJson {
        let p = report.style.params();
        FitJson {
            params: p.map(|p| u8::from(p.enabled)),
            weights: p.map(|p| p.weight),
            tau: report.style.tau(),
            popularity: report.popularity.to_string(),
            log_likelihood: report.fitted.log_likelihood,
            log_likelihood_neutral: report.neutral.log_likelihood,
            moves_scored: report.counts.moves_scored,
            moves_out_of_book: report.counts.moves_out_of_book,
            top1: report.fitted.top1,
            top1_neutral: report.neutral.top1,
        }
    }
}

/// The names with the most games, for an error message.
fn frequent_players(lines: &[OpeningLine]) -> String {
    let mut count: FxHashMap<&str, usize> = FxHashMap::default();
    for l in lines {
        if let Some(t) = &l.tags {
            for side in ["White", "Black"] {
                if let Some(name) = t.known(side) {
                    *count.entry(name).or_default() += 1;
                }
            }
        }
    }
    let mut v: Vec<(&str, usize)> = count.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    v.iter()
        .take(5)
        .map(|(n, c)| format!("{n} ({c})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The Polyglot book of `--theory`: none for `eco`, the embedded book for `gnuchess`,
/// else the file.
fn theory_book(theory: &str) -> Result<Option<SharedBook>, CliError> {
    let theory = theory.trim();
    if theory.eq_ignore_ascii_case("eco") {
        return Ok(None);
    }
    if theory.eq_ignore_ascii_case("gnuchess") {
        return SharedBook::gnuchess()
            .map(Some)
            .map_err(|e| CliError::Usage(format!("the embedded gnuchess book: {e}")));
    }
    let path = std::path::Path::new(theory);
    let is_bin = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("bin"));
    if !is_bin && !path.exists() {
        return Err(CliError::Usage(format!(
            "--theory {theory}: expected eco, gnuchess or a Polyglot book file (.bin)"
        )));
    }
    Ok(Some(PolyglotFile::open(path)?.into_shared()?))
}

pub(super) fn run(args: &FitArgs, out: &mut impl Write) -> Result<(), CliError> {
    if let Some(output) = &args.output {
        let theory = Path::new(&args.theory);
        let inputs = [args.games.as_path(), theory]
            .into_iter()
            .chain(args.explorer.explorer.as_deref());
        super::outputs::refuse_input_as_output(output, inputs)?;
    }
    let book = theory_book(&args.theory)?;
    let explorer = args.explorer.open()?;
    if explorer.is_some() && book.is_some() {
        return Err(CliError::Usage(format!(
            "--explorer and --theory {}: the games come from one source, leave out one",
            args.theory.trim()
        )));
    }
    let started = Instant::now();
    let mut ws = Workspace::new(BookChoice::default())?;
    let lines = std::sync::Arc::clone(
        &ws.import_now_with(
            &args.games,
            FileMode::Games,
            Some(args.max_plies),
            &super::progress_bar::terminal_progress(&args.games.display().to_string()),
        )?
        .lines,
    );
    let graph = std::sync::Arc::clone(ws.eco());
    let books: Vec<_> = book.iter().map(SharedBook::book).collect();
    let plies = args.max_plies as usize;
    let data = match &explorer {
        Some(explorer) => {
            FitData::from_games_with_explorer(&graph, explorer, &lines, &args.player, plies)
        }
        None => FitData::from_games_with_books(&graph, &books, &lines, &args.player, plies),
    };
    if let Some(e) = explorer.as_ref().and_then(FilteredExplorer::take_error) {
        return Err(e.into());
    }
    let counts = *data.counts();
    if counts.games_with_player == 0 {
        return Err(CliError::Usage(format!(
            "{}: no game has a White or Black tag containing `{}` (most games: {})",
            args.games.display(),
            args.player,
            frequent_players(&lines)
        )));
    }
    if counts.moves_scored == 0 {
        return Err(CliError::Usage(format!(
            "{}: none of {}'s moves is a move of the book, so there is nothing to fit",
            args.games.display(),
            args.player
        )));
    }
    let config = GaConfig {
        population: args.population.max(2) as usize,
        generations: args.generations as usize,
        ..GaConfig::default()
    };
    let report = fit(&data, &config, args.seed);
    let seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &args.output {
        let matched = lines
            .iter()
            .filter_map(|l| l.tags.as_ref())
            .flat_map(|t| [t.get("White"), t.get("Black")])
            .flatten()
            .find(|n| names_player(n, &args.player))
            .unwrap_or(&args.player)
            .trim()
            .to_owned();
        let provenance = FitProvenance {
            games: args.games.display().to_string(),
            player: matched,
            theory: match (&book, &args.explorer.explorer) {
                (Some(_), _) => format!("eco + {}", args.theory.trim()),
                (None, Some(index)) => format!("eco + {}", index.display()),
                (None, None) => "eco".to_owned(),
            },
            max_plies: args.max_plies,
            moves_scored: counts.moves_scored,
            moves_out_of_book: counts.moves_out_of_book,
            log_likelihood: report.fitted.log_likelihood,
            log_likelihood_neutral: report.neutral.log_likelihood,
            top1: report.fitted.top1,
            top1_neutral: report.neutral.top1,
            seed: args.seed,
            population: args.population,
            generations: args.generations,
        };
        let mut profile = StyleProfile::fitted(&report, provenance);
        profile.popularity = report.popularity;
        save_profile(path, &profile)?;
    }
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&FitJson::of(&report))?
        )?;
        return Ok(());
    }
    write_text(out, args, &report, seconds)
}

fn write_text(
    out: &mut impl Write,
    args: &FitArgs,
    report: &FitReport,
    seconds: f64,
) -> Result<(), CliError> {
    let c = &report.counts;
    let n = c.moves_scored as f64;
    writeln!(
        out,
        "games      {} read, {} with {} ({} not from the start position, left out)",
        c.games, c.games_with_player, args.player, c.games_not_from_start
    )?;
    writeln!(
        out,
        "moves      {} scored, {} out of book, {} where the book ends, {} outside the book",
        c.moves_scored, c.moves_out_of_book, c.moves_after_book_end, c.moves_outside_book
    )?;
    writeln!(out)?;
    writeln!(out, "{:<20} {:>4} {:>7}", "parameter", "on", "weight")?;
    for (flag, p) in crate::book::Flag::ALL.iter().zip(report.style.params()) {
        writeln!(
            out,
            "{:<20} {:>4} {:>7.3}",
            flag.label(),
            u8::from(p.enabled),
            p.weight
        )?;
    }
    writeln!(
        out,
        "{:<20} {:>4} {:>7.3}",
        "transpositions τ",
        "",
        report.style.tau()
    )?;
    writeln!(
        out,
        "{:<20} {:>4} {:>7.3}   ({})",
        "book blend λ",
        "",
        report.popularity.book_part(),
        report.popularity
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "{:<10} {:>14} {:>12} {:>8}",
        "style", "log-likelihood", "per move", "top-1"
    )?;
    for (name, s) in [("fitted", &report.fitted), ("neutral", &report.neutral)] {
        writeln!(
            out,
            "{:<10} {:>14.3} {:>12.4} {:>8.4}",
            name,
            s.log_likelihood,
            s.log_likelihood / n,
            s.top1
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "GA: population {} × {} generations, seed {}: log-likelihood {:.3} ({} evaluations)",
        args.population,
        args.generations,
        report.seed,
        report.ga.log_likelihood,
        report.ga.evaluations
    )?;
    writeln!(
        out,
        "local search from the GA's best: {:.3} (+{:.3}, {} evaluations)",
        report.local.log_likelihood,
        report.local.log_likelihood - report.ga.log_likelihood,
        report.local.evaluations
    )?;
    writeln!(out, "time       {seconds:.2} s")?;
    if let Some(path) = &args.output {
        writeln!(out, "profile    {}", path.display())?;
    }
    Ok(())
}
