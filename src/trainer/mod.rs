//! The drill: one line of the book played against the computer, as a state machine;
//! and what is computed about a repertoire (coverage, checks, comparisons).
//!
//! [`Session`] knows no window and no files: the user interface feeds it moves and
//! button presses and draws what it reports; tests script whole drills with a seed. The
//! state machines are not all pure: engines and the move predictor run on threads of
//! their own (a play-on opponent, a wrong move's verdict, the predictor's replies past
//! the book, a check's engines on every core), and report over channels that the
//! caller polls.
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
//! - [`coverage`]: the exact chance a drill reaches each position, the repertoire's
//!   gaps, coverage by depth, redundant moves.
//! - [`spar`]: sparring at a rating past the repertoire: an explorer's games of a band
//!   while enough reach the position, then the human-like model with its temperature
//!   fitted to them.
//! - [`compare`]: the learner's games against the repertoire (where each left it).
//! - [`learner_style`]: the learner's style as BayesChess classifies a player's
//!   (attacking, positional, mixed), and the adaptive opponent.

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
pub mod spar;
pub mod verdict;

pub use phase::{BookMove, Hint, MoveOutcome, Phase, PlayedMove, Reply};
pub use session::{DEFAULT_REPLY_DELAY, PastBook, Ranking, ReviewSteering, Session};
