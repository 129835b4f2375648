//! An edited chapter written as PGN, through the one game writer of this program
//! ([`GameWriter`], which the book's export uses too): tags in order, the root's
//! comment, the main line with each variation in parentheses after the move it
//! replaces, NAGs as `$n`, comments after their move, the result (`*` when the
//! chapter had none).
//!
//! What this normalises in an edited chapter (an untouched one is written as read):
//! line breaks (lines of at most 79 characters), move numbers (`1. e4 e5`, `1... e5`
//! after a comment or at a variation's start), spacing inside comments (`{ text }` is
//! written `{text}`; a line break in a comment becomes a space), glyphs (`!` is
//! written `$1`), a `;` comment written as `{…}`, several comments after one move
//! joined into one, empty comments left out, check marks as shakmaty writes them.
//! A comment before a move that is now on the main line (a promoted variation's
//! starting comment) is written before that move, where readers take it as the
//! previous move's comment.

use shakmaty::Position as _;
use shakmaty::san::{San, SanPlus, Suffix};

use super::tree::{GameTree, NodeId};
use crate::book::export::GameWriter;

/// The PGN text of `tree` (ending with a blank line).
pub(super) fn write_tree(tree: &GameTree) -> String {
    enum Task {
        /// Write what follows the node: its first child, the others as variations.
        Continue(NodeId),
        /// Open a variation with this node's move.
        Open(NodeId),
        Close,
    }
    let mut game = GameWriter::new();
    for (name, value) in tree.tags.iter() {
        game.tag(name, value);
    }
    if let Some(comment) = &tree.root().comment {
        game.comment(comment);
    }
    let mut tasks = vec![Task::Continue(GameTree::ROOT)];
    while let Some(task) = tasks.pop() {
        match task {
            Task::Continue(n) => {
                let Some(node) = tree.node(n) else {
                    continue;
                };
                let Some((&main, variations)) = node.children.split_first() else {
                    continue;
                };
                if let Some(comment) = tree.node(main).and_then(|m| m.starting_comment.as_ref()) {
                    game.comment(comment);
                }
                write_move(&mut game, tree, main);
                tasks.push(Task::Continue(main));
                for &v in variations.iter().rev() {
                    tasks.push(Task::Close);
                    tasks.push(Task::Continue(v));
                    tasks.push(Task::Open(v));
                }
            }
            Task::Open(n) => {
                game.begin_variation();
                if let Some(comment) = tree.node(n).and_then(|m| m.starting_comment.as_ref()) {
                    game.comment(comment);
                }
                write_move(&mut game, tree, n);
            }
            Task::Close => game.end_variation(),
        }
    }
    game.finish(tree.result.as_deref().unwrap_or("*"))
}

fn write_move(game: &mut GameWriter, tree: &GameTree, n: NodeId) {
    let Some(node) = tree.node(n) else {
        return;
    };
    let (Some((mv, _)), Some(parent)) = (node.mv, node.parent.and_then(|p| tree.node(p))) else {
        return;
    };
    // The position after the move is the node's: its check mark costs a legal-move
    // generation only in check (as `SanPlus::from_move` would give, without replaying
    // the move and generating every position's moves for the outcome).
    let suffix = if node.pos.is_checkmate() {
        Some(Suffix::Checkmate)
    } else if node.pos.is_check() {
        Some(Suffix::Check)
    } else {
        None
    };
    let san = SanPlus {
        san: San::from_move(&parent.pos, mv),
        suffix,
    };
    game.san_plus(&parent.pos, &san);
    for &nag in &node.nags {
        game.nag(nag);
    }
    if let Some(comment) = &node.comment {
        game.comment(comment);
    }
}
