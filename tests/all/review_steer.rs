//! The review term steers the computer toward due cards, and the exact probabilities
//! with the term still equal the sampled frequencies.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::{Arc, LazyLock};

use hastings::book::PositionGraph;
use hastings::review::{
    CardKey, Deck, Rating, ReviewRecord, ReviewTerm, Schedule, Scheduler, SteerSettings, Timestamp,
};
use hastings::sampler::{Distribution, Style};
use hastings::trainer::review_drill::{ReviewDrill, ReviewSettings, ReviewStep};
use hastings::trainer::{ReviewSteering, Session};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::Color;

use crate::common;
use common::position_after as play;

static ECO: LazyLock<Arc<PositionGraph>> =
    LazyLock::new(|| Arc::new(PositionGraph::eco().unwrap()));
static DECK: LazyLock<Arc<Deck>> = LazyLock::new(|| Arc::new(Deck::new(&ECO, Color::White)));

fn node(moves: &str) -> hastings::book::NodeId {
    ECO.lookup(&play(moves)).unwrap()
}

fn now() -> Timestamp {
    Timestamp::parse_rfc3339("2025-03-10T12:00:00Z").unwrap()
}

/// A schedule in which the cards after `due` were answered Good ten days ago (so they
/// are due now) and every other card of the deck was answered Good today (not due).
fn schedule_with_due(due: &[&str]) -> Schedule {
    let due_keys: Vec<CardKey> = due
        .iter()
        .map(|m| CardKey::from_position(&play(m)))
        .collect();
    let scheduler = Scheduler::default();
    let records: Vec<ReviewRecord> = DECK
        .cards()
        .iter()
        .map(|c| ReviewRecord {
            time: if due_keys.contains(&c.key) {
                now().plus_days(-10)
            } else {
                now().plus_ms(-60_000)
            },
            color: Color::White,
            rating: Rating::Good,
            seconds: 1.0,
            fuzz: false,
            card: c.key.clone(),
        })
        .collect();
    Schedule::replay(&scheduler, &records)
}

#[test]
fn d_is_one_at_a_due_card_and_halves_per_learner_move_before_it() {
    let target = node("e4 e5 Nf3 Nc6");
    let term = ReviewTerm::new(
        &ECO,
        Color::White,
        SteerSettings::default(),
        [(target, 1.0)],
    );
    assert_eq!(term.d(target), 1.0);
    assert_eq!(term.d(node("e4 e5")), 0.5);
    assert_eq!(term.d(node("")), 0.25);
    assert_eq!(term.d(node("e4 c5")), 0.0, "no book path from the Sicilian");
    assert_eq!(term.d(node("e4")), 0.0, "Black to move: no card, no term");
    let mut term = term;
    term.set_urgency(&ECO, target, 0.0);
    assert_eq!(term.d(node("e4 e5")), 0.0, "graded: the term is gone");
}

#[test]
fn without_weight_the_distribution_is_exactly_as_before() {
    let pos = play("e4");
    let n = node("e4");
    let style = Style::neutral();
    let plain = Distribution::at(&ECO, n, &pos, &style, 0.5306);
    let term = Arc::new(ReviewTerm::new(
        &ECO,
        Color::White,
        SteerSettings::default(),
        [(node("e4 c6"), 1.0)],
    ));
    assert_eq!(plain.clone().with_review(0.0, |y| term.d(y)), plain);
    assert!(plain.candidates.iter().all(|c| c.review == 0.0));
    let mut session = Session::from_moves(
        Arc::clone(&ECO),
        Color::White,
        style,
        1,
        &common::san_moves("e4"),
    )
    .unwrap();
    let before = session.distribution().clone();
    session.set_review(Some(ReviewSteering { weight: 0.0, term }));
    assert_eq!(session.distribution(), &before);
}

#[test]
fn sampled_replies_with_the_review_term_match_the_exact_probabilities() {
    const N: usize = 100_000;
    let targets = [node("e4 c6"), node("e4 e5 Nf3 d6"), node("e4 d5")];
    let term = ReviewTerm::new(
        &ECO,
        Color::White,
        SteerSettings::default(),
        targets.map(|t| (t, 1.0)),
    );
    let pos = play("e4");
    let n = node("e4");
    let plain = Distribution::at(&ECO, n, &pos, &Style::neutral(), 0.5306);
    let d = plain.clone().with_review(0.6, |y| term.d(y));
    let c6 = d
        .candidates
        .iter()
        .position(|c| c.to == Some(node("e4 c6")))
        .unwrap();
    let e5 = d
        .candidates
        .iter()
        .position(|c| c.to == Some(node("e4 e5")))
        .unwrap();
    assert!((d.candidates[c6].review - 0.6).abs() < 1e-12);
    assert!(
        (d.candidates[e5].review - 0.3).abs() < 1e-12,
        "one learner move before e4 e5 Nf3 d6"
    );
    assert!(d.candidates[c6].p > plain.candidates[c6].p);
    let total: f64 = d.candidates.iter().map(|c| c.p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    let mut rng = ChaCha8Rng::seed_from_u64(2025);
    let mut counts = vec![0usize; d.candidates.len()];
    for _ in 0..N {
        counts[d.step(&mut rng).unwrap().index] += 1;
    }
    let chi2: f64 = d
        .candidates
        .iter()
        .zip(&counts)
        .map(|(c, &o)| (o as f64 - c.p * N as f64).powi(2) / (c.p * N as f64))
        .sum();
    let bound = common::chi2_critical(d.candidates.len() - 1);
    assert!(
        chi2 < bound,
        "chi2 {chi2:.1} exceeds {bound:.1}; counts {counts:?}"
    );
}

/// Plays one line of a review drill: the learner (White) always plays the most popular
/// book move, the computer replies; returns whether the learner was asked a due card
/// within the first 8 plies.
fn reaches_a_due_card(schedule: &Schedule, weight: f64, seed: u64) -> bool {
    let settings = ReviewSettings {
        weight,
        learn_new: false,
        fuzz: false,
        new_per_day: 0,
        ..ReviewSettings::default()
    };
    let session = Session::new(Arc::clone(&ECO), Color::White, Style::neutral(), seed);
    let mut drill = ReviewDrill::new(
        session,
        Arc::clone(&DECK),
        Scheduler::default(),
        schedule.clone(),
        settings,
        now(),
    );
    for _ in 0..8 {
        if matches!(drill.step(), ReviewStep::Ask { .. }) {
            return true;
        }
        if drill.session().reply_pending() {
            drill.reply(now());
        } else if let Some(best) = drill.session().distribution().most_popular().map(|c| c.mv) {
            drill.play(best, now());
        } else {
            return false;
        }
    }
    false
}

#[test]
fn the_computer_reaches_due_cards_more_often_with_the_review_term() {
    // Due: positions after replies to 1.e4 that the book plays rarely, and one a learner
    // move deeper. The learner always plays 1.e4 and then the most popular move.
    let due = ["e4 c6", "e4 d6", "e4 Nf6", "e4 e5 Nf3 d6"];
    let schedule = schedule_with_due(&due);
    const N: u64 = 600;
    let count = |weight| {
        (0..N)
            .filter(|&s| reaches_a_due_card(&schedule, weight, s))
            .count()
    };
    let without = count(0.0);
    let with = count(1.0);
    // Two-proportion z-test: the steered rate must exceed the plain one by more than 4
    // standard errors (one-sided p < 3.2e-5 if steering did nothing).
    let (p0, p1) = (without as f64 / N as f64, with as f64 / N as f64);
    let pooled = (p0 + p1) / 2.0;
    let se = (2.0 * pooled * (1.0 - pooled) / N as f64).sqrt();
    let z = (p1 - p0) / se;
    eprintln!(
        "due cards reached: {without}/{N} without, {with}/{N} with the review term, z = {z:.1}"
    );
    assert!(
        z > 4.0,
        "reached due cards in {without}/{N} lines without and {with}/{N} with the review term (z = {z:.1})"
    );
}
