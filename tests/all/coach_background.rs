//! Issue 40's targets in the coach: what took seconds on the window's thread is a
//! background job. My repertoires' rows say "counting…" in the frame they are first
//! shown and are filled in once the job is done (the numbers as a direct computation
//! gives them); "the most common" session waits for its exact reach, counted in a job
//! review mode starts, and then draws the cards a direct computation of that reach
//! ranks first.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::time::{Duration, Instant};

use hastings::coach::{Coach, Command};
use hastings::review::study::DeckStates;
use hastings::review::{Deck, Schedule, Scheduler, SessionChoice, Study, Timestamp};
use hastings::trainer::review_drill::ReviewSettings;

use crate::common;

/// Frames (a second apart on the coach's clock) until `done`, for at most a minute.
fn frames_until(coach: &mut Coach, what: &str, done: impl Fn(&Coach) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done(coach) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
        common::coach_frame(coach);
    }
}

/// A coach drilling the repertoire fixture alone as White, with a data folder `name`.
fn coach(name: &str) -> Coach {
    let dir = common::temp_dir(name);
    let mut coach = Coach::new(
        common::eco(),
        common::settings(),
        Some(dir.join("progress.ron")),
    );
    coach.review_mut().set_fuzz(false);
    common::load_repertoire_alone(&mut coach, &common::fixture("repertoire.pgn"));
    coach
}

#[test]
fn my_repertoires_rows_are_counted_in_the_background_then_shown() {
    let mut coach = coach("coach_background_rows");
    coach.book_mut().set_repertoires_shown(true);
    common::coach_frame(&mut coach);
    // The first frame: the job started, the row there with what needs no counting.
    let rows = coach.book().repertoires().rows();
    assert_eq!(rows.len(), 1);
    let file = coach.workspace().loaded_repertoires().next().unwrap();
    assert!(!rows[0].counted, "counting in the first frame");
    assert_eq!(rows[0].lines, file.lines.len());
    assert_eq!(rows[0].chapters, file.chapters.len());
    assert_eq!(rows[0].positions, 0);
    assert!(coach.book().repertoires().is_counting());
    assert!(coach.is_busy(), "the screenshot waits for it");
    frames_until(&mut coach, "the rows", |c| {
        !c.book().repertoires().is_counting()
    });
    common::coach_frame(&mut coach);
    let file = coach.workspace().loaded_repertoires().next().unwrap();
    let direct = coach.workspace().file_cards(file);
    let row = &coach.book().repertoires().rows()[0];
    assert!(row.counted);
    assert_eq!(row.positions, direct.positions);
    assert_eq!(row.cards, direct.cards.len());
    assert_eq!(row.new, direct.cards.len(), "no review yet");
    // Counted once: the next frames start no job.
    common::coach_frame(&mut coach);
    assert!(!coach.book().repertoires().is_counting());
}

#[test]
fn the_most_common_session_waits_for_its_exact_reach_counted_in_the_background() {
    let mut coach = coach("coach_background_common");
    // Chosen before review mode counted anything: it waits, the drill goes on.
    let before = coach.session().moves().len();
    coach.apply(Command::ReviewSession(SessionChoice::Common(5)));
    assert_eq!(
        coach.review().reach().waiting(),
        Some(&SessionChoice::Common(5))
    );
    assert!(coach.review().reach().is_counting());
    assert!(coach.review().choice().is_none(), "not started yet");
    assert_eq!(coach.session().moves().len(), before);
    frames_until(&mut coach, "the most common session", |c| {
        c.review().choice() == Some(&SessionChoice::Common(5))
    });
    assert!(coach.review().reach().waiting().is_none());
    // The queue: the five cards a direct computation of the exact reach ranks first.
    let graph = coach.graph().clone();
    let mut deck = Deck::new(&graph, coach.session().learner());
    hastings::trainer::coverage::set_exact_reach(&mut deck, &graph, coach.session().style());
    let schedule = Schedule::default();
    let states = DeckStates::new(&deck, &schedule);
    let scheduler = Scheduler::default();
    let direct: Vec<usize> = Study {
        deck: &deck,
        schedule: &schedule,
        states: &states,
        scheduler: &scheduler,
        now: Timestamp::now(0),
    }
    .session(
        &SessionChoice::Common(5),
        &graph,
        ReviewSettings::default().new_per_day,
    )
    .into_iter()
    .map(|e| e.card)
    .collect();
    let drill = coach.review().drill().unwrap();
    assert_eq!(drill.queue().collect::<Vec<_>>(), direct);
    // Kept: chosen again, it starts at once.
    coach.apply(Command::ReviewSession(SessionChoice::Due));
    coach.apply(Command::ReviewSession(SessionChoice::Common(5)));
    assert_eq!(
        coach.review().choice(),
        Some(&SessionChoice::Common(5)),
        "the reach was kept for the book"
    );
}
