//! The opening book: lines replayed into a graph of positions.
//!
//! - [`matrix`]: the 8×8 board encoding of the thesis (the weighted Metropolis–Hastings
//!   opening learner Hastings follows; `ARCHITECTURE.md`, References).
//! - [`key`]: the node key (the pieces and the side to move).
//! - [`line`](mod@line): opening lines (unchecked input) and their style flags.
//! - [`eco`]: the embedded ECO list.
//! - [`graph`]: the position graph with book continuations and implied transpositions.
//! - [`filter`]: subsamples of the lines.
//! - [`tags`]: the tags of a PGN game, kept with its lines.
//! - [`side`]: which side a repertoire is for (a tag, a name, or the tree's shape).
//! - [`chapters`]: the chapters (games) of a repertoire file, with titles and sides.
//! - [`movelist`]: moves as written (SAN, UCI, long algebraic) and move lists.
//! - [`annotation`]: what the lines say about a move: comments, NAGs, arrows.
//! - [`pgn`]: PGN repertoires and game collections read into lines.
//! - [`search`]: an opening found by name or ECO code as one types.
//! - [`repertoire`]: a repertoire file as an editable tree per chapter, with undo, that
//!   keeps the bytes of what was not edited.
//! - [`export`]: lines written back as PGN with nested variations.
//! - [`polyglot`]: Polyglot `.bin` books, read from bytes and written from games.
//! - [`explorer`]: the opening explorer's core: games counted per position, move,
//!   rating band, speed, year and player, and a position's answer under a filter (the
//!   index on disk is `workspace::explorer`).
//! - [`error`]: the book's errors (ECO syntax, lines that do not replay).
//!
//! The book never opens files and never draws random numbers: callers pass text in,
//! and the sampler does the sampling.

pub mod annotation;
pub mod chapters;
pub mod eco;
pub mod error;
pub mod explorer;
pub mod export;
pub mod filter;
pub mod graph;
pub mod key;
pub mod line;
pub mod matrix;
pub mod movelist;
pub mod pgn;
pub mod polyglot;
pub mod repertoire;
pub mod search;
pub mod side;
pub mod tags;

pub use error::{BookError, EcoError, LineError, MoveErrorKind};
pub use filter::LineFilter;
pub use graph::{
    Continuation, GraphBuild, GraphStats, LineId, NodeId, PositionGraph, Transposition,
};
pub use key::NodeKey;
pub use line::{
    Flag, FlagSet, FlagWeights, LineSource, MoveAnnotation, MoveMark, OpeningLine, SourceId,
};
pub use matrix::BoardMatrix;
pub use pgn::{ImportError, ImportIssue, ImportMode, ImportOptions, ImportReport, PgnImport};
pub use side::Side;
pub use tags::GameTags;

impl PositionGraph {
    /// The graph of the embedded ECO list, all 3,807 lines.
    ///
    /// # Errors
    ///
    /// [`BookError`] if any row of the embedded data fails to parse or replay: that is a
    /// bug in the shipped data, which a test rules out.
    pub fn eco() -> Result<PositionGraph, BookError> {
        PositionGraph::eco_filtered(&LineFilter::default())
    }

    /// The graph of the embedded ECO lines that pass `filter`.
    ///
    /// # Errors
    ///
    /// As [`PositionGraph::eco`].
    pub fn eco_filtered(filter: &LineFilter) -> Result<PositionGraph, BookError> {
        let eco = eco::embedded();
        if !eco.issues.is_empty() {
            return Err(BookError::Eco(eco.issues));
        }
        if !eco.line_issues.is_empty() {
            return Err(BookError::Lines(eco.line_issues));
        }
        let build = PositionGraph::build(eco.lines.into_iter().filter(|l| filter.matches(l)));
        if !build.issues.is_empty() {
            return Err(BookError::Lines(build.issues));
        }
        Ok(build.graph)
    }
}
