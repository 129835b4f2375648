//! Reading Polyglot books: the shipped gnuchess book against python-chess, corrupt and
//! truncated files, and `hastings book info`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use crate::common;

use std::path::PathBuf;

use common::hastings;
use hastings::book::polyglot::{
    Entry, MoveSkip, PolyglotBook, PolyglotError, RawMove, gnuchess, key,
};
use hastings::workspace::polyglot::{PolyglotFile, PolyglotFileError};
use rustc_hash::FxHashSet;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("hastings-polyglot-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

fn gnuchess_path() -> String {
    format!("{}/assets/books/gnuchess.bin", env!("CARGO_MANIFEST_DIR"))
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn the_embedded_gnuchess_book_loads_with_zero_issues() {
    let book = gnuchess().unwrap();
    let summary = book.check().unwrap();
    assert_eq!(summary.entries, 180_358);
    assert_eq!(summary.bad_moves, 0);
    assert_eq!(summary.zero_weights, 0);
    // Distinct keys: `python3 docs/polyglot_check.py walk assets/books/gnuchess.bin`
    // (python-chess 1.11.2) counts 149,694 too.
    assert_eq!(summary.positions, 149_694);
}

#[test]
fn gnuchess_start_weights_are_those_python_chess_reads() {
    // python-chess 1.11.2: chess.polyglot.open_reader(book.bin).find_all(chess.Board()).
    let expected = [
        ("e4", 12135),
        ("d4", 11257),
        ("Nf3", 3745),
        ("c4", 3294),
        ("g3", 243),
        ("b3", 38),
        ("f4", 35),
        ("Nc3", 16),
        ("b4", 16),
        ("e3", 7),
        ("d3", 5),
        ("g4", 4),
        ("a3", 2),
    ];
    let start = Chess::default();
    let moves = gnuchess().unwrap().moves(&start);
    let got: Vec<(String, u32)> = moves
        .moves
        .iter()
        .map(|m| {
            (
                SanPlus::from_move(start.clone(), m.mv).to_string(),
                m.weight,
            )
        })
        .collect();
    let want: Vec<(String, u32)> = expected.iter().map(|(s, w)| (s.to_string(), *w)).collect();
    assert_eq!(got, want);
    assert!(moves.skipped.is_empty());
}

#[test]
fn every_gnuchess_entry_reached_from_the_start_is_a_legal_move() {
    // Following every book move from the start reaches 112,294 positions with entries,
    // 142,776 entries, none illegal: the same walk with python-chess 1.11.2,
    // `python3 docs/polyglot_check.py walk assets/books/gnuchess.bin`.
    let book = gnuchess().unwrap();
    let mut seen = FxHashSet::default();
    let mut stack = vec![Chess::default()];
    let (mut positions, mut entries, mut skipped) = (0, 0, 0);
    while let Some(pos) = stack.pop() {
        if !seen.insert(key(&pos)) {
            continue;
        }
        let moves = book.moves(&pos);
        if moves.moves.is_empty() && moves.skipped.is_empty() {
            continue;
        }
        positions += 1;
        entries += book.key_range(moves.key).len();
        skipped += moves.skipped.len();
        for m in moves.moves {
            let mut next = pos.clone();
            next.play_unchecked(m.mv);
            stack.push(next);
        }
    }
    assert_eq!((positions, entries, skipped), (112_294, 142_776, 0));
}

#[test]
fn a_book_file_is_mapped_and_looked_up_like_the_embedded_one() {
    let file = PolyglotFile::open(gnuchess_path().as_ref()).unwrap();
    assert_eq!(file.len(), 180_358 * 16);
    let after_e4 = common::position_after("e4");
    assert_eq!(
        file.book().moves(&after_e4),
        gnuchess().unwrap().moves(&after_e4)
    );
    assert_eq!(file.check().unwrap(), gnuchess().unwrap().check().unwrap());
}

#[test]
fn a_truncated_file_is_refused_with_its_length() {
    let bytes = std::fs::read(gnuchess_path()).unwrap();
    let path = temp_file("truncated.bin", &bytes[..16 * 1000 + 7]);
    let err = PolyglotFile::open(&path).unwrap_err();
    let PolyglotFileError::Format { source, .. } = &err else {
        panic!("{err}");
    };
    assert_eq!(
        *source,
        PolyglotError::Truncated {
            len: 16_007,
            extra: 7
        }
    );
    assert!(err.to_string().contains("truncated"), "{err}");
    let (code, _, stderr) = hastings(&["book", "info", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stderr.contains("16007 bytes"), "{stderr}");
    std::fs::remove_file(path).unwrap();
}

#[test]
fn an_empty_file_is_an_empty_book_and_a_missing_file_an_open_error() {
    let path = temp_file("empty.bin", &[]);
    let file = PolyglotFile::open(&path).unwrap();
    assert!(file.book().is_empty());
    assert!(file.book().moves(&Chess::default()).is_empty());
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(
        PolyglotFile::open(&path),
        Err(PolyglotFileError::Open { .. })
    ));
}

#[test]
fn unsorted_entries_are_reported_by_check_and_by_book_info() {
    let mut bytes = std::fs::read(gnuchess_path()).unwrap();
    // Swap entries 100 and 50,000.
    let (a, b) = (100 * 16, 50_000 * 16);
    for i in 0..16 {
        bytes.swap(a + i, b + i);
    }
    let path = temp_file("unsorted.bin", &bytes);
    let file = PolyglotFile::open(&path).unwrap();
    let err = file.check().unwrap_err();
    assert!(
        matches!(
            err,
            PolyglotFileError::Format {
                source: PolyglotError::Unsorted { index: 101, .. },
                ..
            }
        ),
        "{err}"
    );
    // Lookups still answer without a panic.
    let _ = file.book().moves(&Chess::default());
    let (code, _, stderr) = hastings(&["book", "info", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stderr.contains("not sorted"), "{stderr}");
    std::fs::remove_file(path).unwrap();
}

#[test]
fn corrupt_entries_are_skipped_and_counted_at_their_position() {
    let start = Chess::default();
    let k = key(&start);
    let entry = |raw, weight| Entry {
        key: k,
        raw_move: RawMove(raw),
        weight,
        learn: 0,
    };
    // e2e4; e2e5 (no move); a promotion code of 6; a1a1; then random bytes with larger
    // keys.
    let mut bytes: Vec<u8> = [
        entry(0x031c, 10),
        entry((12 << 6) | 36, 5),
        entry(0x631c, 5),
        entry(0, 5),
    ]
    .iter()
    .flat_map(|e| e.to_bytes())
    .collect();
    let mut noise = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..64 {
        noise ^= noise << 13;
        noise ^= noise >> 7;
        noise ^= noise << 17;
        bytes.extend_from_slice(&(u64::MAX - (noise >> 8)).to_be_bytes());
        bytes.extend_from_slice(&noise.to_le_bytes());
    }
    let book = PolyglotBook::new(&bytes).unwrap();
    let moves = book.moves(&start);
    assert_eq!(moves.moves.len(), 1);
    assert_eq!(moves.moves[0].weight, 10);
    let reasons: Vec<MoveSkip> = moves.skipped.iter().map(|s| s.reason).collect();
    assert_eq!(
        reasons,
        [
            MoveSkip::Illegal(RawMove((12 << 6) | 36)),
            MoveSkip::Malformed(RawMove(0x631c)),
            MoveSkip::Null
        ]
    );
    // The noise is not sorted: check says so, lookups of any key still answer.
    assert!(book.check().is_err());
    for e in book.entries() {
        assert!(book.key_range(e.key).end <= book.len());
    }
}

#[test]
fn book_info_json_lists_the_moves_with_shares() {
    let file = gnuchess_path();
    let (code, out, _) = hastings(&["book", "info", &file, "--moves", "e4 c5", "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["entries"], 180_358);
    assert_eq!(v["positions"], 149_694);
    let at = v["at"].as_array().unwrap();
    assert!(!at.is_empty());
    assert_eq!(at[0]["san"], "Nf3");
    assert_eq!(at[0]["uci"], "g1f3");
    let total: f64 = at.iter().map(|m| m["share"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9);
    let weights: Vec<u64> = at.iter().map(|m| m["weight"].as_u64().unwrap()).collect();
    assert!(weights.windows(2).all(|w| w[0] >= w[1]));
}

#[test]
fn book_info_takes_a_fen_and_writes_castling_as_the_king_move() {
    // The Ruy Lopez after 4... Nf6: gnuchess's book holds 5. O-O (e1h1 in the file).
    let fen = "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5";
    let (code, out, _) = hastings(&["book", "info", &gnuchess_path(), "--fen", fen, "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    let castle = v["at"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["san"] == "O-O")
        .expect("O-O is in the book");
    assert_eq!(castle["uci"], "e1g1");
}

#[test]
fn book_info_text_says_when_a_position_has_no_move() {
    let (code, out, _) = hastings(&["book", "info", &gnuchess_path(), "--moves", "a4 h5 Ra3"]);
    assert_eq!(code, 0);
    assert!(out.contains("(no book move here)"), "{out}");
    let (code, _, stderr) = hastings(&["book", "info", &gnuchess_path(), "--moves", "e5"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("--moves: ply 1 `e5`: illegal move"),
        "{stderr}"
    );
}
