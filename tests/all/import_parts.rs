//! `hastings import` on every core: a file read in parts on threads reports exactly what
//! reading it whole reports, or says it must be read whole.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use hastings::book::pgn::{ImportOptions, ImportReport, check_pgn, read_pgn};
use hastings::book::{ImportError, ImportMode};
use hastings::book::{PgnImport, SourceId};
use hastings::job::JobProgress;
use hastings::workspace::files::{check_file, import_file};
use hastings::workspace::import_parts::{Parallel, check_in_parts, import_in_parts};

use crate::common;
use common::{eco_graph, fixture_bytes, temp_dir};

const FIXTURES: [&str; 14] = [
    "bad_collection.pgn",
    "chess960.pgn",
    "compare_games.pgn",
    "coverage_e4.pgn",
    "empty.pgn",
    "fen_start.pgn",
    "garbage.pgn",
    "illegal.pgn",
    "lichess_db_100k.pgn",
    "repertoire.pgn",
    "study_chapters.pgn",
    "truncated.pgn",
    "twic1599_100k.pgn",
    "uci_moves.pgn",
];

const MODES: [ImportMode; 3] = [ImportMode::Auto, ImportMode::Games, ImportMode::Repertoire];

/// A fixture repeated to 4.5 MB: big enough to be read in parts.
fn big_file(name: &str) -> Vec<u8> {
    let one = fixture_bytes(name);
    let mut big = Vec::new();
    while big.len() < 4_500_000 {
        big.extend_from_slice(&one);
        big.extend_from_slice(b"\n\n");
    }
    big
}

fn whole(bytes: &[u8], options: &ImportOptions) -> Result<ImportReport, String> {
    check_pgn(bytes, options).map_err(|e| format!("{e:?}"))
}

fn in_parts(
    bytes: &[u8],
    options: &ImportOptions,
    part_bytes: usize,
) -> Option<Result<ImportReport, String>> {
    let parallel = Parallel {
        threads: 3,
        part_bytes,
    };
    match check_in_parts(bytes, options, parallel) {
        Ok(Some(report)) => Some(Ok(report)),
        Ok(None) => None,
        Err(e) => Some(Err(format!("{e:?}"))),
    }
}

/// Every fixture, in every mode, cut into parts of 1 KB to 64 KB (the cutter makes a
/// part at least 4 KB): the same report, issues with their game numbers and offsets
/// included, whenever the parts could be read apart; and the big files could.
#[test]
fn parts_report_what_the_whole_file_reports() {
    let mut compared = 0;
    for name in FIXTURES {
        let bytes = fixture_bytes(name);
        for mode in MODES {
            let options = ImportOptions {
                mode,
                max_plies: None,
            };
            let expected = whole(&bytes, &options);
            for part_bytes in [1 << 10, 5 << 10, 64 << 10] {
                match in_parts(&bytes, &options, part_bytes) {
                    Some(found) => {
                        assert_eq!(found, expected, "{name} {mode} parts of {part_bytes}");
                        compared += 1;
                    }
                    None => assert!(
                        !name.contains("100k"),
                        "{name} {mode} parts of {part_bytes}: read whole"
                    ),
                }
            }
        }
    }
    assert!(compared >= 30, "{compared}");
}

/// Lines inside a comment or among one game's tags that start with `[` are never taken
/// for cuts (the book's cut rule): the parts give the report of a whole read, and so
/// does `check_file`.
#[test]
fn a_cut_inside_a_comment_or_tags_makes_the_file_read_whole() {
    let game = |n: usize| format!("[Event \"g{n}\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n");
    let pad: String = (0..200).map(game).collect();
    let comment = format!(
        "{pad}[Event \"c\"]\n\n1. d4 {{ a comment\n\n[Event \"not a game\"]\n}} d5 *\n\n{pad}"
    );
    let tags = format!("{pad}[Event \"t\"]\n\n[Site \"same game\"]\n\n1. c4 *\n\n{pad}");
    for (text, bad_line) in [(comment, "[Event \"not a game"), (tags, "[Site \"same")] {
        let options = ImportOptions::default();
        let expected = whole(text.as_bytes(), &options).unwrap();
        assert_eq!(expected.games, 401);
        // A first part of `cut` bytes or a little more would end at the bad line if any
        // line starting with `[` were a cut; the cut rule goes back to the game start.
        let cut = text.find(bad_line).unwrap();
        for part_bytes in (cut + 1..cut + 24).chain((4 << 10..text.len()).step_by(1000)) {
            let found = in_parts(text.as_bytes(), &options, part_bytes);
            let found = found.unwrap_or_else(|| panic!("parts of {part_bytes} read whole"));
            assert_eq!(found.unwrap(), expected, "parts of {part_bytes}");
        }
        let path = temp_dir("import_parts_bad").join("bad.pgn");
        std::fs::write(&path, &text).unwrap();
        let (found, _) = check_file(&path, &options, 2, &JobProgress::new()).unwrap();
        assert_eq!(found, expected);
    }
}

/// A file big enough to be read in parts (the TWIC fixture 45 times, 4.5 MB) gives
/// through `check_file` the report of a whole read.
#[test]
fn check_file_reads_a_big_file_in_parts_with_the_same_report() {
    let big = big_file("twic1599_100k.pgn");
    let path = temp_dir("import_parts").join("big.pgn");
    std::fs::write(&path, &big).unwrap();
    for mode in MODES {
        let options = ImportOptions {
            mode,
            max_plies: None,
        };
        let expected = whole(&big, &options).unwrap();
        let (found, _) = check_file(&path, &options, 2, &JobProgress::new()).unwrap();
        assert_eq!(found, expected, "{mode}");
    }
    // Games whose comments hold lines that look like game starts: no cut falls in
    // them, and the parts give the whole read's report.
    let lines: String = (0..50).map(|i| format!("\n\n[line {i}")).collect();
    let game = format!("[Event \"x\"]\n\n1. e4 {{ a comment{lines}\n}} e5 *\n\n");
    let text = game.repeat(4_500_000 / game.len() + 1);
    std::fs::write(&path, &text).unwrap();
    let options = ImportOptions::default();
    let parts = in_parts(text.as_bytes(), &options, 1 << 20).expect("cuts between games");
    assert_eq!(parts.unwrap(), whole(text.as_bytes(), &options).unwrap());
    let progress = JobProgress::new();
    let (found, _) = check_file(&path, &options, 2, &progress).unwrap();
    assert_eq!(found, whole(text.as_bytes(), &options).unwrap());
    assert_eq!(found.games, text.len() / game.len());
    assert_eq!(progress.snapshot().done, text.len() as u64, "counted once");
}

/// No game in any part: the error of a whole read.
#[test]
fn parts_without_games_give_no_games() {
    let junk = "junk tokens and more junk\n\n".repeat(400);
    let found = in_parts(junk.as_bytes(), &ImportOptions::default(), 4096).unwrap();
    let expected = whole(junk.as_bytes(), &ImportOptions::default());
    assert_eq!(found, expected);
    assert!(matches!(
        check_pgn(junk.as_bytes(), &ImportOptions::default()),
        Err(ImportError::NoGames { .. })
    ));
}

/// The window's import (lines kept and named) in parts: the same lines, in the same
/// order with the same game numbers, and the same report, on every fixture in every
/// mode; and through `import_file` on a file big enough to be cut.
#[test]
fn lines_read_in_parts_are_the_lines_of_a_whole_read() {
    let names = eco_graph();
    let same = |found: &PgnImport, expected: &PgnImport, what: &str| {
        assert_eq!(found.report, expected.report, "{what}");
        assert_eq!(found.lines.len(), expected.lines.len(), "{what}");
        assert!(found.lines == expected.lines, "{what}: the lines differ");
    };
    let mut compared = 0;
    for name in FIXTURES {
        let bytes = fixture_bytes(name);
        for mode in MODES {
            let options = ImportOptions {
                mode,
                max_plies: None,
            };
            let Ok(expected) = read_pgn(&bytes[..], SourceId(3), &options, Some(names)) else {
                continue;
            };
            for part_bytes in [1 << 10, 64 << 10] {
                let parallel = Parallel {
                    threads: 3,
                    part_bytes,
                };
                let found = import_in_parts(&bytes[..], SourceId(3), &options, names, parallel);
                if let Some(found) = found.unwrap() {
                    same(
                        &found,
                        &expected,
                        &format!("{name} {mode} parts of {part_bytes}"),
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 20, "{compared}");
    let big = big_file("lichess_db_100k.pgn");
    let path = temp_dir("import_parts_lines").join("big.pgn");
    std::fs::write(&path, &big).unwrap();
    let options = ImportOptions::default();
    let expected = read_pgn(&big[..], SourceId(3), &options, Some(names)).unwrap();
    let (found, _) = import_file(&path, SourceId(3), &options, names, &JobProgress::new()).unwrap();
    same(&found, &expected, "import_file");
}
