//! Errors of the book: syntax errors in the ECO files, and lines that do not replay.

use shakmaty::{Chess, Move, Position};
use thiserror::Error;

use super::line::{LineSource, SanPathError};

/// A row of an ECO file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EcoError {
    /// The header line is not `eco<TAB>name<TAB>pgn`.
    #[error("{file}: line 1: expected the header `eco<TAB>name<TAB>pgn`, found {found:?}")]
    BadHeader {
        /// The file name, e.g. `a.tsv`.
        file: String,
        /// What the first line holds.
        found: String,
    },
    /// A row does not have exactly three tab-separated columns.
    #[error("{file}: line {row}: expected 3 tab-separated columns, found {found}")]
    ColumnCount {
        /// The file name.
        file: String,
        /// The 1-based line number.
        row: u32,
        /// How many columns the row has.
        found: usize,
    },
    /// A move token is not standard algebraic notation.
    #[error("{file}: line {row}: move {ply} `{san}` is not SAN")]
    BadSan {
        /// The file name.
        file: String,
        /// The 1-based line number.
        row: u32,
        /// The 1-based ply of the token.
        ply: usize,
        /// The token.
        san: String,
    },
    /// The ECO code is not a letter A–E and two digits.
    #[error("{file}: line {row}: `{code}` is not an ECO code")]
    BadCode {
        /// The file name.
        file: String,
        /// The 1-based line number.
        row: u32,
        /// The text of the first column.
        code: String,
    },
}

/// Why a move of a line could not be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum MoveErrorKind {
    /// No legal move matches the SAN.
    #[error("illegal move")]
    Illegal,
    /// Several legal moves match the SAN.
    #[error("ambiguous move")]
    Ambiguous,
}

/// A line whose moves cannot be played: reported by the reader that read it (or by
/// the graph build for a line made in code), which leaves the line out.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineError {
    /// A move is illegal or ambiguous in the position it is played from.
    #[error("{line}: ply {ply} `{san}`: {kind}")]
    Move {
        /// Where the line comes from.
        line: LineSource,
        /// The 1-based ply of the move.
        ply: usize,
        /// The move as written (in UCI for a move of a line made without text).
        san: String,
        /// What is wrong with it.
        kind: MoveErrorKind,
    },
    /// A position of the graph cannot be rebuilt from its packed form (a bug: nodes are
    /// made from legal positions).
    #[error(transparent)]
    Rebuild(#[from] NodeRebuildError),
}

/// A node of the graph whose representative position cannot be rebuilt from what the
/// graph keeps of it (pieces, rights, counters). Nodes are made from legal positions, so
/// this is a bug; it is reported rather than replaced by another position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("node {node}: the position `{fen}` cannot be rebuilt: {reason}")]
pub struct NodeRebuildError {
    /// The node's index in the graph.
    pub node: u32,
    /// The position as kept (FEN, every right as stored).
    pub fen: String,
    /// What shakmaty rejects.
    pub reason: String,
}

impl LineError {
    /// The error of a line from `source` whose SAN path, played after its first
    /// `skipped` moves, stopped at `e`.
    pub fn from_san_path(source: LineSource, skipped: usize, e: SanPathError) -> LineError {
        LineError::Move {
            line: source,
            ply: skipped + e.ply,
            san: e.san,
            kind: e.kind,
        }
    }
}

impl LineError {
    /// The error of a line from `source` whose move `mv`, at 0-based `index`, is not
    /// legal in `pos` (a line made in code: the readers check the moves they read).
    pub fn not_legal(source: LineSource, index: usize, pos: &Chess, mv: Move) -> LineError {
        LineError::Move {
            line: source,
            ply: index + 1,
            san: mv.to_uci(pos.castles().mode()).to_string(),
            kind: MoveErrorKind::Illegal,
        }
    }
}

/// The embedded book could not be built (a bug in the shipped data).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BookError {
    /// ECO rows that could not be read.
    #[error("the embedded ECO data has {} bad rows; first: {}", .0.len(), .0.first().map(ToString::to_string).unwrap_or_default())]
    Eco(Vec<EcoError>),
    /// ECO lines that do not replay.
    #[error("the embedded ECO data has {} lines that do not replay; first: {}", .0.len(), .0.first().map(ToString::to_string).unwrap_or_default())]
    Lines(Vec<LineError>),
}
