//! My moves ranked (issue 40, item 3) on a real Black repertoire of the Advance French
//! (`tests/fixtures/french_advance_ranked.pgn`): 4…Nc6 first in the file with one
//! sub-line, 4…cxd4 after it with three, 4…Qb6 paused. The learn step, the chart and
//! "Show me" give the file's order; an alternative is named or asked again; "quiz all
//! my moves" asks until both are played; the paused move is in no drill; "quiz the
//! replies I cover" asks White's replies before the computer plays one.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::{Arc, LazyLock};

use hastings::book::{ImportMode, PositionGraph};
use hastings::review::{CardKey, Deck, Rating, ReviewRecord, Schedule, Scheduler, Timestamp};
use hastings::sampler::Style;
use hastings::trainer::review_drill::{ReviewDrill, ReviewSettings, ReviewStep};
use hastings::trainer::{MoveOutcome, Phase, Ranking, Session};
use shakmaty::{Chess, Color, Move, san::San};

use crate::common;
use common::{position_after, san_moves};

static FRENCH: LazyLock<Arc<PositionGraph>> = LazyLock::new(|| {
    let import = common::import_fixture("french_advance_ranked.pgn", ImportMode::Auto);
    Arc::new(PositionGraph::build(import.lines).graph)
});

/// The position where Black has three moves in the file: 4…Nc6, 4…cxd4, 4…Qb6 (paused).
const AT: &str = "e4 e6 d4 d5 e5 c5 c3";

fn mv(pos: &Chess, san: &str) -> Move {
    San::from_ascii(san.as_bytes())
        .unwrap()
        .to_move(pos)
        .unwrap()
}

fn now() -> Timestamp {
    Timestamp::parse_rfc3339("2025-03-10T12:00:00+01:00").unwrap()
}

/// A Black drill of the repertoire, compared with ECO (repertoire mode), after `AT`.
fn drill_at_fork() -> Session {
    let mut s = Session::new(Arc::clone(&FRENCH), Color::Black, Style::neutral(), 5);
    s.set_theory(Some(common::eco()));
    s.start_after(&san_moves(AT)).unwrap();
    assert_eq!(s.phase(), &Phase::LearnerToMove);
    s
}

/// The learner's moves at the fork as the lines count them: more lines play 4…cxd4.
fn lines_through(san: &str) -> usize {
    let pos = position_after(AT);
    let node = FRENCH.lookup(&pos).unwrap();
    let m = mv(&pos, san);
    FRENCH
        .continuations(node)
        .iter()
        .find(|c| c.mv == m)
        .map_or(0, |c| FRENCH.continuation_lines(c).len())
}

#[test]
fn the_sub_line_counts_favour_the_sideline_and_the_paused_move_is_not_in_the_book() {
    assert_eq!(lines_through("Nc6"), 1);
    assert_eq!(lines_through("cxd4"), 3);
    assert_eq!(lines_through("Qb6"), 0, "4...Qb6 is paused");
    let mut s = drill_at_fork();
    let pos = s.position().clone();
    assert_eq!(s.play(mv(&pos, "Qb6")), MoveOutcome::OutOfBook);
}

/// The defect of issue 40: the learn step taught 4…cxd4 (three sub-lines) before the
/// main 4…Nc6. Fails on the code before the file's order was followed.
#[test]
fn the_learn_step_teaches_the_main_move_first() {
    let keep = CardKey::from_position(&position_after(AT));
    let deck = Arc::new(Deck::new(&FRENCH, Color::Black));
    let records: Vec<ReviewRecord> = deck
        .cards()
        .iter()
        .filter(|c| c.key != keep)
        .map(|c| ReviewRecord {
            time: now().plus_ms(-60_000),
            color: Color::Black,
            rating: Rating::Good,
            seconds: 1.0,
            fuzz: false,
            card: c.key.clone(),
        })
        .collect();
    let schedule = Schedule::replay(&Scheduler::default(), &records);
    let mut session = Session::new(Arc::clone(&FRENCH), Color::Black, Style::neutral(), 5);
    session.set_theory(Some(common::eco()));
    let settings = ReviewSettings {
        lead_in: Some(0),
        fuzz: false,
        ..ReviewSettings::default()
    };
    let d = ReviewDrill::new(
        session,
        deck,
        Scheduler::default(),
        schedule,
        settings,
        now(),
    );
    let ReviewStep::Learn(learn) = d.step() else {
        panic!("expected the learn step, got {:?}", d.step());
    };
    assert_eq!(learn.san, "Nc6");
    assert_eq!(
        learn.comment.as_deref(),
        Some("The main move: more pressure on d4.")
    );
}

#[test]
fn the_chart_hint_and_show_me_follow_the_file_for_my_moves_only() {
    let mut s = drill_at_fork();
    let chart = s.book_moves();
    let sans: Vec<&str> = chart.iter().map(|b| b.san.as_str()).collect();
    assert_eq!(sans, ["Nc6", "cxd4"]);
    assert!(chart[0].share > chart[1].share);
    let node = FRENCH.lookup(s.position()).unwrap();
    let main = FRENCH.main_continuation(node).unwrap();
    assert_eq!(chart[0].mv, main.mv);
    assert_eq!(
        s.show_me(),
        Some(MoveOutcome::Accepted {
            san: "Nc6".to_owned(),
            transposed_to: None,
        })
    );
    // The opponent's replies keep their popularity: after 4…cxd4 5.cxd4 Bb4+, White's
    // three moves have one line each, whatever their order.
    let mut s = Session::new(Arc::clone(&FRENCH), Color::Black, Style::neutral(), 5);
    s.set_theory(Some(common::eco()));
    s.start_after(&san_moves(&format!("{AT} cxd4 cxd4 Bb4+")))
        .unwrap();
    let shares: Vec<f64> = s
        .distribution()
        .candidates
        .iter()
        .map(|c| c.share)
        .collect();
    assert_eq!(shares.len(), 3);
    assert!(
        shares.iter().all(|&x| (x - 1.0 / 3.0).abs() < 1e-9),
        "{shares:?}"
    );
}

#[test]
fn an_alternative_counts_right_and_names_the_main_move() {
    let mut s = drill_at_fork();
    let pos = s.position().clone();
    let outcome = s.play(mv(&pos, "cxd4"));
    assert!(
        matches!(outcome, MoveOutcome::Accepted { .. }),
        "{outcome:?}"
    );
    assert_eq!(
        s.rank_note(),
        Some("Also in your repertoire — your main move is 4…Nc6.")
    );
    assert_eq!(s.mistakes_in_line(), 0);
    // The main move says nothing.
    let mut s = drill_at_fork();
    let pos = s.position().clone();
    s.play(mv(&pos, "Nc6"));
    assert_eq!(s.rank_note(), None);
}

#[test]
fn an_alternative_is_asked_again_when_the_learner_chooses_so() {
    let mut s = drill_at_fork();
    s.set_ranking(Ranking {
        ask_main: true,
        ..Ranking::default()
    });
    let pos = s.position().clone();
    let MoveOutcome::InRepertoire { san, note } = s.play(mv(&pos, "cxd4")) else {
        panic!("the alternative was kept");
    };
    assert_eq!(san, "cxd4");
    assert!(note.contains("your main move is 4…Nc6"), "{note}");
    assert_eq!(s.phase(), &Phase::LearnerToMove);
    assert_eq!((s.moves().len(), s.mistakes_in_line()), (7, 0));
    assert!(matches!(
        s.play(mv(&pos, "Nc6")),
        MoveOutcome::Accepted { .. }
    ));
    assert_eq!(s.moves().len(), 8);
}

#[test]
fn quiz_all_asks_every_move_of_mine_until_each_is_played() {
    let mut s = drill_at_fork();
    s.set_ranking(Ranking {
        quiz_all: true,
        ..Ranking::default()
    });
    let pos = s.position().clone();
    let node = FRENCH.lookup(&pos).unwrap();
    // Checked against the graph: two moves of Black's here, the paused one left out.
    assert_eq!(FRENCH.ranked(node).len(), 2);
    for _ in 0..2 {
        let outcome = s.play(mv(&pos, "Nc6"));
        let MoveOutcome::InRepertoire { note, .. } = outcome else {
            panic!("Nc6 alone was kept: {outcome:?}");
        };
        assert!(note.contains("one more move"), "{note}");
        assert_eq!(s.moves().len(), 7);
    }
    assert!(matches!(
        s.play(mv(&pos, "cxd4")),
        MoveOutcome::Accepted { .. }
    ));
    assert_eq!(s.rank_note(), Some("All 2 of your moves here played."));
    assert_eq!(s.moves().last().unwrap().san, "cxd4");
    assert_eq!(s.mistakes_in_line(), 0);
}

#[test]
fn the_replies_i_cover_are_asked_before_the_computer_plays_one() {
    // From the start, as Black: White's replies are asked at each of White's turns.
    let mut s = Session::new(Arc::clone(&FRENCH), Color::Black, Style::neutral(), 5);
    s.set_theory(Some(common::eco()));
    s.set_ranking(Ranking {
        quiz_replies: true,
        ..Ranking::default()
    });
    s.start_after(&san_moves(&format!("{AT} cxd4"))).unwrap();
    assert!(s.asks_replies());
    assert_eq!(s.replies_here(), Some((1, 1)));
    assert!(s.reply().is_none(), "the computer waits");
    let pos = s.position().clone();
    let MoveOutcome::InRepertoire { note, .. } = s.play(mv(&pos, "Qa4")) else {
        panic!("a reply named is never kept");
    };
    assert!(
        note.contains("not a reply your repertoire answers"),
        "{note}"
    );
    s.play(mv(&pos, "cxd4"));
    assert!(!s.asks_replies());
    assert!(s.reply_pending());
    assert_eq!(s.reply().unwrap().san, "cxd4");
    // After 5...Bb4+, three replies, each counted against the graph's continuations.
    s.play(mv(s.position(), "Bb4+"));
    let pos = s.position().clone();
    let node = FRENCH.lookup(&pos).unwrap();
    assert_eq!(
        s.replies_here(),
        Some((FRENCH.continuations(node).len(), 3))
    );
    for (i, san) in ["Nd2", "Bd2", "Nd2", "Nc3"].iter().enumerate() {
        assert!(s.asks_replies(), "{san}");
        s.play(mv(&pos, san));
        let left = [2, 1, 1, 0][i];
        assert_eq!(s.replies_here().unwrap().1, left, "{san}");
    }
    assert!(!s.asks_replies());
    assert_eq!(s.mistakes_in_line(), 0);
    let reply = s.reply().unwrap();
    assert!(["Nc3", "Bd2", "Nd2"].contains(&reply.san.as_str()));
}
