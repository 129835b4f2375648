//! A tuning run between two generations, as RON text: the settings, the stage's data
//! (the training positions as FEN and UCI, or the co-evolution's winners), the
//! population and each generation's best and mean fitness. `hastings train eval`
//! writes it after every generation and resumes from it.

use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use thiserror::Error;

use super::positions::Sample;
use crate::genetic::{Chromosome, GaConfig, Population};

/// Which stage a run is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Stage {
    /// The GA on master moves.
    Matching {
        /// The search depth of the fitness.
        depth: u32,
        /// The games files' names the positions were drawn from.
        games: Vec<String>,
        /// The earliest ply a position was drawn from.
        min_ply: u32,
        /// How many positions were asked for.
        wanted: usize,
        /// The training positions: FEN and the move played (UCI).
        positions: Vec<(String, String)>,
    },
    /// Co-evolution from GA winners.
    Coevolution {
        /// The round robin's search depth.
        depth: u32,
        /// The winners it started from.
        winners: Vec<Chromosome>,
    },
}

/// The best and mean fitness of a generation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationStats {
    /// The generation (0: the first population).
    pub generation: usize,
    /// The fittest organism's fitness.
    pub best: f64,
    /// The mean fitness.
    pub mean: f64,
}

impl GenerationStats {
    /// The statistics of `population`.
    pub fn of(population: &Population) -> GenerationStats {
        GenerationStats {
            generation: population.generation,
            best: population.best().map_or(0.0, |o| o.score),
            mean: population.mean(),
        }
    }
}

/// A run between generations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainState {
    /// The command that started it.
    pub command: String,
    /// The seed.
    pub seed: u64,
    /// The GA's settings.
    pub config: GaConfig,
    /// The stage and its data.
    pub stage: Stage,
    /// The last population.
    pub population: Population,
    /// Every generation's statistics so far.
    pub history: Vec<GenerationStats>,
}

/// A state file that cannot be used.
#[derive(Debug, Error)]
pub enum StateError {
    /// Not the state's RON.
    #[error("not a tuning state: {0}")]
    Syntax(String),
    /// A training position or move that does not read.
    #[error("training position {index}: {reason}")]
    Position {
        /// Its index.
        index: usize,
        /// Why.
        reason: String,
    },
}

/// Why a saved state does not continue the run asked for: the first setting that
/// differs.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum OtherRun {
    /// Another seed.
    #[error("it was seeded with {saved}, not {asked}")]
    Seed {
        /// The state's seed.
        saved: u64,
        /// The seed asked for.
        asked: u64,
    },
    /// Other GA settings (beyond the number of generations).
    #[error("its settings were {0:?}")]
    Settings(GaConfig),
    /// Other positions drawn for the GA on master moves.
    #[error(
        "it drew {wanted} positions from ply {min_ply} of {games:?} and searched them at depth \
         {depth}"
    )]
    Positions {
        /// The state's search depth.
        depth: u32,
        /// The state's games files.
        games: Vec<String>,
        /// The state's earliest ply.
        min_ply: u32,
        /// How many positions the state asked for.
        wanted: usize,
    },
    /// Another stage, or co-evolution from other winners.
    #[error("it is another stage or started from other winners")]
    Stage,
}

/// Positions as (FEN, UCI) text.
pub fn samples_to_text(samples: &[Sample]) -> Vec<(String, String)> {
    samples
        .iter()
        .map(|(pos, mv)| {
            (
                Fen::from_position(pos, EnPassantMode::Legal).to_string(),
                mv.to_uci(CastlingMode::Standard).to_string(),
            )
        })
        .collect()
}

/// Positions from (FEN, UCI) text.
///
/// # Errors
///
/// [`StateError::Position`] naming the first position or move that does not read or
/// is illegal.
pub fn samples_from_text(text: &[(String, String)]) -> Result<Vec<Sample>, StateError> {
    text.iter()
        .enumerate()
        .map(|(index, (fen, uci))| {
            let bad = |reason: String| StateError::Position { index, reason };
            let pos: Chess = fen
                .parse::<Fen>()
                .map_err(|e| bad(format!("{fen}: {e}")))?
                .into_position(CastlingMode::Standard)
                .map_err(|e| bad(format!("{fen}: {e}")))?;
            let mv = uci
                .parse::<UciMove>()
                .map_err(|e| bad(format!("{uci}: {e}")))?
                .to_move(&pos)
                .map_err(|e| bad(format!("{uci}: {e}")))?;
            if !pos.is_legal(mv) {
                return Err(bad(format!("{uci} is illegal")));
            }
            Ok((pos, mv))
        })
        .collect()
}

impl TrainState {
    /// The state as RON.
    ///
    /// # Errors
    ///
    /// When serialising fails (it does not for finite fitness values).
    pub fn to_ron(&self) -> Result<String, StateError> {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| StateError::Syntax(e.to_string()))
    }

    /// Reads a state's RON.
    ///
    /// # Errors
    ///
    /// [`StateError::Syntax`] with the line and column of the problem.
    pub fn from_ron(text: &str) -> Result<TrainState, StateError> {
        ron::from_str(text).map_err(|e| StateError::Syntax(e.to_string()))
    }

    /// Whether this state continues a run of `seed`, `config` (the number of
    /// generations may differ) and `stage` (for the GA on master moves, its settings:
    /// the positions themselves are the state's, drawn when the run started); `Err`
    /// says what differs.
    ///
    /// # Errors
    ///
    /// [`OtherRun`] naming the first setting that differs.
    pub fn continues(&self, seed: u64, config: &GaConfig, stage: &Stage) -> Result<(), OtherRun> {
        if self.seed != seed {
            return Err(OtherRun::Seed {
                saved: self.seed,
                asked: seed,
            });
        }
        let same_run = GaConfig {
            generations: config.generations,
            ..self.config
        };
        if same_run != *config {
            return Err(OtherRun::Settings(self.config));
        }
        match (&self.stage, stage) {
            (
                Stage::Matching {
                    depth,
                    games,
                    min_ply,
                    wanted,
                    ..
                },
                Stage::Matching {
                    depth: d,
                    games: g,
                    min_ply: m,
                    wanted: w,
                    ..
                },
            ) if (depth, games, min_ply, wanted) != (d, g, m, w) => Err(OtherRun::Positions {
                depth: *depth,
                games: games.clone(),
                min_ply: *min_ply,
                wanted: *wanted,
            }),
            (Stage::Matching { .. }, Stage::Matching { .. }) => Ok(()),
            (a, b) if a != b => Err(OtherRun::Stage),
            _ => Ok(()),
        }
    }
}
