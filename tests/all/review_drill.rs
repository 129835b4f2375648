//! Review mode: grades from the drill's outcome, Again coming back, learn mode, lead-in.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::{Arc, LazyLock};

use hastings::book::{ImportMode, PositionGraph};
use hastings::review::{
    CardKey, Deck, DeckStates, Rating, ReviewRecord, Schedule, Scheduler, Study, Timestamp,
};
use hastings::sampler::Style;
use hastings::trainer::review_drill::{AGAIN_GAP, ReviewDrill, ReviewSettings, ReviewStep};
use hastings::trainer::{MoveOutcome, Session};
use shakmaty::{Chess, Color, Move, Square, san::San};

use crate::common;
use common::position_after;

static REPERTOIRE: LazyLock<Arc<PositionGraph>> = LazyLock::new(|| {
    let import = common::import_fixture("repertoire.pgn", ImportMode::Auto);
    Arc::new(PositionGraph::build(import.lines).graph)
});

fn now() -> Timestamp {
    Timestamp::parse_rfc3339("2025-03-10T12:00:00+01:00").unwrap()
}

fn mv(pos: &Chess, san: &str) -> Move {
    San::from_ascii(san.as_bytes())
        .unwrap()
        .to_move(pos)
        .unwrap()
}

fn drill(settings: ReviewSettings, schedule: Schedule) -> ReviewDrill {
    let session = Session::new(Arc::clone(&REPERTOIRE), Color::White, Style::neutral(), 3);
    let deck = Arc::new(Deck::new(&REPERTOIRE, Color::White));
    ReviewDrill::new(
        session,
        deck,
        Scheduler::default(),
        schedule,
        settings,
        now(),
    )
}

fn no_learn() -> ReviewSettings {
    ReviewSettings {
        learn_new: false,
        fuzz: false,
        ..ReviewSettings::default()
    }
}

fn start_card(d: &ReviewDrill) -> usize {
    d.deck()
        .index_of(&CardKey::from_position(&Chess::default()))
        .unwrap()
}

#[test]
fn a_fresh_profile_queues_every_new_card_and_asks_the_start_first() {
    let d = drill(no_learn(), Schedule::default());
    assert_eq!(d.queue().len(), d.deck().len());
    assert_eq!(
        d.step(),
        ReviewStep::Ask {
            card: start_card(&d)
        }
    );
}

#[test]
fn right_at_the_first_try_is_good_and_can_become_easy() {
    let mut d = drill(no_learn(), Schedule::default());
    let start = start_card(&d);
    let (outcome, graded) = d.play(mv(&Chess::default(), "e4"), now().plus_ms(4_000));
    assert!(matches!(outcome, MoveOutcome::Accepted { .. }));
    let g = graded.unwrap();
    assert_eq!((g.card, g.rating), (start, Rating::Good));
    assert_eq!(g.state.interval_days, 2, "graduates at once");
    assert!(d.take_reviews().is_empty(), "the last grade waits for Easy");
    assert_eq!(d.mark_easy().unwrap().rating, Rating::Easy);
    let reviews = d.finish();
    assert_eq!(reviews.len(), 1);
    assert_eq!(reviews[0].rating, Rating::Easy);
    assert_eq!(reviews[0].seconds, 4.0);
    assert_eq!(reviews[0].card, CardKey::from_position(&Chess::default()));
    assert!(!d.queue().any(|c| c == start));
    assert_eq!(d.schedule().review_count(), 1);
    let counts = d.study(now()).counts(20);
    assert_eq!(
        (counts.learned, counts.new, counts.due),
        (1, d.deck().len() - 1, 0)
    );
    assert_eq!(
        d.study(now()).forecast(30)[8],
        1,
        "Easy on a new card: 8.3 days, due in 8"
    );
}

#[test]
fn a_hint_makes_a_right_answer_hard() {
    let mut d = drill(no_learn(), Schedule::default());
    d.ask_hint().unwrap();
    let (_, graded) = d.play(mv(&Chess::default(), "e4"), now());
    assert_eq!(graded.unwrap().rating, Rating::Hard);
    assert!(d.mark_easy().is_none(), "only Good can become Easy");
}

#[test]
fn a_wrong_first_try_is_again_and_the_card_comes_back_the_same_session() {
    let mut d = drill(no_learn(), Schedule::default());
    let start = start_card(&d);
    let (outcome, graded) = d.play(mv(&Chess::default(), "d4"), now());
    assert_eq!(outcome, MoveOutcome::OutOfBook);
    assert!(graded.is_none());
    d.try_again();
    let (_, graded) = d.play(mv(&Chess::default(), "e4"), now().plus_ms(9_000));
    let g = graded.unwrap();
    assert_eq!(g.rating, Rating::Again);
    assert!(g.state.is_due(now()), "due again the same day");
    let at = d.queue().position(|c| c == start).unwrap();
    assert_eq!(at, AGAIN_GAP, "back a few cards later");
    // Play on, always the book's most popular move, starting new lines, until the start
    // card is asked again.
    let mut asked_again = false;
    for _ in 0..200 {
        match d.step() {
            ReviewStep::Ask { card } if card == start => {
                asked_again = true;
                break;
            }
            ReviewStep::Done => break,
            _ => {}
        }
        if d.session().reply_pending() {
            d.reply(now());
        } else if let Some(best) = d.session().distribution().most_popular().map(|c| c.mv) {
            d.play(best, now());
        } else {
            d.next_line(now());
        }
    }
    assert!(asked_again, "the card answered Again came back");
    // Answered 5 s after it was asked again (past 15 s, a right answer is Hard).
    let (_, graded) = d.play(mv(&Chess::default(), "e4"), now().plus_ms(5_000));
    assert_eq!(graded.unwrap().rating, Rating::Good);
    let reviews = d.finish();
    let of_start: Vec<Rating> = reviews
        .iter()
        .filter(|r| r.card == CardKey::from_position(&Chess::default()))
        .map(|r| r.rating)
        .collect();
    assert_eq!(of_start, [Rating::Again, Rating::Good]);
}

#[test]
fn a_move_found_as_good_as_the_books_is_no_lapse_but_hard() {
    let mut d = drill(no_learn(), Schedule::default());
    let (outcome, _) = d.play(mv(&Chess::default(), "d4"), now());
    assert_eq!(outcome, MoveOutcome::OutOfBook);
    assert_eq!(d.session().mistakes_in_line(), 1);
    assert!(d.forgive_mistake());
    assert!(!d.forgive_mistake(), "forgiven once");
    assert_eq!(d.session().mistakes_in_line(), 0);
    d.try_again();
    let (_, graded) = d.play(mv(&Chess::default(), "e4"), now());
    assert_eq!(graded.unwrap().rating, Rating::Hard);
}

#[test]
fn forgiving_a_good_alternative_keeps_an_earlier_wrong_move_at_the_card() {
    let mut d = drill(no_learn(), Schedule::default());
    d.play(mv(&Chess::default(), "a4"), now());
    d.try_again();
    d.play(mv(&Chess::default(), "d4"), now());
    assert!(d.forgive_mistake());
    d.try_again();
    let (_, graded) = d.play(mv(&Chess::default(), "e4"), now());
    assert_eq!(graded.unwrap().rating, Rating::Again);
}

/// A schedule in which every card but `keep_new` was answered Good a minute ago.
fn all_reviewed_but(keep_new: &str) -> Schedule {
    let keep = CardKey::from_position(&position_after(keep_new));
    let deck = Deck::new(&REPERTOIRE, Color::White);
    let records: Vec<ReviewRecord> = deck
        .cards()
        .iter()
        .filter(|c| c.key != keep)
        .map(|c| ReviewRecord {
            time: now().plus_ms(-60_000),
            color: Color::White,
            rating: Rating::Good,
            seconds: 1.0,
            fuzz: false,
            card: c.key.clone(),
        })
        .collect();
    Schedule::replay(&Scheduler::default(), &records)
}

#[test]
fn a_new_card_is_shown_with_its_comment_and_arrows_before_it_is_asked() {
    let settings = ReviewSettings {
        lead_in: Some(0),
        fuzz: false,
        ..ReviewSettings::default()
    };
    let mut d = drill(settings, all_reviewed_but("e4 e5 Nf3 Nc6"));
    assert_eq!(d.queue().len(), 1);
    let ReviewStep::Learn(learn) = d.step() else {
        panic!("expected learn mode, got {:?}", d.step());
    };
    assert_eq!(learn.san, "Bc4");
    assert_eq!(learn.comment.as_deref(), Some("Aiming at f7."));
    assert_eq!(learn.arrows, [('G', Square::C4, Square::F7)]);
    let pos = d.session().position().clone();
    assert_eq!(
        d.play(mv(&pos, "Bc4"), now()).0,
        MoveOutcome::Rejected,
        "not while shown"
    );
    d.learned(now().plus_ms(2_000));
    assert_eq!(d.step(), ReviewStep::Ask { card: learn.card });
    let (_, graded) = d.play(mv(&pos, "Bc4"), now().plus_ms(5_000));
    assert_eq!(graded.unwrap().rating, Rating::Good);
    assert_eq!(
        d.finish()[0].seconds,
        3.0,
        "timed from the end of learn mode"
    );
    assert_eq!(d.step(), ReviewStep::Done);
}

#[test]
fn a_lead_in_starts_the_line_a_learner_move_before_the_card() {
    let settings = ReviewSettings {
        lead_in: Some(1),
        ..no_learn()
    };
    let d = drill(settings, all_reviewed_but("e4 e5 Nf3 Nc6 Bc4 Bc5"));
    let sans: Vec<&str> = d.session().moves().iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6"]);
}

#[test]
fn a_lead_in_of_zero_starts_at_the_cards_position_and_can_be_changed() {
    let settings = ReviewSettings {
        lead_in: Some(0),
        ..no_learn()
    };
    let mut d = drill(settings, all_reviewed_but("e4 e5 Nf3 Nc6 Bc4 Bc5"));
    let sans = |d: &ReviewDrill| -> Vec<String> {
        d.session().moves().iter().map(|m| m.san.clone()).collect()
    };
    assert_eq!(sans(&d), ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]);
    assert!(matches!(d.step(), ReviewStep::Ask { .. }), "{:?}", d.step());
    // From the next line on, from move 1.
    d.set_lead_in(None);
    d.next_line(now());
    assert!(d.session().moves().is_empty());
}

/// The per-line mastery after `good` were each answered right once, a minute later.
fn mastery_after(
    graph: &PositionGraph,
    learner: Color,
    good: &[CardKey],
) -> Vec<(String, usize, f64)> {
    let deck = Deck::new(graph, learner);
    let scheduler = Scheduler::default();
    let mut schedule = Schedule::default();
    for card in good {
        assert!(deck.index_of(card).is_some(), "a card of the deck");
        let record = ReviewRecord {
            time: now(),
            color: learner,
            rating: Rating::Good,
            seconds: 3.0,
            fuzz: false,
            card: card.clone(),
        };
        schedule.apply(&scheduler, &record);
    }
    let states = DeckStates::new(&deck, &schedule);
    let study = Study {
        deck: &deck,
        schedule: &schedule,
        states: &states,
        scheduler: &scheduler,
        now: now().plus_ms(60_000),
    };
    study
        .line_mastery(graph)
        .into_iter()
        .map(|m| (m.title, m.cards, m.mastery))
        .collect()
}

#[test]
fn a_shared_first_card_answered_right_masters_no_line() {
    // As Black on ECO, the position after 1.e4 is on every 1.e4 line, and any book
    // move there is right: answering it says nothing of 1...c5 or 1...e5.
    let eco = common::eco_graph();
    let after_e4 = CardKey::from_position(&position_after("e4"));
    let mastery = mastery_after(eco, Color::Black, &[after_e4]);
    let started: Vec<&(String, usize, f64)> = mastery.iter().filter(|m| m.2 > 0.0).collect();
    assert!(
        started.is_empty(),
        "{} lines look started, e.g. {:?}",
        started.len(),
        &started[..started.len().min(5)]
    );
}

#[test]
fn a_line_is_mastered_by_answering_its_own_moves() {
    // The repertoire as White: 1.e4 is its only first move, so answering the start
    // counts for every line, but no line is mastered by it alone.
    let keys = |sans: &[&str]| -> Vec<CardKey> {
        sans.iter()
            .map(|s| CardKey::from_position(&position_after(s)))
            .collect()
    };
    let only_start = mastery_after(&REPERTOIRE, Color::White, &keys(&[""]));
    assert!(!only_start.is_empty());
    for (title, cards, m) in &only_start {
        assert!(*cards >= 2, "{title}: {cards} cards");
        assert!(*m > 0.0 && *m < 0.75, "{title}: {m}");
    }
    // Every move of the Italian main line answered: that line is mastered.
    let italian = keys(&[
        "",
        "e4 e5",
        "e4 e5 Nf3 Nc6",
        "e4 e5 Nf3 Nc6 Bc4 Bc5",
        "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6",
        "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4 exd4",
    ]);
    let mastery = mastery_after(&REPERTOIRE, Color::White, &italian);
    let mastered: Vec<&(String, usize, f64)> = mastery.iter().filter(|m| m.2 > 0.99).collect();
    assert_eq!(mastered.len(), 1, "{mastery:?}");
    assert_eq!(mastered[0].1, italian.len());
    // 3...Nf6 4.d3 was never played: the moves before it, answered right, do not master
    // it (after 3...Nf6 the repertoire has 4.Ng5 too).
    let d3 = mastery_after(
        &REPERTOIRE,
        Color::White,
        &keys(&["", "e4 e5", "e4 e5 Nf3 Nc6"]),
    );
    assert!(d3.iter().all(|m| m.2 < 0.99), "{d3:?}");
}
