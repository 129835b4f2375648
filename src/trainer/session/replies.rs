//! "Quiz the replies I cover": in a repertoire drill (a drill with a theory book), at a
//! position where the opponent is to move, the learner first names, by playing them on
//! the board, every reply of the opponent's that the repertoire answers (the node's
//! book continuations); then the computer plays one of them and the line goes on. No
//! other trainer asks this; the graph lists the replies.

use shakmaty::san::SanPlus;
use shakmaty::{Move, Position};

use super::Session;
use crate::book::NodeId;
use crate::trainer::{MoveOutcome, Phase};

impl Session {
    /// Whether the drill asks the learner for the opponent's replies here ("What can
    /// White play here that your repertoire answers?"): the mode is on, it is a
    /// repertoire drill, the opponent is to move in the book, and a reply is still to
    /// be named.
    pub fn asks_replies(&self) -> bool {
        self.replies_here().is_some_and(|(_, left)| left > 0)
    }

    /// The replies the repertoire answers here and how many of them are still to be
    /// named, while the mode is on at the opponent's turn of a repertoire drill.
    pub fn replies_here(&self) -> Option<(usize, usize)> {
        let node = self.replies_node()?;
        let all = self.graph.continuations(node);
        let left = all
            .iter()
            .filter(|c| !self.rank.named.contains(&c.to))
            .count();
        Some((all.len(), left))
    }

    /// The node where the replies are asked, if they are.
    fn replies_node(&self) -> Option<NodeId> {
        let asked = self.rank.options.quiz_replies
            && self.theory.is_some()
            && self.phase == Phase::ComputerToMove
            && self.viewing.is_none()
            && self.position().turn() != self.learner;
        asked.then(|| self.node()).flatten()
    }

    /// The learner names `mv` as a reply the repertoire answers: never kept, never a
    /// mistake; the note says whether it is one and how many are left.
    pub(super) fn name_reply(&mut self, mv: Move) -> MoveOutcome {
        let Some(node) = self.replies_node() else {
            return MoveOutcome::Rejected;
        };
        if !self.position().is_legal(mv) {
            return MoveOutcome::Rejected;
        }
        let san = SanPlus::from_move(self.position().clone(), mv).to_string();
        let mut after = self.position().clone();
        after.play_unchecked(mv);
        let to = self.graph.lookup(&after);
        let covered = to.filter(|&t| self.graph.continuations(node).iter().any(|c| c.to == t));
        if let Some(t) = covered
            && !self.rank.named.contains(&t)
        {
            self.rank.named.push(t);
        }
        let (all, left) = self.replies_here().unwrap_or((0, 0));
        let counted = match left {
            0 => format!("All {all} named: the computer plays one of them."),
            1 => "One more to name.".to_owned(),
            n => format!("{n} more to name."),
        };
        let note = match covered {
            Some(_) => format!("Right: {san} is a reply your repertoire answers. {counted}"),
            None => format!("{san} is not a reply your repertoire answers. {counted}"),
        };
        self.rank.note = Some(note.clone());
        MoveOutcome::InRepertoire { san, note }
    }
}
