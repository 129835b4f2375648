//! "Is my repertoire sound?" in the window: `hastings check` as a job with progress and
//! cancel, on the repertoire drilled now, its analyses kept in the data folder's
//! `analysis/` (so a second check, or one after an edit, analyses only new positions),
//! and its findings described for the Coverage tab (SAN computed on the job's thread);
//! [`saved`]: the last report, kept in the data folder for the next start; [`words`]:
//! the report in a club player's words.

pub mod saved;
pub mod words;

use std::path::PathBuf;
use std::sync::Arc;

use shakmaty::{Chess, Color, Move, Position};

use crate::book::PositionGraph;
use crate::coach::context::Context;
use crate::engine::EngineError;
use crate::engine::analysis::Analysis;
use crate::job::{Job, JobError, JobPoll, JobProgress, ProgressSnapshot};
use crate::sampler::Style;
use crate::trainer::check::{
    AnalysisStore, DEFAULT_THRESHOLD_CP, Finding, LearnNext, MemoryStore, RunError,
};
use crate::trainer::coverage::CoverageOptions;
use crate::trainer::verdict::numbered_line;
use crate::workspace::analysis_cache::{AnalysisCache, AnalysisEngine};
use crate::workspace::check::{CheckPlan, Recall, learn_text};

/// A finding described for the tab.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FindingRow {
    /// The moves from the standard position to the learner's position (empty for a
    /// chapter that starts from a set-up position).
    #[serde(with = "saved::uci_line")]
    pub moves: Vec<Move>,
    /// The way there and the move, numbered: `"1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?"`.
    pub text: String,
    /// The engine's better move, numbered (`"3...g6"`).
    pub best: Option<String>,
    /// The scores from the learner's side in words ([`words::score_words`]: `"+0.30"`,
    /// `"mated in 1"`): after the best move, after the played one.
    pub scores: (String, String),
    /// How it is punished, numbered (`"4.Qxf7#"`).
    pub refutation: String,
    /// The probability that a drill meets it.
    pub reach: f64,
    /// The learner's position, for the board preview.
    #[serde(with = "saved::fen")]
    pub position: Chess,
}

/// A finished check, described.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CheckView {
    /// The engine and its limit.
    pub engine: String,
    /// Positions analysed in this run, and found in the cache.
    pub analysed: usize,
    /// Positions found in the cache.
    pub cached: usize,
    /// Whether the learner stopped it (the findings are then those of what was analysed).
    pub cancelled: bool,
    /// The learner's moves that lose, by reach × loss.
    pub blunders: Vec<FindingRow>,
    /// Lines that end at least the threshold down, with no blunder to explain it.
    pub bad_ends: Vec<(String, String)>,
    /// Min-max and expected values, centipawns from the learner's side.
    pub values: Option<(i32, f64)>,
    /// What opening the cache found worth telling.
    pub warnings: Vec<String>,
    /// Which line to learn next: the positions where learning pays most.
    pub learn_next: Vec<LearnRow>,
}

/// A position worth learning, described for the tab.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LearnRow {
    /// The moves from the standard position.
    #[serde(with = "saved::uci_line")]
    pub moves: Vec<Move>,
    /// `"e4 e5 Nf3: Nc6"`: the way there and the repertoire's move.
    pub text: String,
    /// How often a drill meets it.
    pub reach: f64,
    /// The probability that the learner remembers the move now.
    pub recall: f64,
    /// What the line is worth, in pawns.
    pub stake: f64,
    /// The position, for the board preview.
    #[serde(with = "saved::fen")]
    pub position: Chess,
}

type CheckResult = Result<CheckView, CheckError>;

/// Why the engine check gave no report (shown where the report would be).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The book is ECO alone: there is no repertoire to check.
    #[error(
        "A check needs your repertoire: untick ECO in the Book tab and load it as “My repertoire”."
    )]
    NoRepertoire,
    /// The check's thread could not be started.
    #[error("Cannot start the check: {0}")]
    Start(#[source] JobError),
    /// The check's thread ended without a result (a bug).
    #[error("{0}")]
    Died(#[source] JobError),
    /// The engine could not be started (which engine, and why).
    #[error("{0}")]
    Engine(#[source] EngineError),
    /// The analysis stopped part-way (an engine failed while analysing).
    #[error("The check stopped: {0}")]
    Stopped(#[source] RunError),
    /// The report kept from the last check did not read at the start (the file, where
    /// it was kept aside, why).
    #[error("Your last check's report was lost: {0}")]
    Lost(String),
}

/// Analyses kept in memory where there is no data folder, by engine and limit.
type Memory = Option<(String, MemoryStore)>;

/// The analyses a check found, by position (handed to the move checker).
type Found = Vec<(Chess, Analysis)>;

/// The check's job and its last result.
#[derive(Default)]
pub struct CheckState {
    job: Option<Job<(CheckResult, Memory, Found)>>,
    result: Option<CheckResult>,
    /// Given to the next check when there is no data folder.
    memory: Memory,
    /// The last check's analyses, until the coach hands them to the move checker.
    found: Found,
    /// Where the report is kept for the next start (the data folder's
    /// [`saved::CHECK_REPORT_FILE`]); `None`: not kept.
    report_file: Option<PathBuf>,
    /// When the report shown was made and for which side, while it is the one kept from
    /// an earlier run (`"2026-11-29 02:40, as White"`).
    restored: Option<String>,
}

impl CheckState {
    /// How far the running check is, if one runs.
    pub fn progress(&self) -> Option<ProgressSnapshot> {
        self.job.as_ref().map(|job| job.progress().snapshot())
    }

    /// The last check's findings, or why it failed.
    pub fn result(&self) -> Option<&CheckResult> {
        self.result.as_ref()
    }

    /// When the report shown was made and for which side (`"2026-11-29 02:40, as
    /// White"`), while it is the one kept from an earlier run.
    pub fn restored(&self) -> Option<&str> {
        self.restored.as_deref()
    }

    /// At the start: the report the last check in this data folder left, shown again
    /// (a damaged file is kept aside and the tab says so where the report would be).
    pub(crate) fn restore(&mut self, ctx: &Context) {
        self.report_file = ctx.data_dir().map(|dir| saved::report_file(&dir));
        let Some(path) = &self.report_file else {
            return;
        };
        let (found, warning) = saved::load(path);
        if let Some(warning) = warning {
            self.result = Some(Err(CheckError::Lost(warning)));
        }
        if let Some(found) = found {
            self.restored = Some(format!("{}, as {}", found.checked, found.learner.name()));
            self.result = Some(Ok(found.view));
        }
    }

    pub(crate) fn cancel(&self) {
        if let Some(job) = &self.job {
            job.cancel();
        }
    }

    /// Takes a finished job's result; whether one is still running.
    pub(crate) fn poll(&mut self) -> bool {
        let Some(job) = &self.job else { return false };
        match job.poll() {
            JobPoll::Running => return true,
            JobPoll::Finished((result, memory, found)) => {
                self.result = Some(result);
                self.memory = memory;
                self.found = found;
            }
            JobPoll::Died(e) => self.result = Some(Err(CheckError::Died(e))),
        }
        self.job = None;
        false
    }

    /// Waits for the running check (tests wait; the window never does).
    pub fn finish(&mut self) {
        if let Some(job) = self.job.take() {
            self.result = Some(match job.wait() {
                Ok((result, memory, found)) => {
                    self.memory = memory;
                    self.found = found;
                    result
                }
                Err(e) => Err(CheckError::Died(e)),
            });
        }
    }
}

impl CheckState {
    /// Starts checking the drilled repertoire with Stockfish (else the built-in
    /// engine) to `depth` plies (the Coverage tab's depth), or says why it cannot.
    pub(crate) fn start(&mut self, depth: u32, ctx: &mut Context) {
        if self.job.is_some() {
            return;
        }
        let Some(theory) = ctx.workspace.theory() else {
            self.result = Some(Err(CheckError::NoRepertoire));
            return;
        };
        let repertoire = Arc::clone(&ctx.graph);
        let learner = ctx.session.learner();
        let style = ctx.settings.style.clone();
        let cache_dir = ctx.analysis_dir();
        let review_log = ctx.review_log.clone();
        let report_file = self.report_file.clone();
        let mut memory = self.memory.take();
        let job = Job::spawn("check", ctx.wake(), move |progress| {
            let setup = Setup {
                repertoire: &repertoire,
                theory: &theory,
                style: &style,
                learner,
                depth,
            };
            let recall = Recall::open(review_log.as_deref(), learner);
            let mut found = Vec::new();
            let mut result = run_check(
                &setup,
                cache_dir,
                &mut memory,
                &recall,
                &mut found,
                progress,
            );
            if let (Ok(view), Some(path)) = (&mut result, &report_file) {
                keep(view, path, learner);
            }
            (result, memory, found)
        });
        match job {
            Ok(job) => {
                self.result = None;
                self.restored = None;
                self.job = Some(job);
            }
            Err(e) => self.result = Some(Err(CheckError::Start(e))),
        }
    }

    /// Each frame: takes the finished check and keeps frames coming while one runs.
    /// Returns the analyses a finished check found (for the move checker's store, so a
    /// wrong move at a checked position is judged at once).
    pub(crate) fn poll_frame(&mut self, ctx: &mut Context) -> Found {
        if self.poll() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        std::mem::take(&mut self.found)
    }
}

/// Keeps `view` at `path` for the next start (on the check's thread); a failure is
/// one more warning of the report.
fn keep(view: &mut CheckView, path: &std::path::Path, learner: Color) {
    let kept = saved::SavedCheck {
        checked: saved::now_text(),
        learner: learner.into(),
        view: view.clone(),
    };
    if let Err(e) = saved::save(path, &kept) {
        log::warn!("check report not kept: {e}");
        view.warnings.push(format!(
            "this report will not be shown after a restart: {e}"
        ));
    }
}

/// What a check is of.
struct Setup<'a> {
    repertoire: &'a PositionGraph,
    theory: &'a PositionGraph,
    style: &'a Style,
    learner: Color,
    depth: u32,
}

/// The check on the job's thread ([`crate::workspace::check`], as `hastings check`
/// runs it): analyses kept in `cache_dir`, else in `memory` (taken and given back).
fn run_check(
    setup: &Setup<'_>,
    cache_dir: Option<PathBuf>,
    memory: &mut Memory,
    recall: &Recall,
    found: &mut Found,
    progress: &JobProgress,
) -> CheckResult {
    let check = CheckPlan {
        repertoire: setup.repertoire,
        theory: setup.theory,
        style: setup.style,
        options: CoverageOptions {
            depth: setup.depth,
            ..CoverageOptions::new(setup.learner)
        },
        engine: AnalysisEngine::choose(None, None, None),
        threshold: DEFAULT_THRESHOLD_CP,
        threads: None,
        learn_shown: LEARN_SHOWN,
    }
    .prepare()
    .map_err(CheckError::Engine)?;
    let (name, limit) = (check.name(), check.limit());
    let mut warnings = Vec::new();
    let scope = format!("{name}\t{limit}");
    let kept = memory
        .take()
        .filter(|(s, _)| *s == scope)
        .map(|(_, store)| store);
    let cache = cache_dir.map(|dir| AnalysisCache::open(&dir, name, limit));
    let mut store = match cache {
        Some(Ok(cache)) => {
            warnings.extend(cache.warnings().iter().cloned());
            Kept::File(cache)
        }
        Some(Err(e)) => {
            warnings.push(format!(
                "analyses are kept only until the window closes: {e}"
            ));
            Kept::Memory(kept.unwrap_or_default())
        }
        None => Kept::Memory(kept.unwrap_or_default()),
    };
    let outcome = check.run(store.as_dyn(), recall, progress);
    found.extend(check.analyses(store.as_dyn()));
    warnings.extend(recall.warning().map(str::to_owned));
    if let Kept::Memory(m) = store {
        *memory = Some((scope, m));
    }
    let stats = outcome.stats.map_err(CheckError::Stopped)?;
    let found = outcome.report;
    let bad_ends = found
        .line_ends
        .iter()
        .filter(|e| {
            !e.after_blunder
                && e.score
                    .is_some_and(|s| s.to_centipawns() <= -DEFAULT_THRESHOLD_CP)
        })
        .map(|e| {
            (
                if e.path.start == Chess::default() {
                    numbered_line(&e.path.start, &e.path.moves)
                } else {
                    format!(
                        "{} (from a set-up position)",
                        numbered_line(&e.path.start, &e.path.moves)
                    )
                },
                e.score.map_or(String::new(), words::score_words),
            )
        })
        .collect();
    Ok(CheckView {
        engine: check.engine_text(),
        analysed: stats.analysed,
        cached: stats.cached,
        cancelled: stats.cancelled,
        blunders: found.blunders.iter().map(finding_row).collect(),
        bad_ends,
        values: found.minimax_cp.zip(found.expected_cp),
        warnings,
        learn_next: outcome.learn_next.iter().map(learn_row).collect(),
    })
}

/// How many positions "Learn next" lists.
const LEARN_SHOWN: usize = 10;

fn learn_row(l: &LearnNext) -> LearnRow {
    LearnRow {
        moves: l.moves.clone(),
        text: learn_text(l),
        reach: l.reach,
        recall: l.recall,
        stake: f64::from(l.stake_cp) / 100.0,
        position: l.position.clone(),
    }
}

/// Where a check keeps its analyses.
enum Kept {
    File(AnalysisCache),
    Memory(MemoryStore),
}

impl Kept {
    fn as_dyn(&mut self) -> &mut dyn AnalysisStore {
        match self {
            Kept::File(c) => c,
            Kept::Memory(m) => m,
        }
    }
}

fn finding_row(f: &Finding) -> FindingRow {
    let mut after = f.position.clone();
    after.play_unchecked(f.played);
    FindingRow {
        moves: if f.path.start == Chess::default() {
            f.path.moves.clone()
        } else {
            Vec::new()
        },
        text: words::mistake_line(&f.path.start, &f.path.moves, f.played),
        best: f.best.map(|m| numbered_line(&f.position, &[m])),
        scores: (
            words::score_words(f.best_score),
            words::score_words(f.played_score),
        ),
        refutation: numbered_line(&after, &f.refutation),
        reach: f.reach,
        position: f.position.clone(),
    }
}
