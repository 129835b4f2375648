//! [`MoveChecker`]: the analyses a [`Verdict`] needs, without ever making its caller
//! wait. Each position is looked up in an [`AnalysisStore`] first (a cache shared with
//! whoever else analyses positions); the others are analysed one after another, within
//! [`CHECK_TIME`] each, by an engine on an [`EngineHandle`]'s thread, which keeps what
//! it finds in the store. [`MoveChecker::poll`] only drains a channel.
//!
//! While the learner thinks, [`MoveChecker::prefetch`] analyses the position after the
//! book's main move, so that a move outside the book then waits for one search only:
//! the position after it.
//!
//! The engine is Stockfish when it is installed, else the built-in α-β
//! ([`CheckEngine::discover`]); tests give an engine of their own
//! ([`CheckEngine::Given`]). When Stockfish fails, the handle's built-in engine takes
//! over; its analyses are used but not kept, since a store holds one engine's.

use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use super::{Question, Verdict};
use crate::engine::analysis::{Analysis, analyse};
use crate::engine::handle::{EngineTask, TaskContext};
use crate::engine::{
    Engine, EngineChoice, EngineError, EngineEvent, EngineHandle, Limits, Strength, WorkerGone,
    discover,
};
use crate::job::Wake;
use crate::trainer::check::{AnalysisStore, MemoryStore};

/// How long the engine searches each position the store does not know.
pub const CHECK_TIME: Duration = Duration::from_millis(300);

/// A store of analyses that several owners share (the move checker, a repertoire
/// check): one engine's analyses at one limit, by position.
pub type SharedStore = Arc<Mutex<dyn AnalysisStore>>;

/// An empty store in memory, to share.
pub fn memory_store() -> SharedStore {
    Arc::new(Mutex::new(MemoryStore::new()))
}

/// The engine that checks moves.
pub enum CheckEngine {
    /// One the handle starts: the built-in α-β, or a UCI engine such as Stockfish.
    Choice(EngineChoice),
    /// An engine as it is (tests: a stub answering fixed evaluations).
    Given(Box<dyn Engine>),
}

impl CheckEngine {
    /// Stockfish at full strength when it is installed (a few file checks), else the
    /// built-in α-β engine.
    pub fn discover() -> CheckEngine {
        match discover::stockfish() {
            Some(path) => CheckEngine::Choice(EngineChoice::Uci {
                path,
                args: Vec::new(),
                strength: Strength::Full,
            }),
            None => CheckEngine::builtin(),
        }
    }

    /// The built-in α-β engine at full strength.
    pub fn builtin() -> CheckEngine {
        CheckEngine::Choice(EngineChoice::Builtin(Strength::Full))
    }

    /// A name for the engine before it gives its own.
    pub fn label(&self) -> String {
        match self {
            CheckEngine::Choice(EngineChoice::Uci { path, .. }) => path
                .file_name()
                .map_or_else(|| "UCI engine".to_owned(), |n| n.to_string_lossy().into()),
            CheckEngine::Choice(_) => "the built-in engine".to_owned(),
            CheckEngine::Given(engine) => engine.name(),
        }
    }
}

impl std::fmt::Debug for CheckEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckEngine::Choice(choice) => f.debug_tuple("Choice").field(choice).finish(),
            CheckEngine::Given(engine) => f.debug_tuple("Given").field(&engine.name()).finish(),
        }
    }
}

/// What the engine's thread sends back.
enum Message {
    /// The analysis of the `index`-th position of question `id`.
    Found {
        id: u64,
        index: usize,
        analysis: Analysis,
    },
    /// The store could not keep an analysis.
    NotKept(String),
    /// A position analysed ahead could not be analysed (the question asked there
    /// later tries again).
    NotAhead(String),
    /// The analyses ahead of `id` are done.
    AheadDone { id: u64 },
}

/// Why a move outside the book could not be checked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckFailure {
    /// The engine said a search failed.
    #[error("{0}")]
    Engine(String),
    /// The engine's thread is gone: nothing will answer.
    #[error("{0}")]
    Died(WorkerGone),
    /// The book has no move at the position to compare with.
    #[error("there is no book move to compare with")]
    NoBookMove,
}

/// The question being answered and the analyses so far.
struct Asked {
    id: u64,
    question: Question,
    analyses: Vec<Option<Analysis>>,
    /// Whether the verdict (or the failure) was handed out.
    answered: bool,
}

/// Checks the learner's moves outside the book with an engine on its own thread.
pub struct MoveChecker {
    handle: EngineHandle,
    store: SharedStore,
    limits: Limits,
    outbox: Sender<Message>,
    inbox: Receiver<Message>,
    asked: Option<Asked>,
    /// The analyses ahead under way, by id.
    ahead: Option<u64>,
    next_id: u64,
    engine_name: String,
    /// Whether the chosen engine has said it is ready.
    ready: bool,
    notice: Option<String>,
}

impl std::fmt::Debug for MoveChecker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MoveChecker")
            .field("engine", &self.engine_name)
            .field("limits", &self.limits)
            .field("checking", &self.is_checking())
            .finish_non_exhaustive()
    }
}

impl MoveChecker {
    /// Starts `engine` on its own thread (a UCI handshake never blocks the caller);
    /// positions are searched within `limits` ([`CHECK_TIME`] in the window) and kept
    /// in `store`. `wake` is called when analyses are ready.
    pub fn start(
        engine: CheckEngine,
        store: SharedStore,
        limits: Limits,
        wake: Wake,
    ) -> MoveChecker {
        let engine_name = engine.label();
        let handle = match engine {
            CheckEngine::Choice(choice) => EngineHandle::spawn_waking(choice, wake),
            CheckEngine::Given(engine) => EngineHandle::spawn_engine(engine, wake),
        };
        let (outbox, inbox) = mpsc::channel();
        MoveChecker {
            handle,
            store,
            limits,
            outbox,
            inbox,
            asked: None,
            ahead: None,
            next_id: 0,
            engine_name,
            ready: false,
            notice: None,
        }
    }

    /// The engine's name (its own once it has started).
    pub fn engine_name(&self) -> &str {
        &self.engine_name
    }

    /// Whether the chosen engine has started and given its name (not when the built-in
    /// engine stands in for one that failed to start).
    pub fn is_ready(&self) -> bool {
        self.ready
    }

    /// What went wrong last (the engine failed and the built-in one took over, the
    /// store could not keep an analysis), if anything.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// The question being answered or answered last.
    pub fn question(&self) -> Option<&Question> {
        self.asked.as_ref().map(|a| &a.question)
    }

    /// Whether a verdict is on its way.
    pub fn is_checking(&self) -> bool {
        self.asked.as_ref().is_some_and(|a| !a.answered)
    }

    /// Whether positions are being analysed ahead ([`MoveChecker::prefetch`]).
    pub fn is_prefetching(&self) -> bool {
        self.ahead.is_some()
    }

    /// The store the analyses are kept in.
    pub fn store(&self) -> &SharedStore {
        &self.store
    }

    /// Keeps the analyses in `store` from the next question on.
    pub fn set_store(&mut self, store: SharedStore) {
        self.store = store;
    }

    /// Analyses, while the learner thinks at `before`, the position after the book's
    /// main move (the first legal move of `book`, most played first) if the store lacks
    /// it, so that a question there waits only for the position after the move played.
    /// Does nothing while a verdict is on its way; the next [`MoveChecker::ask`] stops
    /// it.
    pub fn prefetch(&mut self, before: &Chess, book: impl IntoIterator<Item = Move>) {
        if self.is_checking() {
            return;
        }
        let positions = book
            .into_iter()
            .filter(|&m| before.is_legal(m))
            .take(1)
            .map(|m| {
                let mut pos = before.clone();
                pos.play_unchecked(m);
                pos
            });
        let missing: Vec<Chess> = match self.store.try_lock() {
            Ok(store) => positions.filter(|p| store.get(p).is_none()).collect(),
            Err(_) => positions.collect(),
        };
        let missing: Vec<(usize, Chess)> = missing.into_iter().enumerate().collect();
        if missing.is_empty() {
            return;
        }
        self.next_id += 1;
        let id = self.next_id;
        let task = analyse_task(
            Purpose::Ahead(id),
            missing,
            Arc::clone(&self.store),
            self.limits,
            self.outbox.clone(),
        );
        self.handle.run(task);
        self.ahead = Some(id);
    }

    /// Starts answering `question` (dropping the one before, and stopping analyses
    /// ahead): the store's analyses at once, the others from the engine.
    pub fn ask(&mut self, question: Question) {
        self.forget();
        if self.ahead.take().is_some() {
            self.handle.stop();
        }
        self.next_id += 1;
        let id = self.next_id;
        let positions = question.positions();
        // The store may be busy with another owner: then the engine's thread looks
        // again, waiting for it there.
        let analyses: Vec<Option<Analysis>> = match self.store.try_lock() {
            Ok(store) => positions.iter().map(|p| store.get(p)).collect(),
            Err(_) => vec![None; positions.len()],
        };
        let missing: Vec<(usize, Chess)> = positions
            .into_iter()
            .enumerate()
            .filter(|(i, _)| analyses.get(*i).is_some_and(Option::is_none))
            .collect();
        if !missing.is_empty() {
            let task = analyse_task(
                Purpose::Answer(id),
                missing,
                Arc::clone(&self.store),
                self.limits,
                self.outbox.clone(),
            );
            self.handle.run(task);
        }
        self.asked = Some(Asked {
            id,
            question,
            analyses,
            answered: false,
        });
    }

    /// Drops the question (its search stops).
    pub fn forget(&mut self) {
        if self.is_checking() {
            self.handle.stop();
        }
        self.asked = None;
    }

    /// Takes what the engine's thread sent; returns the verdict once, when the last
    /// analysis has come (`Err` with the reason when the engine failed). Never waits.
    pub fn poll(&mut self) -> Option<Result<Verdict, CheckFailure>> {
        let mut failure = None;
        while let Some(event) = self.handle.try_recv() {
            match event {
                EngineEvent::Ready { name, .. } => {
                    self.engine_name = name;
                    self.ready = true;
                }
                EngineEvent::FellBack { engine, error } => {
                    self.notice = Some(format!(
                        "{engine} failed ({error}); the built-in engine checks moves instead."
                    ));
                }
                EngineEvent::Warning(text) => failure = Some(CheckFailure::Engine(text)),
                // Nothing will answer: the question fails with the reason.
                EngineEvent::Died(gone) => failure = Some(CheckFailure::Died(gone)),
                EngineEvent::Info { .. } | EngineEvent::BestMove { .. } => {}
            }
        }
        while let Ok(message) = self.inbox.try_recv() {
            match message {
                Message::Found {
                    id,
                    index,
                    analysis,
                } => {
                    if let Some(asked) = self.asked.as_mut().filter(|a| a.id == id)
                        && let Some(slot) = asked.analyses.get_mut(index)
                    {
                        *slot = Some(analysis);
                    }
                }
                Message::NotKept(reason) => {
                    self.notice = Some(format!("An analysis could not be kept: {reason}."));
                }
                Message::NotAhead(reason) => {
                    self.notice = Some(format!(
                        "A book move's position could not be analysed ahead: {reason}."
                    ));
                }
                Message::AheadDone { id } => {
                    if self.ahead == Some(id) {
                        self.ahead = None;
                    }
                }
            }
        }
        let Some(asked) = self.asked.as_mut().filter(|a| !a.answered) else {
            // Only analyses ahead were under way: they end with the failure.
            if let Some(reason) = failure {
                self.ahead = None;
                self.notice = Some(format!("The engine failed: {reason}."));
            }
            return None;
        };
        if let Some(reason) = failure {
            asked.answered = true;
            return Some(Err(reason));
        }
        let all: Vec<Analysis> = asked.analyses.iter().cloned().collect::<Option<_>>()?;
        let (played, book) = all.split_first()?;
        asked.answered = true;
        Some(Verdict::of(&asked.question, played, book).ok_or(CheckFailure::NoBookMove))
    }
}

/// What a task's analyses are for.
#[derive(Clone, Copy)]
enum Purpose {
    /// The question `id`: each analysis is sent back; a failure fails the question.
    Answer(u64),
    /// Ahead of a question, into the store only: a position without a score is passed
    /// over (the question asked there tries again); `AheadDone` comes at the end.
    Ahead(u64),
}

/// One position's analysis as an engine task finds it ([`stored_or_analysed`]).
pub struct Looked {
    /// The analysis.
    pub analysis: Analysis,
    /// Why it could not be kept in the store, if it could not.
    pub not_kept: Option<String>,
}

/// One position for a task on the engine's thread: its analysis from `store` if it has
/// come there meanwhile, else searched to `limits` and kept in `store` (not when the
/// engine stands in for a failed one: see [`TaskContext::replaced`]). `Ok(None)` when
/// the search was stopped: the result is neither kept nor to be sent.
///
/// # Errors
///
/// The engine's error when the search fails.
pub fn stored_or_analysed(
    engine: &mut dyn Engine,
    pos: &Chess,
    store: &SharedStore,
    limits: &Limits,
    context: &TaskContext<'_>,
) -> Result<Option<Looked>, EngineError> {
    if let Some(analysis) = store.lock().ok().and_then(|s| s.get(pos)) {
        return Ok(Some(Looked {
            analysis,
            not_kept: None,
        }));
    }
    let analysis = analyse(engine, pos, limits, context.stop)?;
    if context.stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let not_kept = if context.replaced {
        None
    } else {
        match store.lock() {
            Ok(mut s) => s.put(pos, &analysis).err().map(|e| e.to_string()),
            Err(_) => Some("the store is unusable".to_owned()),
        }
    };
    Ok(Some(Looked { analysis, not_kept }))
}

/// The task for the engine's thread: each missing position from the store if it has
/// come there meanwhile, else analysed and kept; each sent back as it is done. A
/// search cut short (another question came) is neither kept nor sent.
fn analyse_task(
    purpose: Purpose,
    missing: Vec<(usize, Chess)>,
    store: SharedStore,
    limits: Limits,
    outbox: Sender<Message>,
) -> EngineTask {
    Box::new(move |engine: &mut dyn Engine, context: &TaskContext<'_>| {
        for (index, pos) in &missing {
            if context.stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            let analysis = match (
                stored_or_analysed(engine, pos, &store, &limits, context),
                purpose,
            ) {
                (Ok(Some(found)), _) => {
                    if let Some(reason) = found.not_kept {
                        let _ = outbox.send(Message::NotKept(reason));
                    }
                    found.analysis
                }
                (Ok(None), _) => return Ok(()),
                (Err(e @ EngineError::NoScore { .. }), Purpose::Ahead(_)) => {
                    let _ = outbox.send(Message::NotAhead(e.to_string()));
                    continue;
                }
                (Err(e), _) => return Err(e),
            };
            if let Purpose::Answer(id) = purpose {
                let found = Message::Found {
                    id,
                    index: *index,
                    analysis,
                };
                if outbox.send(found).is_err() {
                    return Ok(());
                }
            }
        }
        if let Purpose::Ahead(id) = purpose {
            let _ = outbox.send(Message::AheadDone { id });
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;
    use std::time::Instant;

    use shakmaty::san::San;
    use shakmaty::{Move, Position};

    use super::*;
    use crate::engine::{EngineError, Score, Search, SearchInfo, SearchResult};
    use crate::trainer::check::epd_key;
    use crate::trainer::verdict::Judgement;

    /// Answers fixed scores by position; counts its searches.
    struct Stub {
        answers: Vec<(String, Score)>,
        searches: Arc<AtomicUsize>,
    }

    impl Engine for Stub {
        fn name(&self) -> String {
            "stub".to_owned()
        }

        fn search(&mut self, search: Search<'_>) -> Result<SearchResult, EngineError> {
            let game = search.game;
            self.searches.fetch_add(1, Ordering::SeqCst);
            let key = epd_key(game.position());
            let (_, score) = self
                .answers
                .iter()
                .find(|(k, _)| *k == key)
                .ok_or_else(|| EngineError::NoScore {
                    engine: self.name(),
                })?;
            let best = game.position().legal_moves().first().copied();
            Ok(SearchResult {
                best,
                ponder: None,
                info: Some(SearchInfo {
                    depth: 5,
                    score: Some(*score),
                    pv: best.into_iter().collect(),
                    multipv: 1,
                    ..SearchInfo::default()
                }),
            })
        }
    }

    fn mv(pos: &Chess, san: &str) -> Move {
        San::from_ascii(san.as_bytes())
            .unwrap()
            .to_move(pos)
            .unwrap()
    }

    /// 3.Ng5 against 3.Bc4 after 1.e4 e5 2.Nf3 Nc6.
    fn question() -> Question {
        let mut pos = Chess::default();
        for san in ["e4", "e5", "Nf3", "Nc6"] {
            let m = mv(&pos, san);
            pos.play_unchecked(m);
        }
        let played = mv(&pos, "Ng5");
        let book = mv(&pos, "Bc4");
        Question::new(pos, played, [book])
    }

    fn stub(q: &Question, searches: &Arc<AtomicUsize>) -> CheckEngine {
        let p = q.positions();
        CheckEngine::Given(Box::new(Stub {
            answers: vec![
                (epd_key(&p[0]), Score::Cp(300)),
                (epd_key(&p[1]), Score::Cp(-30)),
            ],
            searches: Arc::clone(searches),
        }))
    }

    fn wait(checker: &mut MoveChecker) -> Result<Verdict, CheckFailure> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(answer) = checker.poll() {
                return answer;
            }
            assert!(Instant::now() < deadline, "no verdict came");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn misses_are_analysed_on_the_engines_thread_and_kept() {
        let q = question();
        let searches = Arc::new(AtomicUsize::new(0));
        let store = memory_store();
        let mut checker = MoveChecker::start(
            stub(&q, &searches),
            Arc::clone(&store),
            Limits::ONE_PLY,
            Arc::new(|| {}),
        );
        checker.ask(q.clone());
        assert!(checker.is_checking());
        let v = wait(&mut checker).unwrap();
        assert_eq!(v.judgement, Judgement::Blunder);
        assert!(!checker.is_checking());
        assert_eq!(checker.poll(), None, "a verdict is handed out once");
        assert_eq!(searches.load(Ordering::SeqCst), 2);
        assert_eq!(store.lock().unwrap().len(), 2, "both analyses are kept");
        assert_eq!(checker.engine_name(), "stub");
        // Asked again, the store answers at once: the engine is not asked.
        checker.ask(q);
        let again = checker.poll().unwrap().unwrap();
        assert_eq!(again, v);
        assert_eq!(searches.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_new_question_drops_the_old_answer_and_a_failure_is_reported() {
        let q = question();
        let searches = Arc::new(AtomicUsize::new(0));
        // The stub knows no position of this other question: the engine fails.
        let other = {
            let before = q.positions()[1].clone();
            let played = mv(&before, "Nf6");
            let book = mv(&before, "Nd4");
            Question::new(before, played, [book])
        };
        let mut checker = MoveChecker::start(
            stub(&q, &searches),
            memory_store(),
            Limits::ONE_PLY,
            Arc::new(|| {}),
        );
        checker.ask(q);
        checker.ask(other.clone());
        assert_eq!(checker.question(), Some(&other));
        let failed = wait(&mut checker).unwrap_err().to_string();
        assert!(failed.contains("without a score"), "{failed}");
        checker.forget();
        assert!(!checker.is_checking());
        assert_eq!(checker.question(), None);
    }
}
