//! An engine's child process: started with piped stdin, stdout and stderr; one reader
//! thread turns its output lines into [`EngineLine`]s on a channel, another drains
//! stderr (keeping the last lines for error messages); dropping it ends the process.

use std::collections::VecDeque;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::error::EngineError;
use super::protocol::{EngineLine, parse_line, read_lines_lossy};

/// How many stderr lines are kept.
const STDERR_LINES: usize = 8;

/// How long a dropped engine gets to obey `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// What the reader thread sends.
#[derive(Debug)]
pub enum ProcessEvent {
    /// A line, parsed.
    Line(Box<EngineLine>),
    /// The engine closed its output (it exited or crashed).
    Closed,
}

/// A running engine process.
#[derive(Debug)]
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<ProcessEvent>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Ends when the engine's stderr closes.
    stderr_thread: Option<JoinHandle<()>>,
    path: PathBuf,
    /// The engine's name for messages (the file name until `id name` arrives).
    pub name: String,
    /// The last line received, for timeout messages.
    last_line: Option<String>,
}

impl EngineProcess {
    /// Starts `path` with `args`.
    ///
    /// # Errors
    ///
    /// [`EngineError::Spawn`] when the program cannot be started.
    pub fn spawn(path: &Path, args: &[String]) -> Result<EngineProcess, EngineError> {
        let spawn_error = |source| EngineError::Spawn {
            path: path.to_path_buf(),
            source,
        };
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(spawn_error)?;
        let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error(std::io::Error::other("no pipes to the engine")));
        };
        let (tx, events) = mpsc::channel();
        let stdout_thread = thread::Builder::new()
            .name("engine stdout".into())
            .spawn(move || {
                read_lines_lossy(
                    BufReader::new(stdout),
                    |line| {
                        tx.send(ProcessEvent::Line(Box::new(parse_line(&line))))
                            .is_ok()
                    },
                    || {
                        let _ = tx.send(ProcessEvent::Closed);
                    },
                );
            });
        if let Err(e) = stdout_thread {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error(e));
        }
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let keep = Arc::clone(&tail);
        let stderr_thread = thread::Builder::new()
            .name("engine stderr".into())
            .spawn(move || {
                read_lines_lossy(
                    BufReader::new(stderr),
                    |line| {
                        if let Ok(mut t) = keep.lock() {
                            if t.len() == STDERR_LINES {
                                t.pop_front();
                            }
                            t.push_back(line);
                        }
                        true
                    },
                    || {},
                );
            });
        let stderr_thread = match stderr_thread {
            Ok(t) => t,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(spawn_error(e));
            }
        };
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Ok(EngineProcess {
            stdin: child.stdin.take(),
            child,
            events,
            stderr: tail,
            stderr_thread: Some(stderr_thread),
            path: path.to_path_buf(),
            name,
            last_line: None,
        })
    }

    /// The program's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The operating system's process id (to kill it from outside in tests).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a newline is added) and flushes.
    ///
    /// # Errors
    ///
    /// [`EngineError::Write`] when the pipe is closed.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let engine = self.name.clone();
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(EngineError::Dead { engine });
        };
        match writeln!(stdin, "{line}").and_then(|()| stdin.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(self.exited(None)),
            Err(source) => Err(EngineError::Write { engine, source }),
        }
    }

    /// The next line, waiting until `deadline`; `Ok(None)` when the deadline passed.
    ///
    /// # Errors
    ///
    /// [`EngineError::Exited`] when the engine closed its output; `waiting_for` names
    /// what was expected, for the message.
    pub fn recv_until(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
    ) -> Result<Option<EngineLine>, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(ProcessEvent::Line(line)) => {
                self.last_line = Some(line_text(&line));
                Ok(Some(*line))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Ok(ProcessEvent::Closed) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.exited(Some(waiting_for)))
            }
        }
    }

    /// The error for a timeout while waiting for `waiting_for`.
    pub fn timeout(&self, waiting_for: &'static str, after: Duration) -> EngineError {
        EngineError::Timeout {
            engine: self.name.clone(),
            waiting_for,
            after,
            last_line: self.last_line.clone(),
        }
    }

    /// The error for an engine that closed its output: waits briefly for the exit
    /// status and collects stderr.
    fn exited(&mut self, waiting_for: Option<&'static str>) -> EngineError {
        let started = Instant::now();
        let mut status = None;
        while started.elapsed() < Duration::from_millis(500) {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s.to_string());
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Let the stderr thread read the last words (it ends when stderr closes).
        while started.elapsed() < Duration::from_millis(1000)
            && self
                .stderr_thread
                .as_ref()
                .is_some_and(|t| !t.is_finished())
        {
            thread::sleep(Duration::from_millis(5));
        }
        let stderr = self
            .stderr
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        self.stdin = None;
        EngineError::Exited {
            engine: self.name.clone(),
            waiting_for,
            status,
            stderr,
        }
    }
}

impl Drop for EngineProcess {
    /// Asks the engine to quit, and kills it if it has not after a short grace.
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|()| stdin.flush());
        }
        let started = Instant::now();
        while started.elapsed() < QUIT_GRACE {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn line_text(line: &EngineLine) -> String {
    match line {
        EngineLine::Other(s) => s.clone(),
        EngineLine::UciOk => "uciok".into(),
        EngineLine::ReadyOk => "readyok".into(),
        EngineLine::Info { info, .. } => info.to_string(),
        EngineLine::BestMove { best, .. } => {
            format!(
                "bestmove {}",
                best.as_ref().map_or("(none)".into(), ToString::to_string)
            )
        }
        EngineLine::Id { name, author } => format!(
            "id {}",
            name.as_deref().or(author.as_deref()).unwrap_or_default()
        ),
        EngineLine::Option(o) => o.to_string(),
    }
}
