//! The expansion: states ply by ply, each carrying its reach.

use rustc_hash::FxHashMap;
use shakmaty::{Chess, EnPassantMode, Move, Position, Square};

use super::{CoverageOptions, LearnerSplit};
use crate::book::{LineId, NodeKey, PositionGraph};
use crate::sampler::{Distribution, MoveSource, Style};

/// What became of a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Its children were computed.
    Expanded,
    /// It is at the depth limit.
    DepthLimit,
    /// Its reach is below the minimum mass.
    Cut,
    /// The learner is to move and the repertoire has no move here.
    RepertoireEnds,
    /// The opponent is to move and the theory has no reply here (or does not know the
    /// position).
    TheoryEnds,
}

/// One position at one ply, with what decides its future: the rights, and `s_prev` when
/// the opponent is to move.
#[derive(Clone, Debug)]
pub(super) struct State {
    /// The game's position (of the first path that reached the state).
    pub(super) pos: Chess,
    pub(super) key: NodeKey,
    /// `s_prev` at an opponent position; 1 at the learner's.
    pub(super) s_prev: f64,
    /// The sum over every path into the state of the product of its probabilities.
    pub(super) reach: f64,
    /// The index in the previous layer and the move of the largest contribution.
    pub(super) parent: Option<(u32, Move)>,
    /// That contribution.
    best_in: f64,
    pub(super) outcome: Outcome,
    /// The repertoire's moves at a learner position (legal here).
    pub(super) repertoire: Vec<Move>,
    /// Whether the theory has a candidate here.
    pub(super) theory_moves: bool,
    /// The line naming the game here (for the flags of a games book's moves past the
    /// theory graph's lines).
    pub(super) named: Option<LineId>,
    /// The moves expanded from here: each with the index of its state in the next
    /// layer and its probability from this state.
    pub(super) children: Vec<Child>,
}

/// A move from a state to a state of the next ply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Child {
    /// The move.
    pub mv: Move,
    /// The index of the state it leads to, in the next ply's layer.
    pub index: u32,
    /// Its probability from the state: the reply's exact `P` at an opponent position,
    /// the learner split at the learner's.
    pub p: f64,
}

/// Everything that makes two states of one ply the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct StateKey {
    key: NodeKey,
    castling: u64,
    ep: Option<Square>,
    s_prev: u64,
    named: Option<LineId>,
}

impl State {
    fn new(pos: Chess, key: NodeKey, s_prev: f64, named: Option<LineId>) -> State {
        State {
            named,
            pos,
            key,
            s_prev,
            reach: 0.0,
            parent: None,
            best_in: 0.0,
            outcome: Outcome::Expanded,
            repertoire: Vec::new(),
            theory_moves: false,
            children: Vec::new(),
        }
    }
}

/// The states of the next ply, merged by [`StateKey`].
#[derive(Default)]
struct NextLayer {
    states: Vec<State>,
    index: FxHashMap<StateKey, u32>,
}

impl NextLayer {
    /// Adds `mass` into the state after `mv` from `from` (the state `parent` of the
    /// current layer), returning that state's index.
    fn add(&mut self, from: &State, step: Step<'_>, mv: Move, mass: f64, s_prev: f64) -> u32 {
        let key = from.key.after_move(mv);
        let mut pos = from.pos.clone();
        pos.play_unchecked(mv);
        // Only a games book's moves past the theory's lines need the name: elsewhere
        // the graph's own flags decide, and states merge whatever the name.
        let named = match step.theory.lookup(&pos) {
            Some(node) => step.theory.name(node).or(from.named),
            None => from.named,
        };
        let state_key = StateKey {
            key,
            castling: pos.castles().castling_rights().0,
            ep: pos.ep_square(EnPassantMode::Legal),
            s_prev: s_prev.to_bits(),
            named: if step.uses_book { named } else { None },
        };
        let next = u32::try_from(self.states.len()).unwrap_or(u32::MAX);
        let i = *self.index.entry(state_key).or_insert(next) as usize;
        if i == self.states.len() {
            self.states.push(State::new(pos, key, s_prev, named));
        }
        let parent = step.parent;
        let state = &mut self.states[i];
        state.reach += mass;
        if mass > state.best_in {
            state.best_in = mass;
            state.parent = Some((parent, mv));
        }
        u32::try_from(i).unwrap_or(u32::MAX)
    }
}

/// Where a child comes from: the parent's index, and the theory that names it.
#[derive(Clone, Copy)]
struct Step<'a> {
    parent: u32,
    theory: &'a PositionGraph,
    uses_book: bool,
}

/// The layers of states, ply 0 (the standard position) first, each state's outcome set.
pub(super) fn expand(
    repertoire: &PositionGraph,
    theory: &MoveSource<'_>,
    style: &Style,
    options: &CoverageOptions,
) -> Vec<Vec<State>> {
    let root_pos = super::start();
    let root_key = NodeKey::from_position(&root_pos);
    let graph = theory.graph_ref();
    let root_named = graph.lookup(&root_pos).and_then(|n| graph.name(n));
    let mut root = State::new(root_pos, root_key, 1.0, root_named);
    root.reach = 1.0;
    let mut layers = vec![vec![root]];
    for ply in 0..=options.depth {
        let mut next = NextLayer::default();
        let Some(layer) = layers.last_mut() else {
            break;
        };
        for (i, state) in layer.iter_mut().enumerate() {
            if ply == options.depth {
                state.outcome = Outcome::DepthLimit;
                continue;
            }
            let step = Step {
                parent: u32::try_from(i).unwrap_or(u32::MAX),
                theory: graph,
                uses_book: theory.popularity().uses_book(),
            };
            // A state below the minimum mass is looked at (it may be a gap) but not expanded.
            let sink = (state.reach >= options.min_mass).then_some((&mut next, step));
            if state.pos.turn() == options.learner {
                learner_moves(state, repertoire, theory, style, options.split, sink);
            } else {
                opponent_moves(state, theory, style, sink);
            }
        }
        if next.states.is_empty() {
            break;
        }
        layers.push(next.states);
    }
    layers
}

/// The theory's distribution at a state (with `s_prev`), if it knows the position.
fn theory_distribution(
    theory: &MoveSource<'_>,
    state: &State,
    style: &Style,
    s_prev: f64,
) -> Option<Distribution> {
    theory
        .knows(&state.pos)
        .then(|| theory.distribution(&state.pos, style, s_prev, state.named))
}

/// Sets a learner state's repertoire moves and outcome and, unless it stops here, adds
/// its children to `next`.
fn learner_moves(
    state: &mut State,
    repertoire: &PositionGraph,
    theory: &MoveSource<'_>,
    style: &Style,
    split: LearnerSplit,
    next: Option<(&mut NextLayer, Step<'_>)>,
) {
    let moves: Vec<(Move, f64)> = repertoire
        .lookup(&state.pos)
        .map(|node| {
            repertoire
                .continuations(node)
                .iter()
                .filter(|c| c.weight > 0.0 && state.pos.is_legal(c.mv))
                .map(|c| (c.mv, c.weight))
                .collect()
        })
        .unwrap_or_default();
    // The shares of the learner's moves among the theory's candidates: `s_prev` of the
    // opponent's position after them (shares do not depend on this position's s_prev).
    let dist = theory_distribution(theory, state, style, 1.0);
    state.theory_moves = dist.as_ref().is_some_and(|d| !d.is_empty());
    state.repertoire = moves.iter().map(|(mv, _)| *mv).collect();
    if moves.is_empty() {
        state.outcome = Outcome::RepertoireEnds;
        return;
    }
    let Some((next, step)) = next else {
        state.outcome = Outcome::Cut;
        return;
    };
    let total: f64 = match split {
        LearnerSplit::Even => moves.len() as f64,
        LearnerSplit::ByWeight => moves.iter().map(|(_, w)| w).sum(),
    };
    for &(mv, weight) in &moves {
        let part = match split {
            LearnerSplit::Even => 1.0,
            LearnerSplit::ByWeight => weight,
        } / total;
        let s_prev = dist
            .as_ref()
            .and_then(|d| d.candidate_for(mv))
            .map_or(1.0, |c| c.share);
        let index = next.add(state, step, mv, state.reach * part, s_prev);
        state.children.push(Child { mv, index, p: part });
    }
}

/// Sets an opponent state's outcome and, unless it stops here, adds its children.
fn opponent_moves(
    state: &mut State,
    theory: &MoveSource<'_>,
    style: &Style,
    next: Option<(&mut NextLayer, Step<'_>)>,
) {
    let Some(dist) =
        theory_distribution(theory, state, style, state.s_prev).filter(|d| !d.is_empty())
    else {
        state.outcome = Outcome::TheoryEnds;
        return;
    };
    state.theory_moves = true;
    let Some((next, step)) = next else {
        state.outcome = Outcome::Cut;
        return;
    };
    for c in &dist.candidates {
        // At the learner's position s_prev plays no part: one state for every path.
        let index = next.add(state, step, c.mv, state.reach * c.p, 1.0);
        state.children.push(Child {
            mv: c.mv,
            index,
            p: c.p,
        });
    }
}
