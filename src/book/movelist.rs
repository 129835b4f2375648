//! Moves as people and programs write them: one move token, or a whole move list such
//! as `"1. e4 e5 2. Nf3"`, read from a position.
//!
//! The rules are python-chess's `Board.parse_san` (python-chess 1.11), so that a file
//! python-chess reads is read the same here:
//!
//! - standard algebraic notation (`Nf3`, `exd5`, `e8=Q`, `O-O`, also `0-0`);
//! - fully specified moves without a piece letter, of any piece, found by their from-
//!   and to-squares: UCI notation (`g1f3`, `e1g1` and `e1h1` for castling, `e7e8q`)
//!   and long algebraic notation (`g1-f3`, `e4xd5`);
//! - a piece letter with a from-square (`Ng1f3`, `Ng1-f3`);
//! - the capture mark is not checked: `Nxf3` to an empty square and `ed5` for `exd5`
//!   are read as the one legal move they can mean;
//! - a promotion must name its piece (`e7e8` is illegal, as in python-chess).
//!
//! A move that matches no legal move is [`MoveErrorKind::Illegal`], one that matches
//! several is [`MoveErrorKind::Ambiguous`]; text that is no move at all is a syntax
//! error ([`MoveListReason::Syntax`]).
//!
//! ```
//! use hastings::book::movelist::{parse_moves, MoveListReason};
//! use shakmaty::{Chess, Position};
//!
//! let moves = parse_moves(&Chess::default(), "1. e4 e5 2. g1f3 Nc6!? 3.Bb5+")?;
//! assert_eq!(moves.len(), 5);
//!
//! let err = parse_moves(&Chess::default(), "e4 e5 Ke3").unwrap_err();
//! assert_eq!((err.ply, err.token.as_str(), err.reason), (3, "Ke3", MoveListReason::Illegal));
//! assert_eq!(err.to_string(), "ply 3 `Ke3`: illegal move");
//! # Ok::<(), hastings::book::movelist::MoveListError>(())
//! ```

use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingSide, Chess, Move, Position, Role, Square};
use thiserror::Error;

use super::error::MoveErrorKind;

/// Why a token of a move list is not a move of its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum MoveListReason {
    /// The token is not a move in any notation read here.
    #[error("not a move")]
    Syntax,
    /// No legal move matches it.
    #[error("illegal move")]
    Illegal,
    /// Several legal moves match it.
    #[error("ambiguous move")]
    Ambiguous,
}

impl From<MoveErrorKind> for MoveListReason {
    fn from(kind: MoveErrorKind) -> MoveListReason {
        match kind {
            MoveErrorKind::Illegal => MoveListReason::Illegal,
            MoveErrorKind::Ambiguous => MoveListReason::Ambiguous,
        }
    }
}

/// A move of a move list that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("ply {ply} `{token}`: {reason}")]
pub struct MoveListError {
    /// The 1-based ply of the move in the list (move numbers do not count).
    pub ply: usize,
    /// The move as written, without its move number.
    pub token: String,
    /// What is wrong with it.
    pub reason: MoveListReason,
}

/// Plays a move list from `start` and returns its moves.
///
/// Tokens are separated by whitespace. Move numbers (`1.`, `12...`, also glued to the
/// move: `1.e4`), results (`*`, `1-0`, `0-1`, `1/2-1/2`), check marks and annotation
/// glyphs (`+`, `#`, `!`, `?`, `!?`, …) are skipped; every other token must be a move of
/// the position reached (see the [module docs](self) for the notations).
///
/// # Errors
///
/// [`MoveListError`] for the first token that is not a legal move, with its ply.
pub fn parse_moves(start: &Chess, text: &str) -> Result<Vec<Move>, MoveListError> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for token in text.split_whitespace() {
        let token = strip_move_number(token);
        if token.is_empty() || matches!(token, "*" | "1-0" | "0-1" | "1/2-1/2") {
            continue;
        }
        let bad = |reason: MoveListReason| MoveListError {
            ply: moves.len() + 1,
            token: token.to_owned(),
            reason,
        };
        let word = token.trim_end_matches(['!', '?']);
        let san = parse_token(word).ok_or_else(|| bad(MoveListReason::Syntax))?;
        let mv = to_move(&pos, san).map_err(|kind| bad(kind.into()))?;
        pos.play_unchecked(mv);
        moves.push(mv);
    }
    Ok(moves)
}

/// Reads one move token (with an optional `+` or `#`, no glyphs): SAN, `0-0`/`0-0-0`,
/// or the long and UCI forms python-chess reads (`g1f3`, `g1-f3`, `e7e8q`, `Ng1xf3`).
/// A fully specified move without a piece letter comes back as a pawn move with both
/// from-coordinates; [`to_move`] finds the piece.
///
/// ```
/// use hastings::book::movelist::parse_token;
///
/// assert_eq!(parse_token("Nf3+").map(|s| s.to_string()).as_deref(), Some("Nf3"));
/// assert_eq!(parse_token("e7e8q").map(|s| s.to_string()).as_deref(), Some("e7e8=Q"));
/// assert_eq!(parse_token("g1-f3").map(|s| s.to_string()).as_deref(), Some("g1f3"));
/// assert!(parse_token("e2=e4").is_none());
/// ```
pub fn parse_token(token: &str) -> Option<San> {
    match token.trim_end_matches(['+', '#']) {
        "0-0" => return Some(San::Castle(CastlingSide::KingSide)),
        "0-0-0" => return Some(San::Castle(CastlingSide::QueenSide)),
        _ => {}
    }
    match SanPlus::from_ascii(token.as_bytes()) {
        Ok(san) => Some(san.san),
        Err(_) => parse_long(token.as_bytes()),
    }
}

/// The move `san` means in `pos`, read as python-chess reads it (see the
/// [module docs](self)): standard SAN first; a fully specified move is then found by
/// its squares, and a move that is still illegal is tried with the capture mark
/// flipped (except a pawn move without a from-file, which python-chess reads as a
/// push only).
///
/// # Errors
///
/// [`MoveErrorKind::Illegal`] when no legal move matches (a null move included),
/// [`MoveErrorKind::Ambiguous`] when several do.
pub fn to_move(pos: &Chess, san: San) -> Result<Move, MoveErrorKind> {
    resolve(pos, san).map(|(mv, _)| mv)
}

/// The move `san` means in `pos` (as [`to_move`]) and its standard SAN: `san` itself
/// when it is standard, else the SAN of the move (`g1f3` → `Nf3`, `Ng1f3` → `Nf3`).
///
/// # Errors
///
/// As [`to_move`].
pub fn to_move_and_san(pos: &Chess, san: San) -> Result<(Move, San), MoveErrorKind> {
    let (mv, exact) = resolve(pos, san)?;
    // Exact SAN is standard unless it names both from-coordinates.
    let overspecified = matches!(
        san,
        San::Normal {
            file: Some(_),
            rank: Some(_),
            ..
        }
    );
    if exact && !overspecified {
        Ok((mv, san))
    } else {
        Ok((mv, San::from_move(pos, mv)))
    }
}

/// The move, and whether `san` named it exactly as standard SAN.
fn resolve(pos: &Chess, san: San) -> Result<(Move, bool), MoveErrorKind> {
    let error = match san.to_move(pos) {
        Ok(mv) => return Ok((mv, true)),
        Err(SanError::AmbiguousSan) => return Err(MoveErrorKind::Ambiguous),
        Err(SanError::IllegalSan) => MoveErrorKind::Illegal,
    };
    let San::Normal {
        role,
        file,
        rank,
        to,
        promotion,
        ..
    } = san
    else {
        return Err(error);
    };
    if let (Some(file), Some(rank)) = (file, rank) {
        let from = Square::from_coords(file, rank);
        // Any piece by its squares (`g1f3`, `e1g1`), or castling as a king move
        // (`Ke1g1`, but not onto its own rook).
        let by_squares = match role {
            Role::Pawn => true,
            Role::King => !pos.us().contains(to),
            _ => false,
        };
        let uci = UciMove::Normal {
            from,
            to,
            promotion,
        };
        if by_squares
            && let Ok(mv) = uci.to_move(pos)
            && (role == Role::Pawn || mv.role() == role)
        {
            return Ok((mv, false));
        }
    }
    if role == Role::Pawn && file.is_none() {
        return Err(error);
    }
    let mut flipped = san;
    if let San::Normal { capture, .. } = &mut flipped {
        *capture = !*capture;
    }
    match flipped.to_move(pos) {
        Ok(mv) => Ok((mv, false)),
        Err(SanError::AmbiguousSan) => Err(MoveErrorKind::Ambiguous),
        Err(SanError::IllegalSan) => Err(error),
    }
}

/// `"12."` → `""`, `"12...e5"` → `"e5"`, `"e4"` → `"e4"`, `"1-0"` → `"1-0"`.
pub(crate) fn strip_move_number(token: &str) -> &str {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return token;
    }
    let rest = &token[digits..];
    let stripped = rest.trim_start_matches('.');
    if stripped.len() == rest.len() {
        token
    } else {
        stripped
    }
}

/// python-chess's move pattern beyond what shakmaty reads,
/// `[NBKRQ]?[a-h]?[1-8]?[-x]?[a-h][1-8](=?[nbrqkNBRQK])?[+#]?`, read as the SAN it
/// means (`g1-f3` → `g1f3`, `e7e8q` → `e7e8=Q`).
pub(crate) fn parse_long(token: &[u8]) -> Option<San> {
    let mut body = token;
    if let [rest @ .., b'+' | b'#'] = body {
        body = rest;
    }
    let mut promotion = None;
    if let [
        rest @ ..,
        p @ (b'n' | b'b' | b'r' | b'q' | b'k' | b'N' | b'B' | b'R' | b'Q' | b'K'),
    ] = body
    {
        promotion = Some(p.to_ascii_uppercase());
        body = rest.strip_suffix(b"=").unwrap_or(rest);
    }
    let (piece, rest) = match body {
        [p @ (b'N' | b'B' | b'R' | b'Q' | b'K'), rest @ ..] => (Some(*p), rest),
        rest => (None, rest),
    };
    let [from @ .., to_file @ b'a'..=b'h', to_rank @ b'1'..=b'8'] = rest else {
        return None;
    };
    let (from, capture) = match from {
        [from @ .., b'-'] => (from, false),
        [from @ .., b'x'] => (from, true),
        from => (from, false),
    };
    if !matches!(
        from,
        [] | [b'a'..=b'h' | b'1'..=b'8'] | [b'a'..=b'h', b'1'..=b'8']
    ) {
        return None;
    }
    let mut san = Vec::with_capacity(8);
    san.extend(piece);
    san.extend_from_slice(from);
    if capture {
        san.push(b'x');
    }
    san.extend_from_slice(&[*to_file, *to_rank]);
    if let Some(p) = promotion {
        san.extend_from_slice(&[b'=', p]);
    }
    San::from_ascii(&san).ok()
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, EnPassantMode};

    use super::*;

    fn fen_after(start: &Chess, text: &str) -> String {
        let mut pos = start.clone();
        for mv in parse_moves(start, text).unwrap() {
            pos.play_unchecked(mv);
        }
        Fen::from_position(&pos, EnPassantMode::Legal).to_string()
    }

    fn position(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn move_numbers_are_stripped() {
        for (token, stripped) in [("1.", ""), ("12...e5", "e5"), ("O-O", "O-O"), ("e4", "e4")] {
            assert_eq!(strip_move_number(token), stripped);
        }
    }

    #[test]
    fn move_numbers_results_and_glyphs_are_skipped() {
        let a = fen_after(&Chess::default(), "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *");
        let b = fen_after(&Chess::default(), "1.e4 e5 2.Nf3 2...Nc6!? 3.Bb5!! a6?");
        let c = fen_after(&Chess::default(), "e4 e5 Nf3 Nc6 Bb5 a6");
        assert_eq!(a, c);
        assert_eq!(b, c);
        assert!(parse_moves(&Chess::default(), "").unwrap().is_empty());
    }

    #[test]
    fn uci_and_long_algebraic_moves_are_read_like_san() {
        let san = fen_after(&Chess::default(), "e4 c5 Nf3 d6 Bb5+ Nd7 O-O");
        let uci = fen_after(&Chess::default(), "e2e4 c7c5 g1f3 d7d6 f1b5 b8d7 e1g1");
        let long = fen_after(
            &Chess::default(),
            "e2-e4 c7-c5 Ng1-f3 d6 Bf1xb5+ Nb8d7 e1h1",
        );
        assert_eq!(uci, san);
        assert_eq!(long, san);
    }

    /// Each pair of move lists reaches the same position from `fen`.
    fn same_positions(fen: &str, pairs: &[(&str, &str)]) {
        let pos = position(fen);
        for (a, b) in pairs {
            assert_eq!(fen_after(&pos, a), fen_after(&pos, b), "{a} vs {b}");
        }
    }

    #[test]
    fn promotions_need_their_piece_and_the_capture_mark_is_not_checked() {
        let promote = "8/4P1k1/8/8/8/8/6K1/8 w - - 0 1";
        let capture = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
        same_positions(promote, &[("e7e8q", "e8=Q+"), ("e7e8n", "e8=N")]);
        same_positions(capture, &[("ed5", "exd5"), ("Kxd2", "Kd2")]);
        // As in python-chess: a promotion names its piece, and a pawn move without a
        // from-file is a push.
        for (fen, text) in [(promote, "e7e8"), (capture, "d5")] {
            let err = parse_moves(&position(fen), text).unwrap_err();
            assert_eq!(err.reason, MoveListReason::Illegal, "{text}");
        }
    }

    #[test]
    fn errors_say_ply_token_and_reason() {
        let start = Chess::default();
        let err = parse_moves(&start, "1. e4 e5 2. Nf3 Zz9").unwrap_err();
        assert_eq!(
            err,
            MoveListError {
                ply: 4,
                token: "Zz9".to_owned(),
                reason: MoveListReason::Syntax,
            }
        );
        let err = parse_moves(&start, "d4 d5 Nf3 Nf6 Nd2").unwrap_err();
        assert_eq!((err.ply, err.reason), (5, MoveListReason::Ambiguous));
        let err = parse_moves(&start, "e4 --").unwrap_err();
        assert_eq!((err.ply, err.reason), (2, MoveListReason::Illegal));
        let err = parse_moves(&start, "g1g3").unwrap_err();
        assert_eq!(
            (err.token.as_str(), err.reason),
            ("g1g3", MoveListReason::Illegal)
        );
    }

    #[test]
    fn the_standard_san_replaces_other_notations() {
        let pos = Chess::default();
        let read = |t: &str| {
            let (_, san) = to_move_and_san(&pos, parse_token(t).unwrap()).unwrap();
            san.to_string()
        };
        for (token, standard) in [
            ("g1f3", "Nf3"),
            ("Ng1f3", "Nf3"),
            ("e2e4", "e4"),
            ("Nf3", "Nf3"),
        ] {
            assert_eq!(read(token), standard);
        }
    }

    #[test]
    fn the_long_pattern_is_python_chess_s() {
        for ok in [
            "g1-f3", "e7e8q", "Ng1-f3", "N1-f3", "e7e8=q", "a2xb3", "e7e8Q+",
        ] {
            assert!(parse_long(ok.as_bytes()).is_some(), "{ok}");
        }
        for bad in [
            "e2=e4", "g1--f3", "Pe2-e4", "i1f3", "g9f3", "e7e8x", "ng1f3", "",
        ] {
            assert!(parse_long(bad.as_bytes()).is_none(), "{bad}");
        }
    }
}
