use std::time::Instant;

use shakmaty::{Chess, Position};

use super::*;

fn wait(play_on: &mut PlayOn, done: impl Fn(&PlayOn) -> bool) -> Vec<PlayOnEvent> {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut events = Vec::new();
    while !done(play_on) {
        assert!(Instant::now() < deadline, "timed out; events {events:?}");
        events.extend(play_on.poll());
        thread::sleep(Duration::from_millis(5));
    }
    events
}

fn builtin(ms: u64) -> Opponent {
    Opponent {
        choice: EngineChoice::Builtin(Strength::Skill(10)),
        movetime: Duration::from_millis(ms),
    }
}

#[test]
fn the_engine_replies_then_analyses_for_the_learner() {
    let game = PlayOnGame::new(Chess::default(), &[], None, Color::Black).unwrap();
    let mut p = PlayOn::start(game, builtin(30));
    assert!(p.is_thinking(), "White (the engine) moves first");
    let events = wait(&mut p, |p| p.game().moves().len() == 1);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, PlayOnEvent::EngineMoved(_))),
        "{events:?}"
    );
    assert_eq!(p.game().turn(), Turn::Learner);
    assert!(p.is_searching() && !p.is_thinking(), "analysing");
    wait(&mut p, |p| p.best_move().is_some());
    let best = p.best_move().unwrap();
    assert!(p.game().position().is_legal(best));
    let share = p.learner_share().unwrap();
    assert!((0.0..=1.0).contains(&share));
    assert!(p.eval_text().is_some());
    // The learner follows the arrow; the engine answers.
    p.play(best).unwrap();
    assert!(p.is_thinking());
    wait(&mut p, |p| p.game().moves().len() == 3);
}

#[test]
fn the_engine_mates_when_it_can_and_the_game_ends() {
    // Black (the engine) mates with Qh4# after 1.f3 e5 2.g4.
    let mut pos = Chess::default();
    let mut book = Vec::new();
    for uci in ["f2f3", "e7e5", "g2g4"] {
        let mv = uci
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(mv);
        book.push(mv);
    }
    let game = PlayOnGame::new(Chess::default(), &book, None, Color::White).unwrap();
    let full = Opponent {
        choice: EngineChoice::Builtin(Strength::Full),
        movetime: Duration::from_millis(200),
    };
    let mut p = PlayOn::start(game, full);
    let events = wait(&mut p, |p| p.game().end().is_some());
    assert!(events.contains(&PlayOnEvent::EngineMoved("Qh4#".into())));
    assert!(events.iter().any(|e| matches!(e, PlayOnEvent::GameOver(_))));
    assert_eq!(p.learner_share(), Some(0.0));
    assert_eq!(p.eval_text().as_deref(), Some("0-1"));
    assert!(!p.is_searching());
    // The engine's mate score went into the PGN from White's side.
    assert_eq!(p.game().played()[0].eval, Some(Score::Mate(-1)));
}

#[test]
fn a_missing_engine_falls_back_and_still_replies() {
    let game = PlayOnGame::new(Chess::default(), &[], None, Color::Black).unwrap();
    let opponent = Opponent {
        choice: EngineChoice::Uci {
            path: "/nonexistent/stockfish".into(),
            args: Vec::new(),
            strength: Strength::Elo(1350),
        },
        movetime: Duration::from_millis(30),
    };
    let mut p = PlayOn::start(game, opponent);
    let events = wait(&mut p, |p| p.game().moves().len() == 1);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, PlayOnEvent::FellBack { .. })),
        "{events:?}"
    );
    assert!(
        !events.iter().any(|e| matches!(e, PlayOnEvent::Warning(_))),
        "the fallback is not asked for an Elo: {events:?}"
    );
    assert_eq!(p.opponent().choice, EngineChoice::Builtin(Strength::Full));
}

#[test]
fn take_back_returns_to_the_learners_turn_and_analyses_again() {
    let game = PlayOnGame::new(Chess::default(), &[], None, Color::White).unwrap();
    let mut p = PlayOn::start(game, builtin(20));
    let e4 = shakmaty::uci::UciMove::from_ascii(b"e2e4")
        .unwrap()
        .to_move(p.game().position())
        .unwrap();
    p.play(e4).unwrap();
    wait(&mut p, |p| p.game().moves().len() == 2);
    assert!(p.take_back());
    assert_eq!(p.game().moves().len(), 0);
    assert!(p.is_searching() && !p.is_thinking());
    assert_eq!(p.evaluation(), None, "the old evaluation is gone");
}
