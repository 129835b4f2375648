//! `hastings book make`: books made from the PGN fixtures hold what python-chess counts,
//! whatever the threads, chunks and spills; problems in games are reported by file and
//! game.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::hastings;
use hastings::book::pgn::StartIssue;
use hastings::book::polyglot::{GameIssueReason, PolyglotBook, WeightRule};
use hastings::job::JobProgress;
use hastings::workspace::polyglot_make::{MakeError, MakeOptions, MakeReport, make_book};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn fixtures() -> Vec<PathBuf> {
    vec![fixture("twic1599_100k.pgn"), fixture("lichess_db_100k.pgn")]
}

/// A fresh path in the temporary directory.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "hastings-polyglot-make-{}-{name}",
        std::process::id()
    ))
}

/// `(key, move) → (games, score)` of `tests/fixtures/polyglot_counts_12.tsv`: python-chess
/// 1.11.2 counting the first 12 plies of both fixtures (docs/polyglot_check.py golden).
fn golden() -> BTreeMap<(u64, String), (u64, u64)> {
    let text = std::fs::read_to_string(fixture("polyglot_counts_12.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let key = u64::from_str_radix(cols[0], 16).unwrap();
            (
                (key, cols[1].to_owned()),
                (cols[2].parse().unwrap(), cols[3].parse().unwrap()),
            )
        })
        .collect()
}

/// The book's entries as `(key, move) → weight`.
fn entries(path: &Path) -> BTreeMap<(u64, String), u64> {
    let bytes = std::fs::read(path).unwrap();
    let book = PolyglotBook::new(&bytes).unwrap();
    book.check().unwrap();
    let mut out = BTreeMap::new();
    for e in book.entries() {
        let old = out.insert((e.key, e.raw_move.to_string()), u64::from(e.weight));
        assert!(old.is_none(), "one entry per (key, move)");
    }
    out
}

fn make(inputs: &[PathBuf], output: &Path, options: &MakeOptions) -> MakeReport {
    make_book(inputs, output, options, &JobProgress::new()).unwrap()
}

#[test]
fn a_made_book_holds_the_counts_python_chess_gives_at_every_position() {
    let golden = golden();
    for weights in ["games", "polyglot"] {
        for min_games in [1u64, 2] {
            let out = temp(&format!("golden-{weights}-{min_games}.bin"));
            let (code, stdout, stderr) = hastings(&[
                "book",
                "make",
                fixture("twic1599_100k.pgn").to_str().unwrap(),
                fixture("lichess_db_100k.pgn").to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
                "--max-plies",
                "12",
                "--weights",
                weights,
                "--min-games",
                &min_games.to_string(),
            ]);
            assert_eq!(code, 0, "{stderr}");
            assert!(stdout.contains("games      157"), "{stdout}");
            // No position has more than 65,535 games here: weights are the counts.
            let want: BTreeMap<(u64, String), u64> = golden
                .iter()
                .filter(|(_, (g, _))| *g >= min_games)
                .map(|(k, &(g, s))| (k.clone(), if weights == "games" { g } else { s }))
                .filter(|(_, w)| *w > 0)
                .collect();
            let got = entries(&out);
            assert_eq!(got.len(), want.len(), "{weights} {min_games}");
            for (k, w) in &want {
                assert_eq!(got.get(k), Some(w), "{weights} {min_games}: {k:x?}");
            }
            std::fs::remove_file(out).unwrap();
        }
    }
}

#[test]
fn threads_chunks_and_spills_do_not_change_the_book() {
    let reference = temp("reference.bin");
    let report = make(&fixtures(), &reference, &MakeOptions::default());
    assert_eq!(report.spilled_runs, 0);
    assert_eq!(report.games, 157);
    let reference_bytes = std::fs::read(&reference).unwrap();
    let variants = [
        (1, None, None),
        (3, Some(4096), None),
        // About 60 spilled runs of 64 pairs.
        (2, Some(8192), Some(64)),
        // More runs than one merge takes: merged in groups first.
        (2, Some(4096), Some(12)),
    ];
    for (threads, chunk_bytes, map_capacity) in variants {
        let out = temp(&format!("variant-{threads}.bin"));
        let options = MakeOptions {
            threads,
            chunk_bytes,
            map_capacity,
            ..MakeOptions::default()
        };
        let report = make(&fixtures(), &out, &options);
        assert_eq!(report.games, 157);
        if let Some(capacity) = map_capacity {
            assert!(report.spilled_runs > 4000 / capacity / 2, "{report:?}");
        }
        assert_eq!(
            std::fs::read(&out).unwrap(),
            reference_bytes,
            "{threads} threads, chunks {chunk_bytes:?}, capacity {map_capacity:?}"
        );
        std::fs::remove_file(out).unwrap();
    }
    std::fs::remove_file(reference).unwrap();
}

#[test]
fn polyglot_weights_follow_results_and_leave_out_only_losses() {
    // illegal.pgn: 1-0 (Ruy Lopez), 0-1 (illegal 4. Bxf7+, 6 plies count), ½-½ (English).
    let out = temp("results.bin");
    let options = MakeOptions {
        weights: WeightRule::Polyglot,
        ..MakeOptions::default()
    };
    let report = make(&[fixture("illegal.pgn")], &out, &options);
    assert_eq!(report.plies, 10 + 6 + 8);
    let got = entries(&out);
    let start = 0x463b96181691fc9c;
    // White won with 1. e4 (2), lost with 1. d4 (0: left out), drew with 1. c4 (1).
    assert_eq!(got.get(&(start, "e2e4".into())), Some(&2));
    assert_eq!(got.get(&(start, "c2c4".into())), Some(&1));
    assert_eq!(got.get(&(start, "d2d4".into())), None);
    // Black's 5 moves in the game White won, White's 3 in the game White lost.
    assert_eq!(report.written.zero_weight, 5 + 3);
    // Castling is written king takes rook.
    assert!(got.keys().any(|(_, m)| m == "e1h1"));
    std::fs::remove_file(out).unwrap();
}

#[test]
fn problems_are_reported_with_file_and_game_number_across_chunks() {
    // illegal.pgn fifty times: the illegal move is in games 2, 5, 8, …, 149.
    let text = std::fs::read_to_string(fixture("illegal.pgn")).unwrap();
    let many = temp("many.pgn");
    std::fs::write(&many, text.repeat(50).replace("1/2-1/2\n", "1/2-1/2\n\n")).unwrap();
    let out = temp("many.bin");
    let options = MakeOptions {
        chunk_bytes: Some(2048),
        ..MakeOptions::default()
    };
    let inputs = [fixture("bad_collection.pgn"), many.clone()];
    let report = make(&inputs, &out, &options);
    assert_eq!(report.games, 10 + 150);
    assert_eq!(report.issue_count, 5 + 50);
    let in_many: Vec<u64> = report
        .issues
        .iter()
        .filter(|i| i.file == many)
        .map(|i| i.issue.game)
        .collect();
    assert_eq!(in_many, (0..50).map(|i| 2 + 3 * i).collect::<Vec<u64>>());
    let first = &report.issues[0];
    assert_eq!(first.file, inputs[0]);
    assert_eq!((first.issue.game, first.issue.ply), (2, 7));
    assert_eq!(first.issue.reason, GameIssueReason::IllegalMove);
    // Then two variants, Chess960 castling rights (not a standard-chess FEN), and the
    // last game cut in the middle of a move (`truncated.pgn`).
    let reasons: Vec<&GameIssueReason> = report.issues[1..5]
        .iter()
        .map(|i| &i.issue.reason)
        .collect();
    assert!(
        matches!(reasons[0], GameIssueReason::Start(StartIssue::Variant(v)) if v == "Chess960")
    );
    assert!(matches!(
        reasons[1],
        GameIssueReason::Start(StartIssue::Chess960(_))
    ));
    assert!(
        matches!(reasons[2], GameIssueReason::Start(StartIssue::Variant(v)) if v == "Crazyhouse")
    );
    assert_eq!(*reasons[3], GameIssueReason::Truncated);
    std::fs::remove_file(many).unwrap();
    std::fs::remove_file(out).unwrap();
}

#[test]
fn the_cli_prints_the_problems_and_the_summary() {
    let out = temp("cli.bin");
    let (code, stdout, stderr) = hastings(&[
        "book",
        "make",
        fixture("bad_collection.pgn").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("issues     5"), "{stdout}");
    assert!(
        stderr.contains("bad_collection.pgn: game 2, ply 7 `Bxf7+`: illegal move"),
        "{stderr}"
    );
    let (code, info, _) = hastings(&["book", "info", out.to_str().unwrap(), "--moves", "e4"]);
    assert_eq!(code, 0);
    assert!(info.contains("e5"), "{info}");
    std::fs::remove_file(out).unwrap();
}

#[test]
fn bad_options_and_files_give_errors_and_leave_no_output() {
    let out = temp("never.bin");
    let err = make_book(
        &[fixture("no-such-file.pgn")],
        &out,
        &MakeOptions::default(),
        &JobProgress::new(),
    )
    .unwrap_err();
    assert!(matches!(err, MakeError::Read { .. }), "{err}");
    let options = MakeOptions {
        memory_mb: 8,
        ..MakeOptions::default()
    };
    let err = make_book(&fixtures(), &out, &options, &JobProgress::new()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--memory 8 MB is too little: at least 32 MB"
    );
    let nowhere = Path::new("/nonexistent-dir/book.bin");
    assert!(
        make_book(
            &fixtures(),
            nowhere,
            &MakeOptions::default(),
            &JobProgress::new()
        )
        .is_err()
    );
    assert!(!out.exists());
    let (code, _, stderr) = hastings(&["book", "make", "-o", out.to_str().unwrap()]);
    assert_eq!(code, 2, "clap refuses a make without PGN files: {stderr}");
}

#[test]
fn a_cancelled_make_stops_and_writes_nothing() {
    let out = temp("cancelled.bin");
    let progress = JobProgress::new();
    progress.cancel();
    let err = make_book(&fixtures(), &out, &MakeOptions::default(), &progress).unwrap_err();
    assert!(matches!(err, MakeError::Cancelled));
    assert!(!out.exists());
}

/// `games` as PGN (each number picks a legal move), and every `(position, move)` played.
fn random_games(games: &[Vec<u32>]) -> (String, Vec<(shakmaty::Chess, shakmaty::Move)>) {
    use shakmaty::san::SanPlus;
    use shakmaty::{Chess, Position};
    let mut text = String::new();
    let mut played = Vec::new();
    for (i, choices) in games.iter().enumerate() {
        let result = ["1-0", "0-1", "1/2-1/2", "*"][i % 4];
        text.push_str(&format!(
            "[Event \"Random {i}\"]\n[Result \"{result}\"]\n\n"
        ));
        let mut pos = Chess::default();
        for (ply, choice) in choices.iter().enumerate() {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[*choice as usize % legal.len()];
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            text.push_str(&format!("{} ", SanPlus::from_move(pos.clone(), mv)));
            played.push((pos.clone(), mv));
            pos.play_unchecked(mv);
        }
        text.push_str(result);
        text.push_str("\n\n");
    }
    (text, played)
}

/// The book of `text` made in memory, with the counts split into runs of at most
/// `capacity` pairs.
fn book_in_memory(text: &str, capacity: usize) -> Vec<u8> {
    use hastings::book::polyglot::{
        BookWriter, MoveCount, MoveCounts, RawMove, WriterOptions, merge_runs, read_games,
    };
    let mut plies: Vec<(u64, RawMove, u8)> = Vec::new();
    read_games(text.as_bytes(), u32::MAX, &mut plies).unwrap();
    let mut counts = MoveCounts::with_capacity(capacity);
    let mut runs: Vec<Vec<MoveCount>> = Vec::new();
    for (key, mv, score) in plies {
        if !counts.try_add(key, mv, score) {
            runs.push(counts.take_run());
            assert!(counts.try_add(key, mv, score));
        }
    }
    runs.push(counts.take_run());
    let mut writer = BookWriter::new(Vec::new(), WriterOptions::default());
    let merged = merge_runs(
        runs.into_iter()
            .map(|r| r.into_iter().map(Ok::<_, ()>))
            .collect(),
    );
    for count in merged {
        writer.push(count.unwrap()).unwrap();
    }
    writer.finish().unwrap().0
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    #[test]
    fn every_move_of_random_games_is_a_legal_entry_of_its_position(
        games in proptest::collection::vec(
            proptest::collection::vec(proptest::prelude::any::<u32>(), 1..50), 1..6)
    ) {
        let (text, played) = random_games(&games);
        let bytes = book_in_memory(&text, 1 << 16);
        let book = PolyglotBook::new(&bytes).unwrap();
        proptest::prop_assert!(book.check().is_ok());
        for (pos, mv) in &played {
            let moves = book.moves(pos);
            proptest::prop_assert!(moves.skipped.is_empty());
            proptest::prop_assert!(moves.moves.iter().any(|m| m.mv == *mv), "{}", text);
        }
        let weights: u64 = book.entries().map(|e| u64::from(e.weight)).sum();
        proptest::prop_assert_eq!(weights, played.len() as u64);
        // Runs of a few pairs merge into the same book.
        proptest::prop_assert_eq!(book_in_memory(&text, 3), bytes);
    }
}
