//! What the learner has drilled: attempts and mistakes per position, completions per line,
//! and the last lines drilled from the start (for the learner's style).
//!
//! Positions are keyed by EPD strings (FEN without the move counters) and lines by
//! title, never by a library's hash, so saved progress survives upgrades. This module
//! only turns progress into text and back; [`crate::workspace::store`] writes it to disk.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use shakmaty::fen::Epd;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};
use thiserror::Error;

/// The learner's record at one position (where it was the learner's turn).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionRecord {
    /// How often the learner moved here (each try counts).
    pub attempts: u32,
    /// How many of those tries left the book.
    pub mistakes: u32,
}

/// Everything the learner has drilled.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// The format version, for later migrations.
    pub version: u32,
    /// Per position (EPD), the learner's attempts and mistakes.
    pub positions: BTreeMap<String, PositionRecord>,
    /// Per line title (`"C60 Ruy Lopez"`), how often it was played to its end.
    pub lines_completed: BTreeMap<String, u32>,
    /// The last [`STYLE_LINES_KEPT`] lines drilled to their end from the standard
    /// position, oldest first: what the learner's style is estimated from.
    pub style_lines: Vec<DrilledLine>,
}

/// How many drilled lines the progress keeps for the learner's style.
pub const STYLE_LINES_KEPT: usize = 1000;

/// A line drilled to its end from the standard position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrilledLine {
    /// Whether the learner played White.
    pub white: bool,
    /// The moves in UCI, separated by spaces (`"e2e4 e7e5 g1f3"`).
    pub moves: String,
}

impl DrilledLine {
    /// The learner's colour and the moves, replayed from the standard position; `None`
    /// when a move does not parse or is illegal (a hand-edited file).
    pub fn replay(&self) -> Option<(Color, Vec<Move>)> {
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for token in self.moves.split_whitespace() {
            let mv = UciMove::from_ascii(token.as_bytes())
                .ok()?
                .to_move(&pos)
                .ok()?;
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        Some((Color::from_white(self.white), moves))
    }
}

/// Progress text that could not be read.
#[derive(Debug, Error)]
#[error("progress data is not valid: {0}")]
pub struct ProgressError(#[from] ron::error::SpannedError);

/// Summary numbers for the progress panel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProgressSummary {
    /// Distinct lines played to their end.
    pub lines_drilled: usize,
    /// Lines played to their end, counting repeats.
    pub completions: u32,
    /// All attempts.
    pub attempts: u32,
    /// All mistakes.
    pub mistakes: u32,
}

impl ProgressSummary {
    /// Mistakes per attempt, 0 when there were none.
    pub fn mistake_rate(&self) -> f64 {
        if self.attempts == 0 {
            0.0
        } else {
            f64::from(self.mistakes) / f64::from(self.attempts)
        }
    }
}

/// The key of a position: its EPD.
pub fn position_key(pos: &Chess) -> String {
    Epd::from_position(pos, EnPassantMode::Legal).to_string()
}

impl Progress {
    /// The current format version.
    pub const VERSION: u32 = 1;

    /// Empty progress.
    pub fn new() -> Progress {
        Progress {
            version: Progress::VERSION,
            ..Progress::default()
        }
    }

    /// Records a learner's try at `pos`: a book move, or a mistake.
    pub fn record_attempt(&mut self, pos: &Chess, mistake: bool) {
        let r = self.positions.entry(position_key(pos)).or_default();
        r.attempts += 1;
        if mistake {
            r.mistakes += 1;
        }
    }

    /// Takes back a mistake recorded at `pos` (the move was found as good as the
    /// book's); the attempt stays counted.
    pub fn forgive_mistake(&mut self, pos: &Chess) {
        if let Some(r) = self.positions.get_mut(&position_key(pos)) {
            r.mistakes = r.mistakes.saturating_sub(1);
        }
    }

    /// Records that a line was played to its end.
    pub fn record_completion(&mut self, title: &str) {
        *self.lines_completed.entry(title.to_owned()).or_default() += 1;
    }

    /// Records a line drilled to its end from the standard position (legal `moves`,
    /// the learner playing `learner`), forgetting the oldest beyond [`STYLE_LINES_KEPT`].
    pub fn record_style_line(&mut self, moves: &[Move], learner: Color) {
        let moves: Vec<String> = moves
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        self.style_lines.push(DrilledLine {
            white: learner == Color::White,
            moves: moves.join(" "),
        });
        let excess = self.style_lines.len().saturating_sub(STYLE_LINES_KEPT);
        self.style_lines.drain(..excess);
    }

    /// The record of one position.
    pub fn position(&self, pos: &Chess) -> PositionRecord {
        self.positions
            .get(&position_key(pos))
            .copied()
            .unwrap_or_default()
    }

    /// Totals for the progress panel.
    pub fn summary(&self) -> ProgressSummary {
        ProgressSummary {
            lines_drilled: self.lines_completed.len(),
            completions: self.lines_completed.values().sum(),
            attempts: self.positions.values().map(|r| r.attempts).sum(),
            mistakes: self.positions.values().map(|r| r.mistakes).sum(),
        }
    }

    /// The positions most often missed: (EPD, record), most mistakes first.
    pub fn most_missed(&self, n: usize) -> Vec<(&str, PositionRecord)> {
        let mut v: Vec<(&str, PositionRecord)> = self
            .positions
            .iter()
            .filter(|(_, r)| r.mistakes > 0)
            .map(|(k, r)| (k.as_str(), *r))
            .collect();
        v.sort_by(|a, b| b.1.mistakes.cmp(&a.1.mistakes).then(a.0.cmp(b.0)));
        v.truncate(n);
        v
    }

    /// The progress as RON text.
    ///
    /// # Errors
    ///
    /// The serialiser's error when the progress cannot be written as RON; nothing is
    /// returned then, so a caller never saves an empty text over the learner's file.
    pub fn to_ron(&self) -> Result<String, ron::Error> {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
    }

    /// Reads progress from RON text.
    ///
    /// # Errors
    ///
    /// [`ProgressError`] when the text is not valid progress data.
    pub fn from_ron(text: &str) -> Result<Progress, ProgressError> {
        Ok(ron::from_str(text)?)
    }
}

/// The position a progress key (its EPD) stands for; `None` for a key that is no
/// standard-chess position (a file edited by hand).
pub fn position_of(epd: &str) -> Option<Chess> {
    Epd::from_ascii(epd.as_bytes())
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Position, san::San};

    #[test]
    fn progress_round_trips_through_text() {
        let mut p = Progress::new();
        let mut pos = Chess::default();
        p.record_attempt(&pos, false);
        pos.play_unchecked(San::from_ascii(b"e4").unwrap().to_move(&pos).unwrap());
        p.record_attempt(&pos, true);
        p.record_attempt(&pos, false);
        p.record_completion("C60 Ruy Lopez");
        let back = Progress::from_ron(&p.to_ron().unwrap()).unwrap();
        assert_eq!(back, p);
        assert_eq!(
            back.position(&pos),
            PositionRecord {
                attempts: 2,
                mistakes: 1
            }
        );
        let s = back.summary();
        assert_eq!((s.lines_drilled, s.attempts, s.mistakes), (1, 3, 1));
        assert!((s.mistake_rate() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(
            back.most_missed(5)[0].0,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
        );
    }

    #[test]
    fn garbage_is_an_error_not_empty_progress() {
        assert!(Progress::from_ron("(positions: {\"x\": (attempts: -1)})").is_err());
        assert!(Progress::from_ron("\u{0}\u{1}binary").is_err());
    }
}
