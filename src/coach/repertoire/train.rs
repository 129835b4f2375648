//! "Train this" in the Repertoire tab: the drill of the repertoire being edited, from
//! the subtree under the cursor, on the chapters chosen (those left out are remembered
//! per file). The drill takes each edit as soon as the repertoire's book is made again
//! (the line being played goes on in it), and a drill of a subtree is taken up again
//! at the next start.

use std::sync::Arc;

use shakmaty::{Chess, Color, Move, Position};

use super::RepertoireTab;
use super::gaps::{Pending, RepertoireBook};
use crate::coach::context::{Context, Event};
use crate::coach::notice::Notice;
use crate::coach::settings::Orientation;
use crate::trainer::Session;

impl RepertoireTab {
    /// While the drill trains the repertoire editor's subtree: its book becomes the edited
    /// file's latest (the edits made since), and the line goes on in it.
    pub(crate) fn take_edits(&mut self, ctx: &mut Context) {
        let Some(book) = self.current_book(ctx) else {
            return;
        };
        if Arc::ptr_eq(&book.drill, &ctx.graph) {
            return;
        }
        ctx.graph = Arc::clone(&book.drill);
        ctx.session.update_graph(Arc::clone(&book.drill));
        ctx.book_generation += 1;
        ctx.invalidate_chart();
    }

    /// Drills the subtree under the cursor: the drill's book becomes the edited
    /// repertoire (with ECO as its theory), and each new line starts at the cursor
    /// until another book is chosen. When the book of the latest edits is still being
    /// made, the drill starts once it is (the window does not wait).
    pub(crate) fn train_this(&mut self, ctx: &mut Context) {
        if self.editor.side().is_none() {
            self.editor
                .set_message("Open a repertoire for White or Black first.".to_owned());
            return;
        }
        if !self.editor.starts_at_standard() {
            self.editor
                .set_message("Only chapters from the standard position can be drilled.".to_owned());
            return;
        }
        let moves = self.editor.moves();
        match self.current_book(ctx) {
            Some(book) => self.start_training(&book, moves, ctx),
            None => {
                // The book of the latest edits is being made: the drill starts when it is.
                self.gaps.pending = Some(Pending::TrainThis(moves));
                self.start_exposure(ctx);
            }
        }
    }

    /// "Train this" once the book is there: the drill on `book` after `moves`.
    pub(super) fn start_training(
        &mut self,
        book: &RepertoireBook,
        moves: Vec<Move>,
        ctx: &mut Context,
    ) {
        let Some(side) = self.editor.side() else {
            return;
        };
        let learner = Color::from(side);
        let seed = ctx.settings.fixed_seed().unwrap_or_else(rand::random);
        let style = ctx.session.style().clone();
        let graph = Arc::clone(&book.drill);
        let Ok(mut session) = Session::from_moves(Arc::clone(&graph), learner, style, seed, &moves)
        else {
            self.editor.set_message(
                "This position is not in the chapters drilled: add the moves to one first."
                    .to_owned(),
            );
            return;
        };
        session.continue_counts(&ctx.session);
        let theory = Arc::clone(ctx.workspace.eco());
        session.set_theory(Some(theory));
        ctx.settings.learner = side;
        ctx.orientation = Orientation::from_color(learner);
        ctx.session = session;
        ctx.graph = graph;
        ctx.book_generation += 1;
        ctx.send(Event::EndGapDrill);
        ctx.send(Event::NewSession);
        self.gaps.train_root = Some(moves.clone());
        ctx.settings.repertoire_train.drilling = self.editor.file().map(|f| {
            let uci = moves
                .iter()
                .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string());
            (f.path().to_owned(), uci.collect())
        });
        ctx.notify(Notice::ShowDrill);
        ctx.send(Event::Message(if moves.is_empty() {
            "Drilling the repertoire you are editing.".to_owned()
        } else {
            format!(
                "Drilling your repertoire after {}.",
                crate::trainer::coverage::describe(&moves, &[]).sans
            )
        }));
    }

    /// A new line while "Train this" drills a subtree: the edits made since are taken,
    /// and the line starts at the subtree's node; whether it did (else the drill's own
    /// new line is due).
    pub(crate) fn restart_training(&mut self, ctx: &mut Context) -> bool {
        let Some(root) = self.gaps.train_root.clone() else {
            return false;
        };
        self.take_edits(ctx);
        ctx.session.start_after(&root).is_ok()
    }

    /// The drill no longer trains the repertoire being edited (another book, another file).
    pub(crate) fn stop_training(&mut self, ctx: &mut Context) {
        self.gaps.train_root = None;
        ctx.settings.repertoire_train.drilling = None;
    }

    /// At the start: when the drill trained a subtree of `path` at the last run, it
    /// does again once the repertoire's book is made.
    pub(crate) fn resume_training(&mut self, path: &std::path::Path, ctx: &mut Context) {
        let Some((file, uci)) = ctx.settings.repertoire_train.drilling.clone() else {
            return;
        };
        if file != path || self.editor.side().is_none() {
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
                self.stop_training(ctx);
                return;
            };
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        self.gaps.pending = Some(Pending::TrainThis(moves));
        self.start_exposure(ctx);
    }

    /// Leaves chapter `index` of the repertoire editor's file out of "Train this", or takes it
    /// in again (remembered per file); a drill of the repertoire follows at once.
    pub(crate) fn toggle_train_chapter(&mut self, index: usize, ctx: &mut Context) {
        let Some(path) = self.editor.file().map(|f| f.path().to_owned()) else {
            return;
        };
        let Some(title) = self
            .editor
            .document()
            .and_then(|d| d.chapter(index))
            .map(|c| c.title(index + 1))
        else {
            return;
        };
        ctx.settings.repertoire_train.toggle(&path, &title);
        if self.gaps.train_root.is_some() {
            self.start_exposure(ctx);
        }
    }
}
