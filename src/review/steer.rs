//! The review term: how strongly a reply of the computer leads toward due cards.
//!
//! At an opponent node `x`, each candidate reply `y` (a position with the learner to
//! move) gets `w_r · d(y)` added to its acceptance ratio (docs/sampler.md §2):
//!
//! ```text
//! A(y) = share(y|x) / s_prev + Σ_i w_i p_i f_i(x→y) + w_r · d(y)
//! P(y|x) = min(1, A(y)) / Σ_y' min(1, A(y'))
//! ```
//!
//! `d(y) ∈ [0, 1]` is the urgency of the most pressing target card within `k` learner
//! moves of `y`, discounted by `γ` per learner move:
//!
//! ```text
//! g_0(y) = u(y)
//! g_j(y) = max( u(y),  γ · max over book moves y→z (learner) and z→y' (opponent) of g_{j−1}(y') )
//! d(y)   = g_k(y)
//! ```
//!
//! where `u(y) ∈ [0, 1]` is the urgency of the card at `y` (1 for a card in the session
//! queue, 0 for any other position). With the defaults `k = 3`, `γ = 0.5`: a reply into a
//! due card has `d = 1`, a reply one learner move before one `0.5`, then `0.25`,
//! `0.125`, and 0 farther away. Only book continuations are followed (no implied
//! transpositions). The computer steers; the learner chooses their own moves, so the
//! inner maximum over the learner's moves is what a learner who follows the book can
//! reach.
//!
//! `d` is computed for every node at once (`k` passes over the book's edges) and kept;
//! [`ReviewTerm::set_urgency`] recomputes it when a card is graded, so a reply only looks
//! a number up.

use shakmaty::Color;

use crate::book::{NodeId, PositionGraph};

/// The look-ahead and discount of the review term.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SteerSettings {
    /// `k`: how many learner moves ahead a due card still counts.
    pub depth: u32,
    /// `γ`: the factor per learner move, in [0, 1].
    pub discount: f32,
}

impl Default for SteerSettings {
    /// `k = 3`, `γ = 0.5`.
    fn default() -> SteerSettings {
        SteerSettings {
            depth: 3,
            discount: 0.5,
        }
    }
}

/// `d(y)` for every node of a book, for one learner colour.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReviewTerm {
    learner: Option<Color>,
    settings: SteerSettings,
    /// `u` per node.
    urgency: Vec<f32>,
    /// `d` per node (0 where the opponent is to move).
    d: Vec<f32>,
    /// The nodes where the learner is to move.
    learner_nodes: Vec<NodeId>,
}

impl ReviewTerm {
    /// The term for `learner` on `graph` with the target cards `targets` (node and
    /// urgency in [0, 1]).
    pub fn new(
        graph: &PositionGraph,
        learner: Color,
        settings: SteerSettings,
        targets: impl IntoIterator<Item = (NodeId, f32)>,
    ) -> ReviewTerm {
        let mut term = ReviewTerm {
            learner: Some(learner),
            settings: SteerSettings {
                depth: settings.depth.min(16),
                discount: settings.discount.clamp(0.0, 1.0),
            },
            urgency: vec![0.0; graph.node_count()],
            d: vec![0.0; graph.node_count()],
            learner_nodes: graph
                .node_ids()
                .filter(|&n| graph.key(n).turn() == learner)
                .collect(),
        };
        for (node, u) in targets {
            if node.index() < graph.node_count() && graph.key(node).turn() == learner {
                term.urgency[node.index()] = u.clamp(0.0, 1.0);
            }
        }
        term.recompute(graph);
        term
    }

    /// The settings.
    pub fn settings(&self) -> SteerSettings {
        self.settings
    }

    /// `d(y)` of a node, in [0, 1] (0 for a node of another book).
    pub fn d(&self, node: NodeId) -> f64 {
        self.d.get(node.index()).copied().map_or(0.0, f64::from)
    }

    /// The urgency of a node's card.
    pub fn urgency(&self, node: NodeId) -> f32 {
        self.urgency.get(node.index()).copied().unwrap_or(0.0)
    }

    /// Sets the urgency of a node's card (0 once it is reviewed) and updates `d`.
    /// Nodes where the learner is not to move have no card and are left alone.
    pub fn set_urgency(&mut self, graph: &PositionGraph, node: NodeId, urgency: f32) {
        if node.index() >= graph.node_count() || Some(graph.key(node).turn()) != self.learner {
            return;
        }
        let Some(slot) = self.urgency.get_mut(node.index()) else {
            return;
        };
        let u = urgency.clamp(0.0, 1.0);
        if *slot != u {
            *slot = u;
            self.recompute(graph);
        }
    }

    /// Recomputes `d` for every node: `k` passes of the recursion in the module docs.
    fn recompute(&mut self, graph: &PositionGraph) {
        let SteerSettings { depth, discount } = self.settings;
        let mut g = self.urgency.clone();
        let mut next = g.clone();
        // Opponent nodes keep g = u = 0 in both buffers; only learner nodes change.
        for _ in 0..depth {
            for &y in &self.learner_nodes {
                let mut best = 0.0f32;
                for z in graph.continuations(y) {
                    for y2 in graph.continuations(z.to) {
                        best = best.max(g[y2.to.index()]);
                    }
                }
                next[y.index()] = self.urgency[y.index()].max(discount * best);
            }
            std::mem::swap(&mut g, &mut next);
        }
        self.d = g;
    }
}
