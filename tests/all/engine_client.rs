//! The UCI client against real engine processes: `hastings uci` always, Stockfish
//! when it is installed (`apt-get install stockfish`; required when `CI` is set), and
//! misbehaving programs.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use hastings::engine::client::Timeouts;
use hastings::engine::{
    Engine, EngineChoice, EngineError, EngineEvent, EngineHandle, Game, Limits, Score, Search,
    Strength, UciEngine, WorkerGone,
};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

const WAIT: Duration = Duration::from_secs(30);

fn hastings() -> UciEngine {
    UciEngine::start_with(
        Path::new(env!("CARGO_BIN_EXE_hastings")),
        &["uci".to_string()],
        Timeouts::default(),
    )
    .unwrap()
}

fn stockfish() -> Option<PathBuf> {
    common::stockfish_or_skip()
}

fn game(fen: &str) -> Game {
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    Game::new(pos)
}

fn never() -> AtomicBool {
    AtomicBool::new(false)
}

fn is_alive(pid: u32) -> bool {
    Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn kill(pid: u32) {
    Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
}

#[test]
fn client_handshakes_with_hastings_uci_and_gets_a_legal_move() {
    let mut engine = hastings();
    assert!(engine.name().starts_with("hastings"), "{}", engine.name());
    assert!(engine.option("skill level").is_some());
    let g = Game::from_moves(Chess::default(), &[]).unwrap();
    let mut infos = 0;
    let result = engine
        .search(Search {
            game: &g,
            limits: &Limits::movetime_ms(100).unwrap(),
            stop: &never(),
            on_info: &mut |_| infos += 1,
        })
        .unwrap();
    assert!(g.position().is_legal(result.best.unwrap()));
    assert!(infos > 0);
    assert!(result.info.unwrap().score.is_some());
}

#[test]
fn client_reports_the_mate_hastings_finds() {
    let mut engine = hastings();
    let result = engine
        .search(Search {
            game: &game("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1"),
            limits: &Limits::depth(4).unwrap(),
            stop: &never(),
            on_info: &mut |_| {},
        })
        .unwrap();
    let info = result.info.unwrap();
    assert_eq!(info.score, Some(Score::Mate(2)));
    // The variation is read back as legal moves: Qd8+ Bxd8 Re8#.
    assert_eq!(info.pv.len(), 3);
}

#[test]
fn options_are_checked_against_what_the_engine_declared() {
    let mut engine = hastings();
    engine.set_option("Search", "mcts").unwrap();
    engine.set_strength(Strength::Skill(3)).unwrap();
    assert!(matches!(
        engine.set_option("No Such Option", "1"),
        Err(EngineError::Option { .. })
    ));
    assert!(matches!(
        engine.set_option("Skill Level", "21"),
        Err(EngineError::Option { .. })
    ));
    // hastings uci has skill levels, no Elo setting.
    assert!(engine.set_strength(Strength::Elo(1500)).is_err());
    let result = engine
        .search(Search {
            game: &Game::default(),
            limits: &Limits::nodes(500).unwrap(),
            stop: &never(),
            on_info: &mut |_| {},
        })
        .unwrap();
    assert!(result.best.is_some());
}

#[test]
fn stopping_an_infinite_search_returns_its_move() {
    let mut engine = hastings();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let (tx, rx) = mpsc::channel();
    let searcher = thread::spawn(move || {
        let r = engine.search(Search {
            game: &Game::default(),
            limits: &Limits::default(),
            stop: &flag,
            on_info: &mut |info| {
                let _ = tx.send(info.depth);
            },
        });
        (r, engine)
    });
    // Wait for a report, so the search is surely running.
    rx.recv_timeout(WAIT).unwrap();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (result, _) = searcher.join().unwrap();
    assert!(result.unwrap().best.is_some());
}

#[test]
fn killing_the_engine_mid_search_gives_an_error_then_a_new_engine_works() {
    let mut engine = hastings();
    let pid = engine.pid();
    let (tx, rx) = mpsc::channel();
    let searcher = thread::spawn(move || {
        let r = engine.search(Search {
            game: &Game::default(),
            limits: &Limits::depth(60).unwrap(),
            stop: &never(),
            on_info: &mut |info| {
                let _ = tx.send(info.depth);
            },
        });
        (r, engine)
    });
    rx.recv_timeout(WAIT).unwrap();
    kill(pid);
    let (result, mut engine) = searcher.join().unwrap();
    let err = result.unwrap_err();
    assert!(matches!(err, EngineError::Exited { .. }), "{err}");
    assert!(err.to_string().contains("signal: 9"), "{err}");
    // The dead engine is not used again.
    assert!(engine.is_dead());
    assert!(matches!(engine.is_ready(), Err(EngineError::Dead { .. })));
    let mut fresh = hastings();
    let result = fresh
        .search(Search {
            game: &Game::default(),
            limits: &Limits::depth(3).unwrap(),
            stop: &never(),
            on_info: &mut |_| {},
        })
        .unwrap();
    assert!(result.best.is_some());
}

#[test]
fn a_dropped_engine_process_is_gone() {
    let engine = hastings();
    let pid = engine.pid();
    assert!(is_alive(pid));
    drop(engine);
    assert!(!is_alive(pid), "engine {pid} outlived its owner");
}

#[test]
fn an_engine_that_never_answers_times_out_and_is_killed() {
    let timeouts = Timeouts {
        handshake: Duration::from_millis(300),
        ..Timeouts::default()
    };
    let args = ["-c".to_string(), "sleep 30".to_string()];
    let err = UciEngine::start_with(Path::new("/bin/sh"), &args, timeouts).unwrap_err();
    assert!(
        matches!(
            err,
            EngineError::Timeout {
                waiting_for: "uciok",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn an_engine_printing_garbage_is_refused() {
    let args = ["-c".to_string(), "yes 'this is not uci'".to_string()];
    let err = UciEngine::start_with(Path::new("/bin/sh"), &args, Timeouts::default()).unwrap_err();
    assert!(matches!(err, EngineError::Garbage { .. }), "{err}");
    assert!(err.to_string().contains("this is not uci"), "{err}");
}

#[test]
fn an_engine_that_exits_reports_its_status_and_stderr() {
    let args = ["-c".to_string(), "echo broken >&2; exit 3".to_string()];
    let err = UciEngine::start_with(Path::new("/bin/sh"), &args, Timeouts::default()).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, EngineError::Exited { .. }), "{text}");
    assert!(
        text.contains("exit status: 3") && text.contains("broken"),
        "{text}"
    );
}

#[test]
fn a_missing_program_is_a_spawn_error() {
    let err = UciEngine::start(Path::new("/nonexistent/engine")).unwrap_err();
    assert!(matches!(err, EngineError::Spawn { .. }), "{err}");
}

/// Waits for the first event matching `want`, returning the events before it too.
fn wait_for(handle: &EngineHandle, want: impl Fn(&EngineEvent) -> bool) -> Vec<EngineEvent> {
    let deadline = Instant::now() + WAIT;
    let mut seen = Vec::new();
    while Instant::now() < deadline {
        if let Some(e) = handle.recv_timeout(Duration::from_millis(50)) {
            let done = want(&e);
            seen.push(e);
            if done {
                return seen;
            }
        }
    }
    panic!("no matching event; saw {seen:?}");
}

#[test]
fn handle_falls_back_to_the_builtin_engine_when_the_process_is_killed() {
    let choice = EngineChoice::Uci {
        path: PathBuf::from(env!("CARGO_BIN_EXE_hastings")),
        args: vec!["uci".into()],
        strength: Strength::Full,
    };
    let mut handle = EngineHandle::spawn(choice);
    let ready = wait_for(&handle, |e| matches!(e, EngineEvent::Ready { .. }));
    let Some(EngineEvent::Ready { pid: Some(pid), .. }) = ready.last() else {
        panic!("{ready:?}")
    };
    let id = handle.search(Game::default(), Limits::depth(60).unwrap());
    wait_for(
        &handle,
        |e| matches!(e, EngineEvent::Info { search, .. } if *search == id),
    );
    kill(*pid);
    let events = wait_for(&handle, |e| matches!(e, EngineEvent::FellBack { .. }));
    let Some(EngineEvent::FellBack { error, .. }) = events.last() else {
        unreachable!()
    };
    assert!(error.contains("exited"), "{error}");
    // The built-in engine repeats the search; stop it and get its move.
    handle.stop();
    let events = wait_for(&handle, |e| matches!(e, EngineEvent::BestMove { .. }));
    let Some(EngineEvent::BestMove { search, result }) = events.last() else {
        unreachable!()
    };
    assert_eq!(*search, id);
    assert!(Chess::default().is_legal(result.best.unwrap()));
}

#[test]
fn handle_with_a_missing_engine_uses_the_builtin_one() {
    let choice = EngineChoice::Uci {
        path: PathBuf::from("/nonexistent/stockfish"),
        args: vec![],
        strength: Strength::Skill(5),
    };
    let mut handle = EngineHandle::spawn(choice);
    let events = wait_for(&handle, |e| matches!(e, EngineEvent::Ready { .. }));
    assert!(
        matches!(&events[0], EngineEvent::FellBack { error, .. } if error.contains("cannot start")),
        "{events:?}"
    );
    let id = handle.search(Game::default(), Limits::depth(2).unwrap());
    let events = wait_for(&handle, |e| matches!(e, EngineEvent::BestMove { .. }));
    assert!(matches!(events.last(), Some(EngineEvent::BestMove { search, .. }) if *search == id));
}

#[test]
fn handle_runs_builtin_searches_and_tells_them_apart() {
    let mut handle = EngineHandle::spawn(EngineChoice::Builtin(Strength::Full));
    let first = handle.search(Game::default(), Limits::default());
    let second = handle.search(Game::default(), Limits::depth(3).unwrap());
    assert_ne!(first, second);
    let events = wait_for(
        &handle,
        |e| matches!(e, EngineEvent::BestMove { search, .. } if *search == second),
    );
    // The first (infinite) search was stopped by the second and answered first.
    assert!(
        events
            .iter()
            .any(|e| matches!(e, EngineEvent::BestMove { search, .. } if *search == first)),
        "{events:?}"
    );
}

#[test]
fn stockfish_plays_reports_wdl_lines_and_mates() {
    let Some(path) = stockfish() else { return };
    let mut sf = UciEngine::start(&path).unwrap();
    assert!(sf.name().starts_with("Stockfish"), "{}", sf.name());
    // Stockfish then adds `wdl W D L` to its info lines, which must not break them.
    sf.set_option("UCI_ShowWDL", "true").unwrap();
    let mut scores = 0;
    let result = sf
        .search(Search {
            game: &Game::default(),
            limits: &Limits::depth(8).unwrap(),
            stop: &never(),
            on_info: &mut |i| {
                if i.score.is_some() {
                    scores += 1;
                }
            },
        })
        .unwrap();
    assert!(Chess::default().is_legal(result.best.unwrap()));
    assert!(scores >= 8, "{scores} scored infos");
    let info = result.info.unwrap();
    assert!(info.depth >= 8 && !info.pv.is_empty(), "{info:?}");

    let result = sf
        .search(Search {
            game: &game("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1"),
            limits: &Limits::depth(10).unwrap(),
            stop: &never(),
            on_info: &mut |_| {},
        })
        .unwrap();
    assert_eq!(result.info.unwrap().score, Some(Score::Mate(2)));
}

#[test]
fn stockfish_strength_settings_are_checked() {
    let Some(path) = stockfish() else { return };
    let mut sf = UciEngine::start(&path).unwrap();
    sf.set_strength(Strength::Skill(0)).unwrap();
    sf.set_strength(Strength::Elo(1350)).unwrap();
    // Stockfish's UCI_Elo starts at 1350.
    let err = sf.set_strength(Strength::Elo(1000)).unwrap_err();
    assert!(err.to_string().contains("1350"), "{err}");
    sf.set_strength(Strength::Full).unwrap();
    let result = sf
        .search(Search {
            game: &Game::default(),
            limits: &Limits::movetime_ms(50).unwrap(),
            stop: &never(),
            on_info: &mut |_| {},
        })
        .unwrap();
    assert!(result.best.is_some());
}

#[test]
fn stockfish_says_bestmove_none_when_mated() {
    let Some(path) = stockfish() else { return };
    let mut sf = UciEngine::start(&path).unwrap();
    let mated = game("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    let result = sf
        .search(Search {
            game: &mated,
            limits: &Limits::depth(5).unwrap(),
            stop: &never(),
            on_info: &mut |_| {},
        })
        .unwrap();
    assert_eq!(result.best, None);
}

#[test]
fn stockfish_killed_mid_search_falls_back_in_the_handle() {
    let Some(path) = stockfish() else { return };
    let mut handle = EngineHandle::spawn(EngineChoice::Uci {
        path,
        args: vec![],
        strength: Strength::Full,
    });
    let ready = wait_for(&handle, |e| matches!(e, EngineEvent::Ready { .. }));
    let Some(EngineEvent::Ready { pid: Some(pid), .. }) = ready.last() else {
        panic!("{ready:?}")
    };
    let id = handle.search(Game::default(), Limits::default());
    wait_for(
        &handle,
        |e| matches!(e, EngineEvent::Info { search, .. } if *search == id),
    );
    kill(*pid);
    wait_for(&handle, |e| matches!(e, EngineEvent::FellBack { .. }));
    handle.stop();
    let events = wait_for(&handle, |e| matches!(e, EngineEvent::BestMove { .. }));
    assert!(
        matches!(events.last(), Some(EngineEvent::BestMove { result, .. }) if result.best.is_some())
    );
}

/// The wake-up is called when the engine is ready and when its move is sent, so a
/// window draws the move at once; search reports alone do not call it.
#[test]
fn handle_wakes_its_owner_when_ready_and_when_it_has_moved() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    let calls = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&calls);
    let wake = Arc::new(move || {
        counter.fetch_add(1, Ordering::SeqCst);
    });
    let mut handle = EngineHandle::spawn_waking(EngineChoice::Builtin(Strength::Full), wake);
    wait_for(&handle, |e| matches!(e, EngineEvent::Ready { .. }));
    // The call follows the send: wait for it.
    let settle = |n: usize| {
        for _ in 0..200 {
            if calls.load(Ordering::SeqCst) >= n {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        calls.load(Ordering::SeqCst)
    };
    assert_eq!(settle(1), 1, "ready");
    let id = handle.search(Game::default(), Limits::depth(4).unwrap());
    let events = wait_for(&handle, |e| matches!(e, EngineEvent::BestMove { .. }));
    assert!(matches!(events.last(), Some(EngineEvent::BestMove { search, .. }) if *search == id));
    let infos = events
        .iter()
        .filter(|e| matches!(e, EngineEvent::Info { .. }))
        .count();
    assert!(infos >= 1, "{events:?}");
    assert_eq!(settle(2), 2, "moved, with {infos} reports in between");
}

/// A UCI engine that answers the handshake, then exits when told to search.
fn exits_on_go() -> (PathBuf, Vec<String>) {
    let script = "while read -r line; do case \"$line\" in \
                  uci) echo 'id name quitter'; echo uciok ;; \
                  isready) echo readyok ;; \
                  go*) echo 'gone' >&2; exit 4 ;; \
                  esac; done";
    (PathBuf::from("/bin/sh"), vec!["-c".into(), script.into()])
}

/// An engine process that exits mid-search is an error, not a wait: the client says it
/// exited while waiting for `bestmove`, with its status and last words.
#[test]
fn an_engine_that_exits_on_go_is_an_error_not_a_hang() {
    let (path, args) = exits_on_go();
    let mut engine = UciEngine::start_with(&path, &args, Timeouts::default()).unwrap();
    let err = engine
        .search(Search {
            game: &Game::default(),
            limits: &Limits::depth(5).unwrap(),
            stop: &never(),
            on_info: &mut |_| {},
        })
        .unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(
            err,
            EngineError::Exited {
                waiting_for: Some("bestmove"),
                ..
            }
        ),
        "{text}"
    );
    assert!(
        text.contains("exit status: 4") && text.contains("gone"),
        "{text}"
    );
    // The handle says so and answers with the built-in engine.
    let mut handle = EngineHandle::spawn(EngineChoice::Uci {
        path,
        args,
        strength: Strength::Full,
    });
    wait_for(&handle, |e| matches!(e, EngineEvent::Ready { .. }));
    let id = handle.search(Game::default(), Limits::depth(2).unwrap());
    let events = wait_for(&handle, |e| matches!(e, EngineEvent::BestMove { .. }));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, EngineEvent::FellBack { error, .. } if error.contains("exited"))),
        "{events:?}"
    );
    assert!(matches!(events.last(), Some(EngineEvent::BestMove { search, .. }) if *search == id));
}

/// An in-process engine that panics.
struct Panicking;

impl Engine for Panicking {
    fn name(&self) -> String {
        "panicking".to_owned()
    }

    fn search(&mut self, _: Search<'_>) -> Result<hastings::engine::SearchResult, EngineError> {
        panic!("the evaluation divided by zero");
    }
}

/// A worker thread that died is an error the caller gets, with the panic's message,
/// once, and again for a search asked for after it; never a silence that looks like
/// thinking.
#[test]
fn a_dead_engine_thread_is_reported_not_taken_for_thinking() {
    let mut handle = EngineHandle::spawn_engine(Box::new(Panicking), Arc::new(|| {}));
    wait_for(&handle, |e| matches!(e, EngineEvent::Ready { .. }));
    handle.search(Game::default(), Limits::ONE_PLY);
    let events = wait_for(&handle, |e| matches!(e, EngineEvent::Died(_)));
    let Some(EngineEvent::Died(gone)) = events.last() else {
        unreachable!()
    };
    assert_eq!(
        gone,
        &WorkerGone::Panicked("the evaluation divided by zero".into())
    );
    assert!(gone.to_string().contains("divided by zero"), "{gone}");
    assert_eq!(handle.gone(), Some(gone));
    // Told once: then nothing, until another search is asked of the dead worker.
    assert_eq!(handle.try_recv(), None);
    handle.search(Game::default(), Limits::ONE_PLY);
    assert_eq!(handle.try_recv(), Some(EngineEvent::Died(gone.clone())));
    assert_eq!(handle.try_recv(), None);
}

/// An engine whose output is not UTF-8 (a Latin-1 name, a stray byte in an `info`
/// line) is read with the bytes replaced: the handshake and the search go on.
#[test]
fn an_engine_printing_latin1_bytes_is_still_understood() {
    let script = "while read -r line; do case \"$line\" in \
                  uci) printf 'id name caf\\351\\nuciok\\n' ;; \
                  isready) echo readyok ;; \
                  go*) printf 'info string \\377\\376 tablebase \\351\\nbestmove e2e4\\n' ;; \
                  esac; done";
    let args = ["-c".to_string(), script.to_string()];
    let mut engine =
        UciEngine::start_with(Path::new("/bin/sh"), &args, Timeouts::default()).unwrap();
    assert_eq!(engine.name(), "caf\u{fffd}");
    let result = engine
        .search(Search {
            game: &Game::default(),
            limits: &Limits::depth(1).unwrap(),
            stop: &never(),
            on_info: &mut |_| {},
        })
        .unwrap();
    let e4 = "e2e4".parse::<shakmaty::uci::UciMove>().unwrap();
    assert_eq!(result.best, Some(e4.to_move(&Chess::default()).unwrap()));
}
