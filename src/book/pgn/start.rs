//! A game's start position from its `[Variant]` and `[FEN]` tags: the one reader that
//! the PGN importer and the Polyglot book maker share, so that both accept and refuse
//! the same games, with the same [`StartIssue`].
//!
//! ```
//! use hastings::book::pgn::{StartIssue, start_from_tags};
//!
//! // No tags, a standard variant, or the standard position written as a FEN: the
//! // standard start (`None`).
//! assert_eq!(start_from_tags(None, None), Ok(None));
//! let standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
//! assert_eq!(start_from_tags(Some("Standard"), Some(standard)), Ok(None));
//! // Another position.
//! let start = start_from_tags(None, Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))?;
//! assert!(start.is_some());
//! // Other variants and Chess960 castling rights are refused.
//! assert_eq!(
//!     start_from_tags(Some("Atomic"), None),
//!     Err(StartIssue::Variant("Atomic".into()))
//! );
//! let chess960 = "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1";
//! assert_eq!(
//!     start_from_tags(None, Some(chess960)),
//!     Err(StartIssue::Chess960(chess960.into()))
//! );
//! # Ok::<(), StartIssue>(())
//! ```

use shakmaty::fen::{Epd, Fen};
use shakmaty::{CastlingMode, Chess, EnPassantMode};
use thiserror::Error;

/// Why a game's start position cannot be played: the game is skipped.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StartIssue {
    /// A `[Variant]` other than standard chess.
    #[error("variant `{0}` is not supported; game skipped")]
    Variant(String),
    /// The `[FEN]` is not a legal standard-chess position.
    #[error("bad FEN start position `{fen}`: {reason}; game skipped")]
    BadFen {
        /// The FEN as given (trimmed).
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A `[FEN]` whose castling rights only make sense in Chess960.
    #[error("Chess960 castling rights in the FEN `{0}`; Chess960 is not supported; game skipped")]
    Chess960(String),
}

/// Whether a `[Variant]` value names standard chess (case and spaces aside; an empty
/// value counts as standard).
fn is_standard_variant(variant: &str) -> bool {
    matches!(
        variant.trim().to_ascii_lowercase().as_str(),
        "" | "standard" | "chess" | "normal" | "from position"
    )
}

/// The start position of a game whose `[Variant]` and `[FEN]` tags (when present) say
/// `variant` and `fen`: `None` for the standard start (no FEN, or a FEN of the standard
/// position), else the position.
///
/// # Errors
///
/// [`StartIssue::Variant`] for a variant other than standard chess,
/// [`StartIssue::Chess960`] for a FEN that is legal only with Chess960 castling, and
/// [`StartIssue::BadFen`] for any other FEN that is not a legal standard-chess position.
pub fn start_from_tags(
    variant: Option<&str>,
    fen: Option<&str>,
) -> Result<Option<Chess>, StartIssue> {
    if let Some(variant) = variant
        && !is_standard_variant(variant)
    {
        return Err(StartIssue::Variant(variant.trim().to_owned()));
    }
    let Some(text) = fen else {
        return Ok(None);
    };
    let text = text.trim();
    let bad = |reason: String| StartIssue::BadFen {
        fen: text.to_owned(),
        reason,
    };
    let fen = Fen::from_ascii(text.as_bytes()).map_err(|e| bad(e.to_string()))?;
    match fen.clone().into_position::<Chess>(CastlingMode::Standard) {
        Ok(pos) => {
            let standard = Epd::from_position(&Chess::default(), EnPassantMode::Legal);
            if Epd::from_position(&pos, EnPassantMode::Legal) == standard {
                Ok(None)
            } else {
                Ok(Some(pos))
            }
        }
        Err(_) if fen.into_position::<Chess>(CastlingMode::Chess960).is_ok() => {
            Err(StartIssue::Chess960(text.to_owned()))
        }
        Err(e) => Err(bad(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Position;

    use super::*;

    #[test]
    fn standard_variants_and_the_standard_fen_are_the_standard_start() {
        for variant in ["", " Standard ", "chess", "NORMAL", "From Position"] {
            assert_eq!(start_from_tags(Some(variant), None), Ok(None), "{variant}");
        }
        let standard = " rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ";
        assert_eq!(start_from_tags(None, Some(standard)), Ok(None));
    }

    #[test]
    fn a_fen_start_is_its_position() {
        let pos = start_from_tags(
            Some("From Position"),
            Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"),
        )
        .unwrap()
        .unwrap();
        assert_eq!(pos.turn(), shakmaty::Color::Black);
        assert_eq!(pos.board().occupied().count(), 3);
    }

    #[test]
    fn chess960_castling_rights_are_told_apart_from_a_bad_fen() {
        let chess960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        assert_eq!(
            start_from_tags(None, Some(chess960)),
            Err(StartIssue::Chess960(chess960.into()))
        );
        let issue = start_from_tags(None, Some(" not a fen ")).unwrap_err();
        assert!(
            matches!(&issue, StartIssue::BadFen { fen, .. } if fen == "not a fen"),
            "{issue:?}"
        );
        // Parsed but illegal: two white kings.
        let illegal = "4k3/8/8/8/8/8/8/3KK3 w - - 0 1";
        assert!(matches!(
            start_from_tags(None, Some(illegal)),
            Err(StartIssue::BadFen { .. })
        ));
    }

    #[test]
    fn the_variant_is_checked_before_the_fen_and_named_as_written() {
        assert_eq!(
            start_from_tags(Some(" Crazyhouse "), Some("not a fen")),
            Err(StartIssue::Variant("Crazyhouse".into()))
        );
        assert_eq!(
            StartIssue::Variant("Atomic".into()).to_string(),
            "variant `Atomic` is not supported; game skipped"
        );
    }
}
