//! Where the drill's candidates come from: the graph, and Polyglot games books as the
//! popularity says.

use shakmaty::{Move, Position};

use super::Session;
use crate::book::polyglot::SharedBook;
use crate::sampler::{MoveSource, Popularity};

impl Session {
    /// Where the candidates come from: the graph, and the books as the popularity says.
    pub fn source(&self) -> MoveSource<'_> {
        MoveSource::new(
            &self.graph,
            self.books.iter().map(SharedBook::book).collect(),
            self.popularity,
        )
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
}
