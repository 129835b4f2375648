//! A paste is read on a background job (issue 42): the command returns with the text
//! still to be read and the drill panel saying so; once read, the games are kept in the
//! data folder and asked how to read, moves start a line, garbage is one line.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use hastings::coach::{Coach, Command, Notice};

use crate::common;

#[test]
fn a_paste_returns_before_the_text_is_read_and_finishing_it_keeps_the_games() {
    let dir = common::temp_dir("coach-paste-job");
    let mut coach = Coach::new(
        common::eco(),
        common::settings(),
        Some(dir.join("progress.ron")),
    );
    coach.finish_loading();
    let _ = coach.take_notices();
    let pgn = std::fs::read_to_string(common::fixture("lichess_db_100k.pgn")).unwrap();
    coach.apply(Command::Paste(pgn.clone()));
    // The command has returned: the text is still the job's, and the panel says so.
    assert!(coach.book().is_reading_paste());
    assert_eq!(coach.message(), Some("Reading the pasted text…"));
    assert!(
        !coach
            .take_notices()
            .iter()
            .any(|n| matches!(n, Notice::AskHowToRead(_))),
        "asked how to read before the paste was read"
    );
    coach.finish_paste();
    assert!(!coach.book().is_reading_paste());
    assert_eq!(coach.message(), None);
    let kept: Vec<_> = std::fs::read_dir(dir.join("pasted"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(std::fs::read_to_string(&kept[0]).unwrap(), pgn);
    let asked: Vec<_> = coach
        .take_notices()
        .into_iter()
        .filter_map(|n| match n {
            Notice::AskHowToRead(paths) => Some(paths),
            _ => None,
        })
        .collect();
    assert_eq!(asked, [kept]);

    // Moves and garbage go through the same job.
    coach.apply(Command::Paste("1. e4 e5 2. Nf3".to_owned()));
    assert!(coach.book().is_reading_paste());
    coach.finish_paste();
    let played: Vec<_> = coach
        .session()
        .moves()
        .iter()
        .map(|m| m.san.clone())
        .collect();
    assert_eq!(played[..3], ["e4", "e5", "Nf3"]);
    coach.apply(Command::Paste("Dear club members".to_owned()));
    coach.finish_paste();
    let said = coach.message().unwrap();
    assert!(said.starts_with("Nothing to paste: "), "{said}");
    assert_eq!(std::fs::read_dir(dir.join("pasted")).unwrap().count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}
