//! Where analyses are kept between runs: a store keyed by position (EPD), scoped by
//! whoever opens it to one engine and one limit, so that a re-check analyses only new
//! positions. The workspace keeps one on disk; [`MemoryStore`] keeps one for a session.

use rustc_hash::FxHashMap;
use shakmaty::fen::Epd;
use shakmaty::{Chess, EnPassantMode};

use crate::engine::analysis::Analysis;

/// The key of a position in a store: its EPD, with an en-passant square only when a
/// capture there is legal (as Polyglot and the graph identify positions).
pub fn epd_key(pos: &Chess) -> String {
    Epd::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Analyses of one engine at one limit, by position.
pub trait AnalysisStore: Send {
    /// The analysis of `pos`, if kept.
    fn get(&self, pos: &Chess) -> Option<Analysis>;

    /// Keeps the analysis of `pos`.
    ///
    /// # Errors
    ///
    /// The store's I/O error (a file store that cannot write); the analysis is then
    /// not kept.
    fn put(&mut self, pos: &Chess, analysis: &Analysis) -> std::io::Result<()>;

    /// Holds the analysis of `pos` for as long as the store lives, without keeping it
    /// where the store keeps its own (another engine's or limit's analysis, shared: a
    /// file store holds it in memory only). By default as [`AnalysisStore::put`].
    ///
    /// # Errors
    ///
    /// As [`AnalysisStore::put`].
    fn remember(&mut self, pos: &Chess, analysis: &Analysis) -> std::io::Result<()> {
        self.put(pos, analysis)
    }

    /// How many positions it holds.
    fn len(&self) -> usize;

    /// Whether it holds none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A store in memory (tests, and the window when no data folder can be written).
#[derive(Clone, Debug, Default)]
pub struct MemoryStore {
    analyses: FxHashMap<String, Analysis>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }
}

impl AnalysisStore for MemoryStore {
    fn get(&self, pos: &Chess) -> Option<Analysis> {
        self.analyses.get(&epd_key(pos)).cloned()
    }

    fn put(&mut self, pos: &Chess, analysis: &Analysis) -> std::io::Result<()> {
        self.analyses.insert(epd_key(pos), analysis.clone());
        Ok(())
    }

    fn len(&self) -> usize {
        self.analyses.len()
    }
}
