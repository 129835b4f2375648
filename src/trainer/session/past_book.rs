//! Past the book: where the book has no move, the drill can go on for a few more plies
//! with the move predictor's moves, their shares being its estimate of how many strong
//! players play each (every legal move is a candidate, so the learner's moves there are
//! all kept, and the computer's replies have exact `P` as in the book).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use super::Session;
use crate::engine::predictor::{PredictedMove, Predictor};
use crate::sampler::{CandidateKind, Distribution};

/// The drill's play past the book.
#[derive(Clone, Debug)]
pub struct PastBook {
    /// The move predictor.
    pub predictor: Arc<Predictor>,
    /// How many plies after the book's last move the drill goes on.
    pub plies: u32,
    /// The predictions made so far, and made ahead on a background thread for the
    /// positions the drill can reach next, so that a move never waits for the network.
    pub predictions: Arc<Predictions>,
}

impl PastBook {
    /// Play past the book for `plies` plies with `predictor`.
    pub fn new(predictor: Arc<Predictor>, plies: u32) -> PastBook {
        PastBook {
            predictor,
            plies,
            predictions: Arc::default(),
        }
    }

    /// The predictor's moves at `pos`: made ahead, or made now.
    fn predict(&self, pos: &Chess) -> Arc<Vec<PredictedMove>> {
        let key = Predictions::key(pos);
        if let Some(known) = self.predictions.get(key) {
            return known;
        }
        let moves = Arc::new(self.predictor.predict(pos));
        self.predictions.insert(key, Arc::clone(&moves));
        moves
    }

    /// Makes the predictions at `positions` on a background thread (those not made or
    /// being made already); where no thread can start, they are made when needed.
    fn predict_ahead(&self, positions: Vec<Chess>) {
        let todo: Vec<(u64, Chess)> = {
            let known = self.predictions.lock_known();
            let mut computing = self.predictions.lock_computing();
            positions
                .into_iter()
                .map(|p| (Predictions::key(&p), p))
                .filter(|(k, _)| !known.contains_key(k) && computing.insert(*k))
                .collect()
        };
        if todo.is_empty() {
            return;
        }
        let (predictor, predictions) = (Arc::clone(&self.predictor), Arc::clone(&self.predictions));
        let keys: Vec<u64> = todo.iter().map(|(k, _)| *k).collect();
        let spawned = std::thread::Builder::new()
            .name("predict-ahead".to_owned())
            .spawn(move || {
                for (key, pos) in todo {
                    let moves = Arc::new(predictor.predict(&pos));
                    predictions.insert(key, moves);
                    predictions.lock_computing().remove(&key);
                }
            });
        if spawned.is_err() {
            let mut computing = self.predictions.lock_computing();
            for key in keys {
                computing.remove(&key);
            }
        }
    }
}

/// The predictor's moves by position (a Zobrist hash of the board, castling rights
/// and en passant, which is what the network sees), at most [`Predictions::KEPT`].
#[derive(Debug, Default)]
pub struct Predictions {
    known: Mutex<HashMap<u64, Arc<Vec<PredictedMove>>>>,
    /// Positions a background thread is predicting.
    computing: Mutex<HashSet<u64>>,
}

impl Predictions {
    /// How many positions are kept; more start the cache afresh.
    pub const KEPT: usize = 4096;

    fn key(pos: &Chess) -> u64 {
        pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
    }

    fn lock_known(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Vec<PredictedMove>>>> {
        self.known.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn lock_computing(&self) -> std::sync::MutexGuard<'_, HashSet<u64>> {
        self.computing
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn get(&self, key: u64) -> Option<Arc<Vec<PredictedMove>>> {
        self.lock_known().get(&key).cloned()
    }

    fn insert(&self, key: u64, moves: Arc<Vec<PredictedMove>>) {
        let mut known = self.lock_known();
        if known.len() >= Self::KEPT {
            known.clear();
        }
        known.insert(key, moves);
    }

    /// Whether the predictions at `pos` are made.
    pub fn knows(&self, pos: &Chess) -> bool {
        self.get(Self::key(pos)).is_some()
    }
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
        let Some(past) = self.past_book.as_ref() else {
            return book;
        };
        if !book.is_empty() {
            // The book's moves that end it: their positions are predicted ahead.
            let ends: Vec<Chess> = book
                .candidates
                .iter()
                .filter(|c| c.to.is_none_or(|n| self.graph.continuations(n).is_empty()))
                .map(|c| after(pos, c.mv))
                .collect();
            past.predict_ahead(ends);
            return book;
        }
        let Some(d) = self.predicted_distribution(pos, ply, s_prev) else {
            return book;
        };
        // Every reply can be played: the positions after them are predicted ahead while
        // play past the book goes on.
        if self.plies_past_book(ply) + 1 < past.plies as usize {
            past.predict_ahead(d.candidates.iter().map(|c| after(pos, c.mv)).collect());
        }
        d
    }

    /// The predictor's distribution at `pos` (the position at `ply`), when play past the
    /// book goes on that far.
    fn predicted_distribution(&self, pos: &Chess, ply: usize, s_prev: f64) -> Option<Distribution> {
        let past = self.past_book.as_ref()?;
        if self.plies_past_book(ply) >= past.plies as usize || pos.is_game_over() {
            return None;
        }
        let moves = past.predict(pos);
        Some(Distribution::from_shares(
            moves.iter().map(|m| (m.mv, m.p)),
            CandidateKind::Predicted,
            &self.style,
            s_prev,
        ))
    }

    /// The share of `mv` at `pos` past the book (the predictor's probability), for the
    /// `s_prev` of the position after it.
    pub(super) fn predicted_share(&self, pos: &Chess, mv: Move) -> Option<f64> {
        let past = self.past_book.as_ref()?;
        past.predict(pos).iter().find(|m| m.mv == mv).map(|m| m.p)
    }
}

/// The position after `mv` (legal) at `pos`.
fn after(pos: &Chess, mv: Move) -> Chess {
    let mut next = pos.clone();
    next.play_unchecked(mv);
    next
}
