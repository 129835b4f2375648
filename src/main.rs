//! The `hastings` binary: a headless command, or the trainer window.

use std::process::ExitCode;

use clap::Parser;
use hastings::cli::{self, Cli};
use hastings::ui;

fn main() -> ExitCode {
    let args = Cli::parse();
    // Warnings, errors and panics go to hastings.log in the data folder (a bug report
    // attaches it); without one, the program runs on without a log.
    if let Some(dir) = hastings::workspace::data_dir::data_dir() {
        let _ = hastings::workspace::log_file::install(&dir);
    }
    let Some(command) = &args.command else {
        let options = ui::RunOptions {
            screenshot: args.gui.screenshot.clone(),
            moves: args.gui.moves.clone(),
            tab: args.gui.tab.clone(),
            board: args.gui.board,
            size: args.gui.size,
            files: args.gui.files.clone(),
            reset_progress: args.gui.reset_progress,
        };
        return match ui::run(&options) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("hastings: {e}");
                ExitCode::FAILURE
            }
        };
    };
    let stdout = std::io::stdout();
    let data_dir = hastings::workspace::data_dir::data_dir();
    match cli::run_in(command, data_dir.as_deref(), &mut stdout.lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hastings: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
