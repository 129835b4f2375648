//! The drill: one line of the book played against the computer, as a pure state machine.
//!
//! [`Session`] knows no window and no files: the user interface feeds it moves and
//! button presses and draws what it reports; tests script whole drills with a seed.

pub mod learner_style;
pub mod progress;
mod session;

pub use session::{
    BookMove, DEFAULT_REPLY_DELAY, Hint, MoveOutcome, Phase, PlayedMove, Reply, Session,
};
