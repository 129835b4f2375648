//! What can go wrong with an engine: the one error type of the [`Engine`](super::Engine)
//! boundary. The built-in engines never fail; a UCI engine process can.

use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

use super::limits::ZeroLimit;

/// An engine failed. Every variant names the engine and carries what was seen, so a
/// message can say what happened; the caller falls back to the built-in engine.
#[derive(Debug, Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("cannot start engine {}: {source}", .path.display())]
    Spawn {
        /// The program.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// No engine was found where one was looked for.
    #[error("no UCI engine found (looked for {looked})")]
    NotFound {
        /// Where it looked.
        looked: String,
    },
    /// The engine did not answer in time.
    #[error("engine {engine} did not send `{waiting_for}` within {:.1} s{}", .after.as_secs_f64(), last_line_note(.last_line))]
    Timeout {
        /// The engine's name.
        engine: String,
        /// What was awaited (`uciok`, `readyok`, `bestmove`).
        waiting_for: &'static str,
        /// How long it waited.
        after: Duration,
        /// The last line the engine printed, if any.
        last_line: Option<String>,
    },
    /// The engine's process ended (crashed, was killed or closed its output).
    #[error("engine {engine} exited {}{}{}", waiting_note(.waiting_for), status_note(.status), stderr_note(.stderr))]
    Exited {
        /// The engine's name.
        engine: String,
        /// What was awaited (`None`: it was gone when we wrote to it).
        waiting_for: Option<&'static str>,
        /// The exit status, when known (`signal: 9 (SIGKILL)`, `exit status: 1`).
        status: Option<String>,
        /// The last lines the engine wrote to stderr.
        stderr: Vec<String>,
    },
    /// The engine printed too many lines that are not UCI.
    #[error("engine {engine} printed {count} lines that are not UCI, e.g. `{example}`")]
    Garbage {
        /// The engine's name.
        engine: String,
        /// How many unreadable lines in a row.
        count: usize,
        /// One of them.
        example: String,
    },
    /// The engine answered with a move that is illegal in the position.
    #[error("engine {engine} played the illegal move {uci} in {fen}")]
    IllegalMove {
        /// The engine's name.
        engine: String,
        /// The move as sent.
        uci: String,
        /// The position, as FEN.
        fen: String,
    },
    /// Writing to the engine failed.
    #[error("cannot write to engine {engine}: {source}")]
    Write {
        /// The engine's name.
        engine: String,
        /// Why.
        source: std::io::Error,
    },
    /// The engine failed before, and is not used again.
    #[error("engine {engine} failed earlier and was stopped")]
    Dead {
        /// The engine's name.
        engine: String,
    },
    /// The move predictor's weights cannot be read (the human-like engine).
    #[error("no move predictor: {0}")]
    Predictor(String),
    /// The tuned evaluation's weights cannot be read (seed 003's engines).
    #[error("no tuned evaluation: {0}")]
    TunedWeights(String),
    /// The engine has no such option, or the value is out of range.
    #[error("engine {engine}: {reason}")]
    Option {
        /// The engine's name.
        engine: String,
        /// What is wrong.
        reason: String,
    },
    /// A limit of 0 was asked for (see [`ZeroLimit`]).
    #[error(transparent)]
    ZeroLimit(#[from] ZeroLimit),
    /// The search ended without a score (an analysis needs one).
    #[error("engine {engine} ended its search without a score")]
    NoScore {
        /// The engine's name.
        engine: String,
    },
}

fn last_line_note(line: &Option<String>) -> String {
    line.as_ref()
        .map(|l| format!(" (last line: `{l}`)"))
        .unwrap_or_default()
}

fn waiting_note(waiting_for: &Option<&'static str>) -> String {
    match waiting_for {
        Some(w) => format!("while we waited for `{w}`"),
        None => "before reading our command".to_string(),
    }
}

fn status_note(status: &Option<String>) -> String {
    status
        .as_ref()
        .map(|s| format!(" ({s})"))
        .unwrap_or_default()
}

fn stderr_note(lines: &[String]) -> String {
    if lines.is_empty() {
        String::new()
    } else {
        format!("; stderr: {}", lines.join(" | "))
    }
}
