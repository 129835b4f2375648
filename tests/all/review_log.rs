//! The review log on disk never loses a complete review: torn appends, corrupt lines,
//! and a writer killed mid-append.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use hastings::review::{CardKey, Rating, ReviewRecord, Scheduler, Timestamp};
use hastings::workspace::review_store::ReviewStore;
use shakmaty::{Chess, Position};

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("hastings-review-log-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn record(i: i64) -> ReviewRecord {
    let mut pos = Chess::default();
    // A few different cards: the start, or after a knight move and back.
    if i % 2 == 1 {
        let mv = pos.legal_moves()[(i as usize / 2) % 20];
        pos.play_unchecked(mv);
    }
    ReviewRecord {
        time: Timestamp::from_unix_ms(1_740_000_000_000 + i * 61_000, 120),
        color: pos.turn(),
        rating: Rating::ALL[(i % 4) as usize],
        seconds: (i % 50) as f32 / 10.0,
        fuzz: i % 3 == 0,
        card: CardKey::from_position(&pos),
    }
}

fn write_log(path: &Path, n: i64) -> Vec<ReviewRecord> {
    let mut store = ReviewStore::open(path).unwrap();
    let records: Vec<_> = (0..n).map(record).collect();
    for r in &records {
        store.append(r).unwrap();
    }
    records
}

#[test]
fn appended_reviews_are_read_back_and_replayed() {
    let dir = temp_dir("roundtrip");
    let path = dir.join("reviews.log");
    let records = write_log(&path, 25);
    let store = ReviewStore::open(&path).unwrap();
    assert_eq!(store.records(), records.as_slice());
    assert!(store.warnings().is_empty(), "{:?}", store.warnings());
    assert_eq!(store.schedule(&Scheduler::default()).review_count(), 25);
}

#[test]
fn a_log_cut_at_any_byte_of_its_last_record_keeps_every_complete_review() {
    let dir = temp_dir("cut");
    let full = dir.join("full.log");
    let records = write_log(&full, 6);
    let bytes = std::fs::read(&full).unwrap();
    let last = records[5].to_line().len();
    let start = bytes.len() - last;
    for cut in start..=bytes.len() {
        let path = dir.join(format!("cut-{cut}.log"));
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let mut store = ReviewStore::open(&path).unwrap();
        let kept = if cut == bytes.len() { 6 } else { 5 };
        assert_eq!(store.records(), &records[..kept], "cut at {cut}");
        let torn = cut > start && cut < bytes.len();
        assert_eq!(
            store.warnings().is_empty(),
            !torn,
            "cut at {cut}: {:?}",
            store.warnings()
        );
        // The torn bytes were cut off the log (and kept aside): the next append is whole.
        store.append(&record(99)).unwrap();
        let again = ReviewStore::open(&path).unwrap();
        assert_eq!(again.records().len(), kept + 1, "cut at {cut}");
        assert!(
            again.warnings().is_empty(),
            "cut at {cut}: {:?}",
            again.warnings()
        );
        assert_eq!(again.records()[kept], record(99));
    }
    let aside = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".torn-")
        })
        .count();
    assert_eq!(aside, last - 1, "every torn tail is kept aside");
}

#[test]
fn a_corrupt_middle_line_is_reported_with_its_number_and_the_rest_kept() {
    let dir = temp_dir("corrupt");
    let path = dir.join("reviews.log");
    write_log(&path, 5);
    let mut text = std::fs::read_to_string(&path).unwrap();
    // Line 1 is the header; damage line 3 (the second record).
    let lines: Vec<&str> = text.lines().collect();
    let damaged = lines[2].replacen('\t', "\tpurple\t", 1);
    text = text.replacen(lines[2], &damaged, 1);
    std::fs::write(&path, text).unwrap();
    let store = ReviewStore::open(&path).unwrap();
    assert_eq!(store.records().len(), 4);
    assert_eq!(store.records()[1], record(2));
    assert_eq!(store.warnings().len(), 1);
    assert!(
        store.warnings()[0].contains("line 3"),
        "{:?}",
        store.warnings()
    );
}

/// Set by [`a_writer_killed_mid_append_loses_no_complete_review`] when it runs this test
/// binary again as the writer.
const WRITER_ENV: &str = "HASTINGS_TEST_REVIEW_WRITER";

#[test]
fn a_child_writer_appends_until_killed() {
    // Only does something as the child process of the kill test.
    let Ok(path) = std::env::var(WRITER_ENV) else {
        return;
    };
    let mut store = ReviewStore::open(Path::new(&path)).unwrap();
    for i in 0.. {
        store.append(&record(i)).unwrap();
    }
}

#[test]
fn a_writer_killed_mid_append_loses_no_complete_review() {
    let dir = temp_dir("kill");
    let path = dir.join("reviews.log");
    for round in 0..3 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                &common::exact_test_name(module_path!(), "a_child_writer_appends_until_killed"),
                "--nocapture",
                "--test-threads=1",
            ])
            .env(WRITER_ENV, &path)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Let it append for a while, then SIGKILL it wherever it is.
        let size_before = std::fs::metadata(&path).map_or(0, |m| m.len());
        for _ in 0..200 {
            std::thread::sleep(Duration::from_millis(10));
            if std::fs::metadata(&path).map_or(0, |m| m.len()) > size_before + 2000 {
                break;
            }
        }
        child.kill().unwrap();
        child.wait().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let complete = bytes.iter().filter(|&&b| b == b'\n').count() - 1; // minus the header
        let store = ReviewStore::open(&path).unwrap();
        assert!(complete > 0, "round {round}: the writer wrote nothing");
        assert_eq!(store.records().len(), complete, "round {round}");
        // Each round's writer numbers its records from 0 again.
        assert_eq!(store.records()[0], record(0));
        assert!(
            store.warnings().iter().all(|w| w.contains("cut off")),
            "round {round}: {:?}",
            store.warnings()
        );
    }
}

mod fuzz {
    //! The log's reader against arbitrary bytes and damage (issue: nothing a user owns is
    //! lost): it never panics, and damage costs at most the records it touches.
    use super::record;
    use hastings::review::log::{format, parse};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(39), ..ProptestConfig::default() })]

        #[test]
        fn any_bytes_read_without_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
            let read = parse(&bytes);
            prop_assert!(read.complete_len <= bytes.len());
            let lines = bytes.iter().filter(|&&b| b == b'\n').count();
            prop_assert!(read.records.len() + read.problems.len() <= lines);
        }

        #[test]
        fn a_log_cut_anywhere_keeps_every_whole_record(n in 1usize..30, cut in any::<prop::sample::Index>()) {
            let records: Vec<_> = (0..n as i64).map(record).collect();
            let bytes = format(&records);
            let at = cut.index(bytes.len() + 1);
            let read = parse(&bytes[..at]);
            // Complete lines before the cut, less the header's.
            let whole = bytes[..at].iter().filter(|&&b| b == b'\n').count().saturating_sub(1);
            prop_assert_eq!(&read.records[..], &records[..whole]);
            prop_assert_eq!(read.torn_tail.is_some(), at > 0 && bytes[at - 1] != b'\n');
            prop_assert!(read.problems.is_empty());
        }

        #[test]
        fn one_damaged_byte_costs_at_most_its_own_record(n in 2usize..30, at in any::<prop::sample::Index>(), byte in any::<u8>()) {
            let records: Vec<_> = (0..n as i64).map(record).collect();
            let mut bytes = format(&records);
            let header = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
            // A byte of a record's line, not its newline (that would join two lines).
            let i = header + at.index(bytes.len() - header);
            prop_assume!(bytes[i] != b'\n' && byte != b'\n');
            bytes[i] = byte;
            let read = parse(&bytes);
            let kept = read.records.iter().filter(|r| records.contains(r)).count();
            prop_assert!(kept >= n - 1, "{} of {} kept", kept, n);
            // (A record damaged into a `#` comment line is skipped as a comment.)
            prop_assert!(read.records.len() + read.problems.len() >= n - 1);
        }
    }
}
