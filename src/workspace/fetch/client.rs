//! The HTTP side of a fetch: one request at a time, a User-Agent naming Hastings and its
//! version, waiting as told after HTTP 429, and each failure turned into a
//! [`FetchError`] that names the site.

use std::io::{BufRead, BufReader, Read};
use std::time::Duration;

use super::error::FetchError;
use crate::job::JobProgress;

/// How long to wait after HTTP 429 when the answer does not say (lichess's API
/// documentation: "wait a full minute").
pub const DEFAULT_WAIT: Duration = Duration::from_secs(60);

/// The longest wait after HTTP 429 Hastings accepts from a `Retry-After`.
const MAX_WAIT: Duration = Duration::from_secs(600);

/// Requests made for one address before giving up on HTTP 429.
const MAX_TRIES: u32 = 4;

/// The `User-Agent` of every request: `Hastings/<version> (+<repository>)`, or
/// `Hastings/<version> (desktop chess opening trainer)` while `Cargo.toml` names no
/// repository.
pub fn user_agent() -> String {
    let version = env!("CARGO_PKG_VERSION");
    match env!("CARGO_PKG_REPOSITORY") {
        "" => format!("Hastings/{version} (desktop chess opening trainer)"),
        repo => format!("Hastings/{version} (+{repo})"),
    }
}

/// The host of `base` (`lichess.org`, `127.0.0.1:8080`): how errors name a site.
pub fn host_of(base: &str) -> String {
    let rest = base.split_once("://").map_or(base, |(_, r)| r);
    rest.split('/').next().unwrap_or(rest).to_owned()
}

/// A client that makes one request at a time (its methods take `&mut self`).
#[derive(Debug)]
pub struct Client {
    agent: ureq::Agent,
    requests: u32,
    waited: Duration,
}

impl Default for Client {
    fn default() -> Self {
        Client::new()
    }
}

/// A successful answer's body, being read.
pub struct Answer {
    /// The body.
    pub body: Box<dyn BufRead + Send>,
    /// The address asked.
    pub url: String,
}

impl std::fmt::Debug for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answer").field("url", &self.url).finish()
    }
}

impl Client {
    /// A client with Hastings's User-Agent.
    pub fn new() -> Client {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .user_agent(user_agent())
            .timeout_connect(Some(Duration::from_secs(20)))
            .timeout_per_read(Some(Duration::from_secs(120)))
            .build();
        Client {
            agent: config.into(),
            requests: 0,
            waited: Duration::ZERO,
        }
    }

    /// Requests made so far.
    pub fn requests(&self) -> u32 {
        self.requests
    }

    /// Time spent waiting after HTTP 429.
    pub fn waited(&self) -> Duration {
        self.waited
    }

    /// `GET url?query` asking for `accept`; on HTTP 429 waits as the answer says (or
    /// [`DEFAULT_WAIT`]) and asks again. `what` names what is asked for in errors
    /// (`user NAME`); `expected` is `PGN` or `JSON`.
    ///
    /// # Errors
    ///
    /// [`FetchError::Unreachable`], [`FetchError::NotFound`], [`FetchError::Private`],
    /// [`FetchError::RateLimited`], [`FetchError::Status`], [`FetchError::NotData`]
    /// (a web page), [`FetchError::Cancelled`] during a wait (with `path`).
    pub fn get(
        &mut self,
        url: &str,
        query: &[(&str, String)],
        accept: &str,
        request: &Request<'_>,
        progress: &JobProgress,
    ) -> Result<Answer, FetchError> {
        let site = host_of(url);
        let mut tries = 0;
        loop {
            tries += 1;
            self.requests += 1;
            let mut builder = self.agent.get(url).header("Accept", accept);
            for (k, v) in query {
                builder = builder.query(*k, v);
            }
            let response = builder.call().map_err(|e| FetchError::Unreachable {
                site: site.clone(),
                reason: reason(&e),
            })?;
            let status = response.status().as_u16();
            match status {
                200..=299 => {}
                429 if tries < MAX_TRIES => {
                    let wait = response
                        .headers()
                        .get("retry-after")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.trim().parse::<u64>().ok())
                        .map_or(DEFAULT_WAIT, Duration::from_secs)
                        .min(MAX_WAIT);
                    drop(response);
                    self.wait(wait, request, progress)?;
                    continue;
                }
                429 => {
                    return Err(FetchError::RateLimited { site, tries });
                }
                404 => {
                    return Err(FetchError::NotFound {
                        site,
                        what: request.what.to_owned(),
                    });
                }
                401 | 403 => {
                    return Err(FetchError::Private {
                        site,
                        what: request.what.to_owned(),
                        status,
                    });
                }
                _ => {
                    return Err(FetchError::Status {
                        site,
                        status,
                        url: url.to_owned(),
                    });
                }
            }
            let html = response
                .headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.to_ascii_lowercase().contains("html"));
            let not_data = || FetchError::NotData {
                site: site.clone(),
                expected: request.expected,
                url: url.to_owned(),
            };
            if html {
                return Err(not_data());
            }
            let reader = response.into_body().into_reader();
            let mut body = BufReader::with_capacity(64 << 10, reader);
            // A page served as text: its first character gives it away.
            let first = body
                .fill_buf()
                .map_err(|e| FetchError::Unreachable {
                    site: site.clone(),
                    reason: e.to_string(),
                })?
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .copied();
            if first == Some(b'<') {
                return Err(not_data());
            }
            return Ok(Answer {
                body: Box::new(body),
                url: url.to_owned(),
            });
        }
    }

    /// Waits `wait`, in steps that notice a cancel.
    fn wait(
        &mut self,
        wait: Duration,
        request: &Request<'_>,
        progress: &JobProgress,
    ) -> Result<(), FetchError> {
        let step = Duration::from_millis(100);
        let mut left = wait;
        while !left.is_zero() {
            if progress.is_cancelled() {
                return Err(request.cancelled(progress));
            }
            let now = left.min(step);
            std::thread::sleep(now);
            left -= now;
            self.waited += now;
        }
        Ok(())
    }
}

/// What one request is for, for its errors.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// What is asked for: `user NAME`.
    pub what: &'a str,
    /// `PGN` or `JSON`.
    pub expected: &'static str,
    /// The file being written.
    pub path: &'a std::path::Path,
}

impl Request<'_> {
    /// [`FetchError::Cancelled`] with the games counted so far.
    pub fn cancelled(&self, progress: &JobProgress) -> FetchError {
        FetchError::Cancelled {
            games: progress.snapshot().items,
            path: self.path.to_owned(),
        }
    }
}

/// A network error in one line: the innermost cause ("Connection refused").
fn reason(e: &ureq::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text = s.to_string();
        source = s.source();
    }
    let line = text.lines().next().unwrap_or_default();
    line.strip_prefix("io: ").unwrap_or(line).to_owned()
}

/// Reads all of a (small) JSON answer, up to `limit` bytes.
///
/// # Errors
///
/// [`FetchError::Unreachable`] when the connection breaks.
pub fn read_small(answer: Answer, site: &str, limit: u64) -> Result<Vec<u8>, FetchError> {
    let mut bytes = Vec::new();
    answer
        .body
        .take(limit)
        .read_to_end(&mut bytes)
        .map_err(|e| FetchError::Unreachable {
            site: site.to_owned(),
            reason: e.to_string(),
        })?;
    Ok(bytes)
}
