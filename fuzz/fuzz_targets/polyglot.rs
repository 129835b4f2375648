//! Fuzzes the Polyglot reader and writer: any bytes, read as a book, must give errors
//! or counted skips and never a panic; read as PGN, they must make a book that reads
//! back sorted, with every entry a legal move of a position the games reached.

#![no_main]

use hastings::book::polyglot::{
    BookWriter, MoveCounts, PolyglotBook, PolyglotError, RawMove, WeightRule, WriterOptions,
    key, read_games,
};
use libfuzzer_sys::fuzz_target;
use shakmaty::{Chess, Position};

/// Follows the book's moves from the start, at most `budget` positions.
fn walk(book: &PolyglotBook<'_>, budget: usize) {
    let mut stack = vec![(Chess::default(), 0u32)];
    let mut seen = 0;
    while let Some((pos, depth)) = stack.pop() {
        seen += 1;
        if seen > budget {
            return;
        }
        let moves = book.moves(&pos);
        let range = book.key_range(moves.key);
        assert!(range.end <= book.len());
        assert!(moves.moves.len() + moves.skipped.len() <= range.len());
        if depth < 8 {
            for m in moves.moves {
                let mut next = pos.clone();
                next.play_unchecked(m.mv);
                stack.push((next, depth + 1));
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    // The bytes as a book.
    match PolyglotBook::new(data) {
        Ok(book) => {
            assert_eq!(book.len(), data.len() / 16);
            let sorted = book.check();
            for (i, e) in book.entries().enumerate().take(256) {
                let range = book.key_range(e.key);
                assert!(range.end <= book.len());
                if sorted.is_ok() {
                    assert!(range.contains(&i), "entry {i} is found by its key");
                }
            }
            walk(&book, 200);
        }
        Err(PolyglotError::Truncated { len, extra }) => {
            assert_eq!((len, extra), (data.len(), data.len() % 16));
        }
        Err(e) => panic!("only the length is checked on open: {e}"),
    }

    // The bytes as PGN, made into a book.
    let mut counts = MoveCounts::with_capacity(1 << 16);
    let mut plies: Vec<(u64, RawMove, u8)> = Vec::new();
    let Ok(report) = read_games(data, 16, &mut plies) else {
        return;
    };
    assert_eq!(report.plies, plies.len() as u64);
    assert!(report.issues.len() as u64 <= report.issue_count);
    for &(k, m, s) in &plies {
        assert!(s <= 2);
        assert!(m.check().is_ok());
        assert!(counts.try_add(k, m, s));
    }
    let run = counts.take_run();
    for weights in [WeightRule::Games, WeightRule::Polyglot] {
        let mut writer = BookWriter::new(Vec::new(), WriterOptions { weights, min_games: 1 });
        for c in &run {
            assert!(writer.push(*c).is_ok());
        }
        let Ok((bytes, summary)) = writer.finish() else {
            panic!("writing to memory cannot fail");
        };
        let Ok(book) = PolyglotBook::new(&bytes) else {
            panic!("a written book has whole entries");
        };
        let Ok(checked) = book.check() else {
            panic!("a written book is sorted");
        };
        assert_eq!(checked.entries as u64, summary.entries);
        assert_eq!(checked.bad_moves, 0);
        assert_eq!(checked.zero_weights, 0);
        if weights == WeightRule::Games {
            assert_eq!(summary.entries as usize, run.len());
            let total: u64 = run.iter().map(|c| u64::from(c.games)).sum();
            assert_eq!(total, plies.len() as u64);
        }
    }
    // Every ply of a standard game from the start is a legal entry at its position.
    let start = key(&Chess::default());
    if let Some(&(_, m, _)) = plies.iter().find(|p| p.0 == start) {
        assert!(m.to_move(&Chess::default()).is_ok());
    }
});
