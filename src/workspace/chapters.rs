//! Which chapters of the repertoire files are drilled, and from which side.
//!
//! A chapter is for White or Black as the learner set it
//! ([`BookFile::chapter_sides`](super::BookFile::chapter_sides)), else as its tags say
//! (`[Orientation]`, `[ChesstempoRepertoireColour]`, or a name such as "… for Black"),
//! else as the learner said once for the whole file
//! ([`BookFile::side`](super::BookFile::side)). While the learner plays one side, the
//! chapters for the other side leave the book: a mixed study drills its White chapters
//! as White and its Black chapters as Black. The learner may also pick chapters
//! ([`BookFile::chapters`](super::BookFile::chapters)).

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use super::{BookFile, LoadedFile, Workspace};
use crate::book::chapters::Chapter;
use crate::book::side::guess_side;
use crate::book::{ImportMode, LineFilter, LineSource, OpeningLine, Side, SourceId};

/// The lines a build reads, and which of them it keeps.
pub(super) struct Selection {
    /// The sources: the ECO lines and the chosen files' lines.
    pub(super) sources: Vec<Arc<Vec<OpeningLine>>>,
    /// The subsample filters.
    filter: LineFilter,
    /// Per repertoire file: the chapters chosen and their sides.
    kept: HashMap<SourceId, Kept>,
    /// The side drilled: chapters for the other side are left out.
    side: Option<Side>,
}

/// A file's chosen chapters and lines (`None`: all) and the sides known for its
/// chapters.
struct Kept {
    games: Option<HashSet<u32>>,
    lines: Option<HashSet<u32>>,
    sides: HashMap<u32, Side>,
}

impl Selection {
    /// Whether the build keeps `line`, the `index`-th of its source.
    pub(super) fn matches(&self, index: usize, line: &OpeningLine) -> bool {
        if !self.filter.matches(line) {
            return false;
        }
        let LineSource::Pgn { source, game } = line.source else {
            return true;
        };
        let Some(kept) = self.kept.get(&source) else {
            return true;
        };
        if kept.games.as_ref().is_some_and(|g| !g.contains(&game)) {
            return false;
        }
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        if kept.lines.as_ref().is_some_and(|l| !l.contains(&index)) {
            return false;
        }
        match (self.side, kept.sides.get(&game)) {
            (Some(drilled), Some(&side)) => side == drilled,
            _ => true,
        }
    }
}

/// How many chosen chapters are for each side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sides {
    /// Chapters for White.
    pub white: usize,
    /// Chapters for Black.
    pub black: usize,
    /// Chapters whose side nobody said.
    pub unknown: usize,
}

impl Sides {
    /// The one side every sided chapter is for, when there is one.
    pub fn only(self) -> Option<Side> {
        match (self.white > 0, self.black > 0) {
            (true, false) => Some(Side::White),
            (false, true) => Some(Side::Black),
            _ => None,
        }
    }

    /// Whether chapters for both sides are chosen.
    pub fn mixed(self) -> bool {
        self.white > 0 && self.black > 0
    }
}

/// A repertoire file whose side is worth asking (once): some of its chapters have no
/// side tag and the learner has not said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideQuestion {
    /// The file.
    pub path: std::path::PathBuf,
    /// How many of its chapters have no side tag.
    pub untagged: usize,
    /// The side its untagged chapters' moves look like they are for.
    pub guess: Option<Side>,
}

impl Workspace {
    /// The side of `chapter` of the file at `path`: the one the learner set for it,
    /// else its tags', else the one the learner said for the file.
    pub fn chapter_side(&self, path: &Path, chapter: &Chapter) -> Option<Side> {
        let chosen = self.choice.file(path);
        chosen
            .and_then(|f| f.chapter_sides.get(&chapter.game).copied())
            .or(chapter.tagged)
            .or_else(|| chosen.and_then(|f| f.side))
    }

    /// Whether the learner set the side of `chapter` of the file at `path` themselves.
    pub fn chapter_side_set(&self, path: &Path, chapter: &Chapter) -> bool {
        self.choice
            .file(path)
            .is_some_and(|f| f.chapter_sides.contains_key(&chapter.game))
    }

    /// Whether line `index` (in file order) of the file at `path` is chosen, its chapter
    /// aside.
    pub fn line_chosen(&self, path: &Path, index: usize) -> bool {
        self.choice
            .file(path)
            .and_then(|f| f.lines.as_ref())
            .is_none_or(|lines| lines.iter().any(|&l| l as usize == index))
    }

    /// Whether chapter `game` of the file at `path` is chosen.
    pub fn chapter_chosen(&self, path: &Path, game: u32) -> bool {
        self.choice
            .file(path)
            .and_then(|f| f.chapters.as_ref())
            .is_none_or(|games| games.contains(&game))
    }

    /// How many chosen chapters of the ticked repertoire files are for each side.
    pub fn sides(&self) -> Sides {
        self.repertoire_files()
            .map(|(file, chosen)| self.sides_in(file, chosen))
            .fold(Sides::default(), |a, b| Sides {
                white: a.white + b.white,
                black: a.black + b.black,
                unknown: a.unknown + b.unknown,
            })
    }

    /// How many chosen chapters of the file at `path` are for each side (none when it
    /// is not a ticked repertoire file).
    pub fn file_sides(&self, path: &Path) -> Sides {
        self.repertoire_files()
            .find(|(f, _)| f.path == path)
            .map(|(file, chosen)| self.sides_in(file, chosen))
            .unwrap_or_default()
    }

    /// How many chosen chapters of `file` are for each side.
    fn sides_in(&self, file: &LoadedFile, chosen: &BookFile) -> Sides {
        // With lines picked, a chapter counts when one of them is in it.
        let picked: Option<HashSet<u32>> = chosen.lines.as_ref().map(|lines| {
            lines
                .iter()
                .filter_map(|&i| match file.lines.get(i as usize)?.source {
                    LineSource::Pgn { game, .. } => Some(game),
                    LineSource::Eco { .. } => None,
                })
                .collect()
        });
        let mut sides = Sides::default();
        for c in &file.chapters {
            if !self.chapter_chosen(&file.path, c.game)
                || picked.as_ref().is_some_and(|p| !p.contains(&c.game))
            {
                continue;
            }
            match self.chapter_side(&file.path, c) {
                Some(Side::White) => sides.white += 1,
                Some(Side::Black) => sides.black += 1,
                None => sides.unknown += 1,
            }
        }
        sides
    }

    /// The question to ask about the file at `path`, if one is due: it was read as a
    /// repertoire, chapters of it have no side tag, and the learner was not asked yet.
    pub fn side_question(&self, path: &Path) -> Option<SideQuestion> {
        let (file, chosen) = self.repertoire_files().find(|(f, _)| f.path == path)?;
        if chosen.side.is_some() || chosen.side_asked {
            return None;
        }
        let untagged: HashSet<u32> = file
            .chapters
            .iter()
            .filter(|c| c.tagged.is_none() && !chosen.chapter_sides.contains_key(&c.game))
            .map(|c| c.game)
            .collect();
        if untagged.is_empty() {
            return None;
        }
        let guess = guess_side(file.lines.iter().filter(|l| match l.source {
            LineSource::Pgn { game, .. } => untagged.contains(&game),
            LineSource::Eco { .. } => false,
        }));
        Some(SideQuestion {
            path: path.to_owned(),
            untagged: untagged.len(),
            guess,
        })
    }

    /// The ticked files read as repertoires, with what the choice remembers of them.
    fn repertoire_files(&self) -> impl Iterator<Item = (&LoadedFile, &BookFile)> {
        self.files.iter().filter_map(|f| {
            let chosen = self.choice.file(&f.path)?;
            (chosen.enabled && f.mode == ImportMode::Repertoire).then_some((f, chosen))
        })
    }

    /// Whether the side drilled changes which lines a build keeps.
    pub(super) fn has_sided_chapters(&self) -> bool {
        let sides = self.sides();
        sides.white + sides.black > 0
    }

    /// The lines of the chosen sources and which of them a build keeps.
    pub(super) fn selection(&self) -> Selection {
        let mut sources = Vec::new();
        if self.choice.eco {
            sources.push(Arc::clone(&self.eco_lines));
        }
        let mut kept = HashMap::new();
        for f in self.selected() {
            sources.push(Arc::clone(&f.lines));
            if f.mode != ImportMode::Repertoire {
                continue;
            }
            let chosen = self.choice.file(&f.path);
            let sides = f
                .chapters
                .iter()
                .filter_map(|c| Some((c.game, self.chapter_side(&f.path, c)?)))
                .collect();
            let games = chosen
                .and_then(|c| c.chapters.as_ref())
                .map(|g| g.iter().copied().collect());
            let lines = chosen
                .and_then(|c| c.lines.as_ref())
                .map(|l| l.iter().copied().collect());
            kept.insert(
                f.id,
                Kept {
                    games,
                    lines,
                    sides,
                },
            );
        }
        // A side no chosen chapter is for leaves every chapter in (the learner chose to
        // play the other side of a one-sided repertoire).
        let sides = self.sides();
        let side = self.choice.side.filter(|s| match s {
            Side::White => sides.white > 0,
            Side::Black => sides.black > 0,
        });
        Selection {
            sources,
            filter: LineFilter {
                sources: None,
                ..self.choice.filter.clone()
            },
            kept,
            side,
        }
    }
}
