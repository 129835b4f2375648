//! "My repertoires": each repertoire file the book has loaded, as one row — its name,
//! the sides of its chapters, its chapters, lines and positions, the cards due today and
//! this week in the review log, and when it was last trained — and the book's sources
//! for drilling some of them alone ([`BookChoice::only`]).
//!
//! The positions and cards of a file are found once per file and chapter sides
//! ([`FileCards`]: every line played once); joining them with the review log's states
//! ([`RepertoireRow::new`]) is a hash look-up per card.

use std::path::{Path, PathBuf};

use rustc_hash::{FxHashMap, FxHashSet};
use shakmaty::{Color, Position};

use super::chapters::Sides;
use super::{BookChoice, LoadedFile, Workspace};
use crate::book::{ImportMode, LineSource, NodeKey, Side};
use crate::review::{CardKey, Schedule, Timestamp};

/// The positions and cards of one repertoire file, with the chapter sides they were
/// found for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileCards {
    /// Distinct positions in its lines (starts included).
    pub positions: usize,
    /// The cards: each position where the side the chapter is for is to move and the
    /// file has a move for it (both sides' positions in a chapter whose side is not
    /// said), once.
    pub cards: Vec<(Color, CardKey)>,
}

impl FileCards {
    /// The positions and cards of `file`, each chapter's side given by `side_of` (its
    /// game number from 1).
    pub fn new(file: &LoadedFile, side_of: impl Fn(u32) -> Option<Side>) -> FileCards {
        FileCards::of_lines(&file.lines, side_of)
    }

    /// The positions and cards of a file's `lines` (a background job takes them without
    /// the file), each chapter's side given by `side_of` (its game number from 1).
    pub fn of_lines(
        lines: &[crate::book::OpeningLine],
        side_of: impl Fn(u32) -> Option<Side>,
    ) -> FileCards {
        let mut positions: FxHashSet<NodeKey> = FxHashSet::default();
        let mut cards: FxHashMap<NodeKey, (Color, CardKey)> = FxHashMap::default();
        let mut sides: FxHashMap<u32, Option<Side>> = FxHashMap::default();
        for line in lines {
            let game = match line.source {
                LineSource::Pgn { game, .. } => game,
                LineSource::Eco { .. } => 0,
            };
            let side = *sides.entry(game).or_insert_with(|| side_of(game));
            let mut pos = line.start_position();
            for &mv in &line.moves {
                let key = NodeKey::from_position(&pos);
                positions.insert(key);
                let mine = side.is_none_or(|s| Color::from(s) == pos.turn());
                if mine && !cards.contains_key(&key) {
                    cards.insert(key, (pos.turn(), CardKey::from_position(&pos)));
                }
                if !pos.is_legal(mv) {
                    break;
                }
                pos.play_unchecked(mv);
            }
            positions.insert(NodeKey::from_position(&pos));
        }
        FileCards {
            positions: positions.len(),
            cards: cards.into_values().collect(),
        }
    }
}

/// One row of My repertoires.
#[derive(Clone, Debug, PartialEq)]
pub struct RepertoireRow {
    /// The file.
    pub path: PathBuf,
    /// Its name (the file name).
    pub name: String,
    /// How many of its chapters are for each side (all chapters, ticked or not).
    pub sides: Sides,
    /// Its chapters (games).
    pub chapters: usize,
    /// Its lines (root-to-leaf paths).
    pub lines: usize,
    /// Its distinct positions.
    pub positions: usize,
    /// Its cards: positions where the learner is to move and the file has a move.
    pub cards: usize,
    /// Cards never reviewed.
    pub new: usize,
    /// Cards due today (or earlier).
    pub due_today: usize,
    /// Cards due within the next seven days, today included.
    pub due_week: usize,
    /// The last review of one of its cards.
    pub last_trained: Option<Timestamp>,
    /// Whether it is ticked in the Book tab (part of the book drilled now).
    pub ticked: bool,
    /// Whether its positions and cards are counted (else they are being counted in the
    /// background and read 0: the view says "counting…").
    pub counted: bool,
}

impl RepertoireRow {
    /// The row of `file`, its cards `cards`, its chapters' sides `sides`, joined with
    /// `schedule` (the review log replayed) at `now`.
    pub fn new(
        file: &LoadedFile,
        cards: &FileCards,
        sides: Sides,
        ticked: bool,
        schedule: &Schedule,
        now: Timestamp,
    ) -> RepertoireRow {
        let week_end = now.day() + 6;
        let (mut new, mut due_today, mut due_week) = (0, 0, 0);
        let mut last_trained: Option<Timestamp> = None;
        for (color, key) in &cards.cards {
            let Some(state) = schedule.card(*color, key) else {
                new += 1;
                continue;
            };
            due_today += usize::from(state.is_due(now));
            let due_day = state.due.map(|d| d.with_offset(now.offset_minutes()).day());
            due_week += usize::from(due_day.is_some_and(|d| d <= week_end));
            if let Some(last) = state.last_review
                && last_trained.is_none_or(|t| t.unix_ms() < last.unix_ms())
            {
                last_trained = Some(last);
            }
        }
        RepertoireRow {
            path: file.path.clone(),
            name: file.name(),
            sides,
            chapters: file.chapters.len(),
            lines: file.lines.len(),
            positions: cards.positions,
            cards: cards.cards.len(),
            new,
            due_today,
            due_week,
            last_trained,
            ticked,
            counted: true,
        }
    }

    /// The row of `file` while its positions and cards are being counted: its name,
    /// sides, chapters and lines, the rest 0.
    pub fn counting(file: &LoadedFile, sides: Sides, ticked: bool) -> RepertoireRow {
        RepertoireRow {
            path: file.path.clone(),
            name: file.name(),
            sides,
            chapters: file.chapters.len(),
            lines: file.lines.len(),
            positions: 0,
            cards: 0,
            new: 0,
            due_today: 0,
            due_week: 0,
            last_trained: None,
            ticked,
            counted: false,
        }
    }

    /// The sides in words: "White", "Black", "White and Black", "side not said".
    pub fn sides_text(&self) -> String {
        let s = self.sides;
        match (s.white > 0, s.black > 0) {
            (true, true) => "White and Black".to_owned(),
            (true, false) => "White".to_owned(),
            (false, true) => "Black".to_owned(),
            (false, false) => "side not said".to_owned(),
        }
    }
}

impl Workspace {
    /// The files read as repertoires, loaded now, in the order they were loaded.
    pub fn loaded_repertoires(&self) -> impl Iterator<Item = &LoadedFile> {
        self.files()
            .iter()
            .filter(|f| f.mode == ImportMode::Repertoire)
    }

    /// The sides of every chapter of `file` (ticked or not), as the drill takes them.
    pub fn all_chapter_sides(&self, file: &LoadedFile) -> Sides {
        let mut sides = Sides::default();
        for c in &file.chapters {
            match self.chapter_side(&file.path, c) {
                Some(Side::White) => sides.white += 1,
                Some(Side::Black) => sides.black += 1,
                None => sides.unknown += 1,
            }
        }
        sides
    }

    /// The cards of `file` with its chapters' sides as the drill takes them.
    pub fn file_cards(&self, file: &LoadedFile) -> FileCards {
        FileCards::new(file, |game| {
            let chapter = file.chapters.iter().find(|c| c.game == game)?;
            self.chapter_side(&file.path, chapter)
        })
    }

    /// The chapter sides the learner set or the tags say, per chapter, for the cache
    /// of [`FileCards`]: they change which positions are cards.
    pub fn chapter_sides_of(&self, file: &LoadedFile) -> Vec<Option<Side>> {
        file.chapters
            .iter()
            .map(|c| self.chapter_side(&file.path, c))
            .collect()
    }

    /// Whether the file at `path` is ticked in the Book tab.
    pub fn is_ticked(&self, path: &Path) -> bool {
        self.choice().file(path).is_some_and(|f| f.enabled)
    }
}

impl BookChoice {
    /// The sources for drilling the repertoire files `paths` alone: they are ticked,
    /// every other PGN file and ECO unticked (ECO stays the theory a repertoire is
    /// compared with); chapters, lines, filters and Polyglot books are kept.
    #[must_use]
    pub fn only(&self, paths: &[PathBuf]) -> BookChoice {
        let mut choice = self.clone();
        choice.eco = false;
        for f in &mut choice.files {
            f.enabled = paths.contains(&f.path);
        }
        choice
    }
}

/// The review log at `log` replayed with the FSRS parameters beside it, read only (a
/// missing log is an empty one; a torn or bad line is skipped, as review mode reports
/// it when it opens the log).
pub fn read_schedule(log: &Path) -> Schedule {
    let bytes = std::fs::read(log).unwrap_or_default();
    let read = crate::review::log::parse(&bytes);
    let params =
        super::review_store::load_params(&log.with_file_name(super::review_store::PARAMS_FILE));
    let (scheduler, _) = params.value.scheduler();
    Schedule::replay(&scheduler, &read.records)
}
