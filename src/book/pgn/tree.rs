//! A recorded game played into a tree of moves: the mainline and its variations, to
//! any depth, with the moves that a variation repeats merged, and comments and NAGs on
//! the moves they follow. Every root-to-leaf path becomes one line.
//!
//! A variation replaces the last move of the line it is in. The first illegal move
//! stops the game (the moves before it are kept); a ply limit cuts every path.

use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

use super::comment::merge_note;
use super::report::IssueReason;
use super::visitor::Event;
use crate::book::error::MoveErrorKind;
use crate::book::key::NodeKey;
use crate::book::line::MoveAnnotation;
use crate::book::movelist;

/// No node: the parent of the root, the end of a child list.
pub(super) const NONE: u32 = u32::MAX;

/// One move of the tree (the root: the start position).
pub(super) struct TreeNode {
    pub(super) parent: u32,
    first_child: u32,
    next_sibling: u32,
    /// The move into this node (`None` for the root).
    pub(super) mv: Option<(San, Move)>,
    /// The node key of the position. The positions themselves are kept only where
    /// moves are read (in the frames), which keeps the nodes small.
    pub(super) key: NodeKey,
    depth: u32,
    pub(super) note: Option<Box<MoveAnnotation>>,
}

struct Frame {
    /// The last node of the line this frame reads.
    node: u32,
    /// The position at `node`.
    pos: Chess,
    /// The position before `node`'s move, once this frame has played one: where a
    /// variation of that move starts.
    before: Chess,
    /// Plies read in this frame's line, counting those past the ply limit.
    depth: u32,
    /// No move yet in this frame: comments wait for the first move.
    fresh: bool,
    pending: Option<Box<MoveAnnotation>>,
}

/// Where reading a game stopped before its end, and why.
pub(super) struct Stop {
    pub(super) ply: u32,
    pub(super) san: String,
    pub(super) reason: IssueReason,
}

/// How playing a game's events ended.
pub(super) struct Played {
    /// The illegal move that stopped it, if one did.
    pub(super) stop: Option<Stop>,
    /// Lines (mainline and variations) still open at the end.
    pub(super) open: usize,
    /// Whether a result (`*`, `1-0`, …) was read.
    pub(super) outcome: bool,
    /// The ply reached in the innermost open line.
    pub(super) depth: u32,
}

/// The moves of one game; node 0 is the start.
pub(super) struct Tree {
    pub(super) nodes: Vec<TreeNode>,
    start: Chess,
    limit: u32,
    pub(super) games_mode: bool,
}

impl Tree {
    /// The tree of a game from `start`; `spare` is a vector to reuse (its nodes are
    /// dropped).
    pub(super) fn new(start: Chess, limit: u32, games_mode: bool, spare: Vec<TreeNode>) -> Tree {
        let mut nodes = spare;
        nodes.clear();
        nodes.push(TreeNode {
            parent: NONE,
            first_child: NONE,
            next_sibling: NONE,
            mv: None,
            key: NodeKey::from_position(&start),
            depth: 0,
            note: None,
        });
        Tree {
            nodes,
            start,
            limit,
            games_mode,
        }
    }

    /// The nodes' vector, to reuse for the next game.
    pub(super) fn into_nodes(self) -> Vec<TreeNode> {
        self.nodes
    }

    /// The child of `parent` by `mv`, made if new with the node key `key`.
    fn child(&mut self, parent: u32, san: San, mv: Move, key: NodeKey) -> u32 {
        let p = parent as usize;
        let mut last = NONE;
        let mut c = self.nodes[p].first_child;
        while c != NONE {
            if matches!(self.nodes[c as usize].mv, Some((_, m)) if m == mv) {
                return c;
            }
            last = c;
            c = self.nodes[c as usize].next_sibling;
        }
        let id = u32::try_from(self.nodes.len()).unwrap_or(NONE);
        self.nodes.push(TreeNode {
            parent,
            first_child: NONE,
            next_sibling: NONE,
            mv: Some((san, mv)),
            key,
            depth: self.nodes[p].depth + 1,
            note: None,
        });
        if last == NONE {
            self.nodes[p].first_child = id;
        } else {
            self.nodes[last as usize].next_sibling = id;
        }
        id
    }

    fn annotate(&mut self, node: u32, note: MoveAnnotation) {
        let slot = &mut self.nodes[node as usize].note;
        match slot {
            None => *slot = Some(Box::new(note)),
            Some(old) => merge_note(old, note),
        }
    }

    /// Plays the recorded events into the tree.
    pub(super) fn play(&mut self, events: &[Event]) -> Played {
        let mut frames = vec![Frame {
            node: 0,
            pos: self.start.clone(),
            before: self.start.clone(),
            depth: 0,
            fresh: true,
            pending: None,
        }];
        let mut skipping = 0usize;
        let mut outcome = false;
        for event in events {
            if skipping > 0 {
                match event {
                    Event::Begin => skipping += 1,
                    Event::End => skipping -= 1,
                    _ => {}
                }
                continue;
            }
            let Some(frame) = frames.last_mut() else {
                break;
            };
            match event {
                Event::San(san) => {
                    if frame.depth >= self.limit {
                        frame.depth += 1;
                        frame.fresh = false;
                        continue;
                    }
                    let ply = frame.depth + 1;
                    let (mv, standard) = match movelist::to_move_and_san(&frame.pos, *san) {
                        Ok(found) => found,
                        Err(e) => {
                            let reason = match (san, e) {
                                (San::Null, _) => IssueReason::NullMove,
                                (_, MoveErrorKind::Ambiguous) => IssueReason::AmbiguousMove,
                                (_, MoveErrorKind::Illegal) => IssueReason::IllegalMove,
                            };
                            let stop = Stop {
                                ply,
                                san: san.to_string(),
                                reason,
                            };
                            return Played {
                                stop: Some(stop),
                                open: frames.len(),
                                outcome,
                                depth: ply - 1,
                            };
                        }
                    };
                    let pending = frame.pending.take();
                    frame.before.clone_from(&frame.pos);
                    frame.pos.play_unchecked(mv);
                    let (parent, depth) = (frame.node, frame.depth);
                    let key = NodeKey::from_position(&frame.pos);
                    let child = self.child(parent, standard, mv, key);
                    if let Some(frame) = frames.last_mut() {
                        frame.node = child;
                        frame.depth = depth + 1;
                        frame.fresh = false;
                    }
                    if let Some(note) = pending {
                        self.annotate(child, *note);
                    }
                }
                Event::Nag(nag) => {
                    let note = MoveAnnotation {
                        nags: vec![*nag],
                        ..MoveAnnotation::default()
                    };
                    self.attach(frame, note);
                }
                Event::Comment(Some(note), _) => {
                    let note = (**note).clone();
                    self.attach(frame, note);
                }
                Event::Comment(None, _) => {}
                Event::Begin if self.games_mode => skipping = 1,
                Event::Begin => {
                    // A variation replaces the last move of the line it is in.
                    let (node, depth, pos) = if frame.fresh || frame.depth == 0 {
                        (frame.node, frame.depth, &frame.pos)
                    } else if frame.depth > self.nodes[frame.node as usize].depth {
                        (frame.node, frame.depth - 1, &frame.pos)
                    } else {
                        let parent = self.nodes[frame.node as usize].parent;
                        (parent, frame.depth - 1, &frame.before)
                    };
                    let pos = pos.clone();
                    frames.push(Frame {
                        node,
                        before: pos.clone(),
                        pos,
                        depth,
                        fresh: true,
                        pending: None,
                    });
                }
                Event::End => {
                    if frames.len() > 1
                        && let Some(done) = frames.pop()
                        && let Some(note) = done.pending
                        && done.node != 0
                    {
                        self.annotate(done.node, *note);
                    }
                }
                Event::Outcome => outcome = true,
            }
        }
        Played {
            stop: None,
            open: frames.len(),
            outcome,
            depth: frames.last().map_or(0, |f| f.depth),
        }
    }

    /// A comment or NAG goes to the frame's last move, or waits for its first one.
    fn attach(&mut self, frame: &mut Frame, note: MoveAnnotation) {
        let node_depth = self.nodes[frame.node as usize].depth;
        if frame.fresh {
            match &mut frame.pending {
                None => frame.pending = Some(Box::new(note)),
                Some(old) => merge_note(old, note),
            }
        } else if frame.depth == node_depth && frame.node != 0 {
            self.annotate(frame.node, note);
        }
        // Past the ply limit: the move is not kept, nor what is said about it.
    }

    /// The leaves, mainline first (depth-first in move order).
    pub(super) fn leaves(&self) -> Vec<u32> {
        let mut out = Vec::new();
        let mut stack = vec![0u32];
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            if node.first_child == NONE {
                if n != 0 {
                    out.push(n);
                }
                continue;
            }
            // The children go on the stack last first, so the first comes off first.
            let first = stack.len();
            let mut c = node.first_child;
            while c != NONE {
                stack.push(c);
                c = self.nodes[c as usize].next_sibling;
            }
            stack[first..].reverse();
        }
        out
    }

    /// The number of lines of the tree: its leaves, less those a paused move takes out.
    pub(super) fn leaf_count(&self) -> usize {
        if !self
            .nodes
            .iter()
            .any(|n| n.note.as_ref().is_some_and(|n| n.is_paused()))
        {
            // Nothing paused: every leaf is a line, in whatever order they are counted.
            return self
                .nodes
                .iter()
                .skip(1)
                .filter(|n| n.first_child == NONE)
                .count();
        }
        self.leaves()
            .into_iter()
            .filter(|&l| self.kept_path(l).is_some())
            .count()
    }

    /// Whether the move into `node` is paused (`[%hastings paused]`).
    fn is_paused(&self, node: u32) -> bool {
        self.nodes[node as usize]
            .note
            .as_ref()
            .is_some_and(|n| n.is_paused())
    }

    /// The path to `leaf` as the book keeps it: `None` when a paused move takes it out
    /// of the book. A line through a paused move is left out when its position has a
    /// move that is not paused; when every move there is paused, the line ends before
    /// them (one line).
    pub(super) fn kept_path(&self, leaf: u32) -> Option<Vec<u32>> {
        let path = self.path(leaf);
        let Some(k) = path.iter().position(|&n| self.is_paused(n)) else {
            return Some(path);
        };
        let parent = self.nodes[path[k] as usize].parent;
        let mut c = self.nodes[parent as usize].first_child;
        while c != NONE {
            if !self.is_paused(c) {
                return None;
            }
            c = self.nodes[c as usize].next_sibling;
        }
        // Every move here is paused: the line ends before them, once (the first one's).
        let first = self.nodes[parent as usize].first_child;
        (k > 0 && path[k] == first && self.first_leaf(first) == leaf).then(|| path[..k].to_vec())
    }

    /// The first leaf under `node` (main line first).
    fn first_leaf(&self, node: u32) -> u32 {
        let mut n = node;
        while self.nodes[n as usize].first_child != NONE {
            n = self.nodes[n as usize].first_child;
        }
        n
    }

    pub(super) fn path(&self, leaf: u32) -> Vec<u32> {
        let mut path = Vec::new();
        let mut n = leaf;
        while n != 0 && n != NONE {
            path.push(n);
            n = self.nodes[n as usize].parent;
        }
        path.reverse();
        path
    }
}
