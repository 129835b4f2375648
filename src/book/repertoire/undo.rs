//! Undo and redo: every edit is a step that knows how to undo itself.
//!
//! A step is an [`Edit`] that can be applied and inverted: attaching a node and
//! detaching it, moving a child from one place to another, a comment, NAG list or tag
//! list from old to new, a chapter inserted or removed (the chapter travels inside the
//! step), a chapter moved. A step on a chapter's content also remembers whether the
//! chapter was modified before it, so that undoing it back to the state it was read in
//! makes the chapter write its original bytes again.

use super::tree::NodeId;
use super::{Change, ChangeKind, Chapter, Document};
use crate::book::tags::GameTags;

/// One reversible change of a document.
#[derive(Debug, Clone)]
pub(super) enum Edit {
    /// `node` becomes child `index` of `parent`.
    Attach {
        chapter: usize,
        parent: NodeId,
        node: NodeId,
        index: usize,
    },
    /// `node`, child `index` of `parent`, is taken out (kept in the arena).
    Detach {
        chapter: usize,
        parent: NodeId,
        node: NodeId,
        index: usize,
    },
    /// The child of `parent` at `from` moves to `to`.
    Reorder {
        chapter: usize,
        parent: NodeId,
        from: usize,
        to: usize,
    },
    /// A comment (`starting`: the one before the move) from `old` to `new`.
    Comment {
        chapter: usize,
        node: NodeId,
        starting: bool,
        old: Option<String>,
        new: Option<String>,
    },
    /// The NAGs from `old` to `new`.
    Nags {
        chapter: usize,
        node: NodeId,
        old: Vec<u8>,
        new: Vec<u8>,
    },
    /// The tags from `old` to `new`.
    Tags {
        chapter: usize,
        old: GameTags,
        new: GameTags,
    },
    /// A chapter inserted at `index`.
    Insert {
        index: usize,
        chapter: Option<Box<Chapter>>,
    },
    /// The chapter at `index` removed.
    Remove {
        index: usize,
        chapter: Option<Box<Chapter>>,
    },
    /// A chapter moved from `from` to `to`.
    MoveChapter { from: usize, to: usize },
    /// Edits of one chapter's content made as one step (a move made the main move:
    /// its place and its mark), applied in order.
    Group(Vec<Edit>),
}

impl Edit {
    /// The edit that undoes this one.
    fn invert(&mut self) {
        use std::mem::{swap, take};
        *self = match take_edit(self) {
            Edit::Attach {
                chapter,
                parent,
                node,
                index,
            } => Edit::Detach {
                chapter,
                parent,
                node,
                index,
            },
            Edit::Detach {
                chapter,
                parent,
                node,
                index,
            } => Edit::Attach {
                chapter,
                parent,
                node,
                index,
            },
            Edit::Reorder {
                chapter,
                parent,
                from,
                to,
            } => Edit::Reorder {
                chapter,
                parent,
                from: to,
                to: from,
            },
            Edit::Comment {
                chapter,
                node,
                starting,
                mut old,
                mut new,
            } => {
                swap(&mut old, &mut new);
                Edit::Comment {
                    chapter,
                    node,
                    starting,
                    old,
                    new,
                }
            }
            Edit::Nags {
                chapter,
                node,
                old,
                new,
            } => Edit::Nags {
                chapter,
                node,
                old: new,
                new: old,
            },
            Edit::Tags { chapter, old, new } => Edit::Tags {
                chapter,
                old: new,
                new: old,
            },
            Edit::Insert { index, mut chapter } => Edit::Remove {
                index,
                chapter: take(&mut chapter),
            },
            Edit::Remove { index, mut chapter } => Edit::Insert {
                index,
                chapter: take(&mut chapter),
            },
            Edit::MoveChapter { from, to } => Edit::MoveChapter { from: to, to: from },
            Edit::Group(mut edits) => {
                edits.reverse();
                edits.iter_mut().for_each(Edit::invert);
                Edit::Group(edits)
            }
        };
    }

    /// The chapter whose content this edit changes (not for chapter list edits).
    fn content_chapter(&self) -> Option<usize> {
        match self {
            Edit::Attach { chapter, .. }
            | Edit::Detach { chapter, .. }
            | Edit::Reorder { chapter, .. }
            | Edit::Comment { chapter, .. }
            | Edit::Nags { chapter, .. }
            | Edit::Tags { chapter, .. } => Some(*chapter),
            Edit::Insert { .. } | Edit::Remove { .. } | Edit::MoveChapter { .. } => None,
            Edit::Group(edits) => edits.first().and_then(Edit::content_chapter),
        }
    }
}

/// Takes an edit out of its place, leaving a cheap placeholder.
fn take_edit(edit: &mut Edit) -> Edit {
    std::mem::replace(edit, Edit::MoveChapter { from: 0, to: 0 })
}

/// An applied edit and what undoing it needs.
#[derive(Debug, Clone)]
struct Step {
    edit: Edit,
    /// Whether the edited chapter was modified before the edit.
    was_modified: bool,
    /// The step's serial number (for the saved mark).
    serial: u64,
}

/// The undo and redo stacks.
#[derive(Debug, Clone, Default)]
pub(super) struct History {
    undo: Vec<Step>,
    redo: Vec<Step>,
    next_serial: u64,
    /// The serial of the top undo step when the document was last saved (0: none, as
    /// read).
    saved: u64,
}

impl History {
    fn top(&self) -> u64 {
        self.undo.last().map_or(0, |s| s.serial)
    }
}

impl Document {
    /// Applies `edit` as a new step (the redo stack is cleared) and returns its change.
    pub(super) fn perform(&mut self, mut edit: Edit) -> Change {
        let was_modified = edit
            .content_chapter()
            .and_then(|c| self.chapters.get(c))
            .is_some_and(|c| c.modified);
        let change = self.apply_edit(&mut edit);
        if let Some(c) = edit
            .content_chapter()
            .and_then(|c| self.chapters.get_mut(c))
        {
            c.modified = true;
        }
        self.history.next_serial += 1;
        self.history.undo.push(Step {
            edit,
            was_modified,
            serial: self.history.next_serial,
        });
        self.history.redo.clear();
        change
    }

    /// Undoes the last edit; returns what changed.
    ///
    /// # Errors
    ///
    /// [`EditError::NoHistory`](super::EditError::NoHistory) when there is nothing to undo.
    pub fn undo(&mut self) -> Result<Change, super::EditError> {
        let mut step = self
            .history
            .undo
            .pop()
            .ok_or(super::EditError::NoHistory("undo"))?;
        step.edit.invert();
        let change = self.apply_edit(&mut step.edit);
        step.edit.invert();
        if let Some(c) = step
            .edit
            .content_chapter()
            .and_then(|c| self.chapters.get_mut(c))
        {
            c.modified = step.was_modified;
        }
        self.history.redo.push(step);
        Ok(change)
    }

    /// Redoes the last undone edit; returns what changed.
    ///
    /// # Errors
    ///
    /// [`EditError::NoHistory`](super::EditError::NoHistory) when there is nothing to redo.
    pub fn redo(&mut self) -> Result<Change, super::EditError> {
        let mut step = self
            .history
            .redo
            .pop()
            .ok_or(super::EditError::NoHistory("redo"))?;
        let change = self.apply_edit(&mut step.edit);
        if let Some(c) = step
            .edit
            .content_chapter()
            .and_then(|c| self.chapters.get_mut(c))
        {
            c.modified = true;
        }
        self.history.undo.push(step);
        Ok(change)
    }

    /// Whether there is an edit to undo.
    pub fn can_undo(&self) -> bool {
        !self.history.undo.is_empty()
    }

    /// Whether there is an undone edit to redo.
    pub fn can_redo(&self) -> bool {
        !self.history.redo.is_empty()
    }

    /// Whether the document differs from what was last saved (or read): an edit was
    /// made since, or undone past the save.
    pub fn is_dirty(&self) -> bool {
        self.history.top() != self.history.saved
    }

    /// Marks the document as saved in its current state.
    pub fn mark_saved(&mut self) {
        self.history.saved = self.history.top();
    }

    /// Applies an edit already checked to be possible; returns what changed.
    fn apply_edit(&mut self, edit: &mut Edit) -> Change {
        let content = |chapter: usize, node: NodeId, kind: ChangeKind| Change {
            chapter: Some(chapter),
            node: Some(node),
            kind,
        };
        match edit {
            Edit::Attach {
                chapter,
                parent,
                node,
                index,
            } => {
                if let Some(p) = self.tree_mut(*chapter).and_then(|t| t.node_mut(*parent)) {
                    let at = (*index).min(p.children.len());
                    p.children.insert(at, *node);
                }
                content(*chapter, *node, ChangeKind::MoveAdded)
            }
            Edit::Detach {
                chapter,
                parent,
                node,
                index,
            } => {
                if let Some(p) = self.tree_mut(*chapter).and_then(|t| t.node_mut(*parent))
                    && *index < p.children.len()
                {
                    p.children.remove(*index);
                }
                content(*chapter, *node, ChangeKind::MoveDeleted)
            }
            Edit::Reorder {
                chapter,
                parent,
                from,
                to,
            } => {
                let mut moved = *parent;
                if let Some(p) = self.tree_mut(*chapter).and_then(|t| t.node_mut(*parent))
                    && *from < p.children.len()
                    && *to < p.children.len()
                {
                    let child = p.children.remove(*from);
                    p.children.insert(*to, child);
                    moved = child;
                }
                content(*chapter, moved, ChangeKind::Reordered)
            }
            Edit::Comment {
                chapter,
                node,
                starting,
                new,
                ..
            } => {
                if let Some(n) = self.tree_mut(*chapter).and_then(|t| t.node_mut(*node)) {
                    if *starting {
                        n.starting_comment.clone_from(new);
                    } else {
                        n.comment.clone_from(new);
                    }
                }
                content(*chapter, *node, ChangeKind::Comment)
            }
            Edit::Nags {
                chapter, node, new, ..
            } => {
                if let Some(n) = self.tree_mut(*chapter).and_then(|t| t.node_mut(*node)) {
                    n.nags.clone_from(new);
                }
                content(*chapter, *node, ChangeKind::Nags)
            }
            Edit::Tags { chapter, new, .. } => {
                if let Some(t) = self.tree_mut(*chapter) {
                    t.tags = new.clone();
                }
                Change {
                    chapter: Some(*chapter),
                    node: None,
                    kind: ChangeKind::Tags,
                }
            }
            Edit::Insert { index, chapter } => {
                if let Some(c) = chapter.take() {
                    let at = (*index).min(self.chapters.len());
                    self.chapters.insert(at, *c);
                }
                Change {
                    chapter: Some(*index),
                    node: None,
                    kind: ChangeKind::ChapterAdded,
                }
            }
            Edit::Remove { index, chapter } => {
                if *index < self.chapters.len() {
                    *chapter = Some(Box::new(self.chapters.remove(*index)));
                }
                Change {
                    chapter: Some(*index),
                    node: None,
                    kind: ChangeKind::ChapterRemoved,
                }
            }
            Edit::Group(edits) => {
                let mut last = Change {
                    chapter: None,
                    node: None,
                    kind: ChangeKind::Ranked,
                };
                for e in edits.iter_mut() {
                    last = self.apply_edit(e);
                }
                Change {
                    kind: ChangeKind::Ranked,
                    ..last
                }
            }
            Edit::MoveChapter { from, to } => {
                if *from < self.chapters.len() && *to < self.chapters.len() {
                    let c = self.chapters.remove(*from);
                    self.chapters.insert(*to, c);
                }
                Change {
                    chapter: Some(*to),
                    node: None,
                    kind: ChangeKind::ChapterMoved,
                }
            }
        }
    }
}
