//! The headless commands, one file each: [`stats`], [`sample`], [`import`], [`export`],
//! [`book`] (Polyglot books), [`repertoire`] (make and edit a repertoire file),
//! [`explorer`] (opening explorer indexes), [`fetch`] (games and studies from lichess
//! and chess.com), [`review`], [`coverage`], [`check`],
//! [`compare`], [`fit`], [`uci`], [`matches`](mod@matches) (with [`round_robin`] for
//! three engines or more), [`train`], [`predict`], [`predictor`] (the predictor's
//! training set); [`args`] holds the options they share (which sources and lines make
//! the book) and the window's options; [`progress_bar`] draws a job's progress on
//! stderr. The commands that build a book go through the same
//! [`Workspace`](crate::workspace::Workspace) as the window.

pub mod args;
pub mod book;
pub mod check;
pub mod compare;
pub mod coverage;
pub mod explorer;
pub mod explorer_eval;
pub mod explorer_fit;
pub mod export;
pub mod fetch;
pub mod fit;
pub mod import;
mod make_report;
pub mod matches;
pub mod outputs;
pub mod predict;
pub mod predictor;
pub mod progress_bar;
pub mod repertoire;
pub mod review;
pub mod round_robin;
pub mod sample;
pub mod stats;
pub mod train;
pub mod uci;

use std::io::{self, Write};
use std::path::PathBuf;

use clap::{Parser, Subcommand};
use thiserror::Error;

pub use args::{BookArgs, GuiArgs};
pub use compare::CompareArgs;
pub use coverage::CoverageArgs;
pub use export::ExportArgs;
pub use fit::{FitArgs, FitJson};
pub use import::{ImportArgs, ImportJson, IssueJson};
pub use matches::MatchArgs;
pub use review::ReviewArgs;
pub use sample::{CandidateReport, ReachedReport, SampleArgs, SampleReport, sample_report};
pub use stats::StatsArgs;
pub use uci::UciArgs;

use crate::book::export::ExportError;
use crate::book::{BookError, ImportError};
use crate::sampler::StyleError;
use crate::workspace::WorkspaceError;

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
    /// Opening explorer indexes: make one from games, add games, query a position.
    #[command(subcommand)]
    Explorer(explorer::ExplorerCommand),
    /// Games and studies from lichess and chess.com into a PGN file (asks the site).
    #[command(subcommand)]
    Fetch(fetch::FetchCommand),
    /// Spaced repetition: list the review queue, or grade a card.
    Review(ReviewArgs),
    /// Run the built-in engine as a UCI engine on stdin/stdout.
    Uci(UciArgs),
    /// Play a match between two engines and print the score and Elo difference.
    Match(MatchArgs),
    /// What a repertoire will face against a theory book: likely positions, gaps,
    /// coverage by depth.
    Coverage(CoverageArgs),
    /// Is a repertoire sound? Every position checked by an engine (cached): moves that
    /// lose, replies met badly, how lines end.
    Check(check::CheckArgs),
    /// A player's games against a repertoire: where each left it.
    Compare(CompareArgs),
    /// Fit the style under which a player's own moves are most likely (a profile).
    Fit(FitArgs),
    /// The move predictor: what strong players play in a position, or its accuracy on games.
    Predict(predict::PredictArgs),
    /// The move predictor's training data.
    #[command(subcommand)]
    Predictor(predictor::PredictorCommand),
    /// Make and edit a repertoire file: new, add, delete, promote, comment, mark.
    #[command(subcommand)]
    Repertoire(repertoire::RepertoireCommand),
    /// Tune the engine's evaluation with a genetic algorithm (after Klevansky, Ostroff
    /// and Offen, 2023).
    #[command(subcommand)]
    Train(train::TrainCommand),
}

/// What went wrong in a headless command.
#[derive(Debug, Error)]
pub enum CliError {
    /// The book could not be built.
    #[error(transparent)]
    Book(#[from] BookError),
    /// A source could not be loaded.
    #[error(transparent)]
    Workspace(#[from] WorkspaceError),
    /// Writing the output failed.
    #[error("cannot write the output: {0}")]
    Io(#[from] io::Error),
    /// A style value is out of range.
    #[error(transparent)]
    Style(#[from] StyleError),
    /// A move of `--moves` cannot be read or played.
    #[error("--moves: {0}")]
    Moves(#[from] crate::book::movelist::MoveListError),
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
    /// An output file could not be created.
    #[error("cannot create {}: {source}", .path.display())]
    Create {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// An input file could not be read.
    #[error("cannot read {}: {}", .path.display(), io_reason(.source))]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// An input file holds no game with a move (it is empty, or not PGN).
    #[error("{}: no game in it (is it a PGN file?)", .path.display())]
    NoGames {
        /// The file.
        path: PathBuf,
    },
    /// `-o` names a file the command reads: it would be overwritten.
    #[error(
        "-o {} is the input {} (the same file); nothing was written: write to another file",
        .output.display(),
        .input.display()
    )]
    OutputIsInput {
        /// The output given.
        output: PathBuf,
        /// The input it is.
        input: PathBuf,
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
    /// An explorer index cannot be made, added to or read.
    #[error(transparent)]
    Explorer(#[from] crate::workspace::explorer::ExplorerError),
    /// An explorer filter option cannot be read.
    #[error(transparent)]
    ExplorerFilter(#[from] crate::book::explorer::FilterError),
    /// An engine match could not be played.
    #[error(transparent)]
    Match(#[from] crate::engine::matches::MatchError),
    /// A review could not be listed or recorded.
    #[error(transparent)]
    Review(#[from] crate::workspace::review_store::ReviewCommandError),
    /// The predictor's training set could not be made.
    #[error(transparent)]
    Dataset(#[from] crate::workspace::predictor_dataset::DatasetError),
    /// An engine failed while scoring moves.
    #[error(transparent)]
    Engine(#[from] crate::engine::EngineError),
    /// The predictor's weights cannot be used.
    #[error(transparent)]
    Weights(#[from] crate::engine::predictor::WeightsError),
    /// A style profile cannot be read or written.
    #[error(transparent)]
    Profile(#[from] crate::workspace::profiles::ProfileFileError),
    /// A repertoire file cannot be read, edited or written.
    #[error(transparent)]
    Repertoire(#[from] crate::workspace::repertoire_file::RepertoireFileError),
    /// An evaluation weights file or tuning state cannot be read or written.
    #[error(transparent)]
    EvalFile(#[from] crate::workspace::eval_files::EvalFileError),
    /// A fetch from lichess or chess.com failed (the file is as it was).
    #[error(transparent)]
    Fetch(#[from] crate::workspace::fetch::FetchError),
    /// A temperature could not be fitted to an explorer's games.
    #[error(transparent)]
    SparFit(#[from] crate::trainer::spar::fit::FitError),
    /// A fitted temperature cannot be kept beside the explorer index.
    #[error(transparent)]
    SparFits(#[from] crate::workspace::explorer::spar_fits::SparFitsError),
}

/// Why a file cannot be read, in words: "not found" and "permission denied" as such,
/// other errors as the system says them.
fn io_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "not found".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => e.to_string(),
    }
}

impl CliError {
    /// The process exit code for this error: 2 when a PGN file gave no game (so
    /// scripts can tell an empty import from a failure), 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::NothingImported { .. }
            | CliError::NoGames { .. }
            | CliError::Workspace(WorkspaceError::Import {
                source: ImportError::NoGames { .. },
                ..
            })
            | CliError::MakeBook(crate::workspace::polyglot_make::MakeError::NoGames { .. })
            | CliError::Explorer(crate::workspace::explorer::ExplorerError::NoGames { .. }) => 2,
            _ => 1,
        }
    }
}

/// Runs a headless command, writing its output to `out`; without the learner's data
/// directory (see [`run_in`]).
///
/// # Errors
///
/// [`CliError`] when the book cannot be built or the output cannot be written.
pub fn run(command: &Command, out: &mut impl Write) -> Result<(), CliError> {
    run_in(command, None, out)
}

/// Runs a headless command with the learner's data directory (where `review` keeps its
/// log unless `--progress` says otherwise), writing its output to `out`.
///
/// # Errors
///
/// [`CliError`] when the book cannot be built or the output cannot be written.
pub fn run_in(
    command: &Command,
    data_dir: Option<&std::path::Path>,
    out: &mut impl Write,
) -> Result<(), CliError> {
    match command {
        Command::Stats(args) => stats::run(args, out),
        Command::Sample(args) => sample::run(args, out),
        Command::Import(args) => import::run(args, out),
        Command::Export(args) => export::run(args, out),
        Command::Book(command) => book::run(command, out),
        Command::Explorer(command) => explorer::run(command, out),
        Command::Fetch(command) => fetch::run(command, out),
        Command::Review(args) => review::run(args, data_dir, out),
        Command::Uci(args) => uci::run(args, out),
        Command::Match(args) => matches::run(args, out),
        Command::Coverage(args) => coverage::run(args, out),
        Command::Check(args) => check::run(args, data_dir, out),
        Command::Compare(args) => compare::run(args, data_dir, out),
        Command::Fit(args) => fit::run(args, out),
        Command::Predict(args) => predict::run(args, out),
        Command::Predictor(command) => predictor::run(command, out),
        Command::Repertoire(command) => repertoire::run(command, data_dir, out),
        Command::Train(command) => train::run(command, out),
    }
}
