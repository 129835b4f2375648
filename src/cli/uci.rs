//! `hastings uci`: the built-in engine speaking UCI on standard input and output, so
//! any chess GUI can use it and the engine client's tests run against a real process.

use std::io::{self, Write};

use clap::Args;

use super::CliError;

/// `hastings uci` (no options: engine options come as UCI `setoption`).
#[derive(Debug, Args)]
pub struct UciArgs {}

pub(super) fn run(_args: &UciArgs, out: &mut impl Write) -> Result<(), CliError> {
    Ok(crate::engine::uci_server::serve(
        io::BufReader::new(io::stdin()),
        out,
    )?)
}
