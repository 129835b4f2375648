//! The last engine check's report, kept in the data folder (`check-report.json`) so
//! that the Coverage tab shows it again after a restart: written atomically by the
//! check's own thread when it ends (`save`), read when the window starts (`load`;
//! a damaged file is kept aside and the learner told, as the progress is).
//!
//! Moves are saved in UCI from the standard position and positions as FEN, never as a
//! library's types, so a report survives upgrades.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::CheckView;
use crate::book::Side;
use crate::workspace::store::{StoreError, load_or_set_aside, write_atomic};

/// The report's file name in the data folder.
pub const CHECK_REPORT_FILE: &str = "check-report.json";

/// The report file in the data folder `dir`.
pub(crate) fn report_file(dir: &Path) -> PathBuf {
    dir.join(CHECK_REPORT_FILE)
}

/// What the file holds: when, for which side, and the report.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct SavedCheck {
    /// When the check ended, in the learner's time zone (`"2026-11-29 02:40"`).
    pub(crate) checked: String,
    /// The side the repertoire was checked for.
    pub(crate) learner: Side,
    /// The report.
    pub(crate) view: CheckView,
}

/// Writes `saved` to `path` atomically.
///
/// # Errors
///
/// [`StoreError::Encode`] when it cannot be written as JSON, otherwise as
/// [`write_atomic`]; an older report is intact then.
pub(crate) fn save(path: &Path, saved: &SavedCheck) -> Result<(), StoreError> {
    let text = serde_json::to_string(saved).map_err(|e| StoreError::encode(path, e))?;
    write_atomic(path, text.as_bytes())
}

/// The report saved at `path` (`None` without one), and a warning when the file did not
/// read (it is kept aside then, see [`load_or_set_aside`]).
pub(crate) fn load(path: &Path) -> (Option<SavedCheck>, Option<String>) {
    let loaded = load_or_set_aside(path, |text| {
        serde_json::from_str::<SavedCheck>(text).map(Some)
    });
    (loaded.value, loaded.warning)
}

/// The time now in the learner's time zone, as the report says when it was made.
pub(crate) fn now_text() -> String {
    crate::clock::Clock::local()
        .now_zoned()
        .strftime("%Y-%m-%d %H:%M")
        .to_string()
}

/// Moves from the standard position, saved as UCI (`["e2e4", "e7e5"]`).
pub(super) mod uci_line {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Chess, Move, Position};

    /// The moves as UCI.
    pub(crate) fn serialize<S: Serializer>(moves: &[Move], s: S) -> Result<S::Ok, S::Error> {
        let uci: Vec<String> = moves
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        uci.serialize(s)
    }

    /// The moves replayed from the standard position (an illegal one is an error).
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Move>, D::Error> {
        let uci = Vec::<String>::deserialize(d)?;
        let mut pos = Chess::default();
        let mut moves = Vec::with_capacity(uci.len());
        for token in &uci {
            let mv = UciMove::from_ascii(token.as_bytes())
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
                .ok_or_else(|| D::Error::custom(format!("{token} is not a legal move here")))?;
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        Ok(moves)
    }
}

/// A position, saved as FEN.
pub(super) mod fen {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, EnPassantMode};

    /// The position as FEN (with the en passant square even where no capture is legal,
    /// so the position read back is the same).
    pub(crate) fn serialize<S: Serializer>(pos: &Chess, s: S) -> Result<S::Ok, S::Error> {
        Fen::from_position(pos, EnPassantMode::Always)
            .to_string()
            .serialize(s)
    }

    /// The position the FEN describes (one that is not legal is an error).
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Chess, D::Error> {
        let text = String::deserialize(d)?;
        Fen::from_ascii(text.as_bytes())
            .map_err(|e| D::Error::custom(format!("{text}: {e}")))?
            .into_position(CastlingMode::Standard)
            .map_err(|e| D::Error::custom(format!("{text}: {e}")))
    }
}
