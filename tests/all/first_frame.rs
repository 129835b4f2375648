//! A start that waits for nothing: an engine asked for while the window opens starts
//! once the first frame is painted, not before (a real `hastings uci` process); without
//! a window it starts at once.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::path::PathBuf;
use std::time::Duration;

use hastings::engine::{EngineChoice, EngineEvent, EngineHandle, Strength};
use hastings::job::first_frame;

fn hastings_uci() -> EngineChoice {
    EngineChoice::Uci {
        path: PathBuf::from(env!("CARGO_BIN_EXE_hastings")),
        args: vec!["uci".to_owned()],
        strength: Strength::Full,
    }
}

/// The first event: `Ready` with the process id once the engine has started.
fn ready_pid(handle: &EngineHandle, within: Duration) -> Option<u32> {
    match handle.recv_timeout(within) {
        Some(EngineEvent::Ready { pid, .. }) => pid,
        Some(other) => panic!("expected Ready, got {other:?}"),
        None => None,
    }
}

#[test]
fn engines_start_after_the_first_frame_and_at_once_without_a_window() {
    first_frame::opening();
    let waiting = EngineHandle::spawn(hastings_uci());
    // Not started while the frame is not painted: no Ready (the handshake of this
    // process takes a few milliseconds once it is started).
    assert_eq!(ready_pid(&waiting, Duration::from_millis(500)), None);
    first_frame::painted();
    assert!(ready_pid(&waiting, Duration::from_secs(30)).is_some());
    // Once painted (or with no window), an engine starts at once.
    let at_once = EngineHandle::spawn(hastings_uci());
    assert!(ready_pid(&at_once, Duration::from_secs(30)).is_some());
}
