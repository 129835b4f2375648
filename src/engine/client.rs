//! The UCI client: talks to an engine process (Stockfish, `hastings uci`, any UCI
//! engine) and implements [`Engine`] for it.
//!
//! Every wait has a timeout ([`Timeouts`]). An engine that exits, hangs, floods
//! non-UCI lines or plays an illegal move gives an [`EngineError`] and is not used
//! again (later calls give [`EngineError::Dead`]); its process ends when the
//! [`UciEngine`] is dropped.
//!
//! ```no_run
//! use std::sync::atomic::AtomicBool;
//! use hastings::engine::{Engine, Game, Limits, Search, Strength, UciEngine};
//!
//! let path = hastings::engine::discover::stockfish().expect("Stockfish installed");
//! let mut sf = UciEngine::start(&path)?;
//! sf.set_strength(Strength::Skill(5))?;
//! let result = sf.search(Search {
//!     game: &Game::default(),
//!     limits: &Limits::movetime_ms(100)?,
//!     stop: &AtomicBool::new(false),
//!     on_info: &mut |_| {},
//! })?;
//! println!("{:?}", result.best);
//! # Ok::<(), hastings::engine::EngineError>(())
//! ```

use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::{EnPassantMode, Position};
use shakmaty_uci::{UciMessage, UciOptionConfig, UciSearchControl, UciTimeControl};

use super::Engine;
use super::Search;
use super::error::EngineError;
use super::game::Game;
use super::info::{SearchInfo, SearchResult};
use super::limits::Limits;
use super::process::EngineProcess;
use super::protocol::EngineLine;
use super::strength::{MAX_SKILL, Strength};

/// How many non-UCI lines in a row make an engine "printing garbage".
pub const MAX_GARBAGE_LINES: usize = 200;

/// How long to wait for each answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// From start to `uciok` (Stockfish loads its network first).
    pub handshake: Duration,
    /// From `isready` to `readyok`.
    pub ready: Duration,
    /// From `stop` to `bestmove`.
    pub stop: Duration,
    /// Beyond `movetime`, until `bestmove`.
    pub grace: Duration,
    /// For a search without a time limit (depth, nodes or infinite), until `bestmove`.
    pub unlimited: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            handshake: Duration::from_secs(10),
            ready: Duration::from_secs(5),
            stop: Duration::from_secs(2),
            grace: Duration::from_secs(3),
            unlimited: Duration::from_secs(30 * 60),
        }
    }
}

/// A UCI engine process after a successful handshake.
#[derive(Debug)]
pub struct UciEngine {
    process: EngineProcess,
    author: Option<String>,
    options: Vec<UciOptionConfig>,
    timeouts: Timeouts,
    /// The error that ended this engine, if one did.
    failed: bool,
}

impl UciEngine {
    /// Starts the engine at `path` and does the handshake (`uci` … `uciok`, `isready`
    /// … `readyok`), with default timeouts.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when it cannot be started or does not answer.
    pub fn start(path: &Path) -> Result<UciEngine, EngineError> {
        UciEngine::start_with(path, &[], Timeouts::default())
    }

    /// Starts `path args…` and does the handshake.
    ///
    /// # Errors
    ///
    /// As [`UciEngine::start`].
    pub fn start_with(
        path: &Path,
        args: &[String],
        timeouts: Timeouts,
    ) -> Result<UciEngine, EngineError> {
        let process = EngineProcess::spawn(path, args)?;
        let mut engine = UciEngine {
            process,
            author: None,
            options: Vec::new(),
            timeouts,
            failed: false,
        };
        engine.send(&UciMessage::Uci.to_string())?;
        let mut name = None;
        let mut author = None;
        let mut options = Vec::new();
        engine.wait_for("uciok", timeouts.handshake, |line| match line {
            EngineLine::Id { name: n, author: a } => {
                name = n.or(name.take());
                author = a.or(author.take());
                None
            }
            EngineLine::Option(o) => {
                options.push(o);
                None
            }
            EngineLine::UciOk => Some(()),
            _ => None,
        })?;
        if let Some(name) = name {
            engine.process.name = name;
        }
        engine.author = author;
        engine.options = options;
        engine.is_ready()?;
        Ok(engine)
    }

    /// The author the engine named.
    pub fn author(&self) -> Option<&str> {
        self.author.as_deref()
    }

    /// The options the engine declared.
    pub fn options(&self) -> &[UciOptionConfig] {
        &self.options
    }

    /// The declared option called `name` (UCI option names are case-insensitive).
    pub fn option(&self, name: &str) -> Option<&UciOptionConfig> {
        self.options
            .iter()
            .find(|o| o.get_name().eq_ignore_ascii_case(name))
    }

    /// The process id (tests kill engines from outside with it).
    pub fn pid(&self) -> u32 {
        self.process.id()
    }

    /// Whether an earlier error ended this engine.
    pub fn is_dead(&self) -> bool {
        self.failed
    }

    /// Sends `isready` and waits for `readyok`.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when the engine does not answer in time.
    pub fn is_ready(&mut self) -> Result<(), EngineError> {
        self.send(&UciMessage::IsReady.to_string())?;
        self.wait_for("readyok", self.timeouts.ready, |line| {
            (line == EngineLine::ReadyOk).then_some(())
        })
    }

    /// Sets an option the engine declared (`setoption name … value …`), checking a
    /// spin value against its range, then syncs with `isready`.
    ///
    /// # Errors
    ///
    /// [`EngineError::Option`] for an unknown option or a value out of range; a process
    /// error when the engine does not answer.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let engine = self.process.name.clone();
        let Some(option) = self.option(name) else {
            return Err(EngineError::Option {
                engine,
                reason: format!("no option `{name}`"),
            });
        };
        if let UciOptionConfig::Spin { min, max, .. } = option {
            let v: i64 = value.trim().parse().map_err(|_| EngineError::Option {
                engine: engine.clone(),
                reason: format!("option `{name}` takes a number, not `{value}`"),
            })?;
            if min.is_some_and(|m| v < m) || max.is_some_and(|m| v > m) {
                return Err(EngineError::Option {
                    engine,
                    reason: format!(
                        "option `{name}` must be between {} and {}, not {v}",
                        min.map_or("-∞".into(), |m| m.to_string()),
                        max.map_or("∞".into(), |m| m.to_string())
                    ),
                });
            }
        }
        let message = UciMessage::SetOption {
            name: option.get_name().to_string(),
            value: Some(value.to_string()),
        };
        self.send(&message.to_string())?;
        self.is_ready()
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.failed {
            return Err(EngineError::Dead {
                engine: self.process.name.clone(),
            });
        }
        self.process.send(line).inspect_err(|_| self.failed = true)
    }

    /// Reads lines until `accept` returns a value, for at most `timeout`.
    fn wait_for<T>(
        &mut self,
        waiting_for: &'static str,
        timeout: Duration,
        mut accept: impl FnMut(EngineLine) -> Option<T>,
    ) -> Result<T, EngineError> {
        let deadline = Instant::now() + timeout;
        let mut garbage = 0;
        loop {
            let line = self.recv(deadline, waiting_for)?;
            let Some(line) = line else {
                self.failed = true;
                return Err(self.process.timeout(waiting_for, timeout));
            };
            self.count_garbage(&line, &mut garbage)?;
            if let Some(v) = accept(line) {
                return Ok(v);
            }
        }
    }

    fn recv(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
    ) -> Result<Option<EngineLine>, EngineError> {
        self.process
            .recv_until(deadline, waiting_for)
            .inspect_err(|_| self.failed = true)
    }

    fn count_garbage(&mut self, line: &EngineLine, count: &mut usize) -> Result<(), EngineError> {
        let EngineLine::Other(text) = line else {
            *count = 0;
            return Ok(());
        };
        *count += 1;
        if *count >= MAX_GARBAGE_LINES {
            self.failed = true;
            return Err(EngineError::Garbage {
                engine: self.process.name.clone(),
                count: *count,
                example: text.chars().take(80).collect(),
            });
        }
        Ok(())
    }

    fn go_message(limits: &Limits) -> UciMessage {
        let search_control = (limits.depth_limit().is_some() || limits.nodes_limit().is_some())
            .then(|| UciSearchControl {
                depth: limits
                    .depth_limit()
                    .map(|d| u8::try_from(d).unwrap_or(u8::MAX)),
                nodes: limits.nodes_limit(),
                ..UciSearchControl::default()
            });
        let time_control = match limits.movetime_limit() {
            Some(t) => Some(UciTimeControl::MoveTime(t)),
            None if limits.is_infinite() => Some(UciTimeControl::Infinite),
            None => None,
        };
        UciMessage::Go {
            time_control,
            search_control,
        }
    }

    fn illegal(&self, game: &Game, uci: String) -> EngineError {
        EngineError::IllegalMove {
            engine: self.process.name.clone(),
            uci,
            fen: Fen::from_position(game.position(), EnPassantMode::Legal).to_string(),
        }
    }
}

impl Engine for UciEngine {
    fn name(&self) -> String {
        self.process.name.clone()
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.send(&UciMessage::UciNewGame.to_string())?;
        self.is_ready()
    }

    /// `Full` resets `UCI_LimitStrength` and `Skill Level` where the engine has them;
    /// `Skill(n)` sets `Skill Level`; `Elo(e)` sets `UCI_LimitStrength` and `UCI_Elo`
    /// (Stockfish accepts 1350–2850).
    fn set_strength(&mut self, strength: Strength) -> Result<(), EngineError> {
        let limit = self.option("UCI_LimitStrength").is_some();
        match strength {
            Strength::Full => {
                if limit {
                    self.set_option("UCI_LimitStrength", "false")?;
                }
                if self.option("Skill Level").is_some() {
                    self.set_option("Skill Level", &MAX_SKILL.to_string())?;
                }
                Ok(())
            }
            Strength::Skill(level) => {
                if limit {
                    self.set_option("UCI_LimitStrength", "false")?;
                }
                self.set_option("Skill Level", &level.to_string())
            }
            Strength::Elo(elo) => {
                self.set_option("UCI_LimitStrength", "true")?;
                self.set_option("UCI_Elo", &elo.to_string())
            }
        }
    }

    fn search(&mut self, search: Search<'_>) -> Result<SearchResult, EngineError> {
        let (game, limits, stop, on_info) = search.into_parts();
        self.send(&game.to_uci().to_string())?;
        self.send(&Self::go_message(limits).to_string())?;
        let started = Instant::now();
        let mut deadline = started
            + match limits.movetime_limit() {
                Some(t) => t + self.timeouts.grace,
                None => self.timeouts.unlimited,
            };
        let mut stop_sent = false;
        let mut garbage = 0;
        let mut last: Option<SearchInfo> = None;
        let pos = game.position();
        loop {
            if !stop_sent && stop.load(Ordering::Relaxed) {
                self.send(&UciMessage::Stop.to_string())?;
                stop_sent = true;
                deadline = deadline.min(Instant::now() + self.timeouts.stop);
            }
            let slice = deadline.min(Instant::now() + Duration::from_millis(10));
            let Some(line) = self.recv(slice, "bestmove")? else {
                if Instant::now() >= deadline {
                    self.failed = true;
                    return Err(self.process.timeout("bestmove", started.elapsed()));
                }
                continue;
            };
            self.count_garbage(&line, &mut garbage)?;
            match line {
                EngineLine::Info { info, .. } => {
                    if let Some(report) = SearchInfo::from_uci(&info, pos) {
                        on_info(&report);
                        if report.multipv <= 1 && report.score.is_some() {
                            last = Some(report);
                        }
                    }
                }
                EngineLine::BestMove { best, ponder } => {
                    let legal = pos.legal_moves();
                    let best = match best {
                        None if legal.is_empty() => None,
                        None => return Err(self.illegal(game, "(none)".into())),
                        Some(uci) => match uci.to_move(pos) {
                            Ok(m) => Some(m),
                            Err(_) => {
                                self.failed = true;
                                return Err(self.illegal(game, uci.to_string()));
                            }
                        },
                    };
                    let ponder = best.zip(ponder).and_then(|(m, p)| {
                        let mut after = pos.clone();
                        after.play_unchecked(m);
                        p.to_move(&after).ok()
                    });
                    return Ok(SearchResult {
                        best,
                        ponder,
                        info: last,
                    });
                }
                _ => {}
            }
        }
    }
}
