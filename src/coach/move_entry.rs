//! The move box: a move typed on the keyboard is played as a move on the board is, in
//! the drill or in the play-on game, whichever the board shows.
//!
//! The box's text is the coach's ([`MoveEntryCommand::Text`] at each change), so the
//! window only draws it: the completions ([`Coach::move_completions`], clickable), and
//! why the last entry was not played ([`Coach::move_entry_error`], one line). Enter
//! plays what the text means, Tab the one completion (or completes the text as far as
//! the completions agree); the reading of the text is [`crate::trainer::move_entry`]'s.

use shakmaty::{Chess, Move, Position as _};

use super::Coach;
use super::command::Command;
use super::play_on::PlayOnCommand;
use crate::trainer::Phase;
use crate::trainer::move_entry::{Completion, completions, resolve, tab_completion};
use crate::trainer::play_on::Turn;

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

impl Coach {
    /// The move box's text.
    pub fn move_entry_text(&self) -> &str {
        &self.move_entry.text
    }

    /// Why the last entry was not played (one line), until the text changes.
    pub fn move_entry_error(&self) -> Option<&str> {
        self.move_entry.error.as_deref()
    }

    /// The legal moves matching `typed` where a typed move would be played now; none
    /// while no move can be entered (the computer's turn, an earlier position shown).
    pub fn move_completions(&self, typed: &str) -> Vec<Completion> {
        self.entry_position()
            .map(|pos| completions(&pos, typed))
            .unwrap_or_default()
    }

    /// The position a typed move is played in, or why no move can be entered now.
    fn entry_position(&self) -> Result<Chess, &'static str> {
        if let Some(run) = self.play_on() {
            return match run.game().turn() {
                Turn::Learner => Ok(run.game().position().clone()),
                Turn::Engine => Err("wait for the engine's move"),
                Turn::Over(_) => Err("the game is over"),
            };
        }
        if self.ctx.session.viewing().is_some() {
            return Err("this is an earlier position (End goes back to the game)");
        }
        match self.ctx.session.phase() {
            Phase::LearnerToMove => Ok(self.ctx.session.position().clone()),
            Phase::ComputerToMove => Err("wait for the computer's move"),
            Phase::OutOfBook { .. } => Err("take the wrong move back first (Try again)"),
            Phase::EndOfLine { .. } => Err("the line is over"),
        }
    }

    /// Carries out what the learner did with the move box.
    pub(crate) fn apply_move_entry(&mut self, command: MoveEntryCommand) {
        match command {
            MoveEntryCommand::Text(text) => {
                self.move_entry.text = text;
                self.move_entry.error = None;
            }
            MoveEntryCommand::Enter => {
                let typed = self.move_entry.text.trim().to_owned();
                if typed.is_empty() {
                    self.move_entry.error = None;
                    return;
                }
                let entered = self
                    .entry_position()
                    .map_err(|why| format!("{typed} cannot be played now: {why}"))
                    .and_then(|pos| resolve(&pos, &typed).map_err(|e| e.to_string()));
                match entered {
                    Ok(mv) => self.play_entered(mv),
                    Err(why) => self.move_entry.error = Some(why),
                }
            }
            MoveEntryCommand::Complete => {
                let Ok(pos) = self.entry_position() else {
                    return;
                };
                match tab_completion(&pos, &self.move_entry.text) {
                    Some(Ok(mv)) => self.play_entered(mv),
                    Some(Err(longer)) => {
                        self.move_entry.text = longer;
                        self.move_entry.error = None;
                    }
                    None => {}
                }
            }
            MoveEntryCommand::Pick(mv) => {
                if self.entry_position().is_ok_and(|pos| pos.is_legal(mv)) {
                    self.play_entered(mv);
                }
            }
        }
    }

    /// Plays a typed move as the board would, and empties the box.
    fn play_entered(&mut self, mv: Move) {
        self.move_entry = MoveEntryState::default();
        if self.play_on.is_active() {
            self.apply_play_on(PlayOnCommand::Play(mv));
        } else {
            self.apply(Command::Play(mv));
        }
    }
}
