//! The chapters of a repertoire file: one per PGN game, as a lichess study or a
//! Chessable course is cut, each with a title, the side its tags say it is for, and the
//! side its tree looks like it is for.

use std::collections::BTreeMap;

use super::line::{LineSource, OpeningLine};
use super::side::{Side, guess_side, side_from_tags};
use super::tags::GameTags;

/// One chapter (one game of a PGN file) and what is known of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Chapter {
    /// The 1-based game number in the file.
    pub game: u32,
    /// Its title: `[ChapterName]`, the chapter part of a lichess study's `[Event]`, the
    /// event, the opening, or "Game N".
    pub title: String,
    /// The side its tags say it is for (see [`side_from_tags`]).
    pub tagged: Option<Side>,
    /// The side its moves look like they are for (see [`guess_side`]).
    pub guessed: Option<Side>,
    /// How many lines (root-to-leaf paths) it gave.
    pub lines: usize,
}

/// The chapters of a file's lines, in game order (lines not from a PGN file are
/// skipped).
///
/// ```
/// use hastings::book::{ImportOptions, chapters::chapters, Side, SourceId};
/// use hastings::book::pgn::read_pgn;
///
/// let text = "[Event \"My study: Caro-Kann\"]\n[Site \"https://lichess.org/study/abc/def\"]\n\
///     [Orientation \"black\"]\n\n1. e4 c6 2. d4 (2. Nc3 d5) 2... d5 *\n";
/// let import = read_pgn(text.as_bytes(), SourceId(1), &ImportOptions::default(), None)?;
/// let chapters = chapters(&import.lines);
/// assert_eq!(chapters.len(), 1);
/// assert_eq!(chapters[0].title, "Caro-Kann");
/// assert_eq!(chapters[0].tagged, Some(Side::Black));
/// assert_eq!(chapters[0].lines, 2);
/// # Ok::<(), hastings::book::pgn::ImportError>(())
/// ```
pub fn chapters(lines: &[OpeningLine]) -> Vec<Chapter> {
    let mut games: BTreeMap<u32, Vec<&OpeningLine>> = BTreeMap::new();
    for line in lines {
        if let LineSource::Pgn { game, .. } = line.source {
            games.entry(game).or_default().push(line);
        }
    }
    games
        .into_iter()
        .map(|(game, lines)| {
            let first = lines[0];
            let tags = first.tags.as_deref();
            Chapter {
                game,
                title: title(first, game),
                tagged: tags.and_then(side_from_tags),
                guessed: guess_side(lines.iter().copied()),
                lines: lines.len(),
            }
        })
        .collect()
}

/// A chapter's title from its first line's tags.
fn title(line: &OpeningLine, game: u32) -> String {
    title_from_tags(line.tags.as_deref(), game)
}

/// A chapter's title from its tags: `[ChapterName]`, the chapter part of a lichess
/// study's `[Event]` ("Study name: Chapter name"), the event, the opening, or
/// "Game N" for game `game`.
pub fn title_from_tags(tags: Option<&GameTags>, game: u32) -> String {
    let Some(tags) = tags else {
        return format!("Game {game}");
    };
    if let Some(name) = tags.known("ChapterName") {
        return name.to_owned();
    }
    if let Some(event) = tags.known("Event") {
        // lichess: "Study name: Chapter name".
        let study = tags
            .known("Site")
            .is_some_and(|site| site.contains("/study/"));
        if study && let Some((_, chapter)) = event.split_once(": ") {
            return chapter.trim().to_owned();
        }
        return event.to_owned();
    }
    tags.known("Opening")
        .map(str::to_owned)
        .unwrap_or_else(|| format!("Game {game}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::pgn::read_pgn;
    use crate::book::{ImportOptions, SourceId};

    fn read(text: &str) -> Vec<Chapter> {
        let options = ImportOptions::default();
        chapters(
            &read_pgn(text.as_bytes(), SourceId(1), &options, None)
                .unwrap()
                .lines,
        )
    }

    #[test]
    fn titles_from_the_tags_the_file_has() {
        let text = "[Event \"Study: One\"]\n[Site \"https://lichess.org/study/a/b\"]\n\n1. e4 *\n\n\
                    [Event \"Club night: round 2\"]\n\n1. d4 *\n\n\
                    [Event \"?\"]\n[Opening \"English Opening\"]\n\n1. c4 *\n\n\
                    [Result \"*\"]\n\n1. Nf3 *\n";
        let titles: Vec<String> = read(text).into_iter().map(|c| c.title).collect();
        assert_eq!(
            titles,
            ["One", "Club night: round 2", "English Opening", "Game 4"]
        );
    }

    #[test]
    fn the_shipped_study_has_its_chapter_names() {
        let chapters = read(include_str!("../../tests/fixtures/study_chapters.pgn"));
        assert_eq!(chapters.len(), 4);
        assert_eq!(chapters[0].title, "Chapter 1 - Introduction");
        assert!(chapters.iter().all(|c| c.tagged.is_none()));
    }

    #[test]
    fn a_mixed_study_has_a_side_per_chapter() {
        let chapters = read(include_str!("../../tests/fixtures/mixed_sides.pgn"));
        let sides: Vec<_> = chapters.iter().map(|c| (c.tagged, c.guessed)).collect();
        let (w, b) = (Some(Side::White), Some(Side::Black));
        assert_eq!(sides, [(w, w), (b, b), (b, b)]);
        assert_eq!(chapters[2].title, "Against 1.d4");
        assert_eq!(
            chapters.iter().map(|c| c.lines).collect::<Vec<_>>(),
            [4, 5, 3]
        );
    }
}
