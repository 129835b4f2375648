//! Hastings: a chess opening trainer.
//!
//! The opening book is a graph of positions ([`book`]): every opening line is replayed
//! into 8×8 board matrices, and identical positions from different lines are one node.
//! The computer's replies come from a weighted Metropolis–Hastings sampler
//! ([`sampler`]) steered by a [`sampler::Style`]. A drill is a [`trainer::Session`];
//! the window lives in `ui`.
//!
//! Dependency direction: `ui → trainer → sampler → book`.

pub mod book;
pub mod cli;
pub mod engine;
pub mod sampler;
pub mod trainer;
pub mod ui;
pub mod workspace;
