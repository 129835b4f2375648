//! The engine check's report in a club player's words, for the Coverage tab and
//! `hastings check` alike: how often a drill meets a position ("in 1 drill in 12", not
//! a reach of 0.083), scores as a player reads them ("mated in 1", not `#-1`), the
//! repertoire's value, what a line to learn is worth; and the exact terms (reach,
//! recall, stake, min-max and expected back-up) for the hover texts.

use shakmaty::{Chess, Move};

use crate::engine::Score;
use crate::trainer::coverage::one_in;
use crate::trainer::verdict::numbered_line;

/// How often a drill meets a position of reach `reach`: `"in every drill"`, `"in 1 drill
/// in 12"`, `"not in your drills"` (reach 0: a line past the drill's depth).
pub fn how_often(reach: f64) -> String {
    match one_in(reach) {
        0 => "not in your drills".to_owned(),
        1 => "in every drill".to_owned(),
        n => format!("in 1 drill in {}", crate::coach::format::count(n)),
    }
}

/// [`how_often`] as a sentence: `"Met in 1 drill in 12"`, `"Met in every drill"`, `"Not
/// met in your drills (past their depth)"`.
pub fn met_words(reach: f64) -> String {
    if one_in(reach) == 0 {
        "Not met in your drills (past their depth)".to_owned()
    } else {
        format!("Met {}", how_often(reach))
    }
}

/// A score from the learner's side as a player reads it: `"+0.30"`, `"−2.90"`, `"mate
/// in 2 for you"`, `"mated in 1"`.
pub fn score_words(score: Score) -> String {
    match score {
        Score::Cp(cp) => pawns(f64::from(cp) / 100.0),
        Score::Mate(n) if n > 0 => format!("mate in {n} for you"),
        Score::Mate(n) => format!("mated in {}", n.unsigned_abs()),
    }
}

/// Pawns with their sign, a true minus sign for the negative: `"+0.30"`, `"−3.46"`.
pub fn pawns(value: f64) -> String {
    let text = format!("{value:+.2}");
    match text.strip_prefix('-') {
        Some(rest) => format!("−{rest}"),
        None => text,
    }
}

/// What the repertoire is worth, in one sentence: `expected_cp` on average where drills
/// end, `minimax_cp` against the replies that hurt most.
pub fn value_words(minimax_cp: i32, expected_cp: f64) -> String {
    format!(
        "Where your lines end: {} on average in your drills, {} if your opponent always \
         finds the book reply that hurts you most (in pawns, + is good for you).",
        pawns(expected_cp / 100.0),
        pawns(f64::from(minimax_cp) / 100.0)
    )
}

/// The exact terms behind [`value_words`], for its hover text.
pub fn value_terms(minimax_cp: i32, expected_cp: f64) -> String {
    format!(
        "Expected value under the drill's reply distribution: {:.0} cp; min-max back-up \
         over the book's replies: {minimax_cp} cp (scores from your side, capped at ±{} cp \
         so that one mate does not swamp the average)",
        expected_cp,
        crate::trainer::check::CAP_CP
    )
}

/// How a line to learn next is described: `"in 1 drill in 12, not reviewed yet, a pawn
/// at stake"`; `recall` a probability, `stake` in pawns.
pub fn learn_words(reach: f64, recall: f64, stake: f64) -> String {
    let remembered = if recall > 0.0 {
        format!("you remember it {:.0} % of the time", recall * 100.0)
    } else {
        "not reviewed yet".to_owned()
    };
    let at_stake = if (stake - 1.0).abs() < 0.05 {
        "a pawn at stake".to_owned()
    } else {
        format!("{stake:.1} pawns at stake")
    };
    format!("{}, {remembered}, {at_stake}", how_often(reach))
}

/// The exact terms behind [`learn_words`], for its hover text.
pub fn learn_terms(reach: f64, recall: f64, stake: f64) -> String {
    format!(
        "Reach {reach:.3} (the probability that a drill meets this position); recall {:.0} % \
         (the review schedule's probability that you remember the move now, 0 if never \
         reviewed); stake {stake:.2} (the engine's score after your move, in pawns, at \
         least 1). Ranked by reach × (1 − recall) × stake.",
        recall * 100.0
    )
}

/// The line to a learner's move and the move, numbered as players write it, marked as a
/// mistake: `"1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?"` (from `start`, the standard position or a
/// chapter's set-up).
pub fn mistake_line(start: &Chess, way: &[Move], played: Move) -> String {
    let mut moves = way.to_vec();
    moves.push(played);
    format!("{}?", numbered_line(start, &moves))
}

/// The better move and both scores, and how the move is punished: `"Better 3...g6
/// (+0.30); after yours: mated in 1. Then 4.Qxf7#"`.
pub fn punishment_words(best: Option<&str>, scores: &(String, String), line: &str) -> String {
    let better = best.map_or(String::new(), |b| format!("Better {b} ({}); ", scores.0));
    let then = if line.is_empty() {
        String::new()
    } else {
        format!(" Then {line}")
    };
    format!("{better}after yours: {}.{then}", scores.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn how_often_says_drills_not_a_probability() {
        assert_eq!(how_often(1.0), "in every drill");
        assert_eq!(how_often(0.98), "in every drill");
        assert_eq!(how_often(1.0 / 12.0), "in 1 drill in 12");
        assert_eq!(how_often(0.0002), "in 1 drill in 5,000");
        assert_eq!(how_often(0.0), "not in your drills");
    }

    #[test]
    fn scores_read_as_a_player_says_them() {
        assert_eq!(score_words(Score::Cp(30)), "+0.30");
        assert_eq!(score_words(Score::Cp(-346)), "−3.46");
        assert_eq!(score_words(Score::Mate(2)), "mate in 2 for you");
        assert_eq!(score_words(Score::Mate(-1)), "mated in 1");
    }

    #[test]
    fn a_line_to_learn_says_how_often_whether_reviewed_and_the_stake() {
        assert_eq!(
            learn_words(1.0, 0.0, 1.0),
            "in every drill, not reviewed yet, a pawn at stake"
        );
        assert_eq!(
            learn_words(0.25, 0.8, 2.5),
            "in 1 drill in 4, you remember it 80 % of the time, 2.5 pawns at stake"
        );
    }
}
