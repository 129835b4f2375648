//! Review mode: a drill whose computer steers toward due cards, and which grades the
//! learner's moves at them.
//!
//! A [`ReviewDrill`] drives a [`Session`]: lines start from the standard position (or a
//! few moves before the most urgent card), the computer's replies carry the review term
//! (`A(y) += w_r · d(y)`, see [`crate::review::steer`]), and each time the learner is
//! to move at a card of the session queue, their answer is graded:
//!
//! | the learner…                                          | rating |
//! |-------------------------------------------------------|--------|
//! | plays a wrong move first                               | Again  |
//! | plays only moves found as good as the book's first     | Hard   |
//! | plays a book move after a hint or "Show me"            | Hard   |
//! | plays a book move at the first try, but slowly         | Hard   |
//! | plays a book move at the first try                     | Good   |
//! | …and then asks for Easy ([`ReviewDrill::mark_easy`])   | Easy   |
//!
//! A move outside the book is found as good as the book's by an engine's verdict
//! ([`crate::trainer::verdict`]); [`ReviewDrill::forgive_mistake`] then takes it back.
//!
//! Slowly is after [`GradeSettings::slow_seconds`] ([`crate::review::grade`]).
//!
//! Again puts the card back into the queue a few cards later (it is due again the same
//! day). A new card is first shown ([`ReviewStep::Learn`]: the move with its comment and
//! arrows), then asked. The drill reads no clock and writes no file: every call that can
//! grade takes the time, and the reviews to append to the log are taken with
//! [`ReviewDrill::take_reviews`] / [`ReviewDrill::finish`].
//!
//! "Learn new lines" ([`ReviewDrill::learn_lines`], the file `lesson`) shows whole new
//! lines move by move, then asks them, before the queue goes on.

mod lesson;

use std::collections::VecDeque;
use std::sync::Arc;

use shakmaty::{Move, Position, Square};

use super::phase::{Hint, MoveOutcome, Reply};
use super::session::{ReviewSteering, Session};
use crate::book::NodeId;
use crate::review::study::{DEFAULT_NEW_PER_DAY, DeckStates, SessionKind, Study};
use crate::review::{
    CardState, Deck, GradeSettings, Rating, ReviewRecord, ReviewTerm, Schedule, Scheduler,
    SteerSettings, Timestamp,
};

/// How many other cards come before a card answered Again comes back.
pub const AGAIN_GAP: usize = 3;

/// The settings of review mode.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ReviewSettings {
    /// `w_r`: the weight of the review term (0 turns steering off).
    pub weight: f64,
    /// The review term's look-ahead and discount.
    pub steer: SteerSettings,
    /// New cards a day.
    pub new_per_day: u32,
    /// Due cards, or only cards with lapses.
    pub kind: SessionKind,
    /// `Some(n)`: start each line `n` learner moves before the most urgent card;
    /// `None`: from the standard position.
    pub lead_in: Option<u32>,
    /// Show a new card's move before asking for it.
    pub learn_new: bool,
    /// Fuzz the intervals (as FSRS recommends; off for reproducible tests).
    pub fuzz: bool,
    /// How answers are graded (a slow right answer is Hard).
    pub grade: GradeSettings,
}

impl Default for ReviewSettings {
    /// `w_r = 1`, `k = 3`, `γ = 0.5`, 20 new cards a day, due cards, from the start,
    /// learn mode on, fuzz on, a right answer after 15 s Hard.
    fn default() -> ReviewSettings {
        ReviewSettings {
            weight: 1.0,
            steer: SteerSettings::default(),
            new_per_day: DEFAULT_NEW_PER_DAY,
            kind: SessionKind::Due,
            lead_in: None,
            learn_new: true,
            fuzz: true,
            grade: GradeSettings::default(),
        }
    }
}

/// A new card being shown before it is asked.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnCard {
    /// The card (index in the deck).
    pub card: usize,
    /// The book's move (the most popular one).
    pub mv: Move,
    /// It in SAN.
    pub san: String,
    /// The source's comment on the move, if any.
    pub comment: Option<String>,
    /// The source's arrows for the move: colour letter, from, to.
    pub arrows: Vec<(char, Square, Square)>,
}

/// What the review drill is waiting for.
#[derive(Clone, Debug, PartialEq)]
pub enum ReviewStep {
    /// A new card is shown; call [`ReviewDrill::learned`] when the learner has seen it.
    Learn(LearnCard),
    /// The learner is asked the card (index in the deck) at the current position.
    Ask {
        /// The card.
        card: usize,
    },
    /// Anything else: see the session's phase (the computer's turn, a position that is
    /// not due, an out-of-book attempt, the end of the line).
    Play,
    /// The queue is empty: the session is done.
    Done,
}

/// A grade given by the drill.
#[derive(Clone, Debug, PartialEq)]
pub struct Graded {
    /// The card (index in the deck).
    pub card: usize,
    /// The rating.
    pub rating: Rating,
    /// The card's state after the review.
    pub state: CardState,
}

#[derive(Clone, Copy, Debug)]
struct Attempt {
    card: usize,
    /// Moves outside the book played at the card and not forgiven.
    wrong: u32,
    helped: bool,
    presented: Timestamp,
}

/// Review mode: a [`Session`] steered toward due cards, grading the learner's answers.
#[derive(Clone, Debug)]
pub struct ReviewDrill {
    session: Session,
    deck: Arc<Deck>,
    scheduler: Scheduler,
    schedule: Schedule,
    states: DeckStates,
    settings: ReviewSettings,
    queue: VecDeque<usize>,
    term: Arc<ReviewTerm>,
    attempt: Option<Attempt>,
    learn: Option<LearnCard>,
    pending: Option<ReviewRecord>,
    committed: Vec<ReviewRecord>,
    graded: u32,
    lesson: Option<Lesson>,
}

pub use lesson::Lesson;

impl ReviewDrill {
    /// A review session driving `session` (its book, colour, style and seed), whose
    /// cards are `deck` (built from the session's book for the session's colour), with
    /// the card states `schedule` (replayed from the log) at `now`. The queue is the study
    /// queue of `settings.kind`; the first line starts at once.
    pub fn new(
        session: Session,
        deck: Arc<Deck>,
        scheduler: Scheduler,
        schedule: Schedule,
        settings: ReviewSettings,
        now: Timestamp,
    ) -> ReviewDrill {
        ReviewDrill::with_missed(session, deck, scheduler, schedule, settings, &[], now)
    }

    /// As [`ReviewDrill::new`]; a mistakes-only session also queues the cards of
    /// `missed` (deck index, mistakes recorded there: see [`Study::queue_with_missed`]).
    pub fn with_missed(
        session: Session,
        deck: Arc<Deck>,
        scheduler: Scheduler,
        schedule: Schedule,
        settings: ReviewSettings,
        missed: &[(usize, u32)],
        now: Timestamp,
    ) -> ReviewDrill {
        let states = DeckStates::new(&deck, &schedule);
        let queue: Vec<usize> = Study {
            deck: &deck,
            schedule: &schedule,
            states: &states,
            scheduler: &scheduler,
            now,
        }
        .queue_with_missed(settings.kind, settings.new_per_day, missed)
        .into_iter()
        .map(|e| e.card)
        .collect();
        ReviewDrill::with_queue(session, deck, scheduler, schedule, settings, queue, now)
    }

    /// As [`ReviewDrill::new`] with the cards to ask given: `queue` (indices into the
    /// deck, first asked first), as a chosen session draws them
    /// ([`Study::session`]).
    pub fn with_queue(
        session: Session,
        deck: Arc<Deck>,
        scheduler: Scheduler,
        schedule: Schedule,
        settings: ReviewSettings,
        queue: Vec<usize>,
        now: Timestamp,
    ) -> ReviewDrill {
        let learner = session.learner();
        let graph = session.graph();
        let states = DeckStates::new(&deck, &schedule);
        let queue: VecDeque<usize> = queue.into_iter().collect();
        let targets: Vec<(NodeId, f32)> = queue
            .iter()
            .filter_map(|&i| deck.cards().get(i).map(|c| (c.node, 1.0)))
            .collect();
        let term = Arc::new(ReviewTerm::new(graph, learner, settings.steer, targets));
        let mut drill = ReviewDrill {
            session,
            deck,
            scheduler,
            schedule,
            states,
            settings,
            queue,
            term,
            attempt: None,
            learn: None,
            pending: None,
            committed: Vec::new(),
            graded: 0,
            lesson: None,
        };
        drill.steer();
        drill.next_line(now);
        drill
    }

    // ----- reading -----

    /// The drill (for drawing: board, moves, phase, the reply distribution with its
    /// review term).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The drill, for actions that grade nothing (viewing earlier positions, the style,
    /// the seed). Moves, hints and new lines go through the review drill.
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The cards.
    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    /// The cards, shared.
    pub fn deck_arc(&self) -> Arc<Deck> {
        Arc::clone(&self.deck)
    }

    /// The card states, with every committed review applied.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The deck's counts, forecast, mastery and queue at `now`, with every committed
    /// review applied (what the Progress tab draws during a session).
    pub fn study(&self, now: Timestamp) -> Study<'_> {
        Study {
            deck: &self.deck,
            schedule: &self.schedule,
            states: &self.states,
            scheduler: &self.scheduler,
            now,
        }
    }

    /// The scheduler.
    pub fn scheduler(&self) -> &Scheduler {
        &self.scheduler
    }

    /// The review term (`d(y)` per node).
    pub fn term(&self) -> &ReviewTerm {
        &self.term
    }

    /// The settings.
    pub fn settings(&self) -> &ReviewSettings {
        &self.settings
    }

    /// The cards still to review, next first (indices into the deck).
    pub fn queue(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.queue.iter().copied()
    }

    /// Cards graded in this session (a card answered Again and then Good counts twice).
    pub fn graded(&self) -> u32 {
        self.graded
    }

    /// Whether a line or a card is being taught (shown, not asked): the board keeps its
    /// pieces then, even blindfold.
    pub fn teaches(&self) -> bool {
        self.learn.is_some() || self.lesson.as_ref().is_some_and(|l| !l.is_quiz())
    }

    /// What the drill waits for.
    pub fn step(&self) -> ReviewStep {
        if let Some(l) = &self.learn {
            return ReviewStep::Learn(l.clone());
        }
        if let Some(a) = &self.attempt {
            return ReviewStep::Ask { card: a.card };
        }
        if self.lesson.is_some() {
            return ReviewStep::Play;
        }
        if self.queue.is_empty() {
            ReviewStep::Done
        } else {
            ReviewStep::Play
        }
    }

    // ----- actions -----

    /// Where the next lines start: `Some(n)`, `n` learner moves before the most urgent
    /// card (0: at its position); `None`, from the standard position.
    pub fn set_lead_in(&mut self, lead_in: Option<u32>) {
        self.settings.lead_in = lead_in;
    }

    /// Starts a new line: from the standard position, or `lead_in` learner moves before
    /// the first card of the queue.
    pub fn next_line(&mut self, now: Timestamp) {
        self.commit();
        if self.lesson_quiz(now) {
            // A line shown to its end: Next asks it.
            return;
        }
        if let Some(lesson) = &mut self.lesson {
            // In a lesson: on to its next line.
            lesson.skip();
            self.begin_line(None, now);
            return;
        }
        let lead_in = self.settings.lead_in.and_then(|n| {
            let card = self.deck.cards().get(*self.queue.front()?)?;
            let keep = card.moves.len().saturating_sub(2 * n as usize);
            Some(card.moves[..keep].to_vec())
        });
        match lead_in {
            Some(moves) if self.session.start_after(&moves).is_ok() => {}
            _ => self.session.new_line(),
        }
        self.arrive(now);
    }

    /// The learner plays `mv` at `now`. Returns what the session made of it and, when
    /// it answered a queued card, the grade.
    pub fn play(&mut self, mv: Move, now: Timestamp) -> (MoveOutcome, Option<Graded>) {
        if self.lesson.is_some() {
            return self.lesson_play(mv, now);
        }
        if self.learn.is_some() {
            return (MoveOutcome::Rejected, None);
        }
        self.commit();
        let outcome = self.session.play(mv);
        let graded = self.after_learner_move(&outcome, now);
        (outcome, graded)
    }

    /// The computer replies (with the review term) at `now`.
    pub fn reply(&mut self, now: Timestamp) -> Option<Reply> {
        if self.lesson.is_some() {
            return None;
        }
        let reply = self.session.reply()?;
        self.arrive(now);
        Some(reply)
    }

    /// A hint (the answer will count as Hard at best).
    pub fn ask_hint(&mut self) -> Option<Hint> {
        if self.lesson.is_some() {
            return self.lesson_hint();
        }
        if self.learn.is_some() {
            return None;
        }
        let hint = self.session.ask_hint()?;
        if let Some(a) = &mut self.attempt {
            a.helped = true;
        }
        Some(hint)
    }

    /// "Show me": plays the book's move for the learner (counts as Hard at best).
    pub fn show_me(&mut self, now: Timestamp) -> (Option<MoveOutcome>, Option<Graded>) {
        if self.lesson.is_some() {
            return self.lesson_show_me(now);
        }
        if self.learn.is_some() {
            return (None, None);
        }
        self.commit();
        if let Some(a) = &mut self.attempt {
            a.helped = true;
        }
        let Some(outcome) = self.session.show_me() else {
            return (None, None);
        };
        let graded = self.after_learner_move(&outcome, now);
        (Some(outcome), graded)
    }

    /// Takes back an out-of-book attempt (the card stays wrong for this review).
    pub fn try_again(&mut self) {
        self.session.try_again();
    }

    /// The learner's move outside the book was found as good as the book's (an
    /// engine's verdict, with the setting that alternatives that are also good are not
    /// mistakes, or the learner accepted it): the session's mistake is taken back, and
    /// the card asked here no longer counts the move wrong but as help (Hard at best, as
    /// after a hint; another wrong move there still makes it Again). Returns whether
    /// the move was shown and counted; a card already graded stays as it was.
    pub fn forgive_mistake(&mut self) -> bool {
        if !self.session.forgive_mistake() {
            return false;
        }
        if let Some(a) = &mut self.attempt
            && a.wrong > 0
        {
            a.wrong -= 1;
            a.helped = true;
        }
        true
    }

    /// The learner has seen the new card's move: it is now asked, timed from `now`. In a
    /// lesson whose line was shown to its end: the line is now asked from its start.
    pub fn learned(&mut self, now: Timestamp) {
        if self.lesson_quiz(now) {
            return;
        }
        if self.learn.take().is_some()
            && let Some(a) = &mut self.attempt
        {
            a.presented = now;
        }
    }

    /// Turns the last grade into Easy, if it was Good and not yet committed (the
    /// learner presses Easy after the move). Returns the new grade.
    pub fn mark_easy(&mut self) -> Option<Graded> {
        let p = self.pending.as_mut().filter(|p| p.rating == Rating::Good)?;
        p.rating = Rating::Easy;
        let card = self.deck.index_of(&p.card)?;
        let state = self
            .scheduler
            .review(self.schedule.card(p.color, &p.card), p);
        Some(Graded {
            card,
            rating: Rating::Easy,
            state,
        })
    }

    /// The reviews committed since the last call, to append to the log (the last grade
    /// stays pending until the learner moves on, so that it can still become Easy).
    pub fn take_reviews(&mut self) -> Vec<ReviewRecord> {
        std::mem::take(&mut self.committed)
    }

    /// Commits the pending grade and returns every review not taken yet (call when the
    /// session ends or the window closes).
    pub fn finish(&mut self) -> Vec<ReviewRecord> {
        self.commit();
        self.take_reviews()
    }

    // ----- internals -----

    fn commit(&mut self) {
        if let Some(r) = self.pending.take() {
            let state = self.schedule.apply(&self.scheduler, &r).clone();
            if let Some(i) = self.deck.index_of(&r.card) {
                self.states.set(i, state);
            }
            self.committed.push(r);
        }
    }

    fn steer(&mut self) {
        let steering = (self.settings.weight > 0.0).then(|| ReviewSteering {
            weight: self.settings.weight,
            term: Arc::clone(&self.term),
        });
        self.session.set_review(steering);
    }

    /// After the position changed: is the learner asked a queued card here?
    fn arrive(&mut self, now: Timestamp) {
        self.attempt = None;
        self.learn = None;
        if *self.session.phase() != super::Phase::LearnerToMove {
            return;
        }
        let Some(card) = self.session.node().and_then(|n| self.deck.index_at(n)) else {
            return;
        };
        if !self.queue.contains(&card) {
            return;
        }
        self.attempt = Some(Attempt {
            card,
            wrong: 0,
            helped: false,
            presented: now,
        });
        let is_new = self
            .deck
            .cards()
            .get(card)
            .is_some_and(|c| self.schedule.card(self.session.learner(), &c.key).is_none());
        if is_new && self.settings.learn_new {
            self.learn = self.learn_card(card);
        }
    }

    fn after_learner_move(&mut self, outcome: &MoveOutcome, now: Timestamp) -> Option<Graded> {
        let graded = match outcome {
            MoveOutcome::OutOfBook => {
                if let Some(a) = &mut self.attempt {
                    a.wrong += 1;
                }
                return None;
            }
            MoveOutcome::Rejected | MoveOutcome::InRepertoire { .. } => return None,
            MoveOutcome::Accepted { .. } => self.attempt.take().and_then(|a| self.grade(a, now)),
        };
        self.arrive(now);
        graded
    }

    fn grade(&mut self, a: Attempt, now: Timestamp) -> Option<Graded> {
        let seconds = now.seconds_since(a.presented).max(0.0) as f32;
        let rating = self.settings.grade.rating(a.wrong, a.helped, seconds);
        let card = self.deck.cards().get(a.card)?;
        let record = ReviewRecord {
            time: now,
            color: self.session.learner(),
            rating,
            seconds,
            fuzz: self.settings.fuzz,
            card: card.key.clone(),
        };
        let state = self
            .scheduler
            .review(self.schedule.card(record.color, &record.card), &record);
        let node = card.node;
        self.queue.retain(|&c| c != a.card);
        if rating == Rating::Again {
            let at = AGAIN_GAP.min(self.queue.len());
            self.queue.insert(at, a.card);
        } else {
            Arc::make_mut(&mut self.term).set_urgency(self.session.graph(), node, 0.0);
            self.steer();
        }
        self.pending = Some(record);
        self.graded += 1;
        Some(Graded {
            card: a.card,
            rating,
            state,
        })
    }

    /// The most popular book move at a card, with the source's comment and arrows.
    fn learn_card(&self, card: usize) -> Option<LearnCard> {
        let graph = self.session.graph();
        let node = self.deck.cards().get(card)?.node;
        let best = self.session.distribution().most_popular()?.clone();
        let mut comment = None;
        let mut arrows = Vec::new();
        if let Some(c) = graph
            .continuations(node)
            .iter()
            .find(|c| Some(c.to) == best.to)
        {
            for &line in graph.continuation_lines(c) {
                let l = graph.line(line);
                let mut pos = l.start_position();
                let moves = graph.line_moves(line);
                let ply = moves.iter().position(|&m| {
                    let here = graph.lookup(&pos) == Some(node);
                    pos.play_unchecked(m);
                    here
                });
                let Some(ply) = ply else { continue };
                if let Some(a) = l.annotations.iter().find(|a| a.ply as usize == ply) {
                    comment = a.comment.clone();
                    arrows = a.arrows.clone();
                    if comment.is_some() || !arrows.is_empty() {
                        break;
                    }
                }
            }
        }
        Some(LearnCard {
            card,
            mv: best.mv,
            san: graph.san(node, best.mv).to_string(),
            comment,
            arrows,
        })
    }
}
