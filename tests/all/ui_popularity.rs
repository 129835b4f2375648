//! The window with popularity from a Polyglot book: the style panel switches
//! to the games book and the drill plays from it past the end of the ECO lines; a
//! `.bin` file opened in the window becomes a source in the Book tab.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use eframe::egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use hastings::coach::settings::{Settings, Side};
use hastings::sampler::Popularity;
use hastings::trainer::Phase;
use hastings::ui::TrainerApp;
use shakmaty::{Chess, Position};

use crate::common;

fn harness() -> Harness<'static, TrainerApp> {
    let settings = Settings {
        learner: Side::White,
        seed: "3".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        ..crate::common::settings()
    };
    let app = TrainerApp::new(common::eco(), settings);
    Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut TrainerApp| app.frame_ui(ui), app)
}

#[test]
fn the_drill_plays_from_the_games_book_past_the_end_of_the_eco_lines() {
    let mut h = harness();
    h.run();
    // The Style tab is open at the start.
    h.get_by_label("As masters play").click();
    h.run();
    assert_eq!(h.state().coach().session().popularity(), Popularity::Games);
    h.get_by_label_contains("gnuchess (built in)");

    // The learner takes the book's most popular move each time ("Show me"); the
    // computer answers from the book.
    for _ in 0..40 {
        match h.state().coach().session().phase() {
            Phase::LearnerToMove => {
                h.get_by_label("Show me").click();
                h.run();
            }
            Phase::ComputerToMove => {
                h.run();
            }
            _ => break,
        }
    }
    let eco = common::eco_graph();
    let mut pos = Chess::default();
    let mut replies_outside_eco = 0;
    for m in h.state().coach().session().moves() {
        if !m.by_learner && eco.lookup(&pos).is_none() {
            replies_outside_eco += 1;
        }
        pos.play_unchecked(m.mv);
    }
    let game: Vec<String> = h
        .state()
        .coach()
        .session()
        .moves()
        .iter()
        .map(|m| m.san.clone())
        .collect();
    assert!(
        replies_outside_eco > 0,
        "the computer replied past the ECO lines: {}",
        game.join(" ")
    );
}

#[test]
fn a_polyglot_file_becomes_a_source_of_the_book_tab() {
    let dir = common::temp_dir("ui-popularity-bin");
    let path = dir.join("masters.bin");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/assets/books/gnuchess.bin"),
        &path,
    )
    .unwrap();
    let mut h = harness();
    h.run();
    h.state_mut().open_files(vec![path]);
    h.run();
    h.get_by_label("Book").click();
    h.run();
    h.get_by_label_contains("masters.bin (opening book, 180,358 entries)");
    // Opening a book switches the popularity to it, with the graph left as it was.
    let session = h.state().coach().session();
    assert_eq!(session.popularity(), Popularity::Games);
    assert_eq!(session.moves().len(), 0);
    assert_eq!(
        h.state().coach().settings().book.popularity,
        Popularity::Games
    );
}

#[test]
fn make_a_book_from_pgn_in_the_book_tab_adds_it_as_a_source() {
    let dir = common::temp_dir("ui-make-book");
    let output = dir.join("twic.bin");
    let pgn = common::fixture("twic1599_100k.pgn");
    let mut h = harness();
    h.run();
    h.get_by_label("Book").click();
    h.run();
    h.get_by_label("Book from games…").click();
    h.run();
    h.get_by_label("PGN files").click();
    h.run();
    h.get_by_label("PGN files")
        .type_text(&pgn.display().to_string());
    h.run();
    h.get_by_label("Write to").click();
    h.run();
    h.get_by_label("Write to")
        .type_text(&output.display().to_string());
    h.run();
    h.get_by_label("Make the book").click();
    h.run();
    h.state_mut().finish_making_book();
    h.run();
    let outcome = h.state().coach().jobs().outcome().unwrap().to_owned();
    assert!(outcome.starts_with("Made twic.bin: "), "{outcome}");
    assert!(outcome.contains("from 110 games"), "{outcome}");
    h.get_by_label_contains("twic.bin (opening book,");
    assert_eq!(h.state().coach().session().popularity(), Popularity::Games);
}
