//! The evaluation's weights: one integer per feature, as a chromosome for the genetic
//! algorithm and as a RON file, laid out as in seed 003 (Klevansky, Ostroff and Offen,
//! "Determining the Optimal Tradeoff for building Chess Playing Agents: Genetically Tuned
//! vs. Neural Features", Technion, 2023; `ARCHITECTURE.md`, References).
//!
//! # The chromosome (244 bits, as the seed's)
//!
//! The pawn is the unit (100) and no gene; the other 36 features are genes, in the
//! seed's order, each an unsigned integer:
//!
//! | genes | features | bits each | range |
//! |---|---|---|---|
//! | 1–4 | knight, bishop, rook, queen | 11 | 0–2047 |
//! | 5–29 | passed pawn … king pressure (features 6–30) | 6 | 0–63 |
//! | 30 | checkmate | 14 | 0–16383 |
//! | 31–36 | the six piece-square table weights | 6 | 0–63 |
//!
//! 4 × 11 + 25 × 6 + 14 + 6 × 6 = 244. The seed says only that the chromosome has 244
//! bits and that its first 11 bits are the knight's value; the other widths are ours,
//! chosen so that every value of its Tables 3 and 5 fits (piece values up to 2041,
//! checkmate 15,708, everything else at most 62) and the total is 244.
//!
//! # The file
//!
//! ```text
//! (
//!     made_by: "hastings train eval --games book_1.02.pgn --seed 1 -o eval.ron",
//!     fitness: Some((233, 1000)),
//!     weights: [("pawn", 100), ("knight", 1339), …],
//! )
//! ```
//!
//! Every feature is named once; values must fit their gene (the pawn must be 100).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::feature::{FEATURES, Feature, PerFeature};
use crate::genetic::{Chromosome, gene_max};

/// The pawn's value, the unit of every other weight.
pub const PAWN: i32 = 100;

/// One integer weight per feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights(PerFeature);

/// What is wrong with a weights file or chromosome.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum WeightsError {
    /// The text is not the file's RON.
    #[error("not a weights file: {0}")]
    Syntax(String),
    /// A name that is no feature.
    #[error("`{0}` is not a feature of the evaluation")]
    UnknownFeature(String),
    /// A feature given twice.
    #[error("`{0}` is given twice")]
    Repeated(String),
    /// A feature not given.
    #[error("`{0}` is missing")]
    Missing(String),
    /// A value out of its gene's range.
    #[error("`{name}` is {value}, outside 0-{max}")]
    OutOfRange {
        /// The feature.
        name: String,
        /// The value.
        value: i32,
        /// The largest value its gene holds.
        max: i32,
    },
    /// The pawn is not 100.
    #[error("`pawn` is the unit and must be {PAWN}, not {0}")]
    Pawn(i32),
    /// A chromosome of the wrong length.
    #[error("a chromosome has {expected} genes, not {found}")]
    Genes {
        /// The genes of the layout.
        expected: usize,
        /// The genes given.
        found: usize,
    },
}

/// A weights file, as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeightsFile {
    /// The command that made it.
    #[serde(default)]
    pub made_by: String,
    /// Positions answered with the move played, of how many (the GA's fitness).
    #[serde(default)]
    pub fitness: Option<(u32, u32)>,
    /// The weights, by feature name, in the seed's order.
    pub weights: Vec<(String, i32)>,
}

/// The features that are genes, in chromosome order.
fn genes() -> impl Iterator<Item = Feature> {
    Feature::ALL.into_iter().filter(|f| f.info().bits > 0)
}

/// The largest value of a feature's weight.
fn max_of(f: Feature) -> i32 {
    i32::try_from(gene_max(f.info().bits)).unwrap_or(i32::MAX)
}

impl Weights {
    /// Weights from one number per feature, checked against the genes' ranges.
    ///
    /// # Errors
    ///
    /// [`WeightsError::Pawn`] or [`WeightsError::OutOfRange`].
    pub fn new(values: [i32; FEATURES]) -> Result<Weights, WeightsError> {
        let w = PerFeature(values);
        if w[Feature::Pawn] != PAWN {
            return Err(WeightsError::Pawn(w[Feature::Pawn]));
        }
        for f in genes() {
            if !(0..=max_of(f)).contains(&w[f]) {
                return Err(WeightsError::OutOfRange {
                    name: f.name().to_string(),
                    value: w[f],
                    max: max_of(f),
                });
            }
        }
        Ok(Weights(w))
    }

    /// The weight of `f`.
    pub fn get(&self, f: Feature) -> i32 {
        self.0[f]
    }

    /// Every weight, in the seed's order.
    pub fn values(&self) -> [i32; FEATURES] {
        self.0.0
    }

    /// The seed's best organism after the first GA (its Table 3).
    pub fn seed_ga() -> Weights {
        Weights(PerFeature(Feature::ALL.map(|f| f.info().seed_ga)))
    }

    /// The seed's best organism after co-evolution (its Table 5).
    pub fn seed_coevolved() -> Weights {
        Weights(PerFeature(Feature::ALL.map(|f| f.info().seed_coevolved)))
    }

    /// The width of each gene, in chromosome order (36 genes, 244 bits).
    pub fn layout() -> Vec<u32> {
        genes().map(|f| f.info().bits).collect()
    }

    /// The weights as a chromosome.
    pub fn to_chromosome(&self) -> Chromosome {
        genes()
            .map(|f| u32::try_from(self.0[f]).unwrap_or(0))
            .collect()
    }

    /// The weights a chromosome encodes.
    ///
    /// # Errors
    ///
    /// [`WeightsError::Genes`] for a chromosome of another length; a gene wider than
    /// its width gives [`WeightsError::OutOfRange`].
    pub fn from_chromosome(chromosome: &[u32]) -> Result<Weights, WeightsError> {
        let expected = genes().count();
        if chromosome.len() != expected {
            return Err(WeightsError::Genes {
                expected,
                found: chromosome.len(),
            });
        }
        let mut values = [0; FEATURES];
        values[Feature::Pawn.index()] = PAWN;
        for (f, &g) in genes().zip(chromosome) {
            values[f.index()] = i32::try_from(g).unwrap_or(i32::MAX);
        }
        Weights::new(values)
    }

    /// Reads a weights file's text.
    ///
    /// # Errors
    ///
    /// [`WeightsError`]: bad RON, an unknown, repeated or missing feature, a value out
    /// of range.
    pub fn from_ron(text: &str) -> Result<(Weights, WeightsFile), WeightsError> {
        let file: WeightsFile =
            ron::from_str(text).map_err(|e| WeightsError::Syntax(e.to_string()))?;
        let mut values: [Option<i32>; FEATURES] = [None; FEATURES];
        for (name, value) in &file.weights {
            let f = Feature::from_name(name)
                .ok_or_else(|| WeightsError::UnknownFeature(name.clone()))?;
            if values[f.index()].replace(*value).is_some() {
                return Err(WeightsError::Repeated(name.clone()));
            }
        }
        let mut checked = [0; FEATURES];
        for f in Feature::ALL {
            checked[f.index()] =
                values[f.index()].ok_or_else(|| WeightsError::Missing(f.name().to_string()))?;
        }
        Ok((Weights::new(checked)?, file))
    }

    /// The weights file's text: one feature a line, in the seed's order.
    pub fn to_ron(&self, made_by: &str, fitness: Option<(u32, u32)>) -> String {
        let mut out = String::from("(\n");
        let made_by = ron::to_string(made_by).unwrap_or_else(|_| "\"\"".to_string());
        let _ = writeln!(out, "    made_by: {made_by},");
        match fitness {
            Some((hits, of)) => {
                let _ = writeln!(out, "    fitness: Some(({hits}, {of})),");
            }
            None => out.push_str("    fitness: None,\n"),
        }
        out.push_str("    weights: [\n");
        for f in Feature::ALL {
            let _ = writeln!(out, "        (\"{}\", {}),", f.name(), self.0[f]);
        }
        out.push_str("    ],\n)\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_tables_are_valid_weights_and_round_trip_as_chromosomes() {
        for w in [Weights::seed_ga(), Weights::seed_coevolved()] {
            assert_eq!(Weights::new(w.values()), Ok(w));
            let c = w.to_chromosome();
            assert_eq!(c.len(), 36);
            assert_eq!(Weights::from_chromosome(&c), Ok(w));
        }
        assert_eq!(Weights::layout().iter().sum::<u32>(), 244);
        assert_eq!(
            Weights::layout()[0],
            11,
            "the seed: the first 11 bits are the knight"
        );
    }

    #[test]
    fn files_round_trip_and_bad_ones_say_why() {
        let w = Weights::seed_ga();
        let text = w.to_ron("hastings train eval \"x\"", Some((233, 1000)));
        let (back, file) = Weights::from_ron(&text).unwrap();
        assert_eq!(back, w);
        assert_eq!(file.made_by, "hastings train eval \"x\"");
        assert_eq!(file.fitness, Some((233, 1000)));
        let bad = text.replace("(\"knight\", 1339)", "(\"knight\", 4000)");
        assert!(matches!(
            Weights::from_ron(&bad),
            Err(WeightsError::OutOfRange { value: 4000, .. })
        ));
        let bad = text.replace("(\"knight\", 1339),", "");
        assert_eq!(
            Weights::from_ron(&bad),
            Err(WeightsError::Missing("knight".into()))
        );
        let bad = text.replace("\"knight\"", "\"bishop\"");
        assert_eq!(
            Weights::from_ron(&bad),
            Err(WeightsError::Repeated("bishop".into()))
        );
        let bad = text.replace("\"knight\"", "\"horse\"");
        assert_eq!(
            Weights::from_ron(&bad),
            Err(WeightsError::UnknownFeature("horse".into()))
        );
        assert!(matches!(
            Weights::from_ron("(weights: 3)"),
            Err(WeightsError::Syntax(_))
        ));
    }
}
