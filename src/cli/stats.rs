//! `hastings stats`: the size of the position graph.

use std::io::Write;

use clap::Args;

use super::CliError;
use super::args::BookArgs;

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

pub(super) fn run(args: &StatsArgs, out: &mut impl Write) -> Result<(), CliError> {
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
