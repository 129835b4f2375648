//! The review log on disk: appended one synced record at a time, read back whole.
//!
//! The log ([`crate::review::log`]) is the learner's only review data: card states are
//! replayed from it on every start ([`ReviewStore::schedule`]), so there is no state file
//! that could disagree with it or be lost. An append writes the record's line, flushes
//! and calls `sync_data` before it returns. On open, a last line without its newline (a
//! record torn by a crash mid-append) is copied to `NAME.torn-<unix time>`, cut off the
//! log, and reported; a malformed line elsewhere is reported with its line number and
//! skipped; every complete record is kept.
//!
//! ```
//! use hastings::review::{Rating, ReviewRecord, Scheduler, Timestamp};
//! use hastings::workspace::review_store::ReviewStore;
//! use shakmaty::{Chess, Color};
//!
//! let dir = std::env::temp_dir().join(format!("hastings-doc-{}", std::process::id()));
//! let path = dir.join("reviews.log");
//! # let _ = std::fs::remove_dir_all(&dir);
//! let mut store = ReviewStore::open(&path)?;
//! store.append(&ReviewRecord {
//!     time: Timestamp::parse_rfc3339("2025-03-01T09:30:00+01:00").unwrap(),
//!     color: Color::White,
//!     rating: Rating::Good,
//!     seconds: 2.0,
//!     fuzz: false,
//!     card: hastings::review::CardKey::from_position(&Chess::default()),
//! })?;
//! let again = ReviewStore::open(&path)?;
//! assert_eq!(again.records().len(), 1);
//! assert_eq!(again.schedule(&Scheduler::default()).review_count(), 1);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), hastings::workspace::store::StoreError>(())
//! ```

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::store::{Loaded, StoreError, create_aside, load_or_set_aside, write_atomic};
use crate::review::log::{self, HEADER, ReviewRecord};
use crate::review::schedule::{DEFAULT_RETENTION, Schedule, Scheduler};

/// The log's file name in the learner's data directory.
pub const LOG_FILE: &str = "reviews.log";

/// The parameters' file name in the learner's data directory.
pub const PARAMS_FILE: &str = "review-params.json";

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_owned(),
        source,
    }
}

/// An open review log.
#[derive(Debug)]
pub struct ReviewStore {
    path: PathBuf,
    records: Vec<ReviewRecord>,
    warnings: Vec<String>,
    /// Open for appending once the first record is written.
    file: Option<File>,
}

impl ReviewStore {
    /// Reads the log at `path` (a missing file is an empty log, created at the first
    /// append). A torn last record is moved aside (see the module docs).
    ///
    /// # Errors
    ///
    /// [`StoreError::Io`] when the file exists but cannot be read, or a torn record
    /// cannot be moved aside.
    pub fn open(path: &Path) -> Result<ReviewStore, StoreError> {
        let bytes = match fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io_err(path)(e)),
        };
        let read = log::parse(&bytes);
        let mut warnings = read.warnings();
        if let Some(tail) = &read.torn_tail {
            let aside = create_aside(path, "torn", tail)?;
            let f = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(io_err(path))?;
            f.set_len(read.complete_len as u64).map_err(io_err(path))?;
            f.sync_all().map_err(io_err(path))?;
            warnings.push(format!(
                "the cut-off bytes were kept in {}",
                aside.display()
            ));
        }
        Ok(ReviewStore {
            path: path.to_owned(),
            records: read.records,
            warnings,
            file: None,
        })
    }

    /// The log's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every review read or appended, in order.
    pub fn records(&self) -> &[ReviewRecord] {
        &self.records
    }

    /// What opening the log found worth telling the learner (torn or skipped lines).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The card states: the log replayed through `scheduler`.
    pub fn schedule(&self, scheduler: &Scheduler) -> Schedule {
        Schedule::replay(scheduler, &self.records)
    }

    /// Appends one review: writes its line, flushes, and syncs the data to disk before
    /// returning. A new log starts with the header line.
    ///
    /// # Errors
    ///
    /// [`StoreError::Io`] when the directory or file cannot be written; the record is
    /// then not kept in memory either.
    pub fn append(&mut self, record: &ReviewRecord) -> Result<(), StoreError> {
        let path = self.path.clone();
        let file = match &mut self.file {
            Some(f) => f,
            None => {
                if let Some(dir) = path.parent()
                    && !dir.as_os_str().is_empty()
                {
                    fs::create_dir_all(dir).map_err(io_err(dir))?;
                }
                let mut f = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&path)
                    .map_err(io_err(&path))?;
                if f.metadata().map_err(io_err(&path))?.len() == 0 {
                    f.write_all(format!("{HEADER}\n").as_bytes())
                        .map_err(io_err(&path))?;
                }
                self.file.insert(f)
            }
        };
        file.write_all(record.to_line().as_bytes())
            .map_err(io_err(&path))?;
        file.flush().map_err(io_err(&path))?;
        file.sync_data().map_err(io_err(&path))?;
        self.records.push(record.clone());
        Ok(())
    }
}

/// The learner's FSRS settings, saved beside the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReviewParams {
    /// The FSRS parameters (empty for the defaults).
    pub parameters: Vec<f32>,
    /// The desired retention.
    pub desired_retention: f32,
}

impl Default for ReviewParams {
    fn default() -> ReviewParams {
        ReviewParams {
            parameters: Vec::new(),
            desired_retention: DEFAULT_RETENTION,
        }
    }
}

impl ReviewParams {
    /// The scheduler these settings describe, or the default one with a warning when
    /// fsrs refuses them.
    pub fn scheduler(&self) -> (Scheduler, Option<String>) {
        match Scheduler::new(&self.parameters, self.desired_retention) {
            Ok(s) => (s, None),
            Err(e) => (
                Scheduler::default(),
                Some(format!("{e}; using the defaults")),
            ),
        }
    }
}

/// Loads the FSRS settings (defaults when missing; a corrupt file is set aside).
pub fn load_params(path: &Path) -> Loaded<ReviewParams> {
    load_or_set_aside(path, |text| serde_json::from_str::<ReviewParams>(text))
}

/// Saves the FSRS settings atomically.
///
/// # Errors
///
/// [`StoreError::Encode`] when the settings cannot be written as JSON (nothing is
/// written), otherwise as [`write_atomic`].
pub fn save_params(path: &Path, params: &ReviewParams) -> Result<(), StoreError> {
    let text = serde_json::to_string_pretty(params).map_err(|e| StoreError::encode(path, e))?;
    write_atomic(path, text.as_bytes())
}

/// What `hastings review` was asked to do (the CLI fills it in from its flags).
#[derive(Clone, Debug)]
pub struct ReviewCommand {
    /// The learner's colour.
    pub color: shakmaty::Color,
    /// The review log.
    pub log: PathBuf,
    /// Now (the learner's local offset included).
    pub now: crate::review::Timestamp,
    /// `Some((moves, rating))`: grade the card after these SAN moves.
    pub grade: Option<(String, crate::review::Rating)>,
    /// Fuzz the interval of a grade.
    pub fuzz: bool,
    /// Due cards, or the mistakes-only queue.
    pub kind: crate::review::SessionKind,
    /// New cards a day.
    pub new_per_day: u32,
    /// How many queued cards to list.
    pub limit: usize,
    /// The session chosen (for `kind` due): the daily queue, or the positions of a
    /// chosen session, "the most common" by the exact reach of a drill with the neutral
    /// style.
    pub session: crate::review::SessionChoice,
}

/// What `hastings review` prints.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum ReviewOutput {
    /// The queue and the counts.
    Queue(crate::review::report::QueueReport),
    /// The card just graded.
    Card(crate::review::report::CardReport),
}

/// Why `hastings review` failed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewCommandError {
    /// The log or the parameters could not be read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The moves to grade do not lead to a card.
    #[error(transparent)]
    Card(#[from] crate::review::report::CardLookupError),
}

/// Runs `hastings review` on `graph`: prints the queue, or grades one card (appending
/// the review to the log) and prints it. Warnings about the log go to `warn`.
///
/// # Errors
///
/// [`ReviewCommandError`] when the log cannot be read or written or the moves to grade
/// lead to no card.
pub fn review_command(
    graph: &crate::book::PositionGraph,
    cmd: &ReviewCommand,
    mut warn: impl FnMut(&str),
) -> Result<ReviewOutput, ReviewCommandError> {
    use crate::review::report::{CardJson, CardReport, card_after, queue_report};
    use crate::review::{Deck, ReviewRecord};

    let params_path = cmd.log.with_file_name(PARAMS_FILE);
    let loaded = load_params(&params_path);
    let (scheduler, bad) = loaded.value.scheduler();
    for w in loaded.warning.iter().chain(&bad) {
        warn(w);
    }
    let mut store = ReviewStore::open(&cmd.log)?;
    for w in store.warnings() {
        warn(w);
    }
    let mut deck = Deck::new(graph, cmd.color);
    match &cmd.grade {
        None => {
            if matches!(cmd.session, crate::review::SessionChoice::Common(_)) {
                let style = crate::sampler::Style::neutral();
                crate::trainer::coverage::set_exact_reach(&mut deck, graph, &style);
            }
            let schedule = store.schedule(&scheduler);
            let request = crate::review::report::QueueRequest {
                graph,
                kind: cmd.kind,
                choice: &cmd.session,
                new_per_day: cmd.new_per_day,
                limit: cmd.limit,
            };
            Ok(ReviewOutput::Queue(queue_report(
                &deck, &schedule, &scheduler, cmd.now, &request,
            )))
        }
        Some((moves, rating)) => {
            let index = card_after(graph, &deck, moves)?;
            let Some(card) = deck.cards().get(index) else {
                return Err(crate::review::report::CardLookupError::NotACard {
                    moves: moves.clone(),
                    reason: "no such card".to_owned(),
                }
                .into());
            };
            store.append(&ReviewRecord {
                time: cmd.now,
                color: cmd.color,
                rating: *rating,
                seconds: 0.0,
                fuzz: cmd.fuzz,
                card: card.key.clone(),
            })?;
            let schedule = store.schedule(&scheduler);
            Ok(ReviewOutput::Card(CardReport {
                card: CardJson::new(card, schedule.card(cmd.color, &card.key)),
            }))
        }
    }
}
