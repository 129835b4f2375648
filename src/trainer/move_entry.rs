//! Moves typed on the keyboard: the legal moves that match what is typed so far
//! ([`completions`]) and the one move a finished entry means ([`resolve`]).
//!
//! An entry is read as [`crate::book::movelist`] reads a move (SAN, UCI, long
//! algebraic; `0-0` for `O-O`; the capture mark is not checked), with two comforts of a
//! keyboard: a lowercase piece letter is read as the piece where the text is no pawn
//! move (`nf3` is `Nf3`, but `b4` stays the pawn's), and an unfinished entry that only
//! one legal move can complete is that move (`Nf` when only `Nf3` starts so).
//!
//! Completions are the legal moves whose SAN starts with the text (`Nf` → `Nf3`), whose
//! UCI does (`g1` → `Nf3`, `Nh3`), or that the text names completely (`Nd2` → `Nbd2`,
//! `Nfd2` when both knights can go). When none match so, case, capture marks, `=` and
//! dashes are ignored (`nf` → `Nf3`, `e8q` → `e8=Q`, `o-o` → `O-O`).

use shakmaty::san::{San, SanPlus};
use shakmaty::{CastlingMode, Chess, Move, Position};
use thiserror::Error;

use crate::book::error::MoveErrorKind;
use crate::book::movelist::{parse_token, to_move};

/// How many moves an error lists before "and N more".
const LISTED: usize = 6;

/// A legal move that matches what is typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The move.
    pub mv: Move,
    /// Its SAN with the check mark (`Bb5+`), as it is shown.
    pub san: String,
}

/// Why an entry is not a move of the position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EntryError {
    /// Nothing was typed.
    #[error("type a move")]
    Empty,
    /// The text is no move in any notation read here, and no legal move starts so.
    #[error("{0} is not a move")]
    NotAMove(String),
    /// The text is a move, but no legal move matches it.
    #[error("{0} is not legal here")]
    Illegal(String),
    /// Several legal moves match the whole move (`Nd2` with two knights).
    #[error("{typed} is ambiguous here: {}", or_list(.candidates))]
    Ambiguous {
        /// The text as typed.
        typed: String,
        /// The SAN of each move it may mean.
        candidates: Vec<String>,
    },
    /// The text is unfinished and several legal moves start so.
    #[error("{typed} could be {}", or_list(.candidates))]
    Several {
        /// The text as typed.
        typed: String,
        /// The SAN of each move it may become.
        candidates: Vec<String>,
    },
}

/// `a`, `a or b`, `a, b or c`; after [`LISTED`] moves, `…, f and 3 more`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        _ if items.len() > LISTED => format!(
            "{} and {} more",
            items[..LISTED].join(", "),
            items.len() - LISTED
        ),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The text as the matching reads it: trimmed, without `!`/`?`, castling with the
/// letter O (`0-0`, `o-o` → `O-O`).
fn normalize(typed: &str) -> String {
    let t = typed.trim().trim_end_matches(['!', '?']);
    let castling = t.starts_with(['0', 'o', 'O'])
        && t.chars()
            .all(|c| matches!(c, '0' | 'o' | 'O' | '-' | '+' | '#'));
    if castling {
        t.replace(['0', 'o'], "O")
    } else {
        t.to_owned()
    }
}

/// The text with a lowercase piece letter made the piece (`nf3` → `Nf3`), if it starts
/// with one.
fn capitalized(t: &str) -> Option<String> {
    let first = t.chars().next()?;
    matches!(first, 'n' | 'b' | 'r' | 'q' | 'k')
        .then(|| format!("{}{}", first.to_ascii_uppercase(), &t[1..]))
}

/// What the case-tolerant matching compares: lowercase, without `x`, `=`, `-`, `+`, `#`.
fn loose(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, 'x' | 'X' | '=' | '-' | '+' | '#'))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Whether `san` names `mv`, the capture mark not checked (`ed5` names `exd5`).
fn names(san: San, mv: Move) -> bool {
    if san.matches(mv) {
        return true;
    }
    let mut flipped = san;
    if let San::Normal { capture, .. } = &mut flipped {
        *capture = !*capture;
    }
    flipped.matches(mv)
}

/// Whether the text starts with a square (`g1`, `e7e8q`): it may be UCI.
fn starts_with_square(t: &str) -> bool {
    matches!(t.as_bytes(), [b'a'..=b'h', b'1'..=b'8', ..])
}

/// The legal moves of `pos` that match `typed` (see the [module docs](self)), in the
/// order of their SAN; none when nothing is typed.
pub fn completions(pos: &Chess, typed: &str) -> Vec<Completion> {
    let t = normalize(typed);
    if t.is_empty() {
        return Vec::new();
    }
    let moves: Vec<(Move, String, String)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let san = SanPlus::from_move(pos.clone(), mv).to_string();
            let uci = mv.to_uci(CastlingMode::Standard).to_string();
            (mv, san, uci)
        })
        .collect();
    let uci_typed = starts_with_square(&t).then(|| t.to_ascii_lowercase());
    let parsed = parse_token(&t);
    let mut found: Vec<Completion> = moves
        .iter()
        .filter(|(mv, san, uci)| {
            san.starts_with(&t)
                || uci_typed.as_ref().is_some_and(|u| uci.starts_with(u))
                || parsed.is_some_and(|p| names(p, *mv))
        })
        .map(|(mv, san, _)| Completion {
            mv: *mv,
            san: san.clone(),
        })
        .collect();
    if found.is_empty() {
        let key = loose(&t);
        let capital = capitalized(&t).and_then(|c| parse_token(&c));
        found = moves
            .iter()
            .filter(|(mv, san, _)| {
                loose(san).starts_with(&key) || capital.is_some_and(|p| names(p, *mv))
            })
            .map(|(mv, san, _)| Completion {
                mv: *mv,
                san: san.clone(),
            })
            .collect();
    }
    found.sort_by(|a, b| a.san.cmp(&b.san));
    found
}

/// The move `typed` means in `pos`: the move it names (in SAN, UCI or long algebraic,
/// a lowercase piece letter read as the piece where needed), else the one legal move
/// that completes it.
///
/// # Errors
///
/// [`EntryError`]: nothing typed, no move, an illegal or ambiguous move, or an
/// unfinished move that several legal moves complete.
pub fn resolve(pos: &Chess, typed: &str) -> Result<Move, EntryError> {
    let t = normalize(typed);
    if t.is_empty() {
        return Err(EntryError::Empty);
    }
    let shown = typed.trim().to_owned();
    let mut a_move = false;
    for token in std::iter::once(t.clone()).chain(capitalized(&t)) {
        let Some(san) = parse_token(&token) else {
            continue;
        };
        a_move = true;
        match to_move(pos, san) {
            Ok(mv) => return Ok(mv),
            Err(MoveErrorKind::Ambiguous) => {
                let candidates = completions(pos, &token)
                    .into_iter()
                    .filter(|c| names(san, c.mv))
                    .map(|c| c.san)
                    .collect();
                return Err(EntryError::Ambiguous {
                    typed: shown,
                    candidates,
                });
            }
            Err(MoveErrorKind::Illegal) => {}
        }
    }
    let mut found = completions(pos, &t);
    match found.len() {
        1 => Ok(found.remove(0).mv),
        0 if a_move => Err(EntryError::Illegal(shown)),
        0 => Err(EntryError::NotAMove(shown)),
        _ => Err(EntryError::Several {
            typed: shown,
            candidates: found.into_iter().map(|c| c.san).collect(),
        }),
    }
}

/// What Tab makes of `typed`: the one completion's move, or else the longest start the
/// completions' SAN share when it is longer than the text (`O` → `O-O`); `None` when
/// Tab can do nothing.
pub fn tab_completion(pos: &Chess, typed: &str) -> Option<Result<Move, String>> {
    let found = completions(pos, typed);
    if let [one] = found.as_slice() {
        return Some(Ok(one.mv));
    }
    let first = found.first()?;
    let shared = found.iter().skip(1).fold(first.san.as_str(), |prefix, c| {
        let n = prefix
            .char_indices()
            .zip(c.san.chars())
            .take_while(|((_, a), b)| a == b)
            .count();
        &prefix[..prefix
            .char_indices()
            .nth(n)
            .map_or(prefix.len(), |(i, _)| i)]
    });
    let t = normalize(typed);
    (shared.len() > t.len() && shared.starts_with(&t)).then(|| Err(shared.to_owned()))
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{Role, Square};

    use super::*;

    fn position(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn sans(pos: &Chess, typed: &str) -> Vec<String> {
        completions(pos, typed).into_iter().map(|c| c.san).collect()
    }

    fn san_of(pos: &Chess, typed: &str) -> String {
        let mv = resolve(pos, typed).unwrap_or_else(|e| panic!("{typed}: {e}"));
        San::from_move(pos, mv).to_string()
    }

    /// White to move, may castle either way; the pawn on e7 may promote on e8 or take
    /// on d8 or f8; both knights can reach d2.
    const CASTLE_AND_PROMOTE: &str = "3n1bk1/4P3/8/8/8/1N3N2/8/R3K2R w KQ - 0 1";

    #[test]
    fn san_prefixes_complete_to_the_legal_moves() {
        let start = Chess::default();
        assert_eq!(sans(&start, "Nf"), ["Nf3"]);
        assert_eq!(sans(&start, "N"), ["Na3", "Nc3", "Nf3", "Nh3"]);
        assert_eq!(sans(&start, "e"), ["e3", "e4"]);
        assert_eq!(sans(&start, "e4"), ["e4"]);
        assert!(sans(&start, "").is_empty());
        assert!(sans(&start, "Q").is_empty());
        assert!(sans(&start, "zz").is_empty());
    }

    #[test]
    fn full_moves_in_san_and_uci_resolve() {
        let start = Chess::default();
        for (typed, san) in [
            ("e4", "e4"),
            ("Nf3", "Nf3"),
            (" Nf3+ ", "Nf3"),
            ("Nf3!?", "Nf3"),
            ("g1f3", "Nf3"),
            ("e2e4", "e4"),
            ("g1-f3", "Nf3"),
            ("Ng1f3", "Nf3"),
        ] {
            assert_eq!(san_of(&start, typed), san, "{typed}");
        }
        // A square starts a UCI move: its moves are the completions.
        assert_eq!(sans(&start, "g1"), ["Nf3", "Nh3"]);
        assert_eq!(sans(&start, "g1f"), ["Nf3"]);
        assert_eq!(sans(&start, "e2"), ["e3", "e4"]);
    }

    #[test]
    fn a_lowercase_piece_letter_is_the_piece_unless_it_is_a_pawn_move() {
        let start = Chess::default();
        assert_eq!(san_of(&start, "nf3"), "Nf3");
        assert_eq!(sans(&start, "nf"), ["Nf3"]);
        assert_eq!(san_of(&start, "nc"), "Nc3");
        // b is the b-pawn's file while a b-pawn move starts so ...
        assert_eq!(san_of(&start, "b4"), "b4");
        assert_eq!(sans(&start, "b"), ["b3", "b4"]);
        // ... and the bishop when none does.
        let open = position("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(san_of(&open, "bc4"), "Bc4");
        assert_eq!(sans(&open, "bb"), ["Bb5"]);
        assert_eq!(san_of(&open, "qh5"), "Qh5");
        assert_eq!(san_of(&open, "ke2"), "Ke2");
    }

    #[test]
    fn castling_both_spellings_and_cases() {
        let pos = position(CASTLE_AND_PROMOTE);
        for typed in ["O-O", "0-0", "o-o", "e1g1", "e1h1", "Ke1g1"] {
            assert_eq!(san_of(&pos, typed), "O-O", "{typed}");
        }
        for typed in ["O-O-O", "0-0-0", "o-o-o", "e1c1", "e1a1"] {
            assert_eq!(san_of(&pos, typed), "O-O-O", "{typed}");
        }
        assert_eq!(sans(&pos, "O"), ["O-O", "O-O-O"]);
        assert_eq!(sans(&pos, "0-"), ["O-O", "O-O-O"]);
        // Tab completes to what both share.
        assert_eq!(tab_completion(&pos, "0"), Some(Err("O-O".to_owned())));
        assert_eq!(tab_completion(&pos, "O-O"), None);
    }

    #[test]
    fn promotions_name_their_piece_in_any_case() {
        let pos = position(CASTLE_AND_PROMOTE);
        let promotes = |typed: &str| {
            let mv = resolve(&pos, typed).unwrap_or_else(|e| panic!("{typed}: {e}"));
            (mv.to(), mv.promotion())
        };
        for typed in ["e8=Q", "e8=q", "e8Q", "e8q", "e7e8q", "e7e8Q", "e8=Q+"] {
            assert_eq!(promotes(typed), (Square::E8, Some(Role::Queen)), "{typed}");
        }
        assert_eq!(promotes("e8=N"), (Square::E8, Some(Role::Knight)));
        assert_eq!(promotes("exd8=R"), (Square::D8, Some(Role::Rook)));
        assert_eq!(promotes("ed8r"), (Square::D8, Some(Role::Rook)));
        assert_eq!(sans(&pos, "e8"), ["e8=B", "e8=N", "e8=Q", "e8=R"]);
        // Without its piece a promotion is unfinished.
        assert!(matches!(
            resolve(&pos, "e8"),
            Err(EntryError::Several { .. })
        ));
    }

    #[test]
    fn an_unfinished_move_with_one_completion_is_that_move() {
        let start = Chess::default();
        assert_eq!(san_of(&start, "Nf"), "Nf3");
        assert_eq!(
            tab_completion(&start, "Nf"),
            Some(Ok(resolve(&start, "Nf3").unwrap()))
        );
        assert_eq!(tab_completion(&start, "N"), None);
        assert_eq!(tab_completion(&start, "zz"), None);
    }

    #[test]
    fn errors_say_why_in_one_line() {
        let start = Chess::default();
        let error = |pos: &Chess, typed: &str| resolve(pos, typed).unwrap_err().to_string();
        assert_eq!(error(&start, "Nf4"), "Nf4 is not legal here");
        assert_eq!(error(&start, "e5"), "e5 is not legal here");
        assert_eq!(error(&start, "g1g3"), "g1g3 is not legal here");
        assert_eq!(error(&start, "hello"), "hello is not a move");
        assert_eq!(error(&start, "N"), "N could be Na3, Nc3, Nf3 or Nh3");
        assert_eq!(
            error(&start, "a"),
            "a could be a3 or a4",
            "the one-line list"
        );
        assert_eq!(resolve(&start, "  "), Err(EntryError::Empty));
        let two_knights = position(CASTLE_AND_PROMOTE);
        assert_eq!(
            error(&two_knights, "Nd2"),
            "Nd2 is ambiguous here: Nbd2 or Nfd2"
        );
        assert_eq!(sans(&two_knights, "Nd2"), ["Nbd2", "Nfd2"]);
        assert_eq!(san_of(&two_knights, "Nbd2"), "Nbd2");
        // A long list is cut.
        let many: Vec<String> = (1..=8).map(|i| format!("m{i}")).collect();
        assert_eq!(or_list(&many), "m1, m2, m3, m4, m5, m6 and 2 more");
    }

    #[test]
    fn the_capture_mark_is_not_checked() {
        let pos = position("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(san_of(&pos, "ed5"), "exd5");
        assert_eq!(san_of(&pos, "exd5"), "exd5");
        assert_eq!(sans(&pos, "ex"), ["exd5"]);
        assert_eq!(sans(&pos, "ed"), ["exd5"]);
        assert_eq!(san_of(&pos, "Bxb5"), "Bb5");
    }
}
