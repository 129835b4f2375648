//! The drill's own commands: a move played, the buttons that act on the drill alone
//! (hint, show me, take back, try again, stepping through the moves, flip), the
//! computer's reply when it is due, a mistake forgiven or replaced by the book move,
//! the moves set up for the screenshot. Review mode grades them when it is on
//! ([`Grading`], which the coach passes in).

use std::sync::Arc;
use std::time::Duration;

use shakmaty::{Move, Position};

use super::DrillState;
use crate::coach::action::Action;
use crate::coach::context::{Context, Grading};
use crate::coach::settings::{Orientation, Side};
use crate::coach::sounds::Sound;
use crate::trainer::play_on::PlayOn;
use crate::trainer::{MoveOutcome, Phase, Ranking, Session};

/// The ply of the position shown: the one viewed, else the current one.
pub(crate) fn shown_ply(ctx: &Context) -> usize {
    ctx.session.viewing().unwrap_or(ctx.session.moves().len())
}

/// Whether `action` can be used now (its button is enabled, its shortcut works), with
/// `playing_on` the play-on game while the learner plays on.
pub(crate) fn is_enabled(action: Action, ctx: &Context, playing_on: Option<&PlayOn>) -> bool {
    let phase = ctx.session.phase();
    let viewing = ctx.session.viewing().is_some();
    if let Some(run) = playing_on {
        // The drill waits while the learner plays on; take back is the game's.
        // ← (one move back) takes back there: the game has no earlier positions to show.
        return match action {
            Action::NewLine | Action::Flip | Action::Open | Action::Quit => true,
            Action::TakeBack | Action::StepBack => run.game().played().iter().any(|m| m.by_learner),
            _ => false,
        };
    }
    match action {
        Action::NewLine | Action::Flip | Action::Explore | Action::Quit => true,
        Action::Open => true,
        Action::NewLineFromHere => !matches!(phase, Phase::OutOfBook { .. }),
        Action::NextLine => matches!(phase, Phase::EndOfLine { .. }),
        Action::TryAgain => matches!(phase, Phase::OutOfBook { .. }),
        Action::ShowMe => {
            !viewing && matches!(phase, Phase::OutOfBook { .. } | Phase::LearnerToMove)
        }
        Action::Hint => !viewing && matches!(phase, Phase::LearnerToMove),
        Action::TakeBack => {
            !viewing
                && (matches!(phase, Phase::OutOfBook { .. })
                    || ctx.session.moves().iter().any(|m| m.by_learner))
        }
        Action::ContinueFromHere | Action::StepForward | Action::ToCurrent => viewing,
        Action::StepBack | Action::ToStart => shown_ply(ctx) > 0,
        Action::PlayOn => !matches!(phase, Phase::OutOfBook { .. }),
    }
}

/// How the drill treats the learner's moves ranked and the opponent's replies, from
/// the settings.
fn ranking(ctx: &Context) -> Ranking {
    Ranking {
        ask_main: ctx.settings.alternatives_asked_again,
        quiz_all: ctx.settings.quiz_all_moves,
        quiz_replies: ctx.settings.quiz_replies,
    }
}

impl DrillState {
    /// The learner's move on the drill's board (review mode grades it).
    pub(crate) fn play(&mut self, mv: Move, ctx: &mut Context, review: &mut dyn Grading) {
        ctx.last_reply = None;
        let before = ctx.session.position().clone();
        ctx.session.set_ranking(ranking(ctx));
        ctx.session.set_blindfold(ctx.settings.blindfold());
        let outcome = match review.play(mv, ctx) {
            Some(outcome) => outcome,
            None => ctx.session.play(mv),
        };
        if !matches!(
            outcome,
            MoveOutcome::Rejected | MoveOutcome::InRepertoire { .. }
        ) {
            let mistake = matches!(outcome, MoveOutcome::OutOfBook);
            ctx.progress.progress_mut().record_attempt(&before, mistake);
        }
        match outcome {
            MoveOutcome::Accepted { .. } => ctx.drill_move_sound(),
            MoveOutcome::OutOfBook => ctx.sound(Sound::Mistake),
            MoveOutcome::Rejected | MoveOutcome::InRepertoire { .. } => {}
        }
        // What a move of the repertoire was among the learner's moves there ("Also in
        // your repertoire — your main move is 4…Nc6") is the session's rank note, which
        // the drill panel shows until the learner's next move.
        ctx.message = match outcome {
            MoveOutcome::Accepted { .. }
            | MoveOutcome::OutOfBook
            | MoveOutcome::InRepertoire { .. } => None,
            MoveOutcome::Rejected => Some("That move cannot be played now.".to_owned()),
        };
    }

    /// Stepping through the moves: shows another position read-only; whether `action`
    /// was one of those.
    pub(crate) fn step(&self, action: Action, ctx: &mut Context) -> bool {
        let shown = shown_ply(ctx);
        let ply = match action {
            Action::StepBack => shown.saturating_sub(1),
            Action::StepForward => shown + 1,
            Action::ToStart => 0,
            Action::ToCurrent => ctx.session.moves().len(),
            _ => return false,
        };
        ctx.session.view(ply);
        true
    }

    /// The actions that change the drill alone; whether `action` was one of them.
    pub(crate) fn apply_action(
        &mut self,
        action: Action,
        ctx: &mut Context,
        review: &mut dyn Grading,
    ) -> bool {
        match action {
            Action::NewLineFromHere => {
                ctx.new_seed();
                ctx.session.new_line_from_here();
                ctx.last_reply = None;
            }
            Action::TryAgain => ctx.session.try_again(),
            Action::ShowMe => {
                ctx.last_reply = None;
                let outcome = match review.show_me(ctx) {
                    Some(outcome) => outcome,
                    None => ctx.session.show_me(),
                };
                if let Some(MoveOutcome::Accepted { san, .. }) = outcome {
                    ctx.message = Some(format!("The book plays {san}."));
                    if let Some(m) = ctx.session.moves().last() {
                        ctx.animate(m.mv);
                    }
                    ctx.drill_move_sound();
                }
            }
            Action::Hint => {
                let hinted = match review.hint(ctx) {
                    Some(hinted) => hinted,
                    None => ctx.session.ask_hint().is_some(),
                };
                if !hinted {
                    ctx.message = Some("No hint here.".to_owned());
                }
            }
            Action::TakeBack => {
                ctx.session.take_back();
                ctx.last_reply = None;
            }
            Action::Flip => {
                ctx.orientation = ctx.orientation.flipped();
                ctx.settings.orientation = Some(ctx.orientation);
            }
            Action::ContinueFromHere => {
                ctx.session.continue_from_here();
                ctx.last_reply = None;
            }
            _ => return false,
        }
        true
    }

    /// Each frame: the computer's reply once the reply delay has passed (review mode
    /// chooses it when it is on).
    pub(crate) fn computer_reply(&mut self, ctx: &mut Context, review: &mut dyn Grading) {
        ctx.session.set_ranking(ranking(ctx));
        ctx.session.set_blindfold(ctx.settings.blindfold());
        if !ctx.session.reply_pending() || ctx.session.viewing().is_some() {
            self.reply_due = None;
            return;
        }
        let now = ctx.now;
        let Some(due) = self.reply_due else {
            // The learner's move is drawn at least once before the reply, even with no delay.
            let delay = f64::from(ctx.settings.reply_delay_ms) / 1000.0;
            self.reply_due = Some(now + delay);
            ctx.request_repaint_after(Duration::from_secs_f64(delay));
            return;
        };
        if now + 1e-9 >= due {
            self.reply_due = None;
            // A transposition is announced under the opening name (Session::announcement).
            let reply = match review.reply(ctx) {
                Some(reply) => reply,
                None => ctx.session.reply(),
            };
            if let Some(reply) = reply {
                ctx.message = None;
                ctx.animate(reply.candidate.mv);
                ctx.last_reply = Some(reply);
                ctx.drill_move_sound();
            }
            ctx.request_repaint();
        } else {
            ctx.request_repaint_after(Duration::from_secs_f64(due - now));
        }
    }

    /// Takes back the mistake counted for the move shown: the drill's count (review
    /// mode's card in review), the progress at the position; whether one was counted.
    pub(crate) fn forgive_mistake(&mut self, ctx: &mut Context, review: &mut dyn Grading) -> bool {
        let before = ctx.session.position().clone();
        let forgiven = match review.forgive_mistake(ctx) {
            Some(forgiven) => forgiven,
            None => ctx.session.forgive_mistake(),
        };
        if forgiven {
            ctx.progress.progress_mut().forgive_mistake(&before);
        }
        forgiven
    }

    /// Takes back the move outside the book and plays the book move `book` instead
    /// (graded in review mode: helped), saying `message` once it is played.
    pub(crate) fn play_book_move_instead(
        &mut self,
        book: Move,
        message: String,
        ctx: &mut Context,
        review: &mut dyn Grading,
    ) {
        ctx.session.try_again();
        ctx.last_reply = None;
        let outcome = match review.play(book, ctx) {
            Some(outcome) => outcome,
            None => ctx.session.play(book),
        };
        if let MoveOutcome::Accepted { .. } = outcome {
            ctx.message = Some(message);
            ctx.animate(book);
            ctx.drill_move_sound();
        }
    }
}

/// Sets up the drill to show `moves` (for the screenshot): the learner plays the side
/// to move after them, so no reply is pending; seed 1, book arrows on, no animation.
/// When only the last move leaves the book, it is returned: the learner plays it once
/// the drill has its books (the board shows it out of book, with its verdict). `Err`:
/// the index of the move that leaves the book (the drill is unchanged; the message
/// says so).
pub(crate) fn show_moves(moves: &[Move], ctx: &mut Context) -> Result<Option<Move>, usize> {
    // Only the last move leaves the book (or is illegal: then it is refused).
    let last_leaves = matches!(
        Session::from_moves(
            Arc::clone(&ctx.graph),
            shakmaty::Color::White,
            ctx.settings.style.clone(),
            1,
            moves,
        ),
        Err(i) if i + 1 == moves.len()
    );
    let (given, attempt) = match moves.split_last() {
        Some((&last, given)) if last_leaves => (given, Some(last)),
        _ => (moves, None),
    };
    let mut pos = shakmaty::Chess::default();
    for &mv in given {
        pos.play_unchecked(mv);
    }
    let learner = pos.turn();
    ctx.settings.learner = Side::from(learner);
    ctx.settings.seed = "1".to_owned();
    ctx.settings.reply_delay_ms = 0;
    ctx.settings.show_arrows = true;
    ctx.settings.animate_moves = false;
    ctx.orientation = Orientation::from_color(learner);
    match Session::from_moves(
        Arc::clone(&ctx.graph),
        learner,
        ctx.settings.style.clone(),
        1,
        given,
    ) {
        Ok(session) => {
            ctx.session = session;
            Ok(attempt)
        }
        Err(i) => {
            ctx.message = Some(format!(
                "Move {} of --moves leaves the book; showing the start.",
                i + 1
            ));
            Err(i)
        }
    }
}
