//! Wrong moves explained: is a move outside the book also good, or an inaccuracy, a
//! mistake, a blunder; what it gives up against the book move; and the engine's
//! refutation, in a sentence ("after 3.Ng5 Qxg5 Black wins a knight").
//!
//! A [`Question`] is the position before the learner's move, the move, and the book's
//! moves there. Its answer needs one analysis per position after a move
//! ([`Question::positions`]: the move played first, then each book move compared), each
//! from the point of view of the side to move there, the learner's opponent. From them
//! [`Verdict::of`] makes the verdict, purely; [`checker::MoveChecker`] gets the analyses
//! from a cache or from an engine on a background thread.
//!
//! # The thresholds
//!
//! As lichess judges moves in its analysis (lila, `modules/tree/src/main/Advice.scala`,
//! `CpAdvice.winningChanceJudgements`), by the drop in the mover's *winning chances*
//! between the best book move and the move played:
//!
//! | drop      | judgement  |
//! |-----------|------------|
//! | ≥ 0.3     | blunder    |
//! | ≥ 0.2     | mistake    |
//! | ≥ 0.1     | inaccuracy |
//! | less      | also good  |
//!
//! Winning chances are lichess's curve (scalachess, `core/src/main/scala/eval.scala`,
//! `WinPercent.winningChances`): `2 / (1 + exp(-0.00368208 · cp)) - 1`, from −1 (lost)
//! to +1 (won), taken on the raw centipawns as lichess's advice does. On lichess's 0–100
//! "win %" scale the drops are 15, 10 and 5 points. Mates follow a simpler rule than
//! lichess's: a move that allows a mate the best book move does not allow, or that
//! misses a mate the book move has, is a blunder (lichess calls it a mistake or an
//! inaccuracy when the position was lost anyway).
//!
//! ```
//! use hastings::trainer::verdict::{Judgement, Outlook, judge};
//!
//! // The book move keeps the balance; the move played drops a knight.
//! assert_eq!(judge(Outlook::Cp(30), Outlook::Cp(-280)), Judgement::Blunder);
//! assert_eq!(judge(Outlook::Cp(30), Outlook::Cp(20)), Judgement::AlsoGood);
//! // Allowing a mate is a blunder, even from a won position.
//! assert_eq!(judge(Outlook::Cp(900), Outlook::Mated(3)), Judgement::Blunder);
//! ```

pub mod checker;
mod sentence;

use std::fmt;

use shakmaty::{Chess, Color, Move, Position};

use crate::engine::Score;
use crate::engine::analysis::Analysis;

pub use sentence::{numbered_line, role_name};

/// The drop in winning chances (−1 to +1) from which a move is a blunder.
pub const BLUNDER: f64 = 0.3;
/// The drop from which a move is a mistake.
pub const MISTAKE: f64 = 0.2;
/// The drop from which a move is an inaccuracy; a smaller one is "also good".
pub const INACCURACY: f64 = 0.1;

/// lichess's multiplier of centipawns in its winning-chances curve.
const LICHESS_MULTIPLIER: f64 = -0.003_682_08;

/// How many book moves a move is compared with at most (the most played first): the
/// best of them is "your book move".
pub const MAX_BOOK_MOVES: usize = 3;

/// The most plies of the refutation written out ([`Verdict::refutation_san`]).
pub const REFUTATION_SHOWN: usize = 8;

/// What a move outside the book is worth, against the best book move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// As good as the book move, or nearly (less than [`INACCURACY`] lost).
    AlsoGood,
    /// Loses a little.
    Inaccuracy,
    /// Loses clearly.
    Mistake,
    /// Loses a lot, allows a mate or misses one.
    Blunder,
}

impl Judgement {
    /// `"Also good"`, `"Inaccuracy"`, `"Mistake"`, `"Blunder"`.
    pub const fn text(self) -> &'static str {
        match self {
            Judgement::AlsoGood => "Also good",
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }

    /// Whether the move is as good as the book's.
    pub const fn is_good(self) -> bool {
        matches!(self, Judgement::AlsoGood)
    }

    /// The judgement of a drop in winning chances.
    pub fn of_drop(drop: f64) -> Judgement {
        if drop >= BLUNDER {
            Judgement::Blunder
        } else if drop >= MISTAKE {
            Judgement::Mistake
        } else if drop >= INACCURACY {
            Judgement::Inaccuracy
        } else {
            Judgement::AlsoGood
        }
    }
}

/// A score after one of the learner's moves, from the learner's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outlook {
    /// Centipawns: positive when the learner is better.
    Cp(i32),
    /// The learner mates in this many moves (0: the move itself mated).
    Mates(u32),
    /// The learner is mated in this many moves.
    Mated(u32),
}

impl Outlook {
    /// The outlook of an analysis of the position after the learner's move (its score
    /// is the opponent's, who is to move there).
    pub fn after_move(analysis: &Analysis) -> Outlook {
        match analysis.score {
            Score::Cp(cp) => Outlook::Cp(-cp),
            Score::Mate(n) if n > 0 => Outlook::Mated(n.unsigned_abs()),
            Score::Mate(n) => Outlook::Mates(n.unsigned_abs()),
        }
    }

    /// lichess's winning chances, from −1 (lost) to +1 (won); a mate is ±1.
    pub fn winning_chances(self) -> f64 {
        match self {
            Outlook::Cp(cp) => {
                (2.0 / (1.0 + (LICHESS_MULTIPLIER * f64::from(cp)).exp()) - 1.0).clamp(-1.0, 1.0)
            }
            Outlook::Mates(_) => 1.0,
            Outlook::Mated(_) => -1.0,
        }
    }

    /// For choosing the best of several: winning chances, a quicker mate higher and a
    /// slower mate against lower than any centipawns.
    fn rank(self) -> f64 {
        match self {
            Outlook::Cp(_) => self.winning_chances(),
            Outlook::Mates(n) => 3.0 - f64::from(n.min(999)) / 1000.0,
            Outlook::Mated(n) => -3.0 + f64::from(n.min(999)) / 1000.0,
        }
    }

    /// The same from White's side, as players write evaluations: `+1.2`, `−0.4`, `#3`,
    /// `#−2` (`learner` is the learner's colour).
    pub fn for_white(self, learner: Color) -> String {
        let white = learner == Color::White;
        match self {
            Outlook::Cp(cp) => pawns(if white { cp } else { -cp }),
            Outlook::Mates(n) | Outlook::Mated(n) => {
                let learner_mates = matches!(self, Outlook::Mates(_));
                if learner_mates == white {
                    format!("#{n}")
                } else {
                    format!("#−{n}")
                }
            }
        }
    }
}

impl fmt::Display for Outlook {
    /// From the learner's side: `+1.2`, `−0.4`, `#3` (the learner mates), `#−2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.for_white(Color::White))
    }
}

/// Centipawns as pawns with one decimal and a sign: `+1.2`, `−0.4`, `0.0`.
pub fn pawns(cp: i32) -> String {
    let tenths = (f64::from(cp) / 10.0).round() as i64;
    let text = format!("{}.{}", tenths.abs() / 10, tenths.abs() % 10);
    match tenths.signum() {
        1 => format!("+{text}"),
        -1 => format!("−{text}"),
        _ => text,
    }
}

/// The judgement of a move whose outlook is `played`, against the best book move's
/// `book` (both from the learner's side): see the [module docs](self) for the rule.
pub fn judge(book: Outlook, played: Outlook) -> Judgement {
    let mated = |o: Outlook| matches!(o, Outlook::Mated(_));
    let mates = |o: Outlook| matches!(o, Outlook::Mates(_));
    if (mated(played) && !mated(book)) || (mates(book) && !mates(played)) {
        return Judgement::Blunder;
    }
    Judgement::of_drop(book.winning_chances() - played.winning_chances())
}

/// A move outside the book to judge: the position before it, the move, and the book
/// moves to compare it with.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// The position before the move (the learner to move).
    pub before: Chess,
    /// The learner's move.
    pub played: Move,
    /// The book moves compared, the most played first (at most [`MAX_BOOK_MOVES`]).
    pub book: Vec<Move>,
}

impl Question {
    /// The question about `played` at `before`, against the first [`MAX_BOOK_MOVES`] of
    /// `book` (most played first); illegal book moves are left out.
    pub fn new(before: Chess, played: Move, book: impl IntoIterator<Item = Move>) -> Question {
        let book = book
            .into_iter()
            .filter(|&m| m != played && before.is_legal(m))
            .take(MAX_BOOK_MOVES)
            .collect();
        Question {
            before,
            played,
            book,
        }
    }

    /// The learner's colour.
    pub fn learner(&self) -> Color {
        self.before.turn()
    }

    /// The positions to analyse: after the move played, then after each book move.
    pub fn positions(&self) -> Vec<Chess> {
        std::iter::once(self.played)
            .chain(self.book.iter().copied())
            .map(|m| {
                let mut pos = self.before.clone();
                pos.play_unchecked(m);
                pos
            })
            .collect()
    }
}

/// What a move outside the book is worth, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The learner's colour (who played the move).
    pub learner: Color,
    /// The judgement.
    pub judgement: Judgement,
    /// The move played.
    pub played: Move,
    /// It numbered, in SAN: `3.Ng5`.
    pub played_san: String,
    /// The book move compared with: the best of those asked.
    pub book_move: Move,
    /// It numbered, in SAN: `3.Bc4`.
    pub book_san: String,
    /// The score after the move played, from the learner's side.
    pub played_outlook: Outlook,
    /// The score after the book move, from the learner's side.
    pub book_outlook: Outlook,
    /// What the move loses against the book move, in centipawns (negative when it is
    /// better); `None` when a mate is involved.
    pub loss_cp: Option<i32>,
    /// The engine's best line after the move played (its refutation when it is bad).
    pub refutation: Vec<Move>,
    /// Its first [`REFUTATION_SHOWN`] plies numbered, in SAN, with `…` when it goes on:
    /// `3...Qxg5 4.d4 Qxg2`.
    pub refutation_san: String,
    /// What happens, in words: `after 3.Ng5 Qxg5 Black wins a knight`.
    pub sentence: String,
    /// The depth of the analysis after the move played.
    pub depth: u32,
}

impl Verdict {
    /// The verdict on `question` from the analyses of its positions, in the order of
    /// [`Question::positions`]: `played` after the move played, `book` after each book
    /// move. `None` when there is no book move to compare with.
    pub fn of(question: &Question, played: &Analysis, book: &[Analysis]) -> Option<Verdict> {
        let learner = question.learner();
        let played_outlook = Outlook::after_move(played);
        let (book_move, book_outlook) = question
            .book
            .iter()
            .zip(book)
            .map(|(&m, a)| (m, Outlook::after_move(a)))
            // The first of equals: the most played.
            .fold(None, |best: Option<(Move, Outlook)>, (m, o)| match best {
                Some((_, b)) if b.rank() >= o.rank() => best,
                _ => Some((m, o)),
            })?;
        let judgement = judge(book_outlook, played_outlook);
        let loss_cp = match (book_outlook, played_outlook) {
            (Outlook::Cp(b), Outlook::Cp(p)) => Some(b - p),
            _ => None,
        };
        let mut after = question.before.clone();
        after.play_unchecked(question.played);
        let refutation = sentence::legal_prefix(&after, &played.pv);
        let book_san = numbered_line(&question.before, &[book_move]);
        let sentence = sentence::sentence(&sentence::Facts {
            before: &question.before,
            played: question.played,
            line: &refutation,
            played_outlook,
            book_outlook,
            book_san: &book_san,
        });
        Some(Verdict {
            learner,
            judgement,
            played: question.played,
            played_san: numbered_line(&question.before, &[question.played]),
            book_move,
            book_san,
            played_outlook,
            book_outlook,
            loss_cp,
            refutation_san: if refutation.len() > REFUTATION_SHOWN {
                format!(
                    "{} …",
                    numbered_line(&after, &refutation[..REFUTATION_SHOWN])
                )
            } else {
                numbered_line(&after, &refutation)
            },
            refutation,
            sentence,
            depth: played.depth,
        })
    }

    /// The move against the book move: `−0.1 against your book move 3.Nc3`; with a
    /// mate, both scores: `#−1 against +0.3 after your book move 3.Bc4` (from White's
    /// side, as the evaluations are written).
    pub fn comparison(&self) -> String {
        match self.loss_cp {
            Some(loss) => format!("{} against your book move {}", pawns(-loss), self.book_san),
            None => format!(
                "{} against {} after your book move {}",
                self.played_outlook.for_white(self.learner),
                self.book_outlook.for_white(self.learner),
                self.book_san
            ),
        }
    }

    /// The verdict in a line: `Also good (−0.1 against your book move 3.Nc3)`, or
    /// `Blunder: after 3.Ng5 Qxg5 Black wins a knight`.
    pub fn headline(&self) -> String {
        if self.judgement.is_good() {
            format!("{} ({})", self.judgement.text(), self.comparison())
        } else {
            format!("{}: {}", self.judgement.text(), self.sentence)
        }
    }
}

#[cfg(test)]
mod tests;
