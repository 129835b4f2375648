//! Games and studies fetched from lichess and chess.com into a PGN file, on request
//! only (`hastings fetch …`; the window calls [`fetch`] on a [`Job`](crate::job::Job)).
//!
//! - [`fetch`] asks one site for one thing ([`Fetch`]) and writes what it answers into
//!   a file under its lock ([`WriteLock`]): into the file's own temporary file, renamed
//!   over it at the end, so a cut connection, an error or a cancel leaves the old file
//!   as it was. Games are written one by one as they arrive: memory does not grow with
//!   their number.
//! - A user's games are *added* to the file: only the games it does not have (by their
//!   `[Link]` or `[Site]`) are written after the old ones, and only what is new is
//!   asked for (lichess: from the newest lichess game's time in the file; chess.com:
//!   from the newest chess.com game's month, the months before it being complete). A
//!   study replaces the file.
//! - The sites' rules: one request at a time, a `User-Agent` naming Hastings and its
//!   version ([`client::user_agent`]), waiting as told after HTTP 429 (or a minute).
//! - [`paste`](super::paste) reads the same PGN from the clipboard.
//!
//! `docs/fetch.md` lists what is sent to which site.

pub mod chesscom;
pub mod client;
pub mod error;
pub mod existing;
pub mod games;
pub mod lichess;
mod write;

use std::path::{Path, PathBuf};
use std::time::Duration;

pub use chesscom::ChesscomGames;
pub use client::Client;
pub use error::FetchError;
pub use lichess::LichessGames;

use self::client::{Request, host_of, read_small};
use self::existing::Existing;
use self::write::{Sink, write_games};
use crate::job::JobProgress;
use crate::workspace::store::WriteLock;

/// lichess's address.
pub const LICHESS_URL: &str = "https://lichess.org";
/// chess.com's API address.
pub const CHESSCOM_URL: &str = "https://api.chess.com";
/// The environment variable that sets lichess's address (a mirror, a test server).
pub const LICHESS_ENV: &str = "HASTINGS_LICHESS_URL";
/// The environment variable that sets chess.com's API address.
pub const CHESSCOM_ENV: &str = "HASTINGS_CHESSCOM_URL";

/// The sites' addresses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sites {
    /// lichess (`https://lichess.org`).
    pub lichess: String,
    /// chess.com's API (`https://api.chess.com`).
    pub chesscom: String,
}

impl Default for Sites {
    fn default() -> Self {
        Sites {
            lichess: LICHESS_URL.to_owned(),
            chesscom: CHESSCOM_URL.to_owned(),
        }
    }
}

impl Sites {
    /// The addresses given, else those of [`LICHESS_ENV`] and [`CHESSCOM_ENV`], else
    /// the sites' own; a trailing `/` is dropped.
    pub fn resolve(lichess: Option<&str>, chesscom: Option<&str>) -> Sites {
        let pick = |given: Option<&str>, env: &str, default: &str| {
            let env = std::env::var(env).ok().filter(|v| !v.trim().is_empty());
            given
                .map(str::to_owned)
                .or(env)
                .unwrap_or_else(|| default.to_owned())
                .trim()
                .trim_end_matches('/')
                .to_owned()
        };
        Sites {
            lichess: pick(lichess, LICHESS_ENV, LICHESS_URL),
            chesscom: pick(chesscom, CHESSCOM_ENV, CHESSCOM_URL),
        }
    }
}

/// What to fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetch {
    /// A lichess study, all its chapters (its id: [`lichess::study_id`] reads a link).
    LichessStudy(String),
    /// All the studies of a lichess user (those the site shows to anyone).
    LichessUserStudies(String),
    /// A lichess user's games.
    LichessGames(LichessGames),
    /// A chess.com player's games.
    ChesscomGames(ChesscomGames),
}

impl Fetch {
    /// Whether the games are added to the file (a user's games) rather than replacing
    /// it (a study).
    pub fn adds(&self) -> bool {
        matches!(self, Fetch::LichessGames(_) | Fetch::ChesscomGames(_))
    }
}

/// What a fetch did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchReport {
    /// The file written.
    pub path: PathBuf,
    /// Games the file had before (0 for a study, which replaces it).
    pub kept: u64,
    /// New games written.
    pub added: u64,
    /// Games received that the file had already (left out).
    pub already: u64,
    /// Whether the file was written (not when no game was new).
    pub written: bool,
    /// HTTP requests made.
    pub requests: u32,
    /// Time spent waiting after HTTP 429.
    pub waited: Duration,
}

/// Fetches `what` from `sites` into `path` (see the [module docs](self)), counting the
/// games on `progress` (its items and units) and stopping when it is cancelled.
///
/// # Errors
///
/// [`FetchError`]: the site cannot be reached, has no such user or study, refuses
/// (private), answers a web page or cuts the connection, the user cancelled, or the
/// file cannot be written; the file is then as it was.
pub fn fetch(
    sites: &Sites,
    what: &Fetch,
    path: &Path,
    progress: &JobProgress,
) -> Result<FetchReport, FetchError> {
    let lock = WriteLock::acquire(path)?;
    let existing = if what.adds() {
        Existing::read(lock.target())?
    } else {
        Existing::default()
    };
    let mut client = Client::new();
    let old = existing.exists.then(|| lock.target().to_owned());
    let kept = existing.games;
    // Lichess answers in one PGN; the games are added to those kept (`old`).
    let mut one_pgn =
        |url: &str, query: &[(&str, String)], what: &str, old: Option<&Path>, keys| {
            let request = pgn_request(what, path);
            write_games(&lock, |file| {
                let mut sink = Sink::new(file, path, old, keys)?;
                let answer = client.get(url, query, PGN, &request, progress)?;
                sink.take(answer, progress)?;
                sink.finish(progress)
            })
        };
    let written = match what {
        Fetch::LichessStudy(id) => {
            let url = format!("{}/api/study/{id}.pgn", sites.lichess);
            let what = format!("study {id} (or it is private)");
            one_pgn(&url, &lichess::study_query(), &what, None, existing.keys)?
        }
        Fetch::LichessUserStudies(user) => {
            let user = lichess::user_name(user)?;
            let url = format!("{}/api/study/by/{user}/export.pgn", sites.lichess);
            let what = format!("user {user}");
            one_pgn(&url, &lichess::study_query(), &what, None, existing.keys)?
        }
        Fetch::LichessGames(games) => {
            lichess::user_name(&games.user)?;
            let (p, query) = games.request(&existing);
            if let Some(max) = games.max {
                progress.set_total(max);
            }
            let (url, what) = (
                format!("{}{p}", sites.lichess),
                format!("user {}", games.user),
            );
            one_pgn(&url, &query, &what, old.as_deref(), existing.keys)?
        }
        Fetch::ChesscomGames(games) => {
            lichess::user_name(&games.user)?;
            let url = format!("{}{}", sites.chesscom, games.archives_path());
            let site = host_of(&url);
            let what = format!("user {}", games.user);
            let json_request = Request {
                what: &what,
                expected: "JSON",
                path,
            };
            let answer = client.get(&url, &[], "application/json", &json_request, progress)?;
            let json = read_small(answer, &site, 16 << 20)?;
            let months = games.months(&json, existing.newest_chesscom_month, &site, &url)?;
            let request = pgn_request(&what, path);
            write_games(&lock, |file| {
                let mut sink = Sink::new(file, path, old.as_deref(), existing.keys)?;
                for month in months {
                    let url = format!("{}{}", sites.chesscom, games.month_path(month));
                    let answer = client.get(&url, &[], PGN, &request, progress)?;
                    sink.take(answer, progress)?;
                }
                sink.finish(progress)
            })?
        }
    };
    let (added, already) = written.unwrap_or((0, 0));
    Ok(FetchReport {
        path: path.to_owned(),
        kept: if what.adds() { kept } else { 0 },
        added,
        already,
        written: written.is_some(),
        requests: client.requests(),
        waited: client.waited(),
    })
}

/// The `Accept` of PGN answers (lichess's documented type).
const PGN: &str = "application/x-chess-pgn";

fn pgn_request<'a>(what: &'a str, path: &'a Path) -> Request<'a> {
    Request {
        what,
        expected: "PGN",
        path,
    }
}
