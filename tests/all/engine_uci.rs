//! `hastings uci` as a process, driven by a script as a GUI would.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use hastings::engine::protocol::{EngineLine, parse_line};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

/// Generous: these are timeouts against a hung engine, not timing assertions.
const WAIT: Duration = Duration::from_secs(20);

struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    fn start() -> Session {
        Session::start_with(&[])
    }

    /// `hastings uci` with more command-line arguments.
    fn start_with(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hastings"))
            .arg("uci")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take().unwrap();
        Session {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes (UTF-8 or not).
    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first for which `done` holds.
    fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer; saw {seen:?}"));
            let stop = done(&line);
            seen.push(line);
            if stop {
                return seen;
            }
        }
    }

    fn bestmove(&self) -> (Option<UciMove>, Vec<String>) {
        let lines = self.until(|l| l.starts_with("bestmove"));
        let EngineLine::BestMove { best, .. } = parse_line(lines.last().unwrap()) else {
            panic!("{lines:?}")
        };
        (best, lines)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn scripted_session_plays_a_legal_reply_and_quits() {
    let mut s = Session::start();
    s.send("uci");
    let hello = s.until(|l| l == "uciok");
    assert!(
        hello.iter().any(|l| l.starts_with("id name hastings")),
        "{hello:?}"
    );
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Skill Level type spin")),
        "{hello:?}"
    );
    s.send("isready");
    s.until(|l| l == "readyok");
    s.send("position startpos moves e2e4");
    s.send("go movetime 200");
    let (best, lines) = s.bestmove();
    let mut pos = Chess::default();
    pos.play_unchecked("e2e4".parse::<UciMove>().unwrap().to_move(&pos).unwrap());
    assert!(best.unwrap().to_move(&pos).is_ok(), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    quits(s);
}

#[test]
fn infinite_search_answers_only_on_stop_and_isready_meanwhile() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    s.send("isready");
    let lines = s.until(|l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    // Nothing but info while the search runs.
    let quiet_until = Instant::now() + Duration::from_millis(300);
    while let Ok(line) = s
        .lines
        .recv_timeout(quiet_until.saturating_duration_since(Instant::now()))
    {
        assert!(line.starts_with("info"), "{line}");
    }
    s.send("stop");
    let (best, _) = s.bestmove();
    assert!(best.unwrap().to_move(&Chess::default()).is_ok());
}

#[test]
fn go_depth_on_mate_positions_gives_the_mate() {
    let mut s = Session::start();
    // Stockfish 15.1 agrees: mate in 2, first move d5f6 (tests/all/engine_search.rs).
    s.send("position fen r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1");
    s.send("go depth 4");
    let (best, lines) = s.bestmove();
    assert_eq!(best.unwrap().to_string(), "d5f6");
    let last_info = lines.iter().rev().find(|l| l.starts_with("info")).unwrap();
    assert!(last_info.contains("score mate 2"), "{last_info}");
    // Mate in one as Black.
    s.send("position fen rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2");
    s.send("go depth 3");
    let (best, lines) = s.bestmove();
    assert_eq!(best.unwrap().to_string(), "d8h4");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
}

#[test]
fn mated_position_answers_bestmove_none() {
    let mut s = Session::start();
    s.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    s.send("go depth 3");
    let lines = s.until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
}

#[test]
fn mcts_is_selected_with_setoption() {
    let mut s = Session::start();
    s.send("setoption name Search value mcts");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go nodes 300");
    let (best, lines) = s.bestmove();
    let pos = common::position_after("e4 e5");
    assert!(best.unwrap().to_move(&pos).is_ok(), "{lines:?}");
    // MCTS reports playouts as nodes.
    assert!(lines.iter().any(|l| l.contains("nodes 300")), "{lines:?}");
    s.send("setoption name Search value nonsense");
    s.send("isready");
    let lines = s.until(|l| l == "readyok");
    assert!(
        lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
}

#[test]
fn end_of_input_lets_a_limited_search_finish() {
    let out = Command::new(env!("CARGO_BIN_EXE_hastings"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(b"position startpos\ngo depth 3\n")?;
            drop(stdin);
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
}

#[test]
fn bad_commands_are_reported_and_ignored() {
    let mut s = Session::start();
    s.send("position startpos moves e2e5");
    s.send("frobnicate");
    s.send("isready");
    let lines = s.until(|l| l == "readyok");
    assert!(
        lines.iter().any(|l| l.contains("position ignored")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("unknown command")),
        "{lines:?}"
    );
}

/// Waits until `hastings uci` has exited after `quit`, and checks that it succeeded.
fn quits(mut s: Session) {
    s.send("quit");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = s.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < WAIT,
            "hastings uci did not exit on quit"
        );
        thread::sleep(Duration::from_millis(10));
    };
    assert!(status.success());
}

/// The checks every agent passes: the handshake names it as the `Search` default,
/// twenty replies along a game are legal, an infinite search answers on `stop`, and
/// `quit` ends the process. Returns the handshake's lines.
fn passes_the_uci_checks(args: &[&str], agent: &str) -> Vec<String> {
    let mut s = Session::start_with(args);
    s.send("uci");
    let hello = s.until(|l| l == "uciok");
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with(&format!("option name Search type combo default {agent}"))),
        "{hello:?}"
    );
    s.send("isready");
    s.until(|l| l == "readyok");
    // Twenty positions along a game: each reply is legal there.
    let mut pos = Chess::default();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..20 {
        s.send(&format!("position startpos moves {}", moves.join(" ")));
        s.send("go movetime 50");
        let (best, lines) = s.bestmove();
        let m = best
            .unwrap()
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("{e}: {lines:?}"));
        moves.push(m.to_uci(shakmaty::CastlingMode::Standard).to_string());
        pos.play_unchecked(m);
        if pos.is_game_over() {
            break;
        }
    }
    // An infinite search answers on stop.
    s.send("position startpos");
    s.send("go infinite");
    s.send("isready");
    s.until(|l| l == "readyok");
    s.send("stop");
    let (best, _) = s.bestmove();
    assert!(best.unwrap().to_move(&Chess::default()).is_ok());
    quits(s);
    hello
}

#[test]
fn human_agent_passes_handshake_legal_moves_stop_and_quit() {
    let hello = passes_the_uci_checks(&["--agent", "human", "--temperature", "0.5"], "human");
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Temperature type string default 0.5")),
        "{hello:?}"
    );
}

#[test]
fn eval_agent_passes_handshake_legal_moves_stop_and_quit() {
    passes_the_uci_checks(&["--agent", "eval", "--depth", "3"], "eval");
}

#[test]
fn blend_agent_passes_handshake_legal_moves_stop_and_quit() {
    let hello = passes_the_uci_checks(
        &["--agent", "blend", "--lambda", "0.3", "--depth", "2"],
        "blend",
    );
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Lambda type string default 0.3")),
        "{hello:?}"
    );
}

/// The moves of `sans` as a `position startpos moves …` command.
fn position_command(sans: &str) -> String {
    let moves: Vec<String> = common::san_moves(sans)
        .iter()
        .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect();
    format!("position startpos moves {}", moves.join(" "))
}

#[test]
fn blend_at_lambda_zero_plays_the_eval_agents_move_and_at_one_the_predictors() {
    let openings = ["", "e4 c5", "d4 Nf6 c4 e6 Nc3", "e4 e5 Nf3 Nc6 Bb5 a6"];
    let answers = |setup: &[&str]| -> Vec<shakmaty::Move> {
        let mut s = Session::start();
        for line in setup {
            s.send(line);
        }
        let answers = openings
            .iter()
            .map(|sans| {
                s.send(&position_command(sans));
                s.send("go depth 2");
                let (best, lines) = s.bestmove();
                best.unwrap()
                    .to_move(&common::position_after(sans))
                    .unwrap_or_else(|e| panic!("{e}: {lines:?}"))
            })
            .collect();
        quits(s);
        answers
    };
    let eval = answers(&["setoption name Search value eval"]);
    let blend = |lambda: &str| {
        answers(&[
            "setoption name Search value blend",
            &format!("setoption name Lambda value {lambda}"),
        ])
    };
    assert_eq!(blend("0"), eval);
    let predictor = hastings::engine::predictor::Predictor::shipped().unwrap();
    let top: Vec<shakmaty::Move> = openings
        .iter()
        .map(|sans| predictor.predict(&common::position_after(sans))[0].mv)
        .collect();
    assert_eq!(blend("1"), top);
    assert_ne!(eval, top, "the test needs positions where the two disagree");
}

#[test]
fn human_agent_at_temperature_zero_plays_the_predictors_top_move() {
    let mut s = Session::start();
    s.send("setoption name Search value human");
    s.send("setoption name Temperature value 0");
    let predictor = hastings::engine::predictor::Predictor::shipped().unwrap();
    for sans in ["", "e4 c5", "d4 Nf6 c4 e6 Nc3"] {
        let pos = common::position_after(sans);
        let moves: Vec<String> = common::san_moves(sans)
            .iter()
            .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
            .collect();
        s.send(&format!("position startpos moves {}", moves.join(" ")));
        s.send("go depth 1");
        let (best, lines) = s.bestmove();
        let top = predictor.predict(&pos)[0].mv;
        assert_eq!(
            best.unwrap().to_move(&pos).unwrap(),
            top,
            "{sans}: {lines:?}"
        );
    }
    s.send("setoption name Temperature value hot");
    s.send("isready");
    let lines = s.until(|l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string Temperature")),
        "{lines:?}"
    );
    quits(s);
}

/// The five agents, as `hastings uci --agent` names them.
const AGENTS: [&str; 5] = ["alphabeta", "mcts", "human", "eval", "blend"];

/// A clock past zero, which GUIs send after lag, is no time left: every agent still
/// answers with a legal move (shakmaty-uci refused the whole line, so no `bestmove`
/// ever came).
#[test]
fn every_agent_answers_go_with_a_clock_past_zero() {
    for agent in AGENTS {
        let mut s = Session::start_with(&["--agent", agent, "--depth", "2"]);
        s.send("position startpos moves e2e4");
        s.send("go wtime -50 btime -50 winc 0 binc 0");
        let (best, lines) = s.bestmove();
        let pos = common::position_after("e4");
        assert!(
            best.is_some_and(|m| m.to_move(&pos).is_ok()),
            "{agent}: {lines:?}"
        );
        // White's turn, its clock far past zero too.
        s.send("position startpos");
        s.send("go wtime -1000 btime 5000");
        let (best, lines) = s.bestmove();
        assert!(
            best.is_some_and(|m| m.to_move(&Chess::default()).is_ok()),
            "{agent}: {lines:?}"
        );
        quits(s);
    }
}

/// A byte that is not UTF-8 (a Latin-1 path in `setoption`) is replaced, not the end
/// of the input: the engine answers `isready` after it and still plays (it ended
/// silently with exit 0).
#[test]
fn every_agent_survives_latin1_bytes_on_its_input() {
    for agent in AGENTS {
        let mut s = Session::start_with(&["--agent", agent, "--depth", "2"]);
        s.send_bytes(b"setoption name SyzygyPath value C:\\\xe9checs\\tb\n");
        s.send_bytes(b"\xff\xfe garbage \xe9\n");
        s.send("isready");
        let lines = s.until(|l| l == "readyok");
        assert!(
            lines.iter().any(|l| l.contains("unknown option")),
            "{agent}: {lines:?}"
        );
        s.send("position startpos");
        s.send("go depth 1");
        let (best, lines) = s.bestmove();
        assert!(best.is_some(), "{agent}: {lines:?}");
        quits(s);
    }
}

/// `go depth 0` (Stockfish reads it as no limit) and the like get a move: a zero limit
/// is read as the least search, and said so.
#[test]
fn zero_limits_in_go_are_the_least_search_and_answered() {
    let mut s = Session::start();
    for go in ["go depth 0", "go movetime 0", "go nodes 0"] {
        s.send("position startpos");
        s.send(go);
        let (best, lines) = s.bestmove();
        assert!(best.is_some(), "{go}: {lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string") && l.contains("0 is no limit")),
            "{go}: {lines:?}"
        );
    }
    quits(s);
}
