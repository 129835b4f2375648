//! The states summed up: reach per position, gaps, coverage by depth, redundancy, and
//! positions described for people (SAN path, EPD, opening name).

use rustc_hash::FxHashMap;
use shakmaty::fen::Epd;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use super::expand::{Outcome, State};
use super::{CoverageOptions, Exposure, path_to};
use crate::book::{NodeKey, OpeningLine, PositionGraph};
use crate::sampler::{MoveSource, Style};

/// A position and its reach, summed over every path, ply and `s_prev` that led to it.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionReach {
    /// The position's identity (pieces and side to move).
    pub key: NodeKey,
    /// The game's position along the most likely path.
    pub position: Chess,
    /// The ply of the most likely path.
    pub ply: u32,
    /// The most likely path from the standard position.
    pub moves: Vec<Move>,
    /// The probability that a drill reaches it (expected visits).
    pub reach: f64,
    /// Whether the learner is to move.
    pub learner_to_move: bool,
    /// At a learner position: the repertoire's moves here.
    pub repertoire: Vec<Move>,
}

/// A likely learner position where the repertoire has no move but the theory has.
#[derive(Clone, Debug, PartialEq)]
pub struct Gap {
    /// The position's identity.
    pub key: NodeKey,
    /// The game's position along the most likely path.
    pub position: Chess,
    /// The ply of the most likely path.
    pub ply: u32,
    /// The most likely path from the standard position.
    pub moves: Vec<Move>,
    /// The probability that a drill reaches it.
    pub reach: f64,
    /// The theory's moves here, most popular first.
    pub theory: Vec<Move>,
}

impl Gap {
    /// "1 in N drills": `N`, the reciprocal of the reach, rounded.
    pub fn one_in(&self) -> u64 {
        one_in(self.reach)
    }
}

/// `N` of "1 in N": the reciprocal of a probability, rounded (0 for 0).
pub fn one_in(reach: f64) -> u64 {
    if reach > 0.0 {
        (1.0 / reach).round() as u64
    } else {
        0
    }
}

/// The learner's positions at one ply: how much reach they have, and how much of it
/// has a repertoire move.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct DepthCoverage {
    /// The ply.
    pub ply: u32,
    /// The reach of the learner's positions at this ply.
    pub reach: f64,
    /// The part of it where the repertoire has a move.
    pub covered: f64,
}

/// A learner position where the repertoire gives more than one move.
#[derive(Clone, Debug, PartialEq)]
pub struct Redundant {
    /// The position's identity.
    pub key: NodeKey,
    /// The game's position along the most likely path.
    pub position: Chess,
    /// The ply of the most likely path.
    pub ply: u32,
    /// The most likely path from the standard position.
    pub moves: Vec<Move>,
    /// The probability that a drill reaches it.
    pub reach: f64,
    /// The repertoire's moves.
    pub repertoire: Vec<Move>,
}

/// A path described for people.
#[derive(Clone, Debug, PartialEq)]
pub struct PathInfo {
    /// The moves in SAN (with `+`/`#`), separated by spaces: `"e4 c5 Nf3"`.
    pub sans: String,
    /// The position reached, as EPD (placement, side, castling, en passant).
    pub epd: String,
    /// `"B20 Sicilian Defense"`: the deepest named position of the path in the first
    /// graph of `names` that names one.
    pub name: Option<String>,
    /// The line that gives [`PathInfo::name`] (its ECO code and name apart).
    pub naming: Option<OpeningLine>,
}

/// Describes `moves` (legal from the standard position; replay stops at the first
/// illegal one): SAN, EPD, and the opening name from `names` (tried in order).
pub fn describe(moves: &[Move], names: &[&PositionGraph]) -> PathInfo {
    let mut pos = super::start();
    let mut sans = Vec::with_capacity(moves.len());
    let mut positions = vec![pos.clone()];
    for &mv in moves {
        if !pos.is_legal(mv) {
            break;
        }
        sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, mv).to_string());
        positions.push(pos.clone());
    }
    let naming = names.iter().find_map(|g| {
        let history: Vec<_> = positions.iter().filter_map(|p| g.lookup(p)).collect();
        g.name_at(&history).cloned()
    });
    PathInfo {
        sans: sans.join(" "),
        epd: Epd::from_position(&pos, EnPassantMode::Legal).to_string(),
        name: naming.as_ref().map(OpeningLine::title),
        naming,
    }
}

/// Per position: the summed reach and the state (ply, index) with the most.
struct Tally {
    reach: f64,
    best: (usize, usize),
    best_reach: f64,
}

fn tally(layers: &[Vec<State>], keep: impl Fn(usize, &State) -> bool) -> Vec<(NodeKey, Tally)> {
    let mut out: Vec<(NodeKey, Tally)> = Vec::new();
    let mut index: FxHashMap<NodeKey, usize> = FxHashMap::default();
    for (ply, layer) in layers.iter().enumerate() {
        for (i, s) in layer.iter().enumerate().filter(|(_, s)| keep(ply, s)) {
            let k = *index.entry(s.key).or_insert_with(|| {
                out.push((
                    s.key,
                    Tally {
                        reach: 0.0,
                        best: (ply, i),
                        best_reach: -1.0,
                    },
                ));
                out.len() - 1
            });
            let t = &mut out[k].1;
            t.reach += s.reach;
            if s.reach > t.best_reach {
                t.best_reach = s.reach;
                t.best = (ply, i);
            }
        }
    }
    out
}

/// Most likely first; ties by ply, then in the order the expansion met them (the sort
/// is stable and the expansion deterministic).
fn by_reach<T>(items: &mut [T], key: impl Fn(&T) -> (f64, u32)) {
    items.sort_by(|a, b| {
        let (ra, pa) = key(a);
        let (rb, pb) = key(b);
        rb.total_cmp(&ra).then(pa.cmp(&pb))
    });
}

fn ply_u32(ply: usize) -> u32 {
    u32::try_from(ply).unwrap_or(u32::MAX)
}

/// The exposure's summaries from its layers.
pub(super) fn summarise(
    layers: Vec<Vec<State>>,
    theory: &MoveSource<'_>,
    style: &Style,
    options: &CoverageOptions,
) -> Exposure {
    let depth = options.depth as usize;
    let learner = |s: &State| s.pos.turn() == options.learner;

    let mut positions: Vec<PositionReach> = tally(&layers, |_, _| true)
        .into_iter()
        .map(|(key, t)| {
            let s = &layers[t.best.0][t.best.1];
            PositionReach {
                key,
                position: s.pos.clone(),
                ply: ply_u32(t.best.0),
                moves: path_to(&layers, t.best.0, t.best.1),
                reach: t.reach,
                learner_to_move: learner(s),
                repertoire: s.repertoire.clone(),
            }
        })
        .collect();
    by_reach(&mut positions, |p| (p.reach, p.ply));

    let mut gaps: Vec<Gap> = tally(&layers, |ply, s| {
        ply < depth && learner(s) && s.outcome == Outcome::RepertoireEnds && s.theory_moves
    })
    .into_iter()
    .filter(|(_, t)| t.reach >= options.threshold)
    .map(|(key, t)| {
        let s = &layers[t.best.0][t.best.1];
        Gap {
            key,
            position: s.pos.clone(),
            ply: ply_u32(t.best.0),
            moves: path_to(&layers, t.best.0, t.best.1),
            reach: t.reach,
            theory: theory_moves(theory, s, style),
        }
    })
    .collect();
    by_reach(&mut gaps, |g| (g.reach, g.ply));

    let mut redundant: Vec<Redundant> = tally(&layers, |ply, s| {
        ply < depth && learner(s) && s.repertoire.len() > 1
    })
    .into_iter()
    .map(|(key, t)| {
        let s = &layers[t.best.0][t.best.1];
        Redundant {
            key,
            position: s.pos.clone(),
            ply: ply_u32(t.best.0),
            moves: path_to(&layers, t.best.0, t.best.1),
            reach: t.reach,
            repertoire: s.repertoire.clone(),
        }
    })
    .collect();
    by_reach(&mut redundant, |r| (r.reach, r.ply));

    let mut coverage = Vec::new();
    for (ply, layer) in layers.iter().enumerate().take(depth) {
        let mut reach = 0.0;
        let mut covered = 0.0;
        for s in layer.iter().filter(|s| learner(s)) {
            reach += s.reach;
            if !s.repertoire.is_empty() {
                covered += s.reach;
            }
        }
        if layer.iter().any(learner) {
            coverage.push(DepthCoverage {
                ply: ply_u32(ply),
                reach,
                covered,
            });
        }
    }

    let mut mass_cut = 0.0;
    let mut mass_ended = 0.0;
    let mut mass_at_depth = 0.0;
    for s in layers.iter().flatten() {
        match s.outcome {
            Outcome::Expanded => {}
            Outcome::DepthLimit => mass_at_depth += s.reach,
            Outcome::Cut => mass_cut += s.reach,
            Outcome::RepertoireEnds | Outcome::TheoryEnds => mass_ended += s.reach,
        }
    }

    Exposure {
        options: *options,
        layers,
        positions,
        coverage,
        gaps,
        redundant,
        mass_cut,
        mass_ended,
        mass_at_depth,
    }
}

/// The theory's moves at a state, most popular first.
fn theory_moves(theory: &MoveSource<'_>, s: &State, style: &Style) -> Vec<Move> {
    if !theory.knows(&s.pos) {
        return Vec::new();
    }
    let mut candidates = theory.distribution(&s.pos, style, 1.0, s.named).candidates;
    candidates.sort_by(|a, b| b.share.total_cmp(&a.share));
    candidates.into_iter().map(|c| c.mv).collect()
}
