//! Wrong moves explained in the drill: when the learner plays a move outside the book,
//! an engine judges it against the book's main move ([`crate::trainer::verdict`]) while the
//! window goes on drawing ("Checking your move…"), and the drill panel shows the
//! verdict and the refutation once it comes.
//!
//! Each frame (`VerdictState::poll`) the feature looks at the drill. When the learner is
//! to move, the [`MoveChecker`] (started then: the engine of
//! [`Coach::set_move_checker`], by default Stockfish when installed, else the built-in
//! α-β) analyses the position after the book's main move while the learner thinks; a move
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
//! tab's "Add answer" does). What this asks of the drill, review mode and the
//! coverage (forgive the mistake, play the book move instead, add the answer) is an
//! [`Event`] sent through the context.
//!
//! [`Coach::set_move_checker`]: crate::coach::Coach::set_move_checker
//! [`Coach::set_analysis_store`]: crate::coach::Coach::set_analysis_store
//! [`Settings::alternatives_not_mistakes`]: crate::coach::settings::Settings::alternatives_not_mistakes
//! [`Settings::explain_wrong_moves`]: crate::coach::settings::Settings::explain_wrong_moves

mod cache;

use std::time::{Duration, Instant};

use shakmaty::{Chess, Move};

use crate::coach::context::{Context, Event};
use crate::engine::Limits;
use crate::job::Job;
use crate::trainer::Phase;
use crate::trainer::verdict::checker::{
    CHECK_TIME, CheckEngine, CheckFailure, MoveChecker, SharedStore, memory_store,
};
use crate::trainer::verdict::{Question, Verdict};
use crate::workspace::analysis_cache::AnalysisCache;

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
    /// Whether the store was given (`Coach::set_move_checker`,
    /// `Coach::set_analysis_store`): then the cache on disk is not opened.
    store_given: bool,
    /// The cache on disk being opened; `Some(None)` once done (or failed).
    opening: Option<Option<Job<Result<AnalysisCache, cache::CacheOpenError>>>>,
    limits: Limits,
    /// The position whose book moves were analysed ahead last.
    ahead_at: Option<Chess>,
    /// The move asked about, and where.
    asked: Option<(Chess, Move)>,
    /// When it was asked.
    since: Option<Instant>,
    /// The verdict on it, or why none came.
    answer: Option<Result<Verdict, CheckFailure>>,
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

impl VerdictState {
    /// A state that checks moves with `engine`, searching each position within
    /// `limits` and keeping the analyses in `store` (`None`: the data folder's cache
    /// for them, as by default).
    pub(crate) fn with_checker(
        engine: CheckEngine,
        store: Option<SharedStore>,
        limits: Limits,
    ) -> VerdictState {
        VerdictState {
            engine: Some(engine),
            store_given: store.is_some(),
            store: store.unwrap_or_else(memory_store),
            limits,
            ..VerdictState::default()
        }
    }

    /// Adds analyses found elsewhere (a repertoire check) to the move checker's store,
    /// so a wrong move at those positions is judged without a search. A store that is
    /// busy or cannot keep them is left as it is.
    pub(crate) fn share_analyses(&mut self, found: &[(Chess, crate::engine::analysis::Analysis)]) {
        let Ok(mut store) = self.store.lock() else {
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
    pub(crate) fn set_store(&mut self, store: SharedStore) {
        if let Some(checker) = &mut self.checker {
            checker.set_store(std::sync::Arc::clone(&store));
        }
        self.store = store;
        self.store_given = true;
    }

    /// The store the move checker keeps its analyses in.
    pub fn store(&self) -> &SharedStore {
        &self.store
    }

    /// The verdict on the learner's move outside the book, once it has come.
    pub fn answer(&self) -> Option<&Verdict> {
        self.answer.as_ref().and_then(|a| a.as_ref().ok())
    }

    /// Why the move could not be checked, if it could not.
    pub fn failure(&self) -> Option<&CheckFailure> {
        self.answer.as_ref().and_then(|a| a.as_ref().err())
    }

    /// Whether a verdict on the move outside the book is on its way.
    pub(crate) fn is_checking(&self, ctx: &Context) -> bool {
        ctx.settings.explain_wrong_moves
            && matches!(ctx.session.phase(), Phase::OutOfBook { .. })
            && self.answer.is_none()
    }

    /// Whether the move checker is analysing the book's moves ahead of the learner's
    /// move.
    pub(crate) fn is_analysing_ahead(&self, ctx: &Context) -> bool {
        self.checker
            .as_ref()
            .is_some_and(MoveChecker::is_prefetching)
            || (self.checker.is_some() && self.cache_pending(ctx))
    }

    /// Whether the analyses wait for the cache on disk to open (the engine's name
    /// first, then the file read on a background thread).
    fn cache_pending(&self, ctx: &Context) -> bool {
        !self.store_given && !matches!(self.opening, Some(None)) && ctx.analysis_dir().is_some()
    }

    /// The engine that checks moves, once it has started (its own name then).
    pub fn engine(&self) -> Option<&str> {
        self.checker.as_ref().map(MoveChecker::engine_name)
    }

    /// What went wrong with the move checker (its engine failed and the built-in one
    /// took over), if anything.
    pub fn notice(&self) -> Option<&str> {
        self.checker.as_ref().and_then(MoveChecker::notice)
    }

    /// How long the last verdict took, from the move to the answer.
    pub fn took(&self) -> Option<Duration> {
        self.took
    }

    /// Whether the move outside the book shown is no longer counted as a mistake.
    pub fn is_forgiven(&self) -> bool {
        self.forgiven
    }

    /// The drill stopped counting the move shown as a mistake (the answer to
    /// [`Event::ForgiveMistake`]).
    pub(crate) fn set_forgiven(&mut self) {
        self.forgiven = true;
    }

    /// Once a frame: analyses the book's moves ahead while the learner is to move in the
    /// drill (not `playing_on`), asks about a new move outside the book, takes the
    /// verdict when it has come. Never waits.
    pub(crate) fn poll(&mut self, ctx: &mut Context, playing_on: bool) {
        if !ctx.settings.explain_wrong_moves {
            if let Some(checker) = &mut self.checker {
                checker.forget();
            }
            self.asked = None;
            self.answer = None;
            self.ahead_at = None;
            return;
        }
        let wanted = match ctx.session.phase() {
            Phase::OutOfBook {
                attempted,
                book_moves,
                ..
            } => Some((
                *attempted,
                book_moves.iter().map(|b| b.mv).collect::<Vec<_>>(),
                book_moves.first().map(|b| b.p),
            )),
            _ => None,
        };
        let position = ctx.session.position().clone();
        let same = match (&self.asked, &wanted) {
            (Some((pos, mv)), Some((attempted, ..))) => *pos == position && mv == attempted,
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.answer = None;
            self.forgiven = false;
            self.took = None;
            match wanted {
                Some((attempted, book, share)) => {
                    let question = Question::new(position.clone(), attempted, book);
                    let question = match share {
                        Some(share) => question.with_share(share),
                        None => question,
                    };
                    self.asked = Some((position, attempted));
                    self.since = Some(Instant::now());
                    self.checker(ctx).ask(question);
                }
                None => {
                    self.asked = None;
                    if let Some(checker) = &mut self.checker {
                        checker.forget();
                    }
                }
            }
        }
        // The cache first: in the frame it opens, the book's moves are analysed ahead.
        self.open_analysis_cache(ctx);
        if !playing_on {
            self.analyse_ahead(ctx);
        }
        let woken = ctx.wake.is_some();
        let Some(checker) = &mut self.checker else {
            return;
        };
        if let Some(answer) = checker.poll() {
            self.took = self.since.map(|t| t.elapsed());
            let good = matches!(&answer, Ok(v) if v.judgement.is_good());
            self.answer = Some(answer);
            if good && ctx.settings.alternatives_not_mistakes {
                self.forgive(ctx);
            }
            ctx.request_repaint();
        } else if checker.is_checking() && !woken {
            ctx.request_repaint_after(CHECK_REPAINT);
        }
    }

    /// With the learner to move in the drill, has the position after the book's main move
    /// analysed, once per position.
    fn analyse_ahead(&mut self, ctx: &Context) {
        if !matches!(ctx.session.phase(), Phase::LearnerToMove) {
            return;
        }
        let position = ctx.session.position();
        if self.ahead_at.as_ref() == Some(position) {
            return;
        }
        let position = position.clone();
        let book: Vec<Move> = ctx.session.book_moves().iter().map(|b| b.mv).collect();
        self.checker(ctx);
        if self.cache_pending(ctx) {
            // The engine is starting; its cache opens before it analyses.
            return;
        }
        self.checker(ctx).prefetch(&position, book);
        self.ahead_at = Some(position);
    }

    /// The move checker, started now if it was not.
    fn checker(&mut self, ctx: &Context) -> &mut MoveChecker {
        let wake = ctx.wake();
        self.checker.get_or_insert_with(|| {
            let engine = self.engine.take().unwrap_or_else(CheckEngine::discover);
            MoveChecker::start(
                engine,
                std::sync::Arc::clone(&self.store),
                self.limits,
                wake,
            )
        })
    }

    /// Whether the screenshot should wait for the verdict (at most 20 s).
    pub(crate) fn busy(&self, ctx: &Context) -> bool {
        ctx.screenshot
            && self.is_checking(ctx)
            && self.since.is_none_or(|t| t.elapsed() < SCREENSHOT_WAIT)
    }

    /// Carries out a verdict command (only for a move found good).
    pub(crate) fn apply(&mut self, command: VerdictCommand, ctx: &mut Context) {
        let Some(verdict) = self.answer().filter(|v| v.judgement.is_good()) else {
            return;
        };
        let (played, book) = (verdict.played, verdict.book_move);
        let message = format!(
            "{} is not counted as a mistake; the line goes on with the book's main move {}.",
            verdict.played_san, verdict.book_san
        );
        match command {
            VerdictCommand::AddToRepertoire => {
                let mut moves: Vec<Move> = ctx.session.moves().iter().map(|m| m.mv).collect();
                moves.push(played);
                ctx.send(Event::AddAnswer(moves));
            }
            VerdictCommand::Accept => {
                self.forgive(ctx);
                ctx.send(Event::PlayBookMoveInstead { book, message });
            }
        }
    }

    /// Asks the drill to take back the mistake counted for the move shown (once).
    fn forgive(&self, ctx: &mut Context) {
        if !self.forgiven {
            ctx.send(Event::ForgiveMistake);
        }
    }
}
