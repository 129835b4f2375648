//! "My repertoires" in the coach: the rows ([`RepertoireRow`]) kept up to date while the
//! view is shown — a file's positions and cards found again only when its lines or its
//! chapters' sides change, the review log read again only when it changed on disk —
//! and drilling some repertoires alone ([`BookChoice::only`]).
//!
//! Finding a large file's cards (every line played) and replaying the review log take
//! a while (half a second for 50,000 positions in a debug build), so they run as a job
//! off the window's thread: meanwhile the rows show the files' names, sides, chapters
//! and lines, and "counting…" for the rest; the window stays responsive.
//!
//! [`BookChoice::only`]: crate::workspace::BookChoice::only

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use crate::book::{OpeningLine, Side};
use crate::coach::context::Context;
use crate::job::{Job, JobPoll};
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

/// A file whose cards are to be found: its path, what they are found for, its lines
/// and its chapters' game numbers.
type CardsWork = (PathBuf, CardsKey, Arc<Vec<OpeningLine>>, Vec<u32>);

/// What the background job found: each file's cards, and the log read again when its
/// stamp changed.
#[derive(Debug, Default)]
struct Counted {
    cards: Vec<(PathBuf, CardsKey, FileCards)>,
    log: Option<LogRead>,
}

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
    /// The cards and the log being found in the background.
    job: Option<Job<Counted>>,
    /// Whether the rows were made while the job ran (they are made again when it ends).
    rows_counting: bool,
}

impl MyRepertoires {
    /// The rows, one per repertoire file loaded, in the order they were loaded.
    pub fn rows(&self) -> &[RepertoireRow] {
        &self.rows
    }

    /// Whether files' cards or the review log are being counted in the background.
    pub fn is_counting(&self) -> bool {
        self.job.is_some()
    }

    /// Makes the rows again where what they show changed (a file read or its sides
    /// set, the review log written, a new day, a file ticked), at `now`. What takes a
    /// while (a file's cards, the log replayed) is a background job; until it is done,
    /// the rows it concerns are counting.
    pub(crate) fn refresh(&mut self, ctx: &mut Context, now: Timestamp) {
        self.take_counted(ctx);
        let stamp = ctx.review_log.as_deref().and_then(log_stamp);
        let ws = &ctx.workspace;
        let mut ids = Vec::new();
        let mut ticks = Vec::new();
        let mut work: Vec<CardsWork> = Vec::new();
        for file in ws.loaded_repertoires() {
            let key = CardsKey {
                lines: Arc::as_ptr(&file.lines).cast::<OpeningLine>() as usize,
                sides: ws.chapter_sides_of(file),
            };
            if !self.cards.get(&file.path).is_some_and(|(k, _)| *k == key) {
                let games = file.chapters.iter().map(|c| c.game).collect();
                work.push((
                    file.path.clone(),
                    key.clone(),
                    Arc::clone(&file.lines),
                    games,
                ));
            }
            ids.push(key.lines ^ hash_sides(&key.sides));
            ticks.push(ws.is_ticked(&file.path));
        }
        let log_stale = stamp != self.log.stamp;
        if self.job.is_none() && (log_stale || !work.is_empty()) {
            let log = ctx.review_log.clone().filter(|_| log_stale);
            self.job = start_counting(work, log, stamp, ctx);
        }
        let counting = self.job.is_some();
        if counting {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        let made_from = Some((ids, self.log.stamp, now.day(), ticks));
        if made_from == self.made_from && counting == self.rows_counting {
            return;
        }
        self.made_from = made_from;
        self.rows_counting = counting;
        let ws = &ctx.workspace;
        let log_ready = !counting || !log_stale;
        self.rows = ws
            .loaded_repertoires()
            .map(|file| {
                let sides = ws.all_chapter_sides(file);
                let ticked = ws.is_ticked(&file.path);
                let key = ws.chapter_sides_of(file);
                let lines = Arc::as_ptr(&file.lines).cast::<OpeningLine>() as usize;
                match self.cards.get(&file.path) {
                    Some((k, cards)) if k.lines == lines && k.sides == key && log_ready => {
                        RepertoireRow::new(file, cards, sides, ticked, &self.log.schedule, now)
                    }
                    _ => RepertoireRow::counting(file, sides, ticked),
                }
            })
            .collect();
        // Files no longer loaded leave the cache.
        let loaded: Vec<&Path> = ws.loaded_repertoires().map(|f| f.path.as_path()).collect();
        self.cards.retain(|p, _| loaded.contains(&p.as_path()));
    }

    /// Takes what the background job found, when it is done.
    fn take_counted(&mut self, ctx: &mut Context) {
        let Some(job) = &self.job else {
            return;
        };
        let counted = match job.poll() {
            JobPoll::Running => return,
            JobPoll::Finished(counted) => counted,
            JobPoll::Died(e) => {
                ctx.message = Some(format!("My repertoires: {e}"));
                Counted::default()
            }
        };
        self.job = None;
        for (path, key, cards) in counted.cards {
            self.cards.insert(path, (key, Arc::new(cards)));
        }
        if let Some(log) = counted.log {
            self.log = log;
        }
        self.made_from = None;
        ctx.request_repaint();
    }
}

/// Starts finding the cards of `work`'s files and, with `log`, reading the review log
/// (its stamp `stamp`) in the background; `None` (and the reason in the message) when
/// no thread can be started.
fn start_counting(
    work: Vec<CardsWork>,
    log: Option<PathBuf>,
    stamp: LogStamp,
    ctx: &mut Context,
) -> Option<Job<Counted>> {
    let job = Job::spawn("my-repertoires", ctx.wake(), move |_| {
        let cards = work
            .into_iter()
            .map(|(path, key, lines, games)| {
                let cards = FileCards::of_lines(&lines, |game| {
                    let i = games.iter().position(|g| *g == game)?;
                    key.sides.get(i).copied().flatten()
                });
                (path, key, cards)
            })
            .collect();
        let log = Some(LogRead {
            stamp,
            schedule: log
                .as_deref()
                .filter(|_| stamp.is_some())
                .map(read_schedule)
                .unwrap_or_default(),
        })
        .filter(|_| log.is_some() || stamp.is_none());
        Counted { cards, log }
    });
    match job {
        Ok(job) => Some(job),
        Err(e) => {
            ctx.message = Some(format!("My repertoires: {e}"));
            None
        }
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
