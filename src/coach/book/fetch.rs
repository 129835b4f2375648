//! "Get games online" in the Book tab: `hastings fetch` as a job with progress
//! and Cancel. What is fetched is kept in the data folder's `fetched/` folder, one file
//! per study or player (a player's games fetched again add only the new ones; a study
//! replaces its file), then asked how to read like a file opened.

use std::path::{Path, PathBuf};

use crate::coach::format::count;
use crate::job::{Job, JobPoll, ProgressSnapshot, Wake};
use crate::workspace::fetch::lichess::{study_id, user_name};
use crate::workspace::fetch::{
    ChesscomGames, Fetch, FetchError, FetchReport, LichessGames, Sites, fetch,
};

type FetchResult = Result<FetchReport, FetchError>;

/// What the Book tab's fetch can be asked.
#[derive(Debug, Clone, PartialEq)]
pub enum FetchCommand {
    /// Fetch this study or these games into the data folder.
    Start(Fetch),
    /// Stop the running fetch (the file stays as it was).
    Cancel,
    /// Fetch from these addresses from now on (a mirror, a test server) instead of the
    /// sites' own (or those of `HASTINGS_LICHESS_URL` / `HASTINGS_CHESSCOM_URL`).
    Sites(Sites),
}

/// The running fetch and what the last one did (runtime only).
#[derive(Default)]
pub struct FetchJob {
    job: Option<(PathBuf, Job<FetchResult>)>,
    /// The addresses set by [`FetchCommand::Sites`], if any.
    sites: Option<Sites>,
    /// The last fetch's outcome, for the learner.
    outcome: Option<String>,
}

impl FetchJob {
    /// Carries out a command; fetched files go under `data_dir`.
    pub(crate) fn apply(&mut self, command: FetchCommand, data_dir: Option<&Path>, wake: Wake) {
        match command {
            FetchCommand::Start(what) => self.start(what, data_dir, wake),
            FetchCommand::Cancel => {
                if let Some((_, job)) = &self.job {
                    job.cancel();
                }
            }
            FetchCommand::Sites(sites) => self.sites = Some(sites),
        }
    }

    fn start(&mut self, what: Fetch, data_dir: Option<&Path>, wake: Wake) {
        if self.job.is_some() {
            return;
        }
        let Some(dir) = data_dir else {
            self.outcome =
                Some("Fetched games are kept in the data folder, and there is none.".to_owned());
            return;
        };
        let folder = dir.join("fetched");
        if let Err(e) = std::fs::create_dir_all(&folder) {
            self.outcome = Some(format!("Cannot make the folder {}: {e}.", folder.display()));
            return;
        }
        let path = folder.join(file_name(&what));
        let sites = self
            .sites
            .clone()
            .unwrap_or_else(|| Sites::resolve(None, None));
        let into = path.clone();
        match Job::spawn("fetch", wake, move |progress| {
            fetch(&sites, &what, &into, progress)
        }) {
            Ok(job) => {
                self.outcome = None;
                self.job = Some((path, job));
            }
            Err(e) => self.outcome = Some(format!("Cannot start: {e}.")),
        }
    }

    /// How far the running fetch is (its items are the games received), if one runs.
    pub fn progress(&self) -> Option<ProgressSnapshot> {
        self.job.as_ref().map(|(_, job)| job.progress().snapshot())
    }

    /// What the last fetch did, if anything.
    pub fn outcome(&self) -> Option<&str> {
        self.outcome.as_deref()
    }

    /// Takes a finished fetch's result: the file to open when it has games.
    pub(crate) fn poll(&mut self) -> Option<PathBuf> {
        let (_, job) = self.job.as_ref()?;
        let polled = job.poll();
        if matches!(polled, JobPoll::Running) {
            return None;
        }
        self.job.take()?;
        let result = match polled {
            JobPoll::Finished(result) => result,
            JobPoll::Running => return None,
            JobPoll::Died(e) => {
                self.outcome = Some(format!("The fetch stopped: {e}."));
                return None;
            }
        };
        match result {
            Ok(report) => {
                self.outcome = Some(outcome(&report));
                (report.kept + report.added > 0).then_some(report.path)
            }
            Err(e) => {
                self.outcome = Some(format!("Nothing was fetched: {e}."));
                None
            }
        }
    }
}

/// The sentence that says what a fetch did and where the games are.
fn outcome(report: &FetchReport) -> String {
    let already = if report.already > 0 {
        format!(" ({} you had already left out)", count(report.already))
    } else {
        String::new()
    };
    // The site asked to wait (HTTP 429, "Too Many Requests"): said, as the wait was
    // felt.
    let waited = if report.waited.is_zero() {
        String::new()
    } else {
        format!(
            " The site asked to wait; waited {} s.",
            report.waited.as_secs().max(1)
        )
    };
    format!(
        "{} new games{already}; {} holds {} games.{waited}",
        count(report.added),
        report.path.display(),
        count(report.kept + report.added),
    )
}

/// The file in `fetched/` that `what` is kept in: one per study, per player and site.
pub fn file_name(what: &Fetch) -> String {
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect()
    };
    match what {
        Fetch::LichessStudy(id) => format!("lichess-study-{}.pgn", safe(id)),
        Fetch::LichessUserStudies(user) => format!("lichess-studies-{}.pgn", safe(user)),
        Fetch::LichessGames(games) => format!("lichess-{}.pgn", safe(&games.user)),
        Fetch::ChesscomGames(games) => format!("chesscom-{}.pgn", safe(&games.user)),
    }
}

/// What the Book tab can fetch, as the learner picks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FetchKind {
    /// A lichess study, all its chapters (a link or its id).
    #[default]
    LichessStudy,
    /// A lichess player's games.
    LichessGames,
    /// A chess.com player's games.
    ChesscomGames,
}

impl FetchKind {
    /// Every kind, in the menu's order.
    pub const ALL: [FetchKind; 3] = [
        FetchKind::LichessStudy,
        FetchKind::LichessGames,
        FetchKind::ChesscomGames,
    ];

    /// The menu's words.
    pub fn label(self) -> &'static str {
        match self {
            FetchKind::LichessStudy => "A lichess study",
            FetchKind::LichessGames => "A lichess player's games",
            FetchKind::ChesscomGames => "A chess.com player's games",
        }
    }

    /// What the text field asks for.
    pub fn hint(self) -> &'static str {
        match self {
            FetchKind::LichessStudy => "https://lichess.org/study/…",
            FetchKind::LichessGames | FetchKind::ChesscomGames => "player's name",
        }
    }

    /// The fetch of `text` (a study's link or id, a player's name).
    ///
    /// # Errors
    ///
    /// [`FetchError::BadInput`] when the text cannot be one.
    pub fn request(self, text: &str) -> Result<Fetch, FetchError> {
        let text = text.trim();
        Ok(match self {
            FetchKind::LichessStudy => Fetch::LichessStudy(study_id(text)?),
            FetchKind::LichessGames => Fetch::LichessGames(LichessGames {
                user: user_name(text)?.to_owned(),
                ..LichessGames::default()
            }),
            FetchKind::ChesscomGames => Fetch::ChesscomGames(ChesscomGames {
                user: user_name(text)?.to_owned(),
                ..ChesscomGames::default()
            }),
        })
    }
}
