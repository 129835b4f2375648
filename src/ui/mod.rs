//! The trainer window (egui/eframe): the only part of the library that names egui.
//!
//! - [`app`]: the window, [`TrainerApp`], and [`run`] (also the `--screenshot` mode).
//! - [`board`]: the chess board widget, [`board::board_ui`].
//! - [`pieces`]: the embedded cburnett piece artwork.
//! - [`style_panel`]: the five style parameters, τ, presets, exploration settings.
//! - [`chart`]: the next-move chart (exact and sampled probabilities).
//! - [`command`]: what the user asked for, applied after drawing.
//! - [`state`]: the settings saved between runs.

pub mod app;
pub mod board;
pub mod chart;
pub mod command;
pub mod pieces;
pub mod state;
pub mod style_panel;

pub use app::{RunOptions, TrainerApp, UiError, run};
