//! Spaced repetition that steers the opponent.
//!
//! - A **card** ([`CardKey`]) is a position where the learner is to move and the book has
//!   a move for them, keyed by board and side to move as graph nodes are, so a
//!   transposition is one card. A [`Deck`] holds the cards of one book for one colour.
//! - The **review log** ([`log`]) is the source of truth: one record per review. Card
//!   states ([`Schedule`]) are replayed from it through FSRS-6 (the `fsrs` crate) by a
//!   [`Scheduler`] with the learner's parameters and desired retention.
//! - A [`Study`] of a deck at a moment gives the session queue (due cards most urgent
//!   first, new cards up to a daily limit, or a mistakes-only session), the counts, a
//!   30-day forecast, measured retention and per-line mastery.
//! - The **review term** ([`steer::ReviewTerm`]) steers the computer's replies toward
//!   due cards: `A(y) += w_r · d(y)` in the Metropolis–Hastings acceptance.
//! - [`optimize`] fits personal FSRS parameters to the log.
//! - A session can also be chosen ([`SessionChoice`], [`choice`]): due this week, the
//!   most common, the most difficult, all, one branch, one chapter.
//!
//! Files: `card`, `choice`, `deck`, `log`, `schedule`, `study`, `steer` and `optimize`
//! as above; `grade` (an answer's rating, from the first try, the help and the time);
//! `new_lines` (the lines "Learn new lines" teaches);
//! `report` (what `hastings review` prints, the Progress tab's numbers) and `time` (RFC
//! 3339 times and the learner's days, which start at 04:00).
//!
//! No file is opened and no clock is read here: the caller passes bytes and times in
//! ([`crate::workspace::review_store`] does the files; the window and the CLI pass the
//! time). The drill that grades cards is [`crate::trainer::review_drill`].

pub mod card;
pub mod choice;
pub mod deck;
pub mod grade;
pub mod log;
pub mod new_lines;
pub mod optimize;
pub mod report;
pub mod schedule;
pub mod steer;
pub mod study;
pub mod time;

pub use card::{CardKey, Rating};
pub use choice::SessionChoice;
pub use deck::{Deck, DeckCard};
pub use grade::GradeSettings;
pub use log::ReviewRecord;
pub use schedule::{CardState, Memory, Schedule, Scheduler};
pub use steer::{ReviewTerm, SteerSettings};
pub use study::{Counts, DeckStates, QueueEntry, SessionKind, Study};
pub use time::{TimeError, Timestamp};
