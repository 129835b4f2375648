//! Which games a query counts: rating bands, speeds, years, and one player's games as
//! one colour. A filter is a test on a record's partition, cell and year, so a query
//! adds up the records that pass.

use std::fmt;

use shakmaty::Color;
use thiserror::Error;

use super::record::{Cell, Partition};
use super::tags::{BAND_BOUNDS, RatingBand, Speed};

/// A query's filter; the default counts every game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExplorerFilter {
    /// Rating bands, one bit per [`RatingBand::index`].
    pub bands: u16,
    /// Speeds, one bit per [`Speed::index`].
    pub speeds: u8,
    /// Years from and to (both included); `None` for every game, those of unknown year
    /// too.
    pub years: Option<(u16, u16)>,
    /// Whose games.
    pub partition: Partition,
}

impl Default for ExplorerFilter {
    fn default() -> ExplorerFilter {
        ExplorerFilter {
            bands: u16::MAX,
            speeds: u8::MAX,
            years: None,
            partition: Partition::ALL,
        }
    }
}

/// A filter option that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FilterError {
    /// A rating is not a band bound (0, 1000, 1200, … 2200, 2500) nor `unrated`.
    #[error(
        "`{0}` is not a rating band: use 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500 or unrated, or a range such as 1600-2000"
    )]
    Rating(String),
    /// A speed is not known.
    #[error(
        "`{0}` is not a speed: use ultrabullet, bullet, blitz, rapid, classical, correspondence or unknown"
    )]
    Speed(String),
    /// Years are not `YEAR` or `FROM-TO`.
    #[error("`{0}` is not a year or a range of years such as 2015-2020")]
    Years(String),
}

impl ExplorerFilter {
    /// Whether a record of `partition`, `cell` and `year` counts.
    pub fn accepts(&self, partition: Partition, cell: Cell, year: u16) -> bool {
        if partition != self.partition {
            return false;
        }
        let (Some(band), Some(speed)) = (cell.band(), cell.speed()) else {
            return false;
        };
        self.bands & (1 << band.index()) != 0
            && self.speeds & (1 << speed.index()) != 0
            && self
                .years
                .is_none_or(|(from, to)| year != 0 && (from..=to).contains(&year))
    }

    /// Keeps only the bands of `spec`: comma-separated band bounds (`1600`: mean
    /// rating 1600 to 1799), ranges (`1600-2000`: mean rating from 1600 up to, not
    /// including, 2000; both ends band bounds, the end may be left out for "and up")
    /// and `unrated`.
    ///
    /// ```
    /// use hastings::book::explorer::{ExplorerFilter, RatingBand};
    ///
    /// let f = ExplorerFilter::default().with_ratings("1600-2000")?;
    /// let kept: Vec<String> = RatingBand::all()
    ///     .filter(|b| f.bands & (1 << b.index()) != 0)
    ///     .map(|b| b.to_string())
    ///     .collect();
    /// assert_eq!(kept, ["1600", "1800"]);
    /// # Ok::<(), hastings::book::explorer::FilterError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`FilterError::Rating`] for an item that is no band bound or range of them.
    pub fn with_ratings(mut self, spec: &str) -> Result<ExplorerFilter, FilterError> {
        let bad = |item: &str| FilterError::Rating(item.to_owned());
        let mut bands = 0u16;
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if item.eq_ignore_ascii_case("unrated") {
                bands |= 1 << RatingBand::UNRATED.index();
                continue;
            }
            let bound = |s: &str| {
                s.trim()
                    .parse::<u16>()
                    .ok()
                    .and_then(RatingBand::from_bound)
                    .ok_or_else(|| bad(item))
            };
            match item.split_once('-') {
                None => bands |= 1 << bound(item)?.index(),
                Some((from, to)) => {
                    let from = bound(from)?.index();
                    let to = if to.trim().is_empty() {
                        BAND_BOUNDS.len() as u8
                    } else {
                        bound(to)?.index()
                    };
                    if to <= from {
                        return Err(bad(item));
                    }
                    for b in from..to {
                        bands |= 1 << b;
                    }
                }
            }
        }
        if bands == 0 {
            return Err(bad(spec));
        }
        self.bands = bands;
        Ok(self)
    }

    /// Keeps only the speeds of `spec`, comma-separated names ([`Speed::name`]).
    ///
    /// # Errors
    ///
    /// [`FilterError::Speed`] for a name that is no speed.
    pub fn with_speeds(mut self, spec: &str) -> Result<ExplorerFilter, FilterError> {
        let mut speeds = 0u8;
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let speed =
                Speed::from_name(item).ok_or_else(|| FilterError::Speed(item.to_owned()))?;
            speeds |= 1 << speed.index();
        }
        if speeds == 0 {
            return Err(FilterError::Speed(spec.to_owned()));
        }
        self.speeds = speeds;
        Ok(self)
    }

    /// Keeps only the games of the years of `spec`: `2015-2020` (both included) or
    /// `2019`; games of unknown year are left out then.
    ///
    /// # Errors
    ///
    /// [`FilterError::Years`] when `spec` is neither.
    pub fn with_years(mut self, spec: &str) -> Result<ExplorerFilter, FilterError> {
        let bad = || FilterError::Years(spec.to_owned());
        let year = |s: &str| {
            s.trim()
                .parse::<u16>()
                .ok()
                .filter(|&y| y > 0)
                .ok_or_else(bad)
        };
        let (from, to) = match spec.split_once('-') {
            Some((from, to)) => (year(from)?, year(to)?),
            None => (year(spec)?, year(spec)?),
        };
        if to < from {
            return Err(bad());
        }
        self.years = Some((from, to));
        Ok(self)
    }

    /// Counts player `player`'s games with `color` instead of all games.
    pub fn with_player(mut self, player: usize, color: Color) -> Option<ExplorerFilter> {
        self.partition = Partition::player(player, color)?;
        Some(self)
    }
}

impl fmt::Display for ExplorerFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bands: Vec<String> = RatingBand::all()
            .filter(|b| self.bands & (1 << b.index()) != 0)
            .map(|b| b.to_string())
            .collect();
        let speeds: Vec<&str> = Speed::ALL
            .into_iter()
            .filter(|s| self.speeds & (1 << s.index()) != 0)
            .map(Speed::name)
            .collect();
        write!(
            f,
            "ratings {} · speeds {}",
            bands.join(","),
            speeds.join(",")
        )?;
        if let Some((from, to)) = self.years {
            write!(f, " · years {from}-{to}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_parse_and_bad_ones_say_why() {
        let f = ExplorerFilter::default();
        assert_eq!(f.with_ratings("2500").unwrap().bands, 1 << 8);
        assert_eq!(f.with_ratings("2200-").unwrap().bands, (1 << 7) | (1 << 8));
        assert_eq!(f.with_ratings("unrated").unwrap().bands, 1 << 9);
        assert!(matches!(
            f.with_ratings("1700"),
            Err(FilterError::Rating(_))
        ));
        assert!(matches!(
            f.with_ratings("2000-1600"),
            Err(FilterError::Rating(_))
        ));
        assert_eq!(
            f.with_speeds("blitz,rapid").unwrap().speeds,
            (1 << Speed::Blitz.index()) | (1 << Speed::Rapid.index())
        );
        assert!(f.with_speeds("fast").is_err());
        assert_eq!(f.with_years("2015-2020").unwrap().years, Some((2015, 2020)));
        assert_eq!(f.with_years("2019").unwrap().years, Some((2019, 2019)));
        assert!(f.with_years("2020-2015").is_err());
        assert!(f.with_years("recent").is_err());
    }

    #[test]
    fn a_year_filter_leaves_out_unknown_years() {
        let f = ExplorerFilter::default().with_years("1990-2000").unwrap();
        let cell = Cell::new(RatingBand::UNRATED, Speed::Unknown);
        assert!(f.accepts(Partition::ALL, cell, 1995));
        assert!(!f.accepts(Partition::ALL, cell, 0));
        assert!(!f.accepts(Partition(1), cell, 1995));
        assert!(ExplorerFilter::default().accepts(Partition::ALL, cell, 0));
    }
}
