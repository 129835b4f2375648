//! `hastings uci`: the built-in engines speaking UCI on standard input and output, so
//! any chess GUI can use them and the engine client's tests run against a real process.

use std::io::{self, Write};

use clap::Args;

use super::CliError;
use crate::engine::human::DEFAULT_TEMPERATURE;
use crate::engine::uci_server::{Agent, ServeOptions};

/// `hastings uci [--agent alphabeta|mcts|human] [--temperature T]` (the GUI can change
/// both with `setoption name Search` and `setoption name Temperature`).
#[derive(Debug, Args)]
pub struct UciArgs {
    /// The engine: `alphabeta`, `mcts`, or `human` (the move predictor: what strong
    /// players play, sampled with the temperature).
    #[arg(long, default_value = "alphabeta")]
    pub agent: Agent,
    /// The human-like agent's temperature: 0 plays the most likely move, 1 as often as
    /// players do, higher is more random.
    #[arg(long, default_value_t = DEFAULT_TEMPERATURE)]
    pub temperature: f64,
}

pub(super) fn run(args: &UciArgs, out: &mut impl Write) -> Result<(), CliError> {
    if !(args.temperature.is_finite() && args.temperature >= 0.0) {
        return Err(CliError::Usage(format!(
            "--temperature: a number from 0 up, not {}",
            args.temperature
        )));
    }
    let options = ServeOptions {
        agent: args.agent,
        temperature: args.temperature,
    };
    Ok(crate::engine::uci_server::serve_with(
        io::BufReader::new(io::stdin()),
        out,
        options,
    )?)
}
