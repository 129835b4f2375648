//! Saving a repertoire file: conflicts with changes on disk, rotating backups, and the
//! journal that brings back unsaved edits after a crash.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::fs;
use std::path::PathBuf;

use hastings::book::repertoire::{GameTree, Op};
use hastings::workspace::backups::{self, KEEP};
use hastings::workspace::repertoire_file::{
    RepertoireFile, SaveOutcome, discard, recover, recoverable,
};

/// A fresh folder with a copy of `repertoire.pgn` and a data folder.
fn setup(name: &str) -> (PathBuf, PathBuf, Vec<u8>) {
    let dir = std::env::temp_dir().join(format!("hastings-save-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let bytes = fs::read("tests/fixtures/repertoire.pgn").unwrap();
    let file = dir.join("mine.pgn");
    fs::write(&file, &bytes).unwrap();
    (file, dir.join("data"), bytes)
}

fn add(file: &mut RepertoireFile, san: &str) {
    file.edit(&Op::AddMove {
        chapter: 0,
        at: GameTree::ROOT,
        san: san.into(),
    })
    .unwrap();
}

#[test]
fn a_file_changed_on_disk_is_not_overwritten() {
    let (path, data, bytes) = setup("conflict");
    let mut file = RepertoireFile::open(&path, Some(&data)).unwrap();
    add(&mut file, "d4");
    let mut changed = bytes.clone();
    changed.extend_from_slice(b"\n[Event \"Added elsewhere\"]\n\n1. c4 *\n");
    fs::write(&path, &changed).unwrap();
    let outcome = file.save().unwrap();
    assert!(
        matches!(outcome, SaveOutcome::Conflict { on_disk: Some(_) }),
        "{outcome:?}"
    );
    assert_eq!(fs::read(&path).unwrap(), changed, "nothing written");
    // The learner chooses to overwrite: the other version is kept as a backup.
    let SaveOutcome::Saved { backup: Some(b) } = file.save_overwrite().unwrap() else {
        panic!("saved");
    };
    assert_eq!(fs::read(b).unwrap(), changed);
    assert!(
        String::from_utf8(fs::read(&path).unwrap())
            .unwrap()
            .contains("(1. d4)")
    );
    // Saved: the next save finds no conflict.
    add(&mut file, "c4");
    assert!(matches!(file.save().unwrap(), SaveOutcome::Saved { .. }));
}

#[test]
fn backups_rotate_at_ten_newest_first_and_restore() {
    let (path, data, bytes) = setup("backups");
    let mut file = RepertoireFile::open(&path, Some(&data)).unwrap();
    let moves = [
        "a3", "b3", "c3", "d3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "f4",
    ];
    for san in moves {
        add(&mut file, san);
        assert!(matches!(
            file.save().unwrap(),
            SaveOutcome::Saved { backup: Some(_) }
        ));
    }
    let list = backups::list(&data, &path).unwrap();
    assert_eq!(list.len(), KEEP);
    // The newest backup is the version before the last save: without 4. f4.
    let newest = String::from_utf8(fs::read(&list[0].path).unwrap()).unwrap();
    assert!(newest.contains("d4") && !newest.contains("f4"));
    assert!(list.windows(2).all(|w| w[0].path > w[1].path));
    // The first two versions (the original and the one with a3 only) are gone.
    assert!(list.iter().all(|b| fs::read(&b.path).unwrap() != bytes));
    backups::restore(&data, &path, &list[0]).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), newest);
    assert_eq!(backups::list(&data, &path).unwrap().len(), KEEP);
}

#[test]
fn unsaved_edits_survive_a_dropped_process_and_are_offered() {
    let (path, data, bytes) = setup("journal");
    let expected = {
        let mut file = RepertoireFile::open(&path, Some(&data)).unwrap();
        add(&mut file, "d4");
        assert!(matches!(file.save().unwrap(), SaveOutcome::Saved { .. }));
        add(&mut file, "c4");
        add(&mut file, "Nf3");
        file.undo().unwrap();
        let e4 = file.document().node_at(0, "e4").unwrap();
        file.edit(&Op::SetComment {
            chapter: 0,
            node: e4,
            text: "Best by test".into(),
        })
        .unwrap();
        let expected = file.document().to_pgn();
        // The process dies here: no save, no close.
        std::mem::forget(file);
        expected
    };
    let saved = fs::read(&path).unwrap();
    assert_ne!(saved, bytes);
    let offer = recoverable(&data, &path).unwrap().unwrap();
    assert_eq!(offer.unsaved, 4);
    assert!(!offer.torn);
    let mut file = recover(&data, &path).unwrap();
    assert_eq!(file.document().to_pgn(), expected);
    assert!(file.document().is_dirty());
    // The undo history came back too: Nf3 can be redone after undoing the comment.
    file.undo().unwrap();
    file.redo().unwrap();
    // The file on disk is the saved version, so saving is no conflict.
    assert!(matches!(file.save().unwrap(), SaveOutcome::Saved { .. }));
    assert_eq!(fs::read(&path).unwrap(), expected);
    file.close().unwrap();
    assert_eq!(recoverable(&data, &path).unwrap(), None);
}

#[test]
fn a_torn_last_journal_line_is_left_out_and_kept_aside() {
    let (path, data, _) = setup("torn");
    let after_one = {
        let mut file = RepertoireFile::open(&path, Some(&data)).unwrap();
        add(&mut file, "d4");
        let after_one = file.document().to_pgn();
        add(&mut file, "c4");
        std::mem::forget(file);
        after_one
    };
    let journal = backups::folder(&data, &path)
        .join("journal")
        .join("edits.jsonl");
    let text = fs::read(&journal).unwrap();
    // Cut the last entry in the middle, as a crash during the write would.
    fs::write(&journal, &text[..text.len() - 10]).unwrap();
    let offer = recoverable(&data, &path).unwrap().unwrap();
    assert!(offer.torn);
    assert_eq!(offer.unsaved, 1);
    let mut file = recover(&data, &path).unwrap();
    assert_eq!(file.document().to_pgn(), after_one);
    let aside = fs::read_dir(journal.parent().unwrap())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".torn-")
        })
        .count();
    assert_eq!(aside, 1, "the torn journal is kept aside");
    // Journaling goes on after the whole entries.
    add(&mut file, "Nf3");
    std::mem::forget(file);
    let again = recover(&data, &path).unwrap();
    assert!(
        String::from_utf8(again.document().to_pgn())
            .unwrap()
            .contains("(1. Nf3)")
    );
    discard(&data, &path).unwrap();
    assert_eq!(recoverable(&data, &path).unwrap(), None);
}

/// The saving rule with a real kill -9: a child process (this test binary again, told by
/// `HASTINGS_KILL_CHILD` to play the editor) saves one edit, makes one more without
/// saving and is killed with SIGKILL; the saved edit is on disk and the unsaved one is
/// offered and brought back at the next start.
#[test]
fn a_process_killed_between_edits_keeps_its_saved_and_unsaved_edits() {
    const TEST: &str = "a_process_killed_between_edits_keeps_its_saved_and_unsaved_edits";
    if let Some(dir) = std::env::var_os("HASTINGS_KILL_CHILD") {
        let dir = PathBuf::from(dir);
        let (path, data) = (dir.join("mine.pgn"), dir.join("data"));
        let mut file = RepertoireFile::open(&path, Some(&data)).unwrap();
        add(&mut file, "d4");
        assert!(matches!(file.save().unwrap(), SaveOutcome::Saved { .. }));
        add(&mut file, "c4");
        // Both edits returned: the saved one is in the file, the other in the journal.
        fs::write(dir.join("ready"), b"").unwrap();
        loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
    }
    let (path, data, bytes) = setup("kill");
    let dir = path.parent().unwrap().to_path_buf();
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &common::exact_test_name(module_path!(), TEST)])
        .args(["--nocapture", "--test-threads=1"])
        .env("HASTINGS_KILL_CHILD", &dir)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !dir.join("ready").exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the child process ended before its edits"
        );
        assert!(start.elapsed().as_secs() < 120, "the child never got ready");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL on Unix: no destructor, no flush runs.
    child.wait().unwrap();

    let saved = String::from_utf8(fs::read(&path).unwrap()).unwrap();
    assert_ne!(saved.as_bytes(), bytes.as_slice());
    assert!(saved.contains("(1. d4)"), "the saved edit is on disk");
    assert!(!saved.contains("(1. c4)"), "the unsaved one is not");
    let offer = recoverable(&data, &path).unwrap().unwrap();
    assert_eq!(offer.unsaved, 1);
    assert!(!offer.torn);
    let file = recover(&data, &path).unwrap();
    let recovered = String::from_utf8(file.document().to_pgn()).unwrap();
    assert!(recovered.contains("(1. d4)") && recovered.contains("(1. c4)"));
    assert!(file.document().is_dirty());
    let _ = fs::remove_dir_all(&dir);
}
