//! Which side a repertoire is for: said by a tag (`[Orientation "black"]`, as lichess
//! exports a study chapter), by the chapter's name ("… for Black"), or guessed from the
//! shape of its tree (the learner has one answer where the opponent has several).

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use shakmaty::{Color, Move};

use super::line::{OpeningLine, Start};
use super::tags::GameTags;

/// A side of the board: the learner's colour, or the side a repertoire is for
/// (serialisable, unlike `shakmaty::Color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Side {
    /// White.
    #[default]
    White,
    /// Black.
    Black,
}

impl Side {
    /// "White" or "Black".
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }

    /// The other side.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
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

/// The tags that say a chapter's side: lichess's study export, ChessTempo's repertoire
/// export (both spellings).
const SIDE_TAGS: [&str; 3] = [
    "Orientation",
    "ChesstempoRepertoireColour",
    "ChesstempoRepertoireColor",
];

/// The side a game's tags say its chapter is for: `[Orientation]` (lichess's study
/// export) or `[ChesstempoRepertoireColour]` (ChessTempo's), else a chapter or event name that says so ("Repertoire for Black",
/// "Playing as White", "Black repertoire: …").
///
/// ```
/// use hastings::book::{GameTags, Side, side::side_from_tags};
///
/// let tags: GameTags = [("Event", "Study: Caro-Kann"), ("Orientation", "black")]
///     .into_iter()
///     .collect();
/// assert_eq!(side_from_tags(&tags), Some(Side::Black));
/// let named: GameTags = [("Event", "Repertoire for White: the Italian")].into_iter().collect();
/// assert_eq!(side_from_tags(&named), Some(Side::White));
/// let neither: GameTags = [("Event", "Black Knights' Tango")].into_iter().collect();
/// assert_eq!(side_from_tags(&neither), None);
/// ```
pub fn side_from_tags(tags: &GameTags) -> Option<Side> {
    for tag in SIDE_TAGS {
        match tags.known(tag).map(str::to_ascii_lowercase).as_deref() {
            Some("white") => return Some(Side::White),
            Some("black") => return Some(Side::Black),
            _ => {}
        }
    }
    ["ChapterName", "Event", "StudyName"]
        .into_iter()
        .filter_map(|name| tags.known(name))
        .find_map(side_from_name)
}

/// The side a name says: "for White", "as Black", "White repertoire", "(Black)".
fn side_from_name(name: &str) -> Option<Side> {
    let name = name.to_lowercase();
    let says = |colour: &str| {
        ["for ", "as ", "with ", "("]
            .iter()
            .any(|before| name.contains(&format!("{before}{colour}")))
            || name.contains(&format!("{colour} repertoire"))
            || name.contains(&format!("{colour}'s repertoire"))
    };
    match (says("white"), says("black")) {
        (true, false) => Some(Side::White),
        (false, true) => Some(Side::Black),
        _ => None,
    }
}

/// The side a repertoire's lines look like they are for: where one side has several
/// moves from the same position and the other (nearly) never does, the first is the
/// opponent, whose choices the repertoire answers. `None` when the tree does not say
/// (one line, or both sides branch alike).
///
/// ```
/// use hastings::book::{OpeningLine, LineSource, SourceId, Side, side::guess_side};
/// use hastings::book::movelist::parse_moves;
/// use shakmaty::Chess;
///
/// let line = |moves: &str| {
///     let source = LineSource::Pgn { source: SourceId(1), game: 1 };
///     OpeningLine::new(source, parse_moves(&Chess::default(), moves).unwrap())
/// };
/// // White varies (e4, d4, c4); Black always has one answer: a Black repertoire.
/// let lines = [line("e4 c6 d4 d5"), line("e4 c6 Nc3 d5"), line("d4 Nf6"), line("c4 Nf6")];
/// assert_eq!(guess_side(lines.iter()), Some(Side::Black));
/// ```
pub fn guess_side<'a>(lines: impl IntoIterator<Item = &'a OpeningLine>) -> Option<Side> {
    // The moves played from each position (a start and the moves before it).
    let mut next: HashMap<(Option<&Start>, &[Move]), HashSet<&Move>> = HashMap::new();
    let mut white_first: HashMap<Option<&Start>, bool> = HashMap::new();
    for line in lines {
        let start = line.start.as_ref();
        white_first
            .entry(start)
            .or_insert_with(|| line.white_starts());
        for (i, mv) in line.moves.iter().enumerate() {
            next.entry((start, &line.moves[..i]))
                .or_default()
                .insert(mv);
        }
    }
    let (mut white, mut black) = (0usize, 0usize);
    for ((start, before), moves) in &next {
        if moves.len() < 2 {
            continue;
        }
        let first = white_first.get(start).copied().unwrap_or(true);
        if first == before.len().is_multiple_of(2) {
            white += 1;
        } else {
            black += 1;
        }
    }
    // The learner's side may branch now and then (a second answer kept for surprise);
    // the opponent's must branch clearly more.
    if white > 2 * black {
        Some(Side::Black)
    } else if black > 2 * white {
        Some(Side::White)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(pairs: &[(&str, &str)]) -> GameTags {
        pairs.iter().copied().collect()
    }

    #[test]
    fn orientation_wins_over_the_name() {
        let t = tags(&[("Event", "Repertoire for White"), ("Orientation", "Black")]);
        assert_eq!(side_from_tags(&t), Some(Side::Black));
        let odd = tags(&[("Orientation", "sideways"), ("Event", "as Black")]);
        assert_eq!(side_from_tags(&odd), Some(Side::Black));
    }

    #[test]
    fn chesstempo_says_the_side_in_its_own_tag() {
        let t = tags(&[
            ("Event", "White repertoire"),
            ("ChesstempoRepertoireColour", "Black"),
        ]);
        assert_eq!(side_from_tags(&t), Some(Side::Black));
        let us = tags(&[("ChesstempoRepertoireColor", "white")]);
        assert_eq!(side_from_tags(&us), Some(Side::White));
    }

    #[test]
    fn names_that_say_a_side() {
        for (name, side) in [
            ("Black repertoire: the Caro-Kann", Some(Side::Black)),
            ("Playing as White", Some(Side::White)),
            ("The London (White)", Some(Side::White)),
            ("Dragon with Black", Some(Side::Black)),
            ("White's repertoire", Some(Side::White)),
            ("White vs Black", None),
            ("Blackmar-Diemer Gambit", None),
            ("Chapter 1", None),
        ] {
            assert_eq!(side_from_name(name), side, "{name}");
        }
    }

    #[test]
    fn one_line_says_nothing() {
        let line = OpeningLine::new(
            super::super::line::LineSource::Eco {
                volume: 'C',
                row: 2,
            },
            crate::book::movelist::parse_moves(&shakmaty::Chess::default(), "e4 e5").unwrap(),
        );
        assert_eq!(guess_side([&line]), None);
    }
}
