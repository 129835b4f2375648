//! What can go wrong reading a repertoire document or editing it.

use thiserror::Error;

use super::tree::NodeId;

/// A chapter that could not be read into a tree: it is kept as written (and saved as
/// written) but cannot be edited.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("chapter {chapter}, ply {ply}{}: {reason}", if san.is_empty() { String::new() } else { format!(" `{san}`") })]
pub struct ReadIssue {
    /// The chapter, from 1 in file order.
    pub chapter: usize,
    /// The ply of the move (0: before the first move).
    pub ply: u32,
    /// The token that could not be read or played (empty when none).
    pub san: String,
    /// Why.
    pub reason: String,
}

/// Why an edit of a repertoire document was refused; the document is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EditError {
    /// No chapter of that number (chapters count from 1).
    #[error("there is no chapter {chapter} (the file has {count})")]
    NoChapter {
        /// The chapter asked for.
        chapter: usize,
        /// How many chapters there are.
        count: usize,
    },
    /// The chapter could not be read, so it cannot be edited.
    #[error("chapter {chapter} cannot be edited: {issue}")]
    Unreadable {
        /// The chapter, from 1.
        chapter: usize,
        /// What was wrong when it was read.
        issue: ReadIssue,
    },
    /// The node is not in the chapter's tree (deleted, or never there).
    #[error("chapter {chapter}: move {node:?} is not in the tree")]
    NoNode {
        /// The chapter, from 1.
        chapter: usize,
        /// The node.
        node: NodeId,
    },
    /// The start position has no move to delete, promote or annotate.
    #[error("chapter {chapter}: the start position is not a move")]
    Root {
        /// The chapter, from 1.
        chapter: usize,
    },
    /// A move that is not legal (or not a move) where it was to be added.
    #[error("chapter {chapter}, after `{after}`: `{san}` is {reason}")]
    BadMove {
        /// The chapter, from 1.
        chapter: usize,
        /// The moves before it, in SAN (empty at the start).
        after: String,
        /// The move as given.
        san: String,
        /// "not a move", "illegal", "ambiguous".
        reason: &'static str,
    },
    /// A SAN path whose move is not in the tree.
    #[error("chapter {chapter}: move {index} of the path, `{san}`, is not in the tree{}", if after.is_empty() { String::new() } else { format!(" after `{after}`") })]
    NotFound {
        /// The chapter, from 1.
        chapter: usize,
        /// The move's place in the path, from 1.
        index: usize,
        /// The move as given.
        san: String,
        /// The moves found before it.
        after: String,
    },
    /// An empty SAN path where a move is needed.
    #[error("the path is empty: name at least one move")]
    EmptyPath,
    /// Promoting a move that is already first among its siblings.
    #[error("chapter {chapter}: `{san}` is already the main line here")]
    AlreadyMain {
        /// The chapter, from 1.
        chapter: usize,
        /// The move.
        san: String,
    },
    /// Adding a NAG the move has, or removing one it has not.
    #[error("chapter {chapter}: `{san}` {}", if *present { format!("already has ${nag}") } else { format!("has no ${nag}") })]
    Nag {
        /// The chapter, from 1.
        chapter: usize,
        /// The move.
        san: String,
        /// The NAG.
        nag: u8,
        /// Whether it was there.
        present: bool,
    },
    /// Ranking a move as it is already ranked.
    #[error("chapter {chapter}: `{san}` is already {rank}")]
    AlreadyRanked {
        /// The chapter, from 1.
        chapter: usize,
        /// The move.
        san: String,
        /// "the main move", "an alternative", "paused", "not paused".
        rank: &'static str,
    },
    /// A chapter index out of range for a move of chapters.
    #[error("cannot move chapter {from} to place {to} (there are {count})")]
    ChapterPlace {
        /// From (1-based).
        from: usize,
        /// To (1-based).
        to: usize,
        /// How many chapters there are.
        count: usize,
    },
    /// Nothing to undo or redo.
    #[error("nothing to {0}")]
    NoHistory(&'static str),
}
