//! Quiescence search: at the end of the main search, keep playing captures and
//! promotions until the position is quiet, so the evaluation is never taken in the
//! middle of an exchange (the horizon effect).

use shakmaty::{Chess, Position};

use super::ordering::{MovePicker, is_tactical, mvv_lva};
use super::score::{MATE, MAX_PLY};
use super::search::Run;

/// Delta pruning's safety margin: a capture is skipped when even winning the piece
/// plus this much would not reach alpha.
const DELTA_MARGIN: i32 = 200;

impl Run<'_> {
    /// The score of `pos` once captures are resolved: the side to move may "stand pat"
    /// on the static evaluation or try a capture; in check, every evasion is tried.
    pub(super) fn quiescence(&mut self, pos: &Chess, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        if self.enter_node(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluation.evaluate(pos);
        }
        let in_check = pos.is_check();
        let mut best = -MATE + ply as i32;
        let mut stand_pat = best;
        if !in_check {
            stand_pat = self.evaluation.evaluate(pos);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut moves = pos.legal_moves();
        if !in_check {
            moves.retain(|m| is_tactical(*m));
        }
        for m in MovePicker::new(moves, mvv_lva) {
            if !in_check && self.is_futile(m, stand_pat, alpha) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = -self.quiescence(&child, ply + 1, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Delta pruning: whether capturing with `m` cannot lift `stand_pat` to `alpha` even
    /// with the captured piece's full value and a margin of two pawns (promotions are
    /// always tried).
    fn is_futile(&self, m: shakmaty::Move, stand_pat: i32, alpha: i32) -> bool {
        if m.is_promotion() {
            return false;
        }
        let gain = m.capture().map_or(0, |r| self.evaluation.piece_value(r));
        stand_pat + gain + DELTA_MARGIN <= alpha
    }
}
