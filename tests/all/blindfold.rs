//! Blindfold training's state on a real repertoire (the fixture `repertoire.pgn`): what
//! the board shows after move N (no pieces), after a mistake (the pieces again, until
//! the learner's next right move), while a line is looked back on; in the ordinary
//! drill, in review mode and in "Learn new lines" (shown with its pieces, asked
//! without).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::Arc;

use hastings::book::{ImportMode, PositionGraph};
use hastings::review::{Deck, Schedule, Scheduler, Timestamp};
use hastings::sampler::Style;
use hastings::trainer::review_drill::{ReviewDrill, ReviewSettings, ReviewStep};
use hastings::trainer::{MoveOutcome, Phase, Session};
use shakmaty::{Color, Move, Position};

use crate::common;

fn repertoire() -> Arc<PositionGraph> {
    let import = common::import_fixture("repertoire.pgn", ImportMode::Repertoire);
    Arc::new(PositionGraph::build(import.lines).graph)
}

/// A legal move of the side to move that leaves the book.
fn wrong_move(s: &Session) -> Move {
    let pos = s.position();
    pos.legal_moves()
        .into_iter()
        .find(|&m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            s.graph().lookup(&next).is_none()
        })
        .expect("a move outside the repertoire")
}

/// Whether the pieces should be hidden at the position shown, by the rule: past
/// Black's move `after` (the move number of the position shown above it).
fn past(s: &Session, after: u32) -> bool {
    s.display_position().fullmoves().get() > after
}

#[test]
fn the_pieces_go_after_move_n_come_back_after_a_mistake_until_the_next_right_move() {
    for seed in 1..=4 {
        let mut s = Session::new(repertoire(), Color::White, Style::neutral(), seed);
        assert!(!s.hides_pieces(), "off by default");
        s.set_blindfold(Some(2));
        let mut hidden_seen = 0;
        let mut mistakes = 0;
        for _ in 0..100 {
            assert_eq!(
                s.hides_pieces(),
                past(&s, 2),
                "after {} plies",
                s.moves().len()
            );
            match s.phase().clone() {
                Phase::LearnerToMove => {
                    if s.hides_pieces() {
                        hidden_seen += 1;
                        if mistakes < 2 {
                            // A mistake: the pieces come back, and stay after Try again.
                            let wrong = wrong_move(&s);
                            assert_eq!(s.play(wrong), MoveOutcome::OutOfBook);
                            assert!(!s.hides_pieces(), "shown with the wrong move");
                            s.try_again();
                            assert!(!s.hides_pieces(), "shown until the right move");
                            if mistakes == 1 {
                                // Another wrong move: still shown.
                                s.play(wrong);
                                s.try_again();
                                assert!(!s.hides_pieces());
                            }
                            mistakes += 1;
                        }
                    }
                    let right = s.book_moves()[0].mv;
                    assert!(matches!(s.play(right), MoveOutcome::Accepted { .. }));
                    assert_eq!(s.hides_pieces(), past(&s, 2), "hidden again");
                }
                Phase::ComputerToMove => {
                    s.reply().unwrap();
                }
                Phase::EndOfLine { .. } => break,
                Phase::OutOfBook { .. } => unreachable!("the mistakes are taken back"),
            }
        }
        assert!(hidden_seen >= 1, "seed {seed}: the line went past move 2");
        assert_eq!(mistakes, 2.min(hidden_seen));
        // Looking back at move 1: its position has its pieces; back to the end: none.
        s.view(2);
        assert!(
            !s.hides_pieces(),
            "the position after 1...e5 or c5 is shown"
        );
        s.view(s.moves().len());
        assert!(s.hides_pieces());
        // A new line starts with the pieces (before move 2), and goes blind again.
        s.new_line();
        assert!(!s.hides_pieces());
        // From the start with 0.
        s.set_blindfold(Some(0));
        assert!(s.hides_pieces(), "0: from the first move");
        s.set_blindfold(None);
        assert!(!s.hides_pieces());
    }
}

/// A review drill on the repertoire with no card reviewed yet, lines from the start.
fn review_drill(at: Timestamp, after: u32) -> ReviewDrill {
    let graph = repertoire();
    let deck = Arc::new(Deck::new(&graph, Color::White));
    let mut session = Session::new(graph, Color::White, Style::neutral(), 3);
    session.set_blindfold(Some(after));
    let settings = ReviewSettings {
        learn_new: false,
        fuzz: false,
        ..ReviewSettings::default()
    };
    ReviewDrill::new(
        session,
        deck,
        Scheduler::default(),
        Schedule::default(),
        settings,
        at,
    )
}

fn now() -> Timestamp {
    Timestamp::parse_rfc3339("2025-06-10T10:00:00+00:00").unwrap()
}

#[test]
fn review_mode_asks_blindfold_and_shows_the_pieces_after_a_wrong_answer() {
    let t0 = now();
    let mut d = review_drill(t0, 1);
    let mut wrong_once = false;
    for _ in 0..60 {
        let s = d.session();
        match s.phase() {
            Phase::LearnerToMove => {
                assert_eq!(s.hides_pieces(), past(s, 1));
                if s.hides_pieces() && !wrong_once {
                    let wrong = wrong_move(s);
                    let (outcome, _) = d.play(wrong, t0);
                    assert_eq!(outcome, MoveOutcome::OutOfBook);
                    d.try_again();
                    assert!(!d.session().hides_pieces(), "a wrong answer shows them");
                    wrong_once = true;
                }
                let right = d.session().book_moves()[0].mv;
                d.play(right, t0);
                assert_eq!(d.session().hides_pieces(), past(d.session(), 1));
            }
            Phase::ComputerToMove => {
                d.reply(t0).unwrap();
            }
            _ => break,
        }
    }
    assert!(wrong_once, "the line went past move 1");
}

#[test]
fn a_lesson_shows_its_line_with_the_pieces_and_asks_it_blindfold() {
    let t0 = now();
    let mut d = review_drill(t0, 1);
    let lines = d.study(t0).new_lines(&repertoire(), 1);
    let moves = repertoire().line_moves(lines[0]).to_vec();
    d.learn_lines(lines, t0);
    // Shown: taught with the pieces, past move 1 too (the session alone would hide).
    let mut taught_past = false;
    while let ReviewStep::Learn(card) = d.step() {
        assert!(d.teaches());
        taught_past |= d.session().hides_pieces();
        d.play(card.mv, t0);
    }
    assert!(taught_past, "the session hides, the lesson teaches");
    assert!(d.teaches(), "the last position is shown");
    d.learned(t0);
    // Asked: blindfold past move 1; a wrong move brings them back until the right one.
    let mut wrong_once = false;
    while d.lesson().is_some_and(|l| l.is_quiz()) {
        assert!(!d.teaches());
        let ply = d.session().moves().len();
        assert_eq!(
            d.session().hides_pieces(),
            past(d.session(), 1),
            "ply {ply}"
        );
        if d.session().hides_pieces() && !wrong_once {
            let other = d
                .session()
                .position()
                .legal_moves()
                .into_iter()
                .find(|m| *m != moves[ply])
                .unwrap();
            let (outcome, _) = d.play(other, t0);
            assert_eq!(outcome, MoveOutcome::Rejected, "the lesson refuses it");
            assert!(!d.session().hides_pieces(), "shown after the wrong move");
            wrong_once = true;
        }
        d.play(moves[ply], t0);
    }
    assert!(wrong_once, "the quiz went past move 1");
}
