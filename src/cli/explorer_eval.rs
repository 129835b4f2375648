//! `hastings explorer query --eval`: the engine's evaluation of the position after each
//! move, analysed as `hastings check` analyses (the same engines and limits, kept in
//! the same cache of analyses between runs).

use std::num::NonZeroU32;
use std::path::PathBuf;

use clap::Args;
use shakmaty::{Chess, Color, Move, Position as _};

use super::CliError;
use super::args::positive;
use crate::engine::spec::EngineSpec;
use crate::engine::{Engine, EngineError, Score};
use crate::job::JobProgress;
use crate::trainer::check::{AnalysisStore, MemoryStore, analyse_positions};
use crate::workspace::analysis_cache::{AnalysisCache, AnalysisEngine, default_cache_dir};

/// The options of `explorer query` for evaluating each move.
#[derive(Debug, Clone, Default, Args)]
pub struct ExplorerEvalArgs {
    /// Evaluate the position after each move with an engine (`eval` in the JSON, in
    /// pawns from White's point of view).
    #[arg(long)]
    pub eval: bool,
    /// The engine: `stockfish`, `builtin`, or a UCI engine's path, with options.
    /// Default: Stockfish when installed, else built-in.
    #[arg(long, value_name = "ENGINE", requires = "eval")]
    pub engine: Option<EngineSpec>,
    /// Search each position to this depth (default 12 for a UCI engine, 6 built-in).
    #[arg(long, value_name = "PLIES", requires = "eval", value_parser = positive::<NonZeroU32>)]
    pub depth: Option<NonZeroU32>,
    /// Where analyses are kept between runs (default: `analysis/` in the data folder).
    #[arg(
        long,
        value_name = "DIR",
        requires = "eval",
        conflicts_with = "no_cache"
    )]
    pub cache: Option<PathBuf>,
    /// Keep no analyses between runs.
    #[arg(long, requires = "eval")]
    pub no_cache: bool,
}

impl ExplorerEvalArgs {
    /// The evaluation after each of `moves` at `pos` (from White's point of view), or
    /// nothing without `--eval`.
    ///
    /// # Errors
    ///
    /// [`CliError`] when the engine cannot start or fails, or the cache cannot be
    /// read or written.
    pub fn evaluate(&self, pos: &Chess, moves: &[Move]) -> Result<Vec<Option<Score>>, CliError> {
        if !self.eval {
            return Ok(vec![None; moves.len()]);
        }
        let engine = AnalysisEngine::choose(self.engine.clone(), self.depth, None);
        let name = engine.spec.start(0)?.name();
        let mut store: Box<dyn AnalysisStore> = if self.no_cache {
            Box::new(MemoryStore::new())
        } else {
            let dir = self
                .cache
                .clone()
                .or_else(default_cache_dir)
                .ok_or_else(|| {
                    CliError::Usage(
                        "no data folder for the analyses: give --cache DIR or --no-cache"
                            .to_owned(),
                    )
                })?;
            let cache = AnalysisCache::open(&dir, &name, &engine.limit)?;
            for w in cache.warnings() {
                eprintln!("hastings: {w}");
            }
            Box::new(cache)
        };
        let after: Vec<Chess> = moves
            .iter()
            .map(|&m| {
                let mut p = pos.clone();
                p.play_unchecked(m);
                p
            })
            .collect();
        let spec = &engine.spec;
        let make_engine = || -> Result<Box<dyn Engine>, EngineError> { spec.start(0) };
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        analyse_positions(
            &after,
            store.as_mut(),
            &make_engine,
            threads,
            &engine.limits,
            &JobProgress::new(),
        )
        .map_err(|e| CliError::Usage(format!("the evaluation stopped: {e}")))?;
        Ok(after
            .iter()
            .map(|p| store.get(p).map(|a| a.score_for(Color::White, p.turn())))
            .collect())
    }
}
