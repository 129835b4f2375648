//! Two `hastings repertoire` processes editing one file at once lose no edit: each
//! edit reported done is in the file at the end.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

/// Edits per process.
const EDITS: usize = 50;
/// Tries of one edit before the test gives up (a refusal is retried, as a user would).
const TRIES: usize = 200;

/// A repertoire of `2 * EDITS` chapters, each `1. e4 e5 2. Nf3`.
fn repertoire(path: &Path) {
    let mut text = String::new();
    for i in 1..=2 * EDITS {
        text.push_str(&format!(
            "[Event \"Chapter {i}\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n"
        ));
    }
    fs::write(path, text).unwrap();
}

/// Sets the comment after `1. e4` of each chapter in `chapters` to `edit-<who>-<n>`,
/// one `hastings repertoire comment` process an edit, trying again when the edit is
/// refused because the file changed or another process writes it. Returns the marks of
/// the edits reported done.
fn edit_chapters(data: PathBuf, file: PathBuf, who: char, chapters: Vec<usize>) -> Vec<String> {
    let mut done = Vec::new();
    for chapter in chapters {
        let mark = format!("edit-{who}-{chapter:03}");
        let mut tries = 0;
        loop {
            tries += 1;
            assert!(tries <= TRIES, "{mark}: refused {TRIES} times");
            let out = Command::new(env!("CARGO_BIN_EXE_hastings"))
                .env("XDG_DATA_HOME", &data)
                .env("HOME", &data)
                .args(["repertoire", "comment"])
                .arg(&file)
                .args([
                    "--chapter",
                    &chapter.to_string(),
                    "--at",
                    "1. e4",
                    "--text",
                    &mark,
                ])
                .output()
                .unwrap();
            if out.status.success() {
                done.push(mark);
                break;
            }
            let err = String::from_utf8_lossy(&out.stderr);
            let refused =
                err.contains("changed on disk") || err.contains("another Hastings process");
            assert!(refused, "{mark}: an error that is not a refusal: {err}");
        }
    }
    done
}

#[test]
fn two_processes_editing_one_repertoire_lose_no_edit() {
    let dir = common::temp_dir("repertoire-concurrent");
    let data = dir.join("data");
    let file = dir.join("rep.pgn");
    repertoire(&file);
    let a = {
        let (data, file) = (data.clone(), file.clone());
        std::thread::spawn(move || edit_chapters(data, file, 'a', (1..=EDITS).collect()))
    };
    let b = {
        let (data, file) = (data.clone(), file.clone());
        std::thread::spawn(move || {
            edit_chapters(data, file, 'b', (EDITS + 1..=2 * EDITS).collect())
        })
    };
    let mut done = a.join().unwrap();
    done.extend(b.join().unwrap());
    assert_eq!(done.len(), 2 * EDITS);
    let text = fs::read_to_string(&file).unwrap();
    let lost: Vec<&String> = done.iter().filter(|m| !text.contains(m.as_str())).collect();
    assert!(
        lost.is_empty(),
        "edits reported done but not in the file: {lost:?}"
    );
    // Every chapter is still there, with its moves.
    assert_eq!(text.matches("3. Bb5 a6").count(), 2 * EDITS);
    let left: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "rep.pgn" && n != "data")
        .collect();
    assert!(
        left.is_empty(),
        "temporary or lock files were left: {left:?}"
    );
    fs::remove_dir_all(&dir).unwrap();
}
