//! A repertoire has a side (issue 21): a study's `[Orientation]` tags decide which side
//! the learner plays, a mixed study drills each chapter from its own side (and "Next
//! line" changes sides), a file without side tags is asked about once (Start here
//! answers ahead), and the chapter picker chooses what is drilled.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hastings::book::Side;
use hastings::coach::settings::Settings;
use hastings::coach::{Action, Coach, Command};
use hastings::trainer::Phase;
use hastings::workspace::FileMode;
use shakmaty::Color;

use crate::common;
use common::coach_frame as frame;
use common::{eco, fixture, temp_dir};

fn coach(learner: Side) -> Coach {
    let settings = Settings {
        learner,
        seed: "5".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        ..crate::common::settings()
    };
    Coach::new(eco(), settings, None)
}

/// Loads `path` as a repertoire, without ECO, and waits for every rebuild.
fn load(coach: &mut Coach, path: &Path) {
    common::load_repertoire_alone(coach, path);
}

/// The first moves of the book's lines, as SAN, sorted and deduplicated.
fn first_moves(coach: &Coach) -> Vec<String> {
    let mut firsts: Vec<String> = coach
        .graph()
        .lines()
        .iter()
        .map(|l| l.sans()[0].to_string())
        .collect();
    firsts.sort();
    firsts.dedup();
    firsts
}

/// The Black chapters of the mixed study, without their side tags.
fn untagged_black_repertoire(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(fixture("mixed_sides.pgn")).unwrap();
    let black: Vec<&str> = text.split("\n\n[Event").skip(1).collect();
    let body = format!("[Event{}\n\n[Event{}", black[0], black[1])
        .replace("[Orientation \"black\"]\n", "");
    assert!(!body.contains("Orientation"));
    let path = dir.join("black.pgn");
    std::fs::write(&path, body).unwrap();
    path
}

#[test]
fn a_mixed_study_drills_each_chapter_from_its_own_side() {
    let mut c = coach(Side::White);
    load(&mut c, &fixture("mixed_sides.pgn"));
    assert!(c.is_repertoire());
    let sides = c.chapter_sides();
    assert_eq!((sides.white, sides.black, sides.unknown), (1, 2, 0));
    assert!(
        c.style().side_question().is_none(),
        "the tags say every side"
    );
    // As White: the Italian chapter only (its 4 lines).
    assert_eq!(c.session().learner(), Color::White);
    assert_eq!(c.graph().lines().len(), 4);
    assert_eq!(first_moves(&c), ["e4"]);

    // Play the line out; "Next line" then drills the Black chapters as Black.
    for _ in 0..40 {
        match c.session().phase() {
            Phase::EndOfLine { .. } => break,
            Phase::LearnerToMove => c.apply(Command::Action(Action::ShowMe)),
            _ => frame(&mut c),
        }
    }
    assert!(matches!(c.session().phase(), Phase::EndOfLine { .. }));
    c.apply(Command::Action(Action::NextLine));
    c.finish_loading();
    frame(&mut c);
    assert_eq!(c.session().learner(), Color::Black);
    assert_eq!(c.graph().lines().len(), 8, "Caro-Kann 5 + against 1.d4 3");
    assert_eq!(first_moves(&c), ["d4", "e4"]);
    // The computer (White) plays the chapters' White moves; the learner answers.
    assert!(matches!(c.session().phase(), Phase::ComputerToMove));
}

#[test]
fn a_repertoire_for_black_makes_the_learner_play_black() {
    let dir = temp_dir("sides-black");
    let text = std::fs::read_to_string(fixture("mixed_sides.pgn")).unwrap();
    let black = text
        .split("\n\n[Event")
        .skip(1)
        .map(|g| format!("[Event{g}"))
        .collect::<Vec<_>>()
        .join("\n\n");
    let path = dir.join("caro.pgn");
    std::fs::write(&path, black).unwrap();
    let mut c = coach(Side::White);
    c.apply(Command::Import(vec![path.clone()], FileMode::Repertoire));
    c.finish_loading();
    assert_eq!(c.session().learner(), Color::Black);
    assert_eq!(c.settings().learner, Side::Black);
    let told = c.message().unwrap();
    assert!(
        // Read as "My repertoire", the file is the book alone (issue 40).
        told.ends_with("lines (your repertoire). Your repertoire is for Black: you play Black."),
        "{told}"
    );
    load(&mut c, &path);
    assert_eq!(c.session().learner(), Color::Black);
    assert_eq!(c.graph().lines().len(), 8);
    // The learner may still choose to play White against it: every chapter stays.
    c.apply(Command::SetLearner(Color::White));
    c.finish_loading();
    frame(&mut c);
    assert_eq!(c.session().learner(), Color::White);
    assert_eq!(c.graph().lines().len(), 8);
}

#[test]
fn a_file_without_side_tags_is_asked_about_once() {
    let dir = temp_dir("sides-ask");
    let path = untagged_black_repertoire(&dir);
    let mut c = coach(Side::White);
    load(&mut c, &path);
    let q = c.style().side_question().expect("asked which side").clone();
    assert_eq!(q.path, path);
    assert_eq!(q.untagged, 2);
    assert_eq!(
        q.guess,
        Some(Side::Black),
        "White's moves branch, Black's do not"
    );
    assert_eq!(
        c.session().learner(),
        Color::White,
        "nothing changes before the answer"
    );

    c.apply(Command::RepertoireSide(path.clone(), Some(Side::Black)));
    c.finish_loading();
    frame(&mut c);
    assert!(c.style().side_question().is_none());
    assert_eq!(c.session().learner(), Color::Black);
    let remembered = c.workspace().choice().file(&path).unwrap().clone();
    assert_eq!(
        (remembered.side, remembered.side_asked),
        (Some(Side::Black), true)
    );

    // The next start reads the file again and does not ask.
    let mut settings = c.settings().clone();
    settings.book = c.workspace().choice().clone();
    let mut again = Coach::new(eco(), settings, None);
    again.finish_loading();
    frame(&mut again);
    assert!(again.style().side_question().is_none());
    assert_eq!(again.session().learner(), Color::Black);
}

#[test]
fn the_side_said_in_start_here_answers_the_question_ahead() {
    let dir = temp_dir("sides-start-here");
    let path = untagged_black_repertoire(&dir);
    let mut c = coach(Side::Black);
    c.apply(Command::RepertoireFor(Side::Black));
    load(&mut c, &path);
    assert!(c.style().side_question().is_none());
    let remembered = c.workspace().choice().file(&path).unwrap();
    assert_eq!(remembered.side, Some(Side::Black));
    assert_eq!(c.session().learner(), Color::Black);
}

#[test]
fn the_chapter_picker_chooses_what_is_drilled() {
    let mut c = coach(Side::Black);
    load(&mut c, &fixture("mixed_sides.pgn"));
    assert_eq!(c.graph().lines().len(), 8);
    // Only "Against 1.d4" (game 3).
    let mut choice = c.workspace().choice().clone();
    choice.files[0].chapters = Some(vec![3]);
    c.apply(Command::SetBook(choice));
    c.finish_loading();
    frame(&mut c);
    assert_eq!(c.graph().lines().len(), 3);
    assert_eq!(first_moves(&c), ["d4"]);
    let path = fixture("mixed_sides.pgn");
    assert!(c.workspace().chapter_chosen(&path, 3));
    assert!(!c.workspace().chapter_chosen(&path, 2));
    // Only the Italian: the learner now plays White.
    let mut choice = c.workspace().choice().clone();
    choice.files[0].chapters = Some(vec![1]);
    c.apply(Command::SetBook(choice));
    c.finish_loading();
    frame(&mut c);
    assert_eq!(c.session().learner(), Color::White);
    assert_eq!(c.graph().lines().len(), 4);
}

#[test]
fn picked_lines_are_drilled_alone_and_a_changed_file_drops_them() {
    let dir = temp_dir("sides-lines");
    let path = dir.join("mixed.pgn");
    std::fs::copy(fixture("mixed_sides.pgn"), &path).unwrap();
    let mut c = coach(Side::Black);
    load(&mut c, &path);
    let lines = Arc::clone(&c.workspace().file(&path).unwrap().lines);
    // The Caro-Kann's 2.c4 line, by its place in the file.
    let pick = lines
        .iter()
        .position(|l| l.moves.len() > 2 && l.sans()[2].to_string() == "c4")
        .unwrap();
    let mut choice = c.workspace().choice().clone();
    choice.files[0].lines = Some(vec![u32::try_from(pick).unwrap()]);
    c.apply(Command::SetBook(choice));
    c.finish_loading();
    frame(&mut c);
    assert_eq!(c.graph().lines().len(), 1);
    assert_eq!(c.graph().lines()[0].moves, lines[pick].moves);
    assert!(c.workspace().line_chosen(&path, pick));
    assert!(!c.workspace().line_chosen(&path, pick + 1));

    // The file changes on disk: read again at the next start, its picked lines go.
    let mut settings = c.settings().clone();
    settings.book = c.workspace().choice().clone();
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("\n\n[Event \"Added later\"]\n[Orientation \"black\"]\n\n1. e4 c6 2. Nf3 d5 *\n");
    std::fs::write(&path, text).unwrap();
    let mut again = Coach::new(eco(), settings, None);
    again.finish_loading();
    frame(&mut again);
    assert_eq!(again.workspace().choice().file(&path).unwrap().lines, None);
    assert!(
        again
            .workspace()
            .warnings()
            .iter()
            .any(|w| w.ends_with("has changed: the lines picked in it are all drilled again")),
        "{:?}",
        again.workspace().warnings()
    );
    assert_eq!(
        again.graph().lines().len(),
        9,
        "every Black line, the new one too"
    );
}
