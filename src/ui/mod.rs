//! The trainer window (egui/eframe): the only part of the library that names egui.
//!
//! The window holds no chess or file logic: it draws the headless trainer core
//! ([`crate::coach`]) and turns clicks into [`command::Command`]s for it. No panel names
//! the app: each reads the coach (or its own small state) and pushes commands.
//!
//! - [`native`]: [`run`] opens the window (or takes a screenshot and exits).
//! - [`app`]: [`TrainerApp`], the window's own state, the layout and the frame.
//! - [`command`]: the actions' keyboard shortcuts and buttons.
//! - Panels, one file each: `top_bar`, `style_panel` (Style tab; its Board section is
//!   `board_look_panel`), `book_panel` (Book
//!   tab), `progress_panel` (Progress tab), [`coverage_panel`] (Coverage tab),
//!   `board_panel`, `drill_panel` (with `verdict_panel`: the engine's verdict on a
//!   wrong move), `move_box` (a move typed on the keyboard, in the drill and play-on
//!   panels),
//!   `chart_panel`, `import_report` (report window, "read as" dialog, import progress),
//!   `profile_panel` (profiles and the adaptive opponent, in the Style tab),
//!   `learner_style_panel` (the learner's style, in the Progress tab),
//!   `play_on_panel` (playing on against an engine: board with [`eval_bar`], the
//!   game, the engine's line).
//! - Widgets: [`board`] (the chess board; `board_paint` paints it, [`board_theme`] has
//!   its colours and the look every board uses), [`chart`] (the next-move chart), `pieces`.
//! - Help: `help_menu` (the top bar's Help menu: the user guide, About), `about` (the
//!   About window), `build_info` (version, commit, credits), `open_path` (the system's
//!   opener; where the guide is installed).
//! - Runtime helpers: `dialogs` (file dialogs, path field), `paste_button` (asks the
//!   window for the clipboard), `screenshot`, `shutdown`
//!   (SIGTERM closes and saves), `timings`, [`sounds`] (plays the coach's sounds, opening
//!   the device on the first; the mute switch) with `synth` (the sounds, synthesised).

mod about;
pub mod app;
pub mod board;
mod board_look_panel;
mod board_paint;
mod board_panel;
pub mod board_theme;
mod board_view;
mod book_panel;
mod browse;
mod build_info;
mod chapters_panel;
pub mod chart;
mod chart_panel;
mod check_panel;
pub mod command;
pub mod coverage_panel;
mod dialogs;
mod drill_panel;
mod error;
pub mod eval_bar;
mod explorer_build_panel;
mod explorer_game;
mod explorer_panel;
mod explorer_rows;
mod fetch_panel;
mod folding;
mod help_menu;
pub mod import_report;
mod learner_style_panel;
mod make_book_panel;
mod mistakes_elsewhere;
mod move_box;
mod move_tree;
pub mod native;
mod open_path;
mod opening_search;
mod optimize_panel;
mod paste_button;
pub mod pieces;
mod play_on_panel;
mod play_on_settings;
mod profile_panel;
mod progress_panel;
mod repertoire_missing;
mod repertoire_panel;
mod repertoires_panel;
mod review_panel;
mod review_session;
mod screenshot;
mod settings_notice;
mod shutdown;
mod side_question;
pub mod sounds;
mod spar_panel;
pub mod style_panel;
mod synth;
mod timings;
mod top_bar;
mod verdict_panel;
mod welcome;

pub use crate::coach::format;
pub use app::TrainerApp;
pub use native::{RunOptions, UiError, run};
pub use settings_notice::setting_label;
