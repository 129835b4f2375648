//! Hastings: a chess opening trainer.
//!
//! The opening book is a graph of positions ([`book`]): every opening line is replayed
//! into 8×8 board matrices, and identical positions from different lines are one node.
//! The computer's replies come from a weighted Metropolis–Hastings sampler
//! ([`sampler`]) steered by a [`sampler::Style`]. A drill is a [`trainer::Session`].
//! The [`workspace`] holds the learner's files and the book's sources, and the
//! workflows that the command line ([`cli`]) and the window share (reading PGN in parts,
//! making books and explorer indexes, comparing games, saving a repertoire file); the
//! [`coach`] is the headless trainer the window ([`ui`]) draws. The command line calls
//! the workspace and the core modules itself (of the coach it takes only the board's
//! look, one of the window's options). Long work runs as a [`job`] with progress and
//! cancel. `ARCHITECTURE.md` is the map, with the research texts the code follows.
//!
//! Imports only go down: [`clock`], [`job`], [`genetic`] < [`book`] < [`engine`], [`sampler`],
//! [`review`] < [`trainer`] < [`workspace`] < [`coach`] < [`cli`], [`ui`]. Only `ui`
//! names egui, and `book`, `sampler` and `trainer` open no files. [`clock`] gives now
//! and the local time zone; [`genetic`] is the one genetic algorithm (styles are fitted
//! with it, and it tunes seed 003's evaluation: the genetically tuned evaluation of
//! Klevansky, Ostroff and Offen, cited in `ARCHITECTURE.md`, References).

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
