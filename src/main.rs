//! The `hastings` binary: a headless command, or the trainer window.

use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use hastings::cli::{self, Cli};

fn main() -> ExitCode {
    let args = Cli::parse();
    let Some(command) = &args.command else {
        // The window lands with the GUI issue; until then, explain the commands.
        let _ = Cli::command().print_help();
        return ExitCode::SUCCESS;
    };
    let stdout = std::io::stdout();
    match cli::run(command, &mut stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hastings: {e}");
            ExitCode::FAILURE
        }
    }
}
