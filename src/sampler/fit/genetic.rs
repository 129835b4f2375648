//! A genetic algorithm (as Klevansky, Ostroff and Offen tune an evaluation), searching
//! styles by likelihood.
//!
//! An organism's chromosome is a bit string: one bit per parameter (`p_i`), and a
//! 10-bit gene each for the five weights and τ (value = gene / 1023), 65 bits in all.
//! When the tables hold a Polyglot book ([`FitData::has_books`]) a seventh 10-bit gene
//! is the popularity blend `λ` (0 = the lines' popularity, 1 = the book's alone), 75
//! bits; without a book the seventh gene is never drawn, crossed or mutated, so the RNG
//! stream and the result are those of the six-gene algorithm. Each generation:
//!
//! - **Elitism**: the best `elitism` share of the population (at least one) is copied
//!   over unchanged.
//! - **Fitness proportional selection** (roulette wheel): parents are drawn with
//!   probability proportional to their fitness. The fitness must be non-negative, and
//!   ours is a log-likelihood, so it is windowed: `LL − LL_worst` over the organisms
//!   whose likelihood is not 0 (a style giving a played move probability 0 has fitness
//!   0).
//! - **Uniform crossover**: with probability `crossover_rate` two parents exchange each
//!   gene with probability ½, giving two children; otherwise the children are copies.
//! - **Bit flip mutation**: every bit of a child flips with probability `mutation_rate`.
//!
//! The paper's rates were crossover 0.75, mutation 0.005 per bit of a 244-bit chromosome
//! (about 1.2 flips per child) and elitism 0.1; the defaults keep the crossover and
//! elitism rates and scale the mutation rate to the same ~1.3 flips per 65-bit child.
//! The initial population is random, with the neutral style as one of its members (with
//! a book: at `λ = ½`). All randomness comes from the RNG passed in, so a seed repeats
//! the search.

use rand::{Rng, RngExt};

use super::table::FitData;
use crate::sampler::{Popularity, Style, StyleParam};

/// Bits of a weight or τ gene.
const GENE_BITS: u32 = 10;
/// The largest gene value.
const GENE_MAX: u16 = (1 << GENE_BITS) - 1;

/// The settings of [`genetic`].
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
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

/// A chromosome: five on/off bits and seven 10-bit genes (five weights, τ, then λ; λ
/// only takes part with a book).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Genome {
    on: [bool; 5],
    genes: [u16; 7],
}

/// The value of a gene, in `[0, 1]`.
fn value(g: u16) -> f64 {
    f64::from(g) / f64::from(GENE_MAX)
}

/// The popularity of a blend `λ`: the lines at 0, the book at 1, else the blend.
pub fn popularity_of(lambda: f64) -> Popularity {
    if lambda <= 0.0 {
        Popularity::Lines
    } else if lambda >= 1.0 {
        Popularity::Games
    } else {
        Popularity::Blend(lambda)
    }
}

impl Genome {
    /// A random genome; `blend`: draw λ too.
    fn random(blend: bool, rng: &mut impl Rng) -> Genome {
        let on = std::array::from_fn(|_| rng.random());
        let mut genes = Genome::neutral().genes;
        for g in &mut genes[..6] {
            *g = rng.random_range(0..=GENE_MAX);
        }
        if blend {
            genes[6] = rng.random_range(0..=GENE_MAX);
        }
        Genome { on, genes }
    }

    /// The neutral style: all parameters off, τ = 1.
    fn neutral() -> Genome {
        Genome {
            on: [false; 5],
            genes: [
                GENE_MAX / 2,
                GENE_MAX / 2,
                GENE_MAX / 2,
                GENE_MAX / 2,
                GENE_MAX / 2,
                GENE_MAX,
                GENE_MAX / 2,
            ],
        }
    }

    /// The popularity: the lines without a book, else the blend of the seventh gene.
    fn popularity(&self, blend: bool) -> Popularity {
        if blend {
            popularity_of(value(self.genes[6]))
        } else {
            Popularity::Lines
        }
    }

    fn style(&self) -> Style {
        let params = std::array::from_fn(|i| StyleParam {
            enabled: self.on[i],
            weight: value(self.genes[i]),
        });
        // Every gene decodes into [0, 1], so this cannot fail; neutral otherwise.
        Style::new(params, value(self.genes[5])).unwrap_or_else(|_| Style::neutral())
    }

    /// Uniform crossover: each of the 11 genes (12 with `blend`) changes places with
    /// probability ½.
    fn cross(&mut self, other: &mut Genome, blend: bool, rng: &mut impl Rng) {
        for i in 0..5 {
            if rng.random_bool(0.5) {
                std::mem::swap(&mut self.on[i], &mut other.on[i]);
            }
        }
        for i in 0..genes(blend) {
            if rng.random_bool(0.5) {
                std::mem::swap(&mut self.genes[i], &mut other.genes[i]);
            }
        }
    }

    /// Bit flip mutation: each of the 65 bits (75 with `blend`) flips with probability
    /// `rate`.
    fn mutate(&mut self, rate: f64, blend: bool, rng: &mut impl Rng) {
        let rate = rate.clamp(0.0, 1.0);
        for on in &mut self.on {
            if rng.random_bool(rate) {
                *on = !*on;
            }
        }
        for gene in &mut self.genes[..genes(blend)] {
            for bit in 0..GENE_BITS {
                if rng.random_bool(rate) {
                    *gene ^= 1 << bit;
                }
            }
        }
    }
}

/// The number of 10-bit genes in play.
fn genes(blend: bool) -> usize {
    if blend { 7 } else { 6 }
}

/// An organism and its log-likelihood.
#[derive(Clone, Copy, Debug)]
struct Organism {
    genome: Genome,
    ll: f64,
}

/// What [`genetic`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct GaResult {
    /// The fittest organism of the last generation.
    pub style: Style,
    /// Its popularity (the lines' without a book).
    pub popularity: Popularity,
    /// Its log-likelihood.
    pub log_likelihood: f64,
    /// The best log-likelihood of each generation, the initial population first.
    pub best_by_generation: Vec<f64>,
    /// How many styles were evaluated.
    pub evaluations: u64,
}

/// Spins the roulette wheel over `fitness` (non-negative); uniform when all are 0.
fn roulette(fitness: &[f64], total: f64, rng: &mut impl Rng) -> usize {
    if total <= 0.0 || !total.is_finite() {
        return rng.random_range(0..fitness.len());
    }
    let spin = rng.random::<f64>() * total;
    let mut partial = 0.0;
    for (i, f) in fitness.iter().enumerate() {
        partial += f;
        if partial > spin {
            return i;
        }
    }
    fitness.len() - 1
}

/// Windowed fitness: `LL − LL_worst` over the organisms with a finite likelihood, a
/// small floor so that the worst can still be drawn, 0 for likelihood 0.
fn fitness(population: &[Organism]) -> Vec<f64> {
    let worst = population
        .iter()
        .map(|o| o.ll)
        .filter(|ll| ll.is_finite())
        .fold(f64::INFINITY, f64::min);
    let best = population
        .iter()
        .map(|o| o.ll)
        .filter(|ll| ll.is_finite())
        .fold(f64::NEG_INFINITY, f64::max);
    let floor = ((best - worst) * 1e-3).max(1e-9);
    population
        .iter()
        .map(|o| {
            if o.ll.is_finite() {
                o.ll - worst + floor
            } else {
                0.0
            }
        })
        .collect()
}

fn by_fitness(a: &Organism, b: &Organism) -> std::cmp::Ordering {
    // NaN never occurs (log of a positive probability); −∞ sorts last.
    b.ll.total_cmp(&a.ll)
}

/// Runs the genetic algorithm on `data` (see the [module docs](self)).
pub fn genetic(data: &FitData, config: &GaConfig, rng: &mut impl Rng) -> GaResult {
    let size = config.population.max(2);
    let blend = data.has_books();
    let mut evaluations = 0u64;
    let mut evaluate = |genome: Genome| {
        evaluations += 1;
        Organism {
            genome,
            ll: data.log_likelihood_with(&genome.style(), genome.popularity(blend)),
        }
    };
    let mut population: Vec<Organism> = (0..size)
        .map(|i| {
            if i == 0 {
                Genome::neutral()
            } else {
                Genome::random(blend, rng)
            }
        })
        .map(&mut evaluate)
        .collect();
    population.sort_by(by_fitness);
    let mut best_by_generation = vec![population[0].ll];
    // Rounded up, so that 10% of 5 still keeps one organism.
    let elites = ((size as f64 * config.elitism).ceil() as usize).clamp(1, size);
    for _ in 0..config.generations {
        let fit = fitness(&population);
        let total: f64 = fit.iter().sum();
        let mut next: Vec<Organism> = population[..elites].to_vec();
        while next.len() < size {
            let mut a = population[roulette(&fit, total, rng)].genome;
            let mut b = population[roulette(&fit, total, rng)].genome;
            if rng.random_bool(config.crossover_rate.clamp(0.0, 1.0)) {
                a.cross(&mut b, blend, rng);
            }
            for mut child in [a, b] {
                if next.len() < size {
                    child.mutate(config.mutation_rate, blend, rng);
                    next.push(evaluate(child));
                }
            }
        }
        population = next;
        population.sort_by(by_fitness);
        best_by_generation.push(population[0].ll);
    }
    let best = population[0];
    GaResult {
        style: best.genome.style(),
        popularity: best.genome.popularity(blend),
        log_likelihood: best.ll,
        best_by_generation,
        evaluations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn genes_decode_into_the_unit_interval_and_neutral_is_neutral() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..100 {
            let mut g = Genome::random(true, &mut rng);
            g.mutate(0.5, true, &mut rng);
            assert!((0.0..=1.0).contains(&g.popularity(true).book_part()));
            let s = g.style();
            assert!(s.params().iter().all(|p| (0.0..=1.0).contains(&p.weight)));
        }
        let n = Genome::neutral().style();
        assert!(n.params().iter().all(|p| !p.enabled));
        assert_eq!(n.tau(), 1.0);
    }

    #[test]
    fn roulette_draws_in_proportion_to_fitness() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let fit = [1.0, 0.0, 3.0];
        let mut counts = [0u32; 3];
        for _ in 0..40_000 {
            counts[roulette(&fit, 4.0, &mut rng)] += 1;
        }
        assert_eq!(counts[1], 0);
        // Expected 10,000 and 30,000; the bound is about 5 standard deviations.
        assert!(
            (f64::from(counts[0]) - 10_000.0).abs() < 450.0,
            "{counts:?}"
        );
    }

    #[test]
    fn likelihood_zero_has_no_fitness_and_the_worst_keeps_a_little() {
        let g = Genome::neutral();
        let pop = [
            Organism {
                genome: g,
                ll: -10.0,
            },
            Organism {
                genome: g,
                ll: f64::NEG_INFINITY,
            },
            Organism {
                genome: g,
                ll: -20.0,
            },
        ];
        let f = fitness(&pop);
        assert_eq!(f[1], 0.0);
        assert!(f[0] > f[2] && f[2] > 0.0);
    }
}
