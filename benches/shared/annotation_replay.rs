//! The annotation lookup as it was before the graph kept an index of it: replay the
//! lines through a move from their start up to the move, and take the annotation of
//! the first line that says something there. Kept as the reference that the index is
//! checked against (`tests/all/annotation_index.rs`) and measured against
//! (`benches/book.rs`); `limit` is how many lines through the move are searched (the
//! drill panel searched 200 per frame).

use hastings::book::{MoveAnnotation, PositionGraph};
use shakmaty::{Chess, Move, Position};

/// What the lines of `graph` say about `mv` played at `before`, found by replaying
/// the first `limit` lines through the move.
pub fn replayed_annotation(
    graph: &PositionGraph,
    before: &Chess,
    mv: Move,
    limit: usize,
) -> Option<MoveAnnotation> {
    let from = graph.lookup(before)?;
    let mut after = before.clone();
    after.play_unchecked(mv);
    let to = graph.lookup(&after)?;
    let c = graph.continuations(from).iter().find(|c| c.to == to)?;
    for &id in graph.continuation_lines(c).iter().take(limit) {
        let line = graph.line(id);
        if line.annotations.is_empty() {
            continue;
        }
        let mut pos = line.start_position();
        for (ply, &m) in line.moves.iter().enumerate() {
            let at_from = graph.lookup(&pos) == Some(from);
            pos.play_unchecked(m);
            if at_from && graph.lookup(&pos) == Some(to) {
                let found = line
                    .annotations
                    .iter()
                    .find(|a| a.ply as usize == ply && !a.is_empty());
                if let Some(a) = found {
                    return Some(a.clone());
                }
                break;
            }
        }
    }
    None
}
