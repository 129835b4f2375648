//! [`PlayOn`]: a play-on game driven by an engine on a background thread.
//!
//! On the engine's turn it searches with the chosen strength and time per move and
//! plays the move it returns; on the learner's turn it analyses the position at full
//! strength for a few seconds, for the eval bar and the best-move arrow. Every search
//! runs on the [`EngineHandle`]'s worker thread; [`PlayOn::poll`] only drains its
//! channel, so the caller (the window, once a frame) never waits. When a UCI engine
//! fails, the handle replaces it by the built-in α-β engine and repeats the search;
//! [`PlayOnEvent::FellBack`] says so and the game goes on.

use std::sync::Arc;
use std::thread;
use std::time::Duration;

use shakmaty::{Color, KnownOutcome, Move, Position};

use super::{PlayOnError, PlayOnGame, Turn};
use crate::engine::adjudicate::GameEnd;
use crate::engine::handle::SearchId;
use crate::engine::opponent::PLAYING;
use crate::engine::{EngineChoice, EngineEvent, EngineHandle, Limits, Score, Strength};
use crate::job::Wake;
use crate::trainer::spar::{Spar, SparSource};

/// How long the engine analyses the learner's position (at full strength).
pub const ANALYSIS_TIME: Duration = Duration::from_secs(5);

/// The most events one [`PlayOn::poll`] takes from the channel (the rest wait for the
/// next call), so that a chatty engine cannot hold up a frame.
const EVENTS_PER_POLL: usize = 500;

/// The engine the learner plays against.
#[derive(Debug, Clone, PartialEq)]
pub struct Opponent {
    /// Which engine, with its strength.
    pub choice: EngineChoice,
    /// Time per move.
    pub movetime: Duration,
}

impl Opponent {
    /// The engine's strength setting, if it has one (the MCTS engine has none).
    fn strength(&self) -> Option<Strength> {
        match &self.choice {
            EngineChoice::Builtin(s) | EngineChoice::Uci { strength: s, .. } => Some(*s),
            EngineChoice::Mcts => None,
            // They play their own moves below full strength and analyse at full.
            EngineChoice::Human { .. } | EngineChoice::Blend(_) => Some(PLAYING),
        }
    }
}

/// What a search is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchKind {
    /// The engine's move, at the chosen strength.
    Move,
    /// The learner's position, at full strength.
    Analysis,
}

/// The latest evaluation, for the eval bar and the arrow.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// The score from the learner's side.
    pub score: Score,
    /// The depth searched.
    pub depth: u32,
    /// The principal variation from the position evaluated.
    pub pv: Vec<Move>,
    /// The number of moves of the game at the position evaluated.
    pub plies: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second, when the engine says.
    pub nps: Option<u64>,
}

/// What [`PlayOn::poll`] found.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayOnEvent {
    /// The engine started.
    Ready {
        /// Its name.
        name: String,
        /// The process id of a UCI engine.
        pid: Option<u32>,
    },
    /// The engine played a move (SAN).
    EngineMoved(String),
    /// Sparring: the explorer's games no longer choose, the model plays on (the
    /// announcement, once a game).
    SparSwitched(String),
    /// The chosen engine failed and the built-in α-β engine took over.
    FellBack {
        /// The engine that failed.
        engine: String,
        /// What happened.
        error: String,
    },
    /// A setting could not be applied, or the engine gave no usable move.
    Warning(String),
    /// The game ended.
    GameOver(GameEnd),
}

/// The search running now.
#[derive(Debug, Clone, Copy)]
struct Running {
    id: SearchId,
    kind: SearchKind,
    /// The side to move in the searched position (engines score from its side).
    turn: Color,
    plies: usize,
}

/// A window's wake-up call (it has no `Debug` of its own).
struct WakeUp(Wake);

impl std::fmt::Debug for WakeUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WakeUp")
    }
}

/// A play-on game and the engine playing it.
#[derive(Debug)]
pub struct PlayOn {
    /// Called by the engine's thread when there is something to draw.
    wake: WakeUp,
    game: PlayOnGame,
    opponent: Opponent,
    handle: Option<EngineHandle>,
    engine_name: String,
    /// The engines that played a move of the game, each once, in the order they
    /// first played.
    players: Vec<String>,
    running: Option<Running>,
    eval: Option<Evaluation>,
    /// The strength the engine is set to now (`None`: it has no setting).
    set_to: Option<Strength>,
    /// Sparring: the games of a band choose the engine's moves while enough reach the
    /// position, then the engine (the human-like model) plays.
    spar: Option<Spar>,
    /// Where each of the engine's moves came from while sparring: its ply and source.
    sources: Vec<(usize, SparSource)>,
    /// Where the engine's move being searched for comes from (sparring: the model).
    searching_source: Option<SparSource>,
    /// Events of moves played at once (the explorer's), for the next poll.
    pending: Vec<PlayOnEvent>,
}

impl PlayOn {
    /// Starts the engine (on its own thread) and, on its turn, its first search; on the
    /// learner's turn, the analysis.
    pub fn start(game: PlayOnGame, opponent: Opponent) -> PlayOn {
        PlayOn::start_waking(game, opponent, Arc::new(|| {}))
    }

    /// As [`PlayOn::start`], calling `wake` when the engine has moved or changed state
    /// (see [`EngineHandle::spawn_waking`]), so that a window draws the move at once.
    pub fn start_waking(game: PlayOnGame, opponent: Opponent, wake: Wake) -> PlayOn {
        PlayOn::start_sparring(game, opponent, None, wake)
    }

    /// As [`PlayOn::start_waking`], sparring with `spar` when given: its games choose
    /// the engine's moves while enough reach the position, the engine (which should be
    /// the human-like one at [`Spar::temperature`]) plays on from there.
    pub fn start_sparring(
        game: PlayOnGame,
        opponent: Opponent,
        spar: Option<Spar>,
        wake: Wake,
    ) -> PlayOn {
        let handle = EngineHandle::spawn_waking(opponent.choice.clone(), Arc::clone(&wake));
        let mut play_on = PlayOn {
            wake: WakeUp(wake),
            game,
            engine_name: choice_name(&opponent.choice),
            players: Vec::new(),
            set_to: opponent.strength(),
            opponent,
            handle: Some(handle),
            running: None,
            eval: None,
            spar,
            sources: Vec::new(),
            searching_source: None,
            pending: Vec::new(),
        };
        play_on.next_search();
        play_on
    }

    /// The game.
    pub fn game(&self) -> &PlayOnGame {
        &self.game
    }

    /// The engine playing.
    pub fn opponent(&self) -> &Opponent {
        &self.opponent
    }

    /// The engine's name (its `id name` once it is ready).
    pub fn engine_name(&self) -> &str {
        &self.engine_name
    }

    /// Who played the engine's side, for the game's PGN: every engine that played a
    /// move of it, in the order they first played (`"Built-in engine, Stockfish 15.1"`
    /// when the learner changed engines mid-game), the engine now when none has moved.
    pub fn engine_side_name(&self) -> String {
        if self.players.is_empty() {
            self.engine_name.clone()
        } else {
            self.players.join(", ")
        }
    }

    /// Whether the engine is searching for its move.
    pub fn is_thinking(&self) -> bool {
        self.running.is_some_and(|r| r.kind == SearchKind::Move)
    }

    /// Whether any search runs (the engine's move or the analysis).
    pub fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    /// The latest evaluation (of the current position or, while the engine thinks,
    /// possibly of the one before).
    pub fn evaluation(&self) -> Option<&Evaluation> {
        self.eval.as_ref()
    }

    /// The learner's expected share of the points, 0 to 1: the result when the game is
    /// over, else from the evaluation (`None` before the first one).
    pub fn learner_share(&self) -> Option<f64> {
        match self.game.end().map(GameEnd::outcome) {
            Some(KnownOutcome::Draw) => Some(0.5),
            Some(KnownOutcome::Decisive { winner }) => Some(if winner == self.game.learner() {
                1.0
            } else {
                0.0
            }),
            None => self.eval.as_ref().map(|e| e.score.win_probability()),
        }
    }

    /// The eval bar's text: the score from the learner's side (`+0.35`, `#3`), or the
    /// result once the game is over.
    pub fn eval_text(&self) -> Option<String> {
        if self.game.end().is_some() {
            return Some(self.game.result().to_owned());
        }
        self.eval.as_ref().map(|e| e.score.to_string())
    }

    /// The best move for the learner in the current position (from the analysis), for
    /// the arrow.
    pub fn best_move(&self) -> Option<Move> {
        let e = self.eval.as_ref()?;
        (self.game.turn() == Turn::Learner && e.plies == self.game.moves().len())
            .then(|| e.pv.first().copied())
            .flatten()
    }

    /// The learner's move; the engine starts thinking about its reply.
    ///
    /// # Errors
    ///
    /// As [`PlayOnGame::play_learner`]; nothing changes then.
    pub fn play(&mut self, mv: Move) -> Result<String, PlayOnError> {
        let san = self.game.play_learner(mv)?;
        self.next_search();
        Ok(san)
    }

    /// Takes back the engine's reply and the learner's last move (see
    /// [`PlayOnGame::take_back`]); returns whether anything was taken back.
    pub fn take_back(&mut self) -> bool {
        let done = self.game.take_back();
        if done {
            let plies = self.game.moves().len();
            self.sources.retain(|(ply, _)| *ply < plies);
            self.eval = None;
            self.next_search();
        }
        done
    }

    /// Asks the engine to play the best move it has found so far.
    pub fn move_now(&mut self) {
        if self.is_thinking()
            && let Some(handle) = &mut self.handle
        {
            handle.stop();
        }
    }

    /// Plays on against another engine, or with another strength or time per move.
    /// Another engine is started (the game stays, the search starts again); a new
    /// strength or time applies from the engine's next move.
    pub fn set_opponent(&mut self, opponent: Opponent) {
        if opponent == self.opponent {
            return;
        }
        let restart = without_strength(&opponent.choice) != without_strength(&self.opponent.choice);
        self.opponent = opponent;
        if restart {
            drop_in_background(self.handle.take());
            self.handle = Some(EngineHandle::spawn_waking(
                self.opponent.choice.clone(),
                Arc::clone(&self.wake.0),
            ));
            self.engine_name = choice_name(&self.opponent.choice);
            self.set_to = self.opponent.strength();
            self.eval = None;
            self.next_search();
        }
    }

    /// Takes the engine's reports: updates the evaluation, plays the engine's move when
    /// it comes and starts the next search. Never waits.
    pub fn poll(&mut self) -> Vec<PlayOnEvent> {
        let mut out = std::mem::take(&mut self.pending);
        for _ in 0..EVENTS_PER_POLL {
            let Some(event) = self.handle.as_ref().and_then(EngineHandle::try_recv) else {
                break;
            };
            self.on_event(event, &mut out);
        }
        out
    }

    fn on_event(&mut self, event: EngineEvent, out: &mut Vec<PlayOnEvent>) {
        match event {
            EngineEvent::Ready { name, pid } => {
                // An engine the learner installed is named as it names itself
                // ("Stockfish 17"); the built-in ones keep their names for people.
                if matches!(self.opponent.choice, EngineChoice::Uci { .. }) {
                    self.engine_name.clone_from(&name);
                }
                out.push(PlayOnEvent::Ready { name, pid });
            }
            EngineEvent::Info { search, info } => {
                let Some(run) = self.running.filter(|r| r.id == search) else {
                    return;
                };
                if info.multipv <= 1
                    && let Some(score) = info.score
                    && self.shows_eval(run.kind)
                {
                    self.set_eval(run, score, info.depth, info.pv, info.nodes, info.nps);
                }
            }
            EngineEvent::BestMove { search, result } => {
                let Some(run) = self.running.filter(|r| r.id == search) else {
                    return;
                };
                self.running = None;
                let own_score = result.info.as_ref().and_then(|i| i.score);
                if let Some(info) = result.info
                    && let Some(score) = info.score
                    && self.shows_eval(run.kind)
                {
                    self.set_eval(run, score, info.depth, info.pv, info.nodes, info.nps);
                }
                if run.kind == SearchKind::Move {
                    let source = self.searching_source.take();
                    self.engine_moved(result.best, own_score, source, out);
                }
            }
            EngineEvent::FellBack { engine, error } => {
                // The handle now runs the built-in α-β engine: ask it only for what it
                // has (skill levels, no Elo).
                let strength = match self.opponent.strength() {
                    Some(Strength::Skill(level)) => Strength::Skill(level),
                    _ => Strength::Full,
                };
                self.opponent.choice = EngineChoice::Builtin(strength);
                self.set_to = Some(strength);
                out.push(PlayOnEvent::FellBack { engine, error });
            }
            EngineEvent::Warning(text) => out.push(PlayOnEvent::Warning(text)),
            EngineEvent::Died(gone) => {
                // Nothing will answer the search: stop waiting and say why.
                self.running = None;
                out.push(PlayOnEvent::Warning(format!(
                    "{gone}. Choose another engine, or play on again, to go on."
                )));
            }
        }
    }

    /// Plays the engine's move (`score`: its search's, from its side; `source`: where
    /// it came from, sparring).
    fn engine_moved(
        &mut self,
        best: Option<Move>,
        score: Option<Score>,
        source: Option<SparSource>,
        out: &mut Vec<PlayOnEvent>,
    ) {
        let ply = self.game.moves().len();
        match best.map(|mv| self.game.play_engine(mv, score)) {
            Some(Ok(san)) => {
                // The explorer's moves are its games' players', for the PGN.
                let player = match (&source, &self.spar) {
                    (Some(SparSource::Games { .. }), Some(spar)) => {
                        format!("{} (explorer's games)", spar.whose())
                    }
                    _ => self.engine_name.clone(),
                };
                if let (Some(source), Some(spar)) = (&source, &self.spar) {
                    self.game.note_last(source.describe(spar.whose()));
                }
                if !self.players.contains(&player) {
                    self.players.push(player);
                }
                if let Some(source) = source {
                    self.sources.push((ply, source));
                }
                out.push(PlayOnEvent::EngineMoved(san));
            }
            Some(Err(e)) => out.push(PlayOnEvent::Warning(format!(
                "The engine's move was refused: {e}."
            ))),
            None => out.push(PlayOnEvent::Warning(
                "The engine found no move to play.".to_owned(),
            )),
        }
        if let Some(end) = self.game.end() {
            out.push(PlayOnEvent::GameOver(end.clone()));
        }
        self.next_search();
    }

    /// Whether a search of this kind moves the eval bar: the analysis always; the
    /// engine's own search only at full strength (a weakened search's score is not the
    /// position's).
    fn shows_eval(&self, kind: SearchKind) -> bool {
        kind == SearchKind::Analysis
            || matches!(self.opponent.strength(), None | Some(Strength::Full))
    }

    fn set_eval(
        &mut self,
        run: Running,
        score: Score,
        depth: u32,
        pv: Vec<Move>,
        nodes: u64,
        nps: Option<u64>,
    ) {
        let score = if run.turn == self.game.learner() {
            score
        } else {
            score.flip()
        };
        self.eval = Some(Evaluation {
            score,
            depth,
            pv,
            plies: run.plies,
            nodes,
            nps,
        });
    }

    /// Starts what the position asks for: the engine's move, the analysis, or nothing
    /// once the game is over (a running search is stopped).
    fn next_search(&mut self) {
        if self.handle.is_some()
            && matches!(self.game.turn(), Turn::Engine)
            && self.spar.is_some()
            && self.spar_move()
        {
            return;
        }
        let Some(handle) = &mut self.handle else {
            return;
        };
        let (kind, limits, strength) = match self.game.turn() {
            Turn::Over(_) => {
                handle.stop();
                self.running = None;
                return;
            }
            Turn::Learner => (
                SearchKind::Analysis,
                Limits::movetime(ANALYSIS_TIME).unwrap_or(Limits::ONE_PLY),
                Strength::Full,
            ),
            Turn::Engine => (
                SearchKind::Move,
                // A move time of 0 (no setting gives one) would be no limit.
                Limits::movetime(self.opponent.movetime).unwrap_or(Limits::ONE_PLY),
                self.opponent.strength().unwrap_or_default(),
            ),
        };
        // The strength is set between searches (the worker takes requests in order),
        // only when it changes and the engine has a setting.
        if self.set_to.is_some_and(|s| s != strength) {
            handle.stop();
            handle.set_strength(strength);
            self.set_to = Some(strength);
        }
        let id = handle.search(self.game.game().clone(), limits);
        self.running = Some(Running {
            id,
            kind,
            turn: self.game.position().turn(),
            plies: self.game.moves().len(),
        });
        self.searching_source = match kind {
            SearchKind::Move => self.model_source(),
            SearchKind::Analysis => None,
        };
    }
}

impl Drop for PlayOn {
    fn drop(&mut self) {
        drop_in_background(self.handle.take());
    }
}

/// Stops the engine and lets a thread wait for it to end, so the caller never waits
/// (a UCI engine is given time to quit, then killed: see [`EngineHandle`]).
fn drop_in_background(handle: Option<EngineHandle>) {
    if let Some(mut handle) = handle {
        handle.stop();
        let spawned = thread::Builder::new()
            .name("engine shutdown".into())
            .spawn(move || drop(handle));
        // Without a thread, the handle was dropped (and waited for) right here.
        drop(spawned);
    }
}

/// The engine of a choice, whatever its strength.
fn without_strength(choice: &EngineChoice) -> EngineChoice {
    match choice {
        EngineChoice::Builtin(_) => EngineChoice::Builtin(Strength::Full),
        EngineChoice::Mcts => EngineChoice::Mcts,
        EngineChoice::Human { .. } | EngineChoice::Blend(_) => choice.clone(),
        EngineChoice::Uci { path, args, .. } => EngineChoice::Uci {
            path: path.clone(),
            args: args.clone(),
            strength: Strength::Full,
        },
    }
}

/// A name for the engine before it says its own.
fn choice_name(choice: &EngineChoice) -> String {
    match choice {
        EngineChoice::Builtin(_) => "Built-in engine".to_owned(),
        EngineChoice::Mcts => "Built-in engine (tree search)".to_owned(),
        EngineChoice::Human { .. } => "Human-like engine".to_owned(),
        EngineChoice::Blend(_) => "Tuned engine + human-like".to_owned(),
        EngineChoice::Uci { path, .. } => path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        ),
    }
}

mod sparring;
#[cfg(test)]
mod tests;
