//! Review mode: the coach drives a [`ReviewDrill`] instead of the bare session, appends
//! its reviews to the review log every frame, and commits the last grade when the
//! window closes.
//!
//! The coach keeps one [`Session`](crate::trainer::Session) for the board and chart to
//! read. While review mode is on, that session is the drill's: `Coach::with_drill` swaps
//! it into the drill for each call and back afterwards, so nothing else changes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use shakmaty::fen::Epd;
use shakmaty::{CastlingMode, Chess, Move};

use super::Coach;
use crate::clock::Clock;
use crate::review::{CardKey, Deck, Rating, SessionKind, Timestamp};
use crate::trainer::progress::Progress;
use crate::trainer::review_drill::{ReviewDrill, ReviewSettings, ReviewStep};
use crate::trainer::{MoveOutcome, Reply};
use crate::workspace::data_dir::review_log_in;
use crate::workspace::review_store::{ReviewStore, load_params};

pub use crate::workspace::review_store::PARAMS_FILE;

/// How the learner drills (saved in the settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum DrillMode {
    /// The computer replies by the book's shares and the style; nothing is graded.
    #[default]
    Free,
    /// Due and new cards are asked and graded; the computer steers toward them.
    Review,
    /// Only the cards with lapses and the positions with recorded mistakes.
    Mistakes,
}

impl DrillMode {
    /// The switch's label.
    pub const fn text(self) -> &'static str {
        match self {
            DrillMode::Free => "Free drill",
            DrillMode::Review => "Review",
            DrillMode::Mistakes => "Mistakes only",
        }
    }
}

/// A running review session and its log.
pub struct ReviewMode {
    pub(crate) mode: DrillMode,
    /// The drill; its own session is a parked copy while the app's is in use.
    pub(crate) drill: ReviewDrill,
    pub(crate) store: ReviewStore,
    /// The last error writing the log, or the log's warnings.
    pub(crate) warning: Option<String>,
    /// The grade of the learner's last answer, while it can still change to Easy.
    pub(crate) last_grade: Option<Rating>,
    /// "Optimise my memory model".
    pub(crate) optimize: super::optimize::OptimizeState,
}

/// Review mode, when it is on, and whether its due dates are fuzzed.
pub struct ReviewState {
    /// Review mode, when it is on.
    pub(crate) mode: Option<ReviewMode>,
    /// Fuzz review intervals (off in tests, for reproducible due dates).
    pub(crate) fuzz: bool,
}

impl Default for ReviewState {
    fn default() -> ReviewState {
        ReviewState {
            mode: None,
            fuzz: true,
        }
    }
}

/// The current time at the learner's offset.
pub(crate) fn now() -> Timestamp {
    Timestamp::from_clock(Clock::local())
}

/// The review log beside `progress_file`.
pub(crate) fn review_log_path(progress_file: &Path) -> Option<PathBuf> {
    progress_file.parent().map(review_log_in)
}

/// The cards of `deck` at the positions where `progress` records mistakes (free drill
/// or review), with how many: "Mistakes only" drills them with the lapsed cards.
fn missed_cards(deck: &Deck, progress: &Progress) -> Vec<(usize, u32)> {
    progress
        .positions
        .iter()
        .filter(|(_, r)| r.mistakes > 0)
        .filter_map(|(epd, r)| {
            let pos: Chess = Epd::from_ascii(epd.as_bytes())
                .ok()?
                .into_position(CastlingMode::Standard)
                .ok()?;
            Some((deck.index_of(&CardKey::from_position(&pos))?, r.mistakes))
        })
        .collect()
}

impl Coach {
    /// The drill mode.
    pub fn drill_mode(&self) -> DrillMode {
        self.review
            .mode
            .as_ref()
            .map_or(DrillMode::Free, |r| r.mode)
    }

    /// The review drill, when review mode is on (its session is not the one drawn: read
    /// [`Coach::session`]).
    pub fn review_drill(&self) -> Option<&ReviewDrill> {
        self.review.mode.as_ref().map(|r| &r.drill)
    }

    /// Turns the fuzz of review intervals on or off (for the next review session; tests
    /// turn it off for reproducible due dates).
    pub fn set_review_fuzz(&mut self, fuzz: bool) {
        self.review.fuzz = fuzz;
    }

    /// The review log, when review mode is on.
    pub fn review_store(&self) -> Option<&ReviewStore> {
        self.review.mode.as_ref().map(|r| &r.store)
    }

    /// What the review drill waits for (`None` outside review mode).
    pub fn review_step(&self) -> Option<ReviewStep> {
        self.review.mode.as_ref().map(|r| r.drill.step())
    }

    /// Runs `f` on the review drill with the app's session swapped in.
    pub(crate) fn with_drill<R>(&mut self, f: impl FnOnce(&mut ReviewDrill) -> R) -> Option<R> {
        let review = self.review.mode.as_mut()?;
        std::mem::swap(&mut self.ctx.session, review.drill.session_mut());
        let r = f(&mut review.drill);
        std::mem::swap(&mut self.ctx.session, review.drill.session_mut());
        Some(r)
    }

    /// Switches the drill mode: opens the review log and starts a review session, or
    /// commits the last grade and returns to free drill.
    pub(crate) fn set_drill_mode(&mut self, mode: DrillMode) {
        if mode == self.drill_mode() {
            return;
        }
        self.end_review();
        self.ctx.last_reply = None;
        if mode == DrillMode::Free {
            self.ctx.session.set_review(None);
            self.ctx.session.new_line();
            return;
        }
        let Some(log) = self.ctx.review_log.clone() else {
            self.ctx.message = Some("Review mode needs a data directory to keep its log.".into());
            return;
        };
        let store = match ReviewStore::open(&log) {
            Ok(s) => s,
            Err(e) => {
                self.ctx.message = Some(format!("Cannot open the review log: {e}"));
                return;
            }
        };
        let loaded = load_params(&log.with_file_name(PARAMS_FILE));
        let (scheduler, bad) = loaded.value.scheduler();
        let warning = store
            .warnings()
            .iter()
            .chain(&loaded.warning)
            .chain(&bad)
            .cloned()
            .collect::<Vec<_>>();
        let schedule = store.schedule(&scheduler);
        let learner = self.ctx.session.learner();
        let deck = Arc::new(Deck::new(&self.ctx.graph, learner));
        let settings = ReviewSettings {
            kind: match mode {
                DrillMode::Mistakes => SessionKind::MistakesOnly,
                _ => SessionKind::Due,
            },
            fuzz: self.review.fuzz,
            lead_in: self.ctx.settings.review_at_position.then_some(0),
            ..ReviewSettings::default()
        };
        let missed = match mode {
            DrillMode::Mistakes => missed_cards(&deck, self.ctx.progress.progress()),
            _ => Vec::new(),
        };
        let drill = ReviewDrill::with_missed(
            self.ctx.session.clone(),
            deck,
            scheduler,
            schedule,
            settings,
            &missed,
            now(),
        );
        self.review.mode = Some(ReviewMode {
            mode,
            drill,
            store,
            warning: (!warning.is_empty()).then(|| warning.join("; ")),
            last_grade: None,
            optimize: Default::default(),
        });
        // The drill started its first line in its own session: take it.
        if let Some(r) = &mut self.review.mode {
            std::mem::swap(&mut self.ctx.session, r.drill.session_mut());
        }
        self.ctx.message = None;
    }

    /// For the screenshot: review mode on the review log beside `progress_file` (read
    /// only: the screenshot grades nothing), the Progress tab shown.
    pub fn show_review_progress(&mut self, progress_file: Option<PathBuf>) {
        self.ctx.review_log = progress_file.as_deref().and_then(review_log_path);
        self.set_drill_mode(DrillMode::Review);
    }

    /// Starts the review session again (the book or the colour changed).
    pub(crate) fn restart_review(&mut self) {
        let mode = self.drill_mode();
        if mode != DrillMode::Free {
            self.set_drill_mode(DrillMode::Free);
            self.set_drill_mode(mode);
        }
    }

    /// Commits the pending grade, appends it, and leaves review mode.
    pub(crate) fn end_review(&mut self) {
        let records = self.with_drill(|d| d.finish()).unwrap_or_default();
        self.append_reviews(records);
        self.review.mode = None;
    }

    /// Appends the reviews the drill committed since the last frame (synced).
    pub(crate) fn save_reviews(&mut self) {
        let records = self
            .review
            .mode
            .as_mut()
            .map(|r| r.drill.take_reviews())
            .unwrap_or_default();
        self.append_reviews(records);
    }

    fn append_reviews(&mut self, records: Vec<crate::review::ReviewRecord>) {
        let Some(review) = &mut self.review.mode else {
            return;
        };
        for r in &records {
            if let Err(e) = review.store.append(r) {
                review.warning = Some(format!("A review could not be saved: {e}"));
            }
        }
    }

    /// The learner's move in review mode.
    pub(crate) fn review_play(&mut self, mv: Move) -> Option<MoveOutcome> {
        let (outcome, graded) = self.with_drill(|d| d.play(mv, now()))?;
        self.set_last_grade(graded.map(|g| g.rating));
        Some(outcome)
    }

    /// The computer's reply in review mode (`None` outside it).
    pub(crate) fn review_reply(&mut self) -> Option<Option<Reply>> {
        self.with_drill(|d| d.reply(now()))
    }

    /// "Show me" in review mode.
    pub(crate) fn review_show_me(&mut self) -> Option<Option<MoveOutcome>> {
        let (outcome, graded) = self.with_drill(|d| d.show_me(now()))?;
        self.set_last_grade(graded.map(|g| g.rating));
        Some(outcome)
    }

    fn set_last_grade(&mut self, grade: Option<Rating>) {
        if let Some(r) = &mut self.review.mode {
            r.last_grade = grade;
        }
    }

    /// The next line in review mode.
    pub(crate) fn review_next_line(&mut self) -> bool {
        self.set_last_grade(None);
        self.with_drill(|d| d.next_line(now())).is_some()
    }

    /// "Got it": the new card shown is now asked.
    pub(crate) fn review_learned(&mut self) {
        self.with_drill(|d| d.learned(now()));
    }

    /// "Easy" after a right first-try move.
    pub(crate) fn review_easy(&mut self) {
        if let Some(Some(g)) = self.with_drill(|d| d.mark_easy()) {
            self.set_last_grade(Some(g.rating));
        }
    }

    /// A hint in review mode (the answer counts as Hard at best).
    pub(crate) fn review_hint(&mut self) -> Option<bool> {
        self.with_drill(|d| d.ask_hint().is_some())
    }

    /// Called every frame: saves the committed reviews.
    pub(crate) fn review_logic(&mut self) {
        self.save_reviews();
        if let Some(review) = &mut self.review.mode {
            review.optimize.poll(&review.store, &mut self.ctx);
        }
    }
}
