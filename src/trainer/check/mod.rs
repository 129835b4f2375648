//! Is a repertoire sound? Every position of a repertoire analysed by an engine, and
//! what the analyses say: the learner's moves that lose, the opponent's replies the
//! repertoire meets badly, how each line ends, and the repertoire's value backed up by
//! min-max and by the drill's exact reply distribution.
//!
//! - [`store`]: analyses kept by position, so a re-check analyses only new positions.

pub mod store;

pub use store::{AnalysisStore, MemoryStore, epd_key};
