//! What to review now, and how the learner stands: the queue, counts, a forecast,
//! measured retention and per-line mastery, for one deck at one moment.

use shakmaty::Color;

use super::deck::Deck;
use super::schedule::{CardState, Schedule, Scheduler};
use super::time::Timestamp;
use crate::book::{LineId, PositionGraph};

/// The default number of new cards a day.
pub const DEFAULT_NEW_PER_DAY: u32 = 20;

/// Which cards a session reviews.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SessionKind {
    /// Due cards, most urgent first, then new cards up to the daily limit.
    #[default]
    Due,
    /// Only cards the learner has forgotten at least once, most lapses first, and the
    /// cards the caller knows were missed (see [`Study::queue_with_missed`]).
    MistakesOnly,
}

/// Why a card is in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum QueueReason {
    /// It is due (or overdue, or was just forgotten).
    Due,
    /// It was never reviewed.
    New,
    /// A mistakes-only session: it has lapses.
    Lapsed,
    /// A mistakes-only session: the learner's drill recorded mistakes there (a card
    /// answered wrong while new, or in free drill, has no lapse).
    Missed,
    /// A chosen session ([`super::choice::SessionChoice`]): reviewed, not due yet.
    Early,
}

/// One card of the queue.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueueEntry {
    /// The card's index in the deck.
    pub card: usize,
    /// Why it is queued.
    pub reason: QueueReason,
    /// The probability of recall now (`None` for a new card).
    pub retrievability: Option<f64>,
    /// `(1 − R) · reach`: the expected share of games in which the learner would forget
    /// the move here. The queue is sorted by it, largest first.
    pub urgency: f64,
}

/// The counts the Progress tab shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Cards in the deck.
    pub cards: usize,
    /// Cards never reviewed.
    pub new: usize,
    /// New cards that may still be started today (daily limit minus those started).
    pub new_today: usize,
    /// Cards due now.
    pub due: usize,
    /// Cards reviewed at least once.
    pub learned: usize,
    /// Lapses over all cards of the deck.
    pub lapses: u32,
}

/// How well the learner knows one line of the book.
#[derive(Clone, Debug, PartialEq)]
pub struct LineMastery {
    /// The line.
    pub line: LineId,
    /// Its title.
    pub title: String,
    /// What tells it from other lines of its opening, for a narrow row: its last moves
    /// and its variation's name ([`crate::book::OpeningLine::ending`]).
    pub ending: String,
    /// Its cards: the positions where it plays the learner's move
    /// ([`Deck::line_decision_cards`]).
    pub cards: usize,
    /// The mean over its cards of the probability of recall, counting 0 for a new card
    /// and for one where the book has other moves for the learner (see
    /// [`Study::line_mastery`]).
    pub mastery: f64,
}

/// The states of a deck's cards, in deck order: the log's states joined with the deck
/// once (a hash lookup per card), so that the queue and the counts read them in order.
/// Update it with [`DeckStates::set`] when a card is graded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeckStates {
    states: Vec<Option<CardState>>,
}

impl DeckStates {
    /// The states of `deck`'s cards in `schedule` (`None` for new cards).
    pub fn new(deck: &Deck, schedule: &Schedule) -> DeckStates {
        let color = deck.learner().unwrap_or(Color::White);
        DeckStates {
            states: deck
                .cards()
                .iter()
                .map(|c| schedule.card(color, &c.key).cloned())
                .collect(),
        }
    }

    /// The state of card `i` (`None` when new).
    pub fn get(&self, i: usize) -> Option<&CardState> {
        self.states.get(i).and_then(Option::as_ref)
    }

    /// Sets the state of card `i` (after a review).
    pub fn set(&mut self, i: usize, state: CardState) {
        if let Some(slot) = self.states.get_mut(i) {
            *slot = Some(state);
        }
    }
}

/// One deck, its card states, the scheduler, at one moment.
#[derive(Clone, Copy, Debug)]
pub struct Study<'a> {
    /// The cards.
    pub deck: &'a Deck,
    /// The log's states (for the new cards started today).
    pub schedule: &'a Schedule,
    /// The states of the deck's cards, in deck order.
    pub states: &'a DeckStates,
    /// The scheduler (for retrievability).
    pub scheduler: &'a Scheduler,
    /// Now.
    pub now: Timestamp,
}

impl<'a> Study<'a> {
    fn color(&self) -> Color {
        self.deck.learner().unwrap_or(Color::White)
    }

    /// The state of the deck's card `i` (`None` when new).
    pub fn state(&self, i: usize) -> Option<&'a CardState> {
        self.states.get(i)
    }

    /// The probability of recall of card `i` now (0 when new).
    pub fn retrievability(&self, i: usize) -> f64 {
        self.state(i)
            .map_or(0.0, |s| s.retrievability(self.scheduler, self.now))
    }

    /// New cards that may still be started today.
    pub fn new_left_today(&self, new_per_day: u32) -> usize {
        let started = self.schedule.new_on_day(self.color(), self.now.day());
        new_per_day.saturating_sub(started) as usize
    }

    /// The counts.
    pub fn counts(&self, new_per_day: u32) -> Counts {
        let mut c = Counts {
            cards: self.deck.len(),
            ..Counts::default()
        };
        for i in 0..self.deck.len() {
            match self.state(i) {
                None => c.new += 1,
                Some(s) => {
                    c.learned += 1;
                    c.lapses += s.lapses;
                    c.due += usize::from(s.is_due(self.now));
                }
            }
        }
        c.new_today = self.new_left_today(new_per_day).min(c.new);
        c
    }

    /// The session queue: due cards, most urgent first (largest `(1 − R) · reach`, then
    /// lowest R), then new cards up to what is left of the daily limit (most reached
    /// first); or, for a mistakes-only session, the cards with lapses (most lapses first,
    /// then most urgent).
    pub fn queue(&self, kind: SessionKind, new_per_day: u32) -> Vec<QueueEntry> {
        self.queue_with_missed(kind, new_per_day, &[])
    }

    /// As [`Study::queue`]; a mistakes-only session also takes the cards of `missed`
    /// (deck index, mistakes recorded there outside the log: the drill's progress),
    /// new or not, lapsed or not: most lapses first, then most mistakes recorded, then
    /// most urgent (a new card's R counts 0). A due session ignores `missed`.
    pub fn queue_with_missed(
        &self,
        kind: SessionKind,
        new_per_day: u32,
        missed: &[(usize, u32)],
    ) -> Vec<QueueEntry> {
        let mut mistakes: Vec<u32> = Vec::new();
        if kind == SessionKind::MistakesOnly {
            mistakes = vec![0; self.deck.len()];
            for &(card, n) in missed {
                if let Some(m) = mistakes.get_mut(card) {
                    *m = m.saturating_add(n);
                }
            }
        }
        let mistakes_at = |i: usize| mistakes.get(i).copied().unwrap_or(0);
        let mut due = Vec::new();
        let mut new = Vec::new();
        for (i, card) in self.deck.cards().iter().enumerate() {
            let Some(s) = self.state(i) else {
                match kind {
                    SessionKind::Due => new.push(QueueEntry {
                        card: i,
                        reason: QueueReason::New,
                        retrievability: None,
                        urgency: card.reach,
                    }),
                    SessionKind::MistakesOnly if mistakes_at(i) > 0 => due.push(QueueEntry {
                        card: i,
                        reason: QueueReason::Missed,
                        retrievability: None,
                        urgency: card.reach,
                    }),
                    SessionKind::MistakesOnly => {}
                }
                continue;
            };
            let reason = match kind {
                SessionKind::Due => s.is_due(self.now).then_some(QueueReason::Due),
                SessionKind::MistakesOnly if s.lapses > 0 => Some(QueueReason::Lapsed),
                SessionKind::MistakesOnly => (mistakes_at(i) > 0).then_some(QueueReason::Missed),
            };
            if let Some(reason) = reason {
                let r = s.retrievability(self.scheduler, self.now);
                due.push(QueueEntry {
                    card: i,
                    reason,
                    retrievability: Some(r),
                    urgency: (1.0 - r) * card.reach,
                });
            }
        }
        let lapses = |e: &QueueEntry| self.state(e.card).map_or(0, |s| s.lapses);
        due.sort_by(|a, b| {
            let by_lapses = match kind {
                SessionKind::MistakesOnly => lapses(b)
                    .cmp(&lapses(a))
                    .then(mistakes_at(b.card).cmp(&mistakes_at(a.card))),
                SessionKind::Due => std::cmp::Ordering::Equal,
            };
            by_lapses
                .then(b.urgency.total_cmp(&a.urgency))
                .then(
                    a.retrievability
                        .unwrap_or(0.0)
                        .total_cmp(&b.retrievability.unwrap_or(0.0)),
                )
                .then(a.card.cmp(&b.card))
        });
        new.sort_by(|a, b| b.urgency.total_cmp(&a.urgency).then(a.card.cmp(&b.card)));
        new.truncate(self.new_left_today(new_per_day));
        due.extend(new);
        due
    }

    /// Reviews due on each of the next `days` learner days, today first (overdue cards
    /// count today).
    pub fn forecast(&self, days: usize) -> Vec<u32> {
        let mut out = vec![0u32; days];
        let today = self.now.day();
        for i in 0..self.deck.len() {
            let Some(due) = self.state(i).and_then(|s| s.due) else {
                continue;
            };
            let day = due.with_offset(self.now.offset_minutes()).day();
            let slot = usize::try_from((day - today).max(0)).unwrap_or(usize::MAX);
            if let Some(n) = out.get_mut(slot) {
                *n += 1;
            }
        }
        out
    }

    /// Per line of `graph` (the deck's book) with at least one card: its mastery. In
    /// book order.
    ///
    /// A line's cards are the positions where it plays the learner's move (not one it
    /// only ends at). Its mastery is the mean over them of the probability of recall
    /// now, a new card counting 0. A card is graded right for any book move, so at a
    /// position where the book has other moves for the learner (the start of a book
    /// with 1.e4 and 1.d4, the position after 1.e4 on ECO, a repertoire's choice of two
    /// replies) a right answer does not show that the learner plays this line's move:
    /// such a card counts 0 too. A line's mastery thus never rests on a position it
    /// shares with lines that part from it there: answering 1.e4 right masters no line
    /// of ECO, and a sideline never played stays below 100 % however well the moves
    /// before it are known.
    pub fn line_mastery(&self, graph: &PositionGraph) -> Vec<LineMastery> {
        let known: Vec<f64> = (0..self.deck.len())
            .map(|i| {
                if self.deck.has_one_answer(i) {
                    self.retrievability(i)
                } else {
                    0.0
                }
            })
            .collect();
        (0..graph.lines().len())
            .filter_map(|i| {
                let line = LineId(i as u32);
                let cards = self.deck.line_decision_cards(line);
                (!cards.is_empty()).then(|| LineMastery {
                    line,
                    title: graph.line(line).title(),
                    ending: graph.line(line).ending(),
                    cards: cards.len(),
                    mastery: cards.iter().map(|&c| known[c as usize]).sum::<f64>()
                        / cards.len() as f64,
                })
            })
            .collect()
    }

    /// The `n` cards with the most lapses: (card index, lapses), most first.
    pub fn most_lapsed(&self, n: usize) -> Vec<(usize, u32)> {
        let mut v: Vec<(usize, u32)> = (0..self.deck.len())
            .filter_map(|i| self.state(i).map(|s| (i, s.lapses)))
            .filter(|(_, l)| *l > 0)
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v.truncate(n);
        v
    }
}
