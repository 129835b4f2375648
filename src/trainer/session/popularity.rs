//! Where the drill's candidates come from: the graph, and Polyglot games books as the
//! popularity says, or an opening explorer's games (the book's lines where it has
//! none).

use std::sync::Arc;

use shakmaty::{Chess, Move, Position};

use super::Session;
use crate::book::explorer::ExplorerCounts;
use crate::book::polyglot::SharedBook;
use crate::sampler::{MoveSource, Popularity};

impl Session {
    /// Where the candidates at the current position come from: see [`Session::source_at`].
    pub fn source(&self) -> MoveSource<'_> {
        self.source_at(self.position())
    }

    /// Where the candidates at `pos` come from: the graph, and the books as the
    /// popularity says; with an explorer set, its games ([`Popularity::Explorer`]) where
    /// the computer is to move. The learner's moves are always the book's: the games of
    /// the player prepared against say what the opponent plays, never what the learner's
    /// repertoire plays.
    pub fn source_at(&self, pos: &Chess) -> MoveSource<'_> {
        let source = MoveSource::new(
            &self.graph,
            self.books.iter().map(SharedBook::book).collect(),
            self.popularity,
        );
        match &self.explorer {
            Some(explorer) if pos.turn() != self.learner => source.with_explorer(explorer.as_ref()),
            _ => source,
        }
    }

    /// The popularity in effect (that of the lines when no book is set).
    pub fn popularity(&self) -> Popularity {
        self.source().popularity()
    }

    /// Whether `mv` from the current position stays in the book: a candidate, or a
    /// move into a position the graph or a book in use knows.
    pub(super) fn knows_move(&self, mv: Move) -> bool {
        if self.dist.candidate_for(mv).is_some() {
            return true;
        }
        let mut next = self.position().clone();
        next.play_unchecked(mv);
        self.source().knows(&next)
    }

    /// Sets the Polyglot books and where popularity comes from; the next reply uses
    /// them (`s_prev` along the game is recomputed as for a change of style).
    pub fn set_books(&mut self, books: Vec<SharedBook>, popularity: Popularity) {
        self.books = books;
        self.popularity = popularity;
        self.set_style(self.style.clone());
    }

    /// Sets the opening explorer whose games the computer plays by (a player's tree,
    /// to prepare against them), or none; where it has no game at a position the book's
    /// lines decide. The next reply uses it.
    pub fn set_explorer(&mut self, explorer: Option<Arc<dyn ExplorerCounts>>) {
        self.explorer = explorer;
        self.set_style(self.style.clone());
    }

    /// Whether an opening explorer's games are the popularity.
    pub fn has_explorer(&self) -> bool {
        self.explorer.is_some()
    }
}
