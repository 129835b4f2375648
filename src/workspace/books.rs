//! The Polyglot books among the sources: opened (memory-mapped) when chosen, their
//! errors kept for the Book tab, and the books a drill draws popularity from.

use std::path::{Path, PathBuf};

use crate::book::polyglot::SharedBook;

use super::choice::BookChoice;
use super::polyglot::PolyglotFile;

/// The opened books, one per remembered `.bin` file.
#[derive(Debug, Default)]
pub struct OpenBooks {
    opened: Vec<(PathBuf, Result<SharedBook, String>)>,
    gnuchess: Option<SharedBook>,
    generation: u64,
}

impl OpenBooks {
    /// Opens the books of `choice` not open yet and closes those it no longer has.
    /// Counts a new generation when the books or the popularity may have changed.
    pub fn sync(&mut self, choice: &BookChoice) {
        self.opened
            .retain(|(path, _)| choice.books.iter().any(|b| b.path == *path));
        for b in &choice.books {
            if !self.opened.iter().any(|(p, _)| *p == b.path) {
                let book = PolyglotFile::open(&b.path)
                    .and_then(PolyglotFile::into_shared)
                    .map_err(|e| e.to_string());
                self.opened.push((b.path.clone(), book));
            }
        }
        self.generation += 1;
    }

    /// Changes whenever [`OpenBooks::sync`] ran: a drill compares it to know when to
    /// take the books again.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The number of entries of the book at `path`, or why it could not be opened;
    /// `None` for a path that is not among the books.
    pub fn status(&self, path: &Path) -> Option<Result<usize, &str>> {
        self.opened
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, b)| b.as_ref().map(|b| b.book().len()).map_err(String::as_str))
    }

    /// The books a drill uses under `choice`: the enabled books that opened, or the
    /// embedded gnuchess book when the popularity needs a book and none is enabled;
    /// none for the lines' popularity.
    pub fn books(&mut self, choice: &BookChoice) -> Vec<SharedBook> {
        if !choice.popularity.uses_book() {
            return Vec::new();
        }
        let enabled: Vec<SharedBook> = choice
            .books
            .iter()
            .filter(|b| b.enabled)
            .filter_map(|b| {
                self.opened
                    .iter()
                    .find(|(p, _)| *p == b.path)
                    .and_then(|(_, book)| book.as_ref().ok().cloned())
            })
            .collect();
        if !enabled.is_empty() {
            return enabled;
        }
        if self.gnuchess.is_none() {
            self.gnuchess = SharedBook::gnuchess().ok();
        }
        self.gnuchess.iter().cloned().collect()
    }
}

/// The name of the books a drill uses under `choice`, for the style panel.
pub fn books_label(choice: &BookChoice) -> String {
    let names: Vec<String> = choice
        .books
        .iter()
        .filter(|b| b.enabled)
        .map(|b| super::file_name(&b.path))
        .collect();
    if names.is_empty() {
        "gnuchess (built in)".to_owned()
    } else {
        names.join(", ")
    }
}

/// Whether `path` names a Polyglot book (`.bin`), not a PGN file.
pub fn is_polyglot(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("bin"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sampler::Popularity;
    use crate::workspace::choice::PolyglotChoice;

    #[test]
    fn the_lines_popularity_uses_no_book_and_games_fall_back_to_gnuchess() {
        let mut books = OpenBooks::default();
        let mut choice = BookChoice::default();
        books.sync(&choice);
        assert!(books.books(&choice).is_empty());
        choice.popularity = Popularity::Games;
        let used = books.books(&choice);
        assert_eq!(used.len(), 1);
        assert_eq!(used[0].name(), "gnuchess");
    }

    #[test]
    fn a_missing_book_is_reported_and_the_rest_still_loads() {
        let mut books = OpenBooks::default();
        let choice = BookChoice {
            books: vec![
                PolyglotChoice {
                    path: PathBuf::from("/nonexistent/missing.bin"),
                    enabled: true,
                },
                PolyglotChoice {
                    path: PathBuf::from(concat!(
                        env!("CARGO_MANIFEST_DIR"),
                        "/assets/books/gnuchess.bin"
                    )),
                    enabled: true,
                },
            ],
            popularity: Popularity::Blend(0.5),
            ..BookChoice::default()
        };
        books.sync(&choice);
        let err = books.status(&choice.books[0].path).unwrap().unwrap_err();
        assert!(err.contains("missing.bin"), "{err}");
        assert_eq!(books.status(&choice.books[1].path), Some(Ok(180_358)));
        let used = books.books(&choice);
        assert_eq!(used.len(), 1);
        assert_eq!(used[0].name(), "gnuchess.bin");
        assert!(is_polyglot(Path::new("a/B.BIN")) && !is_polyglot(Path::new("a.pgn")));
    }
}
