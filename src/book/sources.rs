//! A book of several sources: the embedded ECO list and any number of PGN files.
//!
//! Every line keeps its [`LineSource`](super::LineSource): ECO rows are
//! [`SourceId::ECO`], PGN files get `SourceId(1)`, `SourceId(2)`, … in the order they
//! are added. A graph is built from all of them or, through
//! [`LineFilter::sources`](super::LineFilter::sources), from a selection.
//!
//! ```
//! use hastings::book::{BookSources, ImportOptions, LineFilter, SourceId};
//!
//! let mut book = BookSources::new();
//! book.add_eco()?;
//! let pgn = "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n";
//! let id = book.add_pgn("mine.pgn", pgn.as_bytes(), &ImportOptions::default())?.id;
//! assert_eq!(id, SourceId(1));
//! assert_eq!(book.graph(&LineFilter::default()).graph.stats().lines, 3808);
//! let mine = LineFilter { sources: Some(vec![id]), ..LineFilter::default() };
//! let graph = book.graph(&mine).graph;
//! assert_eq!(graph.stats().lines, 1);
//! // Named by the deepest ECO position it passes.
//! assert_eq!(graph.lines()[0].name, "Ruy Lopez: Closed");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Read;

use super::error::BookError;
use super::filter::LineFilter;
use super::graph::{GraphBuild, PositionGraph};
use super::line::{OpeningLine, SourceId};
use super::pgn::{ImportError, ImportOptions, ImportReport, read_pgn};

/// One source of a [`BookSources`].
#[derive(Debug, Clone)]
pub struct Source {
    /// Its id in the lines' [`LineSource`](super::LineSource).
    pub id: SourceId,
    /// A label, e.g. the file name.
    pub name: String,
    /// The import report of a PGN file; `None` for the ECO list.
    pub report: Option<ImportReport>,
}

/// The lines of several sources, ready to be built into a graph.
#[derive(Debug, Default)]
pub struct BookSources {
    sources: Vec<Source>,
    lines: Vec<OpeningLine>,
    next: u16,
    /// The ECO graph that names PGN lines without an `[Opening]` tag.
    names: Option<PositionGraph>,
}

impl BookSources {
    /// An empty book.
    pub fn new() -> BookSources {
        BookSources::default()
    }

    /// Adds the embedded ECO list as [`SourceId::ECO`] (once; a second call does nothing).
    ///
    /// # Errors
    ///
    /// [`BookError`] if the embedded data does not load, a bug a test rules out.
    pub fn add_eco(&mut self) -> Result<SourceId, BookError> {
        if self.sources.iter().any(|s| s.id == SourceId::ECO) {
            return Ok(SourceId::ECO);
        }
        let eco = super::eco::embedded();
        if !eco.issues.is_empty() {
            return Err(BookError::Eco(eco.issues));
        }
        self.lines.extend(eco.lines);
        self.sources.push(Source {
            id: SourceId::ECO,
            name: "ECO".to_owned(),
            report: None,
        });
        Ok(SourceId::ECO)
    }

    /// Reads a PGN file as the next source. Lines without an `[Opening]` tag are named
    /// by the embedded ECO list, whether or not it is part of the book.
    ///
    /// # Errors
    ///
    /// As [`read_pgn`], and [`ImportError::TooManySources`] past 65,535 files.
    pub fn add_pgn(
        &mut self,
        name: &str,
        reader: impl Read,
        options: &ImportOptions,
    ) -> Result<&Source, ImportError> {
        let id = SourceId(
            self.next
                .checked_add(1)
                .ok_or(ImportError::TooManySources)?,
        );
        if self.names.is_none() {
            self.names = PositionGraph::eco().ok();
        }
        let import = read_pgn(reader, id, options, self.names.as_ref())?;
        self.next = id.0;
        self.lines.extend(import.lines);
        self.sources.push(Source {
            id,
            name: name.to_owned(),
            report: Some(import.report),
        });
        Ok(&self.sources[self.sources.len() - 1])
    }

    /// The sources, in the order they were added.
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// All lines, source by source.
    pub fn lines(&self) -> &[OpeningLine] {
        &self.lines
    }

    /// The graph of the lines that pass `filter`.
    pub fn graph(&self, filter: &LineFilter) -> GraphBuild {
        PositionGraph::build(self.lines.iter().filter(|l| filter.matches(l)).cloned())
    }

    /// The graph of the lines that pass `filter`, without copying them.
    pub fn into_graph(self, filter: &LineFilter) -> GraphBuild {
        PositionGraph::build(self.lines.into_iter().filter(|l| filter.matches(l)))
    }
}
