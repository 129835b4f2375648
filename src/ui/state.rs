//! The settings that outlive the window (saved by eframe between runs).
//!
//! Runtime state (the drill, the board selection, a running exploration) lives in
//! [`crate::ui::app::TrainerApp`]; only what the user chose is persisted here, as in
//! egui_demo_app's `State` with `#[serde(default)]`, so that a settings file from an
//! older version still loads.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::board::Orientation;
use crate::book::LineFilter;
use crate::sampler::Style;

/// The key under which eframe stores the [`Settings`].
pub const SETTINGS_KEY: &str = "hastings-settings";

/// The side the learner plays (serialisable, unlike `shakmaty::Color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Side {
    /// The learner plays White.
    #[default]
    White,
    /// The learner plays Black.
    Black,
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

impl From<Color> for Side {
    fn from(color: Color) -> Side {
        match color {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// What the user chose, persisted between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The learner's colour.
    pub learner: Side,
    /// How the computer's replies are steered.
    pub style: Style,
    /// How many lines "Explore" samples.
    pub iterations: u32,
    /// The most plies an explored line plays.
    pub ply_limit: u32,
    /// The seed typed by the user; empty means a random seed.
    pub seed: String,
    /// How long the computer waits before replying, in milliseconds.
    pub reply_delay_ms: u32,
    /// Whether the book moves are drawn as arrows on the board.
    pub show_arrows: bool,
    /// Which side sits at the bottom of the board (`None`: the learner's side).
    pub orientation: Option<Orientation>,
    /// Which sources the book is built from, and the filters.
    pub book: BookChoice,
}

/// How a remembered PGN file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum FileMode {
    /// Decide from the file (a variation or an open result means a repertoire).
    #[default]
    Auto,
    /// Every variation is a line of the learner's repertoire.
    Repertoire,
    /// A game collection: one line per game, cut at a ply limit.
    Games,
}

/// A PGN file the user loaded, re-imported at the next start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BookFile {
    /// Where it is.
    pub path: PathBuf,
    /// How it is read (the mode chosen when it was opened).
    pub mode: FileMode,
    /// Whether its lines are part of the book.
    pub enabled: bool,
    /// Its size in bytes when it was loaded, to notice a changed file.
    pub size: u64,
    /// Its modification time (seconds since 1970) when it was loaded.
    pub modified: Option<u64>,
}

impl Default for BookFile {
    fn default() -> BookFile {
        BookFile {
            path: PathBuf::new(),
            mode: FileMode::Auto,
            enabled: true,
            size: 0,
            modified: None,
        }
    }
}

/// The sources and filters the book is built from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BookChoice {
    /// Whether the embedded ECO list is part of the book.
    pub eco: bool,
    /// The loaded PGN files, in the order they were loaded.
    pub files: Vec<BookFile>,
    /// The subsample filters (minimum moves per side, ECO volumes, name); its `sources`
    /// field is not used (the checkboxes above decide).
    pub filter: LineFilter,
}

impl Default for BookChoice {
    fn default() -> BookChoice {
        BookChoice {
            eco: true,
            files: Vec::new(),
            filter: LineFilter::default(),
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            learner: Side::White,
            style: Style::neutral(),
            iterations: 1000,
            ply_limit: 40,
            seed: String::new(),
            reply_delay_ms: 300,
            show_arrows: false,
            orientation: None,
            book: BookChoice::default(),
        }
    }
}

impl Settings {
    /// The seed the user typed, if it is a number.
    pub fn fixed_seed(&self) -> Option<u64> {
        self.seed.trim().parse().ok()
    }
}
