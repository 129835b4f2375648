//! Which positions a review session draws, and in which order: the session menu of the
//! window and `hastings review --session` both call [`Study::session`].
//!
//! | choice                 | the cards                                  | in order of                       |
//! |------------------------|--------------------------------------------|-----------------------------------|
//! | [`SessionChoice::Due`]       | due now, then new up to the daily limit | the queue's urgency ([`Study::queue`]) |
//! | [`SessionChoice::Week`]      | due before the end of the 7th learner day | due time                     |
//! | [`SessionChoice::Common`]    | the `n` cards a drill reaches most       | reach, largest first              |
//! | [`SessionChoice::Difficult`] | the `n` reviewed cards of highest FSRS difficulty | difficulty, highest first |
//! | [`SessionChoice::All`]       | every card                               | the deck's (nearest the start first) |
//! | [`SessionChoice::Branch`]    | the cards at or after a position         | the deck's                        |
//! | [`SessionChoice::Chapter`]   | the cards where a chapter's lines play the learner's move | the deck's   |
//!
//! A card's reach is the deck's ([`Deck::new`]) unless the caller replaced it: the
//! window and the CLI set the sampler's exact probability that a drill reaches it
//! ([`crate::trainer::coverage::set_exact_reach`]).

use std::fmt;
use std::str::FromStr;

use shakmaty::{Chess, Move, Position};
use thiserror::Error;

use super::deck::Deck;
use super::study::{QueueEntry, QueueReason, SessionKind, Study};
use crate::book::{LineSource, NodeId, PositionGraph};

/// How many cards "the most common" and "the most difficult" draw when no number is
/// given.
pub const DEFAULT_SESSION_CARDS: usize = 20;

/// The days "due this week" looks ahead: today and the six days after.
pub const WEEK_DAYS: i64 = 7;

/// Which positions a review session draws.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SessionChoice {
    /// Due now, then new cards up to the daily limit.
    #[default]
    Due,
    /// Due before the end of the week (today and the six learner days after).
    Week,
    /// The `n` positions a drill reaches most often.
    Common(usize),
    /// The `n` reviewed positions with the highest FSRS difficulty.
    Difficult(usize),
    /// The whole repertoire.
    All,
    /// The positions at or after the one these moves (from the standard position) reach.
    Branch(Vec<Move>),
    /// The positions where the lines of this chapter (1-based game number of the PGN
    /// file) play the learner's move.
    Chapter(u32),
}

/// Why a `--session` text is not a session.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ChoiceError {
    /// Not one of the session names.
    #[error(
        "`{0}` is not a session: due, week, common:N, difficult[:N], all, branch:\"SAN moves\" \
         or chapter:N"
    )]
    Unknown(String),
    /// A number that cannot be read.
    #[error("`{text}` in `{session}` is not a number of 1 or more")]
    Number {
        /// The session text.
        session: String,
        /// The number's text.
        text: String,
    },
    /// A branch's moves cannot be read or played from the standard position.
    #[error("the branch `{moves}`: {error}")]
    Moves {
        /// The moves given.
        moves: String,
        /// Why they cannot be played.
        error: crate::book::movelist::MoveListError,
    },
}

impl FromStr for SessionChoice {
    type Err = ChoiceError;

    /// `due`, `week`, `common:N`, `difficult`, `difficult:N`, `all`, `branch:SAN moves`
    /// (from the standard position), `chapter:N`.
    fn from_str(s: &str) -> Result<SessionChoice, ChoiceError> {
        let t = s.trim();
        let (name, arg) = match t.split_once(':') {
            Some((n, a)) => (n.trim().to_ascii_lowercase(), Some(a.trim())),
            None => (t.to_ascii_lowercase(), None),
        };
        let number = |a: &str| match a.parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(ChoiceError::Number {
                session: t.to_owned(),
                text: a.to_owned(),
            }),
        };
        match (name.as_str(), arg) {
            ("due", None) => Ok(SessionChoice::Due),
            ("week", None) => Ok(SessionChoice::Week),
            ("all", None) => Ok(SessionChoice::All),
            ("difficult", None) => Ok(SessionChoice::Difficult(DEFAULT_SESSION_CARDS)),
            ("difficult", Some(a)) => number(a).map(SessionChoice::Difficult),
            ("common", Some(a)) => number(a).map(SessionChoice::Common),
            ("chapter", Some(a)) => {
                number(a).map(|n| SessionChoice::Chapter(u32::try_from(n).unwrap_or(u32::MAX)))
            }
            ("branch", Some(a)) => {
                let moves = a.trim_matches('"');
                crate::book::movelist::parse_moves(&Chess::default(), moves)
                    .map(SessionChoice::Branch)
                    .map_err(|error| ChoiceError::Moves {
                        moves: moves.to_owned(),
                        error,
                    })
            }
            _ => Err(ChoiceError::Unknown(t.to_owned())),
        }
    }
}

impl fmt::Display for SessionChoice {
    /// The form [`SessionChoice::from_str`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionChoice::Due => write!(f, "due"),
            SessionChoice::Week => write!(f, "week"),
            SessionChoice::Common(n) => write!(f, "common:{n}"),
            SessionChoice::Difficult(n) => write!(f, "difficult:{n}"),
            SessionChoice::All => write!(f, "all"),
            SessionChoice::Branch(moves) => {
                let sans: Vec<String> = crate::book::line::sans_of(&Chess::default(), moves)
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                write!(f, "branch:{}", sans.join(" "))
            }
            SessionChoice::Chapter(n) => write!(f, "chapter:{n}"),
        }
    }
}

impl Study<'_> {
    /// The cards the session `choice` draws, in the order it draws them (see the
    /// [module docs](self)); `graph` is the deck's book (for a branch and a chapter).
    pub fn session(
        &self,
        choice: &SessionChoice,
        graph: &PositionGraph,
        new_per_day: u32,
    ) -> Vec<QueueEntry> {
        let deck = self.deck;
        let cards: Vec<usize> = match choice {
            SessionChoice::Due => return self.queue(SessionKind::Due, new_per_day),
            SessionChoice::Week => {
                let today = self.now.day();
                let mut due: Vec<(i64, usize)> = (0..deck.len())
                    .filter_map(|i| {
                        let due = self.state(i)?.due?;
                        let day = due.with_offset(self.now.offset_minutes()).day();
                        (day - today < WEEK_DAYS).then_some((due.unix_ms(), i))
                    })
                    .collect();
                due.sort_unstable();
                due.into_iter().map(|(_, i)| i).collect()
            }
            SessionChoice::Common(n) => {
                let mut all: Vec<usize> = (0..deck.len()).collect();
                all.sort_by(|&a, &b| deck.cards()[b].reach.total_cmp(&deck.cards()[a].reach));
                all.truncate(*n);
                all
            }
            SessionChoice::Difficult(n) => {
                let mut learned: Vec<(f32, usize)> = (0..deck.len())
                    .filter_map(|i| Some((self.state(i)?.memory?.difficulty, i)))
                    .collect();
                learned.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                learned.truncate(*n);
                learned.into_iter().map(|(_, i)| i).collect()
            }
            SessionChoice::All => (0..deck.len()).collect(),
            SessionChoice::Branch(moves) => branch_cards(deck, graph, moves),
            SessionChoice::Chapter(game) => chapter_cards(deck, graph, *game),
        };
        cards.into_iter().map(|i| self.entry(i)).collect()
    }

    /// The queue entry of card `i` drawn by a chosen session: due, new, or practised
    /// early.
    fn entry(&self, i: usize) -> QueueEntry {
        let reach = self.deck.cards().get(i).map_or(0.0, |c| c.reach);
        match self.state(i) {
            None => QueueEntry {
                card: i,
                reason: QueueReason::New,
                retrievability: None,
                urgency: reach,
            },
            Some(s) => {
                let r = s.retrievability(self.scheduler, self.now);
                QueueEntry {
                    card: i,
                    reason: if s.is_due(self.now) {
                        QueueReason::Due
                    } else {
                        QueueReason::Early
                    },
                    retrievability: Some(r),
                    urgency: (1.0 - r) * reach,
                }
            }
        }
    }
}

/// The cards at the node `moves` reach and at every node after it, in deck order (none
/// when the moves leave the book).
fn branch_cards(deck: &Deck, graph: &PositionGraph, moves: &[Move]) -> Vec<usize> {
    let mut pos = Chess::default();
    for &mv in moves {
        if !pos.is_legal(mv) {
            return Vec::new();
        }
        pos.play_unchecked(mv);
    }
    let Some(root) = graph.lookup(&pos) else {
        return Vec::new();
    };
    let mut seen = vec![false; graph.node_count()];
    let mut stack: Vec<NodeId> = vec![root];
    seen[root.index()] = true;
    while let Some(node) = stack.pop() {
        for c in graph.continuations(node) {
            if !seen[c.to.index()] {
                seen[c.to.index()] = true;
                stack.push(c.to);
            }
        }
    }
    (0..deck.len())
        .filter(|&i| seen[deck.cards()[i].node.index()])
        .collect()
}

/// The cards where a line of PGN game `game` plays the learner's move, in deck order.
fn chapter_cards(deck: &Deck, graph: &PositionGraph, game: u32) -> Vec<usize> {
    let mut chosen = vec![false; deck.len()];
    for (i, line) in graph.lines().iter().enumerate() {
        if matches!(line.source, LineSource::Pgn { game: g, .. } if g == game) {
            let id = crate::book::LineId(u32::try_from(i).unwrap_or(u32::MAX));
            for &c in deck.line_decision_cards(id) {
                if let Some(slot) = chosen.get_mut(c as usize) {
                    *slot = true;
                }
            }
        }
    }
    (0..deck.len()).filter(|&i| chosen[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_texts_read_back() {
        for text in ["due", "week", "common:5", "difficult:3", "all", "chapter:2"] {
            let c: SessionChoice = text.parse().unwrap();
            assert_eq!(c.to_string(), text);
        }
        let b: SessionChoice = "branch:\"e4 e5 Nf3\"".parse().unwrap();
        assert_eq!(b.to_string(), "branch:e4 e5 Nf3");
        assert_eq!(
            "difficult".parse::<SessionChoice>().unwrap(),
            SessionChoice::Difficult(DEFAULT_SESSION_CARDS)
        );
    }

    #[test]
    fn bad_session_texts_say_why() {
        assert!(matches!(
            "soon".parse::<SessionChoice>(),
            Err(ChoiceError::Unknown(_))
        ));
        assert!(matches!(
            "common:0".parse::<SessionChoice>(),
            Err(ChoiceError::Number { .. })
        ));
        assert!(matches!(
            "common".parse::<SessionChoice>(),
            Err(ChoiceError::Unknown(_))
        ));
        assert!(matches!(
            "branch:e4 Ke7".parse::<SessionChoice>(),
            Err(ChoiceError::Moves { .. })
        ));
    }
}
