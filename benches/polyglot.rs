//! Polyglot books: lookups in the embedded gnuchess book and in a mapped 10,000,000-entry
//! file, drilling from a 10,000,000-entry book, and the in-memory core of `book make`
//! on generated games.
//!
//! `cargo bench -p hastings-bench --bench polyglot` runs the benchmarks. The same binary also writes the
//! test data of the side-by-side measurement with `polyglot make-book`
//! (docs/polyglot.md):
//!
//!     cargo bench -p hastings-bench --bench polyglot -- --write-pgn /tmp/games.pgn 1000000
//!
//! Games are walks of the gnuchess book from the start, each move chosen with the
//! probability of its weight; out of the book, uniformly random legal moves up to 30
//! plies; results drawn 38 % 1-0, 32 % ½-½, 30 % 0-1; a fixed seed, so the file is the
//! same every time.

#![allow(clippy::unwrap_used, clippy::expect_used)] // benches may panic

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group};
use hastings::book::PositionGraph;
use hastings::book::polyglot::{
    BookWriter, Entry, MoveCounts, PolyglotBook, RawMove, WriterOptions, gnuchess, read_games,
};
use hastings::sampler::{MoveSource, Popularity, Style};
use hastings::workspace::polyglot::PolyglotFile;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Position};

#[path = "shared/generated_games.rs"]
mod generated_games;
use generated_games::write_walk;

/// `n` generated games as PGN text (see the module docs), with seed `seed`.
fn generate_games(n: usize, seed: u64, mut out: impl std::io::Write) {
    let book = gnuchess().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut text = String::with_capacity(1024);
    for game in 1..=n {
        let result = match rng.random_range(0..100) {
            0..38 => "1-0",
            38..70 => "1/2-1/2",
            _ => "0-1",
        };
        text.clear();
        let _ = write!(
            text,
            "[Event \"Generated\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"{game}\"]\n\
             [White \"?\"]\n[Black \"?\"]\n[Result \"{result}\"]\n\n"
        );
        write_walk(&book, &mut rng, 30, &mut text);
        text.push_str(result);
        text.push_str("\n\n");
        out.write_all(text.as_bytes()).unwrap();
    }
}

/// Positions of the gnuchess book: walks of up to 12 plies along book moves.
fn book_positions(n: usize) -> Vec<Chess> {
    let book = gnuchess().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Chess::default();
        for _ in 0..rng.random_range(0..12) {
            let moves = book.moves(&pos);
            if moves.is_empty() {
                break;
            }
            let m = moves.moves[rng.random_range(0..moves.moves.len())].mv;
            pos.play_unchecked(m);
        }
        out.push(pos);
    }
    out
}

/// A sorted book of `n` entries (`n` even) with random keys, two moves each, at `path`
/// (made once and kept: 160 MB for 10,000,000 entries). The keys are spread evenly
/// over the 64-bit range, as Zobrist keys of real books are.
fn big_book(path: &Path, n: usize) {
    if std::fs::metadata(path).is_ok_and(|m| m.len() == 16 * n as u64) {
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut keys: Vec<u64> = (0..n / 2).map(|_| rng.random()).collect();
    keys.sort_unstable();
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for k in keys {
        for m in 0..2u16 {
            let entry = Entry {
                key: k,
                raw_move: RawMove(0x031c + m),
                weight: rng.random_range(1..1000),
                learn: 0,
            };
            out.write_all(&entry.to_bytes()).unwrap();
        }
    }
    out.flush().unwrap();
}

fn lookups(c: &mut Criterion) {
    let book = gnuchess().unwrap();
    let positions = book_positions(1000);
    let mut group = c.benchmark_group("polyglot lookup");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function(
        "gnuchess: moves at 1,000 positions (key, search, decode)",
        |b| {
            b.iter(|| {
                for pos in &positions {
                    black_box(book.moves(pos));
                }
            })
        },
    );
    group.bench_function("gnuchess: check (read all 180,358 entries)", |b| {
        b.iter(|| black_box(book.check().unwrap()))
    });

    let path: PathBuf = std::env::temp_dir().join("hastings-bench-polyglot-10m-v2.bin");
    big_book(&path, 10_000_000);
    group.bench_function("10M-entry file: open (map, length check)", |b| {
        b.iter(|| black_box(PolyglotFile::open(&path).unwrap()))
    });
    let file = PolyglotFile::open(&path).unwrap();
    let keys: Vec<u64> = {
        let big = file.book();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        (0..1000)
            .map(|_| big.entry(rng.random_range(0..big.len())).unwrap().key)
            .collect()
    };
    group.bench_function(
        "10M-entry file: key search (interpolation) of 1,000 keys",
        |b| {
            let big = file.book();
            b.iter(|| {
                for &k in &keys {
                    black_box(big.key_range(k));
                }
            })
        },
    );
    group.bench_function(
        "10M-entry file: moves at 1,000 positions (mostly absent)",
        |b| {
            let big = file.book();
            b.iter(|| {
                for pos in &positions {
                    black_box(big.moves(pos));
                }
            })
        },
    );
    group.finish();
}

/// `big_book`'s random entries with gnuchess's merged in, sorted: a 10,000,000-entry
/// book in which the real positions are found among millions of others.
fn big_book_with_gnuchess(path: &Path, random: &Path) {
    let n = 10_000_000u64;
    if std::fs::metadata(path).is_ok_and(|m| m.len() == 16 * n) {
        return;
    }
    let gnu = gnuchess().unwrap();
    let random_bytes = std::fs::read(random).unwrap();
    let random = PolyglotBook::new(&random_bytes).unwrap();
    let mut entries: Vec<Entry> = random
        .entries()
        .take(n as usize - gnu.len())
        .chain(gnu.entries())
        .collect();
    entries.sort_by_key(|e| e.key);
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for e in entries {
        out.write_all(&e.to_bytes()).unwrap();
    }
    out.flush().unwrap();
}

/// Drilling from a 10,000,000-entry book: opening it for a drill, and one
/// reply of the computer at a book position (the candidates read from the book,
/// implied transpositions looked up, the exact table, one MH step).
fn drill_replies(c: &mut Criterion) {
    let random: PathBuf = std::env::temp_dir().join("hastings-bench-polyglot-10m-v2.bin");
    big_book(&random, 10_000_000);
    let path: PathBuf = std::env::temp_dir().join("hastings-bench-polyglot-10m-gnuchess-v2.bin");
    big_book_with_gnuchess(&path, &random);
    let graph = PositionGraph::eco().unwrap();
    let positions = book_positions(1000);
    let style = Style::from_vectors([1, 0, 0, 0, 1], [0.3, 0.4, 0.4, 0.4, 0.2], 1.0).unwrap();
    let mut group = c.benchmark_group("drill from a 10M-entry book");
    // The filter is made on a thread of its own: the time until it is there.
    let open = || {
        let book = PolyglotFile::open(&path).unwrap().into_shared().unwrap();
        while !book.has_filter() {
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        book
    };
    group.bench_function(
        "open the book for a drill (map, length check, key filter)",
        |b| b.iter(|| black_box(open())),
    );
    let book = open();
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    group.bench_function(
        "1,000 replies at book positions (candidates, P, MH step)",
        |b| {
            b.iter(|| {
                let source = MoveSource::new(&graph, vec![book.book()], Popularity::Games);
                for pos in &positions {
                    let d = source.distribution(pos, &style, 0.5, None);
                    black_box(d.step(&mut rng));
                }
            })
        },
    );
    group.finish();
}

fn make_core(c: &mut Criterion) {
    let mut text = Vec::new();
    generate_games(10_000, 1, &mut text);
    let mut group = c.benchmark_group("polyglot make (one thread, in memory)");
    group.sample_size(10);
    group.throughput(Throughput::Elements(10_000));
    group.bench_function(
        "10,000 generated games x 30 plies: read, count, sort, write",
        |b| {
            b.iter(|| {
                let mut counts = MoveCounts::with_capacity(400_000);
                read_games(&text[..], 30, &mut counts).unwrap();
                let mut w = BookWriter::new(Vec::new(), WriterOptions::default());
                for count in counts.take_run() {
                    w.push(count).unwrap();
                }
                black_box(w.finish().unwrap())
            })
        },
    );
    group.bench_function("10,000 generated games x 30 plies: read only", |b| {
        b.iter(|| {
            let mut plies = Vec::with_capacity(300_000);
            black_box(read_games(&text[..], 30, &mut plies).unwrap())
        })
    });
    group.finish();
    // The book made from them reads back.
    let mut counts = MoveCounts::with_capacity(400_000);
    read_games(&text[..], 30, &mut counts).unwrap();
    let mut w = BookWriter::new(Vec::new(), WriterOptions::default());
    for count in counts.take_run() {
        w.push(count).unwrap();
    }
    let (bytes, _) = w.finish().unwrap();
    PolyglotBook::new(&bytes).unwrap().check().unwrap();
}

criterion_group!(benches, lookups, drill_replies, make_core);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--write-pgn") {
        let path = args.get(i + 1).expect("--write-pgn FILE GAMES");
        let n: usize = args
            .get(i + 2)
            .and_then(|n| n.parse().ok())
            .expect("a game count");
        let out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
        generate_games(n, 2026, out);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
