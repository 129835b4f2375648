//! Past the book: where the book has no move, the drill can go on for a few more plies
//! with the move predictor's moves, their shares being its estimate of how many strong
//! players play each (every legal move is a candidate, so the learner's moves there are
//! all kept, and the computer's replies have exact `P` as in the book).

use std::sync::Arc;

use shakmaty::{Chess, Move, Position};

use super::Session;
use crate::engine::predictor::Predictor;
use crate::sampler::{CandidateKind, Distribution};

/// The drill's play past the book.
#[derive(Clone, Debug)]
pub struct PastBook {
    /// The move predictor.
    pub predictor: Arc<Predictor>,
    /// How many plies after the book's last move the drill goes on.
    pub plies: u32,
}

impl Session {
    /// Sets (or with `None` stops) play past the book; it applies from the current
    /// position on.
    pub fn set_past_book(&mut self, past_book: Option<PastBook>) {
        self.past_book = past_book.filter(|p| p.plies > 0);
        self.recompute();
    }

    /// Play past the book, if on.
    pub fn past_book(&self) -> Option<&PastBook> {
        self.past_book.as_ref()
    }

    /// Plies played past the book at `ply` (the moves before it that the predictor gave,
    /// counted back to the last book move).
    pub fn plies_past_book(&self, ply: usize) -> usize {
        self.moves[..ply.min(self.moves.len())]
            .iter()
            .rev()
            .take_while(|m| m.kind == CandidateKind::Predicted)
            .count()
    }

    /// `book`, the book's distribution at `pos` (the position at `ply`), or where it is
    /// empty the predictor's when play past the book goes on that far.
    pub(super) fn or_past_book(
        &self,
        book: Distribution,
        pos: &Chess,
        ply: usize,
        s_prev: f64,
    ) -> Distribution {
        if !book.is_empty() {
            return book;
        }
        self.predicted_distribution(pos, ply, s_prev)
            .unwrap_or(book)
    }

    /// The predictor's distribution at `pos` (the position at `ply`), when play past the
    /// book goes on that far.
    fn predicted_distribution(&self, pos: &Chess, ply: usize, s_prev: f64) -> Option<Distribution> {
        let past = self.past_book.as_ref()?;
        if self.plies_past_book(ply) >= past.plies as usize || pos.is_game_over() {
            return None;
        }
        let moves = past.predictor.predict(pos);
        Some(Distribution::from_shares(
            moves.into_iter().map(|m| (m.mv, m.p)),
            CandidateKind::Predicted,
            &self.style,
            s_prev,
        ))
    }

    /// The share of `mv` at `pos` past the book (the predictor's probability), for the
    /// `s_prev` of the position after it.
    pub(super) fn predicted_share(&self, pos: &Chess, mv: Move) -> Option<f64> {
        let past = self.past_book.as_ref()?;
        past.predictor
            .predict(pos)
            .into_iter()
            .find(|m| m.mv == mv)
            .map(|m| m.p)
    }
}
