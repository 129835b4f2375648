//! The move box driven through the coach without a window: a typed move is played on
//! the drill's board and the box emptied; a move that cannot be played says why and
//! changes nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use hastings::coach::drill::MoveEntryCommand;
use hastings::coach::settings::{Settings, Side};
use hastings::coach::{Coach, Command};

use crate::common;

fn coach() -> Coach {
    let settings = Settings {
        learner: Side::White,
        seed: "3".to_owned(),
        reply_delay_ms: 0,
        animate_moves: false,
        ..crate::common::settings()
    };
    let mut coach = Coach::new(common::eco(), settings, None);
    coach.finish_loading();
    common::coach_frame(&mut coach);
    coach
}

fn enter(coach: &mut Coach, text: &str) {
    coach.apply(Command::MoveEntry(MoveEntryCommand::Text(text.to_owned())));
    coach.apply(Command::MoveEntry(MoveEntryCommand::Enter));
}

#[test]
fn a_typed_move_is_played_in_the_drill_and_the_box_emptied() {
    let mut coach = coach();
    enter(&mut coach, "e4");
    let first = coach.session().moves().first().map(|m| m.mv);
    assert_eq!(first, Some(common::san_moves("e4")[0]));
    assert_eq!(coach.drill().move_entry().text(), "");
    assert_eq!(coach.drill().move_entry().error(), None);
}

#[test]
fn a_move_that_cannot_be_played_says_why_and_plays_nothing() {
    let mut coach = coach();
    enter(&mut coach, "Ke2");
    assert!(coach.session().moves().is_empty());
    assert_eq!(coach.drill().move_entry().text(), "Ke2");
    assert!(
        coach
            .drill()
            .move_entry()
            .error()
            .is_some_and(|e| !e.is_empty())
    );
    // Typing again clears the error.
    coach.apply(Command::MoveEntry(MoveEntryCommand::Text("K".to_owned())));
    assert_eq!(coach.drill().move_entry().error(), None);
}
