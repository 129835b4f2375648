//! The genetic algorithm, one for the whole project: a population of bit-string
//! chromosomes, scored by a [`Problem`], bred generation by generation with the
//! operators Klevansky, Ostroff and Offen use to tune an evaluation (after David,
//! Koppel and Netanyahu):
//!
//! - **Elitism**: the best `elitism` share of the population (rounded up, at least one)
//!   is copied over unchanged.
//! - **Fitness proportional selection** (roulette wheel): each parent is drawn with
//!   probability proportional to its weight on the wheel ([`Problem::wheel`]: the score
//!   itself by default, clamped at 0; [`windowed`] for scores that can be negative).
//! - **Uniform crossover**: with probability `crossover_rate` two parents exchange each
//!   gene with probability ½, giving two children; otherwise the children are copies.
//! - **Bit flip mutation**: every bit of a child flips with probability `mutation_rate`.
//!
//! A chromosome is a list of genes, each an unsigned integer of the width its
//! [`Problem::layout`] gives (1 to 32 bits); crossover swaps whole genes, mutation flips
//! bits. The problem decides what the genes mean and scores whole batches, so it can
//! spread the work over threads. When a score depends on the rest of the population
//! (co-evolution: organisms play each other), [`Problem::is_relative`] makes every
//! generation score all its organisms, elites included.
//!
//! All randomness comes from the generator passed in: a seed repeats the run. [`step`]
//! is one generation, so a caller can save the population between generations and
//! resume.
//!
//! ```
//! use hastings::genetic::{GaConfig, Problem, evolve};
//! use rand::SeedableRng;
//!
//! /// Maximise the number of one bits in eight 4-bit genes.
//! struct Ones;
//! impl Problem for Ones {
//!     fn layout(&self) -> Vec<u32> {
//!         vec![4; 8]
//!     }
//!     fn score(&mut self, batch: &[Vec<u32>]) -> Vec<f64> {
//!         batch.iter().map(|c| c.iter().map(|g| f64::from(g.count_ones())).sum()).collect()
//!     }
//! }
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let start = vec![vec![0; 8]; 20];
//! let config = GaConfig { population: 20, generations: 30, ..GaConfig::default() };
//! let last = evolve(start, &config, &mut Ones, &mut rng, |_| {});
//! assert!(last.best().is_some_and(|o| o.score >= 20.0));
//! ```

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

/// A chromosome: one value per gene, each within its gene's width.
pub type Chromosome = Vec<u32>;

/// The settings of the algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaConfig {
    /// Organisms per generation.
    pub population: usize,
    /// Generations after the initial population.
    pub generations: usize,
    /// The probability that two parents are crossed (else copied).
    pub crossover_rate: f64,
    /// The probability that a bit of a child flips.
    pub mutation_rate: f64,
    /// The share of the population copied over unchanged.
    pub elitism: f64,
}

impl Default for GaConfig {
    /// Population 50, 40 generations, crossover 0.75, mutation 0.02 per bit, elitism 0.1.
    fn default() -> GaConfig {
        GaConfig {
            population: 50,
            generations: 40,
            crossover_rate: 0.75,
            mutation_rate: 0.02,
            elitism: 0.1,
        }
    }
}

impl GaConfig {
    /// The seed's rates for tuning an evaluation: crossover 0.75, mutation 0.005 per
    /// bit, elitism 0.1, with 75 organisms and 150 generations.
    pub fn seed003() -> GaConfig {
        GaConfig {
            population: 75,
            generations: 150,
            crossover_rate: 0.75,
            mutation_rate: 0.005,
            elitism: 0.1,
        }
    }

    /// How many organisms elitism keeps: the share rounded up, at least one (10 % of 5
    /// still keeps one), at most the population.
    pub fn elites(&self) -> usize {
        let size = self.population.max(2);
        ((size as f64 * self.elitism).ceil() as usize).clamp(1, size)
    }
}

/// What the algorithm optimises.
pub trait Problem {
    /// The width in bits (1–32) of each gene.
    fn layout(&self) -> Vec<u32>;

    /// The score of each chromosome of `batch`, in order; higher is fitter. Scores are
    /// compared with [`f64::total_cmp`], so −∞ is the worst.
    fn score(&mut self, batch: &[Chromosome]) -> Vec<f64>;

    /// The weights of a population's organisms on the roulette wheel (non-negative),
    /// given their scores. By default the score itself, clamped at 0.
    fn wheel(&self, scores: &[f64]) -> Vec<f64> {
        scores
            .iter()
            .map(|s| if s.is_finite() { s.max(0.0) } else { 0.0 })
            .collect()
    }

    /// Whether a score depends on the rest of the population (co-evolution), so that
    /// every generation scores all its organisms again.
    fn is_relative(&self) -> bool {
        false
    }
}

/// A scored chromosome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Organism {
    /// Its genes.
    pub chromosome: Chromosome,
    /// Its score.
    pub score: f64,
}

/// A population after some generations, fittest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Population {
    /// The organisms, fittest first (ties keep their order).
    pub organisms: Vec<Organism>,
    /// Generations bred so far (0: the initial population).
    pub generation: usize,
}

impl Population {
    /// Scores `chromosomes` as generation 0.
    pub fn initial(chromosomes: Vec<Chromosome>, problem: &mut impl Problem) -> Population {
        let layout = problem.layout();
        let chromosomes: Vec<Chromosome> = chromosomes
            .into_iter()
            .map(|c| clamp_to(&layout, c))
            .collect();
        let scores = problem.score(&chromosomes);
        let mut organisms: Vec<Organism> = chromosomes
            .into_iter()
            .zip(scores)
            .map(|(chromosome, score)| Organism { chromosome, score })
            .collect();
        sort(&mut organisms);
        Population {
            organisms,
            generation: 0,
        }
    }

    /// The fittest organism.
    pub fn best(&self) -> Option<&Organism> {
        self.organisms.first()
    }

    /// The mean score (of the finite ones; 0 when none is).
    pub fn mean(&self) -> f64 {
        let finite: Vec<f64> = self
            .organisms
            .iter()
            .map(|o| o.score)
            .filter(|s| s.is_finite())
            .collect();
        if finite.is_empty() {
            0.0
        } else {
            finite.iter().sum::<f64>() / finite.len() as f64
        }
    }
}

/// Sorts fittest first; a stable sort, so ties keep their order.
fn sort(organisms: &mut [Organism]) {
    organisms.sort_by(|a, b| b.score.total_cmp(&a.score));
}

/// The largest value of a gene `width` bits wide.
pub fn gene_max(width: u32) -> u32 {
    if width >= 32 {
        u32::MAX
    } else {
        (1 << width) - 1
    }
}

/// `chromosome` with each gene cut to its width (extra genes dropped, missing ones 0).
fn clamp_to(layout: &[u32], chromosome: Chromosome) -> Chromosome {
    layout
        .iter()
        .enumerate()
        .map(|(i, &w)| chromosome.get(i).copied().unwrap_or(0) & gene_max(w))
        .collect()
}

/// A random chromosome of `layout`: every bit a fair coin.
pub fn random_chromosome(layout: &[u32], rng: &mut impl Rng) -> Chromosome {
    layout
        .iter()
        .map(|&w| rng.random_range(0..=gene_max(w)))
        .collect()
}

/// Windowed wheel weights for scores that can be negative: `score − worst` plus a small
/// floor, so the worst can still be drawn; 0 for a score that is not finite.
pub fn windowed(scores: &[f64]) -> Vec<f64> {
    let finite = || scores.iter().copied().filter(|s| s.is_finite());
    let worst = finite().fold(f64::INFINITY, f64::min);
    let best = finite().fold(f64::NEG_INFINITY, f64::max);
    let floor = ((best - worst) * 1e-3).max(1e-9);
    scores
        .iter()
        .map(|&s| {
            if s.is_finite() {
                s - worst + floor
            } else {
                0.0
            }
        })
        .collect()
}

/// Spins the roulette wheel over `weights` (non-negative, summing to `total`); uniform
/// when all are 0.
pub fn roulette(weights: &[f64], total: f64, rng: &mut impl Rng) -> usize {
    if total <= 0.0 || !total.is_finite() {
        return rng.random_range(0..weights.len());
    }
    let spin = rng.random::<f64>() * total;
    let mut partial = 0.0;
    for (i, w) in weights.iter().enumerate() {
        partial += w;
        if partial > spin {
            return i;
        }
    }
    weights.len() - 1
}

/// Uniform crossover: each gene changes places with probability ½.
pub fn cross(a: &mut [u32], b: &mut [u32], rng: &mut impl Rng) {
    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
        if rng.random_bool(0.5) {
            std::mem::swap(x, y);
        }
    }
}

/// Bit flip mutation: each bit of each gene (lowest first) flips with probability
/// `rate`.
pub fn mutate(chromosome: &mut [u32], layout: &[u32], rate: f64, rng: &mut impl Rng) {
    let rate = rate.clamp(0.0, 1.0);
    for (gene, &width) in chromosome.iter_mut().zip(layout) {
        for bit in 0..width.min(32) {
            if rng.random_bool(rate) {
                *gene ^= 1 << bit;
            }
        }
    }
}

/// The children of one generation: `population.len() − elites` of them, each pair from
/// two parents drawn on the roulette wheel, crossed and mutated.
pub fn breed(
    population: &Population,
    config: &GaConfig,
    problem: &impl Problem,
    rng: &mut impl Rng,
) -> Vec<Chromosome> {
    let layout = problem.layout();
    let organisms = &population.organisms;
    let size = organisms.len();
    let elites = config.elites().min(size);
    let scores: Vec<f64> = organisms.iter().map(|o| o.score).collect();
    let wheel = problem.wheel(&scores);
    let total: f64 = wheel.iter().sum();
    let mut children = Vec::with_capacity(size - elites);
    while elites + children.len() < size {
        let mut a = organisms[roulette(&wheel, total, rng)].chromosome.clone();
        let mut b = organisms[roulette(&wheel, total, rng)].chromosome.clone();
        if rng.random_bool(config.crossover_rate.clamp(0.0, 1.0)) {
            cross(&mut a, &mut b, rng);
        }
        for mut child in [a, b] {
            if elites + children.len() < size {
                mutate(&mut child, &layout, config.mutation_rate, rng);
                children.push(child);
            }
        }
    }
    children
}

/// One generation: the elites of `population` and the children [`breed`] makes,
/// scored (the children only, or everyone when the problem
/// [is relative](Problem::is_relative)) and sorted.
pub fn step(
    population: &Population,
    config: &GaConfig,
    problem: &mut impl Problem,
    rng: &mut impl Rng,
) -> Population {
    let elites = config.elites().min(population.organisms.len());
    let children = breed(population, config, problem, rng);
    let mut organisms: Vec<Organism> = population.organisms[..elites].to_vec();
    if problem.is_relative() {
        let mut everyone: Vec<Chromosome> =
            organisms.iter().map(|o| o.chromosome.clone()).collect();
        everyone.extend(children);
        let scores = problem.score(&everyone);
        organisms = everyone
            .into_iter()
            .zip(scores)
            .map(|(chromosome, score)| Organism { chromosome, score })
            .collect();
    } else {
        let scores = problem.score(&children);
        organisms.extend(
            children
                .into_iter()
                .zip(scores)
                .map(|(chromosome, score)| Organism { chromosome, score }),
        );
    }
    sort(&mut organisms);
    Population {
        organisms,
        generation: population.generation + 1,
    }
}

/// Scores `initial` and breeds `config.generations` generations from it, calling
/// `on_generation` with each population (the initial one first).
pub fn evolve(
    initial: Vec<Chromosome>,
    config: &GaConfig,
    problem: &mut impl Problem,
    rng: &mut impl Rng,
    mut on_generation: impl FnMut(&Population),
) -> Population {
    let mut population = Population::initial(initial, problem);
    on_generation(&population);
    for _ in 0..config.generations {
        population = step(&population, config, problem, rng);
        on_generation(&population);
    }
    population
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn roulette_draws_in_proportion_to_weight() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let weights = [1.0, 0.0, 3.0];
        let mut counts = [0u32; 3];
        for _ in 0..40_000 {
            counts[roulette(&weights, 4.0, &mut rng)] += 1;
        }
        assert_eq!(counts[1], 0);
        // Expected 10,000 and 30,000; the bound is about 5 standard deviations.
        assert!(
            (f64::from(counts[0]) - 10_000.0).abs() < 450.0,
            "{counts:?}"
        );
    }

    #[test]
    fn windowed_weights_shift_negative_scores_and_drop_infinite_ones() {
        let w = windowed(&[-10.0, f64::NEG_INFINITY, -20.0]);
        assert_eq!(w[1], 0.0);
        assert!(w[0] > w[2] && w[2] > 0.0);
    }

    #[test]
    fn mutation_keeps_genes_within_their_width() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let layout = [1, 6, 11, 14];
        let mut c = vec![1, 63, 2047, 16383];
        for _ in 0..200 {
            mutate(&mut c, &layout, 0.5, &mut rng);
            for (g, w) in c.iter().zip(layout) {
                assert!(*g <= gene_max(w), "{c:?}");
            }
        }
    }

    #[test]
    fn crossover_only_exchanges_genes() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut a = vec![1, 2, 3, 4, 5, 6];
        let mut b = vec![10, 20, 30, 40, 50, 60];
        cross(&mut a, &mut b, &mut rng);
        for i in 0..6 {
            let pair = [a[i], b[i]];
            assert!(pair.contains(&(i as u32 + 1)) && pair.contains(&((i as u32 + 1) * 10)));
        }
        assert_ne!(a, vec![1, 2, 3, 4, 5, 6], "six fair coins all tails");
    }

    #[test]
    fn elites_round_up_and_stay_within_the_population() {
        let c = |population, elitism| GaConfig {
            population,
            elitism,
            ..GaConfig::default()
        };
        assert_eq!(c(5, 0.1).elites(), 1);
        assert_eq!(c(75, 0.1).elites(), 8);
        assert_eq!(c(15, 0.2).elites(), 3);
        assert_eq!(c(4, 2.0).elites(), 4);
    }
}
