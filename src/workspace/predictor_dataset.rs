//! `hastings predictor dataset`: the move predictor's training set from PGN games, in
//! the format `training/DATASET.md` describes (`.npy` arrays that numpy reads without
//! chess code).
//!
//! Each file is read whole and cut into parts at game starts (the book's cut rule,
//! [`last_cut`](crate::book::pgn::split::last_cut); a file with a cut forced inside a
//! comment or a game's tags, which [`ends_cleanly`] finds, is read as one part); the
//! parts are read on every core. Games are numbered over
//! all files in order; a game goes to the validation split when its number is a
//! multiple of `valid_every`, so the split is by game. Each split is shuffled with the
//! seed. The output depends only on the inputs and the options, not on the threads.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::Serialize;
use sha2::{Digest, Sha256};
use shakmaty::{Chess, Move};
use thiserror::Error;

use super::chunks::read_chunks;
use super::npy::npy_bytes;
use super::store::{StoreError, write_atomic};
use crate::book::pgn::split::ends_cleanly;
use crate::book::polyglot::{GamesReport, PlySink, RawMove, read_games};
use crate::engine::predictor::{MoveCode, PLANES, encode_board, legal_moves};

/// What the dataset is made with.
#[derive(Debug, Clone)]
pub struct DatasetOptions {
    /// Positions before this ply (half-moves played) are left out.
    pub min_ply: u32,
    /// Stop after the game that brings the positions read to this many (file order).
    pub max_positions: Option<usize>,
    /// The shuffle's seed.
    pub seed: u64,
    /// Games whose number is a multiple of this go to validation (0: none do).
    pub valid_every: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
}

impl Default for DatasetOptions {
    fn default() -> Self {
        DatasetOptions {
            min_ply: 8,
            max_positions: None,
            seed: 0,
            valid_every: 50,
            threads: 0,
        }
    }
}

/// Why the dataset could not be made.
#[derive(Debug, Error)]
pub enum DatasetError {
    /// An input file cannot be read.
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An output file cannot be written.
    #[error(transparent)]
    Write(#[from] StoreError),
    /// No game gave a position.
    #[error("no position at or after ply {min_ply} in the games read")]
    Empty {
        /// The option.
        min_ply: u32,
    },
    /// A part reader thread stopped.
    #[error("a reader thread failed")]
    Thread,
    /// The metadata could not be written as JSON.
    #[error("cannot write meta.json: {0}")]
    Json(#[from] serde_json::Error),
}

/// The counts of one split.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SplitCounts {
    /// Positions.
    pub positions: usize,
    /// Legal moves, over all positions.
    pub legal_moves: usize,
    /// Games with at least one position.
    pub games: usize,
}

/// One input file in the metadata.
#[derive(Debug, Clone, Serialize)]
pub struct SourceMeta {
    /// The path as given.
    pub path: String,
    /// SHA-256 of its bytes.
    pub sha256: String,
    /// Games read.
    pub games: u64,
    /// Games with a problem (skipped, or cut at a bad move).
    pub issues: u64,
}

/// `meta.json`, and what the command reports.
#[derive(Debug, Clone, Serialize)]
pub struct DatasetMeta {
    /// Always `hastings-predictor-dataset`.
    pub format: &'static str,
    /// [`crate::engine::predictor::ENCODING`].
    pub encoding: u32,
    /// [`PLANES`].
    pub planes: usize,
    /// The options.
    pub seed: u64,
    /// The options.
    pub min_ply: u32,
    /// The options.
    pub valid_every: u64,
    /// The training split.
    pub train: SplitCounts,
    /// The validation split.
    pub valid: SplitCounts,
    /// The inputs.
    pub sources: Vec<SourceMeta>,
    /// SHA-256 over the data files, `train` then `valid`, in the documented order.
    pub sha256: String,
    /// The command line that made it.
    pub command: String,
}

/// The positions of one part of a file, in reading order.
#[derive(Debug, Default)]
struct Positions {
    boards: Vec<[u64; PLANES]>,
    moves: Vec<u16>,
    plies: Vec<u16>,
    /// The game's 1-based number in the part, then its global index.
    games: Vec<u64>,
    legal: Vec<u16>,
    /// The end of each position's moves in `legal`.
    legal_ends: Vec<usize>,
}

struct Sink<'a> {
    positions: &'a mut Positions,
    min_ply: u32,
}

impl PlySink for Sink<'_> {
    type Ply = ();

    fn ply(&mut self, game: u64, ply: u32, pos: &Chess, mv: Move, _: RawMove) {
        if ply < self.min_ply {
            return;
        }
        let p = &mut *self.positions;
        let turn = shakmaty::Position::turn(pos);
        p.boards.push(encode_board(pos));
        p.moves.push(MoveCode::of(&mv, turn).0);
        p.plies.push(u16::try_from(ply).unwrap_or(u16::MAX));
        p.games.push(game);
        p.legal
            .extend(legal_moves(pos).iter().map(|(code, _)| code.0));
        p.legal_ends.push(p.legal.len());
    }

    fn add(&mut self, (): (), _: u8) {}
}

/// Reads one part.
fn read_part(bytes: &[u8], min_ply: u32) -> (Positions, GamesReport) {
    let mut positions = Positions::default();
    let mut sink = Sink {
        positions: &mut positions,
        min_ply,
    };
    // Reading from memory cannot fail.
    let report = read_games(bytes, u32::MAX, &mut sink).unwrap_or_default();
    (positions, report)
}

/// The parts of `bytes` for `threads` workers, or the whole text when a cut is unsafe.
fn parts(bytes: &[u8], threads: usize) -> Vec<Vec<u8>> {
    let size = (bytes.len() / (threads * 8)).clamp(1 << 20, 16 << 20);
    let mut parts = Vec::new();
    // Reading from memory cannot fail.
    let _ = read_chunks(
        bytes,
        size,
        || None,
        |part| {
            parts.push(part);
            true
        },
    );
    let n = parts.len();
    if parts[..n.saturating_sub(1)]
        .iter()
        .any(|p| !ends_cleanly(p))
    {
        return vec![bytes.to_vec()];
    }
    parts
}

/// Reads one file on `threads` workers: its positions (games numbered from
/// `first_game`) and report.
fn read_file(
    bytes: &[u8],
    first_game: u64,
    options: &DatasetOptions,
    threads: usize,
) -> Result<(Positions, GamesReport), DatasetError> {
    let parts = parts(bytes, threads);
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Positions, GamesReport)> = thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(parts.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(part) = parts.get(i) else {
                            return mine;
                        };
                        let (positions, report) = read_part(part, options.min_ply);
                        mine.push((i, positions, report));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().map_err(|_| DatasetError::Thread))
            .collect::<Result<Vec<_>, _>>()
            .map(|v| v.into_iter().flatten().collect())
    })?;
    done.sort_by_key(|(i, _, _)| *i);
    let mut all = Positions::default();
    let mut report = GamesReport::default();
    for (_, part, part_report) in done {
        let before = first_game + report.games;
        let base = all.legal.len();
        all.boards.extend(part.boards);
        all.moves.extend(part.moves);
        all.plies.extend(part.plies);
        all.games.extend(part.games.iter().map(|g| before + g - 1));
        all.legal.extend(part.legal);
        all.legal_ends
            .extend(part.legal_ends.iter().map(|e| base + e));
        report.absorb(part_report, before - first_game);
    }
    Ok((all, report))
}

/// Makes the dataset of `inputs` in `out` (created if missing) and returns its metadata.
///
/// # Errors
///
/// [`DatasetError`] when an input cannot be read, an output cannot be written, or no
/// position was found.
pub fn make_dataset(
    inputs: &[PathBuf],
    out: &Path,
    options: &DatasetOptions,
    command: &str,
) -> Result<DatasetMeta, DatasetError> {
    let threads = match options.threads {
        0 => thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let mut all = Positions::default();
    let mut sources = Vec::new();
    let mut games = 0u64;
    for path in inputs {
        let bytes = fs::read(path).map_err(|source| DatasetError::Read {
            path: path.clone(),
            source,
        })?;
        let (positions, report) = read_file(&bytes, games, options, threads)?;
        games += report.games;
        sources.push(SourceMeta {
            path: path.display().to_string(),
            sha256: hex(&Sha256::digest(&bytes)),
            games: report.games,
            issues: report.issue_count,
        });
        append(&mut all, positions);
        if options
            .max_positions
            .is_some_and(|max| all.moves.len() >= max)
        {
            break;
        }
    }
    if let Some(max) = options.max_positions {
        truncate_at_game(&mut all, max);
    }
    if all.moves.is_empty() {
        return Err(DatasetError::Empty {
            min_ply: options.min_ply,
        });
    }
    let is_valid = |game: u64| options.valid_every > 0 && game.is_multiple_of(options.valid_every);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(options.seed);
    let mut hasher = Sha256::new();
    let mut counts = Vec::new();
    for (name, valid) in [("train", false), ("valid", true)] {
        let mut order: Vec<usize> = (0..all.moves.len())
            .filter(|&i| is_valid(all.games[i]) == valid)
            .collect();
        order.shuffle(&mut rng);
        counts.push(write_split(&all, &order, &out.join(name), &mut hasher)?);
    }
    let valid = counts.pop().unwrap_or_default();
    let train = counts.pop().unwrap_or_default();
    let meta = DatasetMeta {
        format: "hastings-predictor-dataset",
        encoding: crate::engine::predictor::ENCODING,
        planes: PLANES,
        seed: options.seed,
        min_ply: options.min_ply,
        valid_every: options.valid_every,
        train,
        valid,
        sources,
        sha256: hex(&hasher.finalize()),
        command: command.to_owned(),
    };
    write_atomic(&out.join("meta.json"), &serde_json::to_vec_pretty(&meta)?)?;
    Ok(meta)
}

fn append(all: &mut Positions, more: Positions) {
    let base = all.legal.len();
    all.boards.extend(more.boards);
    all.moves.extend(more.moves);
    all.plies.extend(more.plies);
    all.games.extend(more.games);
    all.legal.extend(more.legal);
    all.legal_ends
        .extend(more.legal_ends.iter().map(|e| base + e));
}

/// Keeps the positions of whole games up to the one that reaches `max` positions.
fn truncate_at_game(all: &mut Positions, max: usize) {
    if all.moves.len() <= max {
        return;
    }
    let keep = match max.checked_sub(1).map(|i| all.games[i]) {
        Some(game) => all.games.iter().take_while(|&&g| g <= game).count(),
        None => 0,
    };
    all.boards.truncate(keep);
    all.moves.truncate(keep);
    all.plies.truncate(keep);
    all.games.truncate(keep);
    all.legal_ends.truncate(keep);
    all.legal
        .truncate(all.legal_ends.last().copied().unwrap_or(0));
}

/// Writes the positions `order` of `all` as one split in `dir`.
fn write_split(
    all: &Positions,
    order: &[usize],
    dir: &Path,
    hasher: &mut Sha256,
) -> Result<SplitCounts, DatasetError> {
    let n = order.len();
    let boards: Vec<u64> = order.iter().flat_map(|&i| all.boards[i]).collect();
    let moves: Vec<u16> = order.iter().map(|&i| all.moves[i]).collect();
    let mut legal = Vec::new();
    let mut offsets = Vec::with_capacity(n + 1);
    offsets.push(0u64);
    for &i in order {
        let start = if i == 0 { 0 } else { all.legal_ends[i - 1] };
        legal.extend_from_slice(&all.legal[start..all.legal_ends[i]]);
        offsets.push(legal.len() as u64);
    }
    let plies: Vec<u16> = order.iter().map(|&i| all.plies[i]).collect();
    let games: Vec<u32> = order
        .iter()
        .map(|&i| u32::try_from(all.games[i]).unwrap_or(u32::MAX))
        .collect();
    let mut distinct: Vec<u32> = games.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let mut write = |name: &str, bytes: Vec<u8>| -> Result<(), DatasetError> {
        hasher.update(&bytes);
        write_atomic(&dir.join(name), &bytes)?;
        Ok(())
    };
    write("boards.npy", npy_bytes(&[n, PLANES], &boards))?;
    write("moves.npy", npy_bytes(&[n], &moves))?;
    write("legal.npy", npy_bytes(&[legal.len()], &legal))?;
    write("legal_offsets.npy", npy_bytes(&[n + 1], &offsets))?;
    write("ply.npy", npy_bytes(&[n], &plies))?;
    write("game.npy", npy_bytes(&[n], &games))?;
    Ok(SplitCounts {
        positions: n,
        legal_moves: legal.len(),
        games: distinct.len(),
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
