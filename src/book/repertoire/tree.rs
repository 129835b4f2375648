//! One chapter's moves as a tree: an arena of nodes, each with its children in order
//! (the first is the main line), the comments and NAGs said about its move.
//!
//! Nodes are never freed: a deleted move is detached from its parent and stays in the
//! arena, so that undo attaches the very same node again and a [`NodeId`] the window
//! holds keeps meaning the same move.

use serde::{Deserialize, Serialize};
use shakmaty::san::San;
use shakmaty::{Chess, Move};

use crate::book::line::MoveAnnotation;
use crate::book::pgn::parse_comment;
use crate::book::tags::GameTags;

/// A node of a chapter's tree; [`GameTree::ROOT`] is the start position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct NodeId(pub u32);

/// One move of a chapter (the root: the start position).
#[derive(Debug, Clone)]
pub struct Node {
    pub(super) parent: Option<NodeId>,
    pub(super) children: Vec<NodeId>,
    pub(super) mv: Option<(Move, San)>,
    pub(super) pos: Chess,
    pub(super) ply: u32,
    /// The comment written before the move, at the start of a variation (`( {…} 3. e5`).
    pub(super) starting_comment: Option<String>,
    /// The comment after the move (for the root: before the first move), commands such
    /// as `[%cal …]` and `[%clk …]` included, as written (trimmed).
    pub(super) comment: Option<String>,
    /// The NAGs after the move, in the order written (`!` is 1, `?` is 2, …).
    pub(super) nags: Vec<u8>,
}

impl Node {
    /// The move into this node and its standard SAN; `None` for the root.
    pub fn mv(&self) -> Option<(Move, San)> {
        self.mv
    }

    /// The position after the move (for the root: the start position).
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// The number of moves from the start position to this node.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The parent node; `None` for the root.
    pub fn parent(&self) -> Option<NodeId> {
        self.parent
    }

    /// The children in order: the first continues the main line, the others are
    /// variations.
    pub fn children(&self) -> &[NodeId] {
        &self.children
    }

    /// The comment after the move (the root's: before the first move), as written.
    pub fn comment(&self) -> Option<&str> {
        self.comment.as_deref()
    }

    /// The comment before the move, at the start of a variation.
    pub fn starting_comment(&self) -> Option<&str> {
        self.starting_comment.as_deref()
    }

    /// The NAGs after the move, in order.
    pub fn nags(&self) -> &[u8] {
        &self.nags
    }

    /// The comment read as the import reads it (the text without commands, the arrows
    /// and circles), with the NAGs; `ply` is the move's ply less one.
    pub fn annotation(&self) -> MoveAnnotation {
        let mut note = self
            .comment
            .as_deref()
            .and_then(|c| parse_comment(c.as_bytes()))
            .map(|b| *b)
            .unwrap_or_default();
        note.nags.clone_from(&self.nags);
        note.ply = self.ply.saturating_sub(1);
        note
    }
}

/// A chapter read into a tree: its tags, its moves and its result.
#[derive(Debug, Clone)]
pub struct GameTree {
    pub(super) tags: GameTags,
    pub(super) nodes: Vec<Node>,
    /// The result token as written (`*`, `1-0`, …); `None` when the movetext had none.
    pub(super) result: Option<String>,
}

impl GameTree {
    /// The root: the start position.
    pub const ROOT: NodeId = NodeId(0);

    /// A tree with no moves from `start`.
    pub(super) fn new(tags: GameTags, start: Chess) -> GameTree {
        GameTree {
            tags,
            nodes: vec![Node {
                parent: None,
                children: Vec::new(),
                mv: None,
                pos: start,
                ply: 0,
                starting_comment: None,
                comment: None,
                nags: Vec::new(),
            }],
            result: None,
        }
    }

    /// The chapter's tags, in file order.
    pub fn tags(&self) -> &GameTags {
        &self.tags
    }

    /// The result token as written; `None` when there was none.
    pub fn result(&self) -> Option<&str> {
        self.result.as_deref()
    }

    /// The node `id`; `None` when there is no such node in the arena.
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.0 as usize)
    }

    pub(super) fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.get_mut(id.0 as usize)
    }

    /// The root node.
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// Whether `id` is in the tree: its parents lead to the root (a deleted move is not,
    /// though its node is kept for undo).
    pub fn contains(&self, id: NodeId) -> bool {
        let mut at = id;
        loop {
            let Some(node) = self.node(at) else {
                return false;
            };
            let Some(parent) = node.parent else {
                return at == Self::ROOT;
            };
            let Some(p) = self.node(parent) else {
                return false;
            };
            if !p.children.contains(&at) {
                return false;
            }
            at = parent;
        }
    }

    /// The child of `parent` reached by `mv`, if there is one.
    pub fn child_by_move(&self, parent: NodeId, mv: Move) -> Option<NodeId> {
        let node = self.node(parent)?;
        node.children.iter().copied().find(|&c| {
            self.node(c)
                .and_then(|n| n.mv)
                .is_some_and(|(m, _)| m == mv)
        })
    }

    /// The nodes from the root's first move down to `id` (empty for the root).
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = Some(id);
        while let Some(n) = at {
            if n == Self::ROOT {
                break;
            }
            path.push(n);
            at = self.node(n).and_then(|node| node.parent);
        }
        path.reverse();
        path
    }

    /// The SAN moves from the start to `id`.
    pub fn path_sans(&self, id: NodeId) -> Vec<String> {
        self.path(id)
            .into_iter()
            .filter_map(|n| self.node(n).and_then(|node| node.mv))
            .map(|(_, san)| san.to_string())
            .collect()
    }

    /// The main line from `id`: the first child, its first child, and so on.
    pub fn main_line(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut at = id;
        while let Some(&next) = self.node(at).and_then(|n| n.children.first()) {
            out.push(next);
            at = next;
        }
        out
    }

    /// The nodes in the tree (the root included), depth-first, main line first.
    pub fn walk(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![Self::ROOT];
        while let Some(n) = stack.pop() {
            out.push(n);
            if let Some(node) = self.node(n) {
                stack.extend(node.children.iter().rev().copied());
            }
        }
        out
    }

    /// A new node for `mv` (legal at `parent`'s position), not yet attached.
    pub(super) fn push_node(&mut self, parent: NodeId, mv: Move, san: San) -> Option<NodeId> {
        let p = self.node(parent)?;
        let mut pos = p.pos.clone();
        let ply = p.ply + 1;
        shakmaty::Position::play_unchecked(&mut pos, mv);
        let id = NodeId(u32::try_from(self.nodes.len()).ok()?);
        self.nodes.push(Node {
            parent: Some(parent),
            children: Vec::new(),
            mv: Some((mv, san)),
            pos,
            ply,
            starting_comment: None,
            comment: None,
            nags: Vec::new(),
        });
        Some(id)
    }
}
