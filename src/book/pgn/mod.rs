//! PGN import: repertoires (every root-to-leaf path of a game is a line) and game
//! collections (one line per game, cut at a ply limit).
//!
//! [`read_pgn`] streams any [`Read`] through a pgn-reader visitor: memory grows with
//! the lines it returns, not with the file. Each game is checked on its own; a game
//! with a problem yields an [`ImportIssue`] (game number, byte offset, players, ply,
//! move, reason), keeps the lines read before the problem (marked
//! [`truncated`](OpeningLine::truncated)), and the import goes on with the next game.
//!
//! # Modes
//!
//! - [`ImportMode::Repertoire`]: the mainline and every nested variation, to any
//!   depth, are read into a tree of moves; every root-to-leaf path is one line of
//!   weight 1. A move that a variation repeats is merged with the existing one, so the
//!   lines are distinct. No ply limit unless [`ImportOptions::max_plies`] sets one.
//! - [`ImportMode::Games`]: the mainline only, cut at `max_plies` (default
//!   [`DEFAULT_MAX_PLIES`]), one line of weight 1 per game, so identical openings add
//!   up to popularity. Variations are skipped, and nothing after the ply limit is read.
//! - [`ImportMode::Auto`] (the default): the first game with moves decides for the
//!   whole file: a repertoire when that game has a variation or its `[Result]` tag is
//!   missing or `*` (study and repertoire exports), a game collection otherwise.
//!
//! # Moves
//!
//! Moves are read as python-chess reads them (`Board.parse_san`): standard algebraic
//! notation, and also fully specified moves such as UCI (`g1f3`, `e1g1`, `e7e8q`) and
//! long algebraic notation (`g1-f3`, `Ng1xf3`); a missing or superfluous capture mark
//! is forgiven. Lines store the standard SAN of each move. See [`movelist`](super::movelist).
//!
//! # Names, flags and tags
//!
//! A line's name is `Opening: Variation` from the tags (or either alone). Without
//! those tags it is the name of the deepest position of the line that an ECO line of
//! the `names` graph ends at ([`PositionGraph::name_at`]), and the line also takes that
//! ECO code when it has no `[ECO]` tag. The style flags follow from the name and the
//! first move when the graph is built (docs/sampler.md §1). Every line keeps all tags of its
//! game, in file order, in one copy shared by the game's lines
//! ([`OpeningLine::tags`]).
//!
//! # Layout
//!
//! - `capture`: the bytes of the current game, kept to find what the reader skipped.
//! - `visitor`: the pgn-reader visitor that records one game's tags and events.
//! - `scan`: the tokens pgn-reader skipped without telling the visitor.
//! - `comment`: comments into text, arrows and circles, and comments edited (their text,
//!   arrows and circles changed, other commands kept).
//! - `distinct`: the count of distinct positions, shared by threads reading parts.
//! - `split`: where a file may be cut into parts read apart, and putting their
//!   reports together.
//! - `start`: the start position from the `[Variant]` and `[FEN]` tags.
//! - `tree`: a recorded game played into a tree of moves.
//! - `importer`: the tree's paths into lines, and the counts.
//! - `report`: the import report, its issues and errors.
//!
//! # Example
//!
//! ```
//! use hastings::book::pgn::{read_pgn, ImportOptions};
//! use hastings::book::{PositionGraph, SourceId};
//!
//! let pgn = "[Opening \"Ruy Lopez\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 (3. Bc4 Bc5) a6 *\n";
//! let import = read_pgn(pgn.as_bytes(), SourceId(1), &ImportOptions::default(), None)?;
//! assert_eq!(import.report.games, 1);
//! assert_eq!(import.lines.len(), 2);
//! assert_eq!(import.lines[1].moves.len(), 6);
//! assert_eq!(import.lines[0].tags.as_ref().and_then(|t| t.get("Opening")), Some("Ruy Lopez"));
//! let graph = PositionGraph::build(import.lines).graph;
//! assert_eq!(graph.stats().lines, 2);
//! # Ok::<(), hastings::book::pgn::ImportError>(())
//! ```

use std::cell::RefCell;
use std::fmt;
use std::io::Read;
use std::rc::Rc;

use pgn_reader::Reader;

use super::graph::PositionGraph;
use super::line::{OpeningLine, SourceId};

mod capture;
mod comment;
mod distinct;
mod importer;
mod report;
mod scan;
pub mod split;
mod start;
mod tree;
mod visitor;

#[cfg(test)]
mod tests;

pub use distinct::DistinctPositions;
pub(crate) use report::ply_and_move;
pub use report::{ImportError, ImportIssue, ImportReport, IssueReason, Summary};
pub use start::{StartIssue, start_from_tags};

pub(crate) use comment::{
    merge_note, parse_arrow, parse_circle, parse_comment, with_mark, with_marks, with_text,
};
pub(crate) use importer::line_name;
pub(crate) use scan::is_token_end;

use capture::{Capture, Tee};
use importer::Importer;
use visitor::{Event, GameRecord, Recorder};

/// The ply limit of games mode when none is given.
pub const DEFAULT_MAX_PLIES: u32 = 30;

/// At most this many issues are kept in a report; the rest are only counted.
pub const MAX_KEPT_ISSUES: usize = 10_000;

/// How a PGN file is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ImportMode {
    /// Decide by the first game with moves (see the [module docs](self)).
    #[default]
    Auto,
    /// A game collection: one line per game, cut at the ply limit.
    Games,
    /// A repertoire: every root-to-leaf path of every game is a line.
    Repertoire,
}

impl fmt::Display for ImportMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ImportMode::Auto => "auto",
            ImportMode::Games => "games",
            ImportMode::Repertoire => "repertoire",
        })
    }
}

/// Options of [`read_pgn`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Repertoire, games, or decide from the file.
    pub mode: ImportMode,
    /// Cut every line at this many plies. `None`: [`DEFAULT_MAX_PLIES`] in games mode,
    /// no limit in repertoire mode.
    pub max_plies: Option<u32>,
}

impl ImportOptions {
    fn limit(&self, mode: ImportMode) -> u32 {
        match (self.max_plies, mode) {
            (Some(n), _) => n,
            (None, ImportMode::Games) => DEFAULT_MAX_PLIES,
            (None, _) => u32::MAX,
        }
    }
}

/// The lines of a PGN file and the report.
#[derive(Debug, Clone, Default)]
pub struct PgnImport {
    /// The lines, game by game; within a game, the mainline's path first.
    pub lines: Vec<OpeningLine>,
    /// Counts and issues.
    pub report: ImportReport,
}

/// Reads every game of a PGN file into opening lines of source `source`.
///
/// `names`, usually the ECO graph, names the lines that have no `[Opening]` tag.
///
/// # Errors
///
/// [`ImportError::Io`] when reading fails; [`ImportError::NoGames`] when the input has
/// no game at all (empty, binary, or not PGN). Problems within games are not errors:
/// they are in [`ImportReport::issues`].
pub fn read_pgn(
    reader: impl Read,
    source: SourceId,
    options: &ImportOptions,
    names: Option<&PositionGraph>,
) -> Result<PgnImport, ImportError> {
    let how = How {
        source,
        options,
        names,
        keep_lines: true,
    };
    read(reader, &how, &mut DistinctPositions::new())?.into_import()
}

/// Reads every game of a PGN file as [`read_pgn`] does, and returns only the report:
/// the lines are counted, not kept (nor named), so memory does not grow with the file.
///
/// # Errors
///
/// As [`read_pgn`].
///
/// ```
/// use hastings::book::pgn::{check_pgn, ImportOptions};
///
/// let pgn = "1. e4 e5 2. Nf3 (2. Bc4 Bc5) Nc6 *\n\n1. d4 d5 2. c4 *\n";
/// let report = check_pgn(pgn.as_bytes(), &ImportOptions::default())?;
/// assert_eq!((report.games, report.lines, report.positions), (2, 3, 10));
/// # Ok::<(), hastings::book::pgn::ImportError>(())
/// ```
pub fn check_pgn(reader: impl Read, options: &ImportOptions) -> Result<ImportReport, ImportError> {
    read(reader, &How::check(options), &mut DistinctPositions::new())?
        .into_import()
        .map(|import| import.report)
}

/// What reading one part of a PGN file found ([`check_part`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PartCheck {
    /// The part's report: game numbers and byte offsets of its issues count from the
    /// part's start; `positions` counts the set the part was read into; `mode` is the
    /// one decided, or [`ImportMode::Auto`] while no game has decided it.
    pub report: ImportReport,
    /// The game numbers the part used (the stretches read, junk included).
    pub numbers: u32,
}

/// Reads one part of a PGN file for its report, as [`check_pgn`] reads the whole, with
/// the distinct positions added to `positions` (see [`split`] for where a file may be
/// cut into parts, and the mode a part after the first must be read in).
/// `report.positions` is then the count of `positions` so far.
pub fn check_part(
    bytes: &[u8],
    options: &ImportOptions,
    positions: &mut DistinctPositions,
) -> PartCheck {
    let found = read_bytes(bytes, &How::check(options), positions);
    PartCheck {
        report: found.import.report,
        numbers: found.numbers,
    }
}

/// Reads one part of a PGN file as [`read_pgn`] reads the whole, keeping its lines:
/// their game numbers, like the report's, count from the part's start (see
/// [`split::merge_imports`]). Returns the import and the game numbers the part used.
pub fn read_part(
    bytes: &[u8],
    source: SourceId,
    options: &ImportOptions,
    names: Option<&PositionGraph>,
    positions: &mut DistinctPositions,
) -> (PgnImport, u32) {
    let how = How {
        source,
        options,
        names,
        keep_lines: true,
    };
    let found = read_bytes(bytes, &how, positions);
    (found.import, found.numbers)
}

/// [`read`] on bytes in memory, which cannot fail to read (an error would count as a
/// part without games).
fn read_bytes(bytes: &[u8], how: &How<'_>, positions: &mut DistinctPositions) -> Found {
    read(bytes, how, positions).unwrap_or_else(|_| Found {
        import: PgnImport::default(),
        numbers: 0,
    })
}

/// How to read a file.
struct How<'a> {
    source: SourceId,
    options: &'a ImportOptions,
    names: Option<&'a PositionGraph>,
    keep_lines: bool,
}

impl<'a> How<'a> {
    /// For a report only.
    fn check(options: &'a ImportOptions) -> How<'a> {
        How {
            source: SourceId(0),
            options,
            names: None,
            keep_lines: false,
        }
    }
}

/// What [`read`] found.
struct Found {
    import: PgnImport,
    /// Game numbers used.
    numbers: u32,
}

impl Found {
    /// The import, or [`ImportError::NoGames`] when there was no game.
    fn into_import(self) -> Result<PgnImport, ImportError> {
        let mut import = self.import;
        if import.report.games == 0 {
            return Err(ImportError::NoGames {
                issues: std::mem::take(&mut import.report.issues),
            });
        }
        Ok(import)
    }
}

/// Reads the games of `reader`, keeping the lines or only counting them.
fn read(
    reader: impl Read,
    how: &How<'_>,
    positions: &mut DistinctPositions,
) -> Result<Found, ImportError> {
    let capture = Rc::new(RefCell::new(Capture::default()));
    let mut tee = Tee {
        inner: reader,
        capture: Rc::clone(&capture),
    };
    // Behind a `dyn Read`, as pgn-reader's own examples read: the reader's buffer check
    // (`ensure_bytes`, a million calls on 10 MB) is then small enough to be inlined,
    // where with the reading and the capture inlined into it, it was a call each time
    // (53 M instructions of 700 M on a lichess file, callgrind).
    let mut reader = Reader::new(&mut tee as &mut dyn Read);
    let mut recorder = Recorder::new(*how.options, how.keep_lines);
    let mut importer = Importer::new(
        how.source,
        *how.options,
        how.names,
        how.keep_lines,
        positions,
    );
    let mut number = 0u32;
    loop {
        if !reader.has_more()? {
            break;
        }
        let start = capture.borrow().total - reader.buffer().len() as u64;
        capture.borrow_mut().trim_to(start);
        number = number.saturating_add(1);
        let parse_error = match reader.read_game(&mut recorder) {
            Ok(_) => None,
            Err(e) if capture.borrow().failed => return Err(e.into()),
            Err(_) if recorder.game.in_movetext => Some(IssueReason::UnterminatedComment),
            Err(_) => Some(IssueReason::UnterminatedTag),
        };
        // Let the reader skip what the visitor declined, to learn where the game ends.
        let more = reader.has_more()?;
        let end = capture.borrow().total - reader.buffer().len() as u64;
        let unknown = {
            let cap = capture.borrow();
            let (bytes, complete) = cap.slice(start, end);
            recorder.rescan(bytes, complete)
        };
        let mut game = std::mem::take(&mut recorder.game);
        // Auto-detection waits for a real game: moves before any junk.
        let real = unknown.as_ref().is_none_or(|u| {
            game.events[..u.event.min(game.events.len())]
                .iter()
                .any(|e| matches!(e, Event::San(_)))
        });
        if recorder.mode.is_none() && game.has_moves() && real {
            recorder.mode = Some(decide_mode(&game));
        }
        let mode = recorder.mode.unwrap_or(ImportMode::Repertoire);
        importer.game(number, start, mode, &mut game, unknown, parse_error);
        recorder.recycle(game);
        if !more {
            break;
        }
    }
    Ok(Found {
        import: importer.finish(recorder.mode),
        numbers: number,
    })
}

/// The auto-detection rule: a variation, or no decisive result, means a repertoire.
fn decide_mode(game: &GameRecord) -> ImportMode {
    let has_variation = game.events.iter().any(|e| matches!(e, Event::Begin));
    let open_result = game.tags.get("Result").is_none_or(|r| r.trim() == "*");
    if has_variation || open_result {
        ImportMode::Repertoire
    } else {
        ImportMode::Games
    }
}
