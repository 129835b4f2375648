//! `hastings import`, `hastings export` and the `--pgn`/`--no-eco`/`--source` options,
//! run as the user runs them.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;
use common::hastings;
use std::path::PathBuf;

use clap::Parser;
use hastings::cli::{self, Cli, CliError};

fn fixture(name: &str) -> String {
    common::fixture(name).display().to_string()
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// `name` in a folder of its own: `temp_dir` empties its folder, so one shared by the
/// tests running at once lost another test's file (a flaky `export`).
fn temp_file(name: &str) -> PathBuf {
    common::temp_dir(&format!("cli-pgn-{name}")).join(name)
}

/// Runs a command in-process and returns its error.
fn run_error(args: &[&str]) -> CliError {
    let cli = Cli::try_parse_from(std::iter::once("hastings").chain(args.iter().copied())).unwrap();
    let mut out = Vec::new();
    cli::run(&cli.command.unwrap(), &mut out).unwrap_err()
}

#[test]
fn import_json_reports_games_lines_positions_and_issues() {
    let file = fixture("illegal.pgn");
    let (code, out, _) = hastings(&["import", &file, "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["games"], 3);
    assert_eq!(v["lines"], 3);
    assert_eq!(v["positions"], 25);
    let issues = v["issues"].as_array().unwrap();
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0]["game"], 2);
    assert_eq!(issues[0]["ply"], 7);
    assert_eq!(issues[0]["san"], "Bxf7");
    assert_eq!(issues[0]["reason"], "illegal move");
}

#[test]
fn import_text_lists_each_issue_with_game_and_ply() {
    let (code, out, _) = hastings(&["import", &fixture("chess960.pgn")]);
    assert_eq!(code, 0);
    assert!(out.contains("games      4"), "{out}");
    assert!(out.contains("lines      1"), "{out}");
    assert!(
        out.contains("game 2 (byte 95, Carol – Dave): variant `Chess960` is not supported"),
        "{out}"
    );
}

#[test]
fn import_modes_and_ply_limit_come_from_the_flags() {
    let twic = fixture("twic1599_100k.pgn");
    let (_, out, _) = hastings(&["import", &twic, "--json"]);
    let auto = json(&out);
    assert_eq!(
        (auto["mode"].as_str(), auto["positions"].as_u64()),
        (Some("games"), Some(2658))
    );
    let (_, out, _) = hastings(&["import", &twic, "--json", "--repertoire"]);
    let rep = json(&out);
    assert_eq!(
        (rep["mode"].as_str(), rep["positions"].as_u64()),
        (Some("repertoire"), Some(9081))
    );
    let (_, out, _) = hastings(&["import", &twic, "--json", "--games", "--max-plies", "2"]);
    let short = json(&out);
    // Two plies of 109 games: the start, the first moves and the replies.
    assert!(short["positions"].as_u64().unwrap() < 30);
    let (code, _, err) = hastings(&["import", &twic, "--games", "--repertoire"]);
    assert_eq!(code, 2, "clap rejects the pair: {err}");
}

#[test]
fn importing_a_file_without_games_fails_with_exit_code_2() {
    let empty = fixture("empty.pgn");
    let (code, out, err) = hastings(&["import", &empty, "--json"]);
    assert_eq!(code, 2, "the binary exits with 2 when no game was imported");
    assert_eq!(json(&out)["games"], 0);
    assert!(err.contains("empty.pgn: no games found"), "{err}");
    assert_eq!(run_error(&["import", &empty]).exit_code(), 2);
    // A file that only holds junk.
    let junk = temp_file("junk.pgn");
    std::fs::write(&junk, b"\x00\x01\x02\xff garbage \x89PNG\n\n\xfe\xfe\n").unwrap();
    let e = run_error(&["import", junk.to_str().unwrap()]);
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("no games found"), "{e}");
    std::fs::remove_file(&junk).unwrap();
    // Other failures keep exit code 1.
    assert_eq!(run_error(&["import", "/nonexistent/x.pgn"]).exit_code(), 1);
    assert_eq!(hastings(&["import", "/nonexistent/x.pgn"]).0, 1);
    assert_eq!(hastings(&["import", &fixture("twic1599_100k.pgn")]).0, 0);
}

#[test]
fn stats_builds_from_pgn_sources_with_or_without_eco() {
    let twic = fixture("twic1599_100k.pgn");
    let rep = fixture("repertoire.pgn");
    let (code, out, _) = hastings(&["stats", "--json", "--no-eco", "--pgn", &twic]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(
        (v["lines"].as_u64(), v["nodes"].as_u64()),
        (Some(109), Some(2658))
    );
    let (_, out, _) = hastings(&["stats", "--json", "--pgn", &rep, "--pgn", &twic]);
    assert_eq!(json(&out)["lines"], 3807 + 7 + 109);
    let (_, out, _) = hastings(&[
        "stats", "--json", "--pgn", &rep, "--pgn", &twic, "--source", "1",
    ]);
    assert_eq!(json(&out)["lines"], 7);
    let (_, out, _) = hastings(&["stats", "--json", "--pgn", &rep, "--source", "eco,1"]);
    assert_eq!(json(&out)["lines"], 3807 + 7);
    let (code, _, err) = hastings(&["stats", "--pgn", &rep, "--source", "2"]);
    assert_eq!(code, 1);
    assert!(err.contains("--source 2"), "{err}");
}

#[test]
fn export_writes_pgn_that_imports_back_into_the_same_lines() {
    let rep = fixture("repertoire.pgn");
    let out_file = temp_file("export.pgn");
    let out_path = out_file.to_str().unwrap();
    let (code, _, err) = hastings(&["export", "--no-eco", "--pgn", &rep, "-o", out_path]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wrote 2 games (7 lines)"), "{err}");
    let (_, out, _) = hastings(&["import", out_path, "--json"]);
    let v = json(&out);
    assert_eq!(
        (v["lines"].as_u64(), v["positions"].as_u64()),
        (Some(7), Some(38))
    );
    assert_eq!(v["issues"].as_array().unwrap().len(), 0);
    std::fs::remove_file(&out_file).unwrap();
    // To stdout, one source of a merged book.
    let (code, out, _) = hastings(&["export", "--pgn", &rep, "--source", "1"]);
    assert_eq!(code, 0);
    assert_eq!(out.matches("[Event ").count(), 2);
    assert!(out.contains("[Opening \"Italian Game\"]"));
}

#[cfg(unix)]
#[test]
fn export_on_a_full_disk_fails_and_leaves_the_target_as_it_was() {
    // The export runs with a file size limit of 0 (SIGXFSZ ignored), so writing its
    // temporary file fails with "File too large" as writing on a full disk fails.
    let rep = fixture("repertoire.pgn");
    let dir = common::temp_dir("cli-pgn-full-disk");
    for old in [Some("an old export\n"), None] {
        let target = dir.join("book.pgn");
        let _ = std::fs::remove_file(&target);
        if let Some(text) = old {
            std::fs::write(&target, text).unwrap();
        }
        let out = std::process::Command::new("sh")
            .args(["-c", "ulimit -f 0; trap '' XFSZ; exec \"$0\" \"$@\""])
            .arg(env!("CARGO_BIN_EXE_hastings"))
            .args(["export", "--pgn", &rep, "-o", target.to_str().unwrap()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("File too large"), "{err}");
        match old {
            Some(text) => assert_eq!(std::fs::read_to_string(&target).unwrap(), text),
            None => assert!(!target.exists(), "a partial PGN was left at the target"),
        }
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n != "book.pgn")
            .collect();
        assert!(
            left.is_empty(),
            "a temporary or lock file was left: {left:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn book_make_on_a_file_with_no_games_fails_and_writes_nothing() {
    let empty = fixture("empty.pgn");
    let dir = common::temp_dir("cli-pgn-make-empty");
    let out = dir.join("book.bin");
    let (code, stdout, err) = hastings(&["book", "make", &empty, "-o", out.to_str().unwrap()]);
    assert_eq!(code, 2, "{stdout}{err}");
    assert!(err.contains("no games in"), "{err}");
    assert!(err.contains("no book was written"), "{err}");
    assert!(!out.exists());
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "files left beside the book: {left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
