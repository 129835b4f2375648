//! The trainer window (egui/eframe). The only part of the library that names egui.
//!
//! - [`board`]: the chess board widget.
//! - [`pieces`]: the embedded piece artwork.

pub mod board;
pub mod pieces;
