//! `hastings export`: the book, or some of its sources, as PGN with nested variations.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::CliError;
use super::args::BookArgs;

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

pub(super) fn run(args: &ExportArgs, out: &mut impl Write) -> Result<(), CliError> {
    if let Some(output) = &args.output {
        super::outputs::refuse_input_as_output(output, args.book.pgn.iter().map(|f| f.as_path()))?;
    }
    let (graph, _) = args.book.build()?;
    let games = match &args.output {
        // Atomically: a full disk leaves no partial PGN at the target.
        Some(path) => crate::workspace::export::write_graph_file(&graph, path)?,
        None => crate::book::export::write_graph(&graph, None, out)?,
    };
    eprintln!(
        "hastings: wrote {games} games ({} lines)",
        graph.stats().lines
    );
    Ok(())
}
