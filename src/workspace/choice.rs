//! Which sources the book is built from: the embedded ECO list and the learner's PGN
//! files, each with a checkbox, and the filters; Polyglot books and where popularity
//! comes from. Saved with the window's settings, so
//! every type here is serialisable and tolerant of older settings (`#[serde(default)]`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::book::{ImportMode, LineFilter, Side};
use crate::sampler::Popularity;

/// How a PGN file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum FileMode {
    /// Decide from the file (a variation or an open result means a repertoire).
    #[default]
    Auto,
    /// Every variation is a line of the learner's repertoire.
    Repertoire,
    /// A game collection: one line per game, cut at a ply limit.
    Games,
}

impl From<FileMode> for ImportMode {
    fn from(mode: FileMode) -> ImportMode {
        match mode {
            FileMode::Auto => ImportMode::Auto,
            FileMode::Repertoire => ImportMode::Repertoire,
            FileMode::Games => ImportMode::Games,
        }
    }
}

/// A PGN file the learner loaded, read again at the next start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BookFile {
    /// Where it is.
    pub path: PathBuf,
    /// How it is read (the mode chosen when it was opened).
    pub mode: FileMode,
    /// Whether its lines are part of the book.
    pub enabled: bool,
    /// Its size in bytes when it was loaded, to notice a changed file.
    pub size: u64,
    /// Its modification time (seconds since 1970) when it was loaded.
    pub modified: Option<u64>,
    /// The side the learner said this repertoire is for (its chapters with a side tag
    /// keep theirs).
    pub side: Option<Side>,
    /// Whether the learner was asked which side it is for (asked once).
    pub side_asked: bool,
    /// The side the learner set for single chapters (game number from 1), ahead of
    /// their tags and of [`BookFile::side`].
    pub chapter_sides: BTreeMap<u32, Side>,
    /// The chapters (game numbers) drilled; `None`: all of them.
    pub chapters: Option<Vec<u32>>,
    /// The lines drilled (indices in the file's lines, in file order), when the learner
    /// picked lines; `None`: every line of the chosen chapters.
    pub lines: Option<Vec<u32>>,
}

impl BookFile {
    /// Sets the side of chapter `game` (from 1); `None`: as its tags or the file say.
    pub fn set_chapter_side(&mut self, game: u32, side: Option<Side>) {
        match side {
            Some(side) => self.chapter_sides.insert(game, side),
            None => self.chapter_sides.remove(&game),
        };
    }

    /// Whether `other` gives the book the same lines: all but whether the learner was
    /// asked its side.
    pub fn same_lines(&self, other: &BookFile) -> bool {
        BookFile {
            side_asked: other.side_asked,
            ..self.clone()
        } == *other
    }
}

impl Default for BookFile {
    fn default() -> BookFile {
        BookFile {
            path: PathBuf::new(),
            mode: FileMode::Auto,
            enabled: true,
            size: 0,
            modified: None,
            side: None,
            side_asked: false,
            chapter_sides: BTreeMap::new(),
            chapters: None,
            lines: None,
        }
    }
}

/// A Polyglot book the learner added as a source of popularity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PolyglotChoice {
    /// Where it is.
    pub path: PathBuf,
    /// Whether the drill draws popularity from it.
    pub enabled: bool,
}

impl Default for PolyglotChoice {
    fn default() -> PolyglotChoice {
        PolyglotChoice {
            path: PathBuf::new(),
            enabled: true,
        }
    }
}

/// The sources and filters the book is built from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BookChoice {
    /// Whether the embedded ECO list is part of the book.
    pub eco: bool,
    /// The loaded PGN files, in the order they were loaded.
    pub files: Vec<BookFile>,
    /// The subsample filters (minimum moves per side, ECO volumes, name); its `sources`
    /// field is not used (the checkboxes above decide).
    pub filter: LineFilter,
    /// Polyglot books (`.bin`): they do not add lines, they give popularity.
    pub books: Vec<PolyglotChoice>,
    /// Where the drill's popularity comes from.
    pub popularity: Popularity,
    /// Whether the learner chose the popularity (the Style tab); else the window uses
    /// [`Popularity::RECOMMENDED`] ([`BookChoice::migrate_popularity`]).
    pub popularity_chosen: bool,
    /// The side drilled: repertoire chapters for the other side leave the book
    /// (`None`: every chapter stays, as for the command line).
    pub side: Option<Side>,
}

impl Default for BookChoice {
    fn default() -> BookChoice {
        BookChoice {
            eco: true,
            files: Vec::new(),
            filter: LineFilter::default(),
            books: Vec::new(),
            popularity: Popularity::Lines,
            popularity_chosen: false,
            side: None,
        }
    }
}

impl BookChoice {
    /// A settings file (or a first run) where the learner never chose the popularity
    /// gets [`Popularity::RECOMMENDED`], the blend with the games book (files written
    /// before the choice was recorded had the lines, the old default, without it).
    pub fn migrate_popularity(&mut self) {
        if !self.popularity_chosen {
            self.popularity = Popularity::RECOMMENDED;
        }
    }

    /// The popularity the drill uses: the one chosen; where the learner never chose,
    /// the recommended blend serves the theory (ECO) book, while a repertoire keeps its
    /// own lines (the games book would have the computer leave it at every move the
    /// learner did not prepare).
    pub fn drill_popularity(&self) -> Popularity {
        let repertoire = self
            .files
            .iter()
            .any(|f| f.enabled && f.mode == FileMode::Repertoire);
        if !self.popularity_chosen && self.popularity == Popularity::RECOMMENDED && repertoire {
            Popularity::Lines
        } else {
            self.popularity
        }
    }

    /// The remembered file at `path`.
    pub fn file(&self, path: &std::path::Path) -> Option<&BookFile> {
        self.files.iter().find(|f| f.path == path)
    }

    /// Sets the side of chapter `game` (from 1) of the repertoire file at `path`
    /// (`None`: as its tags or the file say). A file not remembered yet is remembered,
    /// read as a repertoire and unticked, so that the side is kept for it.
    pub fn set_chapter_side(&mut self, path: &std::path::Path, game: u32, side: Option<Side>) {
        let index = match self.files.iter().position(|f| f.path == path) {
            Some(i) => i,
            None => {
                // Stamped as it is now, so that the next start reads it as unchanged.
                let stamp = super::FileStamp::of(path).ok();
                self.files.push(BookFile {
                    path: path.to_owned(),
                    mode: FileMode::Repertoire,
                    enabled: false,
                    size: stamp.map_or(0, |s| s.size),
                    modified: stamp.and_then(|s| s.modified),
                    ..BookFile::default()
                });
                self.files.len() - 1
            }
        };
        if let Some(file) = self.files.get_mut(index) {
            file.set_chapter_side(game, side);
        }
    }

    /// Whether `other` builds the same graph (the same ECO choice, files, chapters and
    /// filters): books and popularity do not change the graph, and the side drilled
    /// only does when a chapter has a side (see `Workspace::set_choice`).
    pub fn same_graph(&self, other: &BookChoice) -> bool {
        self.eco == other.eco
            && self.files.len() == other.files.len()
            && self
                .files
                .iter()
                .zip(&other.files)
                .all(|(a, b)| a.same_lines(b))
            && self.filter == other.filter
    }
}
