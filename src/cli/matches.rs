//! `hastings match`: two engines play both colours of each opening; the score and the
//! Elo difference with its error margin.

use std::io::Write;
use std::num::{NonZeroU32, NonZeroU64};
use std::path::PathBuf;

use clap::Args;

use super::CliError;
use super::args::positive;
use crate::engine::spec::{EngineKind, EngineSpec};
use crate::engine::tuned::TunedEval;
use crate::workspace::eval_files::read_weights;

/// A spec of `eval` or `blend` with its `Weights=FILE` option read.
fn with_weights(spec: &EngineSpec) -> Result<EngineSpec, CliError> {
    let mut spec = spec.clone();
    if matches!(spec.kind, EngineKind::Eval | EngineKind::Blend)
        && let Some((_, path)) = spec
            .options
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("weights"))
    {
        let (weights, _) = read_weights(std::path::Path::new(path))?;
        spec.weights = Some(std::sync::Arc::new(TunedEval::new(weights)));
    }
    Ok(spec)
}

/// `hastings match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// An engine: builtin, mcts, random, human, eval, blend, stockfish or a path, then options
    /// after commas (`stockfish,Skill Level=0`, `blend,Lambda=0.5,Depth=1`,
    /// `eval,Weights=eval.ron`). Give it twice; a single one plays `builtin`; three or
    /// more play a round robin.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<crate::engine::spec::EngineSpec>,
    /// Games to play (each opening is played with both colours); in a round robin, games
    /// per pair.
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Milliseconds per move.
    #[arg(long, value_name = "MS", default_value = "100", value_parser = positive::<NonZeroU64>)]
    pub movetime: NonZeroU64,
    /// Search every move to this depth instead of by time.
    #[arg(long, value_name = "PLIES", conflicts_with = "movetime", value_parser = positive::<NonZeroU32>)]
    pub depth: Option<NonZeroU32>,
    /// Where games start: `eco` (embedded ECO lines), `start`, or `seed003` (the ten
    /// openings of Klevansky, Ostroff and Offen's 2023 study of genetic tuning, in order).
    #[arg(long, default_value = "eco")]
    pub openings: crate::engine::matches::Openings,
    /// A game reaching this many plies is a draw.
    #[arg(long, default_value_t = 300, value_parser = positive::<usize>)]
    pub max_plies: usize,
    /// Fixes the openings and the built-in engines' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also write the games to this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// A round robin's threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

pub(super) fn run(args: &MatchArgs, out: &mut impl Write) -> Result<(), CliError> {
    use crate::engine::{Limits, matches};
    let builtin = "builtin"
        .parse()
        .map_err(|e| CliError::Usage(format!("{e}")))?;
    let engines = args
        .engines
        .iter()
        .map(with_weights)
        .collect::<Result<Vec<_>, _>>()?;
    let (first, second) = match engines.as_slice() {
        [a] => (a, &builtin),
        [a, b] => (a, b),
        _ => return super::round_robin::run(args, &engines, out),
    };
    let config = matches::MatchConfig {
        games: args.games,
        limits: args
            .depth
            .map_or(Limits::millis(args.movetime), Limits::plies),
        openings: args.openings,
        max_plies: args.max_plies,
        seed: args.seed,
    };
    let mut pgn = match &args.pgn {
        Some(path) => Some(
            std::fs::File::create(path).map_err(|source| CliError::Create {
                path: path.clone(),
                source,
            })?,
        ),
        None => None,
    };
    let pgn = pgn.as_mut().map(|f| f as &mut dyn Write);
    matches::run_and_print(first, second, &config, pgn, out)?;
    Ok(())
}
