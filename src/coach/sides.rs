//! A repertoire has a side: the drill plays the side the loaded chapters are for.
//!
//! - When the book's chapters change and all those with a side are for one side, the
//!   learner plays it ("Your repertoire is for Black").
//! - A mixed study (chapters for both sides) drills each chapter from its own side: the
//!   workspace leaves the other side's chapters out, and "Next line" changes sides.
//! - A repertoire file whose chapters have no side tag is asked about once
//!   ([`Coach::side_question`]); the side said in Start here answers it ahead.

use std::path::{Path, PathBuf};

use shakmaty::Color;

use super::Coach;
use super::command::Command;
use crate::book::Side;
use crate::workspace::chapters::{SideQuestion, Sides};

/// What the coach remembers about sides between frames.
#[derive(Debug, Default)]
pub struct SidesState {
    /// The question shown: which side is this file for?
    question: Option<SideQuestion>,
    /// The side said in Start here for the repertoire about to be opened.
    said: Option<Side>,
    /// The chapter sides the learner's colour was last aligned with.
    seen: Sides,
    /// Why the learner's side changed, told when the book is rebuilt.
    note: Option<String>,
}

impl Coach {
    /// The question to show: which side is a just-loaded repertoire for?
    pub fn side_question(&self) -> Option<&SideQuestion> {
        self.style.sides.question.as_ref()
    }

    /// How many chosen chapters are for each side (see [`Sides`]).
    pub fn chapter_sides(&self) -> Sides {
        self.ctx.workspace.sides()
    }

    /// The next repertoire opened is for `side` (said in Start here): it is not asked.
    pub(crate) fn repertoire_for(&mut self, side: Side) {
        self.style.sides.said = Some(side);
    }

    /// A file was imported: ask which side it is for, unless its tags or Start here said.
    pub(crate) fn after_import(&mut self, path: &Path) {
        let Some(question) = self.ctx.workspace.side_question(path) else {
            return;
        };
        match self.style.sides.said.take() {
            Some(side) => self.answer_side(path.to_owned(), Some(side)),
            None => self.style.sides.question = Some(question),
        }
    }

    /// The learner said which side the file at `path` is for (`None`: both, or no
    /// answer); the question is not asked again.
    pub(crate) fn answer_side(&mut self, path: PathBuf, side: Option<Side>) {
        if self
            .style
            .sides
            .question
            .as_ref()
            .is_some_and(|q| q.path == path)
        {
            self.style.sides.question = None;
        }
        let mut choice = self.ctx.workspace.choice().clone();
        if let Some(file) = choice.files.iter_mut().find(|f| f.path == path) {
            file.side = side;
            file.side_asked = true;
        }
        self.ctx.workspace.set_choice(choice);
        self.ctx.settings.book = self.ctx.workspace.choice().clone();
        // Said of the whole file: the drill follows it once the book is rebuilt.
        self.style.sides.seen = Sides::default();
    }

    /// Keeps the workspace's drilled side the learner's (the other side's chapters
    /// leave the book).
    pub(crate) fn sync_drilled_side(&mut self) {
        let side = Some(self.ctx.settings.learner);
        if self.ctx.workspace.choice().side != side {
            let mut choice = self.ctx.workspace.choice().clone();
            choice.side = side;
            self.ctx.workspace.set_choice(choice);
            self.ctx.settings.book = self.ctx.workspace.choice().clone();
        }
    }

    /// The book was rebuilt: when its chapters changed and are all for one side, the
    /// learner plays that side.
    pub(crate) fn align_learner(&mut self) {
        let sides = self.ctx.workspace.sides();
        if sides != self.style.sides.seen {
            self.style.sides.seen = sides;
            if let Some(side) = sides.only()
                && side != self.ctx.settings.learner
            {
                self.apply(Command::SetLearner(Color::from(side)));
                self.style.sides.note = Some(format!(
                    "Your repertoire is for {}: you play {}.",
                    side.name(),
                    side.name()
                ));
            }
        }
        // Told once the book for the new side is built (its own message comes first).
        if !self.ctx.workspace.is_building()
            && let Some(note) = self.style.sides.note.take()
        {
            self.ctx.message = Some(match self.ctx.message.take() {
                Some(m) => format!("{m} {note}"),
                None => note,
            });
        }
    }

    /// "Next line" in a mixed study: the other side's chapters come next.
    pub(crate) fn alternates_sides(&self) -> bool {
        self.ctx.workspace.sides().mixed()
    }
}
