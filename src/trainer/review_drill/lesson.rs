//! "Learn new lines": each new line shown once, move by move (the learner plays the
//! move the board shows as an arrow, with the source's comment and arrows; the
//! opponent's moves are played for them), its last position shown until the learner
//! goes on, then asked from the start (the learner plays it from memory; the positions
//! never reviewed before are graded, which hands them to spaced repetition), then the
//! next line. When the lines are done the review drill goes on with its queue. The hint
//! shows the line's move as an arrow (counted as help when the line is asked).

use std::collections::VecDeque;

use shakmaty::{Move, Position};

use super::{Attempt, Graded, LearnCard, ReviewDrill};
use crate::book::LineId;
use crate::review::Timestamp;
use crate::trainer::{Hint, MoveOutcome};

/// A lesson under way.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// The lines still to learn after this one.
    lines: VecDeque<LineId>,
    /// The line learned now.
    line: LineId,
    /// Its moves from the standard position.
    moves: Vec<Move>,
    /// The plies of the line played so far.
    ply: usize,
    /// Whether the line is asked (else shown).
    quiz: bool,
    /// Whether the line was shown to its end and its last position is on the board
    /// (the quiz starts when the learner goes on).
    at_end: bool,
    /// The cards of the line never reviewed when it began: the ones graded.
    fresh: Vec<usize>,
    /// The lines learned so far, and all the lesson's lines.
    done: usize,
    total: usize,
    /// The learner's last move that was not the line's (shown until the next move).
    missed: Option<String>,
}

impl Lesson {
    /// The line learned now.
    pub fn line(&self) -> LineId {
        self.line
    }

    /// Whether the line is asked from memory (else it is shown).
    pub fn is_quiz(&self) -> bool {
        self.quiz
    }

    /// Lines finished, and the lesson's lines (1-based: this is line `done + 1`).
    pub fn progress(&self) -> (usize, usize) {
        (self.done, self.total)
    }

    /// Whether the line was shown to its end: its last position is on the board, and
    /// the quiz starts when the learner goes on ([`ReviewDrill::learned`], or Next
    /// line).
    pub fn at_end(&self) -> bool {
        self.at_end
    }

    /// Leaves the line shown or asked now (counted as done).
    pub(super) fn skip(&mut self) {
        self.done += 1;
    }

    /// The learner's last move that was not the line's, in SAN.
    pub fn missed(&self) -> Option<&str> {
        self.missed.as_deref()
    }
}

impl ReviewDrill {
    /// Starts a lesson on `lines` (of the drill's book, from the standard position; see
    /// [`crate::review::Study::new_lines`]) at `now`. Without a line, nothing changes.
    pub fn learn_lines(&mut self, lines: Vec<LineId>, now: Timestamp) {
        self.commit();
        let total = lines.len();
        let mut lines: VecDeque<LineId> = lines.into();
        let Some(first) = lines.pop_front() else {
            return;
        };
        self.lesson = Some(Lesson {
            lines,
            line: first,
            moves: Vec::new(),
            ply: 0,
            quiz: false,
            at_end: false,
            fresh: Vec::new(),
            done: 0,
            total,
            missed: None,
        });
        self.begin_line(Some(first), now);
    }

    /// The lesson under way, if any.
    pub fn lesson(&self) -> Option<&Lesson> {
        self.lesson.as_ref()
    }

    /// Ends the lesson; the review drill goes on with its queue.
    pub fn end_lesson(&mut self, now: Timestamp) {
        if self.lesson.take().is_some() {
            self.next_line(now);
        }
    }

    /// Begins `line` (or the next line of the lesson that still has a new card), or ends
    /// the lesson when there is none.
    pub(super) fn begin_line(&mut self, line: Option<LineId>, now: Timestamp) {
        let mut next = line;
        loop {
            let Some(lesson) = self.lesson.as_mut() else {
                return;
            };
            let Some(line) = next.or_else(|| lesson.lines.pop_front()) else {
                self.end_lesson(now);
                return;
            };
            next = None;
            let learner = self.session.learner();
            let fresh: Vec<usize> = self
                .deck
                .line_decision_cards(line)
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| {
                    self.deck
                        .cards()
                        .get(c)
                        .is_some_and(|card| self.schedule.card(learner, &card.key).is_none())
                })
                .collect();
            if fresh.is_empty() {
                lesson.done += 1;
                continue;
            }
            lesson.line = line;
            lesson.moves = self.session.graph().line_moves(line).to_vec();
            lesson.ply = 0;
            lesson.quiz = false;
            lesson.at_end = false;
            lesson.fresh = fresh;
            lesson.missed = None;
            break;
        }
        self.lesson_arrive(now);
    }

    /// Plays the line's moves up to the learner's next move and shows or asks it; at the
    /// end of the line, asks it from the start, or goes on to the next line.
    fn lesson_arrive(&mut self, now: Timestamp) {
        self.attempt = None;
        self.learn = None;
        let learner = self.session.learner();
        let Some(lesson) = self.lesson.as_mut() else {
            return;
        };
        // The opponent's moves are played for them.
        let mut pos = shakmaty::Chess::default();
        for &mv in &lesson.moves[..lesson.ply] {
            pos.play_unchecked(mv);
        }
        while lesson.ply < lesson.moves.len() && pos.turn() != learner {
            pos.play_unchecked(lesson.moves[lesson.ply]);
            lesson.ply += 1;
        }
        if lesson.ply >= lesson.moves.len() {
            if lesson.quiz {
                lesson.done += 1;
                self.begin_line(None, now);
            } else {
                // The line's last position stays on the board until the learner goes on.
                lesson.at_end = true;
                let all = lesson.moves.clone();
                if self.session.start_after(&all).is_err() {
                    self.begin_line(None, now);
                }
            }
            return;
        }
        let upto = lesson.moves[..lesson.ply].to_vec();
        let mv = lesson.moves[lesson.ply];
        let quiz = lesson.quiz;
        if self.session.start_after(&upto).is_err() {
            // The line left the book the drill plays (it cannot): skip it.
            self.begin_line(None, now);
            return;
        }
        let Some(card) = self.session.node().and_then(|n| self.deck.index_at(n)) else {
            self.begin_line(None, now);
            return;
        };
        if quiz {
            self.attempt = Some(Attempt {
                card,
                wrong: 0,
                helped: false,
                presented: now,
            });
        } else {
            self.learn = Some(self.lesson_card(card, mv));
        }
    }

    /// After the line was shown to its end: the quiz starts from the line's start;
    /// whether it did.
    pub(super) fn lesson_quiz(&mut self, now: Timestamp) -> bool {
        let Some(lesson) = self.lesson.as_mut().filter(|l| l.at_end) else {
            return false;
        };
        lesson.at_end = false;
        lesson.quiz = true;
        lesson.ply = 0;
        self.lesson_arrive(now);
        true
    }

    /// The hint during a lesson: the line's move as an arrow (the whole move at once,
    /// counted as help when the line is asked).
    pub(super) fn lesson_hint(&mut self) -> Option<Hint> {
        let lesson = self.lesson.as_ref()?;
        let mv = *lesson.moves.get(lesson.ply)?;
        if lesson.at_end || self.session.position().turn() != self.session.learner() {
            return None;
        }
        let hint = Hint {
            from: mv.from()?,
            to: Some(mv.to()),
        };
        self.session.set_hint(hint);
        if let Some(a) = &mut self.attempt {
            a.helped = true;
        }
        Some(hint)
    }

    /// The line's move at card `card`, with the source's comment and arrows there.
    fn lesson_card(&self, card: usize, mv: Move) -> LearnCard {
        let graph = self.session.graph();
        let (line, ply) = self
            .lesson
            .as_ref()
            .map_or((LineId(0), 0), |l| (l.line, l.ply));
        let note = graph
            .line(line)
            .annotations
            .iter()
            .find(|a| a.ply as usize == ply);
        let san = self
            .session
            .node()
            .map_or_else(String::new, |n| graph.san(n, mv).to_string());
        LearnCard {
            card,
            mv,
            san,
            comment: note.and_then(|a| a.comment.clone()),
            arrows: note.map(|a| a.arrows.clone()).unwrap_or_default(),
        }
    }

    /// The learner's move during a lesson: the line's move goes on (and, when asked, is
    /// graded at a new card); another move is refused and, when asked, counts wrong.
    pub(super) fn lesson_play(
        &mut self,
        mv: Move,
        now: Timestamp,
    ) -> (MoveOutcome, Option<Graded>) {
        let Some(lesson) = self.lesson.as_mut() else {
            return (MoveOutcome::Rejected, None);
        };
        let Some(&expected) = lesson.moves.get(lesson.ply) else {
            return (MoveOutcome::Rejected, None);
        };
        if mv != expected {
            if self.session.position().is_legal(mv) {
                // Blindfold: the pieces come back until the right move.
                self.session.reveal();
                lesson.missed = Some(
                    shakmaty::san::SanPlus::from_move(self.session.position().clone(), mv)
                        .to_string(),
                );
                if let Some(a) = &mut self.attempt {
                    a.wrong += 1;
                }
            }
            return (MoveOutcome::Rejected, None);
        }
        lesson.missed = None;
        lesson.ply += 1;
        let fresh = lesson.fresh.clone();
        let san = shakmaty::san::SanPlus::from_move(self.session.position().clone(), mv);
        self.commit();
        let graded = match self.attempt.take() {
            Some(a) if fresh.contains(&a.card) => self.grade(a, now),
            _ => None,
        };
        self.lesson_arrive(now);
        (
            MoveOutcome::Accepted {
                san: san.to_string(),
                transposed_to: None,
            },
            graded,
        )
    }

    /// "Show me" during a lesson: the line's move, counted as help.
    pub(super) fn lesson_show_me(
        &mut self,
        now: Timestamp,
    ) -> (Option<MoveOutcome>, Option<Graded>) {
        if let Some(a) = &mut self.attempt {
            a.helped = true;
        }
        let Some(mv) = self
            .lesson
            .as_ref()
            .and_then(|l| l.moves.get(l.ply).copied())
        else {
            return (None, None);
        };
        let (outcome, graded) = self.lesson_play(mv, now);
        (Some(outcome), graded)
    }
}
