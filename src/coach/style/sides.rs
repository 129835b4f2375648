//! A repertoire has a side: the drill plays the side the loaded chapters are for.
//!
//! - When the book's chapters change and all those with a side are for one side, the
//!   learner plays it ("Your repertoire is for Black").
//! - A mixed study (chapters for both sides) drills each chapter from its own side: the
//!   workspace leaves the other side's chapters out, and "Next line" changes sides.
//! - A repertoire file whose chapters have no side tag is asked about once
//!   ([`SidesState::question`]); the side said in Start here answers it ahead.

use std::path::{Path, PathBuf};

use shakmaty::Color;

use crate::book::Side;
use crate::coach::context::{Context, Event};
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

impl SidesState {
    /// The question to show: which side is a just-loaded repertoire for?
    pub fn question(&self) -> Option<&SideQuestion> {
        self.question.as_ref()
    }

    /// The next repertoire opened is for `side` (said in Start here): it is not asked.
    pub(crate) fn repertoire_for(&mut self, side: Side) {
        self.said = Some(side);
    }

    /// A file was imported: ask which side it is for, unless its tags or Start here said.
    pub(crate) fn after_import(&mut self, path: &Path, ctx: &mut Context) {
        let Some(question) = ctx.workspace.side_question(path) else {
            return;
        };
        match self.said.take() {
            Some(side) => self.answer_side(path.to_owned(), Some(side), ctx),
            None => self.question = Some(question),
        }
    }

    /// The learner said which side the file at `path` is for (`None`: both, or no
    /// answer); the question is not asked again.
    pub(crate) fn answer_side(&mut self, path: PathBuf, side: Option<Side>, ctx: &mut Context) {
        if self.question.as_ref().is_some_and(|q| q.path == path) {
            self.question = None;
        }
        let mut choice = ctx.workspace.choice().clone();
        if let Some(file) = choice.files.iter_mut().find(|f| f.path == path) {
            file.side = side;
            file.side_asked = true;
        }
        ctx.workspace.set_choice(choice);
        ctx.settings.book = ctx.workspace.choice().clone();
        // Said of the whole file: the drill follows it once the book is rebuilt.
        self.seen = Sides::default();
    }

    /// The learner set the side of chapter `game` (from 1) of the file at `path` (the
    /// Book tab, the Repertoire tab or My repertoires; `None`: as its tags say): kept
    /// with the file's settings, the book rebuilt for it.
    pub(crate) fn chapter_side(
        &mut self,
        path: &Path,
        game: u32,
        side: Option<Side>,
        ctx: &mut Context,
    ) {
        let mut choice = ctx.workspace.choice().clone();
        choice.set_chapter_side(path, game, side);
        ctx.workspace.set_choice(choice);
        ctx.settings.book = ctx.workspace.choice().clone();
        self.seen = Sides::default();
    }

    /// The book was rebuilt: when its chapters changed and are all for one side, the
    /// learner plays that side (the drill's side changes after this call).
    pub(crate) fn align_learner(&mut self, ctx: &mut Context) {
        let sides = ctx.workspace.sides();
        if sides != self.seen {
            self.seen = sides;
            if let Some(side) = sides.only()
                && side != ctx.settings.learner
            {
                ctx.send(Event::SetLearner(Color::from(side)));
                self.note = Some(format!(
                    "Your repertoire is for {}: you play {}.",
                    side.name(),
                    side.name()
                ));
                // Told once the book for the new side is built.
                return;
            }
        }
        // Told once the book for the new side is built (its own message comes first).
        if !ctx.workspace.is_building()
            && let Some(note) = self.note.take()
        {
            ctx.message = Some(match ctx.message.take() {
                Some(m) => format!("{m} {note}"),
                None => note,
            });
        }
    }
}

/// "Next line" in a mixed study: the other side's chapters come next.
pub(crate) fn alternates_sides(ctx: &Context) -> bool {
    ctx.workspace.sides().mixed()
}
