//! The headless commands: `stats` (and later `sample`, `import`, `export`).

use std::io::{self, Write};
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use thiserror::Error;

use crate::book::{BookError, LineFilter, PositionGraph};

/// The command line.
#[derive(Debug, Parser)]
#[command(name = "hastings", version, about = "A chess opening trainer", long_about = None)]
pub struct Cli {
    /// A headless command; without one, the trainer window opens.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The headless commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build the position graph and print its size.
    Stats(StatsArgs),
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
}

impl BookArgs {
    /// The line filter these options describe.
    pub fn filter(&self) -> LineFilter {
        LineFilter {
            min_moves_per_side: self.min_moves,
            volumes: self.volumes.clone(),
            eco_range: self.eco.clone(),
            name_contains: self.name.clone(),
            sources: None,
        }
    }

    /// Builds the graph these options select, and the time it took in milliseconds.
    ///
    /// # Errors
    ///
    /// As [`PositionGraph::eco_filtered`].
    pub fn build(&self) -> Result<(PositionGraph, f64), CliError> {
        let started = Instant::now();
        let graph = PositionGraph::eco_filtered(&self.filter())?;
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
    /// The output could not be serialised.
    #[error("cannot write JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Runs a headless command, writing its output to `out`.
///
/// # Errors
///
/// [`CliError`] when the book cannot be built or the output cannot be written.
pub fn run(command: &Command, out: &mut impl Write) -> Result<(), CliError> {
    match command {
        Command::Stats(args) => stats(args, out),
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
