//! The move box: a move typed on the keyboard is played as a move on the board is, in
//! the drill or in the play-on game, whichever the board shows.
//!
//! The box's text is the coach's ([`MoveEntryCommand::Text`] at each change), so the
//! window only draws it: the completions (`Coach::move_completions`, clickable), and
//! why the last entry was not played ([`MoveEntryState::error`], one line). Enter
//! plays what the text means, Tab the one completion (or completes the text as far as
//! the completions agree); the reading of the text is [`crate::trainer::move_entry`]'s.

use shakmaty::{Chess, Move, Position as _};

use crate::coach::context::{Context, Event};
use crate::trainer::move_entry::{resolve, tab_completion};
use crate::trainer::play_on::{PlayOnGame, Turn};
use crate::trainer::{Phase, Session};

/// What the learner does with the move box.
#[derive(Debug, Clone, PartialEq)]
pub enum MoveEntryCommand {
    /// The text changed (typing).
    Text(String),
    /// Enter: play the move the text means, or say why not.
    Enter,
    /// Tab: play the one completion, or complete the text as far as the completions
    /// agree.
    Complete,
    /// A completion was clicked: play it.
    Pick(Move),
}

/// The move box's text and why the last entry was not played.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveEntryState {
    text: String,
    error: Option<String>,
}

impl MoveEntryState {
    /// The move box's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why the last entry was not played (one line), until the text changes.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Carries out what the learner did with the move box; `at` is the position a
    /// typed move is played in (the board's), or why no move can be entered now. A
    /// move entered is played on the board shown ([`Event::PlayOnBoard`]).
    pub(crate) fn apply(
        &mut self,
        command: MoveEntryCommand,
        ctx: &mut Context,
        at: Result<Chess, &'static str>,
    ) {
        let entered = match command {
            MoveEntryCommand::Text(text) => {
                self.text = text;
                self.error = None;
                None
            }
            MoveEntryCommand::Enter => {
                let typed = self.text.trim().to_owned();
                if typed.is_empty() {
                    self.error = None;
                    return;
                }
                let entered = at
                    .map_err(|why| format!("{typed} cannot be played now: {why}"))
                    .and_then(|pos| resolve(&pos, &typed).map_err(|e| e.to_string()));
                match entered {
                    Ok(mv) => Some(mv),
                    Err(why) => {
                        self.error = Some(why);
                        None
                    }
                }
            }
            MoveEntryCommand::Complete => {
                let Ok(pos) = at else {
                    return;
                };
                match tab_completion(&pos, &self.text) {
                    Some(Ok(mv)) => Some(mv),
                    Some(Err(longer)) => {
                        self.text = longer;
                        self.error = None;
                        None
                    }
                    None => None,
                }
            }
            MoveEntryCommand::Pick(mv) => at.is_ok_and(|pos| pos.is_legal(mv)).then_some(mv),
        };
        // Played as the board would play it, and the box emptied.
        if let Some(mv) = entered {
            *self = MoveEntryState::default();
            ctx.send(Event::PlayOnBoard(mv));
        }
    }
}

/// The position a typed move is played in (the play-on game's while `playing_on`, else
/// the drill's), or why no move can be entered now.
pub(crate) fn entry_position(
    session: &Session,
    playing_on: Option<&PlayOnGame>,
) -> Result<Chess, &'static str> {
    match playing_on {
        Some(game) => play_on_entry_position(game),
        None => drill_entry_position(session),
    }
}

/// The position a typed move is played in during the drill, or why none can be entered.
pub(crate) fn drill_entry_position(session: &Session) -> Result<Chess, &'static str> {
    if session.viewing().is_some() {
        return Err("this is an earlier position (End goes back to the game)");
    }
    match session.phase() {
        Phase::LearnerToMove => Ok(session.position().clone()),
        // "Quiz the replies I cover": the opponent's replies are named on the board.
        Phase::ComputerToMove if session.asks_replies() => Ok(session.position().clone()),
        Phase::ComputerToMove => Err("wait for the computer's move"),
        Phase::OutOfBook { .. } => Err("take the wrong move back first (Try again)"),
        Phase::EndOfLine { .. } => Err("the line is over"),
    }
}

/// The position a typed move is played in during the play-on game, or why none can be.
pub(crate) fn play_on_entry_position(game: &PlayOnGame) -> Result<Chess, &'static str> {
    match game.turn() {
        Turn::Learner => Ok(game.position().clone()),
        Turn::Engine => Err("wait for the engine's move"),
        Turn::Over(_) => Err("the game is over"),
    }
}
