//! Walking the repertoire editor's move tree: to the position of some moves, forward, back,
//! and to the next or previous variation.

use shakmaty::{Chess, Move, Position};

use super::RepertoireState;
use crate::book::repertoire::{GameTree, Node, NodeId};

impl RepertoireState {
    /// Goes to the position after `moves` from the standard position: in the chapter
    /// (of the repertoire editor's side, from the standard position) whose tree holds most of
    /// them, the current one first; the moves not in it are past the cursor's node.
    pub(crate) fn go_to_moves(&mut self, moves: &[Move]) {
        let Some(doc) = self.document() else {
            return;
        };
        let side = self.side();
        let standard = Chess::default();
        let mut best: Option<(usize, NodeId, usize)> = None;
        let order = std::iter::once(self.chapter).chain(0..doc.chapters().len());
        for index in order {
            let Some(chapter) = doc.chapter(index) else {
                continue;
            };
            let Some(tree) = chapter.tree() else {
                continue;
            };
            if tree.root().position().board() != standard.board()
                || (side.is_some() && self.chapter_side(index).is_some_and(|s| Some(s) != side))
            {
                continue;
            }
            let mut at = GameTree::ROOT;
            let mut depth = 0;
            for &mv in moves {
                match tree.child_by_move(at, mv) {
                    Some(next) => {
                        at = next;
                        depth += 1;
                    }
                    None => break,
                }
            }
            if best.is_none_or(|(_, _, d)| depth > d) {
                best = Some((index, at, depth));
            }
        }
        let Some((chapter, node, depth)) = best else {
            return;
        };
        self.chapter = chapter;
        self.node = node;
        self.beyond = moves[depth..].to_vec();
    }

    // ----- walking -----

    pub(super) fn go(&mut self, node: NodeId) {
        self.node = node;
        self.beyond.clear();
    }

    pub(super) fn forward(&mut self) {
        if !self.beyond.is_empty() {
            return;
        }
        if let Some(&next) = self.cursor_node().and_then(|n| n.children().first()) {
            self.node = next;
        }
    }

    pub(super) fn back(&mut self) {
        if self.beyond.pop().is_none()
            && let Some(parent) = self.cursor_node().and_then(Node::parent)
        {
            self.node = parent;
        }
    }

    pub(super) fn switch_variation(&mut self, next: bool) {
        let Some(tree) = self.tree() else {
            return;
        };
        let mut at = self.node;
        while let Some(parent) = tree.node(at).and_then(Node::parent) {
            let siblings = tree.node(parent).map(Node::children).unwrap_or_default();
            if siblings.len() > 1 {
                let Some(i) = siblings.iter().position(|&c| c == at) else {
                    return;
                };
                let j = if next {
                    (i + 1) % siblings.len()
                } else {
                    (i + siblings.len() - 1) % siblings.len()
                };
                let target = siblings[j];
                self.go(target);
                return;
            }
            at = parent;
        }
    }
}
