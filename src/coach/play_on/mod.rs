//! Playing on against an engine: the game being played ([`PlayOnState`]), the engine
//! settings ([`engine`]) and the commands ([`PlayOnCommand`]). The game and the engine
//! are [`crate::trainer::play_on`]'s; this feature starts and ends them, carries out
//! the commands (`PlayOnState::apply`) and takes the engine's reports once a frame
//! (`PlayOnState::poll`, never waiting: [`PlayOn::poll`] only drains a channel).
//!
//! The drill's [`Session`] is left as it was while the learner
//! plays on, so "Back to the book" simply drops the game: the board shows the last
//! book position and the drill goes on from there.

pub mod engine;
pub mod spar;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::Move;

pub use self::engine::{EngineKind, PlayOnSettings};
pub use self::spar::{SharedExplorer, SparSettings, SparState};
use crate::coach::context::Context;
use crate::coach::notice::Notice;
use crate::coach::settings::{Orientation, Side};
use crate::coach::sounds::Sound;
use crate::trainer::Session;
use crate::trainer::play_on::{PlayOn, PlayOnEvent, PlayOnGame, pgn_date};
use crate::workspace::store::write_atomic;

/// How often the window redraws while an engine searches (the eval bar moves).
const SEARCH_REPAINT: Duration = Duration::from_millis(100);

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
    SaveTo(PathBuf),
}

/// The play-on game, if one is being played.
#[derive(Debug, Default)]
pub struct PlayOnState {
    pub(crate) run: Option<PlayOn>,
    /// What happened last (a fallback, the end of the game).
    pub(crate) notice: Option<String>,
    /// When the screenshot mode started the game (it waits for the analysis).
    screenshot_since: Option<Instant>,
    /// Sparring at a rating: the explorer shared, the temperatures fitted.
    pub(crate) spar: SparState,
}

impl PlayOnState {
    /// Whether a game is being played on.
    pub fn is_active(&self) -> bool {
        self.run.is_some()
    }

    /// The game and its engine, while the learner plays on.
    pub fn game(&self) -> Option<&PlayOn> {
        self.run.as_ref()
    }

    /// Sparring's state: the explorer shared, the temperatures fitted.
    pub fn spar(&self) -> &SparState {
        &self.spar
    }

    /// The notice of the play-on panel (an engine that failed, the end of the game).
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// The game as PGN, the book part and the engine part marked; `learner` names the
    /// learner's side (the settings' "Your name in PGN files"; empty: unknown), every
    /// engine that played names the other.
    pub fn pgn(&self, learner: &str) -> Option<String> {
        let run = self.run.as_ref()?;
        let date = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()
            .map(|d| pgn_date(d.as_secs()));
        Some(
            run.game()
                .to_pgn_of(learner, &run.engine_side_name(), date.as_deref()),
        )
    }

    /// Starts playing on from the drill's position shown (the drill's moves up to it
    /// are the book part); why not in the drill panel's message.
    pub(crate) fn start(&mut self, ctx: &mut Context) {
        let session = &ctx.session;
        let ply = session.viewing().unwrap_or(session.moves().len());
        let moves: Vec<Move> = session.moves()[..ply].iter().map(|m| m.mv).collect();
        let start = session.position_at(0).clone();
        let mut history: Vec<_> = ctx.graph.lookup(&start).into_iter().collect();
        history.extend(session.moves()[..ply].iter().filter_map(|m| m.node));
        let opening = ctx.graph.name_at(&history).map(|l| l.title());
        let game = match PlayOnGame::new(start, &moves, opening, session.learner()) {
            Ok(game) => game,
            Err(e) => {
                ctx.message = Some(format!("Cannot play on: {e}."));
                return;
            }
        };
        let (spar, opponent, problem) = self.opponent(ctx);
        self.notice = problem;
        // The engine's thread wakes the window when it has moved (once a frame has
        // made the wake-up; before that the window polls).
        self.run = Some(PlayOn::start_sparring(game, opponent, spar, ctx.wake()));
        ctx.message = None;
    }

    /// The sparring opponent and the engine for the settings: sparring (when on and an
    /// explorer is open), the human-like model at the fitted temperature; else the
    /// engine chosen. Why the engine chosen does not play, if it does not.
    fn opponent(
        &self,
        ctx: &Context,
    ) -> (
        Option<crate::trainer::spar::Spar>,
        crate::trainer::play_on::Opponent,
        Option<String>,
    ) {
        let settings = &ctx.settings.play_on;
        // The seed the user typed makes the games' draws repeat, as it does the drill's.
        let seed = ctx.settings.fixed_seed().unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        });
        match self.spar.spar(&settings.spar, seed) {
            Some(spar) => {
                let opponent = settings.sparring_opponent(spar.temperature());
                let notice = format!(
                    "Sparring: {} moves while {} or more of their games reach the position, \
                     then the human-like model.",
                    crate::trainer::spar::possessive(spar.whose()),
                    spar.min_games()
                );
                (Some(spar), opponent, Some(notice))
            }
            None => {
                let (opponent, mut problem) = settings.opponent();
                if settings.spar.on && !self.spar.has_explorer() {
                    problem = Some(
                        "Open an explorer index (Explorer tab) to spar at a rating; the engine \
                         chosen plays."
                            .to_owned(),
                    );
                }
                (None, opponent, problem)
            }
        }
    }

    /// Each frame, playing on or not: the Explorer tab's index for sparring, its fit
    /// read or started when sparring needs one, a fit read or finished given to the
    /// game.
    pub(crate) fn poll_spar(&mut self, ctx: &mut Context, explorer: Option<SharedExplorer>) {
        self.spar.set_explorer(explorer);
        let read = self.spar.ensure_fit(&ctx.settings.play_on.spar, ctx.wake());
        let Some((target, temperature)) = read.or_else(|| self.spar.poll(false)) else {
            return;
        };
        if let Some(run) = &mut self.run
            && run.spar().is_some_and(|s| s.whose() == target.whose)
        {
            let opponent = ctx.settings.play_on.sparring_opponent(temperature);
            run.set_spar_temperature(temperature, opponent);
        }
    }

    /// Ends the game, if one is played (the engine ends on its own thread).
    pub(crate) fn end(&mut self) {
        self.run = None;
        self.notice = None;
    }

    /// Carries out a play-on command.
    pub(crate) fn apply(&mut self, command: PlayOnCommand, ctx: &mut Context) {
        match command {
            PlayOnCommand::Start => {
                if !self.is_active() {
                    self.start(ctx);
                }
            }
            PlayOnCommand::Settings(settings) => self.set_settings(settings, ctx),
            PlayOnCommand::Notice(text) => self.notice = Some(text),
            PlayOnCommand::BackToBook => {
                self.end();
                ctx.message = Some("Back to the book.".to_owned());
            }
            command => self.apply_to_game(command, ctx),
        }
    }

    /// New engine settings: kept, and given to the game being played.
    fn set_settings(&mut self, settings: PlayOnSettings, ctx: &mut Context) {
        let engine_changed = settings.engine != ctx.settings.play_on.engine
            || settings.path != ctx.settings.play_on.path;
        let spar_changed = settings.spar != ctx.settings.play_on.spar;
        ctx.settings.play_on = settings;
        if self.run.is_none() {
            return;
        }
        let (spar, opponent, problem) = self.opponent(ctx);
        if engine_changed || spar_changed {
            self.notice = problem;
        }
        if let Some(run) = &mut self.run {
            if spar_changed {
                run.set_spar(spar);
            }
            run.set_opponent(opponent);
        }
    }

    /// The commands that need a game (nothing happens without one).
    fn apply_to_game(&mut self, command: PlayOnCommand, ctx: &mut Context) {
        let pgn = self.pgn(&ctx.settings.learner_name);
        let Some(run) = &mut self.run else {
            return;
        };
        match command {
            PlayOnCommand::Play(mv) => match run.play(mv) {
                Ok(_) => {
                    if let Some(sound) = last_move_sound(run.game()) {
                        ctx.sound(sound);
                    }
                }
                Err(e) => self.notice = Some(format!("{e}.")),
            },
            PlayOnCommand::TakeBack => {
                if run.take_back() {
                    self.notice = None;
                }
            }
            PlayOnCommand::MoveNow => run.move_now(),
            PlayOnCommand::CopyPgn => {
                if let Some(pgn) = pgn {
                    ctx.notify(Notice::CopyText(pgn));
                    self.notice = Some("The game's PGN was copied.".to_owned());
                }
            }
            PlayOnCommand::SavePgn => {
                if pgn.is_some() {
                    ctx.notify(Notice::SaveGameAs);
                }
            }
            PlayOnCommand::SaveTo(path) => {
                if let Some(pgn) = pgn {
                    self.notice = Some(match write_atomic(&path, pgn.as_bytes()) {
                        Ok(()) => {
                            ctx.settings.remember_recent(&path);
                            format!("The game was saved to {}.", path.display())
                        }
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
    pub(crate) fn poll(&mut self, ctx: &mut Context) {
        let Some(run) = &mut self.run else {
            return;
        };
        let mut repaint = false;
        let mut sound = None;
        for event in run.poll() {
            match event {
                PlayOnEvent::EngineMoved(_) => {
                    if ctx.settings.animate_moves
                        && let Some(mv) = run.game().last_move()
                    {
                        ctx.notify(Notice::AnimatePlayOn(mv));
                    }
                    sound = last_move_sound(run.game());
                    repaint = true;
                }
                PlayOnEvent::FellBack { engine, error } => {
                    self.notice = Some(format!(
                        "The engine {engine} failed ({error}); the built-in engine plays on."
                    ));
                }
                PlayOnEvent::Warning(text) => self.notice = Some(text),
                PlayOnEvent::GameOver(end) => {
                    self.notice = Some(format!("Game over: {end} ({}).", run.game().result()));
                }
                PlayOnEvent::SparSwitched(text) => self.notice = Some(text),
                PlayOnEvent::Ready { .. } => {}
            }
        }
        let searching = run.is_searching();
        if let Some(sound) = sound {
            ctx.sound(sound);
        }
        if repaint {
            ctx.request_repaint();
        }
        if searching {
            ctx.request_repaint_after(SEARCH_REPAINT);
        }
    }

    /// Whether the screenshot should wait: the engine's first move and a few depths of
    /// analysis (at most 20 s).
    pub(crate) fn busy(&mut self, ctx: &Context) -> bool {
        let Some(run) = self.run.as_ref().filter(|_| ctx.screenshot) else {
            return false;
        };
        let since = *self.screenshot_since.get_or_insert_with(Instant::now);
        let ready = !run.game().played().is_empty()
            && run.best_move().is_some()
            && run.evaluation().is_some_and(|e| e.depth >= 8);
        !ready && since.elapsed() < Duration::from_secs(20)
    }

    /// For the screenshot (`--tab play-on`): the learner plays the side that is not to
    /// move after the moves shown, so the engine moves first; the arrow is on.
    pub(crate) fn show(&mut self, ctx: &mut Context) {
        let learner = !shakmaty::Position::turn(ctx.session.position());
        let moves: Vec<Move> = ctx.session.moves().iter().map(|m| m.mv).collect();
        if let Ok(session) = Session::from_moves(
            Arc::clone(&ctx.graph),
            learner,
            ctx.settings.style.clone(),
            1,
            &moves,
        ) {
            ctx.session = session;
        }
        ctx.settings.learner = Side::from(learner);
        ctx.orientation = Orientation::from_color(learner);
        ctx.settings.play_on.best_move_arrow = true;
        ctx.settings.play_on.movetime_ms = 300;
        self.start(ctx);
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
