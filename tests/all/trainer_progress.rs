//! Progress on disk: round trip, corrupt files kept aside, interrupted writes.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::fs;
use std::path::PathBuf;

use crate::common;

use hastings::trainer::progress::Progress;
use hastings::workspace::store::{load_progress, save_progress, write_temp};
use shakmaty::{Chess, Position, san::San};

fn scratch(name: &str) -> PathBuf {
    common::temp_dir(name)
}

fn some_progress() -> Progress {
    let mut p = Progress::new();
    let mut pos = Chess::default();
    p.record_attempt(&pos, false);
    pos.play_unchecked(San::from_ascii(b"d4").unwrap().to_move(&pos).unwrap());
    p.record_attempt(&pos, true);
    p.record_completion("D00 Queen's Pawn Game");
    p
}

#[test]
fn progress_round_trips_through_a_file() {
    let dir = scratch("roundtrip");
    let path = dir.join("progress.ron");
    let missing = load_progress(&path);
    assert_eq!(missing.value, Progress::default());
    assert!(missing.warning.is_none(), "a first start is not a problem");
    let p = some_progress();
    save_progress(&path, &p).unwrap();
    let back = load_progress(&path);
    assert_eq!(back.value, p);
    assert!(back.warning.is_none());
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names,
        ["progress.ron"],
        "no temporary or lock file is left behind"
    );
}

#[test]
fn a_corrupt_file_is_kept_aside_and_not_overwritten() {
    let dir = scratch("corrupt");
    let path = dir.join("progress.ron");
    let garbage = b"(positions: {\"broken";
    fs::write(&path, garbage).unwrap();
    let loaded = load_progress(&path);
    assert_eq!(
        loaded.value,
        Progress::default(),
        "the app starts with empty progress"
    );
    let warning = loaded.warning.unwrap();
    assert!(warning.contains("corrupt-"), "{warning}");
    let aside: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("progress.ron.corrupt-")
        })
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(
        fs::read(&aside[0]).unwrap(),
        garbage,
        "the corrupt bytes are kept"
    );
    // Saving now writes a fresh file and leaves the corrupt copy alone.
    save_progress(&path, &some_progress()).unwrap();
    assert_eq!(fs::read(&aside[0]).unwrap(), garbage);
    assert_eq!(load_progress(&path).value, some_progress());
}

#[test]
fn a_write_interrupted_before_the_rename_leaves_the_old_file_intact() {
    let dir = scratch("interrupted");
    let path = dir.join("progress.ron");
    let old = some_progress();
    save_progress(&path, &old).unwrap();
    let mut newer = old.clone();
    newer.record_completion("C60 Ruy Lopez");
    // The process dies after writing the temporary file, before renaming it.
    let tmp = write_temp(&path, newer.to_ron().unwrap().as_bytes()).unwrap();
    assert!(tmp.exists());
    let loaded = load_progress(&path);
    assert_eq!(loaded.value, old);
    assert!(loaded.warning.is_none());
    // The next save replaces the stale temporary file.
    save_progress(&path, &newer).unwrap();
    assert_eq!(load_progress(&path).value, newer);
    assert!(!tmp.exists());
}

#[test]
fn corrupt_files_kept_aside_in_the_same_second_are_all_kept() {
    // Three corrupt files in a row, well within a second: each copy has a name of its
    // own (the old names were by the second, so the second copy replaced the first).
    let dir = scratch("corrupt-same-second");
    let path = dir.join("progress.ron");
    let garbage = ["(broken 1", "(broken 2", "(broken 3"];
    for text in garbage {
        fs::write(&path, text).unwrap();
        let warning = load_progress(&path).warning.unwrap();
        assert!(warning.contains("corrupt-"), "{warning}");
    }
    let mut kept: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("progress.ron.corrupt-")
        })
        .map(|p| fs::read_to_string(p).unwrap())
        .collect();
    kept.sort();
    assert_eq!(kept, garbage, "every corrupt copy is kept, none replaced");
}
