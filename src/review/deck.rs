//! The cards of a book for one colour: every position where the learner is to move and
//! the book has a move for them, with the moves that lead there, the opening's name, and
//! how likely a game is to reach it.

use rustc_hash::FxHashMap;
use shakmaty::san::SanPlus;
use shakmaty::{Color, Move, Position};

use super::card::CardKey;
use crate::book::graph::start_position;
use crate::book::{LineId, NodeId, PositionGraph};

/// One card of a [`Deck`].
#[derive(Clone, Debug, PartialEq)]
pub struct DeckCard {
    /// The card's key.
    pub key: CardKey,
    /// Its node in the book.
    pub node: NodeId,
    /// A shortest sequence of book moves from a start of the book to the position.
    pub moves: Vec<Move>,
    /// Those moves in SAN.
    pub sans: Vec<String>,
    /// The opening's title at the position (`"C50 Italian Game"`), if any line names it.
    pub opening: Option<String>,
    /// How likely a game is to pass through the position (see [`Deck::new`]).
    pub reach: f64,
}

impl DeckCard {
    /// The moves as one line of SAN, `"e4 e5 Nf3"` (what `hastings review --grade` takes).
    pub fn line(&self) -> String {
        self.sans.join(" ")
    }
}

/// The cards of one book for one learner colour.
#[derive(Clone, Debug, Default)]
pub struct Deck {
    learner: Option<Color>,
    cards: Vec<DeckCard>,
    by_key: FxHashMap<CardKey, usize>,
    by_node: FxHashMap<NodeId, usize>,
    /// Per line of the book, the indices of its cards.
    line_cards: Vec<Vec<u32>>,
}

/// The longest game, in plies, that the reach estimate follows.
const REACH_PLIES: usize = 80;

impl Deck {
    /// The cards of `graph` for `learner`: each node with `learner` to move and at least
    /// one book continuation, in order of the shortest distance from a start of the book.
    ///
    /// The reach estimate of a card is the probability that a game following the book's
    /// popularity shares (`cw(x→y) / Σ cw`) at every move, for both sides, passes through
    /// it, started from the book's roots in proportion to their weight; summed over the
    /// ply at which it is reached and capped at 1. Replace it with
    /// [`Deck::set_reach`] for another estimate.
    pub fn new(graph: &PositionGraph, learner: Color) -> Deck {
        let paths = shortest_paths(graph);
        let reach = reach_estimate(graph);
        let mut deck = Deck {
            learner: Some(learner),
            ..Deck::default()
        };
        for &(node, ref moves) in &paths {
            let pos = graph.position(node);
            if pos.turn() != learner || graph.continuations(node).is_empty() {
                continue;
            }
            let (sans, history) = replay(graph, moves);
            let card = DeckCard {
                key: CardKey::from_position(pos),
                node,
                moves: moves.clone(),
                sans,
                opening: graph.name_at(&history).map(crate::book::OpeningLine::title),
                reach: reach.get(node.index()).copied().unwrap_or(0.0),
            };
            deck.by_key.insert(card.key.clone(), deck.cards.len());
            deck.by_node.insert(node, deck.cards.len());
            deck.cards.push(card);
        }
        deck.line_cards = (0..graph.lines().len())
            .map(|i| deck.cards_of_line(graph, LineId(i as u32)))
            .collect();
        deck
    }

    fn cards_of_line(&self, graph: &PositionGraph, line: LineId) -> Vec<u32> {
        let l = graph.line(line);
        let Ok(mut pos) = start_position(l) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut visit = |pos: &shakmaty::Chess| {
            if let Some(&i) = graph.lookup(pos).and_then(|n| self.by_node.get(&n))
                && !out.contains(&(i as u32))
            {
                out.push(i as u32);
            }
        };
        visit(&pos);
        for san in &l.moves {
            let Ok(mv) = san.to_move(&pos) else { break };
            pos.play_unchecked(mv);
            visit(&pos);
        }
        out
    }

    /// The learner's colour (`None` for an empty default deck).
    pub fn learner(&self) -> Option<Color> {
        self.learner
    }

    /// The cards.
    pub fn cards(&self) -> &[DeckCard] {
        &self.cards
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether there is no card.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The index of the card with this key.
    pub fn index_of(&self, key: &CardKey) -> Option<usize> {
        self.by_key.get(key).copied()
    }

    /// The index of the card at this node.
    pub fn index_at(&self, node: NodeId) -> Option<usize> {
        self.by_node.get(&node).copied()
    }

    /// The cards of a line of the book (indices into [`Deck::cards`]).
    pub fn line_cards(&self, line: LineId) -> &[u32] {
        self.line_cards.get(line.index()).map_or(&[], Vec::as_slice)
    }

    /// Replaces the reach estimate of every card (`reach(card)` should be in [0, 1]).
    pub fn set_reach(&mut self, mut reach: impl FnMut(&DeckCard) -> f64) {
        for c in &mut self.cards {
            c.reach = reach(c).clamp(0.0, 1.0);
        }
    }
}

/// SAN of `moves` from the standard position (or the line's own start, when the path
/// does not start there) and the nodes passed.
fn replay(graph: &PositionGraph, moves: &[Move]) -> (Vec<String>, Vec<NodeId>) {
    let mut pos = shakmaty::Chess::default();
    let mut sans = Vec::with_capacity(moves.len());
    let mut history: Vec<NodeId> = graph.lookup(&pos).into_iter().collect();
    for &mv in moves {
        if !pos.is_legal(mv) {
            break;
        }
        sans.push(SanPlus::from_move(pos.clone(), mv).to_string());
        pos.play_unchecked(mv);
        history.extend(graph.lookup(&pos));
    }
    (sans, history)
}

/// For every node reachable from the standard start by book moves, a shortest sequence
/// of moves to it (breadth first, in book order), the start first.
fn shortest_paths(graph: &PositionGraph) -> Vec<(NodeId, Vec<Move>)> {
    let Some(start) = graph.start() else {
        return Vec::new();
    };
    let mut parent: Vec<Option<(NodeId, Move)>> = vec![None; graph.node_count()];
    let mut seen = vec![false; graph.node_count()];
    let mut order = vec![start];
    seen[start.index()] = true;
    let mut i = 0;
    while i < order.len() {
        let node = order[i];
        i += 1;
        for c in graph.continuations(node) {
            if !seen[c.to.index()] {
                seen[c.to.index()] = true;
                parent[c.to.index()] = Some((node, c.mv));
                order.push(c.to);
            }
        }
    }
    order
        .into_iter()
        .map(|node| {
            let mut moves = Vec::new();
            let mut at = node;
            while let Some((p, mv)) = parent[at.index()] {
                moves.push(mv);
                at = p;
            }
            moves.reverse();
            (node, moves)
        })
        .collect()
}

/// The probability that a game following the popularity shares passes through each node
/// (see [`Deck::new`]), indexed by node.
pub fn reach_estimate(graph: &PositionGraph) -> Vec<f64> {
    let mut reach = vec![0.0; graph.node_count()];
    let total: f64 = graph.roots().iter().map(|&r| graph.weight(r)).sum();
    if total <= 0.0 {
        return reach;
    }
    let mut layer: FxHashMap<NodeId, f64> = graph
        .roots()
        .iter()
        .map(|&r| (r, graph.weight(r) / total))
        .collect();
    for _ in 0..REACH_PLIES {
        if layer.is_empty() {
            break;
        }
        let mut next: FxHashMap<NodeId, f64> = FxHashMap::default();
        for (&node, &p) in &layer {
            reach[node.index()] += p;
            let cont = graph.continuations(node);
            let sum: f64 = cont.iter().map(|c| c.weight).sum();
            if sum <= 0.0 {
                continue;
            }
            for c in cont {
                *next.entry(c.to).or_default() += p * c.weight / sum;
            }
        }
        layer = next;
    }
    for r in &mut reach {
        *r = r.min(1.0);
    }
    reach
}
