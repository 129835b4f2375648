//! The engine check driven through the coach without a window.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use hastings::coach::{Coach, Command};

use crate::common;

#[test]
fn a_check_without_a_repertoire_says_how_to_load_one() {
    let mut coach = Coach::new(common::eco(), crate::common::settings(), None);
    coach.finish_loading();
    coach.apply(Command::CheckRepertoire);
    let result = coach.check_state().result().expect("a result at once");
    let err = result.as_ref().expect_err("no check on ECO alone");
    assert!(
        err.to_string().starts_with("A check needs your repertoire"),
        "{err}"
    );
    assert!(coach.check_state().progress().is_none(), "no job runs");
}
