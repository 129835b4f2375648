//! A game replayed for the sampler: the position it reaches and `s_prev` there.

use shakmaty::{Chess, Move, Position};

use super::metropolis::move_share;
use super::style::Style;
use crate::book::PositionGraph;

/// The position after `moves` (legal moves from the standard start) and `s_prev` there:
/// the share the last move had at the position before it, under `style` (1 without
/// moves; docs/sampler.md §3). Earlier positions may be outside the book.
pub fn replay(graph: &PositionGraph, moves: &[Move], style: &Style) -> (Chess, f64) {
    let mut pos = Chess::default();
    let mut s_prev = 1.0;
    for &mv in moves {
        s_prev = move_share(graph, &pos, mv, style);
        pos.play_unchecked(mv);
    }
    (pos, s_prev)
}
