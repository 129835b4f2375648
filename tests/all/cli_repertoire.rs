//! `hastings repertoire`: new, add, delete, promote, comment, mark, through the binary.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hastings::book::Side;
use hastings::book::repertoire::{Document, GameTree};
use hastings::workspace::backups;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hastings-cli-rep-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

fn run(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hastings"))
        .env("XDG_DATA_HOME", data)
        .env("HOME", data)
        .arg("repertoire")
        .args(args)
        .output()
        .unwrap()
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn sans(doc: &Document, chapter: usize, path: &str) -> Vec<String> {
    let tree = doc.chapter(chapter).unwrap().tree().unwrap();
    let at = doc.node_at(chapter, path).unwrap();
    tree.node(at)
        .unwrap()
        .children()
        .iter()
        .map(|&c| tree.node(c).unwrap().mv().unwrap().1.to_string())
        .collect()
}

#[test]
fn a_repertoire_is_built_from_nothing_and_edited_in_place_with_backups() {
    let d = dir("build");
    let data = d.join("data");
    let file = d.join("white.pgn");
    let f = file.to_str().unwrap();
    ok(&run(
        &data,
        &["new", "--color", "white", "-o", f, "--title", "My Italian"],
    ));
    // A second `new` on the same file is refused.
    assert!(
        !run(&data, &["new", "--color", "black", "-o", f])
            .status
            .success()
    );
    ok(&run(&data, &["add", f, "--at", "e4"]));
    ok(&run(
        &data,
        &[
            "add",
            f,
            "--at",
            "1. e4 e5",
            "--comment",
            "Open game",
            "--nag",
            "!",
        ],
    ));
    ok(&run(&data, &["add", f, "--at", "1. e4 c5"]));
    ok(&run(&data, &["add", f, "--at", "1. e4 e6"]));
    ok(&run(&data, &["promote", f, "--at", "1. e4 e6"]));
    ok(&run(&data, &["promote", f, "--at", "1. e4 c5", "--main"]));
    ok(&run(&data, &["delete", f, "--at", "1. e4 e5"]));
    ok(&run(
        &data,
        &["comment", f, "--at", "1. e4", "--text", "Best by test"],
    ));
    let doc = Document::read(&fs::read(&file).unwrap());
    assert_eq!(doc.chapter(0).unwrap().side(), Some(Side::White));
    assert_eq!(doc.chapter(0).unwrap().title(1), "My Italian");
    assert_eq!(sans(&doc, 0, "e4"), ["c5", "e6"]);
    let e4 = doc.node_at(0, "e4").unwrap();
    let tree = doc.chapter(0).unwrap().tree().unwrap();
    assert_eq!(tree.node(e4).unwrap().comment(), Some("Best by test"));
    // Every in-place edit kept the version it replaced (8 edits, the last 10 kept).
    assert_eq!(
        backups::list(&data.join("hastings"), &file).unwrap().len(),
        8
    );
    ok(&run(&data, &["comment", f, "--at", "1. e4", "--text", ""]));
    let doc = Document::read(&fs::read(&file).unwrap());
    let tree = doc.chapter(0).unwrap().tree().unwrap();
    assert_eq!(
        tree.node(doc.node_at(0, "e4").unwrap()).unwrap().comment(),
        None
    );
    assert_eq!(tree.root().children().len(), 1);
    assert!(tree.contains(GameTree::ROOT));
}

#[test]
fn a_path_that_does_not_exist_names_its_first_missing_move_and_writes_nothing() {
    let d = dir("missing");
    let data = d.join("data");
    let file = d.join("rep.pgn");
    fs::copy("tests/fixtures/repertoire.pgn", &file).unwrap();
    let before = fs::read(&file).unwrap();
    let f = file.to_str().unwrap();
    // `add` creates what is missing of its path, but a move that needs one must find it.
    let out = run(
        &data,
        &["delete", f, "--at", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"],
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("move 5 of the path, `Bb5`, is not in the tree"),
        "{err}"
    );
    assert!(err.contains("chapter 1"), "{err}");
    let out = run(&data, &["delete", f, "--at", "d4", "--chapter", "2"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("`d4`"));
    let out = run(&data, &["add", f, "--at", "e4 Ke7", "--chapter", "9"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no chapter 9"));
    let out = run(&data, &["promote", f, "--at", "e4"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("already the main line"));
    // An illegal move in the path of `add`: named, and nothing is added before it either.
    let out = run(
        &data,
        &["add", f, "--at", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Kxe8"],
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Kxe8"), "{err}");
    assert_eq!(fs::read(&file).unwrap(), before, "nothing written");
    assert!(
        backups::list(&data.join("hastings"), &file)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn with_output_the_source_is_untouched_and_the_other_chapters_keep_their_bytes() {
    let d = dir("output");
    let data = d.join("data");
    let file = d.join("study.pgn");
    fs::copy("tests/fixtures/study_chapters.pgn", &file).unwrap();
    let before = fs::read(&file).unwrap();
    let out_file = d.join("out.pgn");
    let (f, o) = (file.to_str().unwrap(), out_file.to_str().unwrap());
    ok(&run(
        &data,
        &[
            "add",
            f,
            "--chapter",
            "2",
            "--at",
            "1. e4 e6 2. d4 d5 3. exd5 exd5 4. Bd3",
            "-o",
            o,
        ],
    ));
    assert_eq!(fs::read(&file).unwrap(), before);
    let old = Document::read(&before);
    let new = Document::read(&fs::read(&out_file).unwrap());
    for i in [0, 2, 3] {
        assert_eq!(
            new.chapter(i).unwrap().text(),
            old.chapter(i).unwrap().text()
        );
    }
    assert_eq!(
        sans(&new, 1, "1. e4 e6 2. d4 d5 3. exd5 exd5"),
        ["Nf3", "c4", "Bd3"]
    );
}

#[test]
fn a_refused_edit_names_the_file() {
    let d = dir("names-file");
    let data = d.join("data");
    let file = d.join("mine.pgn");
    fs::copy("tests/fixtures/repertoire.pgn", &file).unwrap();
    let f = file.to_str().unwrap();
    for args in [
        &["add", f, "--at", "e4 Ke7", "--chapter", "99"][..],
        &["comment", f, "--at", "1. h4", "--text", "x"][..],
        &["promote", f, "--at", "e4"][..],
    ] {
        let out = run(&data, args);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(f),
            "{args:?}: the error does not name the file: {err}"
        );
    }
    let out = run(&data, &["add", f, "--at", "e4 Ke7", "--chapter", "99"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no chapter 99"), "{err}");
}

/// The README's example: `add` after `new` creates the moves of the path that are not
/// there yet (it failed with "`e4` is not in the tree" before: issue 41, item 11).
#[test]
fn add_creates_the_missing_moves_of_its_path() {
    let d = dir("path");
    let data = d.join("data");
    let file = d.join("mine.pgn");
    let f = file.to_str().unwrap();
    ok(&run(
        &data,
        &["new", "--color", "white", "-o", f, "--title", "My Italian"],
    ));
    let out = run(
        &data,
        &[
            "add",
            f,
            "--at",
            "1. e4 e5 2. Nf3",
            "--comment",
            "Main line",
            "--nag",
            "!",
        ],
    );
    ok(&out);
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .ends_with(": added e4 e5 Nf3")
    );
    let doc = Document::read(&fs::read(&file).unwrap());
    assert_eq!(sans(&doc, 0, ""), ["e4"]);
    assert_eq!(sans(&doc, 0, "1. e4"), ["e5"]);
    assert_eq!(sans(&doc, 0, "1. e4 e5"), ["Nf3"]);
    let text = String::from_utf8(fs::read(&file).unwrap()).unwrap();
    assert!(text.contains("1. e4 e5 2. Nf3 $1 {Main line}"), "{text}");
    // A second branch shares the moves that are there and adds the rest.
    let out = run(&data, &["add", f, "--at", "1. e4 e5 2. Bc4 Nf6"]);
    ok(&out);
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .ends_with(": added Bc4 Nf6")
    );
    let doc = Document::read(&fs::read(&file).unwrap());
    assert_eq!(sans(&doc, 0, "1. e4 e5"), ["Nf3", "Bc4"]);
    let out = run(&data, &["add", f, "--at", "1. e4 e5 2. Bc4"]);
    ok(&out);
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .ends_with(": Bc4 was there already")
    );
}

/// The standing of each move at `path` of chapter 1, in file order.
fn standings(doc: &Document, path: &str) -> Vec<(String, &'static str)> {
    let tree = doc.chapter(0).unwrap().tree().unwrap();
    let at = doc.node_at(0, path).unwrap();
    tree.node(at)
        .unwrap()
        .children()
        .iter()
        .map(|&c| {
            let san = tree.node(c).unwrap().mv().unwrap().1.to_string();
            (san, tree.standing(c).unwrap().label())
        })
        .collect()
}

const FORK: &str = "1. e4 e6 2. d4 d5 3. e5 c5 4. c3";

#[test]
fn mark_ranks_a_move_in_place_with_a_backup_and_the_import_follows() {
    let d = dir("mark");
    let data = d.join("data");
    let file = d.join("french.pgn");
    let original = fs::read(crate::common::fixture("french_advance_ranked.pgn")).unwrap();
    fs::write(&file, &original).unwrap();
    let f = file.to_str().unwrap();
    let doc = || Document::read(&fs::read(&file).unwrap());
    assert_eq!(
        standings(&doc(), FORK),
        [
            ("Nc6".to_owned(), "main move"),
            ("cxd4".to_owned(), "alternative"),
            ("Qb6".to_owned(), "paused")
        ]
    );
    let out = run(
        &data,
        &["mark", f, "--at", &format!("{FORK} cxd4"), "--pause"],
    );
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stdout).contains("now paused"));
    assert!(String::from_utf8_lossy(&fs::read(&file).unwrap()).contains("[%hastings paused]"));
    assert_eq!(standings(&doc(), FORK)[1], ("cxd4".to_owned(), "paused"));
    assert_eq!(
        backups::list(&data.join("hastings"), &file).unwrap().len(),
        1,
        "the version replaced is kept"
    );
    // The import leaves both paused moves out: only the line of 4...Nc6 is left.
    let import = hastings::book::pgn::read_pgn(
        &fs::read(&file).unwrap()[..],
        hastings::book::SourceId(1),
        &hastings::book::ImportOptions::default(),
        None,
    )
    .unwrap();
    assert_eq!(import.lines.len(), 1);
    ok(&run(
        &data,
        &["mark", f, "--at", &format!("{FORK} Qb6"), "--unpause"],
    ));
    ok(&run(
        &data,
        &["mark", f, "--at", &format!("{FORK} cxd4"), "--unpause"],
    ));
    assert_eq!(
        standings(&doc(), FORK),
        [
            ("Nc6".to_owned(), "main move"),
            ("cxd4".to_owned(), "alternative"),
            ("Qb6".to_owned(), "alternative")
        ]
    );
}

#[test]
fn mark_main_moves_the_move_first_and_takes_its_alt_mark_away() {
    let d = dir("mark-main");
    let data = d.join("data");
    let src = crate::common::fixture("french_advance_ranked.pgn");
    let out_file = d.join("out.pgn");
    let (s, o) = (src.to_str().unwrap(), out_file.to_str().unwrap());
    ok(&run(
        &data,
        &[
            "mark",
            s,
            "--at",
            &format!("{FORK} cxd4"),
            "--alternative",
            "-o",
            o,
        ],
    ));
    let marked = fs::read_to_string(&out_file).unwrap();
    assert!(marked.contains("[%hastings alt]"), "{marked}");
    let doc = Document::read(marked.as_bytes());
    assert_eq!(standings(&doc, FORK)[1], ("cxd4".to_owned(), "alternative"));
    ok(&run(
        &data,
        &[
            "mark",
            o,
            "--at",
            &format!("{FORK} cxd4"),
            "--main",
            "-o",
            &format!("{o}.2"),
        ],
    ));
    let main = fs::read_to_string(format!("{o}.2")).unwrap();
    assert!(!main.contains("[%hastings alt]"), "{main}");
    let doc = Document::read(main.as_bytes());
    assert_eq!(sans(&doc, 0, FORK), ["cxd4", "Nc6", "Qb6"]);
    assert_eq!(standings(&doc, FORK)[0], ("cxd4".to_owned(), "main move"));
    // The source is untouched, and a rank asked twice is refused, writing nothing.
    assert_eq!(
        fs::read(&src).unwrap(),
        crate::common::fixture_bytes("french_advance_ranked.pgn")
    );
    let again = run(
        &data,
        &[
            "mark",
            &format!("{o}.2"),
            "--at",
            &format!("{FORK} cxd4"),
            "--main",
            "-o",
            &format!("{o}.3"),
        ],
    );
    assert!(!again.status.success());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(
        err.contains("already the main move") && err.contains("out.pgn.2"),
        "{err}"
    );
    assert!(!Path::new(&format!("{o}.3")).exists());
    // One rank is asked for, exactly.
    let none = run(
        &data,
        &[
            "mark",
            s,
            "--at",
            &format!("{FORK} cxd4"),
            "-o",
            &format!("{o}.4"),
        ],
    );
    assert!(!none.status.success());
    let two = run(
        &data,
        &[
            "mark",
            s,
            "--at",
            &format!("{FORK} cxd4"),
            "--main",
            "--pause",
            "-o",
            &format!("{o}.4"),
        ],
    );
    assert!(!two.status.success());
}
