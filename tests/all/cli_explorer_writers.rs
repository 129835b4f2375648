//! `hastings explorer make` and `add` as writers: one at a time per index (two adds at
//! once count every game once, or the second is refused and says why), `make` writes
//! only into a new or empty folder and never removes a file it did not make, and an
//! `add` that fails at any stage leaves the index as it was, with an exit code that
//! says so.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{fixture, hastings, temp_dir};
use hastings::book::explorer::ExplorerFilter;
use hastings::workspace::explorer::{ExplorerIndex, LOCK_FILE};
use shakmaty::Chess;

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn make(dir: &Path, file: &str) {
    let (code, stdout, stderr) = hastings(&[
        "explorer",
        "make",
        path(&fixture(file)),
        "-o",
        path(dir),
        "--max-plies",
        "12",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
}

fn add_command(dir: &Path, file: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hastings"));
    cmd.args(["explorer", "add", path(dir), path(&fixture(file))]);
    cmd
}

fn add_with(dir: &Path, file: &str, env: Option<(&str, &str)>) -> Output {
    let mut cmd = add_command(dir, file);
    if let Some((name, value)) = env {
        cmd.env(name, value);
    }
    cmd.output().unwrap()
}

/// Games in the index, and at the start position under no filter.
fn games(dir: &Path) -> (u64, u64) {
    let index = ExplorerIndex::open(dir).unwrap();
    let start = index
        .query_position(&Chess::default(), &ExplorerFilter::default())
        .unwrap();
    (index.games(), start.total().games())
}

fn plus(a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
    (a.0 + b.0, a.1 + b.1)
}

fn names(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A refusal because another process writes `dir`: exit 1, and a message naming it.
fn refused_as_busy(out: &Output, dir: &Path) -> bool {
    let err = stderr(out);
    out.status.code() == Some(1) && err.contains("another process") && err.contains(path(dir))
}

#[test]
fn two_adds_at_once_count_every_game_once_or_the_second_is_refused() {
    let base = temp_dir("cli-explorer-two-adds");
    let dir = base.join("two.explorer");
    make(&dir, "lichess_db_100k.pgn");
    let alone = base.join("alone.explorer");
    make(&alone, "style_training.pgn");
    let added = games(&alone);
    let mut expected = games(&dir);
    let mut succeeded = 0;
    for round in 0..3 {
        let children: Vec<_> = (0..2)
            .map(|_| {
                add_command(&dir, "style_training.pgn")
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            if out.status.success() {
                expected = plus(expected, added);
                succeeded += 1;
            } else {
                assert!(
                    refused_as_busy(&out, &dir),
                    "round {round}: {}",
                    stderr(&out)
                );
            }
        }
        assert_eq!(games(&dir), expected, "round {round}: every game once");
    }
    assert!(succeeded >= 3, "{succeeded} adds succeeded");
}

#[test]
fn an_add_while_another_writer_holds_the_index_is_refused_and_changes_nothing() {
    let dir = temp_dir("cli-explorer-held").join("held.explorer");
    make(&dir, "lichess_db_100k.pgn");
    let before = games(&dir);
    let files = names(&dir);
    let lock = std::fs::File::open(dir.join(LOCK_FILE)).unwrap();
    lock.lock().unwrap();
    let out = add_with(&dir, "twic1599_100k.pgn", None);
    assert!(refused_as_busy(&out, &dir), "{}", stderr(&out));
    assert_eq!(games(&dir), before);
    assert_eq!(names(&dir), files);
    lock.unlock().unwrap();
    let out = add_with(&dir, "twic1599_100k.pgn", None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(games(&dir).0 > before.0);
}

#[test]
fn make_writes_only_into_a_new_or_empty_folder_and_keeps_the_user_s_files() {
    let base = temp_dir("cli-explorer-foreign");
    let dir = base.join("mine");
    std::fs::create_dir_all(&dir).unwrap();
    let theirs = [
        ("notes.tmp", "my notes"),
        ("seg-000001.seg", "not a segment"),
        ("seg-draft.txt", "a draft"),
    ];
    for (name, text) in theirs {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let (code, _, err) = hastings(&[
        "explorer",
        "make",
        path(&fixture("lichess_db_100k.pgn")),
        "-o",
        path(&dir),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(path(&dir)) && err.contains("not empty") && err.contains("notes.tmp"),
        "{err}"
    );
    for (name, text) in theirs {
        assert_eq!(std::fs::read_to_string(dir.join(name)).unwrap(), text);
    }
    assert_eq!(names(&dir).len(), theirs.len());

    // An index's own leftovers go, a user's file put in it stays.
    let index = base.join("index.explorer");
    make(&index, "lichess_db_100k.pgn");
    for name in ["notes.tmp", "seg-draft.txt", "seg-000001.seg.bak"] {
        std::fs::write(index.join(name), "mine").unwrap();
    }
    std::fs::write(index.join("seg-000007.seg.tmp"), "an interrupted write").unwrap();
    let out = add_with(&index, "twic1599_100k.pgn", None);
    assert!(out.status.success(), "{}", stderr(&out));
    let left = names(&index);
    for name in ["notes.tmp", "seg-draft.txt", "seg-000001.seg.bak"] {
        assert_eq!(std::fs::read_to_string(index.join(name)).unwrap(), "mine");
    }
    assert!(!left.contains("seg-000007.seg.tmp"), "{left:?}");
}

#[test]
fn a_failed_make_leaves_no_folder_and_an_interrupted_one_is_made_again() {
    let base = temp_dir("cli-explorer-make-fails");
    let missing = base.join("missing.explorer");
    let (code, _, err) = hastings(&[
        "explorer",
        "make",
        path(&base.join("no-such.pgn")),
        "-o",
        path(&missing),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("no-such.pgn"), "{err}");
    assert!(!missing.exists(), "no folder for a missing input");

    let empty = base.join("empty.explorer");
    let (code, _, _) = hastings(&[
        "explorer",
        "make",
        path(&fixture("empty.pgn")),
        "-o",
        path(&empty),
    ]);
    assert_eq!(code, 2);
    assert!(!empty.exists(), "no folder for no games");

    // Killed after its segment was renamed, before the manifest: the folder holds the
    // lock and the segment, which the next make knows as its own.
    let killed = base.join("killed.explorer");
    let out = Command::new(env!("CARGO_BIN_EXE_hastings"))
        .args(["explorer", "make", path(&fixture("lichess_db_100k.pgn"))])
        .args(["-o", path(&killed), "--max-plies", "12"])
        .env("HASTINGS_EXPLORER_CRASH_AT", "segment-renamed")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(killed.join("seg-000001.seg").exists());
    make(&killed, "lichess_db_100k.pgn");
    let fresh = base.join("fresh.explorer");
    make(&fresh, "lichess_db_100k.pgn");
    assert_eq!(games(&killed), games(&fresh));
    assert_eq!(names(&killed), names(&fresh));
}

#[test]
fn an_add_that_fails_at_any_stage_leaves_the_index_as_it_was() {
    let base = temp_dir("cli-explorer-add-fails");
    let alone = base.join("alone.explorer");
    make(&alone, "twic1599_100k.pgn");
    let added = games(&alone);
    for point in [
        "segment-write",
        "segment-written",
        "segment-renamed",
        "manifest-write",
    ] {
        let dir = base.join(format!("{point}.explorer"));
        make(&dir, "lichess_db_100k.pgn");
        let before = games(&dir);
        let files = names(&dir);
        let out = add_with(
            &dir,
            "twic1599_100k.pgn",
            Some(("HASTINGS_EXPLORER_FAIL_AT", point)),
        );
        assert_eq!(out.status.code(), Some(1), "{point}: {}", stderr(&out));
        assert!(stderr(&out).contains(point), "{point}: {}", stderr(&out));
        assert_eq!(games(&dir), before, "{point}: nothing was added");
        assert_eq!(names(&dir), files, "{point}: nothing was left");
        let out = add_with(&dir, "twic1599_100k.pgn", None);
        assert!(out.status.success(), "{point}: {}", stderr(&out));
        assert_eq!(games(&dir), plus(before, added), "{point}: added once");
    }
}

/// An index of eight segments: the next add merges them.
fn eight_segments(dir: &Path) -> (u64, u64) {
    make(dir, "lichess_db_100k.pgn");
    for _ in 0..7 {
        let out = add_with(dir, "lichess_db_100k.pgn", None);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(
        ExplorerIndex::open(dir).unwrap().manifest().segments.len(),
        8
    );
    games(dir)
}

#[test]
fn an_add_that_would_merge_a_damaged_segment_is_refused_before_it_commits() {
    let base = temp_dir("cli-explorer-merge-damaged");
    let alone = base.join("alone.explorer");
    make(&alone, "twic1599_100k.pgn");
    let added = games(&alone);

    // A failure writing the merged segment: nothing added.
    let dir = base.join("merge-fails.explorer");
    let eight = eight_segments(&dir);
    let files = names(&dir);
    let out = add_with(
        &dir,
        "twic1599_100k.pgn",
        Some(("HASTINGS_EXPLORER_FAIL_AT", "merged-segment")),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(games(&dir), eight);
    assert_eq!(names(&dir), files);

    // A damaged byte deep in the third segment's records, which no query of the start
    // position reads: the add that would merge it is refused, naming it, and the
    // index is as it was.
    let third = dir.join("seg-000003.seg");
    let mut bytes = std::fs::read(&third).unwrap();
    let at = bytes.len() / 3;
    bytes[at] ^= 0x10;
    std::fs::write(&third, &bytes).unwrap();
    let manifest = std::fs::read(dir.join("manifest.json")).unwrap();
    let out = add_with(&dir, "twic1599_100k.pgn", None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("seg-000003.seg") && stderr(&out).contains("damaged"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(dir.join("manifest.json")).unwrap(), manifest);
    assert_eq!(names(&dir), files);

    // Mended, the retry adds the games once and merges.
    bytes[at] ^= 0x10;
    std::fs::write(&third, &bytes).unwrap();
    let out = add_with(&dir, "twic1599_100k.pgn", None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(games(&dir), plus(eight, added));
    let index = ExplorerIndex::open(&dir).unwrap();
    assert_eq!(index.manifest().segments.len(), 1);
    index.verify().unwrap();
}
