//! Writes the manual page and the shell completions of `hastings`, made from the same
//! clap definition the binary parses (`hastings::cli::Cli`): `cargo run -p
//! hastings-bench --example man_page -- OUT_DIR` writes `OUT_DIR/man/hastings.1` and
//! `OUT_DIR/completions/{hastings.bash,_hastings,hastings.fish}`. `.ci/package.sh` runs
//! it for the Debian package. An example rather than a hidden subcommand keeps
//! `clap_mangen` and `clap_complete` out of the binary users run.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;
use hastings::cli::Cli;

fn main() -> ExitCode {
    let Some(out) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: man_page OUT_DIR");
        return ExitCode::FAILURE;
    };
    match write_all(&out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("man_page: {}: {e}", out.display());
            ExitCode::FAILURE
        }
    }
}

/// The manual page under `out/man`, the completions under `out/completions`.
fn write_all(out: &Path) -> std::io::Result<()> {
    let man_dir = out.join("man");
    let completions = out.join("completions");
    std::fs::create_dir_all(&man_dir)?;
    std::fs::create_dir_all(&completions)?;
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    std::fs::write(man_dir.join("hastings.1"), page)?;
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        clap_complete::generate_to(shell, &mut Cli::command(), "hastings", &completions)?;
    }
    Ok(())
}
