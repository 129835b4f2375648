//! The drill: the state it keeps beside the session (which is in the context, since
//! every feature reads the drill's position): when the computer's reply is due, the
//! completed lines already recorded, the books the drill last took.
//!
//! - [`move_entry`]: the move box (a move typed on the keyboard).
//! - `commands`: the drill's own commands (a move, hint, show me, take back, try again,
//!   stepping through the moves, flip), the computer's reply, a mistake forgiven, the
//!   moves set up for the screenshot; review mode grades them through the context's
//!   `Grading`, which the coach passes in. `DrillState::sync_books` gives the drill
//!   the workspace's books.
//!
//! What crosses features (a new line, which may be review mode's next card or "Train
//! this"'s subtree; playing on; exploring) is the coach's dispatch (`coach/mod.rs`).

pub(crate) mod commands;
pub mod move_entry;

pub use self::move_entry::{MoveEntryCommand, MoveEntryState};

use shakmaty::{Chess, Color, Move, Position as _};

use crate::coach::context::{Context, Event};
use crate::engine::predictor::Predictor;
use crate::trainer::PastBook;

/// What the drill keeps between frames.
#[derive(Debug, Default)]
pub struct DrillState {
    /// When (caller's time) the computer's pending reply is due.
    pub(crate) reply_due: Option<f64>,
    /// `Session::lines_completed` when completions were last recorded.
    pub(crate) completed_seen: u32,
    /// The workspace's books generation the drill last took its books from.
    pub(crate) books_seen: u64,
    /// The move box's text and its last error.
    pub(crate) move_entry: MoveEntryState,
}

impl DrillState {
    /// The move box: its text and why the last entry was not played.
    pub fn move_entry(&self) -> &MoveEntryState {
        &self.move_entry
    }

    /// Gives the drill the workspace's Polyglot books and popularity, and play past the
    /// book as the settings say.
    pub(crate) fn sync_books(&mut self, ctx: &mut Context) {
        self.books_seen = ctx.workspace.open_books().generation();
        ctx.settings.book = ctx.workspace.choice().clone();
        let books = ctx.workspace.books();
        ctx.session
            .set_books(books, ctx.settings.book.drill_popularity());
        let plies = ctx.settings.past_book_plies;
        let past_book = match (plies, Predictor::shared()) {
            (0, _) => None,
            (plies, Ok(predictor)) => Some(PastBook::new(predictor, plies)),
            (_, Err(e)) => {
                ctx.message = Some(format!("Past the book is off: {e}"));
                None
            }
        };
        ctx.session.set_past_book(past_book);
    }

    /// Records the lines the drill completed since the last call in the progress; a
    /// completed line is an event (it counts for the learner's style).
    pub(crate) fn record_completions(&mut self, ctx: &mut Context) {
        let done = ctx.session.lines_completed();
        if done > self.completed_seen {
            let session = &ctx.session;
            let title = session.opening_title();
            let title = title.unwrap_or_else(|| "unnamed line".to_owned());
            ctx.progress.progress_mut().record_completion(&title);
            let line = (session.position_at(0).board() == Chess::default().board()).then(|| {
                let moves: Vec<Move> = session.moves().iter().map(|m| m.mv).collect();
                (moves, session.learner())
            });
            if let Some((moves, learner)) = &line {
                let progress = ctx.progress.progress_mut();
                progress.record_style_line(moves, *learner);
            }
            ctx.progress.save();
            ctx.send(Event::LineCompleted(line));
        }
        self.completed_seen = done;
    }
}

/// Drills from the position after `moves` (from the standard start) in the book; says
/// so when it is not there. The learner should play the side to move there
/// ([`side_to_move_after`]).
pub(crate) fn drill_from(moves: &[Move], ctx: &mut Context) {
    ctx.last_reply = None;
    if ctx.session.start_after(moves).is_err() {
        ctx.message = Some("That position is not in the book.".to_owned());
    }
}

/// The side to move after `moves` from the standard start.
pub(crate) fn side_to_move_after(moves: &[Move]) -> Color {
    if moves.len().is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}
