//! `hastings check` and `trainer::check`: a repertoire with planted mistakes checked by
//! Stockfish and by the built-in engine, the cache (a second run, an added line, a killed
//! run), and the back-up against a hand-computed tree.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::io::Write;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{fixture, hastings, stockfish_or_skip, temp_dir};
use hastings::book::pgn::{ImportOptions, read_pgn};
use hastings::book::{PositionGraph, SourceId};
use hastings::engine::Score;
use hastings::engine::analysis::Analysis;
use hastings::sampler::Style;
use hastings::trainer::check::{AnalysisStore, MemoryStore, positions_to_analyse, report};
use hastings::trainer::coverage::{CoverageOptions, exposure};
use hastings::workspace::analysis_cache::AnalysisCache;
use serde_json::Value;
use shakmaty::{Chess, Color, Position};

fn check_json(args: &[&str]) -> Value {
    let mut all = vec!["check", "--json", "--color", "black"];
    all.extend_from_slice(args);
    let (code, out, err) = hastings(&all);
    assert_eq!(code, 0, "hastings check failed: {err}");
    serde_json::from_str(&out).unwrap()
}

/// (moves, played, first move of the refutation) of each finding.
fn findings(json: &Value, list: &str) -> Vec<(String, String, String)> {
    let mut out: Vec<_> = json[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["moves"].as_str().unwrap().to_owned(),
                f["played"].as_str().unwrap().to_owned(),
                f["refutation"][0].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    out.sort();
    out
}

fn planted() -> Vec<(String, String, String)> {
    vec![
        ("d4 d5 e3 e6 Bd3 Nf6 f4".into(), "Ng4".into(), "Qxg4".into()),
        ("e4 e5 Qh5 Nc6 Bc4".into(), "Nf6".into(), "Qxf7#".into()),
    ]
}

/// The line ends at least `threshold` down for the learner that no blunder explains.
fn bad_ends(json: &Value, threshold: i64) -> Vec<(String, Option<String>)> {
    json["line_ends"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            e["eval_cp"].as_i64().unwrap() <= -threshold && !e["after_blunder"].as_bool().unwrap()
        })
        .map(|e| {
            (
                e["moves"].as_str().unwrap().to_owned(),
                e["start"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

const ROOK_DOWN: &str = "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1";

#[test]
fn stockfish_reports_exactly_the_planted_mistakes() {
    if stockfish_or_skip().is_none() {
        return;
    }
    let pgn = fixture("check_planted.pgn");
    let json = check_json(&[
        "--pgn",
        pgn.to_str().unwrap(),
        "--engine",
        "stockfish",
        "--depth",
        "12",
        "--plies",
        "8",
        "--no-cache",
    ]);
    assert!(json["engine"].as_str().unwrap().contains("Stockfish"));
    assert!(json["positions_analysed"].as_u64().unwrap() > 50);
    assert_eq!(findings(&json, "blunders"), planted());
    assert_eq!(findings(&json, "weak_answers"), planted());
    for b in json["blunders"].as_array().unwrap() {
        assert!(b["loss_cp"].as_i64().unwrap() >= 100, "{b}");
        assert!(b["reach"].as_f64().unwrap() > 0.0, "{b}");
        assert!(b["best"].is_string(), "{b}");
    }
    assert_eq!(
        bad_ends(&json, 100),
        vec![("e4 e5 Nf3 Nc6".to_owned(), Some(ROOK_DOWN.to_owned()))]
    );
    // The opponent can always steer into the knight lost after 4.f4 (the mate is
    // avoided by 1...c6); on average drills end near equality.
    let minimax = json["minimax_cp"].as_i64().unwrap();
    assert!((-600..=-300).contains(&minimax), "{minimax}");
    let expected = json["expected_cp"].as_f64().unwrap();
    assert!(expected > minimax as f64 && expected < 100.0, "{expected}");
}

#[test]
fn the_builtin_engine_finds_the_hung_piece_and_the_mate() {
    let pgn = fixture("check_planted.pgn");
    let json = check_json(&[
        "--pgn",
        pgn.to_str().unwrap(),
        "--engine",
        "builtin",
        "--depth",
        "4",
        "--plies",
        "2",
        "--no-cache",
    ]);
    let found = findings(&json, "blunders");
    for p in planted() {
        assert!(found.contains(&p), "{p:?} not in {found:?}");
    }
}

/// Issue 41, item 3: the text report lists each losing move once (the "replies you meet
/// badly" repeated the same lines: each is the same move seen from the reply before
/// it), numbered as players write moves, the scores and how often in words.
#[test]
fn the_text_report_lists_each_losing_move_once_numbered_and_in_words() {
    let pgn = fixture("check_planted.pgn");
    let (code, out, err) = hastings(&[
        "check",
        "--color",
        "black",
        "--pgn",
        pgn.to_str().unwrap(),
        "--engine",
        "builtin",
        "--depth",
        "4",
        "--plies",
        "6",
        "--no-cache",
    ]);
    assert_eq!(code, 0, "hastings check failed: {err}");
    for line in [
        "1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?",
        "1.d4 d5 2.e3 e6 3.Bd3 Nf6 4.f4 Ng4?",
    ] {
        assert_eq!(out.matches(line).count(), 1, "{line} in\n{out}");
    }
    assert_eq!(out.matches("Nf6?").count(), 1, "{out}");
    assert_eq!(out.matches("Ng4?").count(), 1, "{out}");
    assert!(
        out.contains("after yours: mated in 1. Then 4.Qxf7#"),
        "{out}"
    );
    assert!(!out.contains("replies you meet badly"), "{out}");
    // How often in drills, never "1 in N" alone; no engine notation for a mate.
    assert!(out.contains("Nf6?  (in 1 drill in "), "{out}");
    assert!(!out.contains("  1 in "), "{out}");
    assert!(!out.contains("#-"), "{out}");
}

fn count_lines(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

#[test]
fn a_second_run_analyses_nothing_and_an_added_line_only_its_new_positions() {
    let dir = temp_dir("check-cache");
    let cache = dir.join("cache");
    let pgn = fixture("check_planted.pgn");
    let args = |pgn: &str| {
        vec![
            "--pgn".to_owned(),
            pgn.to_owned(),
            "--engine".into(),
            "builtin".into(),
            "--depth".into(),
            "2".into(),
            "--plies".into(),
            "4".into(),
            "--cache".into(),
            cache.display().to_string(),
        ]
    };
    let run = |pgn: &str| {
        let a = args(pgn);
        check_json(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let first = run(pgn.to_str().unwrap());
    let total = first["positions_analysed"].as_u64().unwrap();
    assert!(total > 20);
    assert_eq!(first["cached"], 0);

    let second = run(pgn.to_str().unwrap());
    assert_eq!(second["positions_analysed"], 0);
    assert_eq!(second["cached"].as_u64().unwrap(), total);
    assert_eq!(second["blunders"], first["blunders"]);

    // One more line: 1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let edited = dir.join("edited.pgn");
    std::fs::write(
        &edited,
        text.replacen("3. Bb5 a6", "3. Bb5 ( 3. Bc4 Bc5 ) 3... a6", 1),
    )
    .unwrap();
    let third = run(edited.to_str().unwrap());
    let graph = |path: &std::path::Path| {
        let text = std::fs::read_to_string(path).unwrap();
        let lines = read_pgn(
            text.as_bytes(),
            SourceId(1),
            &ImportOptions::default(),
            None,
        )
        .unwrap()
        .lines;
        PositionGraph::build(lines).graph
    };
    // The new positions: those of the edited repertoire's check that the first lacked.
    let eco = PositionGraph::eco().unwrap();
    let theory_of = |rep: &PositionGraph| {
        PositionGraph::build(eco.lines().iter().chain(rep.lines()).cloned()).graph
    };
    let set = |rep: &PositionGraph| {
        let options = CoverageOptions {
            depth: 4,
            ..CoverageOptions::new(Color::Black)
        };
        let ex = exposure(rep, &theory_of(rep), &Style::neutral(), &options);
        positions_to_analyse(rep, &ex)
            .iter()
            .map(hastings::trainer::check::epd_key)
            .collect::<std::collections::HashSet<_>>()
    };
    let (before, after) = (set(&graph(&pgn)), set(&graph(&edited)));
    assert_eq!(before.len() as u64, total);
    let new = after.difference(&before).count() as u64;
    assert!(new > 0 && new < 40, "{new}");
    assert_eq!(third["positions_analysed"].as_u64().unwrap(), new);
    assert_eq!(third["cached"].as_u64().unwrap(), after.len() as u64 - new);
}

#[test]
fn a_killed_check_resumes_where_it_stopped() {
    let dir = temp_dir("check-killed");
    let cache = dir.join("cache");
    let pgn = fixture("check_planted.pgn");
    let args = [
        "check",
        "--json",
        "--color",
        "black",
        "--pgn",
        pgn.to_str().unwrap(),
        "--engine",
        "builtin",
        // Depth 4: 111 positions of about 20 ms each in the debug binary (depth 5 took
        // three times as long for the same check of resuming).
        "--depth",
        "4",
        "--plies",
        "6",
        "--threads",
        "1",
        "--cache",
        cache.to_str().unwrap(),
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_hastings"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let file = || {
        std::fs::read_dir(&cache)
            .ok()
            .and_then(|mut d| d.next())
            .and_then(Result::ok)
            .map(|e| e.path())
    };
    let deadline = Instant::now() + Duration::from_secs(300);
    // Kill it once it has kept some analyses (the header and ten lines).
    while file().is_none_or(|f| count_lines(&f) < 11) {
        assert!(Instant::now() < deadline, "the check kept nothing");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the check ended too soon"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let path = file().unwrap();
    let kept = count_lines(&path) - 1;

    let (code, out, err) = hastings(&args);
    assert_eq!(code, 0, "{err}");
    let resumed: Value = serde_json::from_str(&out).unwrap();
    assert!(resumed["cached"].as_u64().unwrap() >= kept as u64);
    assert!(resumed["positions_analysed"].as_u64().unwrap() > 0);

    // The same report as a run that was never stopped.
    let mut fresh_args: Vec<&str> = args[..args.len() - 2].to_vec();
    fresh_args.push("--no-cache");
    let (_, out, _) = hastings(&fresh_args);
    let fresh: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(resumed["blunders"], fresh["blunders"]);
    assert_eq!(resumed["line_ends"], fresh["line_ends"]);
    assert_eq!(resumed["minimax_cp"], fresh["minimax_cp"]);
    assert_eq!(
        resumed["cached"].as_u64().unwrap() + resumed["positions_analysed"].as_u64().unwrap(),
        fresh["positions_analysed"].as_u64().unwrap()
    );
}

#[test]
fn a_cut_off_cache_line_is_kept_aside_and_a_bad_line_skipped() {
    let dir = temp_dir("check-torn");
    let mut cache = AnalysisCache::open(&dir, "test engine 1.0", "depth 3").unwrap();
    let start = Chess::default();
    let best = start.legal_moves()[0];
    let analysis = Analysis {
        score: Score::Cp(31),
        pv: vec![best],
        depth: 3,
    };
    cache.put(&start, &analysis).unwrap();
    let path = cache.path().to_owned();
    drop(cache);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.write_all(
        b"not a position\tcp 1\t3\t\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\tcp -2",
    )
    .unwrap();
    drop(f);

    let cache = AnalysisCache::open(&dir, "test engine 1.0", "depth 3").unwrap();
    assert_eq!(cache.get(&start), Some(analysis));
    assert_eq!(cache.len(), 1);
    let warnings = cache.warnings().join("\n");
    assert!(warnings.contains("cut off"), "{warnings}");
    assert!(warnings.contains("line 3"), "{warnings}");
    let torn: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(".torn-"))
        .collect();
    assert_eq!(torn.len(), 1);
    assert!(std::fs::read_to_string(&path).unwrap().ends_with('\n'));
    // Another engine's name never reads this file's analyses.
    let other = AnalysisCache::open(&dir, "test engine 2.0", "depth 3").unwrap();
    assert!(other.is_empty());
}

fn graph_of(pgn: &str) -> PositionGraph {
    let lines = read_pgn(pgn.as_bytes(), SourceId(1), &ImportOptions::default(), None)
        .unwrap()
        .lines;
    PositionGraph::build(lines).graph
}

fn after(sans: &str) -> Chess {
    common::position_after(sans)
}

#[test]
fn min_max_and_expected_values_equal_a_hand_computed_tree() {
    // White plays 1.e4; the theory answers 1...e5 or 1...c5 (one line each, so P = 1/2
    // each); after 1...e5 the repertoire has 2.Nf3 and 2.Bc4 (an even split), after
    // 1...c5 2.Nf3. The drills end where the theory has no reply.
    let repertoire = graph_of("[Result \"*\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 (2. Bc4) *\n");
    let theory = graph_of("[Result \"*\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n");
    let options = CoverageOptions {
        depth: 6,
        ..CoverageOptions::new(Color::White)
    };
    let ex = exposure(&repertoire, &theory, &Style::neutral(), &options);
    let tree = ex.tree();
    let replies: Vec<f64> = tree[1][0].children.iter().map(|c| c.p).collect();
    assert_eq!(replies.len(), 2);
    assert!(
        replies.iter().all(|p| (p - 0.5).abs() < 1e-12),
        "{replies:?}"
    );

    // Scores of the leaves, Black to move (the side to move's view): +50, +80, −120 and
    // a mate for White, from White's side.
    let mut store = MemoryStore::new();
    let put = |store: &mut MemoryStore, sans: &str, black_view: Score| {
        let a = Analysis {
            score: black_view,
            pv: Vec::new(),
            depth: 1,
        };
        store.put(&after(sans), &a).unwrap();
    };
    put(&mut store, "e4 e5 Nf3", Score::Cp(-50));
    put(&mut store, "e4 e5 Bc4", Score::Cp(-80));
    put(&mut store, "e4 c5 Nf3", Score::Cp(120));
    let r = report(&repertoire, &ex, &store, 100);
    // After 1...e5 White takes the better of 50 and 80; Black's worst for White is
    // 1...c5: −120. Expected: ¼·50 + ¼·80 + ½·(−120).
    assert_eq!(r.minimax_cp, Some(-120));
    assert!((r.expected_cp.unwrap() - (-27.5)).abs() < 1e-9);

    // A mate is capped at 1000 before it is backed up.
    put(&mut store, "e4 e5 Bc4", Score::Mate(-3));
    let r = report(&repertoire, &ex, &store, 100);
    assert_eq!(r.minimax_cp, Some(-120));
    assert!((r.expected_cp.unwrap() - (0.25 * 50.0 + 0.25 * 1000.0 - 60.0)).abs() < 1e-9);

    // With a leaf missing there is no value, and the report says what it lacks.
    let mut partial = MemoryStore::new();
    put(&mut partial, "e4 e5 Nf3", Score::Cp(-50));
    let r = report(&repertoire, &ex, &partial, 100);
    assert_eq!((r.minimax_cp, r.expected_cp), (None, None));
    assert!(r.missing >= 2);
}

#[test]
fn positions_to_analyse_cover_both_sides_once_each() {
    let repertoire = graph_of("[Result \"*\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n");
    let eco = PositionGraph::eco().unwrap();
    let ex = exposure(
        &repertoire,
        &eco,
        &Style::neutral(),
        &CoverageOptions {
            depth: 4,
            ..CoverageOptions::new(Color::White)
        },
    );
    let positions = positions_to_analyse(&repertoire, &ex);
    let keys: std::collections::HashSet<_> = positions
        .iter()
        .map(hastings::trainer::check::epd_key)
        .collect();
    assert_eq!(keys.len(), positions.len());
    assert_eq!(positions[0], Chess::default());
    for sans in ["e4", "e4 e5", "e4 e5 Nf3", "e4 c5 Nf3", "e4 e6"] {
        assert!(
            keys.contains(&hastings::trainer::check::epd_key(&after(sans))),
            "{sans}"
        );
    }
    assert!(positions.iter().any(|p| p.turn() == Color::White));
    assert!(positions.iter().any(|p| p.turn() == Color::Black));
}

#[test]
fn learn_next_ranks_by_reach_forgetting_and_stake() {
    // White: 1.e4, then 1...e5 2.Nf3 and 1...c5 2.Nf3 (P = 1/2 each, as above).
    let repertoire = graph_of("[Result \"*\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n");
    let theory = graph_of("[Result \"*\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n");
    let options = CoverageOptions {
        depth: 6,
        ..CoverageOptions::new(Color::White)
    };
    let ex = exposure(&repertoire, &theory, &Style::neutral(), &options);
    let start = Chess::default();
    let e5 = after("e4 e5");
    let c5 = after("e4 c5");
    // 1.e4 is well known, 1...e5 2.Nf3 half forgotten, 1...c5 2.Nf3 never reviewed.
    let recall = |pos: &Chess| {
        if *pos == start {
            Some(0.95)
        } else if *pos == e5 {
            Some(0.5)
        } else {
            None
        }
    };
    let never = |_: &Chess, _: shakmaty::Move| false;
    let ranked = hastings::trainer::check::learn_next(&ex, &recall, None, &never, 10);
    let order: Vec<&Chess> = ranked.iter().map(|l| &l.position).collect();
    assert_eq!(order, [&c5, &e5, &start]);
    // reach × (1 − recall) × 1 pawn: ½·1, ½·½, 1·0.05.
    let priorities: Vec<f64> = ranked.iter().map(|l| l.priority).collect();
    for (p, want) in priorities.iter().zip([0.5, 0.25, 0.05]) {
        assert!((p - want).abs() < 1e-9, "{priorities:?}");
    }

    // A line worth three pawns after 1...e5 2.Nf3 (Black to move, −300 for Black) moves
    // it ahead: ½·½·3 = 0.75.
    let mut store = MemoryStore::new();
    store
        .put(
            &after("e4 e5 Nf3"),
            &Analysis {
                score: Score::Cp(-300),
                pv: Vec::new(),
                depth: 1,
            },
        )
        .unwrap();
    let ranked = hastings::trainer::check::learn_next(&ex, &recall, Some(&store), &never, 10);
    assert_eq!(ranked[0].position, e5);
    assert_eq!(ranked[0].stake_cp, 300);
    assert!((ranked[0].priority - 0.75).abs() < 1e-9);

    // A move the check reports as losing is mended first, not learnt.
    let losing = |pos: &Chess, _: shakmaty::Move| *pos == c5;
    let ranked = hastings::trainer::check::learn_next(&ex, &recall, None, &losing, 10);
    assert!(ranked.iter().all(|l| l.position != c5));
}

#[test]
fn a_damaged_cache_is_kept_aside_and_the_check_runs_with_a_fresh_one() {
    let dir = temp_dir("check-damaged-cache");
    let pgn = fixture("check_planted.pgn");
    let args = [
        "check",
        "--color",
        "black",
        "--pgn",
        pgn.to_str().unwrap(),
        "--engine",
        "builtin",
        "--depth",
        "2",
        "--plies",
        "2",
        "--cache",
        dir.to_str().unwrap(),
    ];
    let (code, _, err) = hastings(&args);
    assert_eq!(code, 0, "{err}");
    let cache: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(cache.len(), 1, "{cache:?}");
    let cache = &cache[0];
    // Damaged: its header line is gone (a bit flip, a copy of another file).
    let damaged = b"\x00\x01garbage\tnot a header\nmore\n";
    std::fs::write(cache, damaged).unwrap();
    let (code, _, err) = hastings(&args);
    assert_eq!(code, 0, "the check is not blocked: {err}");
    let said: Vec<&str> = err.lines().filter(|l| l.contains("kept as")).collect();
    assert_eq!(said.len(), 1, "one line says so: {err}");
    let aside: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".damaged-"))
        .collect();
    assert_eq!(aside.len(), 1, "{err}");
    assert_eq!(
        std::fs::read(&aside[0]).unwrap(),
        damaged,
        "the bytes are kept"
    );
    assert!(
        count_lines(cache) > 1,
        "the cache is rebuilt with the new analyses"
    );
}
