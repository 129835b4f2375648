//! The edits of a document as values ([`Op`]), checked and turned into undoable steps.
//!
//! An `Op` names its chapter by index (from 0) and its moves by [`NodeId`]; node ids
//! are given out in order as moves are read and added, so the same ops applied to the
//! same file give the same ids (the journal of unsaved edits relies on it).
//!
//! Moves and marks travel typed ([`Op::PlayMove`], [`Op::SetMarks`]); a move is text
//! only where text is read (the command line's [`Op::AddMove`]) or written: the PGN,
//! and the journal, which records a played move as the `AddMove` of its SAN
//! ([`Document::recorded`]).

use serde::{Deserialize, Serialize};
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Move, Position};

use super::error::EditError;
use super::marks::{self, Arrow, Circle};
use super::rank::Rank;
use super::tree::NodeId;
use super::undo::Edit;
use super::{Change, ChangeKind, Chapter, Document, new_tags};
use crate::book::error::MoveErrorKind;
use crate::book::movelist;
use crate::book::pgn::{with_marks, with_text};
use crate::book::side::Side;
use crate::book::tags::GameTags;

/// One edit of a document (see [`Document::apply`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// Play `san` at node `at` (a move as text, read there): as [`Op::PlayMove`].
    /// The journal records every move played as this.
    AddMove {
        /// Chapter index.
        chapter: usize,
        /// Where.
        at: NodeId,
        /// The move (SAN, or UCI and long algebraic as the import reads them).
        san: String,
    },
    /// Play `mv` at node `at`: the existing child when there is one (selected, nothing
    /// changes), else a new one, the last variation (the main line if `at` has no
    /// child). Not written to the journal as is: [`Document::recorded`] makes it the
    /// [`Op::AddMove`] of its SAN.
    #[serde(skip)]
    PlayMove {
        /// Chapter index.
        chapter: usize,
        /// Where.
        at: NodeId,
        /// The move, legal at `at`.
        mv: Move,
    },
    /// Delete a move and its subtree.
    Delete {
        /// Chapter index.
        chapter: usize,
        /// The move.
        node: NodeId,
    },
    /// Move a variation one place up among its siblings.
    Promote {
        /// Chapter index.
        chapter: usize,
        /// The move.
        node: NodeId,
    },
    /// Make a variation its parent's main line (first child).
    PromoteToMain {
        /// Chapter index.
        chapter: usize,
        /// The move.
        node: NodeId,
    },
    /// Replace the text of the comment after a move (the root: before the first
    /// move); its commands (`[%cal …]`, `[%clk …]`, …) are kept. Empty text clears it.
    SetComment {
        /// Chapter index.
        chapter: usize,
        /// The move.
        node: NodeId,
        /// The new text.
        text: String,
    },
    /// Add a NAG (`1` for `!`, …) after a move.
    AddNag {
        /// Chapter index.
        chapter: usize,
        /// The move.
        node: NodeId,
        /// The NAG.
        nag: u8,
    },
    /// Remove a NAG from a move.
    RemoveNag {
        /// Chapter index.
        chapter: usize,
        /// The move.
        node: NodeId,
        /// The NAG.
        nag: u8,
    },
    /// Set the arrows (`Ge2e4`) and circles (`Rd5`) of a move's comment, as
    /// `[%cal …]` and `[%csl …]`; the rest of the comment is kept.
    SetMarks {
        /// Chapter index.
        chapter: usize,
        /// The move (the root: the start position).
        node: NodeId,
        /// Arrows: colour letter, from-square, to-square (`Ge2e4` in the journal).
        #[serde(with = "marks::arrows")]
        arrows: Vec<Arrow>,
        /// Circles: colour letter, square (`Rd5` in the journal).
        #[serde(with = "marks::circles")]
        circles: Vec<Circle>,
    },
    /// Rank a move (see [`Rank`]): make it the main move, an alternative, pause it or
    /// un-pause it, as `[%hastings alt]` / `[%hastings paused]` in its comment and its
    /// place among its siblings.
    Mark {
        /// Chapter index.
        chapter: usize,
        /// The move.
        node: NodeId,
        /// What to make it.
        rank: Rank,
    },
    /// Add a chapter with no moves at `index` (from 0; the end if past it).
    AddChapter {
        /// Where.
        index: usize,
        /// Its title (`[Event]`).
        title: String,
        /// The side it is for (`[Orientation]`).
        side: Side,
    },
    /// Rename a chapter (its `[ChapterName]` when it has one, else the chapter part of a
    /// lichess study's `[Event]`, else the `[Event]`).
    RenameChapter {
        /// Chapter index.
        chapter: usize,
        /// The new title.
        title: String,
    },
    /// Delete a chapter.
    RemoveChapter {
        /// Chapter index.
        chapter: usize,
    },
    /// Move a chapter from one place to another (indices from 0).
    MoveChapter {
        /// From.
        from: usize,
        /// To.
        to: usize,
    },
}

/// The move `token` means at `pos` (SAN, UCI, long algebraic; glyphs ignored).
pub(super) fn parse_move(pos: &Chess, token: &str) -> Result<Move, &'static str> {
    let word = token.trim().trim_end_matches(['!', '?']);
    let san = movelist::parse_token(word).ok_or("not a move")?;
    movelist::to_move(pos, san).map_err(|e| match e {
        MoveErrorKind::Illegal => "illegal",
        MoveErrorKind::Ambiguous => "ambiguous",
    })
}

impl Document {
    /// Applies one edit, recorded for undo.
    ///
    /// # Errors
    ///
    /// [`EditError`] when the edit is not possible (no such chapter or move, an illegal
    /// move, a chapter that could not be read, …); the document is then unchanged.
    pub fn apply(&mut self, op: &Op) -> Result<Change, EditError> {
        match op {
            Op::AddMove { chapter, at, san } => self.op_add_move(*chapter, *at, san),
            Op::PlayMove { chapter, at, mv } => self.play_move(*chapter, *at, *mv),
            Op::Delete { chapter, node } => {
                let (parent, index) = self.place(*chapter, *node)?;
                Ok(self.perform(Edit::Detach {
                    chapter: *chapter,
                    parent,
                    node: *node,
                    index,
                }))
            }
            Op::Promote { chapter, node } | Op::PromoteToMain { chapter, node } => {
                let (parent, index) = self.place(*chapter, *node)?;
                if index == 0 {
                    return Err(EditError::AlreadyMain {
                        chapter: chapter + 1,
                        san: self.san(*chapter, *node),
                    });
                }
                let to = if matches!(op, Op::Promote { .. }) {
                    index - 1
                } else {
                    0
                };
                Ok(self.perform(Edit::Reorder {
                    chapter: *chapter,
                    parent,
                    from: index,
                    to,
                }))
            }
            Op::SetComment {
                chapter,
                node,
                text,
            } => {
                let old = self.live_node(*chapter, *node)?.comment.clone();
                let new = with_text(old.as_deref(), text);
                Ok(self.comment_edit(*chapter, *node, old, new))
            }
            Op::AddNag { chapter, node, nag } | Op::RemoveNag { chapter, node, nag } => {
                self.place(*chapter, *node)?;
                let old = self.live_node(*chapter, *node)?.nags.clone();
                let adding = matches!(op, Op::AddNag { .. });
                let present = old.contains(nag);
                if present == adding {
                    return Err(EditError::Nag {
                        chapter: chapter + 1,
                        san: self.san(*chapter, *node),
                        nag: *nag,
                        present,
                    });
                }
                let mut new = old.clone();
                if adding {
                    new.push(*nag);
                } else {
                    new.retain(|n| n != nag);
                }
                Ok(self.perform(Edit::Nags {
                    chapter: *chapter,
                    node: *node,
                    old,
                    new,
                }))
            }
            Op::SetMarks {
                chapter,
                node,
                arrows,
                circles,
            } => {
                let old = self.live_node(*chapter, *node)?.comment.clone();
                let new = with_marks(old.as_deref(), arrows, circles);
                Ok(self.comment_edit(*chapter, *node, old, new))
            }
            Op::Mark {
                chapter,
                node,
                rank,
            } => self.op_mark(*chapter, *node, *rank),
            Op::AddChapter { index, title, side } => {
                let index = (*index).min(self.chapters.len());
                Ok(self.perform(Edit::Insert {
                    index,
                    chapter: Some(Box::new(Chapter::new(new_tags(&one_line(title), *side)))),
                }))
            }
            Op::RenameChapter { chapter, title } => {
                let old = self.tree(*chapter)?.tags().clone();
                let new = renamed(&old, &one_line(title));
                Ok(self.perform(Edit::Tags {
                    chapter: *chapter,
                    old,
                    new,
                }))
            }
            Op::RemoveChapter { chapter } => {
                self.chapter_index(*chapter)?;
                Ok(self.perform(Edit::Remove {
                    index: *chapter,
                    chapter: None,
                }))
            }
            Op::MoveChapter { from, to } => {
                let count = self.chapters.len();
                if *from >= count || *to >= count {
                    return Err(EditError::ChapterPlace {
                        from: from + 1,
                        to: to + 1,
                        count,
                    });
                }
                Ok(self.perform(Edit::MoveChapter {
                    from: *from,
                    to: *to,
                }))
            }
        }
    }

    /// Plays `san` at `at` in chapter `chapter` ([`Op::AddMove`]).
    ///
    /// # Errors
    ///
    /// As [`Document::apply`].
    pub fn add_move(&mut self, chapter: usize, at: NodeId, san: &str) -> Result<Change, EditError> {
        self.apply(&Op::AddMove {
            chapter,
            at,
            san: san.to_owned(),
        })
    }

    /// Deletes a move and its subtree ([`Op::Delete`]).
    ///
    /// # Errors
    ///
    /// As [`Document::apply`].
    pub fn delete(&mut self, chapter: usize, node: NodeId) -> Result<Change, EditError> {
        self.apply(&Op::Delete { chapter, node })
    }

    /// Moves a variation one place up ([`Op::Promote`]).
    ///
    /// # Errors
    ///
    /// As [`Document::apply`].
    pub fn promote(&mut self, chapter: usize, node: NodeId) -> Result<Change, EditError> {
        self.apply(&Op::Promote { chapter, node })
    }

    /// Makes a variation the main line at its parent ([`Op::PromoteToMain`]).
    ///
    /// # Errors
    ///
    /// As [`Document::apply`].
    pub fn promote_to_main(&mut self, chapter: usize, node: NodeId) -> Result<Change, EditError> {
        self.apply(&Op::PromoteToMain { chapter, node })
    }

    /// Sets the text of a move's comment ([`Op::SetComment`]); empty text clears it.
    ///
    /// # Errors
    ///
    /// As [`Document::apply`].
    pub fn set_comment(
        &mut self,
        chapter: usize,
        node: NodeId,
        text: &str,
    ) -> Result<Change, EditError> {
        self.apply(&Op::SetComment {
            chapter,
            node,
            text: text.to_owned(),
        })
    }

    /// Adds a NAG to a move ([`Op::AddNag`]).
    ///
    /// # Errors
    ///
    /// As [`Document::apply`].
    pub fn add_nag(&mut self, chapter: usize, node: NodeId, nag: u8) -> Result<Change, EditError> {
        self.apply(&Op::AddNag { chapter, node, nag })
    }

    /// Removes a NAG from a move ([`Op::RemoveNag`]).
    ///
    /// # Errors
    ///
    /// As [`Document::apply`].
    pub fn remove_nag(
        &mut self,
        chapter: usize,
        node: NodeId,
        nag: u8,
    ) -> Result<Change, EditError> {
        self.apply(&Op::RemoveNag { chapter, node, nag })
    }

    /// Sets a move's arrows and circles ([`Op::SetMarks`]).
    ///
    /// # Errors
    ///
    /// As [`Document::apply`].
    pub fn set_marks(
        &mut self,
        chapter: usize,
        node: NodeId,
        arrows: &[Arrow],
        circles: &[Circle],
    ) -> Result<Change, EditError> {
        self.apply(&Op::SetMarks {
            chapter,
            node,
            arrows: arrows.to_vec(),
            circles: circles.to_vec(),
        })
    }

    /// `op` as the journal of unsaved edits records it: a played move as the
    /// [`Op::AddMove`] of its SAN at `at` (the text a move was journaled as before
    /// moves were typed), every other op as it is.
    ///
    /// # Errors
    ///
    /// [`EditError::NoNode`] when a played move's chapter has no node `at`.
    pub fn recorded(&self, op: &Op) -> Result<Op, EditError> {
        let &Op::PlayMove { chapter, at, mv } = op else {
            return Ok(op.clone());
        };
        let pos = self.position_at(chapter, at)?;
        Ok(Op::AddMove {
            chapter,
            at,
            san: San::from_move(&pos, mv).to_string(),
        })
    }

    /// The position at node `at` of chapter `chapter`, a live node.
    fn position_at(&self, chapter: usize, at: NodeId) -> Result<Chess, EditError> {
        Ok(self.live_node(chapter, at)?.position().clone())
    }

    /// Reads `san` at `at` and plays it ([`Op::AddMove`]).
    fn op_add_move(&mut self, chapter: usize, at: NodeId, san: &str) -> Result<Change, EditError> {
        let pos = self.position_at(chapter, at)?;
        let mv = parse_move(&pos, san).map_err(|reason| self.bad_move(chapter, at, san, reason))?;
        self.play_move(chapter, at, mv)
    }

    /// Plays `mv` at `at` ([`Op::PlayMove`]).
    fn play_move(&mut self, chapter: usize, at: NodeId, mv: Move) -> Result<Change, EditError> {
        let pos = self.position_at(chapter, at)?;
        if !pos.is_legal(mv) {
            let uci = mv.to_uci(CastlingMode::Standard).to_string();
            return Err(self.bad_move(chapter, at, &uci, "illegal"));
        }
        let tree = self.tree(chapter)?;
        if let Some(existing) = tree.child_by_move(at, mv) {
            return Ok(Change {
                chapter: Some(chapter),
                node: Some(existing),
                kind: ChangeKind::MoveSelected,
            });
        }
        let standard = San::from_move(&pos, mv);
        let index = tree.node(at).map_or(0, |n| n.children().len());
        let Some(node) = self
            .tree_mut(chapter)
            .and_then(|t| t.push_node(at, mv, standard))
        else {
            return Err(EditError::NoNode {
                chapter: chapter + 1,
                node: at,
            });
        };
        Ok(self.perform(Edit::Attach {
            chapter,
            parent: at,
            node,
            index,
        }))
    }

    /// [`EditError::BadMove`] for `san` at `at`.
    fn bad_move(&self, chapter: usize, at: NodeId, san: &str, reason: &'static str) -> EditError {
        EditError::BadMove {
            chapter: chapter + 1,
            after: self
                .tree(chapter)
                .map(|t| t.path_sans(at).join(" "))
                .unwrap_or_default(),
            san: san.to_owned(),
            reason,
        }
    }

    pub(super) fn comment_edit(
        &mut self,
        chapter: usize,
        node: NodeId,
        old: Option<String>,
        new: Option<String>,
    ) -> Change {
        self.perform(Edit::Comment {
            chapter,
            node,
            starting: false,
            old,
            new,
        })
    }

    /// A node of the tree (the root included).
    pub(super) fn live_node(
        &self,
        chapter: usize,
        node: NodeId,
    ) -> Result<&super::Node, EditError> {
        let tree = self.tree(chapter)?;
        match tree.node(node) {
            Some(n) if tree.contains(node) => Ok(n),
            _ => Err(EditError::NoNode {
                chapter: chapter + 1,
                node,
            }),
        }
    }

    /// A move's parent and its place among the parent's children.
    pub(super) fn place(&self, chapter: usize, node: NodeId) -> Result<(NodeId, usize), EditError> {
        let n = self.live_node(chapter, node)?;
        let Some(parent) = n.parent() else {
            return Err(EditError::Root {
                chapter: chapter + 1,
            });
        };
        let tree = self.tree(chapter)?;
        let index = tree
            .node(parent)
            .and_then(|p| p.children().iter().position(|&c| c == node))
            .ok_or(EditError::NoNode {
                chapter: chapter + 1,
                node,
            })?;
        Ok((parent, index))
    }

    pub(super) fn san(&self, chapter: usize, node: NodeId) -> String {
        self.tree(chapter)
            .ok()
            .and_then(|t| t.node(node))
            .and_then(|n| n.mv())
            .map(|(_, san)| san.to_string())
            .unwrap_or_default()
    }

    fn chapter_index(&self, chapter: usize) -> Result<(), EditError> {
        if chapter < self.chapters.len() {
            Ok(())
        } else {
            Err(EditError::NoChapter {
                chapter: chapter + 1,
                count: self.chapters.len(),
            })
        }
    }
}

/// The tags with the chapter's title replaced (see [`Op::RenameChapter`]).
/// A title as a tag holds it: a line break or other control character is a space (as
/// the game writer writes it), so the title in memory is the one saved.
fn one_line(title: &str) -> String {
    title
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn renamed(old: &GameTags, title: &str) -> GameTags {
    let has_name = old.get("ChapterName").is_some();
    let study = old.known("Site").is_some_and(|s| s.contains("/study/"));
    let mut found = false;
    let mut tags: GameTags = old
        .iter()
        .map(|(name, value)| {
            let value = match name {
                "ChapterName" if has_name => {
                    found = true;
                    title.to_owned()
                }
                "Event" if !has_name => {
                    found = true;
                    match value.split_once(": ") {
                        Some((study_name, _)) if study => format!("{study_name}: {title}"),
                        _ => title.to_owned(),
                    }
                }
                _ => value.to_owned(),
            };
            (name.to_owned(), value)
        })
        .collect::<Vec<_>>()
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    if !found {
        let mut with_event = GameTags::new();
        with_event.push("Event", title);
        for (n, v) in tags.iter() {
            with_event.push(n, v);
        }
        tags = with_event;
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::repertoire::GameTree;

    #[test]
    fn a_rename_changes_the_tag_the_title_comes_from() {
        let tags = |t: &[(&str, &str)]| t.iter().copied().collect::<GameTags>();
        let study = tags(&[
            ("Event", "My study: One"),
            ("Site", "https://lichess.org/study/a/b"),
        ]);
        assert_eq!(renamed(&study, "Two").get("Event"), Some("My study: Two"));
        let named = tags(&[("Event", "E"), ("ChapterName", "C")]);
        let r = renamed(&named, "D");
        assert_eq!(
            (r.get("Event"), r.get("ChapterName")),
            (Some("E"), Some("D"))
        );
        let bare = tags(&[("White", "x")]);
        let r = renamed(&bare, "New");
        assert_eq!(r.iter().next(), Some(("Event", "New")));
        assert_eq!(GameTree::ROOT, NodeId(0));
    }
}
