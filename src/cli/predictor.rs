//! `hastings predictor dataset`: the move predictor's training set from PGN games (see
//! [`crate::workspace::predictor_dataset`] and `training/DATASET.md`).

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::CliError;
use crate::workspace::predictor_dataset::{DatasetOptions, make_dataset};

/// `hastings predictor …`.
#[derive(Debug, Subcommand)]
pub enum PredictorCommand {
    /// Write the training set (boards, moves, legal moves as .npy) of PGN games.
    Dataset(DatasetArgs),
}

/// `hastings predictor dataset GAMES.pgn… -o DIR`.
#[derive(Debug, Args)]
pub struct DatasetArgs {
    /// PGN files of games (their mainlines are read).
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// The output directory (`meta.json`, `train/`, `valid/`).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Leave out positions before this ply (half-moves played).
    #[arg(long, default_value_t = 8)]
    pub min_ply: u32,
    /// Stop after the game that brings the positions to this many.
    #[arg(long)]
    pub max_positions: Option<usize>,
    /// The shuffle's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Every this-many-th game goes to validation (0: no validation split).
    #[arg(long, default_value_t = 50)]
    pub valid_every: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

pub(super) fn run(command: &PredictorCommand, out: &mut impl Write) -> Result<(), CliError> {
    match command {
        PredictorCommand::Dataset(args) => dataset(args, out),
    }
}

fn dataset(args: &DatasetArgs, out: &mut impl Write) -> Result<(), CliError> {
    let options = DatasetOptions {
        min_ply: args.min_ply,
        max_positions: args.max_positions,
        seed: args.seed,
        valid_every: args.valid_every,
        threads: args.threads,
    };
    super::outputs::refuse_input_as_output(&args.output, args.games.iter().map(|f| f.as_path()))?;
    let command: Vec<String> = std::env::args().collect();
    let meta = make_dataset(&args.games, &args.output, &options, &command.join(" "))?;
    for source in &meta.sources {
        writeln!(
            out,
            "{}: {} games, {} with a problem (skipped or cut at a bad move)",
            source.path, source.games, source.issues
        )?;
    }
    writeln!(
        out,
        "train: {} positions of {} games; valid: {} positions of {} games; written to {}",
        meta.train.positions,
        meta.train.games,
        meta.valid.positions,
        meta.valid.games,
        args.output.display()
    )?;
    Ok(())
}
