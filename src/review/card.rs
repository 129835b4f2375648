//! What a card is: a position where the learner is to move, keyed as graph nodes are.

use std::fmt;
use std::str::FromStr;

use shakmaty::{Color, Position};
use thiserror::Error;

/// The key of a card: the board and the side to move, as text
/// (`"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b"`).
///
/// These are the first two fields of an EPD: castling and en-passant rights are left
/// out, exactly as [`NodeKey`](crate::book::NodeKey) leaves them out, so a position
/// reached by two move orders is one card. It is saved as text, never as a hash.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardKey(String);

/// Text that is not a card key.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{text}` is not a position key like `<board> w`: {reason}")]
pub struct CardKeyError {
    /// The text given.
    pub text: String,
    /// Why it is not a key.
    pub reason: &'static str,
}

impl CardKey {
    /// The key of a position.
    pub fn from_position(pos: &impl Position) -> CardKey {
        let side = if pos.turn() == Color::White { 'w' } else { 'b' };
        CardKey(format!("{} {side}", pos.board()))
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The side to move (the learner's colour for a card).
    pub fn turn(&self) -> Color {
        if self.0.ends_with('b') {
            Color::Black
        } else {
            Color::White
        }
    }
}

impl fmt::Display for CardKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for CardKey {
    type Err = CardKeyError;

    /// Parses `<board> <w|b>`. The board must be a FEN board in its normal form (as
    /// [`CardKey::from_position`] writes it: eight ranks, runs of empty squares as one
    /// digit), so that one position has one key.
    fn from_str(text: &str) -> Result<CardKey, CardKeyError> {
        let err = |reason| CardKeyError {
            text: text.to_owned(),
            reason,
        };
        let (board, side) = text
            .split_once(' ')
            .ok_or_else(|| err("the side to move is missing"))?;
        if side != "w" && side != "b" {
            return Err(err("the side to move must be `w` or `b`"));
        }
        if !is_normal_board(board) {
            return Err(err("the board is not a FEN board in normal form"));
        }
        Ok(CardKey(text.to_owned()))
    }
}

/// Whether `board` is a FEN board as shakmaty writes it: eight ranks separated by `/`,
/// each of piece letters and single digits 1–8 (never two digits in a row) covering
/// eight squares.
fn is_normal_board(board: &str) -> bool {
    let mut ranks = 0;
    for rank in board.split('/') {
        ranks += 1;
        let mut squares = 0u32;
        let mut last_digit = false;
        for b in rank.bytes() {
            match b {
                b'1'..=b'8' if !last_digit => {
                    squares += u32::from(b - b'0');
                    last_digit = true;
                }
                b'p' | b'n' | b'b' | b'r' | b'q' | b'k' | b'P' | b'N' | b'B' | b'R' | b'Q'
                | b'K' => {
                    squares += 1;
                    last_digit = false;
                }
                _ => return false,
            }
        }
        if squares != 8 {
            return false;
        }
    }
    ranks == 8
}

/// How well the learner knew a card (FSRS's four grades).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rating {
    /// The first try was wrong.
    Again = 1,
    /// Right, after a hint or "Show me".
    Hard = 2,
    /// Right at the first try.
    Good = 3,
    /// Right at the first try, and the learner asked for "easy".
    Easy = 4,
}

/// Text that is not a rating.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{0}` is not a rating: again, hard, good or easy")]
pub struct RatingError(pub String);

impl Rating {
    /// All ratings, worst first.
    pub const ALL: [Rating; 4] = [Rating::Again, Rating::Hard, Rating::Good, Rating::Easy];

    /// The rating's name: `"again"`, `"hard"`, `"good"`, `"easy"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Rating::Again => "again",
            Rating::Hard => "hard",
            Rating::Good => "good",
            Rating::Easy => "easy",
        }
    }

    /// FSRS's number for the rating, 1 to 4.
    pub fn number(self) -> u32 {
        self as u32
    }

    /// Whether the learner recalled the card (any rating but Again).
    pub fn is_pass(self) -> bool {
        self != Rating::Again
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Rating {
    type Err = RatingError;

    fn from_str(text: &str) -> Result<Rating, RatingError> {
        Rating::ALL
            .into_iter()
            .find(|r| r.as_str().eq_ignore_ascii_case(text))
            .ok_or_else(|| RatingError(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, san::San};

    #[test]
    fn transposed_positions_have_one_key() {
        let play = |sans: &str| {
            let mut pos = Chess::default();
            for s in sans.split_whitespace() {
                let m = San::from_ascii(s.as_bytes())
                    .unwrap()
                    .to_move(&pos)
                    .unwrap();
                pos.play_unchecked(m);
            }
            CardKey::from_position(&pos)
        };
        assert_eq!(play("e4 e6 d4 d5"), play("d4 e6 e4 d5"));
        assert_ne!(play("e4 e6 d4"), play("e4 e6"));
        let k = play("e4");
        assert_eq!(
            k.as_str(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"
        );
        assert_eq!(k.turn(), Color::Black);
        assert_eq!(k.as_str().parse::<CardKey>().unwrap(), k);
    }

    #[test]
    fn bad_keys_and_ratings_are_errors() {
        assert!(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
                .parse::<CardKey>()
                .is_err()
        );
        assert!(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x"
                .parse::<CardKey>()
                .is_err()
        );
        assert!(
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w"
                .parse::<CardKey>()
                .is_err()
        );
        assert_eq!("GOOD".parse::<Rating>().unwrap(), Rating::Good);
        assert!("fine".parse::<Rating>().is_err());
        assert_eq!(Rating::Easy.number(), 4);
    }
}
