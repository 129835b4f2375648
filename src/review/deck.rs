//! The cards of a book for one colour: every position where the learner is to move and
//! the book has a move for them, with the moves that lead there, the opening's name, and
//! how likely a game is to reach it.

use rustc_hash::FxHashMap;
use shakmaty::san::SanPlus;
use shakmaty::{Color, Move, Position};

use super::card::CardKey;
use crate::book::{LineId, NodeId, PositionGraph};

/// One card of a [`Deck`].
#[derive(Clone, Debug, PartialEq)]
pub struct DeckCard {
    /// The card's key.
    pub key: CardKey,
    /// Its node in the book.
    pub node: NodeId,
    /// A shortest sequence of book moves from the standard start to the position.
    pub moves: Vec<Move>,
    /// The opening's title at the position (`"C50 Italian Game"`), if any line names it.
    pub opening: Option<String>,
    /// How likely a game is to pass through the position (see [`Deck::new`]).
    pub reach: f64,
}

impl DeckCard {
    /// The moves in SAN.
    pub fn sans(&self) -> Vec<String> {
        let mut pos = shakmaty::Chess::default();
        let mut out = Vec::with_capacity(self.moves.len());
        for &mv in &self.moves {
            if !pos.is_legal(mv) {
                break;
            }
            out.push(SanPlus::from_move(pos.clone(), mv).to_string());
            pos.play_unchecked(mv);
        }
        out
    }

    /// The moves as one line of SAN, `"e4 e5 Nf3"` (what `hastings review --grade` takes).
    pub fn line(&self) -> String {
        self.sans().join(" ")
    }
}

/// The cards of one book for one learner colour.
#[derive(Clone, Debug, Default)]
pub struct Deck {
    learner: Option<Color>,
    cards: Vec<DeckCard>,
    by_key: FxHashMap<CardKey, usize>,
    by_node: FxHashMap<NodeId, usize>,
    /// Per line of the book, the cards where it plays the learner's move.
    line_decisions: Vec<Vec<u32>>,
    /// Per card, whether the book has only one move for the learner there.
    one_answer: Vec<bool>,
}

/// The longest game, in plies, that the reach estimate follows.
const REACH_PLIES: usize = 80;

impl Deck {
    /// The cards of `graph` for `learner`: each node reachable from the standard start
    /// by book moves with `learner` to move and at least one book continuation, in order
    /// of the shortest distance from the start.
    ///
    /// The reach estimate of a card is the probability that a game following the book's
    /// popularity shares (`cw(x→y) / Σ cw`) at every move, for both sides, passes through
    /// it, started from the book's roots in proportion to their weight; summed over the
    /// ply at which it is reached and capped at 1. Replace it with
    /// [`Deck::set_reach`] for another estimate.
    pub fn new(graph: &PositionGraph, learner: Color) -> Deck {
        let tree = bfs_tree(graph);
        let reach = reach_estimate(graph);
        let mut deck = Deck {
            learner: Some(learner),
            ..Deck::default()
        };
        let mut titles: FxHashMap<LineId, String> = FxHashMap::default();
        for &node in &tree.order {
            if graph.key(node).turn() != learner || graph.continuations(node).is_empty() {
                continue;
            }
            // A node whose position cannot be rebuilt (a bug the graph's build reports
            // among its issues) gets no card rather than the start position's.
            let Ok(pos) = graph.try_position(node) else {
                continue;
            };
            let opening = tree.name[node.index()].map(|l| {
                titles
                    .entry(l)
                    .or_insert_with(|| graph.line(l).title())
                    .clone()
            });
            let card = DeckCard {
                key: CardKey::from_position(&pos),
                node,
                moves: tree.moves_to(node),
                opening,
                reach: reach.get(node.index()).copied().unwrap_or(0.0),
            };
            deck.by_key.insert(card.key.clone(), deck.cards.len());
            deck.by_node.insert(node, deck.cards.len());
            deck.cards.push(card);
        }
        deck.line_decisions = deck.decisions_of_lines(graph);
        deck.one_answer = deck
            .cards
            .iter()
            .map(|c| graph.continuations(c.node).len() == 1)
            .collect();
        deck
    }

    /// Per line, the cards where it plays the learner's move: read off the cards'
    /// continuations (each knows the lines that play it).
    fn decisions_of_lines(&self, graph: &PositionGraph) -> Vec<Vec<u32>> {
        let mut out: Vec<Vec<u32>> = vec![Vec::new(); graph.lines().len()];
        for (i, card) in self.cards.iter().enumerate() {
            for c in graph.continuations(card.node) {
                for &l in graph.continuation_lines(c) {
                    if let Some(cards) = out.get_mut(l.index()) {
                        cards.push(i as u32);
                    }
                }
            }
        }
        // In card order already; a line on two continuations of a card counts it once.
        for cards in &mut out {
            cards.dedup();
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

    /// The cards where a line plays the learner's move (indices into [`Deck::cards`]),
    /// not the position it only ends at.
    pub fn line_decision_cards(&self, line: LineId) -> &[u32] {
        self.line_decisions
            .get(line.index())
            .map_or(&[], Vec::as_slice)
    }

    /// Whether the book has only one move for the learner at card `i`. Any book move
    /// answers a card right, so only there does a right answer tell which move (and so
    /// which of the lines through the card) the learner plays.
    pub fn has_one_answer(&self, i: usize) -> bool {
        self.one_answer.get(i).copied().unwrap_or(false)
    }

    /// Replaces the reach estimate of every card (`reach(card)` should be in [0, 1]).
    pub fn set_reach(&mut self, mut reach: impl FnMut(&DeckCard) -> f64) {
        for c in &mut self.cards {
            c.reach = reach(c).clamp(0.0, 1.0);
        }
    }
}

/// The breadth-first tree of book moves from the standard start.
struct Tree {
    /// Nodes in breadth-first order, the start first.
    order: Vec<NodeId>,
    /// Per node, the node and move it is first reached from.
    parent: Vec<Option<(NodeId, Move)>>,
    /// Per node, the deepest named node on its tree path (as lichess names openings).
    name: Vec<Option<LineId>>,
}

impl Tree {
    /// The moves from the start to `node` along the tree.
    fn moves_to(&self, node: NodeId) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut at = node;
        while let Some((p, mv)) = self.parent[at.index()] {
            moves.push(mv);
            at = p;
        }
        moves.reverse();
        moves
    }
}

fn bfs_tree(graph: &PositionGraph) -> Tree {
    let n = graph.node_count();
    let mut tree = Tree {
        order: Vec::new(),
        parent: vec![None; n],
        name: vec![None; n],
    };
    let Some(start) = graph.start() else {
        return tree;
    };
    let mut seen = vec![false; n];
    seen[start.index()] = true;
    tree.order.push(start);
    tree.name[start.index()] = graph.name(start);
    let mut i = 0;
    while i < tree.order.len() {
        let node = tree.order[i];
        i += 1;
        for c in graph.continuations(node) {
            if !seen[c.to.index()] {
                seen[c.to.index()] = true;
                tree.parent[c.to.index()] = Some((node, c.mv));
                tree.name[c.to.index()] = graph.name(c.to).or(tree.name[node.index()]);
                tree.order.push(c.to);
            }
        }
    }
    tree
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
