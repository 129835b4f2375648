//! What can go wrong in a fetch: each variant one line that names the site, the file
//! or the user and says what happened to the file (nothing is half-written).

use std::path::PathBuf;

use thiserror::Error;

use crate::workspace::store::StoreError;

/// Why a fetch brought nothing (the file, if any, is as it was).
#[derive(Debug, Error)]
pub enum FetchError {
    /// The site could not be reached (no network, a wrong address, a timeout).
    #[error("cannot reach {site}: {reason}")]
    Unreachable {
        /// The site's host.
        site: String,
        /// What the network said.
        reason: String,
    },
    /// The site has no such user or study (HTTP 404).
    #[error("{site} has no {what} (HTTP 404)")]
    NotFound {
        /// The site's host.
        site: String,
        /// What was asked for: `user NAME`, `study ID (or it is private)`.
        what: String,
    },
    /// The site refuses to give it (HTTP 401 or 403: a private study).
    #[error("{site} will not give {what}: it is private (HTTP {status})")]
    Private {
        /// The site's host.
        site: String,
        /// What was asked for.
        what: String,
        /// The status.
        status: u16,
    },
    /// The site kept answering "too many requests" (HTTP 429) after waiting as told.
    #[error("{site} still says \"too many requests\" after {tries} tries; try again later")]
    RateLimited {
        /// The site's host.
        site: String,
        /// Requests made.
        tries: u32,
    },
    /// Another HTTP status than success.
    #[error("{site} answered HTTP {status} to {url}")]
    Status {
        /// The site's host.
        site: String,
        /// The status.
        status: u16,
        /// The address asked.
        url: String,
    },
    /// The answer is a web page (HTML), not PGN or JSON: a wrong address, a proxy's
    /// login page, a site in maintenance.
    #[error("{site} answered a web page, not {expected}, at {url} (is the address right?)")]
    NotData {
        /// The site's host.
        site: String,
        /// What was expected: `PGN`, `JSON`.
        expected: &'static str,
        /// The address asked.
        url: String,
    },
    /// The JSON answer has not the documented shape.
    #[error("{site} answered JSON Hastings cannot read at {url}: {reason}")]
    BadJson {
        /// The site's host.
        site: String,
        /// The address asked.
        url: String,
        /// Why.
        reason: String,
    },
    /// The connection broke in the middle of the answer.
    #[error(
        "the connection to {site} was cut after {games} games ({reason}); {} is unchanged: fetch again",
        .path.display()
    )]
    Cut {
        /// The site's host.
        site: String,
        /// Games received before the cut.
        games: u64,
        /// The file that was to be written.
        path: PathBuf,
        /// What the network said.
        reason: String,
    },
    /// The user asked to stop.
    #[error("fetch cancelled after {games} games; {} is unchanged", .path.display())]
    Cancelled {
        /// Games received before.
        games: u64,
        /// The file that was to be written.
        path: PathBuf,
    },
    /// A study id or link, or a user name, that cannot be one.
    #[error("{0}")]
    BadInput(String),
    /// The file could not be read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
}
