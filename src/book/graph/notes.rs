//! The annotation index: for each continuation, where the annotation of its move is —
//! the first line (in line order) whose first playing of the move says something about
//! it. Filled while the graph is built, so the drill panel finds a move's comment with
//! one hash lookup instead of replaying lines every frame.

use rustc_hash::FxHashMap;

use super::LineId;
use crate::book::line::OpeningLine;

/// A continuation's annotation: the line, and the index in its `annotations`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct NoteAt {
    pub(super) line: LineId,
    pub(super) index: u32,
}

/// The annotation index, keyed by continuation (an edge id while building, the
/// continuation's place in the laid-out graph after [`NoteIndex::moved`]).
#[derive(Clone, Debug, Default)]
pub(super) struct NoteIndex(FxHashMap<u32, NoteAt>);

impl NoteIndex {
    /// Records what `line` (the line `id`) says about the edges it plays: `first_edge[ply]`
    /// is the edge of each ply the line plays an edge for the first time, `None` for a
    /// ply that plays an edge again. An edge keeps what an earlier line said about it;
    /// at one ply the first non-empty annotation counts.
    pub(super) fn record(&mut self, id: LineId, line: &OpeningLine, first_edge: &[Option<u32>]) {
        for (index, a) in line.annotations.iter().enumerate() {
            if a.is_empty() {
                continue;
            }
            let Some(&Some(edge)) = first_edge.get(a.ply as usize) else {
                continue;
            };
            self.0.entry(edge).or_insert(NoteAt {
                line: id,
                index: index as u32,
            });
        }
    }

    /// The index with each edge's entry moved to the edge's place, `place[edge]`.
    pub(super) fn moved(self, place: &[u32]) -> NoteIndex {
        let moved = self
            .0
            .into_iter()
            .map(|(edge, at)| (place[edge as usize], at))
            .collect();
        NoteIndex(moved)
    }

    /// Where the annotation of the continuation at `place` is.
    pub(super) fn get(&self, place: u32) -> Option<NoteAt> {
        self.0.get(&place).copied()
    }
}
