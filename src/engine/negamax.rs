//! Negamax with α-β pruning: the score of a position is minus the best score of its
//! children, and a branch is cut as soon as it is proven worse than an alternative.
//!
//! On top of the textbook algorithm: a transposition-table cutoff and hash move, a
//! check extension, principal-variation search (later moves are first tried with a
//! null window), null-move pruning and late-move reductions.

use shakmaty::{CastlingMode, Chess, EnPassantMode, FromSetup, Move, Position, Role};

use super::game::hash;
use super::ordering::{MovePicker, is_tactical};
use super::score::{MATE, MATE_BOUND, MAX_PLY};
use super::search::Run;
use super::tt::{Bound, from_tt, to_tt};

/// The draw score.
const DRAW: i32 = 0;

impl Run<'_> {
    /// The score of `pos` (at `ply` from the root) searched `depth` plies deep within
    /// the window (`alpha`, `beta`), from the side to move's point of view.
    pub(super) fn negamax(
        &mut self,
        pos: &Chess,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        allow_null: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if self.enter_node(ply) {
            return DRAW;
        }
        if self.is_draw(pos, ply) {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluation.evaluate(pos);
        }
        let in_check = pos.is_check();
        let depth = if in_check { depth + 1 } else { depth };
        if depth <= 0 {
            return self.quiescence(pos, ply, alpha, beta);
        }

        let key = self.path[self.root_index + ply];
        let is_pv = beta - alpha > 1;
        let entry = self.tt.probe(key);
        if let Some(e) = entry
            && !is_pv
            && i32::from(e.depth) >= depth
        {
            let score = from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }

        if allow_null
            && !is_pv
            && !in_check
            && depth >= 3
            && has_pieces(pos)
            && self.evaluation.evaluate(pos) >= beta
            && let Some(score) = self.null_move(pos, depth, ply, beta)
        {
            return score;
        }

        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -(MATE - ply as i32) } else { DRAW };
        }

        let hash_move = entry.and_then(|e| e.best);
        let turn = pos.turn();
        let picker = MovePicker::new(moves, |m| self.ordering.key(turn, m, ply, hash_move));
        let alpha_start = alpha;
        let mut best_score = -MATE;
        let mut best_move = None;
        for (i, m) in picker.enumerate() {
            let child = self.play(pos, m, ply);
            let score = self.search_child(&child, m, i, depth, ply, alpha, beta, in_check);
            if self.stopped {
                return DRAW;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        if !is_tactical(m) {
                            self.ordering.record_cutoff(turn, m, ply, depth);
                        }
                        break;
                    }
                }
            }
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best_score, ply), depth, bound);
        best_score
    }

    /// The score of the `index`-th move's child: the first move with the full window,
    /// later ones with a null window (reduced when late and quiet), re-searched when
    /// they beat alpha.
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        child: &Chess,
        m: Move,
        index: usize,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        in_check: bool,
    ) -> i32 {
        if index == 0 {
            return -self.negamax(child, depth - 1, ply + 1, -beta, -alpha, true);
        }
        let reduction =
            if depth >= 3 && index >= 3 && !in_check && !is_tactical(m) && !child.is_check() {
                if index >= 8 && depth >= 6 { 2 } else { 1 }
            } else {
                0
            };
        let mut score = -self.negamax(
            child,
            depth - 1 - reduction,
            ply + 1,
            -alpha - 1,
            -alpha,
            true,
        );
        if score > alpha && reduction > 0 && !self.stopped {
            score = -self.negamax(child, depth - 1, ply + 1, -alpha - 1, -alpha, true);
        }
        if score > alpha && score < beta && !self.stopped {
            score = -self.negamax(child, depth - 1, ply + 1, -beta, -alpha, true);
        }
        score
    }

    /// Null-move pruning: if passing still leaves the side to move at or above beta
    /// after a reduced search, a real move will too. Returns the cutoff score.
    fn null_move(&mut self, pos: &Chess, depth: i32, ply: usize, beta: i32) -> Option<i32> {
        let mut setup = pos.to_setup(EnPassantMode::Legal);
        setup.swap_turn();
        // The pass is irreversible for repetition purposes.
        setup.halfmoves = 0;
        let null = Chess::from_setup(setup, CastlingMode::Standard).ok()?;
        self.path.truncate(self.root_index + ply + 1);
        self.path.push(hash(&null));
        let r = if depth > 6 { 3 } else { 2 };
        let score = -self.negamax(&null, depth - 1 - r, ply + 1, -beta, -beta + 1, false);
        if self.stopped || score < beta {
            return None;
        }
        // A mate found after passing is not a proof of anything.
        Some(if score > MATE_BOUND { beta } else { score })
    }

    /// A draw by the fifty-move rule, repetition (once is enough inside the search)
    /// or insufficient material. The root itself is never scored a draw.
    pub(super) fn is_draw(&self, pos: &Chess, ply: usize) -> bool {
        if ply == 0 {
            return false;
        }
        if pos.halfmoves() >= 100 && !pos.is_checkmate() {
            return true;
        }
        let here = self.root_index + ply;
        let key = self.path[here];
        let reversible = pos.halfmoves() as usize;
        let earliest = here.saturating_sub(reversible);
        let mut i = here;
        while i >= earliest + 2 {
            i -= 2;
            if self.path[i] == key {
                return true;
            }
        }
        pos.is_insufficient_material()
    }
}

/// Whether the side to move has a piece other than pawns and king (null-move pruning
/// is unsafe in pawn endings, where zugzwang is common).
fn has_pieces(pos: &Chess) -> bool {
    let board = pos.board();
    let ours = board.by_color(pos.turn());
    let pawns_and_king = board.by_role(Role::Pawn) | board.by_role(Role::King);
    (ours & !pawns_and_king).any()
}
