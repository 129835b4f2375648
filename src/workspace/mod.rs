//! What the command line and the window share: the book's sources (ECO and the files
//! the learner loaded), rebuilding the graph, export, the learner's data on disk, and
//! long work run as [`job::Job`]s with progress and cancel.
//!
//! The workspace opens files; the layers below it (`book`, `sampler`, `trainer`) never do.
//! It knows no egui: the window drives it and draws what it reports.

pub mod job;
pub mod polyglot;
pub mod polyglot_make;
pub mod store;
