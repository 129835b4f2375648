//! Quiescence search: at the end of the main search, keep playing captures and
//! promotions until the position is quiet, so the evaluation is never taken in the
//! middle of an exchange (the horizon effect).

use shakmaty::{Chess, Position};

use super::eval::evaluate;
use super::ordering::{MovePicker, is_tactical, mvv_lva};
use super::score::{MATE, MAX_PLY};
use super::search::Run;

impl Run<'_> {
    /// The score of `pos` once captures are resolved: the side to move may "stand pat"
    /// on the static evaluation or try a capture; in check, every evasion is tried.
    pub(super) fn quiescence(&mut self, pos: &Chess, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        if self.enter_node(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        let in_check = pos.is_check();
        let mut best = -MATE + ply as i32;
        if !in_check {
            let stand_pat = evaluate(pos);
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
        for m in MovePicker::new(&moves, mvv_lva) {
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
}
