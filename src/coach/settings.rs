//! The settings that outlive the window (saved by eframe between runs).
//!
//! Runtime state (the drill, a running exploration) lives in the [`Coach`](super::Coach);
//! only what the user chose is persisted here, as in
//! egui_demo_app's `State` with `#[serde(default)]`, so that a settings file from an
//! older version still loads.

use super::board_look::BoardLook;
pub use crate::book::Side;
use crate::sampler::Style;
use crate::workspace::BookChoice;
use serde::{Deserialize, Serialize};
use shakmaty::Color;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How the learner drills (saved in the settings; review mode is `coach::review`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum DrillMode {
    /// The computer replies by the book's shares and the style; nothing is graded.
    #[default]
    Free,
    /// Due and new cards are asked and graded; the computer steers toward them.
    Review,
    /// Only the cards with lapses and the positions with recorded mistakes.
    Mistakes,
}

impl DrillMode {
    /// The switch's label.
    pub const fn text(self) -> &'static str {
        match self {
            DrillMode::Free => "Free drill",
            DrillMode::Review => "Review",
            DrillMode::Mistakes => "Mistakes only",
        }
    }
}

/// The key under which eframe stores the [`Settings`].
pub const SETTINGS_KEY: &str = "hastings-settings";

/// Which of the window's foldable panels are shown (both, unless the learner folded one
/// away for a bigger board).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PanelsShown {
    /// The side panel: Style, Book, Progress, Coverage.
    pub side: bool,
    /// The chart under the board (the engine's line while playing on).
    pub chart: bool,
}

impl Default for PanelsShown {
    fn default() -> PanelsShown {
        PanelsShown {
            side: true,
            chart: true,
        }
    }
}

/// What the user chose, persisted between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Which of the foldable panels are shown.
    pub panels: PanelsShown,
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
    /// Which sources the book is built from, and the filters (the workspace owns them
    /// while the window runs; copied here to be saved).
    pub book: BookChoice,
    /// Whether the chart hides the learner's candidate moves while it is their turn in a
    /// drill (it shows them after the move, and always when exploring or viewing).
    pub hide_answer: bool,
    /// Whether the computer's moves glide to their squares.
    pub animate_moves: bool,
    /// The learner's name in PGN files: their games among the loaded files count for
    /// the learner-style panel.
    pub learner_name: String,
    /// The files opened and the games saved lately, the latest first (at most
    /// [`RECENT_FILES`]): the Book tab's **Recent files** menu.
    pub recent_files: Vec<std::path::PathBuf>,
    /// Whether the computer's style follows the learner's (the adaptive opponent).
    pub adaptive: bool,
    /// The engine to play on against after the book.
    pub play_on: super::play_on::engine::PlayOnSettings,
    /// How many plies the drill goes on past the book with the move predictor (0: off).
    pub past_book_plies: u32,
    /// The drill mode chosen last (free drill, review, mistakes only), taken up again
    /// at the next start when there is a review log.
    pub drill_mode: DrillMode,
    /// How the board looks: square colours, pieces, coordinates.
    pub board_look: BoardLook,
    /// Whether moves, captures, checks, mistakes and the end of a line make a sound.
    pub sounds: bool,
    /// Whether a move outside the book that the engine finds as good as the book's
    /// ("also good") is not counted as a mistake (nor, in review, as a lapse).
    pub alternatives_not_mistakes: bool,
    /// Whether an alternative of the learner's repertoire (a move after the main one
    /// at its position, or marked `[%hastings alt]`) is asked again with the main move
    /// named, rather than counted right with the main move named.
    pub alternatives_asked_again: bool,
    /// Whether a position where the repertoire has several moves of the learner's
    /// (not paused) is asked until every one of them is played.
    pub quiz_all_moves: bool,
    /// Whether, in a repertoire drill, the learner names every reply of the opponent's
    /// that the repertoire answers before the computer plays one.
    pub quiz_replies: bool,
    /// Blindfold training: whether the pieces are hidden from the position after
    /// Black's move [`Settings::hide_pieces_after`] of the line, shown again after a
    /// mistake until the next right move.
    pub hide_pieces: bool,
    /// The move N after which the pieces are hidden when [`Settings::hide_pieces`] is on
    /// (0: from the start); kept while it is off.
    pub hide_pieces_after: u32,
    /// Whether a move outside the book is judged by an engine (Stockfish when
    /// installed, else the built-in one), which analyses the book's moves while the
    /// learner thinks so that the verdict comes at once.
    pub explain_wrong_moves: bool,
    /// Whether review mode starts each card at its position (the lead-up moves played at
    /// once, as Chess Position Trainer jumps to the position) instead of from move 1.
    pub review_at_position: bool,
    /// New lines a day that "Learn new lines" teaches.
    pub new_lines_per_day: u32,
    /// How review answers are graded (after how many seconds a right answer is Hard).
    pub review_grade: crate::review::GradeSettings,
    /// Whether the chart and the wrong-move panel show what strong players are predicted
    /// to play at the position (the move predictor).
    pub show_human_moves: bool,
    /// The repertoire file the Repertoire tab had open, opened again at the next start
    /// (its unsaved edits offered first).
    #[serde(alias = "workshop_file")]
    pub repertoire_file: Option<PathBuf>,
    /// What the Repertoire tab's "Train this" drills.
    #[serde(alias = "workshop_train")]
    pub repertoire_train: RepertoireTrain,
    /// Whether the Repertoire tab's missing replies come from the Explorer tab's games
    /// (its index, source and filters) instead of the book, while an index is open.
    #[serde(alias = "workshop_explorer")]
    pub repertoire_explorer: bool,
    /// The Coverage tab's depth, gap threshold and "Your name" (whose games "Check my
    /// games…" compares).
    pub coverage: CoverageParams,
    /// The explorer index the Explorer tab had open, opened again at the next start
    /// (dropped, with a message, when it is gone).
    pub explorer_index: Option<PathBuf>,
    /// Whether the Explorer tab hides its moves while the learner is to answer in a
    /// free drill (review always hides them).
    pub explorer_hide_answer: bool,
    /// Whether the Explorer tab has the engine evaluate the position after each move.
    pub explorer_evals: bool,
    /// The explorers built in the window keep a tree for every player with at least
    /// this many games (0: none).
    pub explorer_players_min: u32,
}

/// What the Coverage tab computes: the depth, the threshold and whose games to compare
/// (the check and the repertoire's gaps use the depth and threshold too); saved with
/// the settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CoverageParams {
    /// The depth of the exposure, in plies.
    pub depth: u32,
    /// The gap threshold, in percent.
    pub threshold_percent: f64,
    /// The player whose games "Check my games…" compares (empty: the file's most
    /// frequent player).
    pub player: String,
}

impl Default for CoverageParams {
    fn default() -> CoverageParams {
        CoverageParams {
            depth: crate::trainer::coverage::DEFAULT_DEPTH,
            threshold_percent: crate::trainer::coverage::DEFAULT_THRESHOLD * 100.0,
            player: String::new(),
        }
    }
}

/// What "Train this" in the Repertoire tab drills: the chapters of each repertoire file
/// it leaves out, and the subtree it drills (taken up again at the next start).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RepertoireTrain {
    /// Per repertoire file, the titles of the chapters left out of the drill.
    pub left_out: BTreeMap<PathBuf, Vec<String>>,
    /// While the drill trains a subtree: the file and the moves to it (UCI, from the
    /// standard position).
    pub drilling: Option<(PathBuf, Vec<String>)>,
}

impl RepertoireTrain {
    /// Whether the chapter titled `title` of `file` is drilled.
    pub fn drills(&self, file: &Path, title: &str) -> bool {
        self.left_out
            .get(file)
            .is_none_or(|out| !out.iter().any(|t| t == title))
    }

    /// Leaves the chapter titled `title` of `file` out of the drill, or takes it in.
    pub fn toggle(&mut self, file: &Path, title: &str) {
        let out = self.left_out.entry(file.to_owned()).or_default();
        match out.iter().position(|t| t == title) {
            Some(i) => {
                out.remove(i);
            }
            None => out.push(title.to_owned()),
        }
        if out.is_empty() {
            self.left_out.remove(file);
        }
    }
}

/// How many files [`Settings::recent_files`] keeps.
pub const RECENT_FILES: usize = 8;

impl Settings {
    /// Puts `path` first in the recent files (once), dropping the oldest past
    /// [`RECENT_FILES`].
    pub fn remember_recent(&mut self, path: &std::path::Path) {
        self.recent_files.retain(|p| p != path);
        self.recent_files.insert(0, path.to_path_buf());
        self.recent_files.truncate(RECENT_FILES);
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            panels: PanelsShown::default(),
            learner: Side::White,
            style: Style::neutral(),
            iterations: 1000,
            ply_limit: 40,
            seed: String::new(),
            reply_delay_ms: 300,
            show_arrows: false,
            orientation: None,
            book: BookChoice::default(),
            hide_answer: true,
            animate_moves: true,
            learner_name: String::new(),
            recent_files: Vec::new(),
            adaptive: false,
            play_on: super::play_on::engine::PlayOnSettings::default(),
            past_book_plies: 0,
            drill_mode: DrillMode::Free,
            board_look: BoardLook::default(),
            sounds: true,
            alternatives_not_mistakes: false,
            alternatives_asked_again: false,
            quiz_all_moves: false,
            quiz_replies: false,
            hide_pieces: false,
            hide_pieces_after: 4,
            explain_wrong_moves: true,
            review_at_position: false,
            new_lines_per_day: crate::review::new_lines::DEFAULT_NEW_LINES_PER_DAY,
            review_grade: crate::review::GradeSettings::default(),
            show_human_moves: true,
            repertoire_file: None,
            repertoire_train: RepertoireTrain::default(),
            repertoire_explorer: false,
            coverage: CoverageParams::default(),
            explorer_index: None,
            explorer_hide_answer: false,
            explorer_evals: true,
            explorer_players_min: crate::workspace::explorer::DEFAULT_PLAYERS_MIN,
        }
    }
}

impl Settings {
    /// The seed the user typed, if it is a number.
    pub fn fixed_seed(&self) -> Option<u64> {
        self.seed.trim().parse().ok()
    }

    /// The move after which blindfold training hides the pieces, when it is on.
    pub fn blindfold(&self) -> Option<u32> {
        self.hide_pieces.then_some(self.hide_pieces_after)
    }
}

/// Which side sits at the bottom of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Orientation {
    /// White at the bottom (rank 1 at the bottom, file a on the left).
    #[default]
    WhiteBottom,
    /// Black at the bottom (rank 8 at the bottom, file h on the left).
    BlackBottom,
}

impl Orientation {
    /// The orientation with `color` at the bottom.
    pub fn from_color(color: Color) -> Orientation {
        match color {
            Color::White => Orientation::WhiteBottom,
            Color::Black => Orientation::BlackBottom,
        }
    }

    /// The other orientation.
    #[must_use]
    pub fn flipped(self) -> Orientation {
        match self {
            Orientation::WhiteBottom => Orientation::BlackBottom,
            Orientation::BlackBottom => Orientation::WhiteBottom,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::board_look::{BoardTheme, Coordinates, PieceSet};

    #[test]
    fn settings_with_a_board_look_round_trip_through_ron() {
        let settings = Settings {
            learner: Side::Black,
            board_look: BoardLook {
                theme: BoardTheme::Green,
                pieces: PieceSet::Chessnut,
                coordinates: Coordinates::Outside,
            },
            ..Settings::default()
        };
        let text = ron::ser::to_string_pretty(&settings, ron::ser::PrettyConfig::default())
            .unwrap_or_default();
        assert!(text.contains("board_look"), "{text}");
        let back: Result<Settings, _> = ron::from_str(&text);
        assert_eq!(back.ok(), Some(settings));
    }

    #[test]
    fn settings_saved_under_the_repertoire_editors_old_names_still_load() {
        // As round 3 wrote them (the editor was called the workshop then).
        let old = r#"{"workshop_file": "/home/me/white.pgn", "workshop_explorer": true,
            "workshop_train": {"left_out": {"/home/me/white.pgn": ["Sicilian"]}}}"#;
        let settings: Settings = serde_json::from_str(old).unwrap_or_else(|e| panic!("{e}"));
        let file = PathBuf::from("/home/me/white.pgn");
        assert_eq!(settings.repertoire_file.as_ref(), Some(&file));
        assert!(settings.repertoire_explorer);
        assert!(!settings.repertoire_train.drills(&file, "Sicilian"));
        assert!(settings.repertoire_train.drills(&file, "French"));
        // And they are saved under the new names.
        let text = serde_json::to_string(&settings).unwrap_or_default();
        assert!(
            text.contains("\"repertoire_file\"") && !text.contains("workshop"),
            "{text}"
        );
    }

    #[test]
    fn settings_saved_before_the_board_look_still_load_with_its_defaults() {
        // As an older version wrote them: no `board_look`.
        let old = "(learner: Black, iterations: 500, show_arrows: true, seed: \"7\")";
        let settings: Settings = ron::from_str(old).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(settings.learner, Side::Black);
        assert_eq!(settings.iterations, 500);
        assert!(settings.show_arrows);
        assert_eq!(settings.board_look, BoardLook::default());
        // A look saved with only some of its parts keeps the defaults for the others.
        let partial = "(board_look: (theme: Blue))";
        let settings: Settings = ron::from_str(partial).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(settings.board_look.theme, BoardTheme::Blue);
        assert_eq!(settings.board_look.pieces, PieceSet::Cburnett);
        assert_eq!(settings.board_look.coordinates, Coordinates::Inside);
    }
}
