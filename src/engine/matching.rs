//! Move matching: how often an agent plays the move a player played, over the positions
//! of games (the move predictor's accuracy and its baselines, in one measure).
//!
//! An agent is a [`Ranker`]: for a batch of positions it gives each a list of moves,
//! most preferred first (the predictor ranks every legal move; a search gives its best
//! move only; a book gives its moves there, or none). [`match_moves`] runs one ranker
//! per thread over the positions and counts top-1, top-3 (where the ranker ranks that
//! many), the from-square of the first move, and top-1 by the piece that moved. A
//! ranker may rank for several agents at once ([`BlendRanker`]: the blend at every λ
//! from one prediction a position); [`match_moves_each`] reports each.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;

use serde::Serialize;
use shakmaty::{Chess, Move, Position, Role};

use super::Engine;
use super::Search;
use super::blend::{Blend, Bonus};
use super::error::EngineError;
use super::game::Game;
use super::limits::Limits;
use super::predictor::{Predictor, Scratch};
use crate::book::polyglot::PolyglotBook;

/// Ranks the moves of positions, most preferred first.
pub trait Ranker {
    /// The moves of each of `positions`, most preferred first (possibly none).
    ///
    /// # Errors
    ///
    /// [`EngineError`] when an engine process fails.
    fn rank(&mut self, positions: &[Chess]) -> Result<Vec<Vec<Move>>, EngineError>;

    /// How many agents it ranks for at once ([`Ranker::rank_each`]); 1 by default.
    fn agents(&self) -> usize {
        1
    }

    /// Each agent's moves of each position: `[position][agent]`. By default the one
    /// agent of [`Ranker::rank`].
    ///
    /// # Errors
    ///
    /// [`EngineError`] when an engine process fails.
    fn rank_each(&mut self, positions: &[Chess]) -> Result<Vec<Vec<Vec<Move>>>, EngineError> {
        Ok(self.rank(positions)?.into_iter().map(|r| vec![r]).collect())
    }
}

/// The move predictor: every legal move, most likely first.
pub struct PredictorRanker<'a> {
    predictor: &'a Predictor,
    scratch: Scratch,
}

impl<'a> PredictorRanker<'a> {
    /// Ranks with `predictor`.
    pub fn new(predictor: &'a Predictor) -> PredictorRanker<'a> {
        PredictorRanker {
            predictor,
            scratch: Scratch::default(),
        }
    }
}

impl Ranker for PredictorRanker<'_> {
    fn rank(&mut self, positions: &[Chess]) -> Result<Vec<Vec<Move>>, EngineError> {
        Ok(self
            .predictor
            .predict_batch(positions, &mut self.scratch)
            .into_iter()
            .map(|moves| moves.into_iter().map(|m| m.mv).collect())
            .collect())
    }
}

/// An engine's best move within fixed limits (its only move in the ranking).
pub struct EngineRanker<E> {
    engine: E,
    limits: Limits,
}

impl<E: Engine> EngineRanker<E> {
    /// Ranks with `engine` searching each position within `limits`.
    pub fn new(engine: E, limits: Limits) -> EngineRanker<E> {
        EngineRanker { engine, limits }
    }
}

impl<E: Engine> Ranker for EngineRanker<E> {
    fn rank(&mut self, positions: &[Chess]) -> Result<Vec<Vec<Move>>, EngineError> {
        let stop = AtomicBool::new(false);
        positions
            .iter()
            .map(|pos| {
                self.engine.new_game()?;
                let game = Game::new(pos.clone());
                let result = self.engine.search(Search {
                    game: &game,
                    limits: &self.limits,
                    stop: &stop,
                    on_info: &mut |_| {},
                })?;
                Ok(result.best.into_iter().collect())
            })
            .collect()
    }
}

/// A Polyglot book's moves, heaviest first (none where the book has no entry).
pub struct BookRanker<'a> {
    book: &'a PolyglotBook<'a>,
}

impl<'a> BookRanker<'a> {
    /// Ranks with `book`.
    pub fn new(book: &'a PolyglotBook<'a>) -> BookRanker<'a> {
        BookRanker { book }
    }
}

impl Ranker for BookRanker<'_> {
    fn rank(&mut self, positions: &[Chess]) -> Result<Vec<Vec<Move>>, EngineError> {
        Ok(positions
            .iter()
            .map(|pos| {
                self.book
                    .moves(pos)
                    .moves
                    .into_iter()
                    .map(|m| m.mv)
                    .collect()
            })
            .collect())
    }
}

/// Seed 003's blend at several λ (and bonuses) at once: one prediction a position and a
/// search for each λ ([`Blend::sweep`]); the agents are λ-major.
pub struct BlendRanker {
    blend: Blend,
    limits: Limits,
    lambdas: Vec<f64>,
    bonuses: Vec<Bonus>,
}

impl BlendRanker {
    /// Ranks with `blend` searching within `limits`, for each of `lambdas` × `bonuses`.
    pub fn new(
        blend: Blend,
        limits: Limits,
        lambdas: Vec<f64>,
        bonuses: Vec<Bonus>,
    ) -> BlendRanker {
        BlendRanker {
            blend,
            limits,
            lambdas,
            bonuses,
        }
    }
}

impl Ranker for BlendRanker {
    fn rank(&mut self, positions: &[Chess]) -> Result<Vec<Vec<Move>>, EngineError> {
        Ok(self
            .rank_each(positions)?
            .into_iter()
            .map(|each| each.into_iter().next().unwrap_or_default())
            .collect())
    }

    fn agents(&self) -> usize {
        self.lambdas.len() * self.bonuses.len()
    }

    fn rank_each(&mut self, positions: &[Chess]) -> Result<Vec<Vec<Vec<Move>>>, EngineError> {
        positions
            .iter()
            .map(|pos| {
                self.blend.new_game()?;
                let game = Game::new(pos.clone());
                Ok(self
                    .blend
                    .sweep(&game, &self.limits, &self.lambdas, &self.bonuses)
                    .into_iter()
                    .map(|m| m.into_iter().collect())
                    .collect())
            })
            .collect()
    }
}

/// Top-1 by the piece that moved.
#[derive(Debug, Default, Clone, Copy, PartialEq, Serialize)]
pub struct PieceAccuracy {
    /// Pawn moves.
    pub p: f64,
    /// Knight moves.
    pub n: f64,
    /// Bishop moves.
    pub b: f64,
    /// Rook moves.
    pub r: f64,
    /// Queen moves.
    pub q: f64,
    /// King moves (castling included).
    pub k: f64,
}

/// What [`match_moves`] found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchReport {
    /// Positions scored.
    pub positions: usize,
    /// Positions where the agent gave a move.
    pub answered: usize,
    /// Share whose first move is the one played (no move counts as a miss).
    pub top1: f64,
    /// Share whose move played is among the first three; `None` when the agent gives
    /// one move only.
    pub top3: Option<f64>,
    /// Share whose first move starts from the played move's square.
    pub from_accuracy: f64,
    /// Top-1 by the piece that moved.
    pub piece_accuracy: PieceAccuracy,
}

#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    positions: usize,
    answered: usize,
    top1: usize,
    top3: usize,
    /// Positions where three or more moves were ranked.
    ranked3: usize,
    from: usize,
    by_role: [(usize, usize); 6],
}

impl Tally {
    fn add(&mut self, pos: &Chess, played: &Move, ranked: &[Move]) {
        self.positions += 1;
        self.answered += usize::from(!ranked.is_empty());
        let hit = ranked.first() == Some(played);
        self.top1 += usize::from(hit);
        if ranked.len() >= 3 || ranked.len() == pos.legal_moves().len() {
            self.ranked3 += 1;
        }
        self.top3 += usize::from(ranked.iter().take(3).any(|m| m == played));
        self.from += usize::from(ranked.first().and_then(|m| m.from()) == played.from());
        let role = pos
            .board()
            .role_at(played.from().unwrap_or(played.to()))
            .unwrap_or(Role::Pawn);
        let slot = &mut self.by_role[role as usize - 1];
        slot.0 += usize::from(hit);
        slot.1 += 1;
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.positions += other.positions;
        self.answered += other.answered;
        self.top1 += other.top1;
        self.top3 += other.top3;
        self.ranked3 += other.ranked3;
        self.from += other.from;
        for (s, x) in self.by_role.iter_mut().zip(other.by_role) {
            s.0 += x.0;
            s.1 += x.1;
        }
        self
    }

    fn report(&self) -> MatchReport {
        let share = |hits: usize, n: usize| if n == 0 { 0.0 } else { hits as f64 / n as f64 };
        let role = |i: usize| share(self.by_role[i].0, self.by_role[i].1);
        MatchReport {
            positions: self.positions,
            answered: self.answered,
            top1: share(self.top1, self.positions),
            top3: (self.ranked3 == self.positions).then(|| share(self.top3, self.positions)),
            from_accuracy: share(self.from, self.positions),
            piece_accuracy: PieceAccuracy {
                p: role(0),
                n: role(1),
                b: role(2),
                r: role(3),
                q: role(4),
                k: role(5),
            },
        }
    }
}

/// Positions handed to a ranker at once.
const BATCH: usize = 64;

/// Scores the rankers made by `make` (one per thread, `threads` of them; 0: one per
/// core) on `positions`, each a position and the move played there.
///
/// # Errors
///
/// The first [`EngineError`] of a ranker (made or ranking).
pub fn match_moves<R: Ranker>(
    positions: &[(Chess, Move)],
    threads: usize,
    make: impl Fn() -> Result<R, EngineError> + Sync,
) -> Result<MatchReport, EngineError> {
    let mut reports = match_moves_each(positions, threads, make)?;
    Ok(if reports.is_empty() {
        Tally::default().report()
    } else {
        reports.swap_remove(0)
    })
}

/// [`match_moves`] for each agent of the rankers ([`Ranker::rank_each`]), in their
/// order.
///
/// # Errors
///
/// The first [`EngineError`] of a ranker (made or ranking).
pub fn match_moves_each<R: Ranker>(
    positions: &[(Chess, Move)],
    threads: usize,
    make: impl Fn() -> Result<R, EngineError> + Sync,
) -> Result<Vec<MatchReport>, EngineError> {
    let threads = match threads {
        0 => thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let next = AtomicUsize::new(0);
    let results: Vec<Result<Vec<Tally>, EngineError>> = thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(positions.len().div_ceil(BATCH)).max(1))
            .map(|_| {
                scope.spawn(|| -> Result<Vec<Tally>, EngineError> {
                    let mut ranker = make()?;
                    let mut tallies = vec![Tally::default(); ranker.agents()];
                    loop {
                        let start = next.fetch_add(BATCH, Ordering::Relaxed);
                        if start >= positions.len() {
                            return Ok(tallies);
                        }
                        let batch = &positions[start..(start + BATCH).min(positions.len())];
                        let boards: Vec<Chess> = batch.iter().map(|(pos, _)| pos.clone()).collect();
                        for ((pos, played), each) in batch.iter().zip(ranker.rank_each(&boards)?) {
                            for (tally, ranked) in tallies.iter_mut().zip(each) {
                                tally.add(pos, played, &ranked);
                            }
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join().unwrap_or_else(|_| {
                    Err(EngineError::Dead {
                        engine: "a scoring thread (it panicked)".into(),
                    })
                })
            })
            .collect()
    });
    let mut total: Vec<Tally> = Vec::new();
    for tallies in results {
        let tallies = tallies?;
        if total.is_empty() {
            total = vec![Tally::default(); tallies.len()];
        }
        for (t, x) in total.iter_mut().zip(tallies) {
            *t = t.merge(x);
        }
    }
    Ok(total.iter().map(Tally::report).collect())
}
