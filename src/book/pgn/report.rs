//! What an import reports: counts, and one [`ImportIssue`] per problem in a game (the
//! game goes on being read where it can); [`ImportError`] when the import as a whole
//! fails.

use std::fmt;
use std::io;

use thiserror::Error;

use super::ImportMode;
use super::start::StartIssue;
use crate::book::tags::GameTags;

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
    /// The start position from the `[Variant]` and `[FEN]` tags cannot be played; the
    /// game is skipped.
    #[error(transparent)]
    Start(#[from] StartIssue),
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
        let at = ply_and_move(self.ply, &self.san);
        if at.is_empty() { at } else { format!("{at}: ") }
    }
}

/// Where in a game a problem is, for messages: the ply and the move as written
/// (ply 3 and Nf3: "ply 3 `Nf3`"), either alone when the other is unknown (`ply` 0,
/// `san` empty), or nothing.
pub(crate) fn ply_and_move(ply: u32, san: &str) -> String {
    match (ply, san.is_empty()) {
        (0, true) => String::new(),
        (0, false) => format!("`{san}`"),
        (ply, true) => format!("ply {ply}"),
        (ply, false) => format!("ply {ply} `{san}`"),
    }
}

/// Who played a game, for messages: `White – Black`, else the event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary(pub String);

impl Summary {
    /// The summary of a game with these tags: `White – Black`, else the event, else
    /// whichever player is known.
    pub fn of(tags: &GameTags) -> Summary {
        let known = |name| tags.known(name).map(str::to_owned);
        match (known("White"), known("Black"), known("Event")) {
            (Some(w), Some(b), _) => Summary(format!("{w} – {b}")),
            (_, _, Some(e)) => Summary(e),
            (Some(w), None, None) => Summary(w),
            (None, Some(b), None) => Summary(b),
            (None, None, None) => Summary::default(),
        }
    }
}

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
    /// Games with tags but no moves (a forfeit, an empty chapter): nothing to import,
    /// and not a problem.
    pub without_moves: usize,
    /// Lines added.
    pub lines: usize,
    /// Distinct positions (node keys) the lines reach, start positions included,
    /// counted by their 64-bit hashes (two positions could count as one, at odds of
    /// about 3 × 10⁻⁸ for a million positions).
    pub positions: usize,
    /// The mode used (the one decided when the options said [`ImportMode::Auto`]).
    pub mode: ImportMode,
    /// The first [`MAX_KEPT_ISSUES`](super::MAX_KEPT_ISSUES) problems, in file order.
    pub issues: Vec<ImportIssue>,
    /// How many problems there were in all.
    pub issue_count: usize,
}
