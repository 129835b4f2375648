//! Tuning the evaluation of seed 003 (Klevansky, Ostroff and Offen, "Determining the
//! Optimal Tradeoff for building Chess Playing Agents: Genetically Tuned vs. Neural
//! Features", Technion, 2023; `ARCHITECTURE.md`, References) with the project's genetic
//! algorithm ([`crate::genetic`]): first on master moves, then by co-evolution.
//!
//! - [`positions`]: the training positions, one random position from each of a random
//!   choice of games;
//! - [`fitness`]: the first stage's fitness ([`MoveMatching`]: positions a depth-N search
//!   answers with the move played), scored on every core;
//! - [`coevolution`]: the second stage ([`CoEvolution`]: GA winners and their crossovers
//!   play a round robin);
//! - [`state`]: a run between generations, as a file, so a run can stop and resume.
//!
//! A run is a pure function of its seed: generation `g` breeds with a generator seeded
//! with the seed on stream `g` ([`generation_rng`]), and the scores do not depend on
//! the threads, so stopping and resuming gives the weights an unbroken run gives.

pub mod coevolution;
pub mod fitness;
pub mod positions;
pub mod state;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use coevolution::{CoEvolution, coevolution_config, first_population};
pub use fitness::{MoveMatching, count_matches, parallel_map, worker_count};
pub use positions::{Sample, sample_positions};
pub use state::{GenerationStats, Stage, StateError, TrainState};

use crate::genetic::{Chromosome, GaConfig, Population, Problem, random_chromosome, step};

/// The generator of generation `generation` (0: the first population) of a run seeded
/// with `seed`.
pub fn generation_rng(seed: u64, generation: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(generation as u64);
    rng
}

/// `size` random chromosomes of `problem`'s layout, drawn with generation 0's
/// generator.
pub fn random_population(problem: &impl Problem, size: usize, seed: u64) -> Vec<Chromosome> {
    let layout = problem.layout();
    let mut rng = generation_rng(seed, 0);
    (0..size)
        .map(|_| random_chromosome(&layout, &mut rng))
        .collect()
}

/// The next generation of `population`, bred with its generation's generator.
pub fn next_generation(
    population: &Population,
    config: &GaConfig,
    problem: &mut impl Problem,
    seed: u64,
) -> Population {
    let mut rng = generation_rng(seed, population.generation + 1);
    step(population, config, problem, &mut rng)
}
