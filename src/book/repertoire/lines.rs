//! A chapter's tree as opening lines: the lines the PGN importer
//! ([`crate::book::pgn::read_pgn`], repertoire mode) reads from the chapter's text,
//! made from the tree without writing and reading the text (the Repertoire tab
//! rebuilds its book after every edit).
//!
//! As the importer does, the moves are taken in the order the text gives them (a
//! move, its variations, then the move after it), a move that a variation repeats is
//! merged with the one made before (and what is said about it joined), every
//! root-to-leaf path is one line, and a move's annotation is the comment before it (at
//! the start of a variation, or before the first move), then its comment and NAGs. A
//! paused move (`[%hastings paused]`) and what follows it are left out as the importer
//! leaves them out.

use std::sync::Arc;

use shakmaty::fen::Epd;
use shakmaty::{Chess, EnPassantMode, Move};

use super::tree::{GameTree, NodeId};
use crate::book::line::{LineSource, MoveAnnotation, OpeningLine, Start};
use crate::book::pgn::{line_name, merge_note, parse_comment};

/// A move of the merged tree.
struct Merged {
    parent: usize,
    children: Vec<usize>,
    mv: Option<Move>,
    note: Option<MoveAnnotation>,
}

impl GameTree {
    /// The chapter's lines as the importer reads them from its text, each with
    /// `source` (a chapter without moves has none).
    pub fn opening_lines(&self, source: LineSource) -> Vec<OpeningLine> {
        let merged = self.merged();
        let tags = self.tags();
        let name = line_name(tags).unwrap_or_default();
        let eco = tags.known("ECO").map(str::to_owned);
        let start = self.root().position();
        let standard = Epd::from_position(&Chess::default(), EnPassantMode::Legal);
        let start = (Epd::from_position(start, EnPassantMode::Legal) != standard)
            .then(|| Start::new(start.clone()));
        let shared_tags = (!tags.is_empty()).then(|| Arc::new(tags.clone()));
        let mut lines = Vec::new();
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            let node = &merged[n];
            if !node.children.is_empty() {
                stack.extend(node.children.iter().rev());
                continue;
            }
            if n == 0 {
                continue;
            }
            let Some(path) = kept_path(&merged, n) else {
                continue;
            };
            let mut moves = Vec::with_capacity(path.len());
            let mut annotations = Vec::new();
            for (ply, &m) in path.iter().enumerate() {
                let node = &merged[m];
                if let Some(mv) = node.mv {
                    moves.push(mv);
                }
                if let Some(note) = &node.note {
                    annotations.push(MoveAnnotation {
                        ply: u32::try_from(ply).unwrap_or(u32::MAX),
                        ..note.clone()
                    });
                }
            }
            lines.push(OpeningLine {
                source,
                eco: eco.clone(),
                name: name.clone(),
                start: start.clone(),
                moves,
                weight: 1.0,
                annotations,
                truncated: false,
                tags: shared_tags.clone(),
            });
        }
        lines
    }

    /// The tree with the moves a variation repeats merged, in the text's order.
    fn merged(&self) -> Vec<Merged> {
        let mut merged = vec![Merged {
            parent: usize::MAX,
            children: Vec::new(),
            mv: None,
            note: None,
        }];
        // Each tree node's merged node (the root's is 0).
        let mut of = vec![usize::MAX; self.nodes.len()];
        of[0] = 0;
        // (node, whether it was added): a move is added when its turn in the text
        // comes; then the moves after it, each move's variations before its successor.
        let mut stack = vec![(GameTree::ROOT, true)];
        while let Some((id, added)) = stack.pop() {
            if !added {
                self.merge(id, &mut merged, &mut of);
            }
            let Some(node) = self.node(id) else { continue };
            let Some((&main, variations)) = node.children().split_first() else {
                continue;
            };
            self.merge(main, &mut merged, &mut of);
            stack.push((main, true));
            stack.extend(variations.iter().rev().map(|&v| (v, false)));
        }
        merged
    }

    /// Adds tree node `id` to `merged` (its parent's there already): a new move, or
    /// what is said about it joined to the same move made before.
    fn merge(&self, id: NodeId, merged: &mut Vec<Merged>, of: &mut [usize]) {
        let Some(node) = self.node(id) else { return };
        let Some((mv, _)) = node.mv() else { return };
        let Some(parent) = node.parent().and_then(|p| of.get(p.0 as usize).copied()) else {
            return;
        };
        let existing = merged[parent]
            .children
            .iter()
            .copied()
            .find(|&c| merged[c].mv == Some(mv));
        let at = existing.unwrap_or_else(|| {
            merged.push(Merged {
                parent,
                children: Vec::new(),
                mv: Some(mv),
                note: None,
            });
            let at = merged.len() - 1;
            merged[parent].children.push(at);
            at
        });
        if let Some(slot) = of.get_mut(id.0 as usize) {
            *slot = at;
        }
        // Before the move: a variation's starting comment, or (the main line's first
        // move) the comment before the first move.
        let before = if node.starting_comment().is_some() {
            node.starting_comment()
        } else if parent == 0 && self.root().children().first() == Some(&id) {
            self.root().comment()
        } else {
            None
        };
        let mut after = node
            .comment()
            .and_then(|c| parse_comment(c.as_bytes()))
            .map(|b| *b);
        if !node.nags().is_empty() {
            let note = after.get_or_insert_with(MoveAnnotation::default);
            note.nags.extend_from_slice(node.nags());
        }
        let notes = before
            .and_then(|c| parse_comment(c.as_bytes()))
            .map(|b| *b)
            .into_iter()
            .chain(after);
        for note in notes {
            match &mut merged[at].note {
                Some(old) => merge_note(old, note),
                slot @ None => *slot = Some(note),
            }
        }
    }
}

/// Whether the merged move `n` is paused.
fn is_paused(merged: &[Merged], n: usize) -> bool {
    merged[n]
        .note
        .as_ref()
        .is_some_and(MoveAnnotation::is_paused)
}

/// The path to the leaf `leaf` as the book keeps it, as the importer keeps it: `None`
/// when a paused move takes it out (its position has a move not paused); when every
/// move there is paused, the line ends before them, once (under the first of them).
fn kept_path(merged: &[Merged], leaf: usize) -> Option<Vec<usize>> {
    let mut path = Vec::new();
    let mut at = leaf;
    while at != 0 {
        path.push(at);
        at = merged[at].parent;
    }
    path.reverse();
    let Some(k) = path.iter().position(|&n| is_paused(merged, n)) else {
        return Some(path);
    };
    let siblings = &merged[merged[path[k]].parent].children;
    if siblings.iter().any(|&c| !is_paused(merged, c)) {
        return None;
    }
    let mut first = siblings.first().copied()?;
    let under = first;
    while let Some(&c) = merged[first].children.first() {
        first = c;
    }
    (k > 0 && path[k] == under && first == leaf).then(|| path[..k].to_vec())
}
