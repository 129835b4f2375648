//! The drill: one line of the book played against the computer, as a pure state machine.
//!
//! [`Session`] knows no window and no files: the user interface feeds it moves and
//! button presses and draws what it reports; tests script whole drills with a seed.
//!
//! - [`Session`] (`session`, with `session/naming`: opening names, transpositions, theory
//!   notes) and what it reports (`phase`).
//! - [`review_drill`]: review mode, a [`Session`] driven by the spaced-repetition queue.
//! - [`progress`]: tries and mistakes per position, completed lines.
//! - [`play_on`]: playing on against an engine after the book.
//! - [`check`]: engine-checked repertoires (analyses, soundness report).
//! - [`move_entry`]: moves typed on the keyboard (completions, the move an entry means).
//! - [`verdict`]: a move outside the book judged by an engine (also good … blunder) and
//!   its refutation.

pub mod check;
pub mod compare;
pub mod coverage;
pub mod learner_style;
pub mod move_entry;
mod phase;
pub mod play_on;
pub mod progress;
pub mod review_drill;
mod session;
pub mod verdict;

pub use phase::{BookMove, Hint, MoveOutcome, Phase, PlayedMove, Reply};
pub use session::{DEFAULT_REPLY_DELAY, PastBook, ReviewSteering, Session};
