//! Playing on against a real engine process (`hastings uci`, the built-in engine as a
//! UCI program) through [`PlayOn`], the driver the window uses: the engine is killed in
//! the middle of its search and the game recovers (a fallback event, then a legal move
//! from the built-in engine, and the game goes on).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use hastings::engine::{EngineChoice, Strength};
use hastings::trainer::play_on::{Opponent, PlayOn, PlayOnEvent, PlayOnGame, Turn};
use shakmaty::{Chess, Color, Position};

/// Polls `play_on` as the window does once a frame, until `done` or 30 s.
fn poll_until(
    play_on: &mut PlayOn,
    what: &str,
    done: impl Fn(&PlayOn, &[PlayOnEvent]) -> bool,
) -> Vec<PlayOnEvent> {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut events = Vec::new();
    while !done(play_on, &events) {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; events: {events:?}"
        );
        events.extend(play_on.poll());
        std::thread::sleep(Duration::from_millis(10));
    }
    events
}

fn kill(pid: u32) {
    let status = Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

fn is_alive(pid: u32) -> bool {
    Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn killing_the_engine_process_mid_search_falls_back_and_the_game_goes_on() {
    // The learner plays Black: the engine (White) searches first, for up to 20 s.
    let game = PlayOnGame::new(Chess::default(), &[], None, Color::Black).unwrap();
    let opponent = Opponent {
        choice: EngineChoice::Uci {
            path: PathBuf::from(env!("CARGO_BIN_EXE_hastings")),
            args: vec!["uci".into()],
            strength: Strength::Full,
        },
        movetime: Duration::from_secs(20),
    };
    let mut play_on = PlayOn::start(game, opponent);
    let events = poll_until(&mut play_on, "the engine process", |_, events| {
        events
            .iter()
            .any(|e| matches!(e, PlayOnEvent::Ready { pid: Some(_), .. }))
    });
    let pid = events
        .iter()
        .find_map(|e| match e {
            PlayOnEvent::Ready { pid, .. } => *pid,
            _ => None,
        })
        .unwrap();
    // It is searching: its reports move the eval bar.
    poll_until(&mut play_on, "a report of the search", |p, _| {
        p.evaluation().is_some()
    });
    assert!(play_on.is_thinking());

    kill(pid);
    let events = poll_until(&mut play_on, "the fallback", |_, events| {
        events
            .iter()
            .any(|e| matches!(e, PlayOnEvent::FellBack { .. }))
    });
    let Some(PlayOnEvent::FellBack { error, .. }) = events
        .iter()
        .find(|e| matches!(e, PlayOnEvent::FellBack { .. }))
    else {
        unreachable!()
    };
    assert!(error.contains("exited"), "{error}");
    assert!(!is_alive(pid));
    assert_eq!(
        play_on.opponent().choice,
        EngineChoice::Builtin(Strength::Full)
    );

    // The built-in engine repeats the search; the learner does not wait 20 s.
    assert!(play_on.is_thinking());
    play_on.move_now();
    poll_until(&mut play_on, "the built-in engine's move", |p, _| {
        p.game().moves().len() == 1
    });
    let first = play_on.game().moves()[0].mv;
    assert!(Chess::default().is_legal(first));
    assert_eq!(play_on.game().turn(), Turn::Learner);

    // The game goes on: the learner moves, the built-in engine answers.
    let reply = play_on.game().position().legal_moves()[0];
    play_on.play(reply).unwrap();
    play_on.move_now();
    poll_until(&mut play_on, "the next reply", |p, _| {
        p.game().moves().len() == 3
    });
    let pgn = play_on.game().to_pgn(play_on.engine_name());
    assert!(pgn.contains("{The book ends here} 1."), "{pgn}");
}

#[test]
fn stockfish_limited_by_elo_plays_on_and_analyses_at_full_strength() {
    let Some(path) = common::stockfish_or_skip() else {
        return;
    };
    // White to move after 1.e4 e5; the learner plays Black, Stockfish White at Elo 1350.
    let mut pos = Chess::default();
    let mut book = Vec::new();
    for uci in ["e2e4", "e7e5"] {
        let mv = uci
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(mv);
        book.push(mv);
    }
    let game = PlayOnGame::new(Chess::default(), &book, None, Color::Black).unwrap();
    let opponent = Opponent {
        choice: EngineChoice::Uci {
            path,
            args: Vec::new(),
            strength: Strength::Elo(1350),
        },
        movetime: Duration::from_millis(100),
    };
    let mut play_on = PlayOn::start(game, opponent);
    let events = poll_until(&mut play_on, "Stockfish's move and analysis", |p, _| {
        p.game().moves().len() == 3 && p.best_move().is_some()
    });
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, PlayOnEvent::FellBack { .. } | PlayOnEvent::Warning(_))),
        "{events:?}"
    );
    assert!(play_on.engine_name().starts_with("Stockfish"));
    let best = play_on.best_move().unwrap();
    assert!(play_on.game().position().is_legal(best));
    assert!(play_on.eval_text().is_some());
}
