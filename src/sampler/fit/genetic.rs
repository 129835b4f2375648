//! The genetic algorithm ([`crate::genetic`], as Klevansky, Ostroff and Offen tune an
//! evaluation), searching styles by likelihood.
//!
//! An organism's chromosome is a bit string: one bit per parameter (`p_i`), and a
//! 10-bit gene each for the five weights and τ (value = gene / 1023), 65 bits in all.
//! When the tables hold a Polyglot book ([`FitData::has_books`]) a seventh 10-bit gene
//! is the popularity blend `λ` (0 = the lines' popularity, 1 = the book's alone), 75
//! bits; without a book the seventh gene is never drawn, crossed or mutated, so the RNG
//! stream and the result are those of the six-gene algorithm. The operators are the
//! project's one GA's (elitism, roulette-wheel selection, uniform crossover, bit flip
//! mutation); the fitness is the log-likelihood, and as that is negative the roulette
//! wheel is windowed ([`windowed`]: `LL − LL_worst` over the organisms whose likelihood
//! is not 0; a style giving a played move probability 0 has fitness 0).
//!
//! The paper's rates were crossover 0.75, mutation 0.005 per bit of a 244-bit chromosome
//! (about 1.2 flips per child) and elitism 0.1; the defaults keep the crossover and
//! elitism rates and scale the mutation rate to the same ~1.3 flips per 65-bit child.
//! The initial population is random, with the neutral style as one of its members (with
//! a book: at `λ = ½`). All randomness comes from the RNG passed in, so a seed repeats
//! the search.

use rand::{Rng, RngExt};

use super::table::FitData;
use crate::genetic::{Chromosome, Problem, evolve, windowed};
use crate::sampler::{Popularity, Style, StyleParam};

pub use crate::genetic::GaConfig;

/// Bits of a weight or τ gene.
const GENE_BITS: u32 = 10;
/// The largest gene value.
const GENE_MAX: u16 = (1 << GENE_BITS) - 1;

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

    /// The GA's chromosome: the five bits, then the 10-bit genes in play (6, or 7 with
    /// `blend`).
    fn to_chromosome(self, blend: bool) -> Chromosome {
        self.on
            .iter()
            .map(|&on| u32::from(on))
            .chain(self.genes[..genes(blend)].iter().map(|&g| u32::from(g)))
            .collect()
    }

    /// The genome of a chromosome of [`Genome::to_chromosome`] (a gene not in play
    /// keeps its neutral value).
    fn from_chromosome(c: &[u32]) -> Genome {
        let mut genome = Genome::neutral();
        for (i, on) in genome.on.iter_mut().enumerate() {
            *on = c.get(i).is_some_and(|&b| b != 0);
        }
        for (i, gene) in genome.genes.iter_mut().enumerate() {
            if let Some(&g) = c.get(5 + i) {
                *gene = u16::try_from(g).unwrap_or(GENE_MAX).min(GENE_MAX);
            }
        }
        genome
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
}

/// The number of 10-bit genes in play.
fn genes(blend: bool) -> usize {
    if blend { 7 } else { 6 }
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

/// Styles scored by their log-likelihood on the data.
struct StyleProblem<'a> {
    data: &'a FitData,
    blend: bool,
    evaluations: u64,
}

impl StyleProblem<'_> {
    /// Five 1-bit genes, then the 10-bit genes in play.
    fn layout_of(blend: bool) -> Vec<u32> {
        let mut layout = vec![1; 5];
        layout.extend(std::iter::repeat_n(GENE_BITS, genes(blend)));
        layout
    }
}

impl Problem for StyleProblem<'_> {
    fn layout(&self) -> Vec<u32> {
        StyleProblem::layout_of(self.blend)
    }

    fn score(&mut self, batch: &[Chromosome]) -> Vec<f64> {
        self.evaluations += batch.len() as u64;
        batch
            .iter()
            .map(|c| {
                let genome = Genome::from_chromosome(c);
                self.data
                    .log_likelihood_with(&genome.style(), genome.popularity(self.blend))
            })
            .collect()
    }

    /// A log-likelihood is negative, so the wheel is windowed: `LL − LL_worst` over the
    /// organisms whose likelihood is not 0 (a style giving a played move probability 0
    /// has fitness 0).
    fn wheel(&self, scores: &[f64]) -> Vec<f64> {
        windowed(scores)
    }
}

/// Runs the genetic algorithm on `data` (see the [module docs](self)).
pub fn genetic(data: &FitData, config: &GaConfig, rng: &mut impl Rng) -> GaResult {
    let size = config.population.max(2);
    let blend = data.has_books();
    let initial: Vec<Chromosome> = (0..size)
        .map(|i| {
            if i == 0 {
                Genome::neutral()
            } else {
                Genome::random(blend, rng)
            }
        })
        .map(|g| g.to_chromosome(blend))
        .collect();
    let mut problem = StyleProblem {
        data,
        blend,
        evaluations: 0,
    };
    let mut best_by_generation = Vec::with_capacity(config.generations + 1);
    let last = evolve(initial, config, &mut problem, rng, |population| {
        best_by_generation.push(population.best().map_or(f64::NEG_INFINITY, |o| o.score));
    });
    let (genome, log_likelihood) = last
        .best()
        .map_or((Genome::neutral(), f64::NEG_INFINITY), |o| {
            (Genome::from_chromosome(&o.chromosome), o.score)
        });
    GaResult {
        style: genome.style(),
        popularity: genome.popularity(blend),
        log_likelihood,
        best_by_generation,
        evaluations: problem.evaluations,
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
            let mut c = Genome::random(true, &mut rng).to_chromosome(true);
            let layout = StyleProblem::layout_of(true);
            crate::genetic::mutate(&mut c, &layout, 0.5, &mut rng);
            let g = Genome::from_chromosome(&c);
            assert!((0.0..=1.0).contains(&g.popularity(true).book_part()));
            let s = g.style();
            assert!(s.params().iter().all(|p| (0.0..=1.0).contains(&p.weight)));
        }
        let n = Genome::neutral().style();
        assert!(n.params().iter().all(|p| !p.enabled));
        assert_eq!(n.tau(), 1.0);
    }
}
