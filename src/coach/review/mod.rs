//! Review mode ([`ReviewState`]): the drill is driven by a [`ReviewDrill`] instead of
//! the bare session, its reviews are appended to the review log every frame
//! (`ReviewState::poll`), and the last grade is committed when the window closes;
//! [`optimize`]: fitting the memory model to the log ("Optimise my memory model").
//!
//! The context keeps one [`Session`](crate::trainer::Session) for the board and chart to
//! read. While review mode is on, that session is the drill's: `ReviewState::with_drill`
//! swaps it into the drill for each call and back afterwards, so nothing else changes.
//! The drill's commands ask review mode first (`ReviewState::play`, `reply`, `show_me`,
//! `hint`, `next_line`: `None` outside review mode).

pub mod elsewhere;
mod load;
pub mod optimize;
pub mod reach;

use std::path::{Path, PathBuf};

use shakmaty::Move;

use crate::clock::Clock;
use crate::coach::context::{Context, Grading};
use crate::review::study::{DeckStates, Study};
use crate::review::{CardKey, Deck, Rating, SessionChoice, SessionKind, Timestamp};
use crate::trainer::progress::Progress;
use crate::trainer::review_drill::{ReviewDrill, ReviewSettings, ReviewStep};
use crate::trainer::{MoveOutcome, Reply};
use crate::workspace::data_dir::review_log_in;
use crate::workspace::review_store::ReviewStore;
use load::Loaded;

pub use crate::workspace::review_store::PARAMS_FILE;

/// Review mode's commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewCommand {
    /// Drill freely or review the cards due (remembered for the next start).
    SetDrillMode(DrillMode),
    /// A review session of the positions this choice draws (the session menu).
    Session(SessionChoice),
    /// "Learn new lines": the new lines shown, then asked (review mode turned on).
    LearnNewLines,
    /// "Got it": the new card shown is now asked.
    GotIt,
    /// "Easy" after a right first-try move.
    Easy,
    /// Fit the memory model to the review log.
    Optimize,
    /// The session menu is open: "the most common" will want the exact reach, found
    /// now in the background so that a choice starts at once.
    PrepareSessions,
}

pub use crate::coach::settings::DrillMode;

/// A running review session and its log.
pub struct ReviewMode {
    pub(crate) mode: DrillMode,
    /// The session chosen (what the queue holds).
    pub(crate) choice: SessionChoice,
    /// Whether the deck's reach is the drill's exact one (computed for "the most
    /// common", kept for the next sessions).
    pub(crate) exact_reach: bool,
    /// The drill; its own session is a parked copy while the app's is in use.
    pub(crate) drill: ReviewDrill,
    pub(crate) store: ReviewStore,
    /// The last error writing the log, or the log's warnings.
    pub(crate) warning: Option<String>,
    /// The grade of the learner's last answer, while it can still change to Easy.
    pub(crate) last_grade: Option<Rating>,
    /// "Optimise my memory model".
    pub(crate) optimize: optimize::OptimizeState,
    /// In "Mistakes only": the missed positions the book drilled now cannot ask.
    pub elsewhere: elsewhere::MissedElsewhere,
}

/// Review mode, when it is on, and whether its due dates are fuzzed.
pub struct ReviewState {
    /// Review mode, when it is on.
    pub(crate) mode: Option<ReviewMode>,
    /// Fuzz review intervals (off in tests, for reproducible due dates).
    pub(crate) fuzz: bool,
    /// "Learn new lines" was asked while the book was being built (My repertoires'
    /// button, which chooses the book first): the lesson starts on the new book.
    learn_on_new_book: bool,
    /// "The most common" session's exact reach, found in the background.
    pub(crate) reach: reach::ExactReach,
}

impl Default for ReviewState {
    fn default() -> ReviewState {
        ReviewState {
            mode: None,
            fuzz: true,
            learn_on_new_book: false,
            reach: reach::ExactReach::default(),
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
            let pos = crate::trainer::progress::position_of(epd)?;
            Some((deck.index_of(&CardKey::from_position(&pos))?, r.mistakes))
        })
        .collect()
}

impl ReviewState {
    /// The drill mode.
    pub fn drill_mode(&self) -> DrillMode {
        self.mode.as_ref().map_or(DrillMode::Free, |r| r.mode)
    }

    /// The session chosen, in review mode (not in "Mistakes only").
    pub fn choice(&self) -> Option<&SessionChoice> {
        self.mode
            .as_ref()
            .filter(|r| r.mode == DrillMode::Review)
            .map(|r| &r.choice)
    }

    /// Review mode, when it is on: the drill, the log, the last grade, the optimiser.
    pub fn mode(&self) -> Option<&ReviewMode> {
        self.mode.as_ref()
    }

    /// The review drill, when review mode is on (its session is not the one drawn: read
    /// the context's, `Coach::session`).
    pub fn drill(&self) -> Option<&ReviewDrill> {
        self.mode.as_ref().map(|r| &r.drill)
    }

    /// Turns the fuzz of review intervals on or off (for the next review session; tests
    /// turn it off for reproducible due dates).
    pub fn set_fuzz(&mut self, fuzz: bool) {
        self.fuzz = fuzz;
    }

    /// The review log, when review mode is on.
    pub fn store(&self) -> Option<&ReviewStore> {
        self.mode.as_ref().map(|r| &r.store)
    }

    /// "The most common" session's exact reach: being found, a session waiting for it.
    pub fn reach(&self) -> &reach::ExactReach {
        &self.reach
    }

    /// What the review drill waits for (`None` outside review mode).
    pub fn step(&self) -> Option<ReviewStep> {
        self.mode.as_ref().map(|r| r.drill.step())
    }

    /// Whether review mode is on (the answer is hidden then).
    pub fn is_on(&self) -> bool {
        self.mode.is_some()
    }

    /// Runs `f` on the review drill with the context's session swapped in.
    pub(crate) fn with_drill<R>(
        &mut self,
        ctx: &mut Context,
        f: impl FnOnce(&mut ReviewDrill) -> R,
    ) -> Option<R> {
        let review = self.mode.as_mut()?;
        std::mem::swap(&mut ctx.session, review.drill.session_mut());
        let r = f(&mut review.drill);
        std::mem::swap(&mut ctx.session, review.drill.session_mut());
        Some(r)
    }

    /// Switches the drill mode: opens the review log and starts a review session, or
    /// commits the last grade and returns to free drill.
    pub(crate) fn set_drill_mode(&mut self, mode: DrillMode, ctx: &mut Context) {
        if mode == self.drill_mode() {
            return;
        }
        self.open(mode, SessionChoice::Due, ctx);
    }

    /// Starts a review session of the positions `choice` draws (review mode turned on);
    /// its first position is shown at once.
    pub(crate) fn start_session(&mut self, choice: SessionChoice, ctx: &mut Context) {
        self.open(DrillMode::Review, choice, ctx);
        // "Train branch" is in the Repertoire tab, which hides the drill.
        ctx.notify(crate::coach::notice::Notice::ShowDrill);
    }

    /// Ends the running session and starts `mode` (a review session of `choice`).
    fn open(&mut self, mode: DrillMode, choice: SessionChoice, ctx: &mut Context) {
        let exact = matches!(choice, SessionChoice::Common(_))
            .then(|| self.reach.deck(ctx))
            .flatten();
        if matches!(choice, SessionChoice::Common(_)) && exact.is_none() {
            // The exact reach is found in the background; the session starts then.
            self.reach.start(ctx);
            self.reach.wait_for(choice);
            return;
        }
        // Another session of review mode keeps the log, the cards and their states.
        let kept = (mode != DrillMode::Free)
            .then(|| load::keep(self, ctx))
            .flatten();
        self.end(ctx);
        ctx.last_reply = None;
        if mode == DrillMode::Free {
            ctx.session.set_review(None);
            ctx.session.new_line();
            return;
        }
        let Some(mut loaded) = kept.or_else(|| load::load(ctx)) else {
            return;
        };
        if let Some(deck) = exact {
            loaded.deck = deck;
            loaded.exact_reach = true;
        }
        if mode == DrillMode::Review {
            // Ready when "the most common" is chosen.
            self.reach.start(ctx);
        }
        let Loaded {
            store,
            deck,
            exact_reach,
            scheduler,
            schedule,
            warning,
        } = loaded;
        // A chosen session starts at its first position; the daily one as set.
        let at_position = ctx.settings.review_at_position || choice != SessionChoice::Due;
        let settings = ReviewSettings {
            kind: match mode {
                DrillMode::Mistakes => SessionKind::MistakesOnly,
                _ => SessionKind::Due,
            },
            fuzz: self.fuzz,
            lead_in: at_position.then_some(0),
            grade: ctx.settings.review_grade,
            ..ReviewSettings::default()
        };
        let (missed, elsewhere) = match mode {
            DrillMode::Mistakes => (
                missed_cards(&deck, ctx.progress.progress()),
                elsewhere::missed_elsewhere(&deck, ctx),
            ),
            _ => (Vec::new(), elsewhere::MissedElsewhere::default()),
        };
        let now = now();
        let drill = if mode == DrillMode::Review && choice != SessionChoice::Due {
            let states = DeckStates::new(&deck, &schedule);
            let queue = Study {
                deck: &deck,
                schedule: &schedule,
                states: &states,
                scheduler: &scheduler,
                now,
            }
            .session(&choice, &ctx.graph, settings.new_per_day)
            .into_iter()
            .map(|e| e.card)
            .collect();
            let session = ctx.session.clone();
            ReviewDrill::with_queue(session, deck, scheduler, schedule, settings, queue, now)
        } else {
            let session = ctx.session.clone();
            ReviewDrill::with_missed(session, deck, scheduler, schedule, settings, &missed, now)
        };
        let review = self.mode.insert(ReviewMode {
            mode,
            choice,
            drill,
            store,
            exact_reach,
            warning,
            last_grade: None,
            optimize: Default::default(),
            elsewhere,
        });
        // The drill started its first line in its own session: take it.
        std::mem::swap(&mut ctx.session, review.drill.session_mut());
        ctx.message = None;
    }

    /// For the screenshot: review mode on the review log beside `progress_file` (read
    /// only: the screenshot grades nothing), the Progress tab shown.
    pub(crate) fn show_progress(&mut self, progress_file: Option<PathBuf>, ctx: &mut Context) {
        ctx.review_log = progress_file.as_deref().and_then(review_log_path);
        self.set_drill_mode(DrillMode::Review, ctx);
    }

    /// Starts the review session again (the book or the colour changed).
    pub(crate) fn restart(&mut self, ctx: &mut Context) {
        let mode = self.drill_mode();
        if mode != DrillMode::Free {
            self.set_drill_mode(DrillMode::Free, ctx);
            self.set_drill_mode(mode, ctx);
        }
        if std::mem::take(&mut self.learn_on_new_book) && !ctx.workspace.is_building() {
            self.learn_new_lines(ctx);
        }
    }

    /// Commits the pending grade, appends it, and leaves review mode.
    pub(crate) fn end(&mut self, ctx: &mut Context) {
        let records = self.with_drill(ctx, |d| d.finish()).unwrap_or_default();
        self.append_reviews(records);
        self.mode = None;
    }

    /// Appends the reviews the drill committed since the last frame (synced).
    pub(crate) fn save_reviews(&mut self) {
        let records = self
            .mode
            .as_mut()
            .map(|r| r.drill.take_reviews())
            .unwrap_or_default();
        self.append_reviews(records);
    }

    fn append_reviews(&mut self, records: Vec<crate::review::ReviewRecord>) {
        let Some(review) = &mut self.mode else {
            return;
        };
        for r in &records {
            if let Err(e) = review.store.append(r) {
                review.warning = Some(format!("A review could not be saved: {e}"));
            }
        }
    }

    /// The learner's move in review mode (`None` outside it).
    pub(crate) fn play(&mut self, mv: Move, ctx: &mut Context) -> Option<MoveOutcome> {
        let (outcome, graded) = self.with_drill(ctx, |d| d.play(mv, now()))?;
        self.set_last_grade(graded.map(|g| g.rating));
        Some(outcome)
    }

    /// The computer's reply in review mode (`None` outside it).
    pub(crate) fn reply(&mut self, ctx: &mut Context) -> Option<Option<Reply>> {
        self.with_drill(ctx, |d| d.reply(now()))
    }

    /// "Show me" in review mode (`None` outside it).
    pub(crate) fn show_me(&mut self, ctx: &mut Context) -> Option<Option<MoveOutcome>> {
        let (outcome, graded) = self.with_drill(ctx, |d| d.show_me(now()))?;
        self.set_last_grade(graded.map(|g| g.rating));
        Some(outcome)
    }

    fn set_last_grade(&mut self, grade: Option<Rating>) {
        if let Some(r) = &mut self.mode {
            r.last_grade = grade;
        }
    }

    /// Carries out one of review mode's commands.
    pub(crate) fn apply(&mut self, command: ReviewCommand, ctx: &mut Context) {
        match command {
            ReviewCommand::SetDrillMode(mode) => {
                self.set_drill_mode(mode, ctx);
                // Remembered for the next start (what could be switched on).
                ctx.settings.drill_mode = self.drill_mode();
            }
            ReviewCommand::Session(choice) => {
                self.start_session(choice, ctx);
                ctx.settings.drill_mode = self.drill_mode();
            }
            ReviewCommand::LearnNewLines => self.learn_new_lines(ctx),
            ReviewCommand::GotIt => self.learned(ctx),
            ReviewCommand::Easy => self.easy(ctx),
            ReviewCommand::Optimize => self.optimize(ctx),
            ReviewCommand::PrepareSessions => self.reach.start(ctx),
        }
    }

    /// The learner plays `color` from a new line: the context's side, then the session
    /// and a review session's cards are the new colour's.
    pub(crate) fn set_learner(&mut self, color: shakmaty::Color, ctx: &mut Context) {
        ctx.set_learner_side(color);
        let mode = self.drill_mode();
        self.set_drill_mode(DrillMode::Free, ctx);
        ctx.session.set_learner(color);
        self.set_drill_mode(mode, ctx);
        ctx.last_reply = None;
        ctx.message = None;
    }

    /// The next line in review mode; whether review mode is on.
    pub(crate) fn next_line(&mut self, ctx: &mut Context) -> bool {
        self.set_last_grade(None);
        self.with_drill(ctx, |d| d.next_line(now())).is_some()
    }

    /// "Learn new lines": review mode turned on (the daily session), then a lesson on
    /// the new lines of the day; says so when there is none.
    pub(crate) fn learn_new_lines(&mut self, ctx: &mut Context) {
        if self.drill_mode() != DrillMode::Review {
            self.set_drill_mode(DrillMode::Review, ctx);
            ctx.settings.drill_mode = self.drill_mode();
        }
        if ctx.workspace.is_building() {
            // The lines of the book being built are the ones to learn: after it.
            self.learn_on_new_book = true;
            return;
        }
        let per_day = ctx.settings.new_lines_per_day;
        let now = now();
        let started = self.with_drill(ctx, |d| {
            let lines = d.study(now).new_lines(d.session().graph(), per_day);
            let any = !lines.is_empty();
            d.learn_lines(lines, now);
            any
        });
        if started == Some(false) {
            ctx.message = Some(format!(
                "No new line to learn today: every line is learned, or the {per_day} new \
                 lines of the day are (Settings, Review)."
            ));
        }
    }

    /// "Got it": the new card shown is now asked.
    pub(crate) fn learned(&mut self, ctx: &mut Context) {
        self.with_drill(ctx, |d| d.learned(now()));
    }

    /// "Easy" after a right first-try move.
    pub(crate) fn easy(&mut self, ctx: &mut Context) {
        if let Some(Some(g)) = self.with_drill(ctx, |d| d.mark_easy()) {
            self.set_last_grade(Some(g.rating));
        }
    }

    /// A hint in review mode (the answer counts as Hard at best; `None` outside it).
    pub(crate) fn hint(&mut self, ctx: &mut Context) -> Option<bool> {
        self.with_drill(ctx, |d| d.ask_hint().is_some())
    }

    /// Takes back the mistake counted for the move shown on review mode's card
    /// (`None` outside review mode).
    pub(crate) fn forgive_mistake(&mut self, ctx: &mut Context) -> Option<bool> {
        self.with_drill(ctx, |d| d.forgive_mistake())
    }

    /// Sets where review mode's lines start (the "review at the position" setting).
    pub(crate) fn set_lead_in(&mut self, lead_in: Option<u32>, ctx: &mut Context) {
        self.with_drill(ctx, |d| d.set_lead_in(lead_in));
    }

    /// "Optimise my memory model": fits the memory model to the log (a job).
    pub(crate) fn optimize(&mut self, ctx: &Context) {
        if let Some(review) = &mut self.mode {
            review.optimize.start(&review.store, ctx);
        }
    }

    /// Called every frame: saves the committed reviews, takes the optimiser's result.
    pub(crate) fn poll(&mut self, ctx: &mut Context) {
        self.save_reviews();
        if let Some(review) = &mut self.mode {
            review.optimize.poll(&review.store, ctx);
        }
        if let Some(choice) = self.reach.poll(ctx) {
            self.start_session(choice, ctx);
            ctx.settings.drill_mode = self.drill_mode();
        }
    }
}

impl Grading for ReviewState {
    fn play(&mut self, mv: Move, ctx: &mut Context) -> Option<MoveOutcome> {
        ReviewState::play(self, mv, ctx)
    }

    fn reply(&mut self, ctx: &mut Context) -> Option<Option<Reply>> {
        ReviewState::reply(self, ctx)
    }

    fn show_me(&mut self, ctx: &mut Context) -> Option<Option<MoveOutcome>> {
        ReviewState::show_me(self, ctx)
    }

    fn hint(&mut self, ctx: &mut Context) -> Option<bool> {
        ReviewState::hint(self, ctx)
    }

    fn forgive_mistake(&mut self, ctx: &mut Context) -> Option<bool> {
        ReviewState::forgive_mistake(self, ctx)
    }
}
