//! Wrong moves explained: is a move outside the book also good, or an inaccuracy, a
//! mistake, a blunder; what it gives up against the book's main move; and the engine's
//! line after it, in a sentence ("after 3.Ng5 Qxg5 Black wins a knight").
//!
//! A [`Question`] is the position before the learner's move, the move, and the book's
//! main move there: the most played one, the one the chart shows on top (not whichever
//! book move the engine likes best: the learner is told how the move compares with what
//! the book mostly plays). Its answer needs one analysis per position after a move
//! ([`Question::positions`]: the move played first, then the main move), each from the
//! point of view of the side to move there, the learner's opponent. From them
//! [`Verdict::of`] makes the verdict, purely; [`checker::MoveChecker`] gets the analyses
//! from a cache or from an engine on a background thread.
//!
//! # The thresholds
//!
//! As lichess judges moves in its analysis (lila, `modules/tree/src/main/Advice.scala`,
//! `CpAdvice.winningChanceJudgements`), by the drop in the mover's *winning chances*
//! between the book's main move and the move played:
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
//! lichess's: a move that allows a mate the main move does not allow, or that misses a
//! mate the main move has, is a blunder (lichess calls it a mistake or an inaccuracy
//! when the position was lost anyway).
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
//!
//! # The words follow the judgement
//!
//! The verdict is one judgement word and one sentence that does not contradict it:
//!
//! - The sentence names a mate when there is one; else, when the engine's line wins
//!   material (counted where the first exchange is over) and the evaluation shows at
//!   least 60 % of it both after the move and against the main move, it says what is
//!   won ("after 3...Bg4 4.dxc5 White wins a pawn"); else it says who is better by how
//!   much, and for a move judged worse than "also good" after which the opponent is not
//!   better, what the main move kept ("the game is level (0.0) instead of +1.3").
//! - A move whose line wins material is at least a **mistake**: a club player who drops
//!   a pawn for nothing has made one, even where lichess's curve would say
//!   "inaccuracy" (no "Inaccuracy: … White wins a pawn").
//! - The engine's line is called a **refutation** only when it wins something concrete
//!   (see [`Verdict::refuted`]): material, as above; a mate; or an evaluation
//!   [`REFUTATION_SWING`] centipawns or more worse than after the main move. Otherwise
//!   it is "the engine's line".

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

/// From how many centipawns worse than the main move the engine's line after a move is
/// a refutation even when it wins no material (a pawn and a half).
pub const REFUTATION_SWING: i32 = 150;

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

/// A move outside the book to judge: the position before it, the move, and the book's
/// main move to compare it with.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// The position before the move (the learner to move).
    pub before: Chess,
    /// The learner's move.
    pub played: Move,
    /// The book's main move there (the most played), compared with; `None` when the
    /// book has no legal move there.
    pub main: Option<Move>,
    /// How often the book plays the main move there, from 0 to 1 (the chart's share),
    /// when known.
    pub main_share: Option<f64>,
}

impl Question {
    /// The question about `played` at `before`, against the first legal move of `book`
    /// (most played first): the book's main move.
    pub fn new(before: Chess, played: Move, book: impl IntoIterator<Item = Move>) -> Question {
        let main = book
            .into_iter()
            .find(|&m| m != played && before.is_legal(m));
        Question {
            before,
            played,
            main,
            main_share: None,
        }
    }

    /// The same, saying how often the book plays its main move (0 to 1).
    #[must_use]
    pub fn with_share(self, share: f64) -> Question {
        Question {
            main_share: Some(share).filter(|s| s.is_finite()),
            ..self
        }
    }

    /// The learner's colour.
    pub fn learner(&self) -> Color {
        self.before.turn()
    }

    /// The positions to analyse: after the move played, then after the main move.
    pub fn positions(&self) -> Vec<Chess> {
        std::iter::once(self.played)
            .chain(self.main)
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
    /// The book's main move, compared with.
    pub book_move: Move,
    /// It numbered, in SAN: `3.Bc4`.
    pub book_san: String,
    /// How often the book plays it (0 to 1), when known.
    pub book_share: Option<f64>,
    /// The score after the move played, from the learner's side.
    pub played_outlook: Outlook,
    /// The score after the main move, from the learner's side.
    pub book_outlook: Outlook,
    /// What the move loses against the main move, in centipawns (negative when it is
    /// better); `None` when a mate is involved.
    pub loss_cp: Option<i32>,
    /// The engine's best line after the move played.
    pub refutation: Vec<Move>,
    /// Whether that line wins something concrete (material, a mate, or
    /// [`REFUTATION_SWING`] centipawns or more against the main move): only then is it
    /// called a refutation.
    pub refuted: bool,
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
    /// [`Question::positions`]: `played` after the move played, `book` after the main
    /// move. `None` when there is no main move to compare with.
    pub fn of(question: &Question, played: &Analysis, book: &[Analysis]) -> Option<Verdict> {
        let learner = question.learner();
        let played_outlook = Outlook::after_move(played);
        let book_move = question.main?;
        let book_outlook = Outlook::after_move(book.first()?);
        let mut judgement = judge(book_outlook, played_outlook);
        let loss_cp = match (book_outlook, played_outlook) {
            (Outlook::Cp(b), Outlook::Cp(p)) => Some(b - p),
            _ => None,
        };
        let mut after = question.before.clone();
        after.play_unchecked(question.played);
        let refutation = sentence::legal_prefix(&after, &played.pv);
        let book_san = numbered_line(&question.before, &[book_move]);
        let told = sentence::sentence(&sentence::Facts {
            before: &question.before,
            played: question.played,
            line: &refutation,
            played_outlook,
            book_outlook,
            book_san: &book_san,
            bad: !judgement.is_good(),
        });
        if told.material_won {
            judgement = judgement.max(Judgement::Mistake);
        }
        let refuted = !refutation.is_empty()
            && (told.material_won
                || matches!(played_outlook, Outlook::Mated(_))
                || loss_cp.is_some_and(|loss| loss >= REFUTATION_SWING));
        Some(Verdict {
            learner,
            judgement,
            played: question.played,
            played_san: numbered_line(&question.before, &[question.played]),
            book_move,
            book_san,
            book_share: question.main_share,
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
            refuted,
            sentence: told.text,
            depth: played.depth,
        })
    }

    /// The main move named: `3...cxd4, the book's main move (98 %)` (without the share
    /// when it is not known).
    pub fn main_move(&self) -> String {
        match self.book_share {
            Some(share) => format!(
                "{}, the book's main move ({:.0} %)",
                self.book_san,
                100.0 * share
            ),
            None => format!("{}, the book's main move", self.book_san),
        }
    }

    /// The move against the main move: `−0.8 against 3...cxd4, the book's main move
    /// (98 %)`; with a mate, both scores: `#−1 against +0.3 after 3.Bc4, the book's main
    /// move (60 %)` (from White's side, as the evaluations are written).
    pub fn comparison(&self) -> String {
        match self.loss_cp {
            Some(loss) => format!("{} against {}", pawns(-loss), self.main_move()),
            None => format!(
                "{} against {} after {}",
                self.played_outlook.for_white(self.learner),
                self.book_outlook.for_white(self.learner),
                self.main_move()
            ),
        }
    }

    /// The verdict in a line: `Also good: −0.1 against 3.Nc3, the book's main move
    /// (45 %)`, or `Blunder: after 3.Ng5 Qxg5 Black wins a knight`.
    pub fn headline(&self) -> String {
        if self.judgement.is_good() {
            format!("{}: {}", self.judgement.text(), self.comparison())
        } else {
            format!("{}: {}", self.judgement.text(), self.sentence)
        }
    }

    /// What the engine's line is called: `Refutation` when it wins something concrete
    /// ([`Verdict::refuted`]), else `The engine's line`.
    pub fn line_name(&self) -> &'static str {
        if self.refuted {
            "Refutation"
        } else {
            "The engine's line"
        }
    }
}

#[cfg(test)]
mod tests;
