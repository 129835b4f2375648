//! Hastings: a chess opening trainer.
//!
//! The opening book is a graph of positions ([`book`]): every opening line is replayed
//! into 8×8 board matrices, and identical positions from different lines are one node.
//! The computer's replies come from a weighted Metropolis–Hastings sampler
//! ([`sampler`]) steered by a [`sampler::Style`]. A drill is a [`trainer::Session`].
//! The [`workspace`] holds the learner's files and the book's sources; the [`coach`] is
//! the headless trainer the window ([`ui`]) draws and the command line ([`cli`]) shares
//! its workflows with. Long work runs as a [`job`] with progress and cancel.
//!
//! Imports only go down: [`clock`], [`job`], [`genetic`] < [`book`] < [`engine`], [`sampler`],
//! [`review`] < [`trainer`] < [`workspace`] < [`coach`] < [`cli`], [`ui`]. Only `ui`
//! names egui, and `book`, `sampler` and `trainer` open no files. [`clock`] gives now
//! and the local time zone; [`genetic`] is the one genetic algorithm (styles are fitted
//! with it, the seed-003 evaluation is tuned with it).

pub mod book;
pub mod cli;
pub mod clock;
pub mod coach;
pub mod engine;
pub mod genetic;
pub mod job;
pub mod review;
pub mod sampler;
pub mod trainer;
pub mod ui;
pub mod workspace;
