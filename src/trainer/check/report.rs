//! What the analyses say about a repertoire: the learner's moves that lose, the
//! opponent's replies the repertoire meets badly, how each line ends, and the
//! repertoire's value backed up through the drill's tree.
//!
//! # Loss
//!
//! A learner move `m` at a position `x` loses `v(x) − v(x·m)`, both in centipawns from
//! the learner's side: `v(x)` is the engine's score of `x` (the best the learner can
//! do), `v(x·m)` the score of the position after `m`, flipped. Mates count as ±20,000
//! less their distance ([`Score::to_centipawns`]), so a mate allowed or missed loses
//! more than any threshold. No MultiPV search is needed: the score after the learner's
//! move is that position's own analysis, which the check makes anyway. A move the
//! engine names as best loses nothing, whatever the two depths say.
//!
//! # Back-up
//!
//! Over the drill's tree ([`Exposure::tree`]), from its leaves (where drills stop: the
//! repertoire or the theory ends, the depth limit, or a cut below the minimum mass),
//! each scored from the learner's side and capped at ±[`CAP_CP`]:
//!
//! - **min-max**, as Chess Position Trainer backs up a repertoire: a learner position
//!   takes the best of its repertoire moves, an opponent position the worst for the
//!   learner among the book's replies;
//! - **expected**: the leaves' scores weighted by their reach, the exact probability
//!   that a drill ends there.

use rustc_hash::{FxHashMap, FxHashSet};
use shakmaty::{Chess, Color, Move, Position};

use super::positions::{Path, Paths};
use super::store::AnalysisStore;
use crate::book::{NodeKey, PositionGraph};
use crate::engine::Score;
use crate::trainer::coverage::{Exposure, Outcome, TreeState};

/// Scores are capped at this many centipawns (mates included) before they are backed up,
/// so that one mating line does not swamp an average.
pub const CAP_CP: i32 = 1000;

/// The loss (centipawns) from which a learner move is reported, by default.
pub const DEFAULT_THRESHOLD_CP: i32 = 100;

/// A learner move that loses at least the threshold.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The way to the position where the move is played (for a weak answer: through
    /// the opponent's reply).
    pub path: Path,
    /// The position, the learner to move.
    pub position: Chess,
    /// The repertoire's move.
    pub played: Move,
    /// The engine's best move there.
    pub best: Option<Move>,
    /// What the repertoire's move loses against the best, in centipawns (≥ 0).
    pub loss_cp: i32,
    /// The score after the best move, from the learner's side.
    pub best_score: Score,
    /// The score after the repertoire's move, from the learner's side.
    pub played_score: Score,
    /// The engine's line after the repertoire's move: how it is punished.
    pub refutation: Vec<Move>,
    /// The probability that a drill meets it.
    pub reach: f64,
}

/// Where a line of the repertoire stops.
#[derive(Clone, Debug, PartialEq)]
pub struct LineEnd {
    /// The line's moves.
    pub path: Path,
    /// The score there from the learner's side (`None` when not analysed).
    pub score: Option<Score>,
    /// The probability that a drill reaches it.
    pub reach: f64,
    /// Whether a learner move of the line is a reported blunder (which explains a bad
    /// end).
    pub after_blunder: bool,
}

/// The soundness report of a repertoire.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// The learner's moves that lose at least the threshold, by reach × loss.
    pub blunders: Vec<Finding>,
    /// The opponent's replies after which the repertoire's answer loses at least the
    /// threshold, by reach × loss (the same moves seen from the reply: one blunder
    /// reached by several replies is one weak answer per reply; without transpositions
    /// the list is [`blunders`](Self::blunders) again, so a report for people shows
    /// only the other replies, under their blunder).
    pub weak_answers: Vec<Finding>,
    /// Where each line stops, worst first by reach × how bad.
    pub line_ends: Vec<LineEnd>,
    /// The min-max back-up at the standard position, centipawns from the learner's
    /// side (`None` while a position of the tree is not analysed).
    pub minimax_cp: Option<i32>,
    /// The expected score under the drill's reply distribution (`None` likewise).
    pub expected_cp: Option<f64>,
    /// Positions the report needed and the store did not hold.
    pub missing: usize,
}

/// Judges the repertoire and its drill's tree with the analyses of `store`: learner
/// moves that lose `threshold_cp` or more are reported.
pub fn report(
    repertoire: &PositionGraph,
    exposure: &Exposure,
    store: &dyn AnalysisStore,
    threshold_cp: i32,
) -> Report {
    let learner = exposure.options().learner;
    let paths = Paths::new(repertoire, exposure);
    let mut judge = Judge {
        store,
        learner,
        threshold_cp,
        missing: FxHashSet::default(),
    };

    let mut blunders = Vec::new();
    let mut blundered: FxHashSet<(NodeKey, Move)> = FxHashSet::default();
    for node in repertoire.node_ids() {
        let Ok(pos) = repertoire.try_position(node) else {
            continue;
        };
        if pos.turn() != learner {
            continue;
        }
        for c in repertoire.continuations(node) {
            if let Some(mut f) = judge.judge(&pos, c.mv) {
                f.path = paths.to(repertoire, &pos);
                f.reach = paths.reach(&pos);
                blundered.insert((NodeKey::from_position(&pos), c.mv));
                blunders.push(f);
            }
        }
    }
    sort_findings(&mut blunders);

    let weak_answers = weak_answers(repertoire, exposure, &mut judge);
    let line_ends = line_ends(repertoire, &paths, &mut judge, &blundered);
    let (minimax_cp, expected_cp) = back_up(exposure, &mut judge);
    Report {
        blunders,
        weak_answers,
        line_ends,
        minimax_cp,
        expected_cp,
        missing: judge.missing.len(),
    }
}

/// Reads analyses and judges moves, counting the positions it lacks.
struct Judge<'a> {
    store: &'a dyn AnalysisStore,
    learner: Color,
    threshold_cp: i32,
    missing: FxHashSet<String>,
}

impl Judge<'_> {
    /// The score of `pos` from the learner's side, with the analysis.
    fn score(&mut self, pos: &Chess) -> Option<(Score, crate::engine::analysis::Analysis)> {
        let Some(a) = self.store.get(pos) else {
            self.missing.insert(super::store::epd_key(pos));
            return None;
        };
        Some((a.score_for(self.learner, pos.turn()), a))
    }

    /// The finding for the learner's move `mv` at `pos`, if it loses the threshold.
    /// Its path and reach are left for the caller.
    fn judge(&mut self, pos: &Chess, mv: Move) -> Option<Finding> {
        if !pos.is_legal(mv) {
            return None;
        }
        let mut child = pos.clone();
        child.play_unchecked(mv);
        let (best_score, best) = self.score(pos)?;
        let (played_score, after) = self.score(&child)?;
        let loss_cp = (best_score.to_centipawns() - played_score.to_centipawns()).max(0);
        if best.best() == Some(mv) || loss_cp < self.threshold_cp {
            return None;
        }
        Some(Finding {
            path: Path {
                start: pos.clone(),
                moves: Vec::new(),
            },
            position: pos.clone(),
            played: mv,
            best: best.best(),
            loss_cp,
            best_score,
            played_score,
            refutation: after.pv,
            reach: 0.0,
        })
    }

    /// A leaf's capped score from the learner's side.
    fn leaf(&mut self, pos: &Chess) -> Option<i32> {
        self.score(pos)
            .map(|(s, _)| s.to_centipawns().clamp(-CAP_CP, CAP_CP))
    }
}

fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        let weight = |f: &Finding| f.reach * f64::from(f.loss_cp);
        weight(b)
            .total_cmp(&weight(a))
            .then(b.loss_cp.cmp(&a.loss_cp))
    });
}

/// The opponent's replies in the drill's tree that the repertoire answers with a move
/// losing the threshold, merged by position and reply.
fn weak_answers(
    repertoire: &PositionGraph,
    exposure: &Exposure,
    judge: &mut Judge<'_>,
) -> Vec<Finding> {
    let tree = exposure.tree();
    let learner = judge.learner;
    let mut out: Vec<Finding> = Vec::new();
    let mut index: FxHashMap<(NodeKey, Move, Move), usize> = FxHashMap::default();
    for (ply, layer) in tree.iter().enumerate() {
        let Some(next) = tree.get(ply + 1) else { break };
        for s in layer.iter().filter(|s| s.position.turn() != learner) {
            for ch in s.children {
                let Some(t) = next.get(ch.index as usize) else {
                    continue;
                };
                let answers: Vec<Move> = repertoire
                    .lookup(t.position)
                    .map(|n| repertoire.continuations(n).iter().map(|c| c.mv).collect())
                    .unwrap_or_default();
                for answer in answers {
                    let Some(mut f) = judge.judge(t.position, answer) else {
                        continue;
                    };
                    let key = (s.key, ch.mv, answer);
                    let reach = s.reach * ch.p;
                    if let Some(&i) = index.get(&key) {
                        out[i].reach += reach;
                        continue;
                    }
                    f.path = Path {
                        start: Chess::default(),
                        moves: exposure.path(ply + 1, ch.index as usize),
                    };
                    f.reach = reach;
                    index.insert(key, out.len());
                    out.push(f);
                }
            }
        }
    }
    sort_findings(&mut out);
    out
}

/// Where each line of the repertoire stops, once per end position.
fn line_ends(
    repertoire: &PositionGraph,
    paths: &Paths<'_>,
    judge: &mut Judge<'_>,
    blundered: &FxHashSet<(NodeKey, Move)>,
) -> Vec<LineEnd> {
    let mut seen = FxHashSet::default();
    let mut out = Vec::new();
    for (i, line) in repertoire.lines().iter().enumerate() {
        let id = crate::book::LineId(u32::try_from(i).unwrap_or(u32::MAX));
        let end = repertoire.line_end(id);
        if !seen.insert(end) {
            continue;
        }
        let moves = repertoire.line_moves(id);
        let start = line.start_position();
        let mut pos = start.clone();
        let mut after_blunder = false;
        for &m in moves {
            if pos.turn() == judge.learner && blundered.contains(&(NodeKey::from_position(&pos), m))
            {
                after_blunder = true;
            }
            pos.play_unchecked(m);
        }
        out.push(LineEnd {
            score: judge.score(&pos).map(|(s, _)| s),
            reach: paths.reach(&pos),
            path: Path {
                start,
                moves: moves.to_vec(),
            },
            after_blunder,
        });
    }
    let badness = |e: &LineEnd| {
        let cp = e.score.map_or(0, Score::to_centipawns);
        (e.reach * f64::from((-cp).max(0)), cp)
    };
    out.sort_by(|a, b| {
        let (wa, ca) = badness(a);
        let (wb, cb) = badness(b);
        wb.total_cmp(&wa).then(ca.cmp(&cb))
    });
    out
}

/// The min-max and expected values at the root of the drill's tree.
fn back_up(exposure: &Exposure, judge: &mut Judge<'_>) -> (Option<i32>, Option<f64>) {
    let tree = exposure.tree();
    let mut values: Vec<Vec<Option<i32>>> = Vec::with_capacity(tree.len());
    let (mut sum, mut mass, mut complete) = (0.0, 0.0, true);
    for layer in tree.iter().rev() {
        let below = values.last();
        let mut here = Vec::with_capacity(layer.len());
        for s in layer {
            let v = if s.outcome == Outcome::Expanded && !s.children.is_empty() {
                inner_value(s, below, judge.learner)
            } else {
                let v = judge.leaf(s.position);
                match v {
                    Some(cp) => {
                        sum += s.reach * f64::from(cp);
                        mass += s.reach;
                    }
                    None => complete = false,
                }
                v
            };
            here.push(v);
        }
        values.push(here);
    }
    let minimax = values
        .last()
        .and_then(|root| root.first().copied().flatten());
    let expected = (complete && mass > 0.0).then(|| sum / mass);
    (minimax, expected)
}

/// A position's min-max value from its children's.
fn inner_value(s: &TreeState<'_>, below: Option<&Vec<Option<i32>>>, learner: Color) -> Option<i32> {
    let below = below?;
    let children: Option<Vec<i32>> = s
        .children
        .iter()
        .map(|c| below.get(c.index as usize).copied().flatten())
        .collect();
    let children = children?;
    if s.position.turn() == learner {
        children.into_iter().max()
    } else {
        children.into_iter().min()
    }
}
