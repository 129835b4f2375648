//! Text from the clipboard, read as what it is: PGN games, a FEN, or a line of moves
//! in SAN from the start position (with or without move numbers), or else one clear
//! error line.
//!
//! The window calls [`read_paste`] on Ctrl+V, on a background job (`coach::book::paste`):
//! PGN games go to the same "read as" choice as a file (a repertoire or a games
//! source), a FEN or a move list sets the board.
//!
//! ```
//! use hastings::workspace::paste::{read_paste, Pasted};
//!
//! let Pasted::Moves { moves, .. } = read_paste("1. e4 e5 2. Nf3")? else { panic!() };
//! assert_eq!(moves.len(), 3);
//! let err = read_paste("Dear Sir, …").unwrap_err();
//! assert!(err.to_string().starts_with("the clipboard holds no PGN, FEN or moves"));
//! # Ok::<(), hastings::workspace::paste::PasteError>(())
//! ```

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};
use thiserror::Error;

use crate::book::movelist::{MoveListError, MoveListReason, parse_moves};
use crate::book::pgn::{ImportOptions, ImportReport, check_pgn};

/// What the clipboard holds.
#[derive(Debug, Clone)]
pub enum Pasted {
    /// PGN games (at least one with moves), to be read as a file is.
    Pgn {
        /// The text, as pasted.
        text: String,
        /// What reading it found: the games, the mode it decided (repertoire or
        /// games), the issues.
        report: ImportReport,
    },
    /// A position in FEN.
    Fen {
        /// The FEN, trimmed.
        fen: String,
        /// The position.
        position: Chess,
    },
    /// Moves from the start position.
    Moves {
        /// The moves, in order.
        moves: Vec<Move>,
        /// The position they reach.
        position: Chess,
    },
}

/// Why the clipboard's text is none of these (each one line).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PasteError {
    /// Nothing but white space.
    #[error("the clipboard is empty")]
    Empty,
    /// A FEN that is no legal position.
    #[error("the clipboard holds a FEN that cannot be used: {reason}")]
    Fen {
        /// Why.
        reason: String,
    },
    /// A line of moves with one that cannot be played.
    #[error("the clipboard holds moves, but {0}")]
    Moves(MoveListError),
    /// Neither PGN, nor a FEN, nor moves.
    #[error("the clipboard holds no PGN, FEN or moves (it starts with `{start}`)")]
    Garbage {
        /// Its first characters.
        start: String,
    },
}

/// Reads clipboard `text` (see the [module docs](self)).
///
/// # Errors
///
/// [`PasteError`] when the text is empty, a FEN of no legal position, moves with one
/// that cannot be played, or none of these.
pub fn read_paste(text: &str) -> Result<Pasted, PasteError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(PasteError::Empty);
    }
    if let Some(fen) = fen_like(trimmed) {
        let position = fen
            .parse::<Fen>()
            .map_err(|e| e.to_string())
            .and_then(|f| {
                f.into_position::<Chess>(CastlingMode::Standard)
                    .map_err(|e| e.to_string())
            })
            .map_err(|reason| PasteError::Fen { reason })?;
        return Ok(Pasted::Fen {
            fen: fen.to_owned(),
            position,
        });
    }
    let has_tags = trimmed.lines().any(|l| l.trim_start().starts_with('['));
    if !has_tags {
        match parse_moves(&Chess::default(), trimmed) {
            Ok(moves) if !moves.is_empty() => {
                let mut position = Chess::default();
                for m in &moves {
                    position.play_unchecked(*m);
                }
                return Ok(Pasted::Moves { moves, position });
            }
            // A move list that goes wrong after its first move, or a first move that is
            // a move but not of the start: the learner pasted moves.
            Err(e)
                if (e.ply > 1 || e.reason != MoveListReason::Syntax)
                    && !looks_like_movetext(trimmed) =>
            {
                return Err(PasteError::Moves(e));
            }
            _ => {}
        }
    }
    if let Ok(report) = check_pgn(trimmed.as_bytes(), &ImportOptions::default())
        && report.imported > 0
    {
        return Ok(Pasted::Pgn {
            text: text.to_owned(),
            report,
        });
    }
    Err(PasteError::Garbage {
        start: trimmed
            .chars()
            .take(30)
            .collect::<String>()
            .replace(['\n', '\r'], " "),
    })
}

/// `text` when it is one line whose first field has the eight ranks of a FEN.
fn fen_like(text: &str) -> Option<&str> {
    let first = text.split_whitespace().next()?;
    (!text.contains('\n') && first.matches('/').count() == 7).then_some(text)
}

/// Whether text has what only PGN movetext has: comments, variations, NAGs.
fn looks_like_movetext(text: &str) -> bool {
    text.contains(['{', '(', '$', ';'])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::ImportMode;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/tests/fixtures/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    #[test]
    fn pgn_games_are_read_as_a_file_is() {
        let text = fixture("lichess_db_100k.pgn");
        let Ok(Pasted::Pgn { report, .. }) = read_paste(&text) else {
            panic!("not PGN")
        };
        assert_eq!(report.games, text.matches("[Event ").count());
        assert_eq!(report.mode, ImportMode::Games);
        let Ok(Pasted::Pgn { report, .. }) = read_paste(&fixture("repertoire.pgn")) else {
            panic!("not PGN")
        };
        assert_eq!(report.mode, ImportMode::Repertoire);
        // Movetext with a variation and no tags is PGN too.
        let Ok(Pasted::Pgn { report, .. }) = read_paste("1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *")
        else {
            panic!("not PGN")
        };
        assert_eq!(report.lines, 2);
    }

    #[test]
    fn a_fen_sets_a_position_and_a_bad_one_says_why() {
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        let Ok(Pasted::Fen { position, .. }) = read_paste(&format!("  {fen}\n")) else {
            panic!("not a FEN")
        };
        let after: Chess = parse_moves(&Chess::default(), "e4 e5 Nf3 Nc6")
            .unwrap()
            .iter()
            .fold(Chess::default(), |mut p, m| {
                p.play_unchecked(*m);
                p
            });
        assert_eq!(position, after);
        // Two white kings.
        let err = read_paste("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1").unwrap_err();
        assert!(matches!(err, PasteError::Fen { .. }), "{err}");
        assert!(!err.to_string().contains('\n'));
    }

    #[test]
    fn san_with_or_without_numbers_is_a_line_from_the_start() {
        for text in ["1. e4 e5 2. Nf3", "e4 e5 Nf3", "1.e4 e5 2.Nf3 *"] {
            let Ok(Pasted::Moves { moves, position }) = read_paste(text) else {
                panic!("{text}: not moves")
            };
            assert_eq!(moves.len(), 3, "{text}");
            assert_eq!(position.turn(), shakmaty::Color::Black);
        }
        let err = read_paste("1. e4 e5 2. Ke3").unwrap_err();
        assert_eq!(
            err.to_string(),
            "the clipboard holds moves, but ply 3 `Ke3`: illegal move"
        );
    }

    #[test]
    fn garbage_is_one_clear_line() {
        for text in [
            "Dear Sir,\nplease find attached",
            "\u{89}PNG\r\n\u{1a}\n IHDR",
            "[Event \"no moves\"]\n\n*",
        ] {
            let err = read_paste(text).unwrap_err();
            let line = err.to_string();
            assert!(matches!(err, PasteError::Garbage { .. }), "{line}");
            assert!(!line.contains('\n'), "{line}");
        }
        assert_eq!(read_paste(" \n\t").unwrap_err(), PasteError::Empty);
    }
}
