//! An exposure's positions described for a report, as `hastings coverage` and the
//! Coverage tab both show them: the way there in SAN, the EPD, the opening's name, and
//! at a gap the theory's moves.

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move};

use super::report::{Gap, describe};
use crate::book::PositionGraph;

/// A position of an exposure described.
#[derive(Debug, Clone, PartialEq)]
pub struct CoverageRow {
    /// The most likely way there from the start.
    pub moves: Vec<Move>,
    /// It in SAN: `"e4 c6"`.
    pub sans: String,
    /// The position as EPD.
    pub epd: String,
    /// `"B10 Caro-Kann Defense"`, if a line names it.
    pub name: Option<String>,
    /// The probability that a drill reaches it.
    pub reach: f64,
    /// For a gap: the theory's moves there in SAN, most popular first.
    pub theory: Vec<String>,
    /// For a gap: the theory's most popular move there.
    pub answer: Option<Move>,
    /// The position, for a board preview.
    pub position: Chess,
}

impl CoverageRow {
    /// The position `position` reached by `moves` with probability `reach`; its name
    /// from `names`, tried in order.
    pub fn new(moves: &[Move], position: &Chess, reach: f64, names: &[&PositionGraph]) -> Self {
        let info = describe(moves, names);
        CoverageRow {
            moves: moves.to_vec(),
            sans: info.sans,
            epd: info.epd,
            name: info.name,
            reach,
            theory: Vec::new(),
            answer: None,
            position: position.clone(),
        }
    }

    /// A gap, with the theory's moves there.
    pub fn gap(g: &Gap, names: &[&PositionGraph]) -> Self {
        CoverageRow {
            theory: sans_at(&g.position, &g.theory),
            answer: g.theory.first().copied(),
            ..CoverageRow::new(&g.moves, &g.position, g.reach, names)
        }
    }
}

/// Each of `moves`, legal at `pos`, in SAN with check marks.
pub fn sans_at(pos: &Chess, moves: &[Move]) -> Vec<String> {
    moves
        .iter()
        .map(|&m| SanPlus::from_move(pos.clone(), m).to_string())
        .collect()
}
