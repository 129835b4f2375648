//! Which positions a check analyses, and the way to each.
//!
//! Every state of the drill's tree ([`Exposure::tree`]: the learner's and the
//! opponent's positions a drill can reach, the positions after book replies the
//! repertoire does not answer included) and every position of the repertoire's own
//! lines (those past the exposure's depth, and chapters that start from a set-up
//! position), each once, the likeliest first so a run stopped early has analysed what
//! matters most.

use rustc_hash::{FxHashMap, FxHashSet};
use shakmaty::{Chess, Move, Position};

use super::store::epd_key;

use crate::book::{LineId, NodeId, NodeKey, PositionGraph};
use crate::trainer::coverage::Exposure;

/// The positions to analyse, each once (by EPD), the likeliest first.
pub fn positions_to_analyse(repertoire: &PositionGraph, exposure: &Exposure) -> Vec<Chess> {
    let mut states: Vec<(f64, &Chess)> = exposure
        .tree()
        .into_iter()
        .flatten()
        .map(|s| (s.reach, s.position))
        .collect();
    states.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut seen = FxHashSet::default();
    let mut out = Vec::new();
    for (_, pos) in states {
        if seen.insert(epd_key(pos)) {
            out.push(pos.clone());
        }
    }
    for node in repertoire.node_ids() {
        let Ok(pos) = repertoire.try_position(node) else {
            continue;
        };
        // The positions after the repertoire's moves too: a learner move is judged by
        // the position it leads to.
        let mut around = vec![pos.clone()];
        for c in repertoire.continuations(node) {
            if pos.is_legal(c.mv) {
                let mut child = pos.clone();
                child.play_unchecked(c.mv);
                around.push(child);
            }
        }
        for p in around {
            if seen.insert(epd_key(&p)) {
                out.push(p);
            }
        }
    }
    out
}

/// The opponent's book for a check: the theory's lines and the repertoire's own, so
/// the opponent's moves the repertoire prepares for are in the drill's tree even where
/// the theory lacks them.
pub fn joined_theory(theory: &PositionGraph, repertoire: &PositionGraph) -> PositionGraph {
    PositionGraph::build(theory.lines().iter().chain(repertoire.lines()).cloned()).graph
}

/// The way to a position: the position the moves start from (the standard position,
/// or a chapter's set-up position) and the moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    /// Where the moves start.
    pub start: Chess,
    /// The moves.
    pub moves: Vec<Move>,
}

/// The way to each position of a repertoire: the exposure's likeliest path where a
/// drill reaches it, else the first line of the repertoire through it.
pub struct Paths<'a> {
    exposure: &'a Exposure,
    likeliest: FxHashMap<NodeKey, usize>,
    /// The first line and ply through each node.
    first: FxHashMap<NodeId, (usize, usize)>,
    lines: Vec<(Chess, Vec<Move>)>,
}

impl<'a> Paths<'a> {
    /// The paths of `repertoire`'s positions, with `exposure`'s where it has one.
    pub fn new(repertoire: &PositionGraph, exposure: &'a Exposure) -> Paths<'a> {
        let likeliest = exposure
            .positions()
            .iter()
            .enumerate()
            .map(|(i, p)| (p.key, i))
            .collect();
        let mut first = FxHashMap::default();
        let mut lines = Vec::new();
        for (i, line) in repertoire.lines().iter().enumerate() {
            let id = LineId(u32::try_from(i).unwrap_or(u32::MAX));
            let moves = repertoire.line_moves(id).to_vec();
            let start = line.start_position();
            let index = lines.len();
            let mut pos = start.clone();
            for ply in 0..=moves.len() {
                if let Some(node) = repertoire.lookup(&pos) {
                    first.entry(node).or_insert((index, ply));
                }
                if let Some(&m) = moves.get(ply) {
                    pos.play_unchecked(m);
                }
            }
            lines.push((start, moves));
        }
        Paths {
            exposure,
            likeliest,
            first,
            lines,
        }
    }

    /// The way to `pos` (a position of the repertoire or of the drill's tree).
    pub fn to(&self, repertoire: &PositionGraph, pos: &Chess) -> Path {
        let key = NodeKey::from_position(pos);
        if let Some(&i) = self.likeliest.get(&key) {
            return Path {
                start: Chess::default(),
                moves: self.exposure.positions()[i].moves.clone(),
            };
        }
        repertoire
            .lookup(pos)
            .and_then(|node| self.first.get(&node))
            .map_or(
                Path {
                    start: pos.clone(),
                    moves: Vec::new(),
                },
                |&(line, ply)| Path {
                    start: self.lines[line].0.clone(),
                    moves: self.lines[line].1[..ply].to_vec(),
                },
            )
    }

    /// The reach of a position: how often a drill meets it (0 when it cannot).
    pub fn reach(&self, pos: &Chess) -> f64 {
        self.likeliest
            .get(&NodeKey::from_position(pos))
            .map_or(0.0, |&i| self.exposure.positions()[i].reach)
    }
}
