//! Is a repertoire sound? Every position of a repertoire analysed by an engine, and
//! what the analyses say: the learner's moves that lose, the opponent's replies the
//! repertoire meets badly, how each line ends, and the repertoire's value backed up by
//! min-max and by the drill's exact reply distribution.
//!
//! A check has three steps, each usable alone:
//!
//! 1. [`positions_to_analyse`]: the drill's tree (an [`Exposure`](crate::trainer::coverage::Exposure)
//!    of the repertoire to the theory) and the repertoire's own positions, each once.
//! 2. [`analyse_positions`]: the engine analyses those not yet in the
//!    [`AnalysisStore`], on several threads, keeping each result at once (a stopped
//!    run resumes; a second run analyses nothing).
//! 3. [`report()`]: the findings, from the store alone.
//!
//! The parts: [`store`] (analyses by position), [`positions`] (what to analyse, the way
//! to each), [`run`] (the engines on threads), [`report`](mod@report) (loss, back-up),
//! [`learn_next`](mod@learn_next) (which line to learn next).

pub mod learn_next;
pub mod positions;
pub mod report;
pub mod run;
pub mod store;

pub use learn_next::{LearnNext, MIN_STAKE_CP, learn_next};
pub use positions::{Path, joined_theory, positions_to_analyse};
pub use report::{CAP_CP, DEFAULT_THRESHOLD_CP, Finding, LineEnd, Report, report};
pub use run::{RunError, RunStats, analyse_positions};
pub use store::{AnalysisStore, MemoryStore, epd_key};
