//! Fitting an opponent's style to their games (a genetic algorithm, after Klevansky, Ostroff and Offen's tuning of an evaluation).
//!
//! Given a player's games and the book they are compared with, find the style — the
//! five parameters (on/off and weight), τ and, when a Polyglot book takes part, the
//! popularity blend λ — under which the sampler's exact reply distribution makes the
//! player's own moves most likely:
//!
//! ```text
//! LL(style) = Σ over the player's scored moves  ln P(played move | position, s_prev; style)
//! ```
//!
//! - [`table`]: per-position candidate tables, so that [`FitData::score_with`] is
//!   arithmetic (maximum likelihood needs thousands of evaluations); [`builder`] replays
//!   the games once into them, on the ECO graph and optionally Polyglot books.
//! - [`genetic`](mod@genetic): the genetic algorithm (population, roulette selection,
//!   uniform crossover, bit flip mutation, elitism), seeded.
//! - [`local`]: a local search from the GA's best style, as a check.
//! - [`synthetic`]: games sampled under a known style, for recovery tests.
//!
//! With Polyglot books ([`FitData::from_games_with_books`]) the popularity blend of
//! [`MoveSource`](crate::sampler::MoveSource) is fitted too: `λ` is a seventh gene of the
//! GA and a seventh coordinate of the local search, and [`FitReport::popularity`] is
//! the result ([`Popularity::Lines`] at λ = 0, [`Popularity::Games`] at 1). Without a
//! book λ stays 0 and the fit is the six-parameter one.
//!
//! ```
//! use hastings::book::{ImportMode, ImportOptions, PositionGraph, SourceId, pgn::read_pgn};
//! use hastings::sampler::fit::{FitData, GaConfig, fit};
//!
//! let graph = PositionGraph::eco().unwrap();
//! let pgn = "[White \"Me\"]\n[Black \"You\"]\n[Result \"1-0\"]\n\n1. c4 e5 2. Nc3 Nf6 1-0\n";
//! let options = ImportOptions { mode: ImportMode::Games, max_plies: Some(20) };
//! let games = read_pgn(pgn.as_bytes(), SourceId(1), &options, None).unwrap().lines;
//! let data = FitData::from_games(&graph, &games, "me", 20);
//! assert_eq!(data.counts().moves_scored, 2);
//! let config = GaConfig { population: 10, generations: 3, ..GaConfig::default() };
//! let report = fit(&data, &config, 1);
//! assert!(report.fitted.log_likelihood >= report.neutral.log_likelihood);
//! ```

pub mod builder;
pub mod genetic;
pub mod local;
pub mod synthetic;
pub mod table;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use builder::names_player;
pub use genetic::{GaConfig, GaResult, genetic, popularity_of};
pub use local::{LocalResult, local_search};
pub use table::{FitCounts, FitData, Score, Term};

use crate::sampler::{Popularity, Style, StyleParam};

/// The result of [`fit`].
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    /// The fitted style (the local search's result, in canonical form: see
    /// [`canonical`]).
    pub style: Style,
    /// The fitted popularity: the lines' without a book, else the fitted blend.
    pub popularity: Popularity,
    /// How the fitted style scores (with the fitted popularity).
    pub fitted: Score,
    /// How the neutral style (popularity alone) scores, with the fitted popularity.
    pub neutral: Score,
    /// What the genetic algorithm found.
    pub ga: GaResult,
    /// What the local search from the GA's best found.
    pub local: LocalResult,
    /// What replaying the games found.
    pub counts: FitCounts,
    /// The seed of the genetic algorithm.
    pub seed: u64,
}

/// A style in canonical form: a parameter that is off has weight 0, and one that is on
/// with weight 0 is off (both give no bonus, so the data cannot tell them apart).
pub fn canonical(style: &Style) -> Style {
    let params = style.params().map(|p| {
        if p.enabled && p.weight > 0.0 {
            p
        } else {
            StyleParam {
                enabled: false,
                weight: 0.0,
            }
        }
    });
    Style::new(params, style.tau()).unwrap_or_else(|_| style.clone())
}

/// Fits a style to `data`: the genetic algorithm with `config`, seeded with `seed`
/// (`ChaCha8Rng`, so the result repeats), then a local search from its best. With a
/// book in `data` the popularity blend is fitted too.
pub fn fit(data: &FitData, config: &GaConfig, seed: u64) -> FitReport {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let ga = genetic(data, config, &mut rng);
    let local = local_search(data, &ga.style, ga.popularity);
    let style = canonical(&local.style);
    let popularity = if data.has_explorer() {
        Popularity::Explorer
    } else {
        local.popularity
    };
    FitReport {
        fitted: data.score_with(&style, popularity),
        neutral: data.score_with(&Style::neutral(), popularity),
        popularity,
        style,
        ga,
        local,
        counts: *data.counts(),
        seed,
    }
}
