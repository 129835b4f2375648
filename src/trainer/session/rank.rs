//! The learner's own moves ranked in a repertoire drill (a drill with a theory book):
//! the main move first, as the file gives it (see `book::graph` `rank`). The chart,
//! the hint, "Show me" and the learn step follow that order at the learner's turn; the
//! opponent's replies keep their popularity.
//!
//! Playing an alternative says "Also in your repertoire — your main move is 4…Nc6" and
//! is counted right or asked again ([`Ranking::ask_main`]); with
//! [`Ranking::quiz_all`], a position with two moves of the learner's is asked until
//! both are played (the last one played is kept).

use shakmaty::san::SanPlus;
use shakmaty::{Move, Position};

use super::Session;
use crate::book::NodeId;
use crate::sampler::Distribution;
use crate::trainer::MoveOutcome;

/// How the drill treats the learner's alternatives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ranking {
    /// An alternative is not kept: the drill says the main move and asks again
    /// (else it is counted right and the note said).
    pub ask_main: bool,
    /// Every move of the learner's at a position is asked, one after the other.
    pub quiz_all: bool,
    /// At the opponent's turn, the learner names every reply the repertoire answers
    /// before the computer plays one (see [`Session::asks_replies`]).
    pub quiz_replies: bool,
}

/// The drill's state of the ranking: the options, the moves quizzed at the current
/// position, the last note.
#[derive(Clone, Debug, Default)]
pub(super) struct RankState {
    pub(super) options: Ranking,
    quizzed: Vec<Move>,
    /// The opponent's replies named at the current position (by where they lead).
    pub(super) named: Vec<NodeId>,
    pub(super) note: Option<String>,
}

impl Session {
    /// Sets how alternatives are treated (see [`Ranking`]).
    pub fn set_ranking(&mut self, ranking: Ranking) {
        self.rank.options = ranking;
    }

    /// How alternatives are treated.
    pub fn ranking(&self) -> Ranking {
        self.rank.options
    }

    /// What the last move of the learner's was among their moves there ("Also in your
    /// repertoire — your main move is 4…Nc6"), until the learner's next move, a new
    /// line or a take-back.
    pub fn rank_note(&self) -> Option<&str> {
        self.rank.note.as_deref()
    }

    /// Whether the learner's moves follow the file's order here: a repertoire drill
    /// (the drill has a theory book) at the learner's turn, in the book.
    fn ranked_node(&self) -> Option<NodeId> {
        (self.theory.is_some() && self.position().turn() == self.learner)
            .then(|| self.node())
            .flatten()
    }

    /// The distribution with the learner's moves in the file's order (main first).
    pub(super) fn ranked(&self, d: Distribution) -> Distribution {
        let Some(node) = self.ranked_node() else {
            return d;
        };
        let ranked = self.graph.ranked(node);
        if ranked.len() < 2 {
            return d;
        }
        d.ranked_by(|c| ranked.iter().position(|r| Some(r.to) == c.to))
    }

    /// The move `mv` (a book move of the learner's) checked against the ranking:
    /// `Some` outcome when it is not kept (an alternative asked again, or one of
    /// several moves still to be quizzed); `None` when it is kept, with the note set.
    pub(super) fn check_rank(&mut self, mv: Move) -> Option<MoveOutcome> {
        self.rank.note = None;
        let node = self.ranked_node()?;
        let ranked = self.graph.ranked(node);
        if ranked.len() < 2 {
            return None;
        }
        let mut after = self.position().clone();
        after.play_unchecked(mv);
        let to = self.graph.lookup(&after)?;
        let rank = ranked.iter().position(|c| c.to == to)?;
        let san = SanPlus::from_move(self.position().clone(), mv).to_string();
        let pos = self.position().clone();
        let numbered = |m: Move| numbered_san(&pos, m);
        if self.rank.options.quiz_all {
            if !self.rank.quizzed.contains(&mv) {
                self.rank.quizzed.push(mv);
            }
            let left: Vec<String> = ranked
                .iter()
                .filter(|c| {
                    let mut p = pos.clone();
                    // The learner's moves not played yet (by where they lead).
                    !self.rank.quizzed.iter().any(|&q| {
                        p.clone_from(&pos);
                        p.play_unchecked(q);
                        self.graph.lookup(&p) == Some(c.to)
                    })
                })
                .map(|c| numbered(c.mv))
                .collect();
            if left.is_empty() {
                self.rank.note = Some(format!("All {} of your moves here played.", ranked.len()));
                return None;
            }
            let more = if left.len() == 1 {
                "one more move".to_owned()
            } else {
                format!("{} more moves", left.len())
            };
            let note =
                format!("Right: {san} is in your repertoire, which has {more} here. Play it too.");
            self.rank.note = Some(note.clone());
            return Some(MoveOutcome::InRepertoire { san, note });
        }
        if rank == 0 {
            return None;
        }
        let main = numbered(ranked[0].mv);
        let note = format!("Also in your repertoire — your main move is {main}.");
        if self.rank.options.ask_main {
            let note = format!("{note} Play your main move.");
            self.rank.note = Some(note.clone());
            return Some(MoveOutcome::InRepertoire { san, note });
        }
        self.rank.note = Some(note);
        None
    }

    /// Forgets the moves quizzed (the position changed).
    pub(super) fn clear_quizzed(&mut self) {
        self.rank.quizzed.clear();
        self.rank.named.clear();
    }

    /// Forgets the moves quizzed and the note (a new line, a take-back).
    pub(super) fn reset_rank(&mut self) {
        self.rank.quizzed.clear();
        self.rank.named.clear();
        self.rank.note = None;
    }
}

/// `mv` at `pos` with its move number: "4…Nc6", "5. Nf3".
fn numbered_san(pos: &shakmaty::Chess, mv: Move) -> String {
    let n = pos.fullmoves().get();
    let san = SanPlus::from_move(pos.clone(), mv);
    if pos.turn().is_white() {
        format!("{n}. {san}")
    } else {
        format!("{n}…{san}")
    }
}
