//! Explorer indexes on disk: a directory of immutable, memory-mapped segments and a
//! manifest naming the committed ones (`hastings explorer make`, `add`, `query`).
//!
//! - [`make_explorer`] counts PGN files into a new index with `book make`'s pipeline
//!   (bounded memory, every core); [`add_to_explorer`] counts more files into a new
//!   segment and commits it by replacing the manifest, and merges the segments into one
//!   when there are more than [`MAX_SEGMENTS`].
//! - [`ExplorerIndex`] opens an index (the manifest and a map of each segment: no
//!   record is read) and answers queries: a position's key and an
//!   [`ExplorerFilter`] give its moves with their games, results and average rating,
//!   and its top games, from a binary search in each segment. It is `Send + Sync`:
//!   open it once and share it.
//!
//! # Crash safety, one writer, checksums
//!
//! A segment is written to a temporary file, synced, renamed to its final name and the
//! directory synced; only then is the manifest replaced (written to a temporary file,
//! synced, renamed, directory synced). The manifest's rename is the commit, and an
//! `add` commits once, after everything it merges has been read and checked: a crash
//! or an error at any point leaves the old manifest or the new one, each naming only
//! complete segments, and an error means nothing was added. Files no manifest names
//! are ignored by readers and removed by the next `make` or `add` when their exact
//! names are the index's own (`manifest.rs`); `make` writes only into a new or empty
//! folder. One process writes an index at a time (`lock.rs`). Every piece of a
//! segment and the manifest carry a CRC32C, checked when read (`checksum.rs`).
//!
//! For tests, `HASTINGS_EXPLORER_CRASH_AT=<point>` aborts the process at a named point
//! of a write (`segment-write`, `segment-written`, `segment-renamed`,
//! `merged-segment`, `manifest-write`, `manifest-renamed`), as a kill -9 would, and
//! `HASTINGS_EXPLORER_FAIL_AT=<point>` makes the write fail there as a full disk
//! would (every point but `manifest-renamed`, which follows the commit).

mod bits;
mod block;
mod checksum;
mod counts;
mod game_table;
mod games;
mod lock;
mod make;
mod manifest;
mod regulars;
mod segment;
mod segment_writer;
pub mod spar_fits;
mod write;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use shakmaty::{Chess, Color};
use thiserror::Error;

pub use counts::FilteredExplorer;
pub use games::GameEntry;
use games::clean_name;
pub use lock::LOCK_FILE;
pub use make::{BuildOptions, BuildReport, DEFAULT_EXPLORER_MEMORY_MB};
pub use manifest::{MANIFEST, Manifest, SegmentInfo};
pub use regulars::{DEFAULT_PLAYERS_MIN, regular_players};
pub use segment::{Segment, SegmentError};
pub use write::{add_to_explorer, make_explorer};

use crate::book::explorer::{
    ExplorerFilter, Players, PositionStats, PositionTally, ShownGame, TopCandidate, read_shown_game,
};
use crate::book::polyglot::{RawMove, key};

/// An `add` that leaves more segments than this merges them into one.
pub const MAX_SEGMENTS: usize = 8;

/// Why an index cannot be made, added to or read.
#[derive(Debug, Error)]
pub enum ExplorerError {
    /// No PGN file was given.
    #[error("no PGN file given")]
    NoInput,
    /// The memory bound is too small.
    #[error(
        "--memory-mb {mb} MB is too little: at least {} MB",
        crate::workspace::polyglot_make::MIN_MEMORY_MB
    )]
    TooLittleMemory {
        /// The bound asked for.
        mb: usize,
    },
    /// A PGN file cannot be read.
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A file of the index (or a temporary one) cannot be written or read.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The files hold no finished game: nothing was written.
    #[error("no finished game (1-0, 0-1, 1/2-1/2) in {}: nothing was written", .inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "))]
    NoGames {
        /// The files read.
        inputs: Vec<PathBuf>,
    },
    /// `make` was asked to write over an index.
    #[error("{} is already an explorer index: use `hastings explorer add` to add games", .path.display())]
    Exists {
        /// The index directory.
        path: PathBuf,
    },
    /// `make` was asked to write into a folder that holds other files.
    #[error(
        "{} is not empty and is not an explorer index (it holds {}): `hastings explorer make` \
         writes only into a new or empty folder",
        .path.display(),
        list_some(.files)
    )]
    NotEmpty {
        /// The folder.
        path: PathBuf,
        /// What it holds.
        files: Vec<String>,
    },
    /// Another process is writing the index.
    #[error(
        "another process{} is writing the explorer index {}: try again when it has finished",
        .holder.map(|pid| format!(" (pid {pid})")).unwrap_or_default(),
        .path.display()
    )]
    Busy {
        /// The index directory.
        path: PathBuf,
        /// The process holding its lock, when it said.
        holder: Option<u32>,
    },
    /// The directory holds no manifest.
    #[error("{} is not an explorer index (no {MANIFEST})", .path.display())]
    NotAnIndex {
        /// The directory.
        path: PathBuf,
    },
    /// The manifest cannot be read.
    #[error("the manifest {} cannot be read: {reason}", .path.display())]
    BadManifest {
        /// The manifest.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A segment cannot be read.
    #[error(transparent)]
    Segment(#[from] SegmentError),
    /// A player asked for has no tree in the index.
    #[error("the index keeps no games of the player `{name}` (it keeps: {})", if .known.is_empty() { "none; make it with --player".to_owned() } else { .known.join(", ") })]
    UnknownPlayer {
        /// The name asked for.
        name: String,
        /// The players it keeps.
        known: Vec<String>,
    },
    /// A top game is not where the index says (its file changed or moved).
    #[error("game {number} of {} is not the one the index counted: {reason}", .path.display())]
    GameMoved {
        /// The PGN file.
        path: PathBuf,
        /// The game's number in it.
        number: u64,
        /// What was found instead.
        reason: String,
    },
    /// Cancel was asked for.
    #[error("the explorer build was cancelled")]
    Cancelled,
    /// A worker thread ended without a result (a bug).
    #[error("an explorer build thread stopped unexpectedly")]
    Died,
}

impl crate::workspace::chunks::MakeFailure for ExplorerError {
    fn no_input() -> Self {
        ExplorerError::NoInput
    }
    fn too_little_memory(mb: usize) -> Self {
        ExplorerError::TooLittleMemory { mb }
    }
    fn read(path: PathBuf, source: io::Error) -> Self {
        ExplorerError::Read { path, source }
    }
    fn cancelled() -> Self {
        ExplorerError::Cancelled
    }
    fn died() -> Self {
        ExplorerError::Died
    }
}

/// At most three names of `files`, and how many more.
fn list_some(files: &[String]) -> String {
    let mut shown = files.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
    if files.len() > 3 {
        shown.push_str(&format!(" and {} more", files.len() - 3));
    }
    shown
}

/// Aborts the process at the named point of a write when `HASTINGS_EXPLORER_CRASH_AT`
/// names it (the crash tests' hook; see the module docs).
fn crash_point(point: &str) {
    if std::env::var_os("HASTINGS_EXPLORER_CRASH_AT").is_some_and(|v| v == point) {
        std::process::abort();
    }
}

/// [`crash_point`], and a failure writing `path` when `HASTINGS_EXPLORER_FAIL_AT` names
/// the point (the failure tests' hook).
fn fault_point(point: &str, path: &Path) -> Result<(), ExplorerError> {
    crash_point(point);
    if std::env::var_os("HASTINGS_EXPLORER_FAIL_AT").is_some_and(|v| v == point) {
        return Err(ExplorerError::Io {
            path: path.to_owned(),
            source: io::Error::other(format!(
                "a failure made at `{point}` (HASTINGS_EXPLORER_FAIL_AT)"
            )),
        });
    }
    Ok(())
}

/// How an index is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MakeOptions {
    /// Plies counted from the start of each game.
    pub max_plies: u32,
    /// Players whose games are also kept as their own trees.
    pub players: Vec<String>,
    /// Also keep a tree for every player with at least this many games (most games
    /// first, up to the index's room for players); `None`: only `players`.
    pub players_min: Option<u32>,
    /// Memory, threads.
    pub build: BuildOptions,
}

impl Default for MakeOptions {
    fn default() -> MakeOptions {
        MakeOptions {
            max_plies: crate::book::explorer::DEFAULT_EXPLORER_PLIES,
            players: Vec::new(),
            players_min: None,
            build: BuildOptions::default(),
        }
    }
}

fn open_segments(dir: &Path, manifest: &Manifest) -> Result<Vec<Segment>, ExplorerError> {
    let mut segments = Vec::with_capacity(manifest.segments.len());
    for info in &manifest.segments {
        let segment = Segment::open(&dir.join(&info.file))?;
        if segment.bytes() != info.bytes || segment.games() != info.games {
            return Err(SegmentError::Corrupt {
                path: segment.path().to_owned(),
                reason: format!(
                    "the manifest says {} bytes and {} games, the file has {} bytes and {} games",
                    info.bytes,
                    info.games,
                    segment.bytes(),
                    segment.games()
                ),
            }
            .into());
        }
        segments.push(segment);
    }
    Ok(segments)
}

/// A top game with its details.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopGame {
    /// The move it played at the position.
    pub raw_move: RawMove,
    /// Players, result, year, rating, where it is.
    pub game: GameEntry,
    /// Its PGN file (the absolute path of what was given to `make` or `add`).
    pub file: String,
}

impl TopGame {
    /// Reads the game from its PGN file, checking that its players are the table's.
    ///
    /// # Errors
    ///
    /// [`ExplorerError::Read`] when the file cannot be read, [`ExplorerError::GameMoved`]
    /// when it no longer has this game at this number.
    pub fn read(&self) -> Result<ShownGame, ExplorerError> {
        let path = PathBuf::from(&self.file);
        let number = self.game.number;
        let read_err = |source| ExplorerError::Read {
            path: path.clone(),
            source,
        };
        let file = fs::File::open(&path).map_err(read_err)?;
        let moved = |reason: String| ExplorerError::GameMoved {
            path: path.clone(),
            number,
            reason,
        };
        let Some(game) = read_shown_game(io::BufReader::new(file), number).map_err(read_err)?
        else {
            return Err(moved("the file has fewer games".to_owned()));
        };
        let (white, black) = (
            game.tag("White").unwrap_or(""),
            game.tag("Black").unwrap_or(""),
        );
        if clean_name(white) != self.game.white || clean_name(black) != self.game.black {
            return Err(moved(format!(
                "it is {white} - {black}, not {} - {}",
                self.game.white, self.game.black
            )));
        }
        Ok(game)
    }
}

/// An opened explorer index (read-only; `Send + Sync`, open it once and share it).
///
/// ```
/// use hastings::book::explorer::ExplorerFilter;
/// use hastings::job::JobProgress;
/// use hastings::workspace::explorer::{ExplorerIndex, MakeOptions, make_explorer};
/// use shakmaty::Chess;
///
/// let dir = std::env::temp_dir().join(format!("explorer-doc-{}", std::process::id()));
/// let pgn = dir.with_extension("pgn");
/// std::fs::write(&pgn, "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n")?;
/// make_explorer(&[pgn.clone()], &dir, &MakeOptions::default(), &JobProgress::new())?;
/// let index = ExplorerIndex::open(&dir)?;
/// let stats = index.query_position(&Chess::default(), &ExplorerFilter::default())?;
/// assert_eq!(stats.total().games(), 2);
/// # std::fs::remove_dir_all(&dir)?;
/// # std::fs::remove_file(&pgn)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ExplorerIndex {
    dir: PathBuf,
    manifest: Manifest,
    players: Players,
    segments: Vec<Segment>,
}

impl ExplorerIndex {
    /// Opens the index at `dir`: reads its manifest and maps its committed segments
    /// (files it does not name are ignored).
    ///
    /// # Errors
    ///
    /// [`ExplorerError::NotAnIndex`] without a manifest, [`ExplorerError::BadManifest`]
    /// or [`ExplorerError::Segment`] when the manifest or a segment is damaged or
    /// missing.
    pub fn open(dir: &Path) -> Result<ExplorerIndex, ExplorerError> {
        let manifest = Manifest::load(dir)?;
        let segments = open_segments(dir, &manifest)?;
        Ok(ExplorerIndex {
            dir: dir.to_owned(),
            players: Players::new(&manifest.players),
            manifest,
            segments,
        })
    }

    /// Checks every checksum of every segment (reading the whole index), as an `add`
    /// does before it merges segments.
    ///
    /// # Errors
    ///
    /// [`ExplorerError::Segment`] naming the first damaged segment and what is damaged.
    pub fn verify(&self) -> Result<(), ExplorerError> {
        for segment in &self.segments {
            segment.verify()?;
        }
        Ok(())
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The manifest: segments, ply limit, players.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.manifest.games()
    }

    /// The players whose trees the index keeps.
    pub fn players(&self) -> &[String] {
        self.players.names()
    }

    /// `filter` limited to the games of player `name` (any case) with `color`.
    ///
    /// # Errors
    ///
    /// [`ExplorerError::UnknownPlayer`] when the index keeps no tree for `name`.
    pub fn player_filter(
        &self,
        filter: ExplorerFilter,
        name: &str,
        color: Color,
    ) -> Result<ExplorerFilter, ExplorerError> {
        self.players
            .find(name)
            .and_then(|i| filter.with_player(i, color))
            .ok_or_else(|| ExplorerError::UnknownPlayer {
                name: name.to_owned(),
                known: self.players.names().to_vec(),
            })
    }

    /// The moves at the position of Polyglot key `key` under `filter`.
    ///
    /// # Errors
    ///
    /// [`ExplorerError::Segment`] when a segment is damaged where the position is.
    pub fn query(&self, key: u64, filter: &ExplorerFilter) -> Result<PositionStats, ExplorerError> {
        let mut tally = PositionTally::new(*filter);
        for (i, segment) in self.segments.iter().enumerate() {
            segment.query(key, i as u32, &mut tally)?;
        }
        Ok(tally.finish())
    }

    /// The moves at `pos` under `filter`.
    ///
    /// # Errors
    ///
    /// As [`ExplorerIndex::query`].
    pub fn query_position(
        &self,
        pos: &Chess,
        filter: &ExplorerFilter,
    ) -> Result<PositionStats, ExplorerError> {
        self.query(key(pos), filter)
    }

    /// The details of a top game of [`PositionStats::top`].
    ///
    /// # Errors
    ///
    /// [`ExplorerError::Segment`] when its segment's game table is damaged.
    pub fn top_game(&self, top: &TopCandidate) -> Result<TopGame, ExplorerError> {
        let source = top.source as usize;
        let (Some(segment), Some(info)) = (
            self.segments.get(source),
            self.manifest.segments.get(source),
        ) else {
            return Err(ExplorerError::BadManifest {
                path: self.dir.join(MANIFEST),
                reason: format!("no segment {source}"),
            });
        };
        let game = segment.game(top.best.game)?;
        Ok(TopGame {
            raw_move: top.raw_move,
            file: info.sources.get(game.source).cloned().unwrap_or_default(),
            game,
        })
    }
}
