//! A damaged explorer index is found, never counted: a flipped bit in any kind of
//! piece of a segment (header, records, block checksums, index, game facts, game
//! lines and their checksums) or in the manifest gives, for every query, the
//! undamaged answer or an error naming the damaged file; checking the whole index
//! finds every one; arbitrary mutations of a real segment and arbitrary bytes never
//! make a panic.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::ops::Range;
use std::path::PathBuf;

use common::{fixture, temp_dir};
use hastings::book::explorer::{ExplorerFilter, PositionStats};
use hastings::job::JobProgress;
use hastings::workspace::explorer::{
    ExplorerError, ExplorerIndex, MakeOptions, TopGame, make_explorer,
};
use proptest::prelude::*;
use shakmaty::{Chess, Position};

/// An index of the 200 KB of fixtures, its segment's bytes, and the answers at the
/// positions within 3 plies that it reaches, with their top games.
struct Undamaged {
    dir: PathBuf,
    segment: PathBuf,
    bytes: Vec<u8>,
    answers: Vec<(Chess, PositionStats, Vec<TopGame>)>,
}

fn undamaged(name: &str) -> Undamaged {
    let dir = temp_dir(name);
    let inputs = [fixture("twic1599_100k.pgn"), fixture("lichess_db_100k.pgn")];
    let options = MakeOptions {
        max_plies: 8,
        ..MakeOptions::default()
    };
    make_explorer(&inputs, &dir, &options, &JobProgress::new()).unwrap();
    let index = ExplorerIndex::open(&dir).unwrap();
    let mut answers = Vec::new();
    let mut layer = vec![Chess::default()];
    for _ in 0..3 {
        let mut next = Vec::new();
        for pos in layer {
            let stats = index
                .query_position(&pos, &ExplorerFilter::default())
                .unwrap();
            for m in &stats.moves {
                let mut after = pos.clone();
                after.play_unchecked(m.raw_move.to_move(&pos).unwrap());
                next.push(after);
            }
            let tops = stats
                .top
                .iter()
                .map(|t| index.top_game(t).unwrap())
                .collect();
            answers.push((pos, stats, tops));
        }
        layer = next;
    }
    let segment = dir.join("seg-000001.seg");
    let bytes = std::fs::read(&segment).unwrap();
    Undamaged {
        dir,
        segment,
        bytes,
        answers,
    }
}

/// Asserts that `e` names `file` and says it is damaged.
fn names(e: &ExplorerError, file: &str) {
    let text = e.to_string();
    assert!(text.contains(file), "{text}");
}

/// Every query of `u.answers` on the index at `u.dir` as it is now (`file` damaged):
/// the undamaged answer or an error naming `file`, and checking the index finds the
/// damage. Returns the number of errors (the index not opening counts as one).
fn answers_or_errors(u: &Undamaged, file: &str, what: &str) -> usize {
    let index = match ExplorerIndex::open(&u.dir) {
        Ok(index) => index,
        Err(e) => {
            names(&e, file);
            return 1;
        }
    };
    let mut errors = 0;
    for (pos, stats, tops) in &u.answers {
        match index.query_position(pos, &ExplorerFilter::default()) {
            Ok(got) => {
                assert_eq!(&got, stats, "{what}: other counts");
                for (t, top) in got.top.iter().zip(tops) {
                    match index.top_game(t) {
                        Ok(got) => assert_eq!(&got, top, "{what}: another top game"),
                        Err(e) => {
                            names(&e, file);
                            errors += 1;
                        }
                    }
                }
            }
            Err(e) => {
                names(&e, file);
                errors += 1;
            }
        }
    }
    names(&index.verify().expect_err(what), file);
    errors
}

fn word(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

/// The kinds of piece of a segment and where they are (`src/workspace/explorer/
/// segment.rs` and `games.rs` give the format).
fn pieces(bytes: &[u8]) -> Vec<(&'static str, Range<usize>)> {
    let [blocks, games, index, table] = [24, 32, 40, 48].map(|at| word(bytes, at) as usize);
    let second_block = word(bytes, index + 24) as usize;
    let facts_crc = table + 8 * games;
    let offsets = facts_crc + 4 * games.div_ceil(8);
    let lines_crc = offsets + 8 * (games + 1);
    let text = lines_crc + 4 * games.div_ceil(64);
    vec![
        ("header", 0..64),
        ("the first block's records", 64..second_block - 4),
        ("the first block's checksum", second_block - 4..second_block),
        ("records", second_block..index),
        ("the index", index..index + 16 * blocks),
        ("the index's checksums", index + 16 * blocks..table),
        ("the games' facts", table..facts_crc),
        ("the facts' checksums", facts_crc..offsets),
        ("the lines' offsets", offsets..lines_crc),
        ("the lines' checksums", lines_crc..text),
        ("the lines", text..bytes.len()),
    ]
}

#[test]
fn a_flipped_bit_in_any_piece_of_a_segment_is_found_never_counted() {
    let u = undamaged("explorer-damage-pieces");
    let mut queries_found = 0;
    for (piece, range) in pieces(&u.bytes) {
        assert!(!range.is_empty(), "{piece}");
        // Eight places spread over the piece, a different bit at each, and every bit
        // of its first byte.
        let len = range.len();
        let mut flips: Vec<(usize, u8)> = (0..8)
            .map(|i| (range.start + i * len / 8, i as u8))
            .collect();
        flips.extend((0..8).map(|bit| (range.start, bit)));
        for (at, bit) in flips {
            let what = format!("{piece}: bit {bit} of byte {at}");
            let mut damaged = u.bytes.clone();
            damaged[at] ^= 1 << bit;
            std::fs::write(&u.segment, &damaged).unwrap();
            queries_found += answers_or_errors(&u, "seg-000001.seg", &what);
        }
    }
    assert!(queries_found > 0);
    std::fs::write(&u.segment, &u.bytes).unwrap();
    ExplorerIndex::open(&u.dir).unwrap().verify().unwrap();
}

#[test]
fn a_flipped_bit_in_the_manifest_is_found_never_counted() {
    let u = undamaged("explorer-damage-manifest");
    let manifest = u.dir.join("manifest.json");
    let text = std::fs::read(&manifest).unwrap();
    let mut found = 0;
    for at in 0..text.len() {
        let mut damaged = text.clone();
        damaged[at] ^= 1 << (at % 8);
        std::fs::write(&manifest, &damaged).unwrap();
        match ExplorerIndex::open(&u.dir) {
            Err(e) => {
                names(&e, "manifest.json");
                found += 1;
            }
            // A flip the JSON reads past (a space that stays a space) changes nothing.
            Ok(index) => {
                for (pos, stats, _) in &u.answers {
                    let got = index.query_position(pos, &ExplorerFilter::default());
                    assert_eq!(&got.unwrap(), stats, "byte {at}");
                }
            }
        }
    }
    assert!(found > text.len() * 9 / 10, "{found} of {}", text.len());
}

/// Writes `bytes` as the segment of `u` and checks the index: it must not open, or
/// its check must fail, naming the segment; queries never panic.
fn check_mutated(u: &Undamaged, bytes: &[u8]) -> Result<(), TestCaseError> {
    std::fs::write(&u.segment, bytes).unwrap();
    let detected = match ExplorerIndex::open(&u.dir) {
        Err(e) => e.to_string().contains("seg-000001.seg"),
        Ok(index) => {
            for (pos, stats, _) in u.answers.iter().take(8) {
                if let Ok(got) = index.query_position(pos, &ExplorerFilter::default()) {
                    prop_assert_eq!(&got, stats);
                }
            }
            index
                .verify()
                .is_err_and(|e| e.to_string().contains("seg-000001.seg"))
        }
    };
    prop_assert!(detected, "a mutation was not found");
    Ok(())
}

/// One index per test (the tests run side by side), made once for all its cases.
fn mutated_index() -> &'static Undamaged {
    static U: std::sync::OnceLock<Undamaged> = std::sync::OnceLock::new();
    U.get_or_init(|| undamaged("explorer-damage-mutations"))
}

fn arbitrary_index() -> &'static Undamaged {
    static U: std::sync::OnceLock<Undamaged> = std::sync::OnceLock::new();
    U.get_or_init(|| undamaged("explorer-damage-arbitrary"))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 128,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(39),
        ..ProptestConfig::default()
    })]

    /// Up to 8 bytes of a real segment changed anywhere: found by its checksums.
    #[test]
    fn any_mutation_of_a_segment_is_found(
        changes in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..8)
    ) {
        let u = mutated_index();
        let mut bytes = u.bytes.clone();
        for (at, xor) in &changes {
            let at = at.index(bytes.len());
            bytes[at] ^= xor;
        }
        prop_assume!(bytes != u.bytes);
        check_mutated(u, &bytes)?;
    }

    /// Arbitrary bytes as a segment, with the magic and a header checksum that
    /// matches or not: an error, never a panic.
    #[test]
    fn arbitrary_bytes_are_refused_without_a_panic(
        mut bytes in prop::collection::vec(any::<u8>(), 0..4096),
        magic: bool,
        sum: bool,
    ) {
        let u = arbitrary_index();
        if magic && bytes.len() >= 64 {
            bytes[..8].copy_from_slice(b"HSTEXPL1");
            bytes[8..12].copy_from_slice(&3u32.to_le_bytes());
            if sum {
                let mut header = bytes[..64].to_vec();
                header[12..16].fill(0);
                let crc = crc32c::crc32c(&header);
                bytes[12..16].copy_from_slice(&crc.to_le_bytes());
            }
        }
        std::fs::write(&u.segment, &bytes).unwrap();
        if let Ok(index) = ExplorerIndex::open(&u.dir) {
            let _ = index.verify();
            for (pos, _, _) in u.answers.iter().take(8) {
                let _ = index.query_position(pos, &ExplorerFilter::default());
            }
        }
    }
}
