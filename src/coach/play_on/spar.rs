//! Sparring at a rating while playing on ([`SparState`], settings [`SparSettings`]):
//! the explorer's games of a rating band and speed, or of the player the Explorer tab
//! shows ("like my opponent"), choose the computer's moves while at least `K` reach
//! the position, then the human-like model plays with its temperature fitted to those
//! games ([`crate::trainer::spar`]).
//!
//! It is a way of playing on, not a feature of its own: it has no tab, its settings are
//! the play-on settings, and it lives and ends with the play-on game. The explorer's
//! index comes from the Explorer tab through the coach ([`SharedExplorer`], given each
//! frame). The fit runs as a job (never on the window thread), once per index and
//! filter: it is kept in the index's `spar-fits.json` and read from there next time.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::book::explorer::{ExplorerFilter, RatingBand, Speed};
use crate::engine::human::DEFAULT_TEMPERATURE;
use crate::engine::predictor::Predictor;
use crate::job::{Job, JobPoll, Wake};
use crate::trainer::spar::fit::{BandFit, DEFAULT_FIT_POSITIONS, FitError, fit_band};
use crate::trainer::spar::{DEFAULT_MIN_GAMES, Spar, band_players};
use crate::workspace::explorer::spar_fits::{filter_key, load_fit, save_fit};
use crate::workspace::explorer::{ExplorerIndex, FilteredExplorer};

/// The sparring settings, saved with the play-on settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SparSettings {
    /// Whether to spar (else the engine chosen plays from the end of the book).
    pub on: bool,
    /// The band's lower bound (one of [`BAND_BOUNDS`](crate::book::explorer::BAND_BOUNDS)).
    pub band: u16,
    /// The speed's name ([`Speed::name`]); empty: every speed.
    pub speed: String,
    /// Play the games of the player the Explorer tab shows, when it shows one.
    pub like_opponent: bool,
    /// `K`: the fewest games at a position for the games to choose the move.
    pub min_games: u32,
}

impl Default for SparSettings {
    fn default() -> SparSettings {
        SparSettings {
            on: false,
            band: 1600,
            speed: String::new(),
            like_opponent: false,
            min_games: DEFAULT_MIN_GAMES as u32,
        }
    }
}

/// The Explorer tab's index and what it shows, for sparring.
#[derive(Debug, Clone)]
pub struct SharedExplorer {
    /// The open index.
    pub index: Arc<ExplorerIndex>,
    /// The filter of the tab's source (a player's tree, or all games).
    pub filter: ExplorerFilter,
    /// The player whose tree the tab shows, if it shows one.
    pub player: Option<String>,
}

/// What to spar against: the filter of the games and whose they are.
#[derive(Debug, Clone, PartialEq)]
pub struct SparTarget {
    /// The games' filter.
    pub filter: ExplorerFilter,
    /// Whose games, for people: `"1600–1800 blitz players"`.
    pub whose: String,
    /// The fits' key: the index's folder and games, and the filter.
    key: String,
}

type FitResult = Result<BandFit, FitError>;

/// The sparring state: the explorer shared, the fits made, the fit running.
#[derive(Debug, Default)]
pub struct SparState {
    explorer: Option<SharedExplorer>,
    fits: HashMap<String, BandFit>,
    job: Option<(SparTarget, Job<FitResult>)>,
    /// The targets whose fit failed (not tried again while the window runs).
    failed: HashSet<String>,
    /// What the last fit said (done, failed, not kept).
    message: Option<String>,
}

impl SparState {
    /// The Explorer tab's index and source, each frame.
    pub(crate) fn set_explorer(&mut self, explorer: Option<SharedExplorer>) {
        self.explorer = explorer;
    }

    /// Whether an explorer index is open to spar against.
    pub fn has_explorer(&self) -> bool {
        self.explorer.is_some()
    }

    /// The player the Explorer tab shows, if any ("like my opponent").
    pub fn player(&self) -> Option<&str> {
        self.explorer.as_ref()?.player.as_deref()
    }

    /// What the last fit said.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Whose games a fit is running for, if one is.
    pub fn fitting(&self) -> Option<&str> {
        self.job.as_ref().map(|(t, _)| t.whose.as_str())
    }

    /// What the settings spar against, with the explorer open now.
    pub fn target(&self, settings: &SparSettings) -> Option<SparTarget> {
        let explorer = self.explorer.as_ref()?;
        let (filter, whose) = match (&explorer.player, settings.like_opponent) {
            (Some(player), true) => (explorer.filter, player.clone()),
            _ => {
                let band = RatingBand::from_bound(settings.band)
                    .unwrap_or_else(|| RatingBand::from_mean(settings.band));
                let mut filter = ExplorerFilter {
                    bands: 1 << band.index(),
                    ..ExplorerFilter::default()
                };
                let speed = Speed::from_name(settings.speed.trim());
                if let Some(speed) = speed {
                    filter.speeds = 1 << speed.index();
                }
                (filter, band_players(band, speed))
            }
        };
        // Games added to the index make it another target: fitted again.
        let key = format!(
            "{} {} games {}",
            explorer.index.dir().display(),
            explorer.index.games(),
            filter_key(&filter)
        );
        Some(SparTarget { filter, whose, key })
    }

    /// The fit made for `target`, if there is one.
    pub fn fit(&self, target: &SparTarget) -> Option<&BandFit> {
        self.fits.get(&target.key)
    }

    /// The temperature for `target`: fitted, else the default.
    pub fn temperature(&self, target: &SparTarget) -> f64 {
        self.fit(target)
            .map_or(DEFAULT_TEMPERATURE, |f| f.temperature)
    }

    /// The sparring opponent for `settings` (`None`: not sparring, or no index open);
    /// `seed` fixes its draws.
    pub fn spar(&self, settings: &SparSettings, seed: u64) -> Option<Spar> {
        if !settings.on {
            return None;
        }
        let explorer = self.explorer.as_ref()?;
        let target = self.target(settings)?;
        let counts = Arc::new(FilteredExplorer::new(
            Arc::clone(&explorer.index),
            target.filter,
        ));
        Some(Spar::new(
            counts,
            target.whose.clone(),
            u64::from(settings.min_games.max(1)),
            self.temperature(&target),
            seed,
        ))
    }

    /// Makes sure the settings' target has its fit: read from the index's file (then
    /// given, with its temperature, for the game being played), else fitted by a job
    /// (one at a time; a fit for a target no longer wanted is cancelled).
    pub(crate) fn ensure_fit(
        &mut self,
        settings: &SparSettings,
        wake: Wake,
    ) -> Option<(SparTarget, f64)> {
        let target = self.target(settings).filter(|_| settings.on);
        // A fit no longer wanted (sparring off, another band or index) is stopped.
        let wanted = target.as_ref().map(|t| &t.key);
        if self
            .job
            .as_ref()
            .is_some_and(|(t, _)| Some(&t.key) != wanted)
            && let Some((_, old)) = self.job.take()
        {
            old.cancel();
        }
        let target = target?;
        if self.fits.contains_key(&target.key)
            || self.failed.contains(&target.key)
            || self.job.as_ref().is_some_and(|(t, _)| t.key == target.key)
        {
            return None;
        }
        let explorer = self.explorer.clone()?;
        match load_fit(&explorer.index, &target.filter) {
            Ok(Some(fit)) => {
                let t = fit.temperature;
                self.fits.insert(target.key.clone(), fit);
                return Some((target, t));
            }
            Ok(None) => {}
            Err(e) => log::warn!("{e}; the temperature is fitted again"),
        }
        let counts = FilteredExplorer::new(Arc::clone(&explorer.index), target.filter);
        let whose = target.whose.clone();
        let job = Job::spawn("spar fit", wake, move |progress| {
            let predictor = Predictor::shared().map_err(|e| FitError::Predictor(e.to_string()))?;
            fit_band(&counts, &whose, &predictor, DEFAULT_FIT_POSITIONS, progress)
        });
        match job {
            Ok(job) => {
                self.message = None;
                self.job = Some((target, job));
            }
            Err(e) => self.message = Some(format!("Cannot fit the temperature: {e}.")),
        }
        None
    }

    /// Takes a finished fit (kept in memory and in the index's file); gives its target
    /// and temperature. `wait`: wait for it (tests).
    pub(crate) fn poll(&mut self, wait: bool) -> Option<(SparTarget, f64)> {
        let (_, job) = self.job.as_ref()?;
        let result = if wait {
            job.poll_blocking()
        } else {
            job.poll()
        };
        let (target, result) = match result {
            JobPoll::Running => return None,
            JobPoll::Finished(result) => (self.job.take()?.0, result),
            JobPoll::Died(e) => {
                if let Some((target, _)) = self.job.take() {
                    self.failed.insert(target.key);
                }
                self.message = Some(format!("Cannot fit the temperature: {e}."));
                return None;
            }
        };
        match result {
            Ok(fit) => {
                let t = fit.temperature;
                self.message = Some(format!(
                    "Fitted to {}: T {t:.2} ({} positions).",
                    target.whose, fit.fit_positions
                ));
                if let Some(explorer) = &self.explorer
                    && let Err(e) = save_fit(&explorer.index, &target.filter, &fit)
                {
                    log::warn!("the fitted temperature is not kept: {e}");
                }
                self.fits.insert(target.key.clone(), fit);
                Some((target, t))
            }
            Err(FitError::Cancelled) => None,
            Err(e) => {
                self.message = Some(format!(
                    "{e}: the model plays at T {DEFAULT_TEMPERATURE:.2}."
                ));
                self.failed.insert(target.key);
                None
            }
        }
    }
}
