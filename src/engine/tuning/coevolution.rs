//! The co-evolution of seed 003 (Klevansky, Ostroff and Offen, "Determining the Optimal
//! Tradeoff for building Chess Playing Agents: Genetically Tuned vs. Neural Features",
//! Technion, 2023; `ARCHITECTURE.md`, References): several GA winners and their pairwise
//! crossovers play a round robin; an organism's points are its fitness (a win +1, a loss
//! −1, a draw 0).
//!
//! Each pair plays two openings (the start position and the Sicilian, the seed's
//! Figures 49 and 50) with both colours, four games, at depth 3; a game still going
//! after 15 moves a side is won by the side with more material. The seed's GA settings
//! are elitism 0.2, no mutation, crossover 0.75, four generations
//! ([`coevolution_config`]).

use std::sync::Arc;

use rand::Rng;

use crate::engine::Engine;
use crate::engine::alphabeta::AlphaBeta;
use crate::engine::error::EngineError;
use crate::engine::evaluation::Evaluation;
use crate::engine::limits::Limits;
use crate::engine::matches::{MatchError, Openings, openings};
use crate::engine::tournament::{TournamentConfig, round_robin};
use crate::engine::tuned::{TunedEval, Weights};
use crate::genetic::{Chromosome, GaConfig, Problem, cross, windowed};

/// Plies after the opening before a game is adjudicated by material (15 moves a side).
pub const COEVOLUTION_PLIES: usize = 30;

/// The seed's co-evolution settings for `organisms` organisms: four generations,
/// crossover 0.75, no mutation, elitism 0.2.
pub fn coevolution_config(organisms: usize) -> GaConfig {
    GaConfig {
        population: organisms,
        generations: 4,
        crossover_rate: 0.75,
        mutation_rate: 0.0,
        elitism: 0.2,
    }
}

/// The first population: the winners, then one uniform crossover of each pair of them
/// (5 winners give 15 organisms).
pub fn first_population(winners: &[Weights], rng: &mut impl Rng) -> Vec<Chromosome> {
    let mut out: Vec<Chromosome> = winners.iter().map(Weights::to_chromosome).collect();
    for i in 0..winners.len() {
        for j in i + 1..winners.len() {
            let mut a = winners[i].to_chromosome();
            let mut b = winners[j].to_chromosome();
            cross(&mut a, &mut b, rng);
            out.push(a);
        }
    }
    out
}

/// The co-evolution problem: the population plays a round robin.
pub struct CoEvolution<'a> {
    config: TournamentConfig,
    /// Called after each pair has played (for a progress bar).
    on_pair: Box<dyn Fn() + Sync + 'a>,
}

impl<'a> CoEvolution<'a> {
    /// Round robins at `depth` on `threads` threads (0: one per core).
    ///
    /// # Errors
    ///
    /// [`MatchError::Openings`] if the embedded openings do not replay (a bug).
    pub fn new(depth: u32, threads: usize) -> Result<CoEvolution<'a>, MatchError> {
        let ten = openings(Openings::Seed003, 10, 0)?;
        let (start, sicilian) = (ten[0].clone(), ten[3].clone());
        Ok(CoEvolution {
            config: TournamentConfig {
                limits: Limits::depth(depth).unwrap_or(Limits::ONE_PLY),
                openings: vec![start, sicilian],
                max_plies: COEVOLUTION_PLIES,
                material_at_cap: true,
                threads,
            },
            on_pair: Box::new(|| {}),
        })
    }

    /// Calls `f` after each pair has played.
    pub fn on_pair(mut self, f: impl Fn() + Sync + 'a) -> CoEvolution<'a> {
        self.on_pair = Box::new(f);
        self
    }

    /// Pairs in a round robin of `organisms`.
    pub fn pairs(organisms: usize) -> usize {
        organisms * organisms.saturating_sub(1) / 2
    }
}

/// An engine searching with `weights`.
fn engine(weights: &Weights) -> Box<dyn Engine> {
    let evaluation = Evaluation::Tuned(Arc::new(TunedEval::new(*weights)));
    Box::new(AlphaBeta::with_evaluation(4, 0, evaluation))
}

impl Problem for CoEvolution<'_> {
    fn layout(&self) -> Vec<u32> {
        Weights::layout()
    }

    fn score(&mut self, batch: &[Chromosome]) -> Vec<f64> {
        let weights: Vec<Option<Weights>> = batch
            .iter()
            .map(|c| Weights::from_chromosome(c).ok())
            .collect();
        let played = round_robin(
            batch.len(),
            &self.config,
            |i| -> Result<Box<dyn Engine>, EngineError> {
                Ok(engine(&weights[i].unwrap_or_else(Weights::seed_coevolved)))
            },
            &*self.on_pair,
        );
        let mut points = vec![0.0; batch.len()];
        for g in played.unwrap_or_default() {
            let w = g.white_points();
            // +1 a win, −1 a loss, 0 a draw.
            points[g.white] += 2.0 * w - 1.0;
            points[g.black] += 1.0 - 2.0 * w;
        }
        for (p, w) in points.iter_mut().zip(&weights) {
            if w.is_none() {
                *p = f64::NEG_INFINITY;
            }
        }
        points
    }

    /// Points can be negative: the wheel is windowed.
    fn wheel(&self, scores: &[f64]) -> Vec<f64> {
        windowed(scores)
    }

    fn is_relative(&self) -> bool {
        true
    }
}
