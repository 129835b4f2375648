//! The engine check as `hastings check` and the window's Coverage tab both run it: the
//! drill's tree of the repertoire against the theory, its positions analysed into a
//! store the caller keeps (a cache file or memory), the findings, and which line to
//! learn next with the review log's recall.
//!
//! [`CheckPlan::prepare`] does what needs no store (the exposure, the positions, the
//! engine's name, which names the cache file); [`PreparedCheck::run`] analyses and
//! reports. The steps themselves are [`crate::trainer::check`]'s.

use std::path::Path;

use rustc_hash::FxHashSet;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move};

use crate::book::PositionGraph;
use crate::engine::analysis::Analysis;
use crate::engine::{Engine, EngineError};
use crate::job::JobProgress;
use crate::review::{CardKey, Schedule, Scheduler, Timestamp};
use crate::sampler::Style;
use crate::trainer::check::{
    AnalysisStore, LearnNext, Report, RunError, RunStats, analyse_positions, epd_key,
    joined_theory, learn_next, positions_to_analyse, report,
};
use crate::trainer::coverage::{CoverageOptions, Exposure, exposure};
use crate::workspace::analysis_cache::AnalysisEngine;
use crate::workspace::review_store::{PARAMS_FILE, ReviewStore, load_params};

/// What a check is of and how it runs.
pub struct CheckPlan<'a> {
    /// The repertoire checked.
    pub repertoire: &'a PositionGraph,
    /// The opponent's book besides the repertoire's own moves (joined inside).
    pub theory: &'a PositionGraph,
    /// The opponent's style.
    pub style: &'a Style,
    /// The drill's tree: the learner's colour, depth and least mass.
    pub options: CoverageOptions,
    /// The engine and its limit.
    pub engine: AnalysisEngine,
    /// Learner moves losing at least this many centipawns are reported.
    pub threshold: i32,
    /// Engines to run at once (`None`: one per core).
    pub threads: Option<usize>,
    /// How many positions "learn next" lists.
    pub learn_shown: usize,
}

/// A check ready to run: its positions and its engine's name known.
pub struct PreparedCheck<'a> {
    repertoire: &'a PositionGraph,
    exposure: Exposure,
    positions: Vec<Chess>,
    engine: AnalysisEngine,
    name: String,
    threshold: i32,
    threads: usize,
    learn_shown: usize,
}

/// What a check found.
#[derive(Debug)]
pub struct CheckOutcome {
    /// How many positions were analysed and found in the store, or why the analysis
    /// stopped (the report is then of what was analysed).
    pub stats: Result<RunStats, RunError>,
    /// The findings.
    pub report: Report,
    /// Which line to learn next, the most paying first.
    pub learn_next: Vec<LearnNext>,
}

impl<'a> CheckPlan<'a> {
    /// The drill's tree and the positions to analyse; starts the engine once for its
    /// name.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when the engine cannot be started (which engine, and why).
    pub fn prepare(self) -> Result<PreparedCheck<'a>, EngineError> {
        let theory = joined_theory(self.theory, self.repertoire);
        let ex = exposure(self.repertoire, &theory, self.style, &self.options);
        let positions = positions_to_analyse(self.repertoire, &ex);
        let name = self.engine.spec.start(0)?.name();
        let threads = self.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        });
        Ok(PreparedCheck {
            repertoire: self.repertoire,
            exposure: ex,
            positions,
            engine: self.engine,
            name,
            threshold: self.threshold,
            threads,
            learn_shown: self.learn_shown,
        })
    }
}

impl PreparedCheck<'_> {
    /// The engine's UCI name (its version included): with [`limit`](Self::limit), what
    /// names the cache file.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The limit in words: `depth 12`, `movetime 100`.
    pub fn limit(&self) -> &str {
        &self.engine.limit
    }

    /// The engine and its limit for a report: `Stockfish 17 (depth 12)`.
    pub fn engine_text(&self) -> String {
        format!("{} ({})", self.name, self.engine.limit)
    }

    /// The positions a check analyses.
    pub fn positions(&self) -> &[Chess] {
        &self.positions
    }

    /// The analyses `store` holds of the check's positions.
    pub fn analyses(&self, store: &dyn AnalysisStore) -> Vec<(Chess, Analysis)> {
        self.positions
            .iter()
            .filter_map(|p| Some((p.clone(), store.get(p)?)))
            .collect()
    }

    /// Analyses the positions `store` lacks (progress and cancel through `progress`),
    /// then reports from the store and ranks what to learn next by `recall`.
    pub fn run(
        &self,
        store: &mut dyn AnalysisStore,
        recall: &Recall,
        progress: &JobProgress,
    ) -> CheckOutcome {
        let spec = &self.engine.spec;
        let make_engine = || -> Result<Box<dyn Engine>, EngineError> { spec.start(0) };
        let stats = analyse_positions(
            &self.positions,
            store,
            &make_engine,
            self.threads,
            &self.engine.limits,
            progress,
        );
        let found = report(self.repertoire, &self.exposure, store, self.threshold);
        let losing: FxHashSet<(String, Move)> = found
            .blunders
            .iter()
            .map(|f| (epd_key(&f.position), f.played))
            .collect();
        let learn = learn_next(
            &self.exposure,
            &|pos| recall.at(pos),
            Some(store),
            &|pos, m| losing.contains(&(epd_key(pos), m)),
            self.learn_shown,
        );
        CheckOutcome {
            stats,
            report: found,
            learn_next: learn,
        }
    }
}

/// The review schedule's recall of each position, read from the review log.
pub struct Recall {
    cards: Option<(Schedule, Scheduler)>,
    learner: Color,
    now: Timestamp,
    warning: Option<String>,
}

impl Recall {
    /// The recall of `learner`'s positions in the review log `log` (none: every
    /// position is unreviewed; a missing file is an empty log), now.
    pub fn open(log: Option<&Path>, learner: Color) -> Recall {
        let now = Timestamp::from_clock(crate::clock::Clock::local());
        let mut recall = Recall {
            cards: None,
            learner,
            now,
            warning: None,
        };
        let Some(log) = log else { return recall };
        match ReviewStore::open(log) {
            Ok(store) => {
                let (scheduler, _) = load_params(&log.with_file_name(PARAMS_FILE))
                    .value
                    .scheduler();
                recall.cards = Some((store.schedule(&scheduler), scheduler));
            }
            Err(e) => recall.warning = Some(format!("recall unknown: {e}")),
        }
        recall
    }

    /// The probability of recall at `pos`; `None` where it was never reviewed.
    pub fn at(&self, pos: &Chess) -> Option<f64> {
        let (schedule, scheduler) = self.cards.as_ref()?;
        schedule
            .card(self.learner, &CardKey::from_position(pos))
            .map(|c| c.retrievability(scheduler, self.now))
    }

    /// Why the review log could not be read (recall is then unknown: 0 everywhere).
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }
}

/// `moves` from `start` in SAN with check marks (`["e4", "e5", "Qh5"]`).
pub fn san_line(start: &Chess, moves: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|&m| SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string())
        .collect()
}

/// A position worth learning in words, numbered as players write moves: `"1.e4 e5
/// 2.Nf3: 2...Nc6"` (the way from the standard position, then the repertoire's move).
pub fn learn_text(l: &LearnNext) -> String {
    let answer = crate::trainer::verdict::numbered_line(&l.position, &[l.answer]);
    let way = crate::trainer::verdict::numbered_line(&Chess::default(), &l.moves);
    if way.is_empty() {
        answer
    } else {
        format!("{way}: {answer}")
    }
}
