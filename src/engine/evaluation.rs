//! Which static evaluation a search uses: the built-in tapered one
//! ([`eval`](super::eval)) or the tuned one of seed 003 (Klevansky, Ostroff and Offen,
//! "Determining the Optimal Tradeoff for building Chess Playing Agents: Genetically Tuned
//! vs. Neural Features", Technion, 2023; `ARCHITECTURE.md`, References)
//! ([`tuned`](super::tuned)) with a set of weights.

use std::sync::Arc;

use shakmaty::{Chess, Role};

use super::eval::evaluate;
use super::pst::{MG_VALUE, role_index};
use super::tuned::TunedEval;

/// A static evaluation, from the side to move's point of view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// Material and piece-square tables, tapered by phase.
    #[default]
    Tapered,
    /// Seed 003's 37 features with tuned weights.
    Tuned(Arc<TunedEval>),
}

impl Evaluation {
    /// The score of `pos` for the side to move.
    #[inline]
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        match self {
            Evaluation::Tapered => evaluate(pos),
            Evaluation::Tuned(eval) => eval.evaluate(pos),
        }
    }

    /// What capturing a piece of `role` gains at most, roughly (delta pruning).
    #[inline]
    pub fn piece_value(&self, role: Role) -> i32 {
        match self {
            Evaluation::Tapered => MG_VALUE[role_index(role)],
            Evaluation::Tuned(eval) => eval.piece_value(role),
        }
    }
}
