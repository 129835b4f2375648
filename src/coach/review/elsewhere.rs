//! "Mistakes only" with nothing to go over in the book drilled now, while the progress
//! records mistakes elsewhere: at positions the learner meets as the other colour, or
//! in the theory book (ECO) but not in the repertoire, or in no book loaded now. What
//! the drill panel says then, and what it offers: the other colour, or the theory book
//! ([`MissedElsewhere`]).

use shakmaty::{Chess, Color, Move, Position};

use crate::book::PositionGraph;
use crate::coach::context::Context;
use crate::review::{CardKey, Deck};

/// How many of the positions the drill panel lists.
pub const ELSEWHERE_SHOWN: usize = 3;

/// Where a missed position that the book drilled now cannot ask is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MissedAt {
    /// In this book, with the other colour to move: the learner meets it playing that
    /// colour.
    OtherSide,
    /// In the theory book (ECO), not in the repertoire drilled now.
    Theory,
    /// In no book drilled or loaded now.
    Nowhere,
}

/// A missed position that the book drilled now cannot ask.
#[derive(Debug, Clone, PartialEq)]
pub struct MissedPosition {
    /// The position (the side that missed it to move).
    pub position: Chess,
    /// How many tries there left the book.
    pub mistakes: u32,
    /// Where it is.
    pub at: MissedAt,
    /// The moves to it in the book that has it, from the standard position (`None`
    /// when that book does not reach it from there).
    pub moves: Option<Vec<Move>>,
}

/// The positions with mistakes that "Mistakes only" cannot ask in the book drilled now
/// (most mistakes first; the moves to the first [`ELSEWHERE_SHOWN`] found).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MissedElsewhere {
    /// The positions.
    pub positions: Vec<MissedPosition>,
}

impl MissedElsewhere {
    /// How many are at `at`.
    pub fn count(&self, at: &MissedAt) -> usize {
        self.positions.iter().filter(|p| p.at == *at).count()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The colour the learner meets the other side's positions as, when there are any.
    pub fn other_side(&self) -> Option<Color> {
        self.positions
            .iter()
            .find(|p| p.at == MissedAt::OtherSide)
            .map(|p| p.position.turn())
    }
}

/// The positions where the progress records mistakes that are no card of `deck` (the
/// book drilled now, the learner's colour), and where each is.
pub(crate) fn missed_elsewhere(deck: &Deck, ctx: &mut Context) -> MissedElsewhere {
    let learner = ctx.session.learner();
    let theory = ctx.workspace.theory();
    let graph = std::sync::Arc::clone(&ctx.graph);
    let mut positions: Vec<MissedPosition> = ctx
        .progress
        .progress()
        .most_missed(usize::MAX)
        .into_iter()
        .filter_map(|(epd, record)| {
            let position = crate::trainer::progress::position_of(epd)?;
            if deck.index_of(&CardKey::from_position(&position)).is_some() {
                return None;
            }
            let mine = position.turn() == learner;
            let at = if !mine && graph.lookup(&position).is_some() {
                MissedAt::OtherSide
            } else if mine
                && theory
                    .as_ref()
                    .is_some_and(|t| t.lookup(&position).is_some())
            {
                MissedAt::Theory
            } else {
                MissedAt::Nowhere
            };
            Some(MissedPosition {
                position,
                mistakes: record.mistakes,
                at,
                moves: None,
            })
        })
        .collect();
    for p in positions.iter_mut().take(ELSEWHERE_SHOWN) {
        let book: Option<&PositionGraph> = match p.at {
            MissedAt::OtherSide => Some(&graph),
            MissedAt::Theory => theory.as_deref(),
            MissedAt::Nowhere => None,
        };
        p.moves = book.and_then(|b| b.lookup(&p.position).and_then(|n| b.path_to(n)));
    }
    MissedElsewhere { positions }
}
