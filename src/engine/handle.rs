//! A background engine for the window: searches run on a worker thread and report
//! over a channel, so the UI thread never waits for an engine.
//!
//! The worker owns one [`Engine`]: the built-in α-β or MCTS in-process, or a UCI engine
//! process (Stockfish, or `hastings uci` itself). When a UCI engine fails — it could
//! not start, crashed, hung or played an illegal move — the worker reports
//! [`EngineEvent::FellBack`], replaces it by the built-in α-β engine and repeats the
//! search, so a reply still comes.
//!
//! A worker that dies (a panic in an in-process engine, or a thread that could not be
//! started) is not silence: the handle reports [`EngineEvent::Died`] with a
//! [`WorkerGone`], once, and again for each search or task asked for after it, so a
//! caller waiting for an answer learns that none will come.
//!
//! Besides searches, a handle runs [`EngineTask`]s: work of its own with the engine on
//! the worker thread (analysing a few positions with [`analyse`](super::analysis::analyse),
//! looking in a cache first), which reports by its own means.
//!
//! ```no_run
//! use hastings::engine::{EngineChoice, EngineEvent, EngineHandle, Game, Limits, Strength};
//!
//! let mut engine = EngineHandle::spawn(EngineChoice::Builtin(Strength::Skill(10)));
//! let id = engine.search(Game::default(), Limits::movetime_ms(200).unwrap());
//! // In the UI's per-frame logic: drain without blocking.
//! while let Some(event) = engine.try_recv() {
//!     match event {
//!         EngineEvent::Info { search, info } if search == id => { /* eval bar, arrow */ }
//!         EngineEvent::BestMove { search, result } if search == id => { /* play it */ }
//!         _ => {}
//!     }
//! }
//! ```

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use thiserror::Error;

use super::Engine;
use super::Search;
use super::alphabeta::AlphaBeta;
use super::blend::{Blend, BlendSettings};
use super::client::{Timeouts, UciEngine};
use super::error::EngineError;
use super::game::Game;
use super::human::HumanLike;
use super::info::{SearchInfo, SearchResult};
use super::limits::Limits;
use super::mcts::Mcts;
use super::opponent::{PLAYING, WithAnalyst};
use super::predictor::Predictor;
use super::strength::Strength;
use super::tuned::TunedEval;

/// Which engine a handle runs.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineChoice {
    /// The built-in α-β engine, in-process.
    Builtin(Strength),
    /// The built-in MCTS engine, in-process.
    Mcts,
    /// The human-like engine (the move predictor sampled at `temperature`), in-process;
    /// it analyses with the built-in α-β engine.
    Human {
        /// Its temperature.
        temperature: f64,
        /// The seed of its random choices.
        seed: u64,
    },
    /// Seed 003's blend of the tuned evaluation and the move predictor, in-process;
    /// it analyses with the built-in α-β engine.
    Blend(BlendSettings),
    /// A UCI engine process: `path args…`, set to `strength`.
    Uci {
        /// The program.
        path: PathBuf,
        /// Its arguments (`["uci"]` for `hastings uci`).
        args: Vec<String>,
        /// The strength to set after the handshake.
        strength: Strength,
    },
}

impl EngineChoice {
    /// The built-in engine as a separate process (`hastings uci` of this very binary).
    ///
    /// # Errors
    ///
    /// When the running program's path cannot be found.
    pub fn hastings_process(strength: Strength) -> std::io::Result<EngineChoice> {
        Ok(EngineChoice::Uci {
            path: std::env::current_exe()?,
            args: vec!["uci".to_string()],
            strength,
        })
    }
}

/// Numbers a search so late events of an old search can be told apart.
pub type SearchId = u64;

/// What the worker reports.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineEvent {
    /// The engine is ready (after a UCI handshake): its name, and the process id of a
    /// UCI engine.
    Ready {
        /// The engine's name.
        name: String,
        /// The engine process's id, for a UCI engine.
        pid: Option<u32>,
    },
    /// A progress report of a search.
    Info {
        /// Which search.
        search: SearchId,
        /// The report.
        info: SearchInfo,
    },
    /// A search ended.
    BestMove {
        /// Which search.
        search: SearchId,
        /// The move and the last report.
        result: SearchResult,
    },
    /// The chosen engine failed and the built-in α-β engine took over.
    FellBack {
        /// The engine that failed.
        engine: String,
        /// What happened.
        error: String,
    },
    /// A setting could not be applied (the engine keeps running).
    Warning(String),
    /// The worker thread is gone: no search or task is answered any more (a new handle
    /// is needed). Sent once when it is found, and once more for each request after.
    Died(WorkerGone),
}

/// Why a handle's worker thread is gone.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum WorkerGone {
    /// The thread could not be started (the system is out of threads or memory).
    #[error("the engine's thread could not be started: {0}")]
    NotStarted(String),
    /// The engine panicked (a bug): the message of the panic.
    #[error("the engine failed: its thread panicked ({0})")]
    Panicked(String),
    /// The thread ended without being asked to.
    #[error("the engine's thread ended")]
    Ended,
}

/// What a task is told besides its engine (see [`EngineTask`]).
#[derive(Debug)]
pub struct TaskContext<'a> {
    /// Set when the task should end early (another search or task was asked for, or
    /// the handle is dropped).
    pub stop: &'a AtomicBool,
    /// Whether the engine is the built-in α-β standing in for the chosen one, which
    /// failed: what it finds is not the chosen engine's (a cache scoped to that engine
    /// should not keep it).
    pub replaced: bool,
}

/// Work run on the engine's thread with its engine (see [`EngineHandle::run`]). It
/// reports by its own means (a channel it owns). When it fails with a UCI engine, the
/// handle falls back to the built-in α-β engine and runs it again, so it must be ready
/// to start over.
pub type EngineTask =
    Box<dyn FnMut(&mut dyn Engine, &TaskContext<'_>) -> Result<(), EngineError> + Send>;

enum Request {
    Search {
        id: SearchId,
        game: Box<Game>,
        limits: Limits,
        stop: Arc<AtomicBool>,
    },
    Run {
        task: EngineTask,
        stop: Arc<AtomicBool>,
    },
    SetStrength(Strength),
    Quit,
}

/// An engine on a worker thread. Dropping it stops the search and ends the engine
/// (a UCI process is told to quit, then killed).
#[derive(Debug)]
pub struct EngineHandle {
    requests: Sender<Request>,
    events: Receiver<EngineEvent>,
    current_stop: Option<Arc<AtomicBool>>,
    next_id: SearchId,
    worker: Mutex<Option<JoinHandle<()>>>,
    /// Why the worker could not be started, if it could not.
    spawn_error: Option<String>,
    /// Why the worker is gone, once that is found.
    gone: OnceLock<WorkerGone>,
    /// Whether [`EngineEvent::Died`] is still to be reported: at first, and after each
    /// request sent to a dead worker.
    death_owed: AtomicBool,
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Request::Search { id, .. } => write!(f, "Search({id})"),
            Request::Run { .. } => write!(f, "Run"),
            Request::SetStrength(s) => write!(f, "SetStrength({s:?})"),
            Request::Quit => write!(f, "Quit"),
        }
    }
}

impl EngineHandle {
    /// Starts the worker; the engine starts on it (a UCI handshake never blocks the
    /// caller). [`EngineEvent::Ready`] or [`EngineEvent::FellBack`] tells how it went.
    pub fn spawn(choice: EngineChoice) -> EngineHandle {
        EngineHandle::spawn_waking(choice, Arc::new(|| {}))
    }

    /// As [`EngineHandle::spawn`], calling `wake` after each event but the search
    /// reports ([`EngineEvent::Info`]): after a best move, when the engine is ready or
    /// fell back, after a warning. A window repaints then instead of at its next tick.
    pub fn spawn_waking(choice: EngineChoice, wake: Arc<dyn Fn() + Send + Sync>) -> EngineHandle {
        let strength = match &choice {
            EngineChoice::Builtin(s) | EngineChoice::Uci { strength: s, .. } => *s,
            EngineChoice::Mcts => Strength::Full,
            EngineChoice::Human { .. } | EngineChoice::Blend(_) => PLAYING,
        };
        EngineHandle::spawn_with(move |outbox| start(&choice, outbox), strength, wake)
    }

    /// A handle running `engine` as it is (tests give a stub engine answering fixed
    /// evaluations). It is in-process, so nothing falls back.
    pub fn spawn_engine(
        engine: Box<dyn Engine>,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> EngineHandle {
        let start = move |outbox: &Sender<EngineEvent>| in_process(engine, outbox);
        EngineHandle::spawn_with(start, Strength::Full, wake)
    }

    fn spawn_with(
        start: impl FnOnce(&Sender<EngineEvent>) -> Current + Send + 'static,
        strength: Strength,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> EngineHandle {
        let (requests, inbox) = mpsc::channel();
        let (outbox, events) = mpsc::channel();
        let worker = thread::Builder::new()
            .name("engine worker".into())
            .spawn(move || {
                // A window's first frame does not wait for the engine's start.
                crate::job::first_frame::after_first_frame();
                let current = start(&outbox);
                wake();
                work(current, strength, &inbox, &outbox, &*wake);
            });
        let (worker, spawn_error) = match worker {
            Ok(w) => (Some(w), None),
            Err(e) => (None, Some(e.to_string())),
        };
        EngineHandle {
            requests,
            events,
            current_stop: None,
            next_id: 0,
            worker: Mutex::new(worker),
            spawn_error,
            gone: OnceLock::new(),
            death_owed: AtomicBool::new(true),
        }
    }

    /// Sends a request; one to a dead worker owes the caller a [`EngineEvent::Died`].
    fn send(&self, request: Request) {
        if self.requests.send(request).is_err() {
            self.death_owed.store(true, Ordering::SeqCst);
        }
    }

    /// [`EngineEvent::Died`] when it is owed (the event channel is closed: the worker
    /// is gone).
    fn death_notice(&self) -> Option<EngineEvent> {
        let gone = self.gone.get_or_init(|| self.why_gone());
        self.death_owed
            .swap(false, Ordering::SeqCst)
            .then(|| EngineEvent::Died(gone.clone()))
    }

    /// Joins the dead worker to learn why it ended.
    fn why_gone(&self) -> WorkerGone {
        let worker = self.worker.lock().ok().and_then(|mut w| w.take());
        match worker.map(JoinHandle::join) {
            None => WorkerGone::NotStarted(self.spawn_error.clone().unwrap_or_default()),
            Some(Ok(())) => WorkerGone::Ended,
            Some(Err(payload)) => WorkerGone::Panicked(
                payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".to_owned()),
            ),
        }
    }

    /// The reason the worker is gone, once an event said so ([`EngineEvent::Died`]).
    pub fn gone(&self) -> Option<&WorkerGone> {
        self.gone.get()
    }

    /// Starts a search of `game`'s position (stopping the previous one) and returns
    /// its number.
    pub fn search(&mut self, game: Game, limits: Limits) -> SearchId {
        self.stop();
        self.next_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        self.current_stop = Some(Arc::clone(&stop));
        self.send(Request::Search {
            id: self.next_id,
            game: Box::new(game),
            limits,
            stop,
        });
        self.next_id
    }

    /// Runs `task` on the engine's thread after the requests before it (stopping the
    /// running search or task); the worker calls the wake-up function when it is done.
    pub fn run(&mut self, task: EngineTask) {
        self.stop();
        let stop = Arc::new(AtomicBool::new(false));
        self.current_stop = Some(Arc::clone(&stop));
        self.send(Request::Run { task, stop });
    }

    /// Stops the running search; its [`EngineEvent::BestMove`] follows soon.
    pub fn stop(&mut self) {
        if let Some(stop) = self.current_stop.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Changes the strength for the next searches.
    pub fn set_strength(&self, strength: Strength) {
        self.send(Request::SetStrength(strength));
    }

    /// The next event, if one is waiting ([`EngineEvent::Died`] when the worker is
    /// gone and that was not told yet).
    pub fn try_recv(&self) -> Option<EngineEvent> {
        match self.events.try_recv() {
            Ok(event) => Some(event),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => self.death_notice(),
        }
    }

    /// The next event, waiting at most `timeout` ([`EngineEvent::Died`] at once when
    /// the worker is gone and that was not told yet; `None` at once after).
    pub fn recv_timeout(&self, timeout: Duration) -> Option<EngineEvent> {
        match self.events.recv_timeout(timeout) {
            Ok(event) => Some(event),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => self.death_notice(),
        }
    }
}

impl Drop for EngineHandle {
    fn drop(&mut self) {
        self.stop();
        let _ = self.requests.send(Request::Quit);
        if let Some(worker) = self.worker.get_mut().ok().and_then(Option::take) {
            let _ = worker.join();
        }
    }
}

/// The engine a worker runs, whether it can fail (so a fallback makes sense), and
/// whether it stands in for a chosen engine that failed.
struct Current {
    engine: Box<dyn Engine>,
    is_process: bool,
    replaced: bool,
}

fn fallback(strength: Strength) -> Current {
    let mut engine = AlphaBeta::default();
    if let Strength::Skill(level) = strength {
        engine.set_skill(level);
    }
    Current {
        engine: Box::new(engine),
        is_process: false,
        replaced: false,
    }
}

/// An in-process engine, announced.
fn in_process(engine: Box<dyn Engine>, outbox: &Sender<EngineEvent>) -> Current {
    let current = Current {
        engine,
        is_process: false,
        replaced: false,
    };
    announce(&current, None, outbox);
    current
}

/// The blend with the shipped tuned weights and predictor (the predictor only when λ
/// is above 0).
fn blend(settings: &BlendSettings) -> Result<Blend, EngineError> {
    let eval = TunedEval::shipped().map_err(|e| EngineError::TunedWeights(e.to_string()))?;
    let predictor = if settings.lambda > 0.0 {
        Some(Predictor::shared().map_err(|e| EngineError::Predictor(e.to_string()))?)
    } else {
        None
    };
    Ok(Blend::new(eval, predictor, *settings, 0))
}

/// Starts the chosen engine; a UCI engine that fails to start is replaced.
fn start(choice: &EngineChoice, outbox: &Sender<EngineEvent>) -> Current {
    match choice {
        EngineChoice::Builtin(strength) => {
            let mut current = fallback(*strength);
            if let Err(e) = current.engine.set_strength(*strength) {
                let _ = outbox.send(EngineEvent::Warning(e.to_string()));
            }
            announce(&current, None, outbox);
            current
        }
        EngineChoice::Mcts => in_process(Box::new(Mcts::default()), outbox),
        EngineChoice::Human { temperature, seed } => match Predictor::shared() {
            Ok(predictor) => {
                let human = HumanLike::new(predictor, *temperature, *seed);
                in_process(Box::new(WithAnalyst::new(human)), outbox)
            }
            Err(e) => fall_back(
                "Human-like",
                &EngineError::Predictor(e.to_string()),
                Strength::Full,
                outbox,
            ),
        },
        EngineChoice::Blend(settings) => match blend(settings) {
            Ok(engine) => in_process(Box::new(WithAnalyst::new(engine)), outbox),
            Err(e) => fall_back("The seed-003 blend", &e, Strength::Full, outbox),
        },
        EngineChoice::Uci {
            path,
            args,
            strength,
        } => {
            let started =
                UciEngine::start_with(path, args, Timeouts::default()).and_then(|mut e| {
                    e.set_strength(*strength)?;
                    Ok(e)
                });
            match started {
                Ok(engine) => {
                    let pid = engine.pid();
                    let current = Current {
                        engine: Box::new(engine),
                        is_process: true,
                        replaced: false,
                    };
                    announce(&current, Some(pid), outbox);
                    current
                }
                Err(e) => fall_back(&path.display().to_string(), &e, *strength, outbox),
            }
        }
    }
}

fn announce(current: &Current, pid: Option<u32>, outbox: &Sender<EngineEvent>) {
    let _ = outbox.send(EngineEvent::Ready {
        name: current.engine.name(),
        pid,
    });
}

fn fall_back(
    engine: &str,
    error: &EngineError,
    strength: Strength,
    outbox: &Sender<EngineEvent>,
) -> Current {
    let _ = outbox.send(EngineEvent::FellBack {
        engine: engine.to_string(),
        error: error.to_string(),
    });
    let current = Current {
        replaced: true,
        ..fallback(strength)
    };
    announce(&current, None, outbox);
    current
}

/// The worker: serves requests until `Quit` or the handle is gone. `strength` is the
/// fallback's.
fn work(
    mut current: Current,
    strength: Strength,
    inbox: &Receiver<Request>,
    outbox: &Sender<EngineEvent>,
    wake: &(dyn Fn() + Send + Sync),
) {
    while let Ok(request) = inbox.recv() {
        match request {
            Request::Search {
                id,
                game,
                limits,
                stop,
            } => {
                let mut on_info = |info: &SearchInfo| {
                    let _ = outbox.send(EngineEvent::Info {
                        search: id,
                        info: info.clone(),
                    });
                };
                let result = match current.engine.search(Search {
                    game: &game,
                    limits: &limits,
                    stop: &stop,
                    on_info: &mut on_info,
                }) {
                    Ok(result) => result,
                    Err(e) => {
                        let name = current.engine.name();
                        current = fall_back(&name, &e, strength, outbox);
                        current
                            .engine
                            .search(Search {
                                game: &game,
                                limits: &limits,
                                stop: &stop,
                                on_info: &mut on_info,
                            })
                            .unwrap_or_default()
                    }
                };
                let _ = outbox.send(EngineEvent::BestMove { search: id, result });
                wake();
            }
            Request::Run { mut task, stop } => {
                current = run_task(current, &mut task, &stop, strength, outbox);
                wake();
            }
            Request::SetStrength(s) => {
                if let Err(e) = current.engine.set_strength(s) {
                    if current.is_process && !matches!(e, EngineError::Option { .. }) {
                        let name = current.engine.name();
                        current = fall_back(&name, &e, s, outbox);
                    } else {
                        let _ = outbox.send(EngineEvent::Warning(e.to_string()));
                    }
                    wake();
                }
            }
            Request::Quit => break,
        }
    }
}

/// Runs a task; when a UCI engine fails it, falls back and runs it again. A task that
/// fails on the built-in engine (it never does) is reported as a warning.
fn run_task(
    mut current: Current,
    task: &mut EngineTask,
    stop: &AtomicBool,
    strength: Strength,
    outbox: &Sender<EngineEvent>,
) -> Current {
    let context = TaskContext {
        stop,
        replaced: current.replaced,
    };
    let Err(e) = task(&mut *current.engine, &context) else {
        return current;
    };
    if current.is_process {
        let name = current.engine.name();
        current = fall_back(&name, &e, strength, outbox);
        let context = TaskContext {
            stop,
            replaced: true,
        };
        if let Err(e) = task(&mut *current.engine, &context) {
            let _ = outbox.send(EngineEvent::Warning(e.to_string()));
        }
    } else {
        let _ = outbox.send(EngineEvent::Warning(e.to_string()));
    }
    current
}
