//! Which line to learn next: the learner's positions where learning pays most.
//!
//! A position's priority is `reach × (1 − recall) × stake`:
//!
//! - **reach**: how often a drill (and a game against the book) meets it, exactly, from
//!   the coverage code;
//! - **recall**: the review schedule's probability that the learner remembers the
//!   repertoire's move there now (FSRS retrievability; 0 for a position never reviewed);
//! - **stake**: what the line is worth, in pawns: the analysed score after the
//!   repertoire's move from the learner's side, and at least one pawn, so a line that
//!   wins material (a trap the learner has prepared) counts for more than one that keeps
//!   equality, and every line counts. Without an analysis the stake is one pawn.
//!
//! Positions whose repertoire move the check reports as losing are left out: they need
//! mending before learning.

use shakmaty::{Chess, Move, Position};

use super::store::AnalysisStore;
use crate::trainer::coverage::Exposure;

/// The least a line is worth, in centipawns.
pub const MIN_STAKE_CP: i32 = 100;

/// A position worth learning.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnNext {
    /// The likeliest moves from the standard position to it.
    pub moves: Vec<Move>,
    /// The position, the learner to move.
    pub position: Chess,
    /// The repertoire's move there (the first, where it has several).
    pub answer: Move,
    /// How often a drill meets it.
    pub reach: f64,
    /// The probability that the learner remembers the move now.
    pub recall: f64,
    /// What the line is worth, in centipawns (≥ [`MIN_STAKE_CP`]).
    pub stake_cp: i32,
    /// `reach × (1 − recall) × stake` (stake in pawns).
    pub priority: f64,
}

/// The `n` learner positions of `exposure` where learning pays most, highest priority
/// first. `recall` gives the probability of recall at a position (`None`: never
/// reviewed); `store` the analyses of a check, if one ran; `losing` says whether the
/// check reports the repertoire's move at a position as losing.
pub fn learn_next(
    exposure: &Exposure,
    recall: &dyn Fn(&Chess) -> Option<f64>,
    store: Option<&dyn AnalysisStore>,
    losing: &dyn Fn(&Chess, Move) -> bool,
    n: usize,
) -> Vec<LearnNext> {
    let learner = exposure.options().learner;
    let mut out: Vec<LearnNext> = exposure
        .positions()
        .iter()
        .filter(|p| p.learner_to_move && p.reach > 0.0)
        .filter_map(|p| {
            let &answer = p.repertoire.first()?;
            if p.repertoire.iter().any(|&m| losing(&p.position, m)) {
                return None;
            }
            let recall = recall(&p.position).unwrap_or(0.0).clamp(0.0, 1.0);
            let stake_cp = store
                .and_then(|s| {
                    let mut after = p.position.clone();
                    after.play_unchecked(answer);
                    let a = s.get(&after)?;
                    Some(a.score_for(learner, after.turn()).to_centipawns())
                })
                .map_or(MIN_STAKE_CP, |cp| cp.clamp(MIN_STAKE_CP, 1000));
            Some(LearnNext {
                moves: p.moves.clone(),
                position: p.position.clone(),
                answer,
                reach: p.reach,
                recall,
                stake_cp,
                priority: p.reach * (1.0 - recall) * f64::from(stake_cp) / 100.0,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        b.priority
            .total_cmp(&a.priority)
            .then(a.moves.len().cmp(&b.moves.len()))
    });
    out.truncate(n);
    out
}
