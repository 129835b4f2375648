//! What the learner will face: the exact probability that a drill reaches each position
//! ("exposure"), the repertoire's gaps, its coverage by depth, and its redundant moves.
//!
//! # The model
//!
//! A drill is played against a **theory** book (ECO, a games book, or both in one graph)
//! while the learner always answers from a **repertoire** (another graph, the learner's
//! lines). From the standard position, ply by ply:
//!
//! - **Opponent to move** at `x`: the theory's candidates `y` get the exact
//!   `P(y | x)` of docs/sampler.md §3 ([`Distribution::at`](crate::sampler::Distribution::at)),
//!   with `s_prev` the share that the move into `x` had among the *theory's* candidates
//!   at the position before (what [`move_share`](crate::sampler::move_share) computes,
//!   and what a [`Session`](crate::trainer::Session) drilled on the theory book keeps in
//!   [`Session::s_prev_at`](crate::trainer::Session::s_prev_at)): 1 when that position
//!   is not in the theory or the move is not one of its candidates there. A position the
//!   theory does not know, or where it has no candidate, ends the drill.
//! - **Learner to move**: the repertoire's book continuations that are legal in the
//!   game's position, split evenly or in proportion to their weights
//!   ([`LearnerSplit`]). A position without a repertoire move ends the drill.
//!
//! The reach of a position is the sum, over every path of the drill to it, of the
//! product of the probabilities along the path. Positions are identified as the graph
//! identifies nodes ([`NodeKey`]: the pieces and the side to move), so two move orders
//! reaching one position add up.
//!
//! # Transpositions and `s_prev`
//!
//! The reply distribution at an opponent position depends on the path through `s_prev`:
//! two move orders into one position can come with different shares, and then with
//! different reply probabilities. The drill's rule is kept exactly: the expansion runs
//! ply by ply over **states**, one per (position, castling rights, en-passant square,
//! `s_prev`) at each ply, so paths meet only when everything that decides their future
//! is equal. A position's reach is the sum over its states (over plies as well: a
//! position met at two plies counts as two expected visits; opening books practically
//! never do that). Rights are part of a state because they decide which moves are legal
//! (docs/sampler.md §2). At learner positions `s_prev` plays no part and is not kept.
//!
//! # Cuts
//!
//! States at the depth limit are not expanded ([`Exposure::mass_at_depth`]), nor are
//! states whose reach is below the minimum mass ([`Exposure::mass_cut`]); the mass of
//! drills that ended earlier is [`Exposure::mass_ended`]. The three add up to 1.
//!
//! Files: `deck_reach` (a review deck's reach from the exposure), `expand` (the states
//! ply by ply, each with its reach), `report` (the states summed up: reach per
//! position, gaps, coverage by depth, redundancy), `goals` (the coverage goals from
//! "Basic" to "Bulletproof" and what each needs).
//!
//! # Example
//!
//! ```
//! use hastings::book::PositionGraph;
//! use hastings::book::pgn::{read_pgn, ImportOptions};
//! use hastings::book::SourceId;
//! use hastings::sampler::Style;
//! use hastings::trainer::coverage::{CoverageOptions, exposure};
//! use shakmaty::Color;
//!
//! let eco = PositionGraph::eco().unwrap();
//! let pgn = "[Result \"*\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n";
//! let lines = read_pgn(pgn.as_bytes(), SourceId(1), &ImportOptions::default(), None)?.lines;
//! let repertoire = PositionGraph::build(lines).graph;
//! let options = CoverageOptions { depth: 3, ..CoverageOptions::new(Color::White) };
//! let ex = exposure(&repertoire, &eco, &Style::neutral(), &options);
//! assert!((ex.mass_cut() + ex.mass_ended() + ex.mass_at_depth() - 1.0).abs() < 1e-9);
//! // 1...e6, the French, is likely and unanswered.
//! assert!(ex.gaps().iter().any(|g| g.ply == 2 && g.reach > 0.005));
//! # Ok::<(), hastings::book::pgn::ImportError>(())
//! ```

mod deck_reach;
mod expand;
mod goals;
mod report;
mod rows;

use shakmaty::{Chess, Color, Move};

use crate::book::{NodeKey, PositionGraph};
use crate::sampler::{MoveSource, Style};

pub use deck_reach::set_exact_reach;
pub use expand::{Child, Outcome};
pub use goals::{
    DEFAULT_SECONDS_PER_ANSWER, GOALS, Goal, GoalCount, REVIEWS_TO_LEARN, seconds_per_answer,
};
pub use report::{DepthCoverage, Gap, PathInfo, PositionReach, Redundant, describe, one_in};
pub use rows::{CoverageRow, sans_at};

/// The depth (in plies) of the exposure when none is given.
pub const DEFAULT_DEPTH: u32 = 16;

/// The reach above which a learner position without a repertoire move is a gap: 0.5%,
/// about one drill in 200.
pub const DEFAULT_THRESHOLD: f64 = 0.005;

/// States with less reach than this are not expanded.
pub const DEFAULT_MIN_MASS: f64 = 1e-6;

/// How the learner's probability is shared among the repertoire's moves at a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LearnerSplit {
    /// Each repertoire move equally.
    #[default]
    Even,
    /// In proportion to the repertoire's continuation weights (the number of lines that
    /// play each move).
    ByWeight,
}

/// What to compute and where to stop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoverageOptions {
    /// The learner's colour (the repertoire's side).
    pub learner: Color,
    /// The number of plies from the start: positions at this ply are reached but not
    /// expanded, and gaps are looked for before it.
    pub depth: u32,
    /// States with less reach than this are not expanded.
    pub min_mass: f64,
    /// Gaps and the list of likely positions need at least this reach.
    pub threshold: f64,
    /// How the learner's moves share a position's reach.
    pub split: LearnerSplit,
}

impl CoverageOptions {
    /// The defaults for a learner of colour `learner`: depth [`DEFAULT_DEPTH`],
    /// threshold [`DEFAULT_THRESHOLD`], minimum mass [`DEFAULT_MIN_MASS`], even split.
    pub const fn new(learner: Color) -> CoverageOptions {
        CoverageOptions {
            learner,
            depth: DEFAULT_DEPTH,
            min_mass: DEFAULT_MIN_MASS,
            threshold: DEFAULT_THRESHOLD,
            split: LearnerSplit::Even,
        }
    }
}

/// Where drills stopped: the reach of the states that were not expanded, at one ply and
/// position.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// The ply.
    pub ply: u32,
    /// The position.
    pub key: NodeKey,
    /// Why it was not expanded (of the first state there).
    pub outcome: Outcome,
    /// The reach summed over the states at this ply and position.
    pub reach: f64,
}

/// One state of the drill's tree ([`Exposure::tree`]): a position at a ply, with what
/// decides its future merged as the exposure merges it.
#[derive(Clone, Copy, Debug)]
pub struct TreeState<'a> {
    /// The game's position (of the first path that reached the state).
    pub position: &'a Chess,
    /// The position's identity.
    pub key: NodeKey,
    /// The probability that a drill reaches the state.
    pub reach: f64,
    /// Whether it was expanded, and if not, why.
    pub outcome: Outcome,
    /// The moves expanded from it (none unless `outcome` is [`Outcome::Expanded`]).
    pub children: &'a [Child],
}

/// The exposure of a repertoire to a theory book, with its gaps, coverage and
/// redundancy. Made by [`exposure`].
#[derive(Clone, Debug)]
pub struct Exposure {
    options: CoverageOptions,
    layers: Vec<Vec<expand::State>>,
    positions: Vec<PositionReach>,
    coverage: Vec<DepthCoverage>,
    gaps: Vec<Gap>,
    redundant: Vec<Redundant>,
    mass_cut: f64,
    mass_ended: f64,
    mass_at_depth: f64,
}

/// Computes the exposure of `repertoire` (the learner's moves) to `theory` (the
/// opponent's moves, replying with `style`), as the [module docs](self) describe.
pub fn exposure(
    repertoire: &PositionGraph,
    theory: &PositionGraph,
    style: &Style,
    options: &CoverageOptions,
) -> Exposure {
    exposure_from(repertoire, &MoveSource::graph(theory), style, options)
}

/// [`exposure`] against any theory source: the theory graph with a Polyglot games book
/// as its popularity setting says, so the opponent replies as a drill with that
/// book does, past the end of the graph's lines too.
pub fn exposure_from(
    repertoire: &PositionGraph,
    theory: &MoveSource<'_>,
    style: &Style,
    options: &CoverageOptions,
) -> Exposure {
    let layers = expand::expand(repertoire, theory, style, options);
    report::summarise(layers, theory, style, options)
}

impl Exposure {
    /// The options it was computed with.
    pub fn options(&self) -> &CoverageOptions {
        &self.options
    }

    /// Every position reached, most likely first (ties: shorter path first).
    pub fn positions(&self) -> &[PositionReach] {
        &self.positions
    }

    /// The positions with at least the threshold's reach, most likely first.
    pub fn likely_positions(&self) -> impl Iterator<Item = &PositionReach> {
        let t = self.options.threshold;
        self.positions.iter().take_while(move |p| p.reach >= t)
    }

    /// The reach of a position (0 when it was not reached).
    pub fn reach(&self, key: &NodeKey) -> f64 {
        self.positions
            .iter()
            .find(|p| p.key == *key)
            .map_or(0.0, |p| p.reach)
    }

    /// The reach of every position at exactly `ply`, summed over its states.
    pub fn reach_at_ply(&self, ply: u32) -> Vec<(NodeKey, f64)> {
        let Some(layer) = self.layers.get(ply as usize) else {
            return Vec::new();
        };
        let mut out: Vec<(NodeKey, f64)> = Vec::new();
        let mut index = rustc_hash::FxHashMap::default();
        for s in layer {
            let i = *index.entry(s.key).or_insert_with(|| {
                out.push((s.key, 0.0));
                out.len() - 1
            });
            out[i].1 += s.reach;
        }
        out
    }

    /// Where the drills stopped, per ply and position: the depth limit, a cut, or the
    /// end of the repertoire or of the theory. The reaches add up to 1.
    pub fn endings(&self) -> Vec<Ending> {
        let mut out: Vec<Ending> = Vec::new();
        for (ply, layer) in self.layers.iter().enumerate() {
            let ply = u32::try_from(ply).unwrap_or(u32::MAX);
            let mut index = rustc_hash::FxHashMap::default();
            for s in layer.iter().filter(|s| s.outcome != Outcome::Expanded) {
                let i = *index.entry(s.key).or_insert_with(|| {
                    out.push(Ending {
                        ply,
                        key: s.key,
                        outcome: s.outcome,
                        reach: 0.0,
                    });
                    out.len() - 1
                });
                out[i].reach += s.reach;
            }
        }
        out
    }

    /// The learner's positions above the threshold, before the depth limit, where the
    /// repertoire has no move and the theory has some: most likely first.
    pub fn gaps(&self) -> &[Gap] {
        &self.gaps
    }

    /// Per ply before the depth limit at which the learner moves: the reach of the
    /// learner's positions and the part of it with a repertoire move.
    pub fn coverage(&self) -> &[DepthCoverage] {
        &self.coverage
    }

    /// The learner's positions (before the depth limit) where the repertoire has more
    /// than one move, most likely first.
    pub fn redundant(&self) -> &[Redundant] {
        &self.redundant
    }

    /// The reach not expanded because it fell below the minimum mass.
    pub fn mass_cut(&self) -> f64 {
        self.mass_cut
    }

    /// The reach of drills that ended before the depth limit (no repertoire move, or
    /// the theory has no reply).
    pub fn mass_ended(&self) -> f64 {
        self.mass_ended
    }

    /// The reach of the states at the depth limit.
    pub fn mass_at_depth(&self) -> f64 {
        self.mass_at_depth
    }

    /// The drill's tree, ply by ply: every state with its position, reach, outcome and
    /// the moves expanded from it (indices into the next ply's layer). For analyses
    /// that walk the tree, such as the min-max back-up of
    /// [`check`](crate::trainer::check).
    pub fn tree(&self) -> Vec<Vec<TreeState<'_>>> {
        self.layers
            .iter()
            .map(|layer| {
                layer
                    .iter()
                    .map(|s| TreeState {
                        position: &s.pos,
                        key: s.key,
                        reach: s.reach,
                        outcome: s.outcome,
                        children: &s.children,
                    })
                    .collect()
            })
            .collect()
    }

    /// The most likely moves from the standard position to the state `index` of ply
    /// `ply` of [`Exposure::tree`] (empty when there is no such state).
    pub fn path(&self, ply: usize, index: usize) -> Vec<Move> {
        if self.layers.get(ply).is_none_or(|l| index >= l.len()) {
            return Vec::new();
        }
        path_to(&self.layers, ply, index)
    }

    /// The number of states expanded or reached (each a position at a ply with its
    /// rights and `s_prev`).
    pub fn state_count(&self) -> usize {
        self.layers.iter().map(Vec::len).sum()
    }
}

/// The moves from the standard position to the state `index` of `layers[ply]`, along
/// the largest contribution into each state.
fn path_to(layers: &[Vec<expand::State>], ply: usize, index: usize) -> Vec<Move> {
    let mut moves = Vec::with_capacity(ply);
    let (mut ply, mut index) = (ply, index);
    while ply > 0 {
        let Some((parent, mv)) = layers[ply][index].parent else {
            break;
        };
        moves.push(mv);
        ply -= 1;
        index = parent as usize;
    }
    moves.reverse();
    moves
}

/// The standard position (the root of every exposure).
fn start() -> Chess {
    Chess::default()
}
