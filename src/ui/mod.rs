//! The trainer window (egui/eframe): the only part of the library that names egui.
//!
//! The window holds no chess or file logic: it draws the drill ([`crate::trainer`]) and
//! the book's sources ([`crate::workspace`]) and turns clicks into [`command::Command`]s.
//!
//! - [`native`]: [`run`] opens the window (or takes a screenshot and exits).
//! - [`app`]: [`TrainerApp`], the runtime state and what it does each frame.
//! - [`state`]: the settings saved between runs.
//! - [`command`]: what the user asked for, applied after drawing.
//! - Panels, one file each: `top_bar`, `style_panel` (Style tab), `book_panel` (Book
//!   tab), `progress_panel` (Progress tab), [`coverage_panel`] (Coverage tab, its work
//!   in [`coverage`]),
//!   `board_panel`, `drill_panel`,
//!   `chart_panel`, `import_report` (report window, "read as" dialog, import progress),
//!   `profile_panel` (profiles and the adaptive opponent, in the Style tab),
//!   `learner_style_panel` (the learner's style, in the Progress tab),
//!   `play_on_panel` (playing on against an engine: board with [`eval_bar`], the
//!   game, the engine's line; its state and commands in [`play_on`]).
//! - Widgets: [`board`] (the chess board), [`chart`] (the next-move chart), `pieces`.
//! - Runtime helpers: `dialogs` (file dialogs, path field), `explore` (sampling on a
//!   thread), `screenshot`, `shutdown` (SIGTERM closes and saves), `timings`, `format`.

pub mod app;
mod apply;
pub mod board;
mod board_panel;
mod book_panel;
pub mod chart;
mod chart_panel;
pub mod command;
pub mod coverage;
pub mod coverage_panel;
mod dialogs;
mod drill_panel;
pub mod eval_bar;
mod explore;
pub mod format;
pub mod import_report;
mod layout;
mod learner_style_panel;
mod make_book_panel;
pub mod native;
mod optimize_panel;
pub mod pieces;
pub mod play_on;
mod play_on_panel;
mod profile_panel;
mod progress_panel;
pub mod review_mode;
mod review_panel;
mod screenshot;
mod shutdown;
pub mod state;
pub mod style_panel;
mod timings;
mod top_bar;

pub use app::TrainerApp;
pub use native::{RunOptions, UiError, progress_path, run};
