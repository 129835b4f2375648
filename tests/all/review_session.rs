//! Review sessions chosen (due, this week, the most common, the hardest, all, a branch,
//! a chapter), each against a direct computation on a real repertoire with a review
//! log made here (cards of known due dates and difficulties); grades from the first try,
//! the hint and the time; "Learn new lines" showing a line, then asking it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::collections::BTreeSet;
use std::sync::Arc;

use hastings::book::{ImportMode, LineSource, PositionGraph};
use hastings::review::study::{DeckStates, QueueReason};
use hastings::review::{
    CardKey, Deck, GradeSettings, Rating, ReviewRecord, Schedule, Scheduler, SessionChoice, Study,
    Timestamp,
};
use hastings::sampler::Style;
use hastings::trainer::review_drill::{ReviewDrill, ReviewSettings, ReviewStep};
use hastings::trainer::{MoveOutcome, Session};
use shakmaty::{Chess, Color, Move, Position};

use crate::common;

/// The repertoire fixture alone (two chapters, White).
fn repertoire() -> Arc<PositionGraph> {
    let import = common::import_fixture("repertoire.pgn", ImportMode::Repertoire);
    Arc::new(PositionGraph::build(import.lines).graph)
}

fn now() -> Timestamp {
    Timestamp::parse_rfc3339("2025-06-10T10:00:00+00:00").unwrap()
}

fn review(card: &CardKey, rating: Rating, time: Timestamp) -> ReviewRecord {
    ReviewRecord {
        time,
        color: Color::White,
        rating,
        seconds: 3.0,
        fuzz: false,
        card: card.clone(),
    }
}

/// A log over the deck's first cards: each reviewed 1 to 9 days ago, with ratings
/// cycling through Again, Hard, Good, Easy (so the due dates and difficulties differ),
/// the Easy ones also 40 days ago (due after the week); the last third stays new.
fn log(deck: &Deck) -> Vec<ReviewRecord> {
    let ratings = [Rating::Again, Rating::Hard, Rating::Good, Rating::Easy];
    let reviewed = deck.len() * 2 / 3;
    let mut records: Vec<ReviewRecord> = (0..reviewed)
        .filter(|i| i % 4 == 3)
        .map(|i| review(&deck.cards()[i].key, Rating::Easy, now().plus_days(-40)))
        .collect();
    records.extend((0..reviewed).map(|i| {
        let time = now().plus_days(-(i as i64 % 9) - 1);
        review(&deck.cards()[i].key, ratings[i % 4], time)
    }));
    records
}

struct Fixture {
    graph: Arc<PositionGraph>,
    deck: Deck,
    schedule: Schedule,
    states: DeckStates,
    scheduler: Scheduler,
}

impl Fixture {
    fn new() -> Fixture {
        let graph = repertoire();
        let deck = Deck::new(&graph, Color::White);
        let scheduler = Scheduler::default();
        let schedule = Schedule::replay(&scheduler, &log(&deck));
        let states = DeckStates::new(&deck, &schedule);
        Fixture {
            graph,
            deck,
            schedule,
            states,
            scheduler,
        }
    }

    fn session(&self, choice: &SessionChoice) -> Vec<usize> {
        Study {
            deck: &self.deck,
            schedule: &self.schedule,
            states: &self.states,
            scheduler: &self.scheduler,
            now: now(),
        }
        .session(choice, &self.graph, 20)
        .into_iter()
        .map(|e| e.card)
        .collect()
    }

    fn state(&self, i: usize) -> Option<&hastings::review::CardState> {
        self.schedule.card(Color::White, &self.deck.cards()[i].key)
    }
}

#[test]
fn due_this_week_is_every_card_due_within_seven_days_soonest_first() {
    let f = Fixture::new();
    let week_end = now().start_of_day(now().day() + 7);
    let mut expected: Vec<(i64, usize)> = (0..f.deck.len())
        .filter_map(|i| {
            let due = f.state(i)?.due?;
            (due.unix_ms() < week_end.unix_ms()).then_some((due.unix_ms(), i))
        })
        .collect();
    expected.sort();
    let expected: Vec<usize> = expected.into_iter().map(|(_, i)| i).collect();
    assert!(!expected.is_empty());
    let later = (0..f.deck.len()).filter(|&i| f.state(i).is_some()).count() - expected.len();
    assert!(
        later > 0,
        "some cards fall due after the week: the test can fail"
    );
    assert_eq!(f.session(&SessionChoice::Week), expected);
}

#[test]
fn the_hardest_are_the_reviewed_cards_by_fsrs_difficulty() {
    let f = Fixture::new();
    let mut expected: Vec<(f32, usize)> = (0..f.deck.len())
        .filter_map(|i| Some((f.state(i)?.memory?.difficulty, i)))
        .collect();
    expected.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let expected: Vec<usize> = expected.into_iter().take(5).map(|(_, i)| i).collect();
    let got = f.session(&SessionChoice::Difficult(5));
    assert_eq!(got, expected);
    // An Again first makes a card harder than an Easy one.
    let first = f.state(got[0]).unwrap();
    assert_eq!(first.last_rating, Some(Rating::Again));
}

/// The probability that a drill reaches each position, walking every path of the real
/// drill: at the opponent's turn the session's reply distribution (the chart's exact
/// P), at the learner's the book moves shared evenly.
fn drill_reach(graph: &Arc<PositionGraph>) -> Vec<(String, f64)> {
    let mut reach: std::collections::BTreeMap<String, f64> = Default::default();
    let mut stack: Vec<(Vec<Move>, f64)> = vec![(Vec::new(), 1.0)];
    while let Some((moves, p)) = stack.pop() {
        let s = Session::from_moves(Arc::clone(graph), Color::White, Style::neutral(), 1, &moves)
            .unwrap();
        let pos = s.position().clone();
        *reach
            .entry(CardKey::from_position(&pos).to_string())
            .or_default() += p;
        let children: Vec<(Move, f64)> = if pos.turn() == Color::White {
            let book = s.book_moves();
            let n = book.len() as f64;
            book.iter().map(|b| (b.mv, 1.0 / n)).collect()
        } else {
            s.distribution()
                .candidates
                .iter()
                .map(|c| (c.mv, c.p))
                .collect()
        };
        for (mv, q) in children {
            let mut next = moves.clone();
            next.push(mv);
            stack.push((next, p * q));
        }
    }
    reach.into_iter().collect()
}

#[test]
fn the_most_common_are_the_cards_a_drill_reaches_most() {
    let f = Fixture::new();
    let mut deck = f.deck.clone();
    hastings::trainer::coverage::set_exact_reach(&mut deck, &f.graph, &Style::neutral());
    let direct = drill_reach(&f.graph);
    for card in deck.cards() {
        let want = direct
            .iter()
            .find(|(k, _)| *k == card.key.to_string())
            .map_or(0.0, |(_, p)| *p);
        assert!(
            (card.reach - want).abs() < 1e-9,
            "{}: {} vs {want}",
            card.line(),
            card.reach
        );
    }
    let study = Study {
        deck: &deck,
        schedule: &f.schedule,
        states: &f.states,
        scheduler: &f.scheduler,
        now: now(),
    };
    let got: Vec<usize> = study
        .session(&SessionChoice::Common(4), &f.graph, 20)
        .into_iter()
        .map(|e| e.card)
        .collect();
    let mut expected: Vec<usize> = (0..deck.len()).collect();
    expected.sort_by(|&a, &b| deck.cards()[b].reach.total_cmp(&deck.cards()[a].reach));
    expected.truncate(4);
    assert_eq!(got, expected);
    assert_eq!(got[0], 0, "every drill starts at the first card");
}

#[test]
fn all_a_branch_and_a_chapter_draw_their_positions_nearest_first() {
    let f = Fixture::new();
    let all = f.session(&SessionChoice::All);
    assert_eq!(all, (0..f.deck.len()).collect::<Vec<_>>());
    let depth = |i: usize| f.deck.cards()[i].moves.len();
    assert!(all.windows(2).all(|w| depth(w[0]) <= depth(w[1])));

    // The branch after 1.e4 c5: every card whose way there starts with them.
    let branch = common::san_moves("e4 c5");
    let got = f.session(&SessionChoice::Branch(branch.clone()));
    let expected: Vec<usize> = (0..f.deck.len())
        .filter(|&i| f.deck.cards()[i].moves.starts_with(&branch))
        .collect();
    assert!(expected.len() >= 3);
    assert_eq!(got, expected);

    // Chapter 2 (Against the Sicilian): the positions before a White move of its lines.
    let mut keys = BTreeSet::new();
    for line in f.graph.lines() {
        if matches!(line.source, LineSource::Pgn { game: 2, .. }) {
            let mut pos = Chess::default();
            for &mv in &line.moves {
                if pos.turn() == Color::White {
                    keys.insert(CardKey::from_position(&pos).to_string());
                }
                pos.play_unchecked(mv);
            }
        }
    }
    let got = f.session(&SessionChoice::Chapter(2));
    let got_keys: BTreeSet<String> = got
        .iter()
        .map(|&i| f.deck.cards()[i].key.to_string())
        .collect();
    assert_eq!(got_keys, keys);
    assert!(got.windows(2).all(|w| w[0] < w[1]), "in deck order");
    // The start is in both chapters; Bc4 (chapter 1 only) is not in chapter 2.
    assert!(
        !got_keys.contains(
            &CardKey::from_position(&common::position_after("e4 e5 Nf3 Nc6")).to_string()
        )
    );
}

#[test]
fn due_now_is_the_daily_queue_and_chosen_sessions_mark_early_cards() {
    let f = Fixture::new();
    let study = Study {
        deck: &f.deck,
        schedule: &f.schedule,
        states: &f.states,
        scheduler: &f.scheduler,
        now: now(),
    };
    let due = study.session(&SessionChoice::Due, &f.graph, 20);
    assert_eq!(due, study.queue(hastings::review::SessionKind::Due, 20));
    let all = study.session(&SessionChoice::All, &f.graph, 20);
    for e in &all {
        let expected = match f.state(e.card) {
            None => QueueReason::New,
            Some(s) if s.is_due(now()) => QueueReason::Due,
            Some(_) => QueueReason::Early,
        };
        assert_eq!(e.reason, expected);
    }
    assert!(all.iter().any(|e| e.reason == QueueReason::Early));
}

/// A review drill on the repertoire with no card reviewed yet, not showing new cards
/// first, lines started at the first card, grading slow answers after 10 s.
fn drill(at: Timestamp) -> ReviewDrill {
    let graph = repertoire();
    let deck = Arc::new(Deck::new(&graph, Color::White));
    let session = Session::new(graph, Color::White, Style::neutral(), 3);
    let settings = ReviewSettings {
        learn_new: false,
        fuzz: false,
        lead_in: Some(0),
        grade: GradeSettings { slow_seconds: 10.0 },
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

fn first_book_move(d: &ReviewDrill) -> Move {
    d.session().book_moves()[0].mv
}

#[test]
fn a_fast_answer_is_good_a_slow_one_hard_and_one_after_a_hint_hard() {
    let t0 = now();
    for (seconds, hint, expected) in [
        (2, false, Rating::Good),
        (30, false, Rating::Hard),
        (2, true, Rating::Hard),
    ] {
        let mut d = drill(t0);
        assert!(matches!(d.step(), ReviewStep::Ask { .. }));
        if hint {
            assert!(d.ask_hint().is_some());
        }
        let mv = first_book_move(&d);
        let (_, graded) = d.play(mv, t0.plus_ms(seconds * 1000));
        let graded = graded.expect("the card was graded");
        assert_eq!(graded.rating, expected, "{seconds} s, hint {hint}");
        let records = d.finish();
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].seconds, seconds as f32);
        assert_eq!(records[0].rating, expected);
    }
}

#[test]
fn learn_new_lines_shows_a_line_move_by_move_then_asks_it_and_grades_its_new_cards() {
    let t0 = now();
    let mut d = drill(t0);
    let lines = d.study(t0).new_lines(d.session().graph(), 2);
    assert_eq!(lines.len(), 2, "two new lines a day");
    let line = lines[0];
    let moves = d.session().graph().line_moves(line).to_vec();
    d.learn_lines(lines, t0);
    assert_eq!(d.lesson().unwrap().line(), line);

    // Shown: each White move of the line as the card to play, Black's played for us.
    let mut shown = Vec::new();
    for _ in 0..moves.len() {
        let ReviewStep::Learn(card) = d.step() else {
            break;
        };
        let ply = d.session().moves().len();
        assert_eq!(card.mv, moves[ply], "the line's move at ply {ply}");
        assert_eq!(
            d.session().moves().iter().map(|m| m.mv).collect::<Vec<_>>(),
            moves[..ply]
        );
        // Another move is refused.
        let other = d
            .session()
            .position()
            .legal_moves()
            .into_iter()
            .find(|m| *m != card.mv)
            .unwrap();
        assert!(d.play(other, t0).1.is_none());
        assert!(d.lesson().unwrap().missed().is_some());
        shown.push(card.mv);
        let (_, graded) = d.play(card.mv, t0);
        assert!(graded.is_none(), "showing grades nothing");
    }
    let white: Vec<Move> = moves.iter().step_by(2).copied().collect();
    assert_eq!(shown, white, "every White move of the line was shown");

    // Its last position shown (the whole line on the board), not yet asked.
    let lesson = d.lesson().unwrap();
    assert!(
        lesson.at_end() && !lesson.is_quiz(),
        "the last position first"
    );
    assert_eq!(
        d.session().moves().iter().map(|m| m.mv).collect::<Vec<_>>(),
        moves,
        "the board shows the line's last position"
    );
    assert!(d.teaches(), "still showing");
    d.learned(t0);

    // Asked: from the start, graded.
    assert!(d.lesson().unwrap().is_quiz());
    assert_eq!(d.session().moves().len(), 0);
    let mut ratings = Vec::new();
    let mut wrong_once = false;
    while d.lesson().is_some_and(|l| l.line() == line) {
        let ReviewStep::Ask { .. } = d.step() else {
            panic!("the quiz asks each move");
        };
        let ply = d.session().moves().len();
        if !wrong_once {
            let other = d
                .session()
                .position()
                .legal_moves()
                .into_iter()
                .find(|m| *m != moves[ply])
                .unwrap();
            d.play(other, t0);
            wrong_once = true;
        }
        let (_, graded) = d.play(moves[ply], t0.plus_ms(1000));
        ratings.push(graded.map(|g| g.rating));
    }
    assert_eq!(ratings.len(), white.len());
    assert_eq!(
        ratings[0],
        Some(Rating::Again),
        "a wrong first try is Again"
    );
    assert!(ratings[1..].iter().all(|r| *r == Some(Rating::Good)));
    let records = d.take_reviews();
    let mut all = records;
    all.extend(d.finish());
    assert_eq!(
        all.len(),
        white.len(),
        "each new card of the line was graded once"
    );
}

/// Plays a lesson's shown pass of its line to the end (each move shown, played).
fn show_the_line(d: &mut ReviewDrill, t: Timestamp) {
    while let ReviewStep::Learn(card) = d.step() {
        let (outcome, _) = d.play(card.mv, t);
        assert!(matches!(outcome, MoveOutcome::Accepted { .. }));
    }
}

#[test]
fn a_lesson_line_that_ends_on_the_learners_move_shows_its_last_position_before_the_quiz() {
    let t0 = now();
    let mut d = drill(t0);
    // The same lines as the drill's book (the fixture built again).
    let graph = repertoire();
    let lines = d.study(t0).new_lines(&graph, 20);
    let line = *lines
        .iter()
        .find(|&&l| graph.line_moves(l).len() % 2 == 1)
        .expect("a line ending on White's move");
    let moves = graph.line_moves(line).to_vec();
    d.learn_lines(vec![line], t0);
    show_the_line(&mut d, t0);
    // The learner's last move is on the board, the line at its end: not yet asked.
    assert_eq!(
        d.session().moves().iter().map(|m| m.mv).collect::<Vec<_>>(),
        moves,
        "the last position is shown"
    );
    let lesson = d.lesson().unwrap();
    assert!(lesson.at_end() && !lesson.is_quiz());
    assert!(matches!(d.step(), ReviewStep::Play), "nothing asked yet");
    // Next line (the drill panel's button at the end of a line) asks it from the start.
    d.next_line(t0);
    assert!(d.lesson().unwrap().is_quiz(), "the same line, asked");
    assert_eq!(d.lesson().unwrap().line(), line);
    assert!(d.session().moves().is_empty());
    assert!(matches!(d.step(), ReviewStep::Ask { .. }));
}

#[test]
fn the_hint_in_a_lesson_shows_the_lines_move_and_counts_as_help() {
    let t0 = now();
    let mut d = drill(t0);
    // The same lines as the drill's book (the fixture built again).
    let graph = repertoire();
    let lines = d.study(t0).new_lines(&graph, 1);
    let line = lines[0];
    let moves = graph.line_moves(line).to_vec();
    d.learn_lines(lines, t0);
    // While shown: the hint is the move shown.
    let ReviewStep::Learn(card) = d.step() else {
        panic!("the line is shown first");
    };
    let hint = d.ask_hint().expect("a hint while the line is shown");
    assert_eq!(
        (Some(hint.from), hint.to),
        (card.mv.from(), Some(card.mv.to()))
    );
    show_the_line(&mut d, t0);
    d.learned(t0);
    // Asked: the hint is the line's move as an arrow (the whole move at once).
    let ReviewStep::Ask { .. } = d.step() else {
        panic!("the line is asked");
    };
    let ply = d.session().moves().len();
    let expected = moves[ply];
    let hint = d.ask_hint().expect("a hint while the line is asked");
    assert_eq!(hint.from, expected.from().unwrap());
    assert_eq!(hint.to, Some(expected.to()), "the whole move: an arrow");
    assert_eq!(d.session().hint(), Some(hint), "the board shows it");
    // A fast right answer after the hint is Hard, not Good.
    let (_, graded) = d.play(expected, t0.plus_ms(1000));
    assert_eq!(graded.expect("the new card graded").rating, Rating::Hard);
    // The next move, without a hint, is Good.
    let ply = d.session().moves().len();
    let (_, graded) = d.play(moves[ply], t0.plus_ms(2000));
    assert_eq!(graded.expect("graded").rating, Rating::Good);
}
