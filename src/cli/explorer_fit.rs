//! `hastings explorer fit-band INDEX --band 1600-1800 [--speed blitz] [--json]`: the
//! human-like model's temperature fitted to a rating band's games of an explorer index
//! (as sparring fits it in the window, and kept beside the index for it), with how well
//! it predicts the band's moves it was not fitted to: the share that are its top choice
//! and their mean log-likelihood, at the fitted temperature and the default one.
//! `--held-out OTHER` measures on another index's games of the band (games held out of
//! INDEX) instead of a third of INDEX's positions.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::CliError;
use super::progress_bar as job;
use crate::book::explorer::{ExplorerFilter, FilterError, RatingBand, Speed};
use crate::engine::human::DEFAULT_TEMPERATURE;
use crate::engine::predictor::Predictor;
use crate::trainer::spar::band_players;
use crate::trainer::spar::fit::{
    BandFit, DEFAULT_FIT_POSITIONS, FitError, fit_and_measure, fit_band as fit, scored_positions,
};
use crate::workspace::explorer::spar_fits::{fits_path, save_fit};
use crate::workspace::explorer::{ExplorerIndex, FilteredExplorer};

/// `hastings explorer fit-band`.
#[derive(Debug, Args)]
pub struct ExplorerFitArgs {
    /// The index.
    #[arg(value_name = "NAME.explorer")]
    pub index: PathBuf,
    /// The band: its lower bound (`1600`) or its range (`1600-1800`), `unrated`.
    #[arg(long, value_name = "BAND")]
    pub band: String,
    /// The speed (default: every speed): ultrabullet, bullet, blitz, rapid, classical,
    /// correspondence, unknown.
    #[arg(long, value_name = "SPEED")]
    pub speed: Option<String>,
    /// Measure on this index's games of the band (games left out of INDEX), fitting on
    /// all of INDEX's positions; the fit is then not kept.
    #[arg(long, value_name = "OTHER.explorer")]
    pub held_out: Option<PathBuf>,
    /// The most positions walked in each index.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_FIT_POSITIONS)]
    pub positions: usize,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// What `fit-band` prints.
#[derive(Debug, Serialize)]
struct FitReport {
    index: String,
    whose: String,
    band: String,
    speed: Option<String>,
    default_temperature: f64,
    #[serde(flatten)]
    fit: BandFit,
    /// The index measured on, with `--held-out`.
    held_out_index: Option<String>,
    /// Where the fit was kept, when it was.
    kept: Option<String>,
}

/// The band of `--band`: `1600`, `1600-1800`, `unrated`.
fn band_of(spec: &str) -> Result<RatingBand, FilterError> {
    let bad = || FilterError::Rating(spec.to_owned());
    let spec = spec.trim();
    if spec.eq_ignore_ascii_case("unrated") {
        return Ok(RatingBand::UNRATED);
    }
    let (from, to) = spec.split_once(['-', '–']).unwrap_or((spec, ""));
    let band = from
        .trim()
        .parse::<u16>()
        .ok()
        .and_then(RatingBand::from_bound)
        .ok_or_else(bad)?;
    let next = RatingBand::from_index(band.index() + 1).and_then(RatingBand::lower_bound);
    match to.trim() {
        "" => Ok(band),
        to if to.parse::<u16>().ok() == next => Ok(band),
        _ => Err(bad()),
    }
}

/// Runs `hastings explorer fit-band`.
///
/// # Errors
///
/// [`CliError`] when an index cannot be read, an option is malformed, the band has no
/// game, or the fit cannot be kept.
pub fn fit_band(args: &ExplorerFitArgs, out: &mut impl Write) -> Result<(), CliError> {
    let band = band_of(&args.band)?;
    let speed = match &args.speed {
        Some(name) => {
            Some(Speed::from_name(name.trim()).ok_or_else(|| FilterError::Speed(name.to_owned()))?)
        }
        None => None,
    };
    let mut filter = ExplorerFilter {
        bands: 1 << band.index(),
        ..ExplorerFilter::default()
    };
    if let Some(speed) = speed {
        filter.speeds = 1 << speed.index();
    }
    let whose = band_players(band, speed);
    let index = std::sync::Arc::new(ExplorerIndex::open(&args.index)?);
    let predictor = Predictor::shared()?;
    let counts = FilteredExplorer::new(std::sync::Arc::clone(&index), filter);
    let (result, kept) = match &args.held_out {
        None => {
            let result = job::run_inline("fit", |progress| {
                fit(&counts, &whose, &predictor, args.positions, progress)
            })?;
            save_fit(&index, &filter, &result)?;
            (result, Some(fits_path(&index).display().to_string()))
        }
        Some(other) => {
            let other_index = std::sync::Arc::new(ExplorerIndex::open(other)?);
            let held = FilteredExplorer::new(other_index, filter);
            let result = job::run_inline("fit", |progress| {
                let (_, fit_on) = scored_positions(&counts, &predictor, args.positions, progress)?;
                let (_, measure_on) =
                    scored_positions(&held, &predictor, args.positions, progress)?;
                if fit_on.is_empty() || measure_on.is_empty() {
                    return Err(FitError::NoGames {
                        whose: whose.clone(),
                    });
                }
                Ok(fit_and_measure(&fit_on, &measure_on))
            })?;
            (result, None)
        }
    };
    if let Some(e) = counts.take_error() {
        return Err(e.into());
    }
    let report = FitReport {
        index: args.index.display().to_string(),
        whose,
        band: band.to_string(),
        speed: speed.map(|s| s.name().to_owned()),
        default_temperature: DEFAULT_TEMPERATURE,
        fit: result,
        held_out_index: args.held_out.as_ref().map(|p| p.display().to_string()),
        kept,
    };
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &report)?;
        writeln!(out)?;
        return Ok(());
    }
    let f = &report.fit;
    writeln!(out, "games of      {}", report.whose)?;
    writeln!(
        out,
        "temperature   {:.3} (fitted on {} positions, {} moves)",
        f.temperature, f.fit_positions, f.fit_moves
    )?;
    writeln!(
        out,
        "measured on   {} positions, {} moves{}",
        f.held_out_positions,
        f.held_out_moves,
        report
            .held_out_index
            .as_ref()
            .map(|p| format!(" of {p}"))
            .unwrap_or_default()
    )?;
    writeln!(out, "top choice    {:.1}%", 100.0 * f.top_choice)?;
    writeln!(
        out,
        "log-lik.      {:.4} fitted, {:.4} at T {DEFAULT_TEMPERATURE}",
        f.log_likelihood, f.default_log_likelihood
    )?;
    if let Some(kept) = &report.kept {
        writeln!(out, "kept in       {kept}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_are_read_as_a_bound_or_a_range_of_one_band() {
        assert_eq!(
            band_of("1600").unwrap(),
            RatingBand::from_bound(1600).unwrap()
        );
        assert_eq!(
            band_of("1600-1800").unwrap(),
            RatingBand::from_bound(1600).unwrap()
        );
        assert_eq!(
            band_of("2500").unwrap(),
            RatingBand::from_bound(2500).unwrap()
        );
        assert_eq!(band_of("unrated").unwrap(), RatingBand::UNRATED);
        assert!(band_of("1600-2000").is_err());
        assert!(band_of("1650").is_err());
    }
}
