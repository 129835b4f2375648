//! A Polyglot book that threads and sessions share: the embedded gnuchess book, a
//! memory-mapped file or a buffer, behind one cheap-to-clone handle.

use std::fmt;
use std::sync::Arc;

use super::error::PolyglotError;
use super::filter::KeyFilter;
use super::reader::PolyglotBook;

/// The bytes behind a [`SharedBook`]: anything that lends `&[u8]` (a `&'static [u8]`,
/// a `Vec<u8>`, a memory map).
pub type BookBytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// A named Polyglot book whose bytes are shared; cloning it copies a pointer.
///
/// ```
/// use hastings::book::polyglot::SharedBook;
/// use shakmaty::Chess;
///
/// let book = SharedBook::gnuchess()?;
/// assert_eq!(book.name(), "gnuchess");
/// assert_eq!(book.book().len(), 180_358);
/// assert!(book.book().contains(&Chess::default()));
/// # Ok::<(), hastings::book::polyglot::PolyglotError>(())
/// ```
#[derive(Clone)]
pub struct SharedBook {
    name: String,
    bytes: BookBytes,
    /// The keys' filter, made once when the book is opened.
    filter: Arc<KeyFilter>,
}

impl SharedBook {
    /// The book in `bytes`, called `name` in the window and in reports.
    ///
    /// # Errors
    ///
    /// [`PolyglotError::Truncated`] when the length is not a multiple of 16.
    ///
    /// Reads every key once to make the book's [`KeyFilter`] (about 0.1 s for
    /// 10,000,000 entries), so that lookups of absent positions are cheap.
    pub fn new(name: impl Into<String>, bytes: BookBytes) -> Result<SharedBook, PolyglotError> {
        let filter = Arc::new(KeyFilter::new(&PolyglotBook::new((*bytes).as_ref())?));
        Ok(SharedBook {
            name: name.into(),
            bytes,
            filter,
        })
    }

    /// The embedded gnuchess book (see [`super::gnuchess`]), its order checked.
    ///
    /// # Errors
    ///
    /// [`PolyglotError`] if the embedded bytes are not a sorted book (a test rules
    /// that out).
    pub fn gnuchess() -> Result<SharedBook, PolyglotError> {
        super::gnuchess()?;
        SharedBook::new("gnuchess", Arc::new(super::GNUCHESS))
    }

    /// The book's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The book over the shared bytes.
    pub fn book(&self) -> PolyglotBook<'_> {
        // The length was checked in `new`, and the bytes cannot change length.
        PolyglotBook::whole_entries((*self.bytes).as_ref()).with_filter(&self.filter)
    }
}

impl fmt::Debug for SharedBook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedBook")
            .field("name", &self.name)
            .field("entries", &self.book().len())
            .finish()
    }
}
