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
//! this"'s subtree; playing on; exploring) is the coach's dispatch (`coach/apply.rs`).

pub(crate) mod commands;
pub mod move_entry;

pub use self::move_entry::{MoveEntryCommand, MoveEntryState};

use crate::coach::context::Context;
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
    /// Gives the drill the workspace's Polyglot books and popularity, and play past the
    /// book as the settings say.
    pub(crate) fn sync_books(&mut self, ctx: &mut Context) {
        self.books_seen = ctx.workspace.open_books().generation();
        ctx.settings.book = ctx.workspace.choice().clone();
        let books = ctx.workspace.books();
        ctx.session.set_books(books, ctx.settings.book.popularity);
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
}
