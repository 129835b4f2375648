//! Subsamples of the book (§5.4 of the thesis (the weighted Metropolis–Hastings opening
//! learner Hastings follows; `ARCHITECTURE.md`, References)): which lines a graph is
//! built from.

use serde::{Deserialize, Serialize};

use super::line::{OpeningLine, SourceId};

/// A filter over opening lines. The default passes every line.
///
/// ```
/// use hastings::book::{LineFilter, PositionGraph};
///
/// let filter = LineFilter { min_moves_per_side: 5, ..LineFilter::default() };
/// let graph = PositionGraph::eco_filtered(&filter).unwrap();
/// assert_eq!(graph.stats().lines, 1747);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LineFilter {
    /// Keep lines in which both sides make at least this many moves (0: no limit).
    pub min_moves_per_side: u32,
    /// Keep lines of these ECO volumes (`'A'`–`'E'`); empty: all. Lines without an
    /// ECO code pass only when this is empty.
    pub volumes: Vec<char>,
    /// Keep lines whose ECO code is in this inclusive range, e.g. `("C60", "C99")`.
    pub eco_range: Option<(String, String)>,
    /// Keep lines whose name contains this text (case, accents and punctuation
    /// ignored, as [`super::search::fold`] writes them: `grunfeld` keeps the Grünfeld).
    pub name_contains: Option<String>,
    /// Keep lines from these sources; `None`: all.
    pub sources: Option<Vec<SourceId>>,
}

impl LineFilter {
    /// Whether the line passes every condition.
    pub fn matches(&self, line: &OpeningLine) -> bool {
        let (white, black) = line.moves_per_side(line.white_starts());
        let min = self.min_moves_per_side as usize;
        if white.min(black) < min {
            return false;
        }
        let eco = line.eco.as_deref().unwrap_or("");
        if !self.volumes.is_empty() {
            let Some(v) = eco.chars().next() else {
                return false;
            };
            if !self.volumes.iter().any(|x| x.eq_ignore_ascii_case(&v)) {
                return false;
            }
        }
        if let Some((from, to)) = &self.eco_range {
            let code = eco.to_ascii_uppercase();
            if code.is_empty()
                || code.as_str() < from.to_ascii_uppercase().as_str()
                || code.as_str() > to.to_ascii_uppercase().as_str()
            {
                return false;
            }
        }
        if let Some(text) = &self.name_contains
            && !super::search::fold(&line.name).contains(&super::search::fold(text))
        {
            return false;
        }
        if let Some(sources) = &self.sources
            && !sources.contains(&line.source.source_id())
        {
            return false;
        }
        true
    }

    /// Whether the filter passes every line.
    pub fn is_empty(&self) -> bool {
        self == &LineFilter::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::eco;

    fn count(filter: &LineFilter) -> usize {
        eco::embedded()
            .lines
            .iter()
            .filter(|l| filter.matches(l))
            .count()
    }

    #[test]
    fn volumes_and_ranges_select_eco_codes() {
        let b = LineFilter {
            volumes: vec!['B'],
            ..Default::default()
        };
        assert_eq!(count(&b), 769);
        let ruy = LineFilter {
            eco_range: Some(("C60".into(), "C99".into())),
            ..Default::default()
        };
        let n = count(&ruy);
        assert!(
            eco::embedded()
                .lines
                .iter()
                .filter(|l| ruy.matches(l))
                .all(|l| l.name.starts_with("Ruy Lopez")),
            "C60–C99 is the Ruy Lopez"
        );
        assert!(n > 100);
    }

    #[test]
    fn name_filter_ignores_case() {
        let f = LineFilter {
            name_contains: Some("sicilian".into()),
            ..Default::default()
        };
        assert!(
            eco::embedded()
                .lines
                .iter()
                .filter(|l| f.matches(l))
                .all(|l| l.name.contains("Sicilian"))
        );
        assert!(count(&f) > 100);
    }

    #[test]
    fn name_filter_ignores_accents_and_apostrophes() {
        let names = |text: &str| -> Vec<String> {
            let f = LineFilter {
                name_contains: Some(text.into()),
                ..Default::default()
            };
            eco::embedded()
                .lines
                .into_iter()
                .filter(|l| f.matches(l))
                .map(|l| l.name)
                .collect()
        };
        let grunfeld = names("grunfeld");
        assert!(grunfeld.len() > 20, "{}", grunfeld.len());
        assert!(grunfeld.iter().all(|n| n.contains("Grünfeld")));
        assert_eq!(names("Grünfeld"), grunfeld);
        let kings = names("kings indian");
        assert!(!kings.is_empty());
        assert_eq!(names("King's Indian"), kings);
    }

    #[test]
    fn sources_select_eco_or_files() {
        let pgn_only = LineFilter {
            sources: Some(vec![SourceId(1)]),
            ..Default::default()
        };
        assert_eq!(count(&pgn_only), 0);
        let eco_only = LineFilter {
            sources: Some(vec![SourceId::ECO]),
            ..Default::default()
        };
        assert_eq!(count(&eco_only), 3807);
    }
}
