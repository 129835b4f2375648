//! Review mode in the window, driven through the real widgets with egui_kittest: a
//! review session from a fresh profile (a temporary data directory), new cards shown
//! then asked, a wrong move graded Again and the card back in the same session, the
//! Progress tab's counts and forecast, and the review log on disk afterwards.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::Coach;
use hastings::coach::review::DrillMode;
use hastings::coach::settings::{Settings, Side};
use hastings::review::{Rating, Timestamp};
use hastings::trainer::Phase;
use hastings::trainer::review_drill::ReviewStep;
use hastings::ui::TrainerApp;
use hastings::workspace::review_store::ReviewStore;
use shakmaty::{Move, Position};

use crate::common;
use common::{eco, temp_dir};

fn harness_for(app: TrainerApp) -> Harness<'static, TrainerApp> {
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

/// Clicks "from" then "to" on the board.
fn play(harness: &mut Harness<'static, TrainerApp>, mv: Move) {
    common::click_move(harness, mv);
    harness.run();
}

/// A legal move at the position shown that is not a book move, if there is one.
fn wrong_move(app: &Coach) -> Option<Move> {
    let book: Vec<Move> = app.session().book_moves().iter().map(|b| b.mv).collect();
    let pos = app.session().position().clone();
    pos.legal_moves().into_iter().find(|m| !book.contains(m))
}

/// The book's most popular move at the position shown.
fn book_move(app: &Coach) -> Move {
    let moves = app.session().book_moves();
    moves
        .iter()
        .max_by(|a, b| a.share.total_cmp(&b.share))
        .unwrap()
        .mv
}

#[test]
fn a_wrong_move_grades_again_the_card_comes_back_and_the_log_keeps_every_review() {
    let dir = temp_dir("ui_review_session");
    let progress = dir.join("progress.ron");
    let settings = Settings {
        learner: Side::White,
        seed: "7".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        ..crate::common::settings()
    };
    let mut app = TrainerApp::with_progress_file(eco(), settings, Some(progress));
    app.coach_mut().review_mut().set_fuzz(false);
    let mut harness = harness_for(app);
    harness.run();
    harness.get_by_label("Review").click();
    harness.run();
    assert_eq!(
        harness.state().coach().review().drill_mode(),
        DrillMode::Review
    );

    // A fresh profile: the queue is new cards (20 a day), the first one is shown.
    let queued = harness
        .state()
        .coach()
        .review()
        .drill()
        .unwrap()
        .queue()
        .len();
    assert_eq!(queued, 20, "a fresh profile queues the day's 20 new cards");
    let Some(ReviewStep::Learn(first)) = harness.state().coach().review().step() else {
        panic!("the first new card is shown first");
    };
    harness.get_by_label(&format!("New card: the book plays {}", first.san));

    let mut missed: Option<usize> = None;
    let mut came_back = false;
    let mut ratings = Vec::new();
    for _ in 0..200 {
        let step = harness.state().coach().review().step().unwrap();
        match step {
            ReviewStep::Learn(_) => {
                harness.get_by_label("Got it").click();
                harness.run();
            }
            ReviewStep::Ask { card } => {
                if missed == Some(card) {
                    came_back = true;
                    break;
                }
                let app = harness.state().coach();
                match (missed, wrong_move(app)) {
                    (None, Some(wrong)) => {
                        play(&mut harness, wrong);
                        assert!(matches!(
                            harness.state().coach().session().phase(),
                            Phase::OutOfBook { .. }
                        ));
                        harness.get_by_label("Try again").click();
                        harness.run();
                        let right = book_move(harness.state().coach());
                        play(&mut harness, right);
                        missed = Some(card);
                        ratings.push(Rating::Again);
                        assert!(
                            harness
                                .state()
                                .coach()
                                .review()
                                .drill()
                                .unwrap()
                                .queue()
                                .any(|c| c == card),
                            "a card answered Again is queued again"
                        );
                    }
                    _ => {
                        let right = book_move(app);
                        play(&mut harness, right);
                        harness.get_by_label("Graded: good");
                        if ratings.is_empty() {
                            // The first right answer was easy.
                            harness.get_by_label("Easy").click();
                            harness.run();
                            harness.get_by_label("Graded: easy");
                            ratings.push(Rating::Easy);
                        } else {
                            ratings.push(Rating::Good);
                        }
                    }
                }
            }
            ReviewStep::Play => match harness.state().coach().session().phase().clone() {
                Phase::EndOfLine { .. } => {
                    harness.get_by_label("Next line").click();
                    harness.run();
                }
                Phase::LearnerToMove => {
                    let right = book_move(harness.state().coach());
                    play(&mut harness, right);
                }
                _ => {
                    harness.run();
                }
            },
            ReviewStep::Done => break,
        }
    }
    let missed = missed.expect("some card had a move outside the book");
    assert!(came_back, "the card answered Again was asked again");

    // The Progress tab: the missed card is due today, the others in two days.
    harness.get_by_label("Progress").click();
    harness.run();
    harness.get_by_label("Due now");
    harness.get_by_label("Reviews in the next 30 days");
    let app = harness.state().coach();
    let drill = app.review().drill().unwrap();
    let study = drill.study(Timestamp::now(0));
    let counts = study.counts(20);
    assert!(counts.due >= 1, "the card answered Again is due now");
    assert_eq!(counts.lapses, 0, "Again on a new card is not a lapse");
    let forecast = study.forecast(30);
    assert!(forecast[0] >= 1, "{forecast:?}");
    assert!(
        forecast.iter().sum::<u32>() as usize >= ratings.len() - 1,
        "every graded card is in the forecast: {forecast:?}"
    );
    let _ = missed;

    // Back to free drill: the pending grade is committed; the log has every review.
    harness.get_by_label("Free drill").click();
    harness.run();
    let store = ReviewStore::open(&dir.join("reviews.log")).unwrap();
    let logged: Vec<Rating> = store.records().iter().map(|r| r.rating).collect();
    assert_eq!(
        logged, ratings,
        "the log has one record per grade, in order"
    );
    assert!(logged.contains(&Rating::Again));
}
