//! Wrong moves explained in the drill: when the learner plays a move outside the book,
//! an engine judges it against the book move ([`crate::trainer::verdict`]) while the
//! window goes on drawing ("Checking your move…"), and the drill panel shows the
//! verdict and the refutation once it comes.
//!
//! Each frame (in [`Coach::logic`]) the coach looks at the drill. When the learner is
//! to move, the [`MoveChecker`] (started then: the engine of
//! [`Coach::set_move_checker`], by default Stockfish when installed, else the built-in
//! α-β) analyses the positions after the book's moves while the learner thinks; a move
//! out of the book is asked of it, so only the position after that move is left to
//! search, and its answer is taken when it has come. Analyses are looked up in a
//! [`SharedStore`] first, and what the engine finds is kept there. By default that is
//! the data folder's cache on disk (`analysis/`, one file for the move checker's engine
//! and limit, opened on a background thread once the engine has given its name), which
//! also holds, in memory, the repertoire check's deeper analyses by the same engine;
//! until then, or without a data folder, a store in memory.
//! [`Coach::set_analysis_store`] replaces it. The setting
//! [`Settings::explain_wrong_moves`] turns all this off.
//!
//! A move found "also good" can be accepted ([`VerdictCommand::Accept`]): it is not
//! counted as a mistake (nor as a lapse in review) and, since the drill cannot go on
//! from a position outside its book, the line goes on with the book move it was
//! compared with, played for the learner (in review the card counts as helped: Hard at
//! best). With the setting [`Settings::alternatives_not_mistakes`] such a move is not
//! counted as a mistake as soon as the verdict comes. It can also be added to a copy of
//! the learner's repertoire file ([`VerdictCommand::AddToRepertoire`], as the Coverage
//! tab's "Add answer" does).
//!
//! [`Settings::alternatives_not_mistakes`]: super::settings::Settings::alternatives_not_mistakes
//! [`Settings::explain_wrong_moves`]: super::settings::Settings::explain_wrong_moves

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move};

use super::Coach;
use crate::engine::Limits;
use crate::job::{Job, JobPoll};
use crate::trainer::verdict::checker::{
    CHECK_TIME, CheckEngine, MoveChecker, SharedStore, memory_store,
};
use crate::trainer::verdict::{Question, Verdict};
use crate::trainer::{MoveOutcome, Phase};
use crate::workspace::analysis_cache::{AnalysisCache, AnalysisEngine};

/// How often the caller is asked to come back while a verdict is on its way, when it
/// set no wake-up call (a window has one: the engine's thread wakes it).
const CHECK_REPAINT: Duration = Duration::from_millis(100);

/// How long a screenshot waits for a verdict.
const SCREENSHOT_WAIT: Duration = Duration::from_secs(20);

/// What the learner asks about a verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerdictCommand {
    /// The move is also good: do not count it as a mistake, and go on with the book
    /// move.
    Accept,
    /// Add the move to a copy of the learner's repertoire file.
    AddToRepertoire,
}

/// The move checker and the verdict on the learner's last move outside the book.
pub struct VerdictState {
    /// Started at the first move outside the book.
    checker: Option<MoveChecker>,
    /// The engine to start (taken when the checker starts); `None`: Stockfish when
    /// installed, else the built-in engine.
    engine: Option<CheckEngine>,
    store: SharedStore,
    /// Whether the store was given ([`Coach::set_move_checker`],
    /// [`Coach::set_analysis_store`]): then the cache on disk is not opened.
    store_given: bool,
    /// The cache on disk being opened; `Some(None)` once done (or failed).
    opening: Option<Option<Job<Result<AnalysisCache, String>>>>,
    limits: Limits,
    /// The position whose book moves were analysed ahead last.
    ahead_at: Option<Chess>,
    /// The move asked about, and where.
    asked: Option<(Chess, Move)>,
    /// When it was asked.
    since: Option<Instant>,
    /// The verdict on it, or why none came.
    answer: Option<Result<Verdict, String>>,
    /// How long the last verdict took, from the question to the answer.
    took: Option<Duration>,
    /// Whether the move is no longer counted as a mistake.
    forgiven: bool,
}

impl Default for VerdictState {
    fn default() -> VerdictState {
        VerdictState {
            checker: None,
            engine: None,
            store: memory_store(),
            store_given: false,
            opening: None,
            limits: Limits::movetime(CHECK_TIME).unwrap_or(Limits::ONE_PLY),
            ahead_at: None,
            asked: None,
            since: None,
            answer: None,
            took: None,
            forgiven: false,
        }
    }
}

impl std::fmt::Debug for VerdictState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VerdictState")
            .field("checker", &self.checker)
            .field("answer", &self.answer)
            .field("forgiven", &self.forgiven)
            .finish_non_exhaustive()
    }
}

/// The move checker's cache of `engine` at `limit` in `dir`, holding in memory too the
/// repertoire check's analyses by that engine at its default limit.
fn open_caches(dir: &std::path::Path, engine: &str, limit: &str) -> Result<AnalysisCache, String> {
    let mut cache = AnalysisCache::open(dir, engine, limit).map_err(|e| e.to_string())?;
    let check = AnalysisEngine::choose(None, None, None).limit;
    if check != limit {
        let checked = AnalysisCache::open(dir, engine, &check).map_err(|e| e.to_string())?;
        cache.absorb(checked);
    }
    Ok(cache)
}

impl Coach {
    /// Checks moves outside the book with `engine`, searching each position within
    /// `limits` (the window: [`CHECK_TIME`]) and keeping the analyses in `store`, which
    /// should hold that engine's at those limits (`None`: the data folder's cache for
    /// them, as by default). The engine starts when the learner is next to move (one
    /// already started is stopped).
    pub fn set_move_checker(
        &mut self,
        engine: CheckEngine,
        store: Option<SharedStore>,
        limits: Limits,
    ) {
        self.verdict = VerdictState {
            engine: Some(engine),
            store_given: store.is_some(),
            store: store.unwrap_or_else(memory_store),
            limits,
            ..VerdictState::default()
        };
    }

    /// Adds analyses found elsewhere (a repertoire check) to the move checker's store,
    /// so a wrong move at those positions is judged without a search. A store that is
    /// busy or cannot keep them is left as it is.
    pub(crate) fn share_analyses(&mut self, found: &[(Chess, crate::engine::analysis::Analysis)]) {
        let Ok(mut store) = self.verdict.store.lock() else {
            return;
        };
        for (pos, analysis) in found {
            if store.get(pos).is_none() && store.remember(pos, analysis).is_err() {
                return;
            }
        }
    }

    /// Keeps the analyses in `store` from now on (the workspace's cache on disk); the
    /// engine stays as chosen.
    pub fn set_analysis_store(&mut self, store: SharedStore) {
        if let Some(checker) = &mut self.verdict.checker {
            checker.set_store(std::sync::Arc::clone(&store));
        }
        self.verdict.store = store;
        self.verdict.store_given = true;
    }

    /// The store the move checker keeps its analyses in.
    pub fn analysis_store(&self) -> &SharedStore {
        &self.verdict.store
    }

    /// The verdict on the learner's move outside the book, once it has come.
    pub fn move_verdict(&self) -> Option<&Verdict> {
        self.verdict.answer.as_ref().and_then(|a| a.as_ref().ok())
    }

    /// Why the move could not be checked, if it could not.
    pub fn move_check_failure(&self) -> Option<&str> {
        self.verdict
            .answer
            .as_ref()
            .and_then(|a| a.as_ref().err())
            .map(String::as_str)
    }

    /// Whether a verdict on the move outside the book is on its way.
    pub fn is_checking_move(&self) -> bool {
        self.ctx.settings.explain_wrong_moves
            && matches!(self.ctx.session.phase(), Phase::OutOfBook { .. })
            && self.verdict.answer.is_none()
    }

    /// Whether the move checker is analysing the book's moves ahead of the learner's
    /// move.
    pub fn is_analysing_ahead(&self) -> bool {
        self.verdict
            .checker
            .as_ref()
            .is_some_and(MoveChecker::is_prefetching)
            || (self.verdict.checker.is_some() && self.cache_pending())
    }

    /// Whether the analyses wait for the cache on disk to open (the engine's name
    /// first, then the file read on a background thread).
    fn cache_pending(&self) -> bool {
        !self.verdict.store_given
            && !matches!(self.verdict.opening, Some(None))
            && self.ctx.analysis_dir().is_some()
    }

    /// The engine that checks moves, once it has started (its own name then).
    pub fn move_checker_engine(&self) -> Option<&str> {
        self.verdict.checker.as_ref().map(MoveChecker::engine_name)
    }

    /// What went wrong with the move checker (its engine failed and the built-in one
    /// took over), if anything.
    pub fn move_checker_notice(&self) -> Option<&str> {
        self.verdict.checker.as_ref().and_then(MoveChecker::notice)
    }

    /// How long the last verdict took, from the move to the answer.
    pub fn verdict_time(&self) -> Option<Duration> {
        self.verdict.took
    }

    /// Whether the move outside the book shown is no longer counted as a mistake.
    pub fn is_move_forgiven(&self) -> bool {
        self.verdict.forgiven
    }

    /// Once a frame: analyses the book's moves ahead while the learner is to move, asks
    /// about a new move outside the book, takes the verdict when it has come. Never
    /// waits.
    pub(crate) fn verdict_logic(&mut self) {
        if !self.ctx.settings.explain_wrong_moves {
            if let Some(checker) = &mut self.verdict.checker {
                checker.forget();
            }
            self.verdict.asked = None;
            self.verdict.answer = None;
            self.verdict.ahead_at = None;
            return;
        }
        let wanted = match self.ctx.session.phase() {
            Phase::OutOfBook {
                attempted,
                book_moves,
                ..
            } => Some((
                *attempted,
                book_moves.iter().map(|b| b.mv).collect::<Vec<_>>(),
            )),
            _ => None,
        };
        let position = self.ctx.session.position();
        let same = match (&self.verdict.asked, &wanted) {
            (Some((pos, mv)), Some((attempted, _))) => pos == position && mv == attempted,
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.verdict.answer = None;
            self.verdict.forgiven = false;
            self.verdict.took = None;
            match wanted {
                Some((attempted, book)) => {
                    let question = Question::new(position.clone(), attempted, book);
                    self.verdict.asked = Some((position.clone(), attempted));
                    self.verdict.since = Some(Instant::now());
                    self.checker().ask(question);
                }
                None => {
                    self.verdict.asked = None;
                    if let Some(checker) = &mut self.verdict.checker {
                        checker.forget();
                    }
                }
            }
        }
        self.analyse_ahead();
        self.open_analysis_cache();
        let woken = self.has_wake();
        let Some(checker) = &mut self.verdict.checker else {
            return;
        };
        if let Some(answer) = checker.poll() {
            self.verdict.took = self.verdict.since.map(|t| t.elapsed());
            let good = matches!(&answer, Ok(v) if v.judgement.is_good());
            self.verdict.answer = Some(answer);
            if good && self.ctx.settings.alternatives_not_mistakes {
                self.forgive_alternative();
            }
            self.ctx.request_repaint();
        } else if checker.is_checking() && !woken {
            self.ctx.request_repaint_after(CHECK_REPAINT);
        }
    }

    /// With the learner to move in the drill (not in play-on), has the positions after
    /// the book's moves analysed, once per position.
    fn analyse_ahead(&mut self) {
        if !matches!(self.ctx.session.phase(), Phase::LearnerToMove) || self.play_on.is_active() {
            return;
        }
        let position = self.ctx.session.position();
        if self.verdict.ahead_at.as_ref() == Some(position) {
            return;
        }
        let position = position.clone();
        let book: Vec<Move> = self.ctx.session.book_moves().iter().map(|b| b.mv).collect();
        self.checker();
        if self.cache_pending() {
            // The engine is starting; its cache opens before it analyses.
            return;
        }
        self.checker().prefetch(&position, book);
        self.verdict.ahead_at = Some(position);
    }

    /// Once the move checker's engine has given its name, opens its cache in the data
    /// folder on a background thread (with the repertoire check's analyses by the same
    /// engine), and keeps the analyses there from then on.
    fn open_analysis_cache(&mut self) {
        let waiting = self.verdict.opening.is_none() && !self.verdict.store_given;
        let dir = if waiting {
            self.ctx.analysis_dir()
        } else {
            None
        };
        let v = &mut self.verdict;
        match &v.opening {
            None if waiting => {
                let Some(checker) = v.checker.as_ref().filter(|c| c.is_ready()) else {
                    return;
                };
                let Some(dir) = dir else {
                    v.opening = Some(None);
                    return;
                };
                let engine = checker.engine_name().to_owned();
                let limit = v.limits.to_string();
                let job = Job::spawn("analysis cache", self.ctx.wake(), move |_| {
                    open_caches(&dir, &engine, &limit)
                });
                self.verdict.opening = Some(job.ok());
            }
            Some(Some(job)) => {
                let opened = match job.poll() {
                    JobPoll::Running => return,
                    JobPoll::Finished(opened) => opened,
                    JobPoll::Died(e) => Err(e.to_string()),
                };
                v.opening = Some(None);
                match opened {
                    Ok(cache) if !v.store_given => {
                        if let Some(warning) = cache.warnings().first() {
                            self.ctx.message = Some(format!("Analysis cache: {warning}"));
                        }
                        let store: SharedStore = Arc::new(Mutex::new(cache));
                        if let Some(checker) = &mut self.verdict.checker {
                            checker.set_store(Arc::clone(&store));
                        }
                        self.verdict.store = store;
                    }
                    Ok(_) => {}
                    Err(reason) => {
                        self.ctx.message = Some(format!(
                            "Analyses of wrong moves are kept only until the window closes: {reason}"
                        ));
                    }
                }
            }
            _ => {}
        }
    }

    /// The move checker, started now if it was not.
    fn checker(&mut self) -> &mut MoveChecker {
        let wake = self.ctx.wake();
        let v = &mut self.verdict;
        v.checker.get_or_insert_with(|| {
            let engine = v.engine.take().unwrap_or_else(CheckEngine::discover);
            MoveChecker::start(engine, std::sync::Arc::clone(&v.store), v.limits, wake)
        })
    }

    /// Whether the screenshot should wait for the verdict (at most 20 s).
    pub(crate) fn verdict_busy(&self) -> bool {
        self.ctx.screenshot
            && self.is_checking_move()
            && self
                .verdict
                .since
                .is_none_or(|t| t.elapsed() < SCREENSHOT_WAIT)
    }

    /// Carries out a verdict command.
    pub(crate) fn apply_verdict(&mut self, command: VerdictCommand) {
        let Some(verdict) = self.move_verdict().filter(|v| v.judgement.is_good()) else {
            return;
        };
        let (played, book, book_san) =
            (verdict.played, verdict.book_move, verdict.book_san.clone());
        let played_san = verdict.played_san.clone();
        match command {
            VerdictCommand::AddToRepertoire => {
                let mut moves: Vec<Move> = self.ctx.session.moves().iter().map(|m| m.mv).collect();
                moves.push(played);
                self.add_answer(&moves);
            }
            VerdictCommand::Accept => {
                self.forgive_alternative();
                self.ctx.session.try_again();
                self.ctx.last_reply = None;
                let outcome = match self.review_play(book) {
                    Some(outcome) => outcome,
                    None => self.ctx.session.play(book),
                };
                if let MoveOutcome::Accepted { .. } = outcome {
                    self.ctx.message = Some(format!(
                        "{played_san} is not counted as a mistake; the line goes on with your \
                         book move {book_san}."
                    ));
                    self.ctx.animate(book);
                    self.ctx.drill_move_sound();
                }
            }
        }
    }

    /// Takes back the mistake counted for the move shown (once): the drill's count, the
    /// progress at the position, and in review the card's wrong answer.
    fn forgive_alternative(&mut self) {
        if self.verdict.forgiven {
            return;
        }
        let before = self.ctx.session.position().clone();
        let forgiven = match self.with_drill(|d| d.forgive_mistake()) {
            Some(forgiven) => forgiven,
            None => self.ctx.session.forgive_mistake(),
        };
        if forgiven {
            self.ctx.progress.progress_mut().forgive_mistake(&before);
            self.verdict.forgiven = true;
        }
    }
}
