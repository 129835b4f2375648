//! The tags of a game (`[Event "…"]`, `[Site "…"]`, …): all of them, in file order.
//!
//! The PGN importer gives every line of a game one shared copy
//! ([`OpeningLine::tags`](super::OpeningLine::tags)), and the exporter writes them back,
//! so that a study keeps its chapter names, sites, annotators and players.
//!
//! The tags are stored in one string with the end of each name and value, not as a
//! vector of string pairs: a game database with millions of games keeps one small
//! allocation per game.
//!
//! ```
//! use hastings::book::GameTags;
//!
//! let tags: GameTags = [("Event", "Chapter 1"), ("White", " ? "), ("Event", "Chapter 2")]
//!     .into_iter()
//!     .collect();
//! assert_eq!(tags.len(), 3);
//! assert_eq!(tags.get("Event"), Some("Chapter 2")); // the last one counts
//! assert_eq!(tags.get("White"), Some(" ? "));
//! assert_eq!(tags.known("White"), None); // blank or `?` is unknown
//! assert_eq!(tags.iter().next(), Some(("Event", "Chapter 1")));
//! ```

use std::fmt;

/// The tags of one game, in file order, repeats included.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct GameTags {
    /// Every name and value, one after the other.
    text: String,
    /// Per tag: where its name ends and where its value ends in `text`.
    ends: Vec<(u32, u32)>,
}

impl GameTags {
    /// No tags.
    pub fn new() -> GameTags {
        GameTags::default()
    }

    /// Adds a tag at the end. Ignored once the tags of one game pass 4 GiB.
    pub fn push(&mut self, name: &str, value: &str) {
        let name_end = self.text.len() + name.len();
        let Ok(value_end) = u32::try_from(name_end + value.len()) else {
            return;
        };
        let Ok(name_end) = u32::try_from(name_end) else {
            return;
        };
        self.text.push_str(name);
        self.text.push_str(value);
        self.ends.push((name_end, value_end));
    }

    /// The tags as `(name, value)`, in file order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        let mut start = 0usize;
        self.ends.iter().map(move |&(name_end, value_end)| {
            let (name_end, value_end) = (name_end as usize, value_end as usize);
            let name = self.text.get(start..name_end).unwrap_or_default();
            let value = self.text.get(name_end..value_end).unwrap_or_default();
            start = value_end;
            (name, value)
        })
    }

    /// The value of the last tag called `name`, as written.
    pub fn get(&self, name: &str) -> Option<&str> {
        let mut start = 0;
        let mut found = None;
        for &(name_end, value_end) in &self.ends {
            let (name_end, value_end) = (name_end as usize, value_end as usize);
            if self.text.get(start..name_end) == Some(name) {
                found = Some((name_end, value_end));
            }
            start = value_end;
        }
        found.and_then(|(from, to)| self.text.get(from..to))
    }

    /// The value of the tag `name`, trimmed, when it says something: `None` when the
    /// tag is missing, blank or `?` (the PGN standard's "unknown").
    pub fn known(&self, name: &str) -> Option<&str> {
        known(self.get(name)?)
    }

    /// How many tags there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no tag.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Removes every tag, keeping the memory for the next game's.
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// Frees the spare capacity (before the tags are shared by the lines of a game).
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }

    /// The heap bytes these tags hold.
    pub fn heap_bytes(&self) -> usize {
        self.text.capacity() + self.ends.capacity() * std::mem::size_of::<(u32, u32)>()
    }
}

/// A tag value trimmed, or `None` when it is blank or `?`.
pub(crate) fn known(value: &str) -> Option<&str> {
    Some(value.trim()).filter(|v| !v.is_empty() && *v != "?")
}

impl<'a> FromIterator<(&'a str, &'a str)> for GameTags {
    fn from_iter<I: IntoIterator<Item = (&'a str, &'a str)>>(iter: I) -> GameTags {
        let mut tags = GameTags::new();
        for (name, value) in iter {
            tags.push(name, value);
        }
        tags
    }
}

impl fmt::Debug for GameTags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_keep_their_order_repeats_and_empty_values() {
        let mut tags = GameTags::new();
        tags.push("Event", "");
        tags.push("Site", "https://lichess.org/study/abc");
        tags.push("Event", "Chapter 2");
        let all: Vec<_> = tags.iter().collect();
        assert_eq!(
            all,
            [
                ("Event", ""),
                ("Site", "https://lichess.org/study/abc"),
                ("Event", "Chapter 2")
            ]
        );
        assert_eq!(tags.get("Event"), Some("Chapter 2"));
        assert_eq!(tags.get("Round"), None);
        assert_eq!(format!("{tags:?}").matches("Event").count(), 2);
    }

    #[test]
    fn blank_and_question_mark_values_are_unknown() {
        let tags: GameTags = [("A", " x "), ("B", "?"), ("C", "  ")]
            .into_iter()
            .collect();
        assert_eq!(tags.known("A"), Some("x"));
        assert_eq!(tags.known("B"), None);
        assert_eq!(tags.known("C"), None);
        assert_eq!(tags.known("D"), None);
    }
}
