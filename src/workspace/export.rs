//! PGN files written from the book: a source's lines or a drilled line, as games with
//! nested variations ([`crate::book::export`]), written atomically.

use std::path::Path;

use super::error::WorkspaceError;
use super::store;
use crate::book::{OpeningLine, PositionGraph};

/// Writes `lines` as PGN to `path` atomically (temporary file, sync, rename); returns
/// the number of games written.
///
/// # Errors
///
/// [`WorkspaceError::NothingToExport`] for no lines, [`WorkspaceError::Export`] or
/// [`WorkspaceError::Store`] when the PGN cannot be made or written.
pub fn write_pgn_file(lines: &[OpeningLine], path: &Path) -> Result<usize, WorkspaceError> {
    if lines.is_empty() {
        return Err(WorkspaceError::NothingToExport);
    }
    let mut out = Vec::new();
    let games = crate::book::export::write_pgn(lines.iter(), &mut out)?;
    store::write_atomic(path, &out)?;
    Ok(games)
}

/// Writes the lines of `graph` as PGN to `path` atomically (temporary file, sync,
/// rename), so a full disk or a crash leaves the old file, or none, never part of the
/// new one; returns the number of games written.
///
/// # Errors
///
/// [`WorkspaceError::Export`] when the PGN cannot be made, [`WorkspaceError::Store`]
/// when it cannot be written (nothing is left at `path` then but an old file).
pub fn write_graph_file(graph: &PositionGraph, path: &Path) -> Result<usize, WorkspaceError> {
    let mut out = Vec::new();
    let games = crate::book::export::write_graph(graph, None, &mut out)?;
    store::write_atomic(path, &out)?;
    Ok(games)
}
