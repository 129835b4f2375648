//! The repertoire editor's edits carry typed moves and marks: a played move goes to the
//! document as a `Move` and is checked there, and the journal of unsaved edits still
//! holds the text it held when edits carried SAN (`AddMove` with the move's SAN, marks
//! as `Ge2e4` and `Rd5`), so a journal written before reads the same.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};

use hastings::book::repertoire::{EditError, GameTree, Op};
use hastings::workspace::backups;
use hastings::workspace::repertoire_file::{RepertoireFile, RepertoireFileError, recover};
use serde_json::{Value, json};
use shakmaty::san::San;
use shakmaty::{Chess, Move, Square};

/// A fresh folder with a copy of `repertoire.pgn` and a data folder.
fn setup(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("hastings-typed-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.pgn");
    fs::copy("tests/fixtures/repertoire.pgn", &file).unwrap();
    (file, dir.join("data"))
}

/// The journal's entries after its header, one a line.
fn journal_entries(data: &Path, file: &Path) -> Vec<String> {
    let path = backups::folder(data, file)
        .join("journal")
        .join("edits.jsonl");
    let text = fs::read_to_string(path).unwrap();
    text.lines().skip(1).map(str::to_owned).collect()
}

fn the_move(pos: &Chess, san: &str) -> Move {
    San::from_ascii(san.as_bytes())
        .unwrap()
        .to_move(pos)
        .unwrap()
}

#[test]
fn a_played_move_is_journaled_as_the_san_a_text_edit_journals() {
    let (typed_path, typed_data) = setup("played");
    let (text_path, text_data) = setup("text");
    let mut typed = RepertoireFile::open(&typed_path, Some(&typed_data)).unwrap();
    let mut text = RepertoireFile::open(&text_path, Some(&text_data)).unwrap();
    let start = Chess::default();
    let d4 = the_move(&start, "d4");
    let typed_change = typed
        .edit(&Op::PlayMove {
            chapter: 0,
            at: GameTree::ROOT,
            mv: d4,
        })
        .unwrap();
    let text_change = text
        .edit(&Op::AddMove {
            chapter: 0,
            at: GameTree::ROOT,
            san: "d4".to_owned(),
        })
        .unwrap();
    assert_eq!(typed_change, text_change);
    let node = typed_change.node.unwrap();
    let mut after = start.clone();
    shakmaty::Position::play_unchecked(&mut after, d4);
    let nf6 = the_move(&after, "Nf6");
    typed
        .edit(&Op::PlayMove {
            chapter: 0,
            at: node,
            mv: nf6,
        })
        .unwrap();
    text.edit(&Op::AddMove {
        chapter: 0,
        at: node,
        san: "Nf6".to_owned(),
    })
    .unwrap();
    assert_eq!(typed.document().to_pgn(), text.document().to_pgn());
    // The same lines in both journals (the header names each file).
    let entries = journal_entries(&typed_data, &typed_path);
    assert_eq!(entries, journal_entries(&text_data, &text_path));
    assert_eq!(entries.len(), 2);
    // A move already in the file is selected, not journaled.
    let e4 = the_move(&start, "e4");
    typed
        .edit(&Op::PlayMove {
            chapter: 0,
            at: GameTree::ROOT,
            mv: e4,
        })
        .unwrap();
    assert_eq!(journal_entries(&typed_data, &typed_path), entries);
    // Replaying the journal after a crash gives the same document.
    let expected = typed.document().to_pgn();
    std::mem::forget(typed);
    let recovered = recover(&typed_data, &typed_path).unwrap();
    assert_eq!(recovered.document().to_pgn(), expected);
}

#[test]
fn an_illegal_played_move_is_refused_with_where_and_nothing_changes() {
    let (path, data) = setup("illegal");
    let mut file = RepertoireFile::open(&path, Some(&data)).unwrap();
    let before = file.document().to_pgn();
    // 1...e5 is Black's move: at the start it is illegal.
    let after_e4 = {
        let mut pos = Chess::default();
        let e4 = the_move(&pos, "e4");
        shakmaty::Position::play_unchecked(&mut pos, e4);
        pos
    };
    let e5 = the_move(&after_e4, "e5");
    let err = file
        .edit(&Op::PlayMove {
            chapter: 0,
            at: GameTree::ROOT,
            mv: e5,
        })
        .unwrap_err();
    let RepertoireFileError::Edit(EditError::BadMove {
        chapter,
        san,
        reason,
        ..
    }) = &err
    else {
        panic!("{err:?}");
    };
    assert_eq!((*chapter, san.as_str(), *reason), (1, "e7e5", "illegal"));
    assert_eq!(file.document().to_pgn(), before);
    assert!(!file.document().is_dirty());
}

#[test]
fn typed_marks_are_journaled_as_cal_and_csl_text_and_read_back() {
    let (path, data) = setup("marks");
    let mut file = RepertoireFile::open(&path, Some(&data)).unwrap();
    let node = file
        .edit(&Op::AddMove {
            chapter: 0,
            at: GameTree::ROOT,
            san: "d4".to_owned(),
        })
        .unwrap()
        .node
        .unwrap();
    file.edit(&Op::SetMarks {
        chapter: 0,
        node,
        arrows: vec![('G', Square::D2, Square::D4), ('R', Square::G8, Square::F6)],
        circles: vec![('Y', Square::E5)],
    })
    .unwrap();
    let entries = journal_entries(&data, &path);
    let marks: Value = serde_json::from_str(&entries[1]).unwrap();
    assert_eq!(
        marks,
        json!({"Op": {"SetMarks": {
            "chapter": 0,
            "node": serde_json::to_value(node).unwrap(),
            "arrows": ["Gd2d4", "Rg8f6"],
            "circles": ["Ye5"],
        }}})
    );
    let expected = file.document().to_pgn();
    let text = String::from_utf8_lossy(&expected);
    assert!(text.contains("[%cal Gd2d4,Rg8f6]"), "{text}");
    std::mem::forget(file);
    let recovered = recover(&data, &path).unwrap();
    assert_eq!(recovered.document().to_pgn(), expected);
    // A journal line with a mark that does not read keeps the marks that do.
    let op: Op = serde_json::from_value(json!({"SetMarks": {
        "chapter": 0,
        "node": serde_json::to_value(node).unwrap(),
        "arrows": ["Gd2d4", "Gz9"],
        "circles": ["Ye5", "?"],
    }}))
    .unwrap();
    let Op::SetMarks {
        arrows, circles, ..
    } = op
    else {
        panic!("{op:?}");
    };
    assert_eq!(arrows, [('G', Square::D2, Square::D4)]);
    assert_eq!(circles, [('Y', Square::E5)]);
}
