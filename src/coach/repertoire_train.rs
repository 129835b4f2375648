//! "Train this" in the Repertoire tab: the drill of the repertoire being edited, from
//! the subtree under the cursor, on the chapters chosen (those left out are remembered
//! per file). The drill takes each edit as soon as the repertoire's book is made again
//! (the line being played goes on in it), and a drill of a subtree is taken up again
//! at the next start.

use std::sync::Arc;

use shakmaty::{Chess, Color, Move, Position};

use super::Coach;
use super::repertoire_gaps::{Pending, RepertoireBook};
use crate::trainer::Session;

impl Coach {
    /// While the drill trains the repertoire editor's subtree: its book becomes the edited
    /// file's latest (the edits made since), and the line goes on in it.
    pub(crate) fn take_repertoire_edits(&mut self) {
        let Some(book) = self.current_repertoire_book() else {
            return;
        };
        if Arc::ptr_eq(&book.drill, &self.ctx.graph) {
            return;
        }
        self.ctx.graph = Arc::clone(&book.drill);
        self.ctx.session.update_graph(Arc::clone(&book.drill));
        self.ctx.book_generation += 1;
        self.ctx.invalidate_chart();
    }

    /// Drills the subtree under the cursor: the drill's book becomes the edited
    /// repertoire (with ECO as its theory), and each new line starts at the cursor
    /// until another book is chosen. When the book of the latest edits is still being
    /// made, the drill starts once it is (the window does not wait).
    pub(crate) fn train_this(&mut self) {
        if self.repertoire.editor.side().is_none() {
            self.repertoire
                .editor
                .set_message("Open a repertoire for White or Black first.".to_owned());
            return;
        }
        if !self.repertoire.editor.starts_at_standard() {
            self.repertoire
                .editor
                .set_message("Only chapters from the standard position can be drilled.".to_owned());
            return;
        }
        let moves = self.repertoire.editor.moves();
        match self.current_repertoire_book() {
            Some(book) => self.start_training(&book, moves),
            None => {
                // The book of the latest edits is being made: the drill starts when it is.
                self.repertoire.gaps.pending = Some(Pending::TrainThis(moves));
                self.start_repertoire_exposure();
            }
        }
    }

    /// "Train this" once the book is there: the drill on `book` after `moves`.
    pub(super) fn start_training(&mut self, book: &RepertoireBook, moves: Vec<Move>) {
        let Some(side) = self.repertoire.editor.side() else {
            return;
        };
        let learner = Color::from(side);
        let seed = self.ctx.settings.fixed_seed().unwrap_or_else(rand::random);
        let style = self.ctx.session.style().clone();
        let graph = Arc::clone(&book.drill);
        let Ok(mut session) = Session::from_moves(Arc::clone(&graph), learner, style, seed, &moves)
        else {
            self.repertoire.editor.set_message(
                "This position is not in the chapters drilled: add the moves to one first."
                    .to_owned(),
            );
            return;
        };
        session.continue_counts(&self.ctx.session);
        let theory = Arc::clone(self.ctx.workspace.eco());
        session.set_theory(Some(theory));
        self.ctx.settings.learner = side;
        self.ctx.orientation = super::settings::Orientation::from_color(learner);
        self.ctx.session = session;
        self.ctx.graph = graph;
        self.ctx.book_generation += 1;
        self.coverage.end_gap_drill();
        self.after_new_session();
        self.repertoire.gaps.train_root = Some(moves.clone());
        self.ctx.settings.workshop_train.drilling = self.repertoire.editor.file().map(|f| {
            let uci = moves
                .iter()
                .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string());
            (f.path().to_owned(), uci.collect())
        });
        self.ctx.notify(super::Notice::ShowDrill);
        self.ctx.message = Some(if moves.is_empty() {
            "Drilling the repertoire you are editing.".to_owned()
        } else {
            format!(
                "Drilling your repertoire after {}.",
                crate::trainer::coverage::describe(&moves, &[]).sans
            )
        });
    }
}

impl Coach {
    /// The drill no longer trains the repertoire being edited (another book, another file).
    pub(crate) fn stop_repertoire_training(&mut self) {
        self.repertoire.gaps.train_root = None;
        self.ctx.settings.workshop_train.drilling = None;
    }

    /// At the start: when the drill trained a subtree of `path` at the last run, it
    /// does again once the repertoire's book is made.
    pub(crate) fn resume_repertoire_training(&mut self, path: &std::path::Path) {
        let Some((file, uci)) = self.ctx.settings.workshop_train.drilling.clone() else {
            return;
        };
        if file != path || self.repertoire.editor.side().is_none() {
            return;
        }
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for text in &uci {
            let Some(mv) = text
                .parse::<shakmaty::uci::UciMove>()
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
            else {
                self.stop_repertoire_training();
                return;
            };
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        self.repertoire.gaps.pending = Some(Pending::TrainThis(moves));
        self.start_repertoire_exposure();
    }

    /// Leaves chapter `index` of the repertoire editor's file out of "Train this", or takes it
    /// in again (remembered per file); a drill of the repertoire follows at once.
    pub(crate) fn toggle_train_chapter(&mut self, index: usize) {
        let Some(path) = self.repertoire.editor.file().map(|f| f.path().to_owned()) else {
            return;
        };
        let Some(title) = self
            .repertoire
            .editor
            .document()
            .and_then(|d| d.chapter(index))
            .map(|c| c.title(index + 1))
        else {
            return;
        };
        self.ctx.settings.workshop_train.toggle(&path, &title);
        if self.repertoire.gaps.train_root.is_some() {
            self.start_repertoire_exposure();
        }
    }
}
