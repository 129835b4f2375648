//! The learner's style: five weighted parameters and the transposition setting.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::book::{Flag, FlagWeights};

/// One style parameter: on or off, with a weight in `[0, 1]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StyleParam {
    /// `p_i`: whether the parameter is used.
    pub enabled: bool,
    /// `w_i`: how much it adds to the acceptance of a matching move, in `[0, 1]`.
    pub weight: f64,
}

/// A style value that is not a number in `[0, 1]`.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{field} must be a number from 0 to 1, got {value}")]
pub struct StyleError {
    /// Which value: `"gambits weight"`, …, `"transpositions (tau)"`.
    pub field: &'static str,
    /// The value given.
    pub value: f64,
}

/// How the computer's replies are steered (docs/sampler.md §3).
///
/// The five parameters follow the thesis's order: gambits, uncommon openings, 1.c4,
/// 1.d4 and 1.e4 lines (see [`Flag`]). `tau` weighs implied transpositions (0: none).
/// Every value is checked on construction, so a `Style` always holds numbers in `[0, 1]`.
///
/// ```
/// use hastings::book::Flag;
/// use hastings::sampler::Style;
///
/// let style = Style::from_vectors([0, 0, 1, 0, 0], [0.4; 5], 0.0).unwrap();
/// assert!(style.param(Flag::C4).enabled);
/// assert!(Style::from_vectors([1; 5], [f64::NAN; 5], 1.0).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawStyle", into = "RawStyle")]
pub struct Style {
    params: [StyleParam; 5],
    tau: f64,
}

/// The serialised form of a [`Style`], checked when read.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct RawStyle {
    params: [StyleParam; 5],
    #[serde(default = "default_tau")]
    tau: f64,
}

const fn default_tau() -> f64 {
    1.0
}

impl TryFrom<RawStyle> for Style {
    type Error = StyleError;
    fn try_from(raw: RawStyle) -> Result<Style, StyleError> {
        Style::new(raw.params, raw.tau)
    }
}

impl From<Style> for RawStyle {
    fn from(s: Style) -> RawStyle {
        RawStyle {
            params: s.params,
            tau: s.tau,
        }
    }
}

impl Default for Style {
    fn default() -> Style {
        Style::neutral()
    }
}

const WEIGHT_FIELDS: [&str; 5] = [
    "gambits weight",
    "uncommon openings weight",
    "1.c4 lines weight",
    "1.d4 lines weight",
    "1.e4 lines weight",
];

fn check(field: &'static str, value: f64) -> Result<f64, StyleError> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(StyleError { field, value })
    }
}

impl Style {
    /// A style from its parameters and transposition setting.
    ///
    /// # Errors
    ///
    /// [`StyleError`] naming the first weight or `tau` that is NaN or outside `[0, 1]`.
    pub fn new(params: [StyleParam; 5], tau: f64) -> Result<Style, StyleError> {
        for (p, field) in params.iter().zip(WEIGHT_FIELDS) {
            check(field, p.weight)?;
        }
        check("transpositions (tau)", tau)?;
        Ok(Style { params, tau })
    }

    /// A style from the thesis's vectors: parameters (0 or 1; anything else counts as
    /// on) and weights, in the thesis's order.
    ///
    /// # Errors
    ///
    /// As [`Style::new`].
    pub fn from_vectors(params: [u8; 5], weights: [f64; 5], tau: f64) -> Result<Style, StyleError> {
        let mut out = [StyleParam::default(); 5];
        for i in 0..5 {
            out[i] = StyleParam {
                enabled: params[i] != 0,
                weight: weights[i],
            };
        }
        Style::new(out, tau)
    }

    /// All parameters off, transpositions fully weighted: popularity alone decides.
    pub const fn neutral() -> Style {
        Style {
            params: [StyleParam {
                enabled: false,
                weight: 0.4,
            }; 5],
            tau: 1.0,
        }
    }

    /// One parameter.
    pub fn param(&self, flag: Flag) -> StyleParam {
        self.params[flag.index()]
    }

    /// All five parameters in the thesis's order.
    pub const fn params(&self) -> &[StyleParam; 5] {
        &self.params
    }

    /// The transposition setting `τ`.
    pub const fn tau(&self) -> f64 {
        self.tau
    }

    /// Turns a parameter on or off.
    pub fn set_enabled(&mut self, flag: Flag, enabled: bool) {
        self.params[flag.index()].enabled = enabled;
    }

    /// Sets a parameter's weight.
    ///
    /// # Errors
    ///
    /// [`StyleError`] if `weight` is NaN or outside `[0, 1]`; the style is unchanged.
    pub fn set_weight(&mut self, flag: Flag, weight: f64) -> Result<(), StyleError> {
        self.params[flag.index()].weight = check(WEIGHT_FIELDS[flag.index()], weight)?;
        Ok(())
    }

    /// Sets `τ`.
    ///
    /// # Errors
    ///
    /// [`StyleError`] if `tau` is NaN or outside `[0, 1]`; the style is unchanged.
    pub fn set_tau(&mut self, tau: f64) -> Result<(), StyleError> {
        self.tau = check("transpositions (tau)", tau)?;
        Ok(())
    }

    /// `Σ w_i · p_i · f_i`: the style bonus of a move whose lines have flag shares `f`.
    pub fn bonus(&self, flag_shares: &FlagWeights) -> f64 {
        self.params
            .iter()
            .zip(flag_shares)
            .filter(|(p, _)| p.enabled)
            .fold(0.0, |acc, (p, f)| acc + p.weight * f)
    }

    /// What "the thesis" in a preset's [`Preset::detail`] is, in a player's words (shown
    /// under the detail).
    pub const THESIS: &str = "The thesis: the research study Hastings's computer \
        opponent is built on (a weighted Metropolis–Hastings opening learner); its \
        experiments in section 5 set these preferences.";

    /// The named presets: popularity alone, and the thesis's experiments (§5.1–§5.3),
    /// named for players; [`Preset::detail`] says which experiment and its weights.
    pub fn presets() -> Vec<Preset> {
        let v =
            |name: &'static str, detail: &'static str, params: [u8; 5], weights: [f64; 5]| Preset {
                name,
                detail,
                style: Style {
                    params: std::array::from_fn(|i| StyleParam {
                        enabled: params[i] != 0,
                        weight: weights[i],
                    }),
                    tau: 1.0,
                },
            };
        vec![
            Preset {
                name: "Solid mainlines",
                detail: "No preference: the book's popularity alone decides",
                style: Style::neutral(),
            },
            v(
                "Gambits, with some 1.c4 and 1.e4",
                "Thesis §5.1: gambits 0.2, 1.c4 and 1.e4 lines 0.05",
                [1, 0, 1, 0, 1],
                [0.2, 0.2, 0.05, 0.05, 0.05],
            ),
            v(
                "A little of everything",
                "Thesis §5.2a: all five preferences on, each 0.1",
                [1; 5],
                [0.1; 5],
            ),
            v(
                "English first, gambits second",
                "Thesis §5.2b: 1.c4 lines 0.3, gambits 0.2, the rest 0.05",
                [1; 5],
                [0.2, 0.05, 0.3, 0.05, 0.05],
            ),
            v(
                "Mostly 1.e4",
                "Thesis §5.2c: 1.e4 lines 0.6, the rest 0.05",
                [1; 5],
                [0.05, 0.05, 0.05, 0.05, 0.6],
            ),
            v(
                "Sharp 1.d4 with gambits",
                "Thesis §5.2d: 1.d4 lines 0.8, gambits 0.4, the rest 0.05",
                [1; 5],
                [0.4, 0.05, 0.05, 0.8, 0.05],
            ),
            v(
                "1.d4 with gambits",
                "Thesis §5.2e: 1.d4 lines 0.4, gambits 0.2, the rest 0.05",
                [1; 5],
                [0.2, 0.05, 0.05, 0.4, 0.05],
            ),
            v(
                "1.e4 players",
                "Thesis §5.3: only 1.e4 lines preferred, 0.4",
                [0, 0, 0, 0, 1],
                [0.4; 5],
            ),
            v(
                "1.d4 players",
                "Thesis §5.3: only 1.d4 lines preferred, 0.4",
                [0, 0, 0, 1, 0],
                [0.4; 5],
            ),
            v(
                "English players (1.c4)",
                "Thesis §5.3: only 1.c4 lines preferred, 0.4",
                [0, 0, 1, 0, 0],
                [0.4; 5],
            ),
            v(
                "Offbeat openings",
                "Thesis §5.3: only uncommon first moves preferred, 0.4",
                [0, 1, 0, 0, 0],
                [0.4; 5],
            ),
            v(
                "Sharp gambits",
                "Thesis §5.3: only gambits preferred, 0.4",
                [1, 0, 0, 0, 0],
                [0.4; 5],
            ),
        ]
    }
}

/// A named style.
#[derive(Clone, Debug, PartialEq)]
pub struct Preset {
    /// What the user sees: a name a player understands.
    pub name: &'static str,
    /// Where it comes from and its weights (a tooltip).
    pub detail: &'static str,
    /// The style.
    pub style: Style,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_named_for_players_and_cite_the_thesis_in_their_detail() {
        let presets = Style::presets();
        for p in &presets {
            assert!(
                !p.name.contains("Thesis") && !p.name.contains('§'),
                "{}",
                p.name
            );
            assert!(!p.detail.is_empty(), "{}", p.name);
        }
        // Every experiment of the thesis is there, named once.
        assert_eq!(
            presets
                .iter()
                .filter(|p| p.detail.contains("Thesis"))
                .count(),
            11
        );
        let mut names: Vec<_> = presets.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), presets.len());
    }

    #[test]
    fn out_of_range_values_name_the_field() {
        let err = Style::from_vectors([1; 5], [0.1, 0.1, 1.5, 0.1, 0.1], 1.0).unwrap_err();
        assert_eq!(err.field, "1.c4 lines weight");
        assert_eq!(
            err.to_string(),
            "1.c4 lines weight must be a number from 0 to 1, got 1.5"
        );
        let err = Style::from_vectors([1; 5], [0.1; 5], f64::NAN).unwrap_err();
        assert_eq!(err.field, "transpositions (tau)");
        let mut s = Style::neutral();
        assert!(s.set_weight(Flag::Gambit, -0.1).is_err());
        assert_eq!(
            s,
            Style::neutral(),
            "a rejected value leaves the style unchanged"
        );
    }

    #[test]
    fn presets_are_valid_styles() {
        for p in Style::presets() {
            assert_eq!(
                Style::new(p.style.params, p.style.tau).as_ref(),
                Ok(&p.style),
                "{}",
                p.name
            );
        }
    }

    #[test]
    fn a_corrupt_saved_style_is_rejected() {
        let ok: Style = ron::from_str(&ron::to_string(&Style::neutral()).unwrap()).unwrap();
        assert_eq!(ok, Style::neutral());
        let bad = "(params: [(enabled: true, weight: 2.0), (enabled: false, weight: 0.0), (enabled: false, weight: 0.0), (enabled: false, weight: 0.0), (enabled: false, weight: 0.0)], tau: 1.0)";
        assert!(ron::from_str::<Style>(bad).is_err());
    }

    #[test]
    fn bonus_counts_only_enabled_parameters() {
        let s = Style::from_vectors([1, 0, 1, 0, 0], [0.5, 0.9, 0.25, 0.9, 0.9], 1.0).unwrap();
        assert_eq!(s.bonus(&[1.0, 1.0, 0.5, 1.0, 1.0]), 0.5 + 0.125);
    }
}
