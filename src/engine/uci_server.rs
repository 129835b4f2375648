//! `hastings uci`: the built-in engines speaking UCI, so any chess GUI (and the
//! client's tests) can use them as a process.
//!
//! [`serve`] reads commands from any `BufRead` and writes to any `Write`, so tests run
//! it in-process. A reader thread turns input lines into events; the search runs on
//! its own thread and sends its output as events too; this loop is the only writer.
//! So `isready` and `stop` are answered while a search runs, and `stop` gets its
//! `bestmove` at once.
//!
//! Commands are read by [`uci_command`](super::uci_command) (a `go` always gets its
//! `bestmove`), input bytes that are not UTF-8 replaced; the engines and their options
//! are [`uci_engines`](super::uci_engines)'.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use shakmaty::{CastlingMode, Position};
use shakmaty_uci::UciMessage;

use super::Search;
use super::game::Game;
use super::info::SearchInfo;
use super::limits::Limits;
use super::option_error::OptionError;
use super::protocol::read_lines_lossy;
use super::uci_command::{GuiCommand, parse_command};
use super::uci_engines::{Engines, ServeOptions, identify};

/// What the main loop reacts to.
enum Event {
    /// A line from the GUI.
    Command(String),
    /// The GUI closed our input.
    InputClosed,
    /// A line the search wants printed.
    Output(String),
    /// The search with this number is done (its engines come back through the join).
    Finished(u64),
}

struct RunningSearch {
    id: u64,
    /// `go infinite`: stopped when the input ends, as nobody can send `stop` then.
    infinite: bool,
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Engines>,
}

/// Runs the UCI protocol on `input` and `out` until `quit` or the end of the input
/// (where a running search with limits is allowed to finish and an infinite one is
/// stopped, so the process never outlives its GUI).
///
/// # Errors
///
/// Only when writing to `out` fails.
pub fn serve<R: BufRead + Send + 'static>(input: R, out: &mut impl Write) -> io::Result<()> {
    serve_with(input, out, ServeOptions::default())
}

/// [`serve`] with the agent and settings `options` at the start.
///
/// # Errors
///
/// Only when writing to `out` fails.
pub fn serve_with<R: BufRead + Send + 'static>(
    input: R,
    out: &mut impl Write,
    options: ServeOptions,
) -> io::Result<()> {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    thread::Builder::new()
        .name("uci input".into())
        .spawn(move || {
            // Bytes that are not UTF-8 (a Latin-1 path in `setoption`) are replaced,
            // not the end of the input.
            read_lines_lossy(
                input,
                |line| reader_tx.send(Event::Command(line)).is_ok(),
                || {
                    let _ = reader_tx.send(Event::InputClosed);
                },
            );
        })?;
    let mut server = Server {
        engines: Some(Engines::new(options.clone())),
        options,
        search: None,
        searches: 0,
        game: Game::default(),
        tx,
    };
    let mut input_open = true;
    while let Ok(event) = rx.recv() {
        match event {
            Event::Command(line) => {
                if !server.command(&line, out)? {
                    break;
                }
            }
            Event::Output(text) => {
                writeln!(out, "{text}")?;
                out.flush()?;
            }
            Event::Finished(id) => {
                if server.search.as_ref().is_some_and(|s| s.id == id) {
                    server.join();
                }
                if !input_open && server.search.is_none() {
                    break;
                }
            }
            Event::InputClosed => {
                input_open = false;
                match &server.search {
                    None => break,
                    Some(s) if s.infinite => s.stop.store(true, Ordering::Relaxed),
                    Some(_) => {}
                }
            }
        }
    }
    server.stop();
    // Print what the search said while stopping (its `bestmove`).
    while let Ok(event) = rx.try_recv() {
        if let Event::Output(text) = event {
            writeln!(out, "{text}")?;
        }
    }
    out.flush()
}

struct Server {
    /// `None` while a search thread has them.
    engines: Option<Engines>,
    search: Option<RunningSearch>,
    /// Searches started, to number them.
    searches: u64,
    game: Game,
    tx: Sender<Event>,
    /// The settings at the start, for fresh engines.
    options: ServeOptions,
}

impl Server {
    /// Handles one command; false on `quit`.
    fn command(&mut self, line: &str, out: &mut impl Write) -> io::Result<bool> {
        let message = match parse_command(line) {
            GuiCommand::Empty => return Ok(true),
            GuiCommand::Unknown(line) => {
                writeln!(out, "info string unknown command: {line}")?;
                out.flush()?;
                return Ok(true);
            }
            GuiCommand::Go(go) => {
                self.stop();
                let white = self.game.position().turn().is_white();
                let (limits, infinite, notes) = go.limits(white);
                for note in notes {
                    writeln!(out, "info string {note}")?;
                }
                if !go.skipped.is_empty() {
                    writeln!(out, "info string go: skipped {}", go.skipped.join(", "))?;
                }
                self.go(limits, infinite);
                out.flush()?;
                return Ok(true);
            }
            GuiCommand::Message(message) => message,
        };
        match message {
            UciMessage::Uci => identify(out, &self.options)?,
            UciMessage::IsReady => writeln!(out, "readyok")?,
            UciMessage::UciNewGame => {
                self.stop();
                if let Some(e) = self.engines.as_mut() {
                    e.new_game();
                }
                self.game = Game::default();
            }
            UciMessage::SetOption { name, value } => {
                self.stop();
                if let Err(reason) = self.set_option(&name, value.as_deref().unwrap_or("")) {
                    writeln!(out, "info string {reason}")?;
                }
            }
            UciMessage::Position {
                startpos: _,
                fen,
                moves,
            } => match Game::from_uci(fen.as_ref(), &moves) {
                Ok(game) => self.game = game,
                Err(reason) => writeln!(out, "info string position ignored: {reason}")?,
            },
            UciMessage::Stop => {
                if let Some(s) = &self.search {
                    s.stop.store(true, Ordering::Relaxed);
                }
            }
            UciMessage::Quit => return Ok(false),
            _ => {}
        }
        out.flush()?;
        Ok(true)
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let Some(e) = self.engines.as_mut() else {
            return Err(OptionError::Busy);
        };
        e.set_option(name, value)
    }

    /// Starts a search on its own thread.
    fn go(&mut self, limits: Limits, infinite: bool) {
        let Some(mut engines) = self.engines.take() else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game.clone();
        let tx = self.tx.clone();
        let flag = Arc::clone(&stop);
        self.searches += 1;
        let id = self.searches;
        let spawned = thread::Builder::new()
            .name("uci search".into())
            .spawn(move || {
                search(&mut engines, &game, &limits, infinite, &flag, &tx);
                let _ = tx.send(Event::Finished(id));
                engines
            });
        match spawned {
            Ok(thread) => {
                self.search = Some(RunningSearch {
                    id,
                    infinite,
                    stop,
                    thread,
                });
            }
            Err(_) => {
                // No thread for the search (out of resources): answer, and start over
                // with fresh engines, as the old ones went down with the closure.
                let _ = self.tx.send(Event::Output("bestmove (none)".into()));
                self.engines = Some(Engines::new(self.options.clone()));
            }
        }
    }

    /// Takes the engines back from a finished search thread.
    fn join(&mut self) {
        if let Some(s) = self.search.take()
            && let Ok(engines) = s.thread.join()
        {
            self.engines = Some(engines);
        }
    }

    /// Stops a running search and waits for it.
    fn stop(&mut self) {
        if let Some(s) = &self.search {
            s.stop.store(true, Ordering::Relaxed);
        }
        self.join();
    }
}

/// The search thread: report every info, then the best move (after `stop` when the
/// search was infinite, as UCI requires).
fn search(
    engines: &mut Engines,
    game: &Game,
    limits: &Limits,
    infinite: bool,
    stop: &AtomicBool,
    tx: &Sender<Event>,
) {
    let mut on_info = |info: &SearchInfo| {
        let _ = tx.send(Event::Output(UciMessage::Info(info.to_uci()).to_string()));
    };
    let (engine, limits, problem) = engines.current(limits);
    if let Some(reason) = problem {
        let _ = tx.send(Event::Output(format!("info string {reason}")));
    }
    let result = engine
        .search(Search {
            game,
            limits: &limits,
            stop,
            on_info: &mut on_info,
        })
        .unwrap_or_default();
    while infinite && !stop.load(Ordering::Relaxed) {
        thread::sleep(Duration::from_millis(2));
    }
    let line = match result.best {
        Some(m) => UciMessage::BestMove {
            best_move: m.to_uci(CastlingMode::Standard),
            ponder: result.ponder.map(|p| p.to_uci(CastlingMode::Standard)),
        }
        .to_string(),
        None => "bestmove (none)".to_string(),
    };
    let _ = tx.send(Event::Output(line));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn session(script: &str) -> String {
        let mut out = Vec::new();
        serve(Cursor::new(script.to_string().into_bytes()), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn in_process_session_answers_handshake_and_search() {
        let out = session("uci\nisready\nposition startpos moves e2e4\ngo depth 2\n");
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines.contains(&"uciok") && lines.contains(&"readyok"),
            "{out}"
        );
        assert!(lines.last().unwrap().starts_with("bestmove "), "{out}");
    }

    #[test]
    fn end_of_input_stops_an_infinite_search() {
        let out = session("position startpos\ngo infinite\n");
        assert!(
            out.lines().last().unwrap().starts_with("bestmove "),
            "{out}"
        );
    }

    #[test]
    fn quit_ends_the_session_without_waiting_for_the_input() {
        let out = session("isready\nquit\nisready\n");
        assert_eq!(out, "readyok\n");
    }
}
