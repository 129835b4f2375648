//! The explorer's storage against `redb` (issue 23): the same records, counted by the
//! library, kept as the explorer's sorted immutable segments and as one redb table.
//!
//!     EXPLORER_STORE_GAMES=20000 cargo bench -p hastings-bench --bench explorer_store
//!
//! A plain `main` that prints a table, not criterion: building and adding are one-shot
//! measurements (seconds each), and the queries are timed one by one to give a p99.
//! `EXPLORER_STORE_GAMES` (default 20,000) generated games (`benches/shared/`, seed 7)
//! are written to a PGN file in the temporary directory, then:
//!
//! - **segments**: `make_explorer` (all cores; parsing, counting, the external sort,
//!   the segment and its game table, fsync, the manifest), then `add_to_explorer` of
//!   10,000 more games (seed 8) as a second segment;
//! - **redb**: one table keyed by the record's full key in big-endian bytes (Polyglot
//!   key, partition, move, cell, year: 14 bytes) with the tally and best game as the
//!   value (30 bytes), and a second table of the game lines (game number to the same
//!   line the segments keep), so that both stores hold the same things. Build: the PGN
//!   read by `read_explorer_games` on one thread, each record of `ExplorerRecord::of_game`
//!   written by a read-modify-write (get, absorb, insert) in one write transaction with
//!   redb's default durability (fsync at commit): what an incremental store does, with
//!   no sort first. Add: the same for the 10,000 more games, in one transaction.
//!
//! Queries: every move of positions along 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6, with no filter
//! and with a filter (1600–2000, blitz and rapid, 2015–2020); redb's is a range scan of
//! the position's key prefix in a new read transaction, each record given to the
//! library's `PositionTally` as the segments' query does. Both answers are asserted
//! equal (moves and top games; after the add, the moves only: each segment keeps a best
//! game per record, so two segments may list two games of one redb record).
//! Files are in the page cache (just written): these are warm queries. Peak memory is
//! the process's `VmHWM`, reset before each phase.

#![allow(clippy::unwrap_used, clippy::expect_used)] // benches may panic

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use hastings::book::explorer::{
    BestGame, Cell, ExplorerFilter, ExplorerGame, ExplorerRecord, Partition, PositionStats,
    PositionTally, Tally, read_explorer_games,
};
use hastings::book::polyglot::{RawMove, key};
use hastings::job::JobProgress;
use hastings::workspace::explorer::{
    BuildOptions, ExplorerIndex, GameEntry, MakeOptions, add_to_explorer, make_explorer,
};
use redb::{Database, ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};
use shakmaty::{Chess, Position};

#[path = "shared/generated_games.rs"]
mod generated_games;
use generated_games::generate_games;

/// Records: the full key, big-endian, to the tally and best game.
const RECORDS: TableDefinition<&[u8; 14], &[u8; 30]> = TableDefinition::new("records");
/// Games: the game number to its line (as the segments' game table).
const GAMES: TableDefinition<u64, &str> = TableDefinition::new("games");
/// Games added after the build.
const ADDED_GAMES: usize = 10_000;

fn record_key(r: &ExplorerRecord) -> [u8; 14] {
    let mut k = [0u8; 14];
    k[..8].copy_from_slice(&r.key.to_be_bytes());
    k[8] = r.partition.0;
    k[9..11].copy_from_slice(&r.raw_move.0.to_be_bytes());
    k[11] = r.cell.0;
    k[12..].copy_from_slice(&r.year.to_be_bytes());
    k
}

fn record_value(tally: &Tally, best: &BestGame) -> [u8; 30] {
    let mut v = [0u8; 30];
    v[..4].copy_from_slice(&tally.white.to_le_bytes());
    v[4..8].copy_from_slice(&tally.draws.to_le_bytes());
    v[8..12].copy_from_slice(&tally.black.to_le_bytes());
    v[12..20].copy_from_slice(&tally.rating_sum.to_le_bytes());
    v[20..22].copy_from_slice(&best.rating.to_le_bytes());
    v[22..].copy_from_slice(&best.game.to_le_bytes());
    v
}

fn decode(k: &[u8; 14], v: &[u8; 30]) -> ExplorerRecord {
    let u16_at = |b: &[u8], i: usize| u16::from_be_bytes([b[i], b[i + 1]]);
    let le32 = |i: usize| u32::from_le_bytes(v[i..i + 4].try_into().unwrap());
    let le64 = |i: usize| u64::from_le_bytes(v[i..i + 8].try_into().unwrap());
    ExplorerRecord {
        key: u64::from_be_bytes(k[..8].try_into().unwrap()),
        partition: Partition(k[8]),
        raw_move: RawMove(u16_at(k, 9)),
        cell: Cell(k[11]),
        year: u16_at(k, 12),
        tally: Tally {
            white: le32(0),
            draws: le32(4),
            black: le32(8),
            rating_sum: le64(12),
        },
        best: BestGame {
            rating: u16::from_le_bytes([v[20], v[21]]),
            game: le64(22),
        },
    }
}

/// Writes each game's records into redb by read-modify-write, numbering games from
/// `next_game`.
struct RedbSink<'t> {
    records: redb::Table<'t, &'static [u8; 14], &'static [u8; 30]>,
    games: redb::Table<'t, u64, &'static str>,
    next_game: u64,
    written: u64,
}

impl hastings::book::explorer::GameSink for RedbSink<'_> {
    fn game(&mut self, game: &ExplorerGame, positions: &[(u64, RawMove)]) {
        let game_ref = self.next_game;
        self.next_game += 1;
        let entry = GameEntry::of_game(game, 0);
        let line = format!(
            "{}\t{}\t{}\t{}",
            entry.to_line(),
            entry.result(),
            entry.year.unwrap_or(0),
            entry.rating.unwrap_or(0)
        );
        self.games.insert(game_ref, line.as_str()).unwrap();
        for mut r in ExplorerRecord::of_game(game, positions, &[Partition::ALL], game_ref) {
            let k = record_key(&r);
            let old = self.records.get(&k).unwrap().map(|v| decode(&k, v.value()));
            if let Some(old) = old {
                r.tally.add(&old.tally);
                if old.best.beats(&r.best) {
                    r.best = old.best;
                }
            }
            self.records
                .insert(&k, &record_value(&r.tally, &r.best))
                .unwrap();
            self.written += 1;
        }
    }
}

/// Counts records without storing them (the parse-and-count share of a build).
#[derive(Default)]
struct CountSink(u64);

impl hastings::book::explorer::GameSink for CountSink {
    fn game(&mut self, game: &ExplorerGame, positions: &[(u64, RawMove)]) {
        self.0 += ExplorerRecord::of_game(game, positions, &[Partition::ALL], 0).count() as u64;
    }
}

/// Reads `pgn` into `db` in one write transaction; gives the records written.
fn redb_write(db: &Database, pgn: &Path, first_game: u64) -> u64 {
    let txn = db.begin_write().unwrap();
    let written = {
        let mut sink = RedbSink {
            records: txn.open_table(RECORDS).unwrap(),
            games: txn.open_table(GAMES).unwrap(),
            next_game: first_game,
            written: 0,
        };
        let file = std::io::BufReader::with_capacity(1 << 20, fs::File::open(pgn).unwrap());
        read_explorer_games(
            file,
            hastings::book::explorer::DEFAULT_EXPLORER_PLIES,
            &mut sink,
        )
        .unwrap();
        sink.written
    };
    txn.commit().unwrap();
    written
}

fn redb_query(db: &Database, pos_key: u64, filter: &ExplorerFilter) -> PositionStats {
    let txn = db.begin_read().unwrap();
    let table = txn.open_table(RECORDS).unwrap();
    let mut lo = [0u8; 14];
    lo[..8].copy_from_slice(&pos_key.to_be_bytes());
    let mut hi = [0xffu8; 14];
    hi[..8].copy_from_slice(&pos_key.to_be_bytes());
    let mut tally = PositionTally::new(*filter);
    for entry in table.range::<&[u8; 14]>(&lo..=&hi).unwrap() {
        let (k, v) = entry.unwrap();
        tally.add(0, &decode(k.value(), v.value()));
    }
    tally.finish()
}

fn dir_bytes(dir: &Path) -> u64 {
    fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

/// Resets the process's peak resident memory (Linux), so that `peak_mb` gives a phase's.
fn reset_peak() {
    let _ = fs::write("/proc/self/clear_refs", "5");
}

fn peak_mb() -> f64 {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / (1 << 20) as f64
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Mean and p99 in µs of `reps` rounds of `query` over `keys`.
fn time_queries(keys: &[u64], reps: usize, mut query: impl FnMut(u64)) -> (f64, f64) {
    let mut times = Vec::with_capacity(keys.len() * reps);
    for _ in 0..reps {
        for &k in keys {
            let t = Instant::now();
            query(k);
            times.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
    (mean, p99)
}

/// The top games as (move, rating, game number over the whole store).
fn top_games(stats: &PositionStats, first_game: &[u64]) -> Vec<(RawMove, u16, u64)> {
    stats
        .top
        .iter()
        .map(|t| {
            (
                t.raw_move,
                t.best.rating,
                first_game[t.source as usize] + t.best.game,
            )
        })
        .collect()
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let games = env_usize("EXPLORER_STORE_GAMES", 20_000);
    let reps = env_usize("EXPLORER_STORE_REPS", 500);
    let base = std::env::temp_dir().join(format!("hastings-explorer-store-{}", std::process::id()));
    let _ = fs::remove_dir_all(&base);
    fs::create_dir_all(&base).unwrap();
    let pgn = base.join("games.pgn");
    let more = base.join("more.pgn");
    for (path, n, seed) in [(&pgn, games, 7), (&more, ADDED_GAMES, 8)] {
        let out = std::io::BufWriter::with_capacity(1 << 20, fs::File::create(path).unwrap());
        generate_games(n, seed, out);
    }
    let loadavg = fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{games} games ({:.1} MB of PGN), {ADDED_GAMES} added; {} cores; load {}",
        mb(fs::metadata(&pgn).unwrap().len()),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        loadavg.trim()
    );

    // Parsing and counting alone, on one thread.
    let t = Instant::now();
    let mut count = CountSink::default();
    let file = std::io::BufReader::with_capacity(1 << 20, fs::File::open(&pgn).unwrap());
    read_explorer_games(
        file,
        hastings::book::explorer::DEFAULT_EXPLORER_PLIES,
        &mut count,
    )
    .unwrap();
    let parse = t.elapsed();
    println!(
        "parse and count (one thread): {:.0} ms, {} records before summing",
        ms(parse),
        count.0
    );

    // Segments.
    let seg_dir = base.join("games.explorer");
    reset_peak();
    let t = Instant::now();
    let report = make_explorer(
        std::slice::from_ref(&pgn),
        &seg_dir,
        &MakeOptions::default(),
        &JobProgress::new(),
    )
    .unwrap();
    let seg_build = t.elapsed();
    let seg_build_peak = peak_mb();
    let seg_size = dir_bytes(&seg_dir);
    let t = Instant::now();
    for _ in 0..100 {
        std::hint::black_box(ExplorerIndex::open(&seg_dir).unwrap());
    }
    let seg_open = t.elapsed() / 100;
    let index = ExplorerIndex::open(&seg_dir).unwrap();

    // redb.
    let db_path = base.join("games.redb");
    reset_peak();
    let t = Instant::now();
    let db = Database::create(&db_path).unwrap();
    let redb_written = redb_write(&db, &pgn, 0);
    let redb_build = t.elapsed();
    let redb_build_peak = peak_mb();
    let redb_size = fs::metadata(&db_path).unwrap().len();
    drop(db);
    let t = Instant::now();
    for _ in 0..100 {
        std::hint::black_box(Database::open(&db_path).unwrap());
    }
    let redb_open = t.elapsed() / 100;
    let db = Database::open(&db_path).unwrap();
    let redb_records = {
        let txn = db.begin_read().unwrap();
        txn.open_table(RECORDS).unwrap().len().unwrap()
    };
    assert_eq!(redb_records, report.records, "the same records");

    // The same answers, then query times.
    let mut positions = vec![Chess::default()];
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"] {
        let mut pos = positions.last().unwrap().clone();
        let mv = san
            .parse::<shakmaty::san::San>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(mv);
        positions.push(pos);
    }
    let keys: Vec<u64> = positions.iter().map(key).collect();
    let filtered = ExplorerFilter::default()
        .with_ratings("1600-2000")
        .unwrap()
        .with_speeds("blitz,rapid")
        .unwrap()
        .with_years("2015-2020")
        .unwrap();
    let filters = [
        ("all games", ExplorerFilter::default()),
        ("filtered", filtered),
    ];
    for (name, filter) in &filters {
        for &k in &keys {
            let a = index.query(k, filter).unwrap();
            let b = redb_query(&db, k, filter);
            assert_eq!(a, b, "{name}: the same answer at {k:016x}");
        }
    }
    let start_games = index
        .query(keys[0], &ExplorerFilter::default())
        .unwrap()
        .total()
        .games();
    println!(
        "both stores give the same PositionStats at {} positions × 2 filters ({start_games} games at the start)",
        keys.len()
    );
    let mut query_rows = Vec::new();
    for (name, filter) in &filters {
        let seg = time_queries(&keys, reps, |k| {
            std::hint::black_box(index.query(k, filter).unwrap());
        });
        let red = time_queries(&keys, reps, |k| {
            std::hint::black_box(redb_query(&db, k, filter));
        });
        let seg_start = time_queries(&keys[..1], reps, |k| {
            std::hint::black_box(index.query(k, filter).unwrap());
        });
        let red_start = time_queries(&keys[..1], reps, |k| {
            std::hint::black_box(redb_query(&db, k, filter));
        });
        query_rows.push((*name, seg, red, seg_start.0, red_start.0));
    }

    // Adding 10,000 games.
    reset_peak();
    let t = Instant::now();
    add_to_explorer(
        &seg_dir,
        std::slice::from_ref(&more),
        &BuildOptions::default(),
        &JobProgress::new(),
    )
    .unwrap();
    let seg_add = t.elapsed();
    let seg_add_peak = peak_mb();
    let seg_size_after = dir_bytes(&seg_dir);
    reset_peak();
    let t = Instant::now();
    let added = redb_write(&db, &more, games as u64);
    let redb_add = t.elapsed();
    let redb_add_peak = peak_mb();
    let redb_size_after = fs::metadata(&db_path).unwrap().len();
    let index = ExplorerIndex::open(&seg_dir).unwrap();
    let first_game: Vec<u64> = index
        .manifest()
        .segments
        .iter()
        .scan(0, |n, s| {
            let first = *n;
            *n += s.games;
            Some(first)
        })
        .collect();
    for (name, filter) in &filters {
        for &k in &keys {
            let a = index.query(k, filter).unwrap();
            let b = redb_query(&db, k, filter);
            assert_eq!(a.moves, b.moves, "{name}: the same moves at {k:016x}");
            if top_games(&a, &first_game) != top_games(&b, &[0]) {
                // Each segment keeps a best game per record, redb one per record of
                // both batches: the segments' top list may hold a second game of one
                // record (as the index does until its segments are merged).
                println!(
                    "{name}: top games differ at {k:016x} (a best game per record per segment)"
                );
            }
        }
    }
    let seg_q_after = time_queries(&keys, reps, |k| {
        std::hint::black_box(index.query(k, &ExplorerFilter::default()).unwrap());
    });
    let red_q_after = time_queries(&keys, reps, |k| {
        std::hint::black_box(redb_query(&db, k, &ExplorerFilter::default()));
    });
    drop(db);
    let mut db = Database::open(&db_path).unwrap();
    let t = Instant::now();
    db.compact().unwrap();
    let redb_compact = t.elapsed();
    drop(db);
    let redb_size_compact = fs::metadata(&db_path).unwrap().len();

    println!();
    println!("| | segments | redb |");
    println!("|---|---|---|");
    println!(
        "| build, {games} games | {:.0} ms ({} threads) | {:.0} ms (1 thread, {redb_written} read-modify-writes) |",
        ms(seg_build),
        report.threads,
        ms(redb_build)
    );
    println!("| peak memory of the build | {seg_build_peak:.0} MB | {redb_build_peak:.0} MB |");
    println!("| records | {} | {redb_records} |", report.records);
    println!(
        "| size | {:.1} MB | {:.1} MB |",
        mb(seg_size),
        mb(redb_size)
    );
    println!(
        "| open | {:.1} µs | {:.1} µs |",
        seg_open.as_secs_f64() * 1e6,
        redb_open.as_secs_f64() * 1e6
    );
    for (name, seg, red, seg_start, red_start) in &query_rows {
        println!(
            "| query, {name}: mean / p99 over {} positions | {:.1} / {:.1} µs | {:.1} / {:.1} µs |",
            keys.len(),
            seg.0,
            seg.1,
            red.0,
            red.1
        );
        println!("| query, {name}: start position, mean | {seg_start:.1} µs | {red_start:.1} µs |");
    }
    println!(
        "| add {ADDED_GAMES} games | {:.0} ms | {:.0} ms ({added} read-modify-writes) |",
        ms(seg_add),
        ms(redb_add)
    );
    println!("| peak memory of the add | {seg_add_peak:.0} MB | {redb_add_peak:.0} MB |");
    println!(
        "| size after the add | {:.1} MB ({} segments) | {:.1} MB ({:.1} MB after a {:.0} ms compaction) |",
        mb(seg_size_after),
        index.manifest().segments.len(),
        mb(redb_size_after),
        mb(redb_size_compact),
        ms(redb_compact)
    );
    println!(
        "| query after the add, all games: mean / p99 | {:.1} / {:.1} µs | {:.1} / {:.1} µs |",
        seg_q_after.0, seg_q_after.1, red_q_after.0, red_q_after.1
    );
    drop(index);
    let _ = fs::remove_dir_all(&base);
}
