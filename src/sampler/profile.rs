//! Style profiles: a style with a name, a description and where it came from, as a
//! small RON text that people can share.
//!
//! ```text
//! (
//!     format: 1,
//!     name: "English players (1.c4)",
//!     description: "Prefer the lines that start 1.c4.",
//!     gambits: (on: false, weight: 0.4),
//!     uncommon: (on: false, weight: 0.4),
//!     c4: (on: true, weight: 0.4),
//!     d4: (on: false, weight: 0.4),
//!     e4: (on: false, weight: 0.4),
//!     tau: 1.0,
//!     popularity: Lines,
//!     provenance: Preset,
//! )
//! ```
//!
//! The five parameters are named after those of the thesis (the weighted
//! Metropolis–Hastings opening learner Hastings follows; `ARCHITECTURE.md`, References)
//! (gambits, uncommon openings, 1.c4, 1.d4 and 1.e4 lines); `tau` weighs implied
//! transpositions; `popularity` says where the popularity shares come from (`Lines`, the
//! book's line weights; `Games`, a Polyglot games book; or `Blend(λ)`; files of the first
//! format say `Book` for
//! `Lines`); `provenance` is `Preset`, `Manual` or
//! `Fitted(…)` with what the fit saw. This module turns text into profiles and back;
//! [`crate::workspace::profiles`] reads and writes the files. The thesis presets ship
//! as profiles ([`StyleProfile::embedded`]).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::fit::FitReport;
use super::style::{Style, StyleParam};

/// The format version written by this code.
pub const FORMAT: u32 = 1;

pub use super::source::Popularity;

/// What a fit saw: enough to judge the profile and to repeat the fit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FitProvenance {
    /// The PGN file of the player's games, as given to `hastings fit`.
    pub games: String,
    /// The player's name as matched in the `White`/`Black` tags.
    pub player: String,
    /// The book the games were compared with (`"eco"`).
    pub theory: String,
    /// Plies read per game.
    pub max_plies: u32,
    /// The player's moves the likelihood scored.
    pub moves_scored: u64,
    /// The player's moves that left the book.
    pub moves_out_of_book: u64,
    /// The fitted style's log-likelihood.
    pub log_likelihood: f64,
    /// The neutral style's log-likelihood.
    pub log_likelihood_neutral: f64,
    /// Top-1 agreement of the fitted style.
    pub top1: f64,
    /// Top-1 agreement of the neutral style.
    pub top1_neutral: f64,
    /// The genetic algorithm's seed, population and generations.
    pub seed: u64,
    /// Organisms per generation.
    pub population: u32,
    /// Generations.
    pub generations: u32,
}

/// Where a profile came from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Provenance {
    /// Shipped with Hastings (the thesis's experiments).
    Preset,
    /// Set by hand in the style panel.
    #[default]
    Manual,
    /// Fitted to a player's games by `hastings fit`.
    Fitted(FitProvenance),
}

/// A named, shareable style.
#[derive(Clone, Debug, PartialEq)]
pub struct StyleProfile {
    /// A short name ("Carlsen as White").
    pub name: String,
    /// What the profile is for, in a sentence or two.
    pub description: String,
    /// The five parameters and τ.
    pub style: Style,
    /// Where popularity comes from.
    pub popularity: Popularity,
    /// Where the profile came from.
    pub provenance: Provenance,
}

/// A profile text that cannot be read: where and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {reason}")]
pub struct ProfileError {
    /// The 1-based line of the problem.
    pub line: usize,
    /// The 1-based column.
    pub column: usize,
    /// What is wrong.
    pub reason: String,
}

/// One parameter as written.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParam {
    on: bool,
    weight: f64,
}

/// The text form.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    format: u32,
    name: String,
    #[serde(default)]
    description: String,
    gambits: RawParam,
    uncommon: RawParam,
    c4: RawParam,
    d4: RawParam,
    e4: RawParam,
    tau: f64,
    #[serde(default)]
    popularity: Popularity,
    #[serde(default)]
    provenance: Provenance,
}

impl StyleProfile {
    /// A profile of `style` made by hand.
    pub fn manual(name: &str, style: Style) -> StyleProfile {
        StyleProfile {
            name: name.to_owned(),
            description: String::new(),
            style,
            popularity: Popularity::Lines,
            provenance: Provenance::Manual,
        }
    }

    /// The profile of a fit: the fitted style, named after the player.
    pub fn fitted(report: &FitReport, provenance: FitProvenance) -> StyleProfile {
        let c = &report.counts;
        StyleProfile {
            name: format!("Play like {}", provenance.player),
            description: format!(
                "Fitted to {} moves by {} in {} ({} games with the player); {} moves left the book.",
                c.moves_scored,
                provenance.player,
                provenance.games,
                c.games_with_player,
                c.moves_out_of_book
            ),
            style: report.style.clone(),
            popularity: Popularity::Lines,
            provenance: Provenance::Fitted(provenance),
        }
    }

    /// Reads a profile from its text.
    ///
    /// # Errors
    ///
    /// [`ProfileError`] with the line and column of the first problem: not RON, a
    /// missing or unknown field, a weight or τ outside `[0, 1]`, an unknown format.
    pub fn from_ron(text: &str) -> Result<StyleProfile, ProfileError> {
        let raw: RawProfile = ron::from_str(text).map_err(|e| ProfileError {
            line: e.span.start.line,
            column: e.span.start.col,
            reason: e.code.to_string(),
        })?;
        let at_field = |field: &str, reason: String| {
            let (line, column) = locate(text, field);
            ProfileError {
                line,
                column,
                reason,
            }
        };
        if raw.format != FORMAT {
            return Err(at_field(
                "format",
                format!(
                    "format {} is not known (this version reads format {FORMAT})",
                    raw.format
                ),
            ));
        }
        let names = ["gambits", "uncommon", "c4", "d4", "e4"];
        let params = [raw.gambits, raw.uncommon, raw.c4, raw.d4, raw.e4].map(|p| StyleParam {
            enabled: p.on,
            weight: p.weight,
        });
        let style = Style::new(params, raw.tau).map_err(|e| {
            let field = match e.field {
                "transpositions (tau)" => "tau",
                f => names
                    .iter()
                    .zip(crate::book::Flag::ALL)
                    .find(|(_, flag)| f.starts_with(&flag.label().to_lowercase()))
                    .map_or("tau", |(n, _)| *n),
            };
            at_field(field, e.to_string())
        })?;
        Ok(StyleProfile {
            name: raw.name,
            description: raw.description,
            style,
            popularity: raw.popularity,
            provenance: raw.provenance,
        })
    }

    /// The profile as RON text (pretty, one field a line), which
    /// [`StyleProfile::from_ron`] reads back to an identical profile.
    ///
    /// # Errors
    ///
    /// The serialiser's error when the profile cannot be written as RON.
    pub fn to_ron(&self) -> Result<String, ron::Error> {
        let p = self.style.params().map(|p| RawParam {
            on: p.enabled,
            weight: p.weight,
        });
        let raw = RawProfile {
            format: FORMAT,
            name: self.name.clone(),
            description: self.description.clone(),
            gambits: p[0],
            uncommon: p[1],
            c4: p[2],
            d4: p[3],
            e4: p[4],
            tau: self.style.tau(),
            popularity: self.popularity,
            provenance: self.provenance.clone(),
        };
        let config = ron::ser::PrettyConfig::default()
            .struct_names(false)
            .depth_limit(1);
        let body = ron::ser::to_string_pretty(&raw, config)?;
        Ok(format!(
            "// A Hastings style profile (docs/fit.md)\n{body}\n"
        ))
    }

    /// The thesis presets as shipped profiles (`assets/profiles/*.ron`, embedded).
    ///
    /// # Errors
    ///
    /// [`ProfileError`] naming the file if a shipped profile does not read: a bug in
    /// the shipped data, which a test rules out.
    pub fn embedded() -> Result<Vec<StyleProfile>, (String, ProfileError)> {
        EMBEDDED
            .iter()
            .map(|(file, text)| StyleProfile::from_ron(text).map_err(|e| ((*file).to_owned(), e)))
            .collect()
    }
}

/// The shipped profiles: file name and text, in the order of [`Style::presets`].
pub const EMBEDDED: [(&str, &str); 12] = [
    (
        "neutral.ron",
        include_str!("../../assets/profiles/neutral.ron"),
    ),
    (
        "thesis-5.1.ron",
        include_str!("../../assets/profiles/thesis-5.1.ron"),
    ),
    (
        "thesis-5.2a.ron",
        include_str!("../../assets/profiles/thesis-5.2a.ron"),
    ),
    (
        "thesis-5.2b.ron",
        include_str!("../../assets/profiles/thesis-5.2b.ron"),
    ),
    (
        "thesis-5.2c.ron",
        include_str!("../../assets/profiles/thesis-5.2c.ron"),
    ),
    (
        "thesis-5.2d.ron",
        include_str!("../../assets/profiles/thesis-5.2d.ron"),
    ),
    (
        "thesis-5.2e.ron",
        include_str!("../../assets/profiles/thesis-5.2e.ron"),
    ),
    (
        "thesis-5.3-e4.ron",
        include_str!("../../assets/profiles/thesis-5.3-e4.ron"),
    ),
    (
        "thesis-5.3-d4.ron",
        include_str!("../../assets/profiles/thesis-5.3-d4.ron"),
    ),
    (
        "thesis-5.3-c4.ron",
        include_str!("../../assets/profiles/thesis-5.3-c4.ron"),
    ),
    (
        "thesis-5.3-uncommon.ron",
        include_str!("../../assets/profiles/thesis-5.3-uncommon.ron"),
    ),
    (
        "thesis-5.3-gambits.ron",
        include_str!("../../assets/profiles/thesis-5.3-gambits.ron"),
    ),
];

/// The line and column (1-based) where `field:` is written, else the first line.
fn locate(text: &str, field: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix(field)
            && rest.trim_start().starts_with(':')
        {
            return (i + 1, line.len() - trimmed.len() + 1);
        }
    }
    (1, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_round_trips_through_text() {
        let style =
            Style::from_vectors([1, 0, 1, 0, 1], [0.25, 0.0, 0.6, 0.1, 0.333], 0.45).unwrap();
        let p = StyleProfile {
            name: "Test \"quoted\"".to_owned(),
            description: "two\nlines".to_owned(),
            style,
            popularity: Popularity::Lines,
            provenance: Provenance::Manual,
        };
        assert_eq!(StyleProfile::from_ron(&p.to_ron().unwrap()).unwrap(), p);
    }

    #[test]
    fn a_weight_out_of_range_names_its_line() {
        let text = StyleProfile::manual("x", Style::neutral())
            .to_ron()
            .unwrap()
            .replace("tau: 1.0", "tau: 1.5");
        let e = StyleProfile::from_ron(&text).unwrap_err();
        assert!(e.reason.contains("transpositions (tau)"), "{e}");
        let line = text.lines().nth(e.line - 1).unwrap();
        assert!(line.trim_start().starts_with("tau:"), "{e}: {line}");
    }
}
