//! "My repertoires" in the coach: the rows ([`RepertoireRow`]) kept up to date while the
//! view is shown — a file's positions and cards found again only when its lines or its
//! chapters' sides change, the review log read again only when it changed on disk —
//! and drilling some repertoires alone ([`BookChoice::only`]).
//!
//! [`BookChoice::only`]: crate::workspace::BookChoice::only

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use crate::book::{OpeningLine, Side};
use crate::coach::context::Context;
use crate::review::{Schedule, Timestamp};
use crate::workspace::repertoires::{FileCards, RepertoireRow, read_schedule};

/// What a file's cards were found for: its lines and its chapters' sides.
#[derive(Clone, Debug, PartialEq)]
struct CardsKey {
    lines: usize,
    sides: Vec<Option<Side>>,
}

/// The review log as last read: its size and time, and its states.
#[derive(Debug, Default)]
struct LogRead {
    stamp: LogStamp,
    schedule: Schedule,
}

/// The review log's size and modification time.
type LogStamp = Option<(u64, Option<SystemTime>)>;

/// What the rows were made from: per file a number that changes with its cards, the
/// log's stamp, the day, the files ticked.
type MadeFrom = (Vec<usize>, LogStamp, i64, Vec<bool>);

/// The rows of My repertoires and what they were made from.
#[derive(Debug, Default)]
pub struct MyRepertoires {
    /// Whether the view is shown (the rows are kept up to date only then).
    pub(crate) shown: bool,
    cards: HashMap<PathBuf, (CardsKey, Arc<FileCards>)>,
    log: LogRead,
    rows: Vec<RepertoireRow>,
    /// What the rows were made from: the files' cards, the log, the day, the ticks.
    made_from: Option<MadeFrom>,
}

impl MyRepertoires {
    /// The rows, one per repertoire file loaded, in the order they were loaded.
    pub fn rows(&self) -> &[RepertoireRow] {
        &self.rows
    }

    /// Makes the rows again where what they show changed (a file read or its sides
    /// set, the review log written, a new day, a file ticked), at `now`.
    pub(crate) fn refresh(&mut self, ctx: &Context, now: Timestamp) {
        let stamp = ctx.review_log.as_deref().and_then(log_stamp);
        if stamp != self.log.stamp {
            self.log = LogRead {
                stamp,
                schedule: ctx
                    .review_log
                    .as_deref()
                    .filter(|_| stamp.is_some())
                    .map(read_schedule)
                    .unwrap_or_default(),
            };
        }
        let ws = &ctx.workspace;
        let mut ids = Vec::new();
        let mut ticks = Vec::new();
        for file in ws.loaded_repertoires() {
            let key = CardsKey {
                lines: Arc::as_ptr(&file.lines).cast::<OpeningLine>() as usize,
                sides: ws.chapter_sides_of(file),
            };
            let fresh = self.cards.get(&file.path).is_some_and(|(k, _)| *k == key);
            if !fresh {
                let cards = Arc::new(ws.file_cards(file));
                self.cards.insert(file.path.clone(), (key.clone(), cards));
            }
            ids.push(key.lines ^ hash_sides(&key.sides));
            ticks.push(ws.is_ticked(&file.path));
        }
        let made_from = Some((ids, self.log.stamp, now.day(), ticks));
        if made_from == self.made_from {
            return;
        }
        self.made_from = made_from;
        self.rows = ws
            .loaded_repertoires()
            .filter_map(|file| {
                let (_, cards) = self.cards.get(&file.path)?;
                Some(RepertoireRow::new(
                    file,
                    cards,
                    ws.all_chapter_sides(file),
                    ws.is_ticked(&file.path),
                    &self.log.schedule,
                    now,
                ))
            })
            .collect();
        // Files no longer loaded leave the cache.
        let loaded: Vec<&Path> = ws.loaded_repertoires().map(|f| f.path.as_path()).collect();
        self.cards.retain(|p, _| loaded.contains(&p.as_path()));
    }
}

/// A number that changes with the chapters' sides.
fn hash_sides(sides: &[Option<Side>]) -> usize {
    sides.iter().fold(17usize, |h, s| {
        h.wrapping_mul(31).wrapping_add(match s {
            None => 0,
            Some(Side::White) => 1,
            Some(Side::Black) => 2,
        })
    })
}

/// The review log's size and modification time (`None`: there is none).
fn log_stamp(path: &Path) -> LogStamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()))
}

/// Drills the repertoire files `paths` alone (ECO the theory): the book is rebuilt and
/// the learner's side follows their chapters.
pub(crate) fn train_repertoires(paths: &[PathBuf], ctx: &mut Context) {
    let choice = ctx.workspace.choice().only(paths);
    ctx.workspace.set_choice(choice);
    ctx.settings.book = ctx.workspace.choice().clone();
    let names: Vec<String> = paths
        .iter()
        .map(|p| crate::workspace::file_name(p))
        .collect();
    ctx.message = Some(format!(
        "Drilling {} alone (ECO is the theory it is compared with).",
        names.join(" and ")
    ));
}
