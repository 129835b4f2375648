//! `hastings export`: the book, or some of its sources, as PGN with nested variations.

use std::io::{self, Write};
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
    let (graph, _) = args.book.build()?;
    let games = match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(|source| CliError::Create {
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
