//! Playing on against an engine: the runtime state ([`PlayOnState`]), the
//! persisted engine settings ([`PlayOnSettings`]) and the commands
//! ([`PlayOnCommand`]). The game and the engine are [`crate::trainer::play_on`]'s; this
//! file starts and ends them, routes the commands and takes the engine's reports once
//! a frame (never waiting: [`PlayOn::poll`] only drains a channel).
//!
//! The drill's [`Session`](crate::trainer::Session) is left as it was while the learner
//! plays on, so "Back to the book" simply drops the game: the board shows the last
//! book position and the drill goes on from there.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use shakmaty::Move;

use super::sounds::Sound;
use super::{Coach, Notice};
use crate::engine::blend::BlendSettings;
use crate::engine::{EngineChoice, Strength, discover};
use crate::trainer::play_on::{Opponent, PlayOn, PlayOnEvent, PlayOnGame, pgn_date};
use crate::workspace::store::write_atomic;

/// How often the window redraws while an engine searches (the eval bar moves).
const SEARCH_REPAINT: Duration = Duration::from_millis(100);

/// Which engine the learner plays on against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum EngineKind {
    /// Human-like: the move predictor's moves, as strong players would play.
    #[default]
    Human,
    /// The built-in α-β engine (needs nothing installed).
    AlphaBeta,
    /// The built-in MCTS engine.
    Mcts,
    /// Seed 003's blend: the tuned evaluation's search and the move predictor, mixed
    /// by λ.
    Blend,
    /// Stockfish, found on `PATH` or where distributions install it.
    Stockfish,
    /// Another UCI engine, by its path.
    Path,
}

impl EngineKind {
    /// Every kind, in the order of the menu.
    pub const ALL: [EngineKind; 6] = [
        EngineKind::Human,
        EngineKind::AlphaBeta,
        EngineKind::Mcts,
        EngineKind::Blend,
        EngineKind::Stockfish,
        EngineKind::Path,
    ];

    /// The menu text.
    pub fn text(self) -> &'static str {
        match self {
            EngineKind::Human => "Human-like (trained on master games)",
            EngineKind::AlphaBeta => "Built-in α-β",
            EngineKind::Mcts => "Built-in MCTS",
            EngineKind::Blend => "Tuned engine + human-like (λ)",
            EngineKind::Stockfish => "Stockfish",
            EngineKind::Path => "Other UCI engine",
        }
    }
}

/// The engine settings for playing on, saved between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayOnSettings {
    /// Which engine.
    pub engine: EngineKind,
    /// The program of [`EngineKind::Path`].
    pub path: String,
    /// Skill Level 0–20 (20: full strength).
    pub skill: u8,
    /// UCI engines: limit the strength by Elo (`UCI_LimitStrength`) instead of the
    /// skill level.
    pub use_elo: bool,
    /// The Elo of `use_elo` (Stockfish: 1350 to 2850).
    pub elo: u32,
    /// Time per move, in milliseconds.
    pub movetime_ms: u32,
    /// Whether the best move for the learner is drawn as an arrow.
    pub best_move_arrow: bool,
    /// The human-like engine's temperature: 0 plays the most likely move, 1 as often as
    /// strong players do, more is wilder.
    pub temperature: f64,
    /// The blend's λ: 0 the tuned evaluation alone, 1 the predictor decides.
    pub lambda: f64,
    /// The blend's search depth.
    pub blend_depth: u32,
}

impl Default for PlayOnSettings {
    fn default() -> PlayOnSettings {
        PlayOnSettings {
            engine: EngineKind::Human,
            path: String::new(),
            // Full strength: a weakened α-β picks among moves up to 1.5 pawns worse
            // than the best (at level 10), which looks random; the learner lowers it.
            skill: 20,
            use_elo: false,
            elo: 1350,
            movetime_ms: 500,
            best_move_arrow: false,
            temperature: crate::engine::human::DEFAULT_TEMPERATURE,
            lambda: BlendSettings::default().lambda,
            blend_depth: 3,
        }
    }
}

impl PlayOnSettings {
    /// The engine to start: Stockfish and a path are looked up first (a few file
    /// checks); when they cannot be found, the built-in engine and why.
    pub fn opponent(&self) -> (Opponent, Option<String>) {
        let strength = if self.skill >= 20 {
            Strength::Full
        } else {
            Strength::Skill(self.skill)
        };
        let uci_strength = if self.use_elo {
            Strength::Elo(self.elo)
        } else {
            strength
        };
        let uci = |name: &str| {
            discover::resolve(name).map(|path| EngineChoice::Uci {
                path,
                args: Vec::new(),
                strength: uci_strength,
            })
        };
        let (choice, problem) = match self.engine {
            EngineKind::Human => (
                EngineChoice::Human {
                    temperature: self.temperature,
                    seed: 0,
                },
                None,
            ),
            EngineKind::AlphaBeta => (EngineChoice::Builtin(strength), None),
            EngineKind::Mcts => (EngineChoice::Mcts, None),
            EngineKind::Blend => (
                EngineChoice::Blend(BlendSettings {
                    lambda: self.lambda,
                    depth: Some(self.blend_depth.max(1)),
                    ..BlendSettings::default()
                }),
                None,
            ),
            EngineKind::Stockfish | EngineKind::Path => {
                let name = if self.engine == EngineKind::Stockfish {
                    "stockfish"
                } else {
                    self.path.trim()
                };
                match uci(name) {
                    Ok(choice) => (choice, None),
                    Err(e) => (
                        EngineChoice::Builtin(strength),
                        Some(format!("{e}; the built-in engine plays instead.")),
                    ),
                }
            }
        };
        let opponent = Opponent {
            choice,
            movetime: Duration::from_millis(u64::from(self.movetime_ms.max(10))),
        };
        (opponent, problem)
    }
}

/// What the learner asks of the play-on game.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayOnCommand {
    /// Play on from the position shown.
    Start,
    /// The learner's move on the board.
    Play(Move),
    /// Take back the engine's reply and the learner's move.
    TakeBack,
    /// Ask the engine to move at once.
    MoveNow,
    /// End the game and go back to the drill at the last book position.
    BackToBook,
    /// Copy the game's PGN to the clipboard.
    CopyPgn,
    /// Save the game's PGN (asks where).
    SavePgn,
    /// New engine settings (applied to the game being played).
    Settings(PlayOnSettings),
    /// Show this in the play-on panel (why the game was not saved).
    Notice(String),
    /// Write the game's PGN to this file.
    SaveTo(std::path::PathBuf),
}

impl super::command::Command {
    /// Whether the command starts another drill (the play-on game ends then: the
    /// board shows the drill again).
    pub fn restarts_drill(&self) -> bool {
        use super::command::Command;
        matches!(
            self,
            Command::SetLearner(_)
                | Command::DrillFrom(_)
                | Command::DrillAt(..)
                | Command::SetDrillMode(_)
                | Command::BackToRepertoire
                | Command::Explorer(super::explorer::ExplorerCommand::Prepare)
        )
    }
}

/// The play-on game, if one is being played.
#[derive(Debug, Default)]
pub struct PlayOnState {
    pub(crate) run: Option<PlayOn>,
    /// What happened last (a fallback, the end of the game).
    pub(crate) notice: Option<String>,
    /// When the screenshot mode started the game (it waits for the analysis).
    screenshot_since: Option<Instant>,
}

impl PlayOnState {
    /// Whether a game is being played on.
    pub fn is_active(&self) -> bool {
        self.run.is_some()
    }
}

impl Coach {
    /// The play-on game, if the learner is playing on.
    pub fn play_on(&self) -> Option<&PlayOn> {
        self.play_on.run.as_ref()
    }

    /// The notice of the play-on panel (an engine that failed, the end of the game).
    pub fn play_on_notice(&self) -> Option<&str> {
        self.play_on.notice.as_deref()
    }

    /// The play-on game as PGN, the book part and the engine part marked.
    pub fn play_on_pgn(&self) -> Option<String> {
        let run = self.play_on.run.as_ref()?;
        let date = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()
            .map(|d| pgn_date(d.as_secs()));
        Some(run.game().to_pgn_dated(run.engine_name(), date.as_deref()))
    }

    /// Starts playing on from the position shown (the drill's moves up to it are the
    /// book part).
    pub(crate) fn start_play_on(&mut self) {
        let ply = self
            .ctx
            .session
            .viewing()
            .unwrap_or(self.ctx.session.moves().len());
        let moves: Vec<Move> = self.ctx.session.moves()[..ply]
            .iter()
            .map(|m| m.mv)
            .collect();
        let start = self.ctx.session.position_at(0).clone();
        let mut history: Vec<_> = self.ctx.graph.lookup(&start).into_iter().collect();
        history.extend(
            self.ctx.session.moves()[..ply]
                .iter()
                .filter_map(|m| m.node),
        );
        let opening = self.ctx.graph.name_at(&history).map(|l| l.title());
        let game = match PlayOnGame::new(start, &moves, opening, self.ctx.session.learner()) {
            Ok(game) => game,
            Err(e) => {
                self.ctx.message = Some(format!("Cannot play on: {e}."));
                return;
            }
        };
        let (opponent, problem) = self.ctx.settings.play_on.opponent();
        self.play_on.notice = problem;
        // The engine's thread wakes the window when it has moved (once a frame has
        // made the wake-up; before that the window polls).
        let wake = self.ctx.wake();
        self.play_on.run = Some(PlayOn::start_waking(game, opponent, wake));
        self.ctx.message = None;
    }

    /// Ends the play-on game, if one is played (the engine ends on its own thread).
    pub(crate) fn end_play_on(&mut self) {
        self.play_on.run = None;
        self.play_on.notice = None;
    }

    /// Carries out a play-on command.
    pub(crate) fn apply_play_on(&mut self, command: PlayOnCommand) {
        if command == PlayOnCommand::Start {
            if !self.play_on.is_active() {
                self.start_play_on();
            }
            return;
        }
        if let PlayOnCommand::Settings(settings) = command {
            let engine_changed = settings.engine != self.ctx.settings.play_on.engine
                || settings.path != self.ctx.settings.play_on.path;
            self.ctx.settings.play_on = settings;
            if let Some(run) = &mut self.play_on.run {
                let (opponent, problem) = self.ctx.settings.play_on.opponent();
                if engine_changed {
                    self.play_on.notice = problem;
                }
                run.set_opponent(opponent);
            }
            return;
        }
        if let PlayOnCommand::Notice(text) = command {
            self.play_on.notice = Some(text);
            return;
        }
        if command == PlayOnCommand::BackToBook {
            self.end_play_on();
            self.ctx.message = Some("Back to the book.".to_owned());
            return;
        }
        let pgn = self.play_on_pgn();
        let Some(run) = &mut self.play_on.run else {
            return;
        };
        match command {
            PlayOnCommand::Play(mv) => match run.play(mv) {
                Ok(_) => {
                    if let Some(sound) = last_move_sound(run.game()) {
                        self.ctx.sound(sound);
                    }
                }
                Err(e) => self.play_on.notice = Some(format!("{e}.")),
            },
            PlayOnCommand::TakeBack => {
                if run.take_back() {
                    self.play_on.notice = None;
                }
            }
            PlayOnCommand::MoveNow => run.move_now(),
            PlayOnCommand::CopyPgn => {
                if let Some(pgn) = pgn {
                    self.ctx.notices.push(Notice::CopyText(pgn));
                    self.play_on.notice = Some("The game's PGN was copied.".to_owned());
                }
            }
            PlayOnCommand::SavePgn => {
                if pgn.is_some() {
                    self.ctx.notices.push(Notice::SaveGameAs);
                }
            }
            PlayOnCommand::SaveTo(path) => {
                if let Some(pgn) = pgn {
                    self.play_on.notice = Some(match write_atomic(&path, pgn.as_bytes()) {
                        Ok(()) => format!("The game was saved to {}.", path.display()),
                        Err(e) => format!("Cannot save: {e}."),
                    });
                }
            }
            PlayOnCommand::Start
            | PlayOnCommand::BackToBook
            | PlayOnCommand::Settings(_)
            | PlayOnCommand::Notice(_) => {}
        }
    }

    /// Once a frame: the engine's reports (its move, the evaluation, a fallback), the
    /// animation, a finished save. Never waits.
    pub(crate) fn play_on_logic(&mut self) {
        let Some(run) = &mut self.play_on.run else {
            return;
        };
        let mut repaint = false;
        let mut sound = None;
        for event in run.poll() {
            match event {
                PlayOnEvent::EngineMoved(_) => {
                    if self.ctx.settings.animate_moves
                        && let Some(mv) = run.game().last_move()
                    {
                        self.ctx.notices.push(Notice::AnimatePlayOn(mv));
                    }
                    sound = last_move_sound(run.game());
                    repaint = true;
                }
                PlayOnEvent::FellBack { engine, error } => {
                    self.play_on.notice = Some(format!(
                        "The engine {engine} failed ({error}); the built-in engine plays on."
                    ));
                }
                PlayOnEvent::Warning(text) => self.play_on.notice = Some(text),
                PlayOnEvent::GameOver(end) => {
                    self.play_on.notice =
                        Some(format!("Game over: {end} ({}).", run.game().result()));
                }
                PlayOnEvent::Ready { .. } => {}
            }
        }
        let searching = run.is_searching();
        if let Some(sound) = sound {
            self.ctx.sound(sound);
        }
        if repaint {
            self.ctx.request_repaint();
        }
        if searching {
            self.ctx.request_repaint_after(SEARCH_REPAINT);
        }
    }

    /// Whether the screenshot should wait: the engine's first move and a few depths of
    /// analysis (at most 20 s).
    pub(crate) fn play_on_busy(&mut self) -> bool {
        let Some(run) = self.play_on.run.as_ref().filter(|_| self.ctx.screenshot) else {
            return false;
        };
        let since = *self
            .play_on
            .screenshot_since
            .get_or_insert_with(Instant::now);
        let ready = !run.game().played().is_empty()
            && run.best_move().is_some()
            && run.evaluation().is_some_and(|e| e.depth >= 8);
        !ready && since.elapsed() < Duration::from_secs(20)
    }

    /// For the screenshot (`--tab play-on`): the learner plays the side that is not to
    /// move after the moves shown, so the engine moves first; the arrow is on.
    pub fn show_play_on(&mut self) {
        let learner = !shakmaty::Position::turn(self.ctx.session.position());
        let moves: Vec<Move> = self.ctx.session.moves().iter().map(|m| m.mv).collect();
        if let Ok(session) = crate::trainer::Session::from_moves(
            Arc::clone(&self.ctx.graph),
            learner,
            self.ctx.settings.style.clone(),
            1,
            &moves,
        ) {
            self.ctx.session = session;
        }
        self.ctx.settings.learner = super::settings::Side::from(learner);
        self.ctx.orientation = super::settings::Orientation::from_color(learner);
        self.ctx.settings.play_on.best_move_arrow = true;
        self.ctx.settings.play_on.movetime_ms = 300;
        self.start_play_on();
    }
}

/// The sound of the game's last move (the position before it is replayed from the
/// start: once a move, a few hundred plies at most).
fn last_move_sound(game: &PlayOnGame) -> Option<Sound> {
    let (last, earlier) = game.moves().split_last()?;
    let mut before = game.game().start().clone();
    for m in earlier {
        shakmaty::Position::play_unchecked(&mut before, m.mv);
    }
    Some(Sound::of_move(&before, last.mv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_choose_the_engine_and_its_strength() {
        let builtin = PlayOnSettings {
            engine: EngineKind::AlphaBeta,
            skill: 7,
            movetime_ms: 250,
            ..PlayOnSettings::default()
        };
        let (o, problem) = builtin.opponent();
        assert_eq!(o.choice, EngineChoice::Builtin(Strength::Skill(7)));
        assert_eq!(o.movetime, Duration::from_millis(250));
        assert_eq!(problem, None);
        let full = PlayOnSettings {
            engine: EngineKind::AlphaBeta,
            ..PlayOnSettings::default()
        }
        .opponent()
        .0;
        assert_eq!(full.choice, EngineChoice::Builtin(Strength::Full));
        // Human-like is the default, at its temperature.
        let human = PlayOnSettings::default().opponent().0;
        assert_eq!(
            human.choice,
            EngineChoice::Human {
                temperature: 1.0,
                seed: 0
            }
        );
        let mcts = PlayOnSettings {
            engine: EngineKind::Mcts,
            ..PlayOnSettings::default()
        };
        assert_eq!(mcts.opponent().0.choice, EngineChoice::Mcts);
    }

    #[test]
    fn a_missing_uci_engine_is_replaced_by_the_builtin_one_with_the_reason() {
        let missing = PlayOnSettings {
            engine: EngineKind::Path,
            path: " /nonexistent/dragon ".to_owned(),
            skill: 3,
            use_elo: true,
            ..PlayOnSettings::default()
        };
        let (o, problem) = missing.opponent();
        assert_eq!(o.choice, EngineChoice::Builtin(Strength::Skill(3)));
        let problem = problem.unwrap();
        assert!(problem.contains("/nonexistent/dragon"), "{problem}");
        assert!(problem.ends_with("the built-in engine plays instead."));
    }

    #[test]
    #[cfg(unix)]
    fn a_uci_engine_limited_by_elo_gets_the_elo() {
        let sh = PlayOnSettings {
            engine: EngineKind::Path,
            path: "/bin/sh".to_owned(),
            use_elo: true,
            elo: 1500,
            ..PlayOnSettings::default()
        };
        let (o, problem) = sh.opponent();
        assert_eq!(problem, None);
        assert!(matches!(
            o.choice,
            EngineChoice::Uci {
                strength: Strength::Elo(1500),
                ..
            }
        ));
    }
}
