//! A deck's reach as the exact probability that a drill reaches each card: the
//! exposure of the book to itself (the opponent's replies by the sampler's exact
//! `P(y | x)` with the drill's style, as the chart's "exact P" bars), so that "the most
//! common positions" session ([`crate::review::SessionChoice::Common`]) draws what a
//! drill meets most.

use rustc_hash::FxHashMap;

use super::{CoverageOptions, DEFAULT_MIN_MASS};
use crate::book::{NodeKey, PositionGraph};
use crate::review::Deck;
use crate::sampler::{MoveSource, Style};

/// Sets each card's reach in `deck` (made from `graph`) to the probability that a drill
/// on `graph` with `style` reaches it, the learner's moves shared evenly; down to the
/// deepest card and the default minimum mass (a card below it counts 0).
pub fn set_exact_reach(deck: &mut Deck, graph: &PositionGraph, style: &Style) {
    let Some(learner) = deck.learner() else {
        return;
    };
    let deepest = deck
        .cards()
        .iter()
        .map(|c| c.moves.len())
        .max()
        .unwrap_or(0);
    let options = CoverageOptions {
        depth: u32::try_from(deepest + 1).unwrap_or(u32::MAX),
        min_mass: DEFAULT_MIN_MASS,
        ..CoverageOptions::new(learner)
    };
    // The states expanded ply by ply, summed per position as the exposure sums them
    // (its report, paths and gaps are not needed here).
    let layers = super::expand::expand(graph, &MoveSource::graph(graph), style, &options);
    let mut reach: FxHashMap<NodeKey, f64> = FxHashMap::default();
    for state in layers.iter().flatten() {
        *reach.entry(state.key).or_default() += state.reach;
    }
    deck.set_reach(|card| reach.get(&graph.key(card.node)).copied().unwrap_or(0.0));
}
