//! What `hastings review` prints: the queue and the counts, or one card after a grade.
//! The same numbers the window's Progress tab draws.

use serde::Serialize;
use shakmaty::{Chess, Position};
use thiserror::Error;

use super::card::CardKey;
use super::choice::SessionChoice;
use super::deck::{Deck, DeckCard};
use super::schedule::{CardState, Schedule, Scheduler};
use super::study::{DeckStates, QueueReason, SessionKind, Study};
use super::time::Timestamp;
use crate::book::PositionGraph;

/// The queue report (`hastings review --json`).
#[derive(Clone, Debug, Serialize)]
pub struct QueueReport {
    /// Cards in the deck.
    pub cards: usize,
    /// Cards never reviewed.
    pub new: usize,
    /// Cards due now.
    pub due: usize,
    /// Cards reviewed at least once.
    pub learned: usize,
    /// New cards that may still be started today.
    pub new_today: usize,
    /// Lapses over the deck's cards.
    pub lapses: u32,
    /// Reviews in the log.
    pub reviews: usize,
    /// Measured retention (recalled share of reviews on a later day), if any.
    pub retention: Option<f64>,
    /// Reviews due on each of the next 30 days, today first.
    pub forecast: Vec<u32>,
    /// The session queue, most urgent first (at most `limit` entries).
    pub next: Vec<NextCard>,
}

/// One card of [`QueueReport::next`].
#[derive(Clone, Debug, Serialize)]
pub struct NextCard {
    /// The card's key (board and side to move, the first two fields of an EPD).
    pub epd: String,
    /// The moves that lead there, in SAN (`"e4 e5 Nf3"`).
    pub line: String,
    /// The opening's title, if named.
    pub opening: Option<String>,
    /// `"due"`, `"new"`, `"lapsed"`, `"missed"` or `"early"` (a chosen session's card
    /// not due yet).
    pub reason: QueueReason,
    /// When it is due (RFC 3339), `null` for a new card.
    pub due: Option<String>,
    /// Probability of recall now, `null` for a new card.
    pub retrievability: Option<f64>,
    /// FSRS stability in days, `null` for a new card.
    pub stability: Option<f32>,
    /// FSRS difficulty (1–10), `null` for a new card.
    pub difficulty: Option<f32>,
    /// How likely a game reaches the position.
    pub reach: f64,
}

/// The card report (`hastings review --grade … --json`).
#[derive(Clone, Debug, Serialize)]
pub struct CardReport {
    /// The card after the review.
    pub card: CardJson,
}

/// One card's state.
#[derive(Clone, Debug, Serialize)]
pub struct CardJson {
    /// The card's key.
    pub epd: String,
    /// The moves that lead there.
    pub line: String,
    /// FSRS stability in days.
    pub stability: Option<f32>,
    /// FSRS difficulty.
    pub difficulty: Option<f32>,
    /// When it is due (RFC 3339).
    pub due: Option<String>,
    /// The interval the review scheduled, in days (0 after Again).
    pub interval_days: i64,
    /// Reviews so far.
    pub reps: u32,
    /// Lapses so far.
    pub lapses: u32,
}

impl CardJson {
    /// The JSON of a deck card and its state.
    pub fn new(card: &DeckCard, state: Option<&CardState>) -> CardJson {
        CardJson {
            epd: card.key.to_string(),
            line: card.line(),
            stability: state.and_then(|s| s.memory).map(|m| m.stability),
            difficulty: state.and_then(|s| s.memory).map(|m| m.difficulty),
            due: state.and_then(|s| s.due).map(Timestamp::to_rfc3339),
            interval_days: state.map_or(0, |s| s.interval_days),
            reps: state.map_or(0, |s| s.reps),
            lapses: state.map_or(0, |s| s.lapses),
        }
    }
}

/// What [`queue_report`] lists: the daily or mistakes-only queue, or a chosen session
/// (`graph`: the deck's book).
#[derive(Clone, Copy, Debug)]
pub struct QueueRequest<'a> {
    /// The deck's book.
    pub graph: &'a PositionGraph,
    /// Due cards, or the mistakes-only queue (which ignores `choice`).
    pub kind: SessionKind,
    /// The session chosen (for `kind` [`SessionKind::Due`]).
    pub choice: &'a SessionChoice,
    /// New cards a day.
    pub new_per_day: u32,
    /// The most cards listed.
    pub limit: usize,
}

/// The queue report of `deck` at `now`, listing at most `request.limit` cards of the
/// queue or session `request` names, in the order they are drawn.
pub fn queue_report(
    deck: &Deck,
    schedule: &Schedule,
    scheduler: &Scheduler,
    now: Timestamp,
    request: &QueueRequest<'_>,
) -> QueueReport {
    let QueueRequest {
        graph,
        kind,
        choice,
        new_per_day,
        limit,
    } = *request;
    let states = DeckStates::new(deck, schedule);
    let study = Study {
        deck,
        schedule,
        states: &states,
        scheduler,
        now,
    };
    let counts = study.counts(new_per_day);
    let queue = match kind {
        SessionKind::MistakesOnly => study.queue(kind, new_per_day),
        SessionKind::Due => study.session(choice, graph, new_per_day),
    };
    let next = queue
        .into_iter()
        .take(limit)
        .filter_map(|e| {
            let card = deck.cards().get(e.card)?;
            let state = study.state(e.card);
            Some(NextCard {
                epd: card.key.to_string(),
                line: card.line(),
                opening: card.opening.clone(),
                reason: e.reason,
                due: state.and_then(|s| s.due).map(Timestamp::to_rfc3339),
                retrievability: e.retrievability,
                stability: state.and_then(|s| s.memory).map(|m| m.stability),
                difficulty: state.and_then(|s| s.memory).map(|m| m.difficulty),
                reach: card.reach,
            })
        })
        .collect();
    QueueReport {
        cards: counts.cards,
        new: counts.new,
        due: counts.due,
        learned: counts.learned,
        new_today: counts.new_today,
        lapses: counts.lapses,
        reviews: schedule.review_count(),
        retention: schedule.measured_retention().0,
        forecast: study.forecast(30),
        next,
    }
}

/// Why moves do not lead to a card.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CardLookupError {
    /// A move cannot be read or played.
    #[error(transparent)]
    Move(#[from] crate::book::movelist::MoveListError),
    /// The position after the moves is no card of the deck.
    #[error("the position after `{moves}` is not a card: {reason}")]
    NotACard {
        /// The moves given.
        moves: String,
        /// Why.
        reason: String,
    },
}

/// The deck's card at the position after `moves` (SAN from the standard position).
///
/// # Errors
///
/// [`CardLookupError`] when a move cannot be played or the position is no card (the
/// wrong side to move, or no book move there).
pub fn card_after(
    graph: &PositionGraph,
    deck: &Deck,
    moves: &str,
) -> Result<usize, CardLookupError> {
    let mut pos = Chess::default();
    for mv in crate::book::movelist::parse_moves(&Chess::default(), moves)? {
        pos.play_unchecked(mv);
    }
    let key = CardKey::from_position(&pos);
    if let Some(i) = deck.index_of(&key) {
        return Ok(i);
    }
    let reason = if Some(pos.turn()) != deck.learner() {
        "the learner is not to move there".to_owned()
    } else if graph.lookup(&pos).is_none() {
        "the position is not in the book".to_owned()
    } else {
        "the book has no move for the learner there".to_owned()
    };
    Err(CardLookupError::NotACard {
        moves: moves.to_owned(),
        reason,
    })
}
