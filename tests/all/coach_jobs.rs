//! The jobs feature driven without a window: "Make a book…" as a command, the
//! finished book added as a source, and the outcome said when no book can be made.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use hastings::coach::{Coach, Command};
use hastings::sampler::Popularity;

use crate::common;

#[test]
fn a_book_made_by_the_coach_becomes_a_source() {
    let dir = common::temp_dir("coach-jobs-make");
    let output = dir.join("twic.bin");
    let mut coach = Coach::new(common::eco(), crate::common::settings(), None);
    coach.finish_loading();
    coach.apply(Command::MakeBook {
        inputs: vec![common::fixture("twic1599_100k.pgn")],
        output: output.clone(),
    });
    coach.finish_making_book();
    let outcome = coach.jobs().outcome().unwrap().to_owned();
    assert!(outcome.starts_with("Made twic.bin: "), "{outcome}");
    assert!(outcome.contains("from 110 games"), "{outcome}");
    assert!(output.is_file());
    coach.finish_loading();
    coach.logic();
    let status = coach.workspace().open_books().status(&output);
    assert!(
        matches!(status, Some(Ok(entries)) if entries > 0),
        "{status:?}"
    );
    assert_eq!(coach.session().popularity(), Popularity::Games);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_book_is_made_without_inputs_and_the_outcome_says_why() {
    let mut coach = Coach::new(common::eco(), crate::common::settings(), None);
    coach.apply(Command::MakeBook {
        inputs: Vec::new(),
        output: std::path::PathBuf::from("never.bin"),
    });
    coach.finish_making_book();
    assert_eq!(
        coach.jobs().outcome(),
        Some("Give the PGN file(s) and where to write the book.")
    );
    assert!(coach.jobs().progress().is_none());
    assert!(coach.workspace().files().is_empty());
}
