//! The verdict's sentence: what the engine's line after a move does. A mate is named;
//! else the material is counted along the line ("Black wins a knight") where the
//! evaluation agrees, after the move and against the main move; else the evaluation
//! says who is better (and, for a move judged worse than "also good" that leaves the
//! opponent no better, what the main move kept instead).

use shakmaty::san::SanPlus;
use shakmaty::{ByRole, Chess, Color, Move, Position, Role};

use super::{Outlook, pawns};

/// The most plies of a line a sentence shows, the move played included (a longer one
/// ends with `…`).
const SHOWN_PLIES: usize = 4;

/// The plies a mating line may have and still be shown whole.
const SHOWN_MATE_PLIES: usize = 6;

/// How much of the material won the evaluation must show for the sentence to say it
/// was won (a line that ends in the middle of an exchange is not believed).
const MATERIAL_AGREEMENT: f64 = 0.6;

/// `moves` from `pos` in SAN, numbered as players write them: `3...Qxg5 4.d4 Qxg2`
/// (the first move carries its number, and every White move). Stops at the first
/// illegal move.
///
/// ```
/// use hastings::trainer::verdict::numbered_line;
/// use shakmaty::{Chess, Position};
/// use shakmaty::san::San;
///
/// let mut pos = Chess::default();
/// let e4 = San::from_ascii(b"e4").unwrap().to_move(&pos).unwrap();
/// pos.play_unchecked(e4);
/// let e5 = San::from_ascii(b"e5").unwrap().to_move(&pos).unwrap();
/// let mut after = pos.clone();
/// after.play_unchecked(e5);
/// let nf3 = San::from_ascii(b"Nf3").unwrap().to_move(&after).unwrap();
/// assert_eq!(numbered_line(&pos, &[e5, nf3]), "1...e5 2.Nf3");
/// ```
pub fn numbered_line(pos: &Chess, moves: &[Move]) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        if !pos.is_legal(mv) {
            break;
        }
        let number = pos.fullmoves().get();
        let turn = pos.turn();
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, mv);
        out.push(match (turn, i) {
            (Color::White, _) => format!("{number}.{san}"),
            (Color::Black, 0) => format!("{number}...{san}"),
            (Color::Black, _) => san.to_string(),
        });
    }
    out.join(" ")
}

/// The moves of `moves` that are legal one after another from `pos`.
pub(super) fn legal_prefix(pos: &Chess, moves: &[Move]) -> Vec<Move> {
    let mut pos = pos.clone();
    moves
        .iter()
        .take_while(|&&mv| {
            let legal = pos.is_legal(mv);
            if legal {
                pos.play_unchecked(mv);
            }
            legal
        })
        .copied()
        .collect()
}

/// What a sentence is made of.
pub(super) struct Facts<'a> {
    /// The position before the learner's move.
    pub(super) before: &'a Chess,
    /// The learner's move.
    pub(super) played: Move,
    /// The engine's line after it (legal).
    pub(super) line: &'a [Move],
    /// The score after the move played, from the learner's side.
    pub(super) played_outlook: Outlook,
    /// The score after the book move, from the learner's side.
    pub(super) book_outlook: Outlook,
    /// The book move, numbered.
    pub(super) book_san: &'a str,
    /// Whether the move is judged worse than "also good" by the evaluations alone.
    pub(super) bad: bool,
}

/// A sentence, and whether it says that the opponent wins material.
pub(super) struct Told {
    /// `after 3.Ng5 Qxg5 Black wins a knight`.
    pub(super) text: String,
    /// Whether it says the opponent wins material.
    pub(super) material_won: bool,
}

/// `after 3.Ng5 Qxg5 Black wins a knight`, `after 2.g4 Qh4# Black mates`, `the book's
/// main move 3.Qxf7# mates`, `after 3.Nc3 Nf6 White is better (+1.2)`.
pub(super) fn sentence(f: &Facts<'_>) -> Told {
    let learner = f.before.turn();
    let mut full = Vec::with_capacity(f.line.len() + 1);
    full.push(f.played);
    full.extend_from_slice(f.line);
    let said = |text: String| Told {
        text,
        material_won: false,
    };
    match (f.book_outlook, f.played_outlook) {
        (_, Outlook::Mated(n)) => said(mate(f.before, &full, learner.other(), n)),
        (Outlook::Mates(0), Outlook::Cp(_)) => {
            said(format!("the book's main move {} mates", f.book_san))
        }
        (Outlook::Mates(n), Outlook::Cp(_)) => {
            said(format!("the book's main move {} mates in {n}", f.book_san))
        }
        (_, Outlook::Mates(0)) => said(format!("{} mates", numbered_line(f.before, &full[..1]))),
        (_, Outlook::Mates(n)) => said(mate(f.before, &full, learner, n)),
        (book, Outlook::Cp(cp)) => {
            // What the evaluation shows lost: after the move, and against the main move.
            let shown = match book {
                Outlook::Cp(b) => (-cp).min(b - cp),
                Outlook::Mated(_) | Outlook::Mates(_) => -cp,
            };
            match material(f.before, &full, shown) {
                Some(text) => Told {
                    text,
                    material_won: true,
                },
                None => said(evaluation(f, &full, cp)),
            }
        }
    }
}

fn colour_name(colour: Color) -> &'static str {
    match colour {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `winner` mates in `n` moves after the learner's move (`full[0]`): the whole line
/// when it is short, else the move and the count.
fn mate(before: &Chess, full: &[Move], winner: Color, n: u32) -> String {
    let learner = before.turn();
    let n_plies = usize::try_from(n).unwrap_or(usize::MAX);
    // The learner's move is ply 1: the opponent mates at ply 2n, the learner at 2n + 1.
    let plies = if winner == learner {
        n_plies.saturating_mul(2).saturating_add(1)
    } else {
        n_plies.saturating_mul(2)
    };
    let name = colour_name(winner);
    if plies <= SHOWN_MATE_PLIES && full.len() >= plies {
        format!(
            "after {} {name} mates",
            numbered_line(before, &full[..plies])
        )
    } else {
        format!(
            "after {} {name} mates in {n}",
            numbered_line(before, &full[..1])
        )
    }
}

/// The value of a piece in pawns (the king has none).
fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// The material of `colour`, in pawns.
fn worth(pieces: &ByRole<u8>) -> i32 {
    Role::ALL
        .iter()
        .map(|&r| value(r) * i32::from(*pieces.get(r)))
        .sum()
}

/// The learner's material minus the opponent's, in pawns.
fn balance(pos: &Chess, learner: Color) -> i32 {
    let m = pos.board().material();
    worth(m.get(learner)) - worth(m.get(learner.other()))
}

/// `after 3.Ng5 Qxg5 Black wins a knight`: the material counted at the first point of
/// the line where an exchange is over (the next move is no capture, or the line ends)
/// and the opponent is a pawn or more ahead, where the evaluation shows at least
/// [`MATERIAL_AGREEMENT`] of it lost (`shown`, in centipawns: the least of the
/// learner's deficit after the move and what it loses against the main move). The
/// line is shown up to that point.
fn material(before: &Chess, full: &[Move], shown: i32) -> Option<String> {
    let learner = before.turn();
    let mut positions = Vec::with_capacity(full.len() + 1);
    positions.push(before.clone());
    let mut pos = before.clone();
    for &mv in full {
        pos.play_unchecked(mv);
        positions.push(pos.clone());
    }
    let start = balance(before, learner);
    let settled = (1..positions.len()).find(|&i| {
        let over = full.get(i).is_none_or(|next| !next.is_capture());
        let swing = start - balance(&positions[i], learner);
        over && swing >= 1 && f64::from(shown) >= MATERIAL_AGREEMENT * f64::from(100 * swing)
    })?;
    let lost = losses(before, &positions[settled], learner);
    let won = losses(before, &positions[settled], learner.other());
    let what = describe(&lost, &won)?;
    let shown = settled.max(2).min(full.len());
    Some(format!(
        "after {} {} wins {what}",
        excerpt(before, &full[..shown]),
        colour_name(learner.other())
    ))
}

/// The line, shortened to [`SHOWN_PLIES`] with `…`.
fn excerpt(before: &Chess, line: &[Move]) -> String {
    if line.len() > SHOWN_PLIES {
        format!("{} …", numbered_line(before, &line[..SHOWN_PLIES]))
    } else {
        numbered_line(before, line)
    }
}

/// The pieces `colour` has fewer of at `to` than at `from`.
fn losses(from: &Chess, to: &Chess, colour: Color) -> ByRole<u8> {
    let a = from.board().material_side(colour);
    let b = to.board().material_side(colour);
    ByRole::new_with(|r| a.get(r).saturating_sub(*b.get(r)))
}

/// What the opponent wins: `a knight`, `two pawns`, `the exchange`, `a rook for a
/// knight`; `None` when the learner lost no piece.
fn describe(lost: &ByRole<u8>, won: &ByRole<u8>) -> Option<String> {
    let minor = |m: &ByRole<u8>| m.knight + m.bishop == 1 && m.pawn + m.rook + m.queen == 0;
    let rook_only = lost.rook == 1 && lost.pawn + lost.knight + lost.bishop + lost.queen == 0;
    if rook_only && minor(won) {
        return Some("the exchange".to_owned());
    }
    let lost = names(lost)?;
    Some(match names(won) {
        Some(won) => format!("{lost} for {won}"),
        None => lost,
    })
}

/// `a rook and two pawns`, the bigger pieces first; `None` for no piece.
fn names(pieces: &ByRole<u8>) -> Option<String> {
    let parts: Vec<String> = [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ]
    .iter()
    .filter_map(|&r| {
        let n = *pieces.get(r);
        let name = role_name(r);
        match n {
            0 => None,
            1 if r == Role::Queen => Some("the queen".to_owned()),
            1 => Some(format!("a {name}")),
            2 => Some(format!("two {name}s")),
            3 => Some(format!("three {name}s")),
            n => Some(format!("{n} {name}s")),
        }
    })
    .collect();
    match parts.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        [rest @ .., last] => Some(format!("{} and {last}", rest.join(", "))),
    }
}

/// The English name of a role: `knight`, `pawn` (the verdict's sentences, the board's
/// square labels and promotion choices).
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// `after 3.Nc3 Nf6 White is better (+1.2)`: the move and the reply, and who is
/// better by how much, from White's side; for a bad move (`f.bad`) after which the
/// opponent is not better, what the main move kept: `the game is level (0.0) instead
/// of +1.3`.
fn evaluation(f: &Facts<'_>, full: &[Move], cp: i32) -> String {
    let learner = f.before.turn();
    let white = if learner == Color::White { cp } else { -cp };
    let side = if white > 0 { "White" } else { "Black" };
    let phrase = match white.unsigned_abs() {
        0..30 => "the game is level".to_owned(),
        30..100 => format!("{side} is slightly better"),
        100..250 => format!("{side} is better"),
        _ => format!("{side} is winning"),
    };
    let shown = full.len().min(2);
    let instead = if f.bad && cp > -30 {
        format!(" instead of {}", f.book_outlook.for_white(learner))
    } else {
        String::new()
    };
    format!(
        "after {} {phrase} ({}){instead}",
        numbered_line(f.before, &full[..shown]),
        pawns(white)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(pawn: u8, knight: u8, bishop: u8, rook: u8, queen: u8) -> ByRole<u8> {
        ByRole {
            pawn,
            knight,
            bishop,
            rook,
            queen,
            king: 0,
        }
    }

    #[test]
    fn material_is_named_as_players_say_it() {
        let none = pieces(0, 0, 0, 0, 0);
        assert_eq!(
            describe(&pieces(0, 1, 0, 0, 0), &none).as_deref(),
            Some("a knight")
        );
        assert_eq!(
            describe(&pieces(2, 0, 0, 0, 0), &none).as_deref(),
            Some("two pawns")
        );
        assert_eq!(
            describe(&pieces(0, 0, 0, 0, 1), &none).as_deref(),
            Some("the queen")
        );
        assert_eq!(
            describe(&pieces(0, 0, 0, 1, 0), &pieces(0, 0, 1, 0, 0)).as_deref(),
            Some("the exchange")
        );
        assert_eq!(
            describe(&pieces(1, 0, 1, 1, 0), &pieces(0, 1, 0, 0, 0)).as_deref(),
            Some("a rook, a bishop and a pawn for a knight")
        );
        assert_eq!(describe(&none, &pieces(1, 0, 0, 0, 0)), None);
    }
}
