//! Writing a segment from PGN files with `book make`'s pipeline: files cut into chunks
//! of whole games read by every core ([`process_chunks`]), each worker counting
//! records in a map of bounded size that leaves as sorted runs spilled to temporary
//! files, the runs merged ([`merge_runs`]) into the segment. Then the segment is
//! synced, renamed to its final name and committed by the manifest; several segments
//! are merged into one the same way, when there are too many.
//!
//! # Memory
//!
//! As `book make`: `memory` bounds the chunks in flight and the workers' maps. The
//! table of games (about 50 bytes a game: names, year, rating, result) is kept in
//! memory until the segment is written.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;

use super::game_table::GameTable;
use super::games::{GameFacts, clean_name};
use super::manifest::{Manifest, SegmentInfo, sync_dir};
use super::segment::Segment;
use super::segment_writer::SegmentWriter;
use super::{ExplorerError, fault_point};
use crate::book::explorer::{
    BestGame, ExplorerGame, ExplorerRecord, GameSink, Players, Tally, read_explorer_games,
};
use crate::book::polyglot::{
    GameIssue, GamesReport, MAX_KEPT_ISSUES, RawMove, RunRecord, merge_runs,
};
use crate::job::JobProgress;
use crate::workspace::chunks::{Chunk, MakePlan, process_chunks};
use crate::workspace::polyglot_make::{MIN_MEMORY_MB, MakeIssue};
use crate::workspace::runs::{RunDir, RunFile, merge_down, read_run, write_run};

/// The memory bound of an explorer build by default, in MB.
pub const DEFAULT_EXPLORER_MEMORY_MB: usize = 256;
/// Spilled runs merged at once.
const MERGE_WIDTH: usize = 128;
/// The read buffer of one spilled run in the merge.
const RUN_BUFFER: usize = 256 << 10;
/// Bytes a map entry takes (key, tally, best game, the table's slack).
const ENTRY_BYTES: usize = 96;

/// How a segment is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildOptions {
    /// The memory bound in MB.
    pub memory_mb: usize,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    /// Records a worker counts before it spills a run; `None` to follow from the
    /// memory (tests set it small to make spills happen).
    pub map_capacity: Option<usize>,
    /// The chunk size; `None` to follow from the memory.
    pub chunk_bytes: Option<usize>,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            memory_mb: DEFAULT_EXPLORER_MEMORY_MB,
            threads: 0,
            map_capacity: None,
            chunk_bytes: None,
        }
    }
}

/// What writing a segment did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// PGN bytes read.
    pub bytes: u64,
    /// Games read (finished or not).
    pub games: u64,
    /// Finished games counted.
    pub counted: u64,
    /// Positions counted (one per game and position).
    pub positions: u64,
    /// The first problems, in file order.
    pub issues: Vec<MakeIssue>,
    /// How many problems there were.
    pub issue_count: u64,
    /// Records written.
    pub records: u64,
    /// The segment's size in bytes.
    pub segment_bytes: u64,
    /// Worker threads used.
    pub threads: usize,
    /// Runs merged, and how many of them were spilled to files.
    pub runs: usize,
    /// Runs spilled to temporary files.
    pub spilled_runs: usize,
}

/// Opens `inputs` and plans their reading: done before anything is written, so that a
/// missing or unreadable input leaves no trace.
pub(super) fn plan(inputs: &[PathBuf], options: &BuildOptions) -> Result<MakePlan, ExplorerError> {
    MakePlan::new(
        inputs,
        options.memory_mb,
        MIN_MEMORY_MB,
        options.threads,
        options.chunk_bytes,
    )
}

/// Reads `inputs` (opened by `plan`) and writes their records as the segment
/// `dir/name` (synced, renamed into place and the directory synced; not yet
/// committed).
pub(super) fn write_segment(
    plan: MakePlan,
    inputs: &[PathBuf],
    dir: &Path,
    name: &str,
    manifest: &Manifest,
    options: &BuildOptions,
    progress: &JobProgress,
) -> Result<(SegmentInfo, BuildReport), ExplorerError> {
    progress.set_total(plan.total);
    let MakePlan {
        paths,
        files,
        total,
        threads,
        chunk_bytes,
        per_worker,
    } = plan;
    let capacity = options
        .map_capacity
        .unwrap_or((per_worker / 2 / ENTRY_BYTES).max(1024));
    let temp = |source| ExplorerError::Io {
        path: dir.to_owned(),
        source,
    };
    let run_dir = RunDir::create(dir, "explorer-make").map_err(temp)?;
    let players = Players::new(&manifest.players);
    let worker = Worker {
        players: &players,
        max_plies: manifest.max_plies,
        run_dir: &run_dir,
        progress,
    };
    let outputs = process_chunks(&paths, files, chunk_bytes, threads, progress, |id, next| {
        worker.run(id, next, capacity)
    })?;

    let mut report = BuildReport {
        bytes: total,
        threads,
        ..BuildReport::default()
    };
    let mut chunks = Vec::new();
    let mut spilled = Vec::new();
    let mut in_memory = Vec::new();
    for o in outputs {
        chunks.extend(o.chunks);
        spilled.extend(o.spilled);
        if !o.last.is_empty() {
            in_memory.push(o.last);
        }
    }
    let (mut games, first_game) = collect_games(&mut report, chunks, inputs, &run_dir)
        .map_err(|(path, source)| ExplorerError::Io { path, source })?;
    if report.counted == 0 {
        return Err(ExplorerError::NoGames {
            inputs: inputs.to_vec(),
        });
    }
    report.spilled_runs = spilled.len();
    let spilled = merge_down::<ExplorerRecord>(spilled, &run_dir, MERGE_WIDTH, RUN_BUFFER)
        .map_err(|(path, source)| ExplorerError::Io { path, source })?;
    report.runs = spilled.len() + in_memory.len();
    let mut runs: Vec<Box<dyn Iterator<Item = io::Result<ExplorerRecord>>>> = Vec::new();
    for run in &spilled {
        runs.push(Box::new(
            read_run::<ExplorerRecord>(run, RUN_BUFFER).map_err(|source| ExplorerError::Io {
                path: run.path.clone(),
                source,
            })?,
        ));
    }
    for run in in_memory {
        runs.push(Box::new(run.into_iter().map(Ok)));
    }
    // A game's reference is (chunk << 32 | its place among the chunk's counted games)
    // until here; in the segment it is its place in the table.
    let renumber = |r: ExplorerRecord| {
        let chunk = (r.best.game >> 32) as usize;
        let first = first_game.get(chunk).copied().unwrap_or(0);
        ExplorerRecord {
            best: BestGame {
                game: first + (r.best.game & 0xffff_ffff),
                ..r.best
            },
            ..r
        }
    };
    // Absolute, so that a top game can be read from wherever the index is opened.
    let sources = inputs
        .iter()
        .map(|p| {
            std::path::absolute(p)
                .unwrap_or_else(|_| p.clone())
                .display()
                .to_string()
        })
        .collect();
    let records = merge_runs(runs).map(|r| r.map(renumber));
    let info = write_records(dir, name, records, &mut games, sources)?;
    report.records = info.records;
    report.segment_bytes = info.bytes;
    Ok((info, report))
}

/// Writes `records` (sorted, equal keys side by side) and `games` as the segment
/// `dir/name`, through a temporary file that is synced and renamed.
pub(super) fn write_records(
    dir: &Path,
    name: &str,
    records: impl Iterator<Item = io::Result<ExplorerRecord>>,
    games: &mut GameTable,
    sources: Vec<String>,
) -> Result<SegmentInfo, ExplorerError> {
    let path = dir.join(name);
    let temp = dir.join(format!("{name}.tmp"));
    let io_err = |path: &Path| {
        let path = path.to_owned();
        move |source| ExplorerError::Io { path, source }
    };
    let written = (|| {
        let mut writer = SegmentWriter::create(&temp, games)?;
        fault_point("segment-write", &temp).map_err(io::Error::other)?;
        let mut pending: Option<ExplorerRecord> = None;
        for r in records {
            let r = r?;
            match &mut pending {
                Some(p) if RunRecord::sort_key(p) == RunRecord::sort_key(&r) => p.absorb(&r),
                _ => {
                    if let Some(p) = pending.replace(r) {
                        writer.push(&p)?;
                    }
                }
            }
        }
        if let Some(p) = pending {
            writer.push(&p)?;
        }
        writer.finish()
    })();
    let (records, bytes) = match written {
        Ok(done) => done,
        Err(source) => {
            let _ = fs::remove_file(&temp);
            return Err(ExplorerError::Io { path, source });
        }
    };
    let renamed = fault_point("segment-written", &temp)
        .and_then(|()| fs::rename(&temp, &path).map_err(io_err(&path)));
    if let Err(e) = renamed {
        let _ = fs::remove_file(&temp);
        return Err(e);
    }
    sync_dir(dir)?;
    fault_point("segment-renamed", &path)?;
    Ok(SegmentInfo {
        file: name.to_owned(),
        games: games.len(),
        records,
        bytes,
        sources,
    })
}

/// Merges `segments` (described by `infos`) into one new segment `dir/name` (not yet
/// committed).
pub(super) fn merge_segments(
    dir: &Path,
    name: &str,
    segments: &[Segment],
    infos: &[SegmentInfo],
) -> Result<SegmentInfo, ExplorerError> {
    let mut games = GameTable::default();
    let mut sources = Vec::new();
    let mut runs = Vec::with_capacity(segments.len());
    for (segment, info) in segments.iter().zip(infos) {
        let first_game = games.len();
        let first_source = sources.len();
        for n in 0..segment.games() {
            let mut entry = segment.game(n)?;
            entry.source += first_source;
            games.push(&entry).map_err(|source| ExplorerError::Io {
                path: dir.to_owned(),
                source,
            })?;
        }
        sources.extend(info.sources.iter().cloned());
        runs.push(segment.iter_records().map(move |r| {
            r.map(|mut r| {
                r.best.game += first_game;
                r
            })
            .map_err(io::Error::other)
        }));
    }
    write_records(dir, name, merge_runs(runs), &mut games, sources)
}

/// Adds the chunks' reports up in reading order (numbering games within each file)
/// and gives the table of counted games (its lines in a file of `run_dir`) and, per
/// chunk, the table index of its first counted game.
fn collect_games(
    report: &mut BuildReport,
    mut chunks: Vec<ChunkOutput>,
    inputs: &[PathBuf],
    run_dir: &RunDir,
) -> Result<(GameTable, Vec<u64>), (PathBuf, io::Error)> {
    chunks.sort_by_key(|c| c.seq);
    let mut games_before = vec![0u64; inputs.len()];
    let table_path = run_dir.file("games");
    let mut table = GameTable::spilled(&table_path).map_err(|e| (table_path.clone(), e))?;
    let mut first_game = vec![0u64; chunks.last().map_or(0, |c| c.seq + 1)];
    let mut line = Vec::new();
    for chunk in chunks {
        let before = games_before.get(chunk.file).copied().unwrap_or(0);
        if let Some(slot) = games_before.get_mut(chunk.file) {
            *slot += chunk.report.games;
        }
        if let Some(slot) = first_game.get_mut(chunk.seq) {
            *slot = table.len();
        }
        report.games += chunk.report.games;
        report.positions += chunk.report.plies;
        report.counted += chunk.games.len() as u64;
        report.issue_count += chunk.report.issue_count;
        let path = inputs.get(chunk.file).cloned().unwrap_or_default();
        let room = MAX_KEPT_ISSUES.saturating_sub(report.issues.len());
        report
            .issues
            .extend(
                chunk
                    .report
                    .issues
                    .into_iter()
                    .take(room)
                    .map(|mut issue: GameIssue| {
                        issue.game += before;
                        MakeIssue {
                            file: path.clone(),
                            issue,
                        }
                    }),
            );
        let names_path = chunk.names;
        let at = |e| (names_path.clone(), e);
        let mut names = io::BufReader::new(fs::File::open(&names_path).map_err(at)?);
        for (facts, number) in chunk.games {
            line.clear();
            io::BufRead::read_until(&mut names, b'\n', &mut line).map_err(at)?;
            if line.pop() != Some(b'\n') {
                return Err(at(io::ErrorKind::UnexpectedEof.into()));
            }
            line.extend_from_slice((before + number).to_string().as_bytes());
            table
                .push_line(facts, &line)
                .map_err(|e| (table_path.clone(), e))?;
        }
        drop(names);
        let _ = fs::remove_file(&names_path);
    }
    Ok((table, first_game))
}

/// What one chunk gave.
#[derive(Debug)]
struct ChunkOutput {
    seq: usize,
    file: usize,
    report: GamesReport,
    /// Each counted game's facts and number in the chunk.
    games: Vec<(GameFacts, u64)>,
    /// The file of their lines but the numbers (`white TAB black TAB source TAB`, one
    /// a line).
    names: PathBuf,
}

/// What one worker gives back.
#[derive(Debug, Default)]
struct WorkerOutput {
    chunks: Vec<ChunkOutput>,
    spilled: Vec<RunFile>,
    last: Vec<ExplorerRecord>,
}

struct Worker<'a> {
    players: &'a Players,
    max_plies: u32,
    run_dir: &'a RunDir,
    progress: &'a JobProgress,
}

impl Worker<'_> {
    fn run(
        &self,
        id: usize,
        next: &mut dyn FnMut() -> Option<Chunk>,
        capacity: usize,
    ) -> Result<WorkerOutput, ExplorerError> {
        let mut sink = Counter {
            map: FxHashMap::default(),
            capacity,
            worker: id,
            run_dir: self.run_dir,
            players: self.players,
            spilled: Vec::new(),
            error: None,
            chunk: 0,
            file: 0,
            games: Vec::new(),
            names: None,
            partitions: Vec::new(),
        };
        let mut chunks = Vec::new();
        while let Some(chunk) = next() {
            sink.chunk = chunk.seq;
            sink.file = chunk.file;
            let names_path = self.run_dir.file(&format!("games-{}", chunk.seq));
            let io_err = |source| ExplorerError::Io {
                path: names_path.clone(),
                source,
            };
            sink.names = Some(io::BufWriter::new(
                fs::File::create(&names_path).map_err(io_err)?,
            ));
            let report = read_explorer_games(&chunk.bytes[..], self.max_plies, &mut sink).map_err(
                |source| ExplorerError::Io {
                    path: PathBuf::from(format!("chunk {}", chunk.seq)),
                    source,
                },
            )?;
            if let Some((path, source)) = sink.error.take() {
                return Err(ExplorerError::Io { path, source });
            }
            if let Some(names) = sink.names.take() {
                names.into_inner().map_err(|e| io_err(e.into_error()))?;
            }
            self.progress.advance(chunk.bytes.len() as u64);
            self.progress.add_items(report.games.games);
            chunks.push(ChunkOutput {
                seq: chunk.seq,
                file: chunk.file,
                report: report.games,
                games: std::mem::take(&mut sink.games),
                names: names_path,
            });
        }
        let last = sink.take_run();
        Ok(WorkerOutput {
            chunks,
            spilled: sink.spilled,
            last,
        })
    }
}

type SortKey = <ExplorerRecord as RunRecord>::SortKey;

/// A worker's counts: a map that spills a sorted run when it is full.
struct Counter<'a> {
    map: FxHashMap<SortKey, (Tally, BestGame)>,
    capacity: usize,
    worker: usize,
    run_dir: &'a RunDir,
    players: &'a Players,
    spilled: Vec<RunFile>,
    error: Option<(PathBuf, io::Error)>,
    chunk: usize,
    file: usize,
    games: Vec<(GameFacts, u64)>,
    /// The chunk's file of names (see [`ChunkOutput::names`]).
    names: Option<io::BufWriter<fs::File>>,
    partitions: Vec<crate::book::explorer::Partition>,
}

impl Counter<'_> {
    fn take_run(&mut self) -> Vec<ExplorerRecord> {
        let mut run: Vec<ExplorerRecord> = self
            .map
            .drain()
            .map(
                |((key, partition, raw_move, cell, year), (tally, best))| ExplorerRecord {
                    key,
                    partition,
                    raw_move,
                    cell,
                    year,
                    tally,
                    best,
                },
            )
            .collect();
        run.sort_unstable_by_key(RunRecord::sort_key);
        run
    }

    fn add(&mut self, r: ExplorerRecord) {
        if self.error.is_some() {
            return;
        }
        let sort_key = RunRecord::sort_key(&r);
        if self.map.len() >= self.capacity && !self.map.contains_key(&sort_key) {
            let run = self.take_run();
            let path = self
                .run_dir
                .file(&format!("run-{}-{}", self.worker, self.spilled.len()));
            match write_run(&path, run.into_iter().map(Ok)) {
                Ok(file) => self.spilled.push(file),
                Err(e) => {
                    self.error = Some((path, e));
                    return;
                }
            }
        }
        let entry = self
            .map
            .entry(sort_key)
            .or_insert((Tally::default(), r.best));
        entry.0.add(&r.tally);
        if r.best.beats(&entry.1) {
            entry.1 = r.best;
        }
    }
}

impl GameSink for Counter<'_> {
    fn game(&mut self, game: &ExplorerGame, positions: &[(u64, RawMove)]) {
        let game_ref = ((self.chunk as u64) << 32) | self.games.len() as u64;
        if let Some(names) = &mut self.names {
            let written = writeln!(
                names,
                "{}\t{}\t{}\t",
                clean_name(&game.white),
                clean_name(&game.black),
                self.file
            );
            if let Err(e) = written {
                self.names = None;
                self.error = Some((self.run_dir.file(&format!("games-{}", self.chunk)), e));
            }
        }
        self.games.push((GameFacts::of_game(game), game.number));
        let mut partitions = std::mem::take(&mut self.partitions);
        self.players.partitions(game, &mut partitions);
        for r in ExplorerRecord::of_game(game, positions, &partitions, game_ref) {
            self.add(r);
        }
        self.partitions = partitions;
    }
}
