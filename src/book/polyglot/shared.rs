//! A Polyglot book that threads and sessions share: the embedded gnuchess book, a
//! memory-mapped file or a buffer, behind one cheap-to-clone handle.

use std::fmt;
use std::sync::{Arc, OnceLock};

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
    /// The keys' filter, once made (see [`SharedBook::new`]).
    filter: Arc<OnceLock<KeyFilter>>,
}

/// A book of more entries than this has its filter made on a thread of its own.
const FILTER_INLINE_ENTRIES: usize = 1 << 20;

impl SharedBook {
    /// The book in `bytes`, called `name` in the window and in reports.
    ///
    /// # Errors
    ///
    /// [`PolyglotError::Truncated`] when the length is not a multiple of 16.
    ///
    /// The book's [`KeyFilter`], which makes lookups of absent positions cheap, reads
    /// every key once: about 50 ms for 10,000,000 entries, more from a cold disk. A
    /// book of more than a million entries makes it on a thread of its own, so that
    /// opening one does not hold up the window; lookups meanwhile search the keys
    /// without it, with the same results.
    pub fn new(name: impl Into<String>, bytes: BookBytes) -> Result<SharedBook, PolyglotError> {
        let entries = PolyglotBook::new((*bytes).as_ref())?.len();
        let filter = Arc::new(OnceLock::new());
        let make = {
            let (bytes, filter) = (Arc::clone(&bytes), Arc::clone(&filter));
            move || {
                let book = PolyglotBook::whole_entries((*bytes).as_ref());
                let _ = filter.set(KeyFilter::new(&book));
            }
        };
        if entries <= FILTER_INLINE_ENTRIES {
            make();
        } else {
            // Without a thread the book works without its filter, only slower on misses.
            let _ = std::thread::Builder::new()
                .name("hastings-book-filter".into())
                .spawn(make);
        }
        Ok(SharedBook {
            name: name.into(),
            bytes,
            filter,
        })
    }

    /// Whether the book's key filter is made (lookups are the same either way).
    pub fn has_filter(&self) -> bool {
        self.filter.get().is_some()
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
        let book = PolyglotBook::whole_entries((*self.bytes).as_ref());
        match self.filter.get() {
            Some(filter) => book.with_filter(filter),
            None => book,
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A book of 1.2 million entries (spread keys, one move each) opens before its
    /// filter is made, and finds the same entries before and after.
    #[test]
    fn a_big_book_finds_the_same_entries_while_its_filter_is_made() {
        let n = FILTER_INLINE_ENTRIES + 200_000;
        let key = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut keys: Vec<u64> = (0..n as u64).map(key).collect();
        keys.sort_unstable();
        let mut bytes = Vec::with_capacity(n * 16);
        for k in &keys {
            bytes.extend_from_slice(&k.to_be_bytes());
            bytes.extend_from_slice(&[0x03, 0x1c, 0, 1, 0, 0, 0, 0]);
        }
        let probes: Vec<u64> = keys.iter().step_by(997).flat_map(|&k| [k, k ^ 2]).collect();
        let book = SharedBook::new("big", Arc::new(bytes)).unwrap();
        let found = |book: &SharedBook| -> Vec<usize> {
            probes
                .iter()
                .map(|&k| book.book().key_range(k).len())
                .collect()
        };
        let before = found(&book);
        for _ in 0..500 {
            if book.has_filter() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(book.has_filter(), "the filter is made in the background");
        assert_eq!(found(&book), before);
        // Present keys have their entry, the others none.
        assert_eq!(before.iter().sum::<usize>(), probes.len() / 2);
        assert!(
            SharedBook::gnuchess().unwrap().has_filter(),
            "small books: at once"
        );
    }
}
