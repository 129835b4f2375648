//! `hastings uci`: the built-in engines speaking UCI on standard input and output, so
//! any chess GUI can use them and the engine client's tests run against a real process.

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::CliError;
use crate::engine::blend::Bonus;
use crate::engine::tuned::TunedEval;
use crate::engine::uci_engines::{Agent, ServeOptions};
use crate::workspace::eval_files::read_weights;

/// `hastings uci [--agent alphabeta|mcts|human|eval|blend] [--temperature T] [--lambda L]
/// [--depth D]` (the GUI can change them with `setoption name Search`, `Temperature`,
/// `Lambda`, `Depth`, `Bonus`).
#[derive(Debug, Args)]
pub struct UciArgs {
    /// The engine: `alphabeta`, `mcts`, `human` (the move predictor: what strong
    /// players play, sampled with the temperature), `eval` (α-β with the evaluation tuned
    /// by a genetic algorithm, after Klevansky, Ostroff and Offen, 2023) or `blend` (their
    /// λ blend of that evaluation and the predictor).
    #[arg(long, default_value = "alphabeta")]
    pub agent: Agent,
    /// The temperature of `human` (default 1: 0 plays the most likely move, 1 as often
    /// as players do, higher is more random) and of `blend` (default 0: the best sum; 1
    /// makes a pawn of score a factor e).
    #[arg(long)]
    pub temperature: Option<f64>,
    /// The blend's λ: 0 the evaluation alone, 1 the predictor decides (default 0.2, the
    /// best of the λ round robin in `docs/seed003.md`).
    #[arg(long, default_value_t = 0.2)]
    pub lambda: f64,
    /// The blend's bonus: `top` (λ × 3000 for the predictor's move, the seed's) or
    /// `probability` (λ × 3000 × p for every move).
    #[arg(long, default_value = "top")]
    pub bonus: Bonus,
    /// Depth cap of `eval` and `blend` (default: as `go` says).
    #[arg(long, value_name = "PLIES", value_parser = super::args::positive::<u32>)]
    pub depth: Option<u32>,
    /// Tuned weights for `eval` and `blend` (a `train eval` output) instead of the
    /// shipped ones.
    #[arg(long)]
    pub weights: Option<PathBuf>,
}

pub(super) fn run(args: &UciArgs, out: &mut impl Write) -> Result<(), CliError> {
    if let Some(t) = args.temperature
        && !(t.is_finite() && t >= 0.0)
    {
        return Err(CliError::Usage(format!(
            "--temperature: a number from 0 up, not {t}"
        )));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(CliError::Usage(format!(
            "--lambda: a number from 0 to 1, not {}",
            args.lambda
        )));
    }
    let weights = match &args.weights {
        Some(path) => Some(Arc::new(TunedEval::new(read_weights(path)?.0))),
        None => None,
    };
    let defaults = ServeOptions::default();
    let options = ServeOptions {
        agent: args.agent,
        temperature: args.temperature.unwrap_or(defaults.temperature),
        blend_temperature: args.temperature.unwrap_or(defaults.blend_temperature),
        lambda: args.lambda,
        bonus: args.bonus,
        depth: args.depth,
        weights,
    };
    Ok(crate::engine::uci_server::serve_with(
        io::BufReader::new(io::stdin()),
        out,
        options,
    )?)
}
