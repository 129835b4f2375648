//! PGN import: repertoires (every root-to-leaf path of a game is a line) and game
//! collections (one line per game, cut at a ply limit).
//!
//! [`read_pgn`] streams any [`Read`] through a pgn-reader [`Visitor`]: memory grows with
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
//! # Names and flags
//!
//! A line's name is `Opening: Variation` from the tags (or either alone). Without
//! those tags it is the name of the deepest position of the line that an ECO line of
//! the `names` graph ends at ([`PositionGraph::name_at`]), and the line also takes that
//! ECO code when it has no `[ECO]` tag. The style flags follow from the name and the
//! first move when the graph is built (SAMPLER.md §1).
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
//! let graph = PositionGraph::build(import.lines).graph;
//! assert_eq!(graph.stats().lines, 2);
//! # Ok::<(), hastings::book::pgn::ImportError>(())
//! ```

use std::cell::RefCell;
use std::fmt;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::rc::Rc;

use pgn_reader::{Nag, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use rustc_hash::FxHashSet;
use shakmaty::fen::{Epd, Fen};
use shakmaty::san::{San, SanError};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Square};
use thiserror::Error;

use super::graph::{LineId, PositionGraph};
use super::line::{LineSource, MoveAnnotation, OpeningLine, SourceId};
use super::matrix::NodeKey;

mod scan;

/// The ply limit of games mode when none is given.
pub const DEFAULT_MAX_PLIES: u32 = 30;

/// At most this many issues are kept in a report; the rest are only counted.
pub const MAX_KEPT_ISSUES: usize = 10_000;

/// How much of one game's text is kept to look for tokens the reader skipped. A longer
/// game is checked only in its first part.
const CAPTURE_LIMIT: usize = 8 << 20;

/// A comment longer than this is cut (binary junk after a `{`).
const MAX_COMMENT_BYTES: usize = 1 << 20;

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

/// Why a game (or the rest of it) was not imported.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IssueReason {
    /// No legal move matches the SAN.
    #[error("illegal move")]
    IllegalMove,
    /// Several legal moves match the SAN.
    #[error("ambiguous move")]
    AmbiguousMove,
    /// A null move (`--`, `Z0`), which has no place in an opening book.
    #[error("null move")]
    NullMove,
    /// A movetext token that is neither a move, a move number, a comment, a NAG, a
    /// parenthesis nor a result (e.g. `e2-e4`, `Nf3x`, binary junk).
    #[error("unknown token")]
    UnknownToken,
    /// The movetext ends without a result (`*`, `1-0`, `0-1`, `1/2-1/2`), possibly in
    /// the middle of a move.
    #[error("the game text ends without a result: the game is truncated")]
    Truncated,
    /// A variation is not closed with `)` at the end of the game.
    #[error("a variation is not closed with `)`: the game is truncated")]
    UnclosedVariation,
    /// A `{` comment is never closed; the rest of the file was read as the comment.
    #[error("a comment is not closed with `}}`: the rest of the file was read as a comment")]
    UnterminatedComment,
    /// A tag line that is not closed before the end of the reader's buffer or file.
    #[error("a tag is not closed")]
    UnterminatedTag,
    /// The `[FEN]` tag is not a legal standard-chess position.
    #[error("bad FEN start position `{fen}`: {reason}; game skipped")]
    BadFen {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A `[Variant]` other than standard chess.
    #[error("variant `{0}` is not supported; game skipped")]
    Variant(String),
    /// A `[FEN]` whose castling rights only make sense in Chess960.
    #[error("Chess960 castling rights in the FEN `{0}`; Chess960 is not supported; game skipped")]
    Chess960(String),
    /// Text between games with neither a tag nor a move (junk).
    #[error("neither tags nor moves: not a game")]
    NotAGame,
}

/// A problem with one game of a PGN file. The game's lines before the problem are kept.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("game {game} (byte {offset}{summary}): {}{reason}", self.at())]
pub struct ImportIssue {
    /// The 1-based number of the game in the file. Every stretch of text the PGN
    /// reader takes for a game counts, so junk between two games takes a number.
    pub game: u32,
    /// The byte offset of the game's first tag or move in the file.
    pub offset: u64,
    /// `White – Black`, else the event, else empty.
    pub summary: Summary,
    /// The 1-based ply of the move (in its line) where the problem is; 0 when it is
    /// not about a move.
    pub ply: u32,
    /// The move or token as written; empty when there is none.
    pub san: String,
    /// What is wrong.
    pub reason: IssueReason,
}

impl ImportIssue {
    fn at(&self) -> String {
        match (self.ply, self.san.is_empty()) {
            (0, true) => String::new(),
            (0, false) => format!("`{}`: ", self.san),
            (ply, true) => format!("ply {ply}: "),
            (ply, false) => format!("ply {ply} `{}`: ", self.san),
        }
    }
}

/// Who played a game, for messages: `White – Black`, else the event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary(pub String);

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            Ok(())
        } else {
            write!(f, ", {}", self.0)
        }
    }
}

/// The import as a whole failed.
#[derive(Debug, Error)]
pub enum ImportError {
    /// Reading the input failed (not a PGN problem: a disk or network error).
    #[error("cannot read the PGN: {0}")]
    Io(#[from] io::Error),
    /// A book cannot have more than 65,535 PGN sources.
    #[error("too many PGN sources (at most 65,535)")]
    TooManySources,
    /// Nothing in the input looks like a game (an empty or binary file).
    #[error("no games found{}", first_issue(.issues))]
    NoGames {
        /// What the reader found instead.
        issues: Vec<ImportIssue>,
    },
}

fn first_issue(issues: &[ImportIssue]) -> String {
    issues
        .first()
        .map(|i| format!(" (first problem: {i})"))
        .unwrap_or_default()
}

/// What an import read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ImportReport {
    /// Games read: stretches of the file with a tag, or whose movetext starts with a
    /// move (junk between games is not counted, but reported).
    pub games: usize,
    /// Games that gave at least one line.
    pub imported: usize,
    /// Lines added.
    pub lines: usize,
    /// Distinct positions (node keys) the lines reach, start positions included.
    pub positions: usize,
    /// The mode used (the one decided when the options said [`ImportMode::Auto`]).
    pub mode: ImportMode,
    /// The first [`MAX_KEPT_ISSUES`] problems, in file order.
    pub issues: Vec<ImportIssue>,
    /// How many problems there were in all.
    pub issue_count: usize,
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
    let capture = Rc::new(RefCell::new(Capture::default()));
    let tee = Tee {
        inner: reader,
        capture: Rc::clone(&capture),
    };
    let mut reader = Reader::new(tee);
    let mut recorder = Recorder::new(*options);
    let mut importer = Importer {
        source,
        options: *options,
        names,
        out: PgnImport::default(),
        keys: FxHashSet::default(),
    };
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
            Err(e) if capture.borrow().failed => return Err(ImportError::Io(e)),
            Err(_) if recorder.game.in_movetext => Some(IssueReason::UnterminatedComment),
            Err(_) => Some(IssueReason::UnterminatedTag),
        };
        // Let the reader skip what the visitor declined, to learn where the game ends.
        let more = reader.has_more()?;
        let end = capture.borrow().total - reader.buffer().len() as u64;
        let unknown = {
            let cap = capture.borrow();
            let (bytes, complete) = cap.slice(start, end);
            recorder.unknown_token(bytes, complete)
        };
        let game = std::mem::take(&mut recorder.game);
        // Auto-detection waits for a real game: moves before any junk.
        let real = unknown.as_ref().is_none_or(|u| {
            game.events[..u.event.min(game.events.len())]
                .iter()
                .any(|e| matches!(e, Event::San(_)))
        });
        if recorder.mode.is_none() && game.has_moves() && real {
            let mode = decide_mode(&game);
            recorder.mode = Some(mode);
            importer.out.report.mode = mode;
        }
        let mode = recorder.mode.unwrap_or(ImportMode::Repertoire);
        importer.game(number, start, mode, &game, unknown, parse_error);
        if !more {
            break;
        }
    }
    let mut out = importer.finish(recorder.mode);
    if out.report.games == 0 {
        return Err(ImportError::NoGames {
            issues: std::mem::take(&mut out.report.issues),
        });
    }
    Ok(out)
}

/// The auto-detection rule: a variation, or no decisive result, means a repertoire.
fn decide_mode(game: &GameRecord) -> ImportMode {
    let has_variation = game.events.iter().any(|e| matches!(e, Event::Begin));
    let open_result = game.tags.result.as_deref().is_none_or(|r| r.trim() == "*");
    if has_variation || open_result {
        ImportMode::Repertoire
    } else {
        ImportMode::Games
    }
}

// ---------------------------------------------------------------------------------------
// Capturing the bytes of the current game.

/// Keeps the bytes from the start of the current game, so that tokens the reader
/// skipped can be found. When a game grows beyond [`CAPTURE_LIMIT`], its middle is
/// dropped and only the most recent bytes are kept, which hold the start of the next
/// game (the reader reads ahead by at most its buffer).
#[derive(Debug, Default)]
struct Capture {
    buf: Vec<u8>,
    /// The index in `buf` of the current game's first byte.
    head: usize,
    /// The file offset of `buf[head]`.
    base: u64,
    /// Bytes read from the input so far.
    total: u64,
    /// File offsets `[from, to)` that were dropped.
    gap: Option<(u64, u64)>,
    /// Whether the input failed.
    failed: bool,
}

/// What is kept behind the reading position when a long game's middle is dropped;
/// more than pgn-reader's read-ahead (16 KiB).
const CAPTURE_KEEP: usize = 256 << 10;

impl Capture {
    fn push(&mut self, data: &[u8]) {
        self.total += data.len() as u64;
        self.buf.extend_from_slice(data);
        let live = self.buf.len() - self.head;
        if live > CAPTURE_LIMIT + 2 * CAPTURE_KEEP {
            // Drop from CAPTURE_LIMIT to CAPTURE_KEEP before the end.
            let from = self.head + CAPTURE_LIMIT;
            let to = self.buf.len() - CAPTURE_KEEP;
            let dropped = (to - from) as u64;
            let abs_from = match self.gap {
                Some((f, _)) => f,
                None => self.base + CAPTURE_LIMIT as u64,
            };
            let abs_to = match self.gap {
                Some((_, t)) => t + dropped,
                None => abs_from + dropped,
            };
            self.buf.drain(from..to);
            self.gap = Some((abs_from, abs_to));
        }
    }

    /// The index in `buf` of file offset `at`, if kept.
    fn index(&self, at: u64) -> Option<usize> {
        let rel = at.checked_sub(self.base)?;
        match self.gap {
            Some((from, to)) if at >= to => {
                let rel = rel - (to - from);
                Some(self.head + usize::try_from(rel).ok()?)
            }
            Some((from, _)) if at >= from => None,
            _ => Some(self.head + usize::try_from(rel).ok()?),
        }
    }

    /// Forgets everything before file offset `at` (the start of the next game).
    fn trim_to(&mut self, at: u64) {
        let Some(i) = self.index(at).filter(|&i| i <= self.buf.len()) else {
            // Cannot happen: the next game starts after any dropped part.
            self.buf.clear();
            self.head = 0;
            self.base = self.total;
            self.gap = None;
            return;
        };
        self.head = i;
        self.base = at;
        self.gap = None;
        if self.head > (64 << 10) && self.head * 2 > self.buf.len() {
            self.buf.drain(..self.head);
            self.head = 0;
        }
    }

    /// The kept bytes of `[start, end)`, and whether they are all of it.
    fn slice(&self, start: u64, end: u64) -> (&[u8], bool) {
        let from = self
            .index(start)
            .unwrap_or(self.buf.len())
            .min(self.buf.len());
        match (self.gap, self.index(end)) {
            (None, Some(to)) => (&self.buf[from..to.clamp(from, self.buf.len())], true),
            (Some((gap_from, _)), _) => {
                let to = self
                    .index(gap_from.saturating_sub(1))
                    .map_or(from, |i| i + 1);
                (&self.buf[from..to.clamp(from, self.buf.len())], false)
            }
            (None, None) => (&self.buf[from..], false),
        }
    }
}

/// Passes the input to the reader and keeps a copy in the [`Capture`].
struct Tee<R> {
    inner: R,
    capture: Rc<RefCell<Capture>>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.capture.borrow_mut().push(&buf[..n]);
                Ok(n)
            }
            Err(e) => {
                if e.kind() != io::ErrorKind::Interrupted {
                    self.capture.borrow_mut().failed = true;
                }
                Err(e)
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Recording a game.

/// One visitor call, in order.
#[derive(Debug, Clone, PartialEq)]
enum Event {
    San(San),
    Nag(u8),
    /// A comment; `None` when it held nothing to keep (e.g. only `[%clk …]`).
    Comment(Option<Box<MoveAnnotation>>),
    Begin,
    End,
    Outcome,
}

#[derive(Debug, Default)]
struct Tags {
    count: u32,
    event: Option<String>,
    white: Option<String>,
    black: Option<String>,
    eco: Option<String>,
    opening: Option<String>,
    variation: Option<String>,
    result: Option<String>,
    fen: Option<String>,
    variant: Option<String>,
}

impl Tags {
    fn summary(&self) -> Summary {
        let known = |t: &Option<String>| {
            t.as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty() && *s != "?")
                .map(str::to_owned)
        };
        match (known(&self.white), known(&self.black), known(&self.event)) {
            (Some(w), Some(b), _) => Summary(format!("{w} – {b}")),
            (_, _, Some(e)) => Summary(e),
            (Some(w), None, None) => Summary(w),
            (None, Some(b), None) => Summary(b),
            (None, None, None) => Summary::default(),
        }
    }

    /// `Opening: Variation`, or either alone.
    fn name(&self) -> Option<String> {
        let clean = |t: &Option<String>| {
            t.as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty() && *s != "?")
                .map(str::to_owned)
        };
        match (clean(&self.opening), clean(&self.variation)) {
            (Some(o), Some(v)) => Some(format!("{o}: {v}")),
            (Some(o), None) => Some(o),
            (None, Some(v)) => Some(v),
            (None, None) => None,
        }
    }
}

/// The start of a game: the position and its FEN, `None` for the standard position.
type Start = Result<Option<(Chess, String)>, IssueReason>;

fn game_start(tags: &Tags) -> Start {
    if let Some(variant) = &tags.variant {
        let v = variant.trim().to_ascii_lowercase();
        if !matches!(
            v.as_str(),
            "" | "standard" | "chess" | "normal" | "from position"
        ) {
            return Err(IssueReason::Variant(variant.trim().to_owned()));
        }
    }
    let Some(text) = &tags.fen else {
        return Ok(None);
    };
    let text = text.trim();
    let bad = |reason: String| IssueReason::BadFen {
        fen: text.to_owned(),
        reason,
    };
    let fen = Fen::from_ascii(text.as_bytes()).map_err(|e| bad(e.to_string()))?;
    match fen.clone().into_position::<Chess>(CastlingMode::Standard) {
        Ok(pos) => {
            let standard = Epd::from_position(&Chess::default(), EnPassantMode::Legal);
            if Epd::from_position(&pos, EnPassantMode::Legal) == standard {
                Ok(None)
            } else {
                let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
                Ok(Some((pos, fen)))
            }
        }
        Err(e) => {
            if fen.into_position::<Chess>(CastlingMode::Chess960).is_ok() {
                Err(IssueReason::Chess960(text.to_owned()))
            } else {
                Err(bad(e.to_string()))
            }
        }
    }
}

#[derive(Debug, Default)]
struct GameRecord {
    tags: Tags,
    start: Option<Start>,
    events: Vec<Event>,
    in_movetext: bool,
    /// The visitor stopped the reader at the ply limit.
    stopped: bool,
    /// Variations were left to the reader to skip.
    skipped_variations: bool,
    sans: u32,
    partial: Vec<u8>,
}

impl GameRecord {
    fn has_moves(&self) -> bool {
        self.sans > 0
    }
}

/// The pgn-reader visitor: records tags and movetext events of one game at a time.
/// Its state lives in `self`, so that a game survives a reader error.
struct Recorder {
    options: ImportOptions,
    /// The decided mode; `None` while auto-detection waits for the first game.
    mode: Option<ImportMode>,
    game: GameRecord,
}

impl Recorder {
    fn new(options: ImportOptions) -> Recorder {
        Recorder {
            options,
            mode: match options.mode {
                ImportMode::Auto => None,
                mode => Some(mode),
            },
            game: GameRecord::default(),
        }
    }

    fn games_mode(&self) -> bool {
        self.mode == Some(ImportMode::Games)
    }

    fn unknown_token(&self, bytes: &[u8], complete: bool) -> Option<scan::Unknown> {
        if matches!(self.game.start, Some(Err(_))) || !self.game.in_movetext {
            return None;
        }
        scan::first_unknown(&scan::Walk {
            bytes,
            complete,
            events: &self.game.events,
            stopped: self.game.stopped,
            skip_variations: self.game.skipped_variations,
        })
    }

    fn take_comment(&mut self, last: &[u8]) -> Option<Box<MoveAnnotation>> {
        if self.game.partial.is_empty() {
            return parse_comment(last);
        }
        let room = MAX_COMMENT_BYTES.saturating_sub(self.game.partial.len());
        self.game
            .partial
            .extend_from_slice(&last[..last.len().min(room)]);
        let note = parse_comment(&self.game.partial);
        self.game.partial.clear();
        note
    }
}

impl Visitor for Recorder {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        self.game = GameRecord::default();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        // Junk that happens to look like `[… "…"]` is not a tag.
        if name.is_empty() || !name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_') {
            return ControlFlow::Continue(());
        }
        let t = &mut self.game.tags;
        t.count += 1;
        let slot = match name {
            b"Event" => &mut t.event,
            b"White" => &mut t.white,
            b"Black" => &mut t.black,
            b"ECO" => &mut t.eco,
            b"Opening" => &mut t.opening,
            b"Variation" => &mut t.variation,
            b"Result" => &mut t.result,
            b"FEN" => &mut t.fen,
            b"Variant" => &mut t.variant,
            _ => return ControlFlow::Continue(()),
        };
        *slot = Some(value.decode_utf8_lossy().into_owned());
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        self.game.in_movetext = true;
        let start = game_start(&self.game.tags);
        let skip = start.is_err();
        self.game.start = Some(start);
        if skip {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn san(&mut self, _: &mut (), san_plus: SanPlus) -> ControlFlow<()> {
        if self.games_mode() && self.game.sans >= self.options.limit(ImportMode::Games) {
            self.game.stopped = true;
            return ControlFlow::Break(());
        }
        self.game.sans += 1;
        self.game.events.push(Event::San(san_plus.san));
        ControlFlow::Continue(())
    }

    fn nag(&mut self, _: &mut (), nag: Nag) -> ControlFlow<()> {
        self.game.events.push(Event::Nag(nag.0));
        ControlFlow::Continue(())
    }

    fn partial_comment(&mut self, _: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        let room = MAX_COMMENT_BYTES.saturating_sub(self.game.partial.len());
        let bytes = comment.as_bytes();
        self.game
            .partial
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        let note = self.take_comment(comment.as_bytes());
        self.game.events.push(Event::Comment(note));
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<(), Skip> {
        self.game.events.push(Event::Begin);
        let skip = self.games_mode();
        self.game.skipped_variations |= skip;
        ControlFlow::Continue(Skip(skip))
    }

    fn end_variation(&mut self, _: &mut ()) -> ControlFlow<()> {
        self.game.events.push(Event::End);
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _: &mut (), _: Outcome) -> ControlFlow<()> {
        self.game.events.push(Event::Outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) {}
}

/// Reads a comment: the text without `[%…]` commands (whitespace collapsed), and the
/// arrows of `[%cal …]` and circles of `[%csl …]`. `None` when nothing is left.
fn parse_comment(bytes: &[u8]) -> Option<Box<MoveAnnotation>> {
    let text = String::from_utf8_lossy(bytes);
    let mut note = MoveAnnotation::default();
    let mut words = String::new();
    let mut rest: &str = &text;
    loop {
        let (before, command) = match rest.find("[%") {
            Some(i) => (&rest[..i], Some(&rest[i + 2..])),
            None => (rest, None),
        };
        for word in before.split_whitespace() {
            if !words.is_empty() {
                words.push(' ');
            }
            words.push_str(word);
        }
        let Some(command) = command else { break };
        let (body, after) = match command.find(']') {
            Some(j) => (&command[..j], &command[j + 1..]),
            None => (command, ""),
        };
        let mut parts = body.splitn(2, char::is_whitespace);
        let name = parts.next().unwrap_or_default();
        let args = parts.next().unwrap_or_default();
        match name {
            "cal" => note.arrows.extend(args.split(',').filter_map(parse_arrow)),
            "csl" => note
                .circles
                .extend(args.split(',').filter_map(parse_circle)),
            _ => {}
        }
        rest = after;
    }
    if words.is_empty() && note.arrows.is_empty() && note.circles.is_empty() {
        return None;
    }
    if !words.is_empty() {
        note.comment = Some(words);
    }
    Some(Box::new(note))
}

fn parse_arrow(s: &str) -> Option<(char, Square, Square)> {
    let s = s.trim();
    let mut chars = s.chars();
    let colour = chars.next()?;
    let squares = chars.as_str();
    if !colour.is_ascii_alphabetic() || squares.len() != 4 || !squares.is_ascii() {
        return None;
    }
    let from = Square::from_ascii(&squares.as_bytes()[..2]).ok()?;
    let to = Square::from_ascii(&squares.as_bytes()[2..]).ok()?;
    Some((colour, from, to))
}

fn parse_circle(s: &str) -> Option<(char, Square)> {
    let s = s.trim();
    let mut chars = s.chars();
    let colour = chars.next()?;
    let square = chars.as_str();
    if !colour.is_ascii_alphabetic() || square.len() != 2 {
        return None;
    }
    Some((colour, Square::from_ascii(square.as_bytes()).ok()?))
}

// ---------------------------------------------------------------------------------------
// Turning a recorded game into lines.

const NONE: u32 = u32::MAX;

struct TreeNode {
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    /// The move into this node (`None` for the root).
    mv: Option<(San, Move)>,
    pos: Chess,
    /// The node key of `pos`, kept up to date move by move (cheaper than from scratch).
    key: NodeKey,
    depth: u32,
    note: Option<Box<MoveAnnotation>>,
}

struct Frame {
    /// The last node of the line this frame reads.
    node: u32,
    /// Plies read in this frame's line, counting those past the ply limit.
    depth: u32,
    /// No move yet in this frame: comments wait for the first move.
    fresh: bool,
    pending: Option<Box<MoveAnnotation>>,
}

/// Where reading a game stopped before its end, and why.
struct Stop {
    ply: u32,
    san: String,
    reason: IssueReason,
}

/// How playing a game's events ended.
struct Played {
    /// The illegal move that stopped it, if one did.
    stop: Option<Stop>,
    /// Lines (mainline and variations) still open at the end.
    open: usize,
    /// Whether a result (`*`, `1-0`, …) was read.
    outcome: bool,
    /// The ply reached in the innermost open line.
    depth: u32,
}

struct Tree {
    nodes: Vec<TreeNode>,
    limit: u32,
    games_mode: bool,
}

impl Tree {
    fn new(start: Chess, limit: u32, games_mode: bool) -> Tree {
        Tree {
            nodes: vec![TreeNode {
                parent: NONE,
                first_child: NONE,
                next_sibling: NONE,
                mv: None,
                key: NodeKey::from_position(&start),
                pos: start,
                depth: 0,
                note: None,
            }],
            limit,
            games_mode,
        }
    }

    /// The child of `parent` by `mv`, made if new.
    fn child(&mut self, parent: u32, san: San, mv: Move) -> u32 {
        let p = parent as usize;
        let mut last = NONE;
        let mut c = self.nodes[p].first_child;
        while c != NONE {
            if matches!(self.nodes[c as usize].mv, Some((_, m)) if m == mv) {
                return c;
            }
            last = c;
            c = self.nodes[c as usize].next_sibling;
        }
        let mut pos = self.nodes[p].pos.clone();
        pos.play_unchecked(mv);
        let id = u32::try_from(self.nodes.len()).unwrap_or(NONE);
        self.nodes.push(TreeNode {
            parent,
            first_child: NONE,
            next_sibling: NONE,
            mv: Some((san, mv)),
            key: self.nodes[p].key.after_move(mv),
            pos,
            depth: self.nodes[p].depth + 1,
            note: None,
        });
        if last == NONE {
            self.nodes[p].first_child = id;
        } else {
            self.nodes[last as usize].next_sibling = id;
        }
        id
    }

    fn annotate(&mut self, node: u32, note: MoveAnnotation) {
        let slot = &mut self.nodes[node as usize].note;
        match slot {
            None => *slot = Some(Box::new(note)),
            Some(old) => merge_note(old, note),
        }
    }

    /// Plays the recorded events into the tree.
    fn play(&mut self, events: &[Event]) -> Played {
        let mut frames = vec![Frame {
            node: 0,
            depth: 0,
            fresh: true,
            pending: None,
        }];
        let mut skipping = 0usize;
        let mut outcome = false;
        for event in events {
            if skipping > 0 {
                match event {
                    Event::Begin => skipping += 1,
                    Event::End => skipping -= 1,
                    _ => {}
                }
                continue;
            }
            let Some(frame) = frames.last_mut() else {
                break;
            };
            match event {
                Event::San(san) => {
                    if frame.depth >= self.limit {
                        frame.depth += 1;
                        frame.fresh = false;
                        continue;
                    }
                    let pos = &self.nodes[frame.node as usize].pos;
                    let ply = frame.depth + 1;
                    let mv = match san.to_move(pos) {
                        Ok(mv) => mv,
                        Err(e) => {
                            let reason = match (san, e) {
                                (San::Null, _) => IssueReason::NullMove,
                                (_, SanError::AmbiguousSan) => IssueReason::AmbiguousMove,
                                (_, SanError::IllegalSan) => IssueReason::IllegalMove,
                            };
                            let stop = Stop {
                                ply,
                                san: san.to_string(),
                                reason,
                            };
                            return Played {
                                stop: Some(stop),
                                open: frames.len(),
                                outcome,
                                depth: ply - 1,
                            };
                        }
                    };
                    let pending = frame.pending.take();
                    let (parent, depth) = (frame.node, frame.depth);
                    let child = self.child(parent, *san, mv);
                    if let Some(frame) = frames.last_mut() {
                        frame.node = child;
                        frame.depth = depth + 1;
                        frame.fresh = false;
                    }
                    if let Some(note) = pending {
                        self.annotate(child, *note);
                    }
                }
                Event::Nag(nag) => {
                    let note = MoveAnnotation {
                        nags: vec![*nag],
                        ..MoveAnnotation::default()
                    };
                    self.attach(frame, note);
                }
                Event::Comment(Some(note)) => {
                    let note = (**note).clone();
                    self.attach(frame, note);
                }
                Event::Comment(None) => {}
                Event::Begin if self.games_mode => skipping = 1,
                Event::Begin => {
                    // A variation replaces the last move of the line it is in.
                    let (node, depth) = if frame.fresh || frame.depth == 0 {
                        (frame.node, frame.depth)
                    } else if frame.depth > self.nodes[frame.node as usize].depth {
                        (frame.node, frame.depth - 1)
                    } else {
                        (self.nodes[frame.node as usize].parent, frame.depth - 1)
                    };
                    frames.push(Frame {
                        node,
                        depth,
                        fresh: true,
                        pending: None,
                    });
                }
                Event::End => {
                    if frames.len() > 1
                        && let Some(done) = frames.pop()
                        && let Some(note) = done.pending
                        && done.node != 0
                    {
                        self.annotate(done.node, *note);
                    }
                }
                Event::Outcome => outcome = true,
            }
        }
        Played {
            stop: None,
            open: frames.len(),
            outcome,
            depth: frames.last().map_or(0, |f| f.depth),
        }
    }

    /// A comment or NAG goes to the frame's last move, or waits for its first one.
    fn attach(&mut self, frame: &mut Frame, note: MoveAnnotation) {
        let node_depth = self.nodes[frame.node as usize].depth;
        if frame.fresh {
            match &mut frame.pending {
                None => frame.pending = Some(Box::new(note)),
                Some(old) => merge_note(old, note),
            }
        } else if frame.depth == node_depth && frame.node != 0 {
            self.annotate(frame.node, note);
        }
        // Past the ply limit: the move is not kept, nor what is said about it.
    }

    /// The leaves, mainline first (depth-first in move order).
    fn leaves(&self) -> Vec<u32> {
        let mut out = Vec::new();
        let mut stack = vec![0u32];
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            if node.first_child == NONE {
                if n != 0 {
                    out.push(n);
                }
                continue;
            }
            let mut children = Vec::new();
            let mut c = node.first_child;
            while c != NONE {
                children.push(c);
                c = self.nodes[c as usize].next_sibling;
            }
            stack.extend(children.into_iter().rev());
        }
        out
    }

    fn path(&self, leaf: u32) -> Vec<u32> {
        let mut path = Vec::new();
        let mut n = leaf;
        while n != 0 && n != NONE {
            path.push(n);
            n = self.nodes[n as usize].parent;
        }
        path.reverse();
        path
    }
}

fn merge_note(old: &mut MoveAnnotation, new: MoveAnnotation) {
    match (&mut old.comment, new.comment) {
        (Some(a), Some(b)) => {
            a.push(' ');
            a.push_str(&b);
        }
        (slot @ None, b) => *slot = b,
        (Some(_), None) => {}
    }
    old.nags.extend(new.nags);
    old.arrows.extend(new.arrows);
    old.circles.extend(new.circles);
}

struct Importer<'a> {
    source: SourceId,
    options: ImportOptions,
    names: Option<&'a PositionGraph>,
    out: PgnImport,
    keys: FxHashSet<NodeKey>,
}

impl Importer<'_> {
    fn issue(&mut self, issue: ImportIssue) {
        let report = &mut self.out.report;
        report.issue_count += 1;
        if report.issues.len() < MAX_KEPT_ISSUES {
            report.issues.push(issue);
        }
    }

    fn game(
        &mut self,
        number: u32,
        offset: u64,
        mode: ImportMode,
        game: &GameRecord,
        unknown: Option<scan::Unknown>,
        parse_error: Option<IssueReason>,
    ) {
        let tags = &game.tags;
        let issue = |ply: u32, san: String, reason: IssueReason| ImportIssue {
            game: number,
            offset,
            summary: tags.summary(),
            ply,
            san,
            reason,
        };
        let start = match &game.start {
            Some(Ok(start)) => start.clone(),
            Some(Err(reason)) => {
                self.out.report.games += 1;
                let reason = reason.clone();
                self.issue(issue(0, String::new(), reason));
                return;
            }
            // The reader failed inside the tags.
            None => {
                if tags.count > 0 {
                    self.out.report.games += 1;
                }
                let reason = parse_error.unwrap_or(IssueReason::UnterminatedTag);
                self.issue(issue(0, String::new(), reason));
                return;
            }
        };
        let (start_pos, start_fen) = match start {
            Some((pos, fen)) => (pos, Some(fen)),
            None => (Chess::default(), None),
        };
        let games_mode = mode == ImportMode::Games;
        let mut tree = Tree::new(start_pos, self.options.limit(mode), games_mode);
        let cut = unknown.as_ref().map_or(game.events.len(), |u| u.event);
        let played = tree.play(&game.events[..cut]);
        let (outcome, ply) = (played.outcome, played.depth + 1);
        let problem = if let Some(stop) = played.stop {
            Some(issue(stop.ply, stop.san, stop.reason))
        } else if let Some(u) = unknown {
            let reason = if u.last && !outcome && parse_error.is_none() {
                IssueReason::Truncated
            } else {
                IssueReason::UnknownToken
            };
            Some(issue(ply, u.token, reason))
        } else if let Some(reason) = parse_error {
            Some(issue(ply, String::new(), reason))
        } else if game.stopped || tree.nodes.len() == 1 {
            // Stopped at the ply limit: the rest of the game is not needed.
            None
        } else if played.open > 1 && !games_mode {
            Some(issue(ply, String::new(), IssueReason::UnclosedVariation))
        } else if !outcome {
            Some(issue(ply, String::new(), IssueReason::Truncated))
        } else {
            None
        };
        let truncated = problem.is_some();
        // A game has tags, or starts with moves (junk starts with an unknown token).
        let move_problem = problem.as_ref().is_some_and(|p| {
            matches!(
                p.reason,
                IssueReason::IllegalMove | IssueReason::AmbiguousMove | IssueReason::NullMove
            )
        });
        if tags.count > 0 || tree.nodes.len() > 1 || move_problem {
            self.out.report.games += 1;
        }
        if tree.nodes.len() == 1 {
            // A game without moves (a forfeit) has nothing to import; junk is reported.
            match problem {
                Some(problem) => self.issue(problem),
                None if tags.count == 0 => {
                    self.issue(issue(0, String::new(), IssueReason::NotAGame));
                }
                None => {}
            }
            return;
        }
        if let Some(problem) = problem {
            self.issue(problem);
        }
        self.emit(number, &tree, tags, start_fen, truncated);
    }

    fn emit(
        &mut self,
        number: u32,
        tree: &Tree,
        tags: &Tags,
        start: Option<String>,
        truncated: bool,
    ) {
        for node in &tree.nodes {
            self.keys.insert(node.key);
        }
        let tag_name = tags.name();
        let named = match (&tag_name, self.names) {
            (None, Some(names)) => eco_names(tree, names),
            _ => Vec::new(),
        };
        let eco_tag = tags
            .eco
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "?")
            .map(str::to_owned);
        let leaves = if tree.games_mode {
            // Games mode: the mainline only (the tree has no other branch).
            tree.leaves().into_iter().take(1).collect()
        } else {
            tree.leaves()
        };
        for leaf in leaves {
            let path = tree.path(leaf);
            let mut moves = Vec::with_capacity(path.len());
            let mut annotations = Vec::new();
            for (ply, &n) in path.iter().enumerate() {
                let node = &tree.nodes[n as usize];
                if let Some((san, _)) = node.mv {
                    moves.push(san);
                }
                if let Some(note) = &node.note {
                    annotations.push(MoveAnnotation {
                        ply: u32::try_from(ply).unwrap_or(u32::MAX),
                        ..(**note).clone()
                    });
                }
            }
            let eco_line = named
                .get(leaf as usize)
                .copied()
                .flatten()
                .and_then(|id| self.names.map(|g| g.line(id)));
            let name = match (&tag_name, eco_line) {
                (Some(name), _) => name.clone(),
                (None, Some(line)) => line.name.clone(),
                (None, None) => String::new(),
            };
            let eco = eco_tag.clone().or_else(|| {
                eco_line
                    .filter(|_| tag_name.is_none())
                    .and_then(|l| l.eco.clone())
            });
            self.out.lines.push(OpeningLine {
                source: LineSource::Pgn {
                    source: self.source,
                    game: number,
                },
                eco,
                name,
                start: start.clone(),
                moves,
                weight: 1.0,
                annotations,
                truncated,
            });
            self.out.report.lines += 1;
        }
        self.out.report.imported += 1;
    }

    fn finish(mut self, mode: Option<ImportMode>) -> PgnImport {
        self.out.report.positions = self.keys.len();
        self.out.report.mode = mode.unwrap_or(self.options.mode);
        self.out
    }
}

/// For each tree node, the ECO line that names it: the deepest named position on the
/// way from the root.
fn eco_names(tree: &Tree, names: &PositionGraph) -> Vec<Option<LineId>> {
    let mut out: Vec<Option<LineId>> = Vec::with_capacity(tree.nodes.len());
    for node in &tree.nodes {
        let own = names.node(&node.key).and_then(|n| names.name(n));
        let inherited = match node.parent {
            NONE => None,
            p => out.get(p as usize).copied().flatten(),
        };
        out.push(own.or(inherited));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn import(text: &str, mode: ImportMode) -> PgnImport {
        let options = ImportOptions {
            mode,
            max_plies: None,
        };
        read_pgn(text.as_bytes(), SourceId(1), &options, None).unwrap()
    }

    fn sans(line: &OpeningLine) -> String {
        line.moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn comment_commands_become_arrows_and_circles() {
        let note = parse_comment(b" Good move [%cal Gc1f4,Re2e4] [%csl Rd5] [%clk 0:01:00]  here ")
            .unwrap();
        assert_eq!(note.comment.as_deref(), Some("Good move here"));
        assert_eq!(
            note.arrows,
            vec![('G', Square::C1, Square::F4), ('R', Square::E2, Square::E4)]
        );
        assert_eq!(note.circles, vec![('R', Square::D5)]);
        assert_eq!(parse_comment(b" [%clk 0:03:00] "), None);
    }

    #[test]
    fn a_variation_replaces_the_last_move() {
        let out = import("1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *", ImportMode::Repertoire);
        let lines: Vec<String> = out.lines.iter().map(sans).collect();
        assert_eq!(lines, ["e4 e5 Nf3", "e4 c5 Nf3"]);
    }

    #[test]
    fn a_variation_at_the_start_is_an_alternative_first_move() {
        let out = import("( 1. d4 ) 1. e4 *", ImportMode::Repertoire);
        let lines: Vec<String> = out.lines.iter().map(sans).collect();
        assert_eq!(lines, ["d4", "e4"]);
    }

    #[test]
    fn repeated_moves_in_variations_are_merged() {
        let out = import("1. e4 (1. e4 e6) e5 *", ImportMode::Repertoire);
        let lines: Vec<String> = out.lines.iter().map(sans).collect();
        assert_eq!(lines, ["e4 e6", "e4 e5"]);
    }

    #[test]
    fn a_pre_move_comment_goes_to_the_next_move() {
        let out = import("{Intro} 1. e4 ( {Or} 1. d4 ) *", ImportMode::Repertoire);
        let d4 = &out.lines[1];
        assert_eq!(d4.annotations[0].comment.as_deref(), Some("Or"));
        assert_eq!(
            out.lines[0].annotations[0].comment.as_deref(),
            Some("Intro")
        );
    }

    #[test]
    fn ply_limit_cuts_variations_too() {
        let options = ImportOptions {
            mode: ImportMode::Repertoire,
            max_plies: Some(2),
        };
        let out = read_pgn(
            "1. e4 e5 2. Nf3 (2. Nc3 Nf6) Nc6 *".as_bytes(),
            SourceId(1),
            &options,
            None,
        )
        .unwrap();
        let lines: Vec<String> = out.lines.iter().map(sans).collect();
        assert_eq!(lines, ["e4 e5"]);
        assert!(out.report.issues.is_empty());
    }

    #[test]
    fn long_algebraic_is_an_unknown_token() {
        let out = import(
            "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. g1-f3 Nc6 *",
            ImportMode::Games,
        );
        assert_eq!(out.lines.len(), 1);
        assert_eq!(sans(&out.lines[0]), "e4 e5");
        assert!(out.lines[0].truncated);
        let issue = &out.report.issues[0];
        assert_eq!((issue.ply, issue.san.as_str()), (3, "g1-f3"));
        assert_eq!(issue.reason, IssueReason::UnknownToken);
        assert_eq!(
            issue.to_string(),
            "game 1 (byte 0, A – B): ply 3 `g1-f3`: unknown token"
        );
    }

    fn issues(out: &PgnImport) -> Vec<(u32, u32, String, IssueReason)> {
        out.report
            .issues
            .iter()
            .map(|i| (i.game, i.ply, i.san.clone(), i.reason.clone()))
            .collect()
    }

    #[test]
    fn an_unclosed_variation_is_reported_and_its_lines_kept() {
        let out = import("1. e4 e5 (1... c5 2. Nf3", ImportMode::Repertoire);
        let expected = (1, 4, String::new(), IssueReason::UnclosedVariation);
        assert_eq!(issues(&out), [expected]);
        let lines: Vec<String> = out.lines.iter().map(sans).collect();
        assert_eq!(lines, ["e4 e5", "e4 c5 Nf3"]);
        assert!(out.lines.iter().all(|l| l.truncated));
    }

    #[test]
    fn a_missing_result_marks_the_game_truncated() {
        let out = import("1. e4 e5\n", ImportMode::Games);
        assert_eq!(
            issues(&out),
            [(1, 3, String::new(), IssueReason::Truncated)]
        );
        assert_eq!(sans(&out.lines[0]), "e4 e5");
    }

    #[test]
    fn an_unterminated_comment_keeps_the_moves_before_it() {
        let text = "1. e4 e5 { oops 2. Nf3 *\n\n[Event \"next\"]\n\n1. d4 *\n";
        let out = import(text, ImportMode::Games);
        let expected = (1, 3, String::new(), IssueReason::UnterminatedComment);
        assert_eq!(issues(&out), [expected]);
        assert_eq!(out.lines.len(), 1);
        assert_eq!(sans(&out.lines[0]), "e4 e5");
        assert!(out.lines[0].truncated);
    }

    #[test]
    fn null_and_ambiguous_moves_are_reported() {
        let out = import(
            "1. e4 -- *\n\n1. d4 d5 2. Nf3 Nf6 3. Nd2 *\n",
            ImportMode::Games,
        );
        assert_eq!(
            issues(&out),
            [
                (1, 2, "--".to_owned(), IssueReason::NullMove),
                (2, 5, "Nd2".to_owned(), IssueReason::AmbiguousMove),
            ]
        );
        let lines: Vec<String> = out.lines.iter().map(sans).collect();
        assert_eq!(lines, ["e4", "d4 d5 Nf3 Nf6"]);
    }

    #[test]
    fn games_mode_reads_the_mainline_and_skips_variations() {
        let text = "[Result \"1-0\"]\n\n1. e4 (1. d4 d5) e5 (1... c5 xx) 2. Nf3 1-0\n";
        let out = import(text, ImportMode::Games);
        assert_eq!(issues(&out), []);
        let lines: Vec<String> = out.lines.iter().map(sans).collect();
        assert_eq!(lines, ["e4 e5 Nf3"]);
    }

    #[test]
    fn a_long_comment_is_kept_whole() {
        let long = "word ".repeat(400);
        let text = format!("1. e4 {{{long}[%cal Ge2e4]}} e5 *");
        let out = import(&text, ImportMode::Repertoire);
        assert_eq!(issues(&out), []);
        let note = &out.lines[0].annotations[0];
        assert_eq!(note.comment.as_deref(), Some(long.trim_end()));
        assert_eq!(note.arrows, vec![('G', Square::E2, Square::E4)]);
    }

    #[test]
    fn tokens_in_junk_tags_do_not_make_a_game() {
        let out = read_pgn(
            &b"[\x01\x02 \"x\"]\n\n"[..],
            SourceId(1),
            &ImportOptions::default(),
            None,
        );
        assert!(matches!(out, Err(ImportError::NoGames { .. })));
    }

    #[test]
    fn capture_keeps_the_next_game_after_a_dropped_middle() {
        let mut c = Capture::default();
        let chunk = vec![b'x'; 1 << 16];
        let total = CAPTURE_LIMIT + 4 * CAPTURE_KEEP;
        while (c.total as usize) < total {
            c.push(&chunk);
        }
        let (bytes, complete) = c.slice(0, c.total - 100);
        assert!(!complete);
        assert_eq!(bytes.len(), CAPTURE_LIMIT);
        c.trim_to(c.total - 100);
        let (bytes, complete) = c.slice(c.total - 100, c.total);
        assert!(complete);
        assert_eq!(bytes.len(), 100);
    }
}
