//! Hastings: a chess opening trainer.
//!
//! The opening book is a graph of positions ([`book`]): every opening line is replayed
//! into 8×8 board matrices, and identical positions from different lines are one node.
//! The computer's replies come from a weighted Metropolis–Hastings sampler
//! ([`sampler`]) steered by a [`sampler::Style`]. A drill is a [`trainer::Session`].
//! The [`workspace`] holds what the command line ([`cli`]) and the window ([`ui`])
//! share: the book's sources, jobs with progress and cancel, the learner's files.
//!
//! Dependency direction: `ui → trainer → sampler → book`, with `workspace` beside
//! `trainer`; only `ui` names egui, and `book`, `sampler` and `trainer` open no files.
//! Below them all, [`clock`] gives now and the local time zone.

pub mod book;
pub mod cli;
pub mod clock;
pub mod engine;
pub mod review;
pub mod sampler;
pub mod trainer;
pub mod ui;
pub mod workspace;
