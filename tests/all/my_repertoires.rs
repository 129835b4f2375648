//! My repertoires' rows (issue 40, item 1) against a direct computation on the
//! repertoire: positions as the graph counts them, cards as each chapter's deck has
//! them, due cards as the review log's schedule says; and the book for drilling some
//! repertoires alone.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::collections::HashSet;
use std::sync::Arc;

use hastings::book::{LineSource, PositionGraph, Side};
use hastings::job::Wake;
use hastings::review::{CardKey, Deck, Rating, ReviewRecord, Schedule, Scheduler, Timestamp};
use hastings::workspace::repertoires::{FileCards, RepertoireRow, read_schedule};
use hastings::workspace::{BookChoice, FileMode, Workspace};
use shakmaty::Color;

use crate::common::{fixture, temp_dir};

/// A workspace with `names` read as repertoires, every job run to its end.
fn loaded(names: &[&str]) -> Workspace {
    let mut ws = Workspace::new(BookChoice::default()).unwrap();
    ws.open(
        names.iter().map(|n| fixture(n)).collect(),
        FileMode::Repertoire,
    );
    let wake: Wake = Arc::new(|| {});
    while ws.is_busy() {
        ws.poll(true, &wake);
    }
    ws
}

/// The cards of each chapter from its own deck: the graph of its lines, the positions
/// of the chapter's side with a book move.
pub(crate) fn cards_by_deck(ws: &Workspace) -> HashSet<(Color, CardKey)> {
    let file = ws.loaded_repertoires().next().unwrap();
    let mut cards = HashSet::new();
    for chapter in &file.chapters {
        let side = ws.chapter_side(&file.path, chapter).expect("a side each");
        let lines = file
            .lines
            .iter()
            .filter(|l| matches!(l.source, LineSource::Pgn { game, .. } if game == chapter.game))
            .cloned();
        let graph = PositionGraph::build(lines).graph;
        let deck = Deck::new(&graph, Color::from(side));
        cards.extend(
            deck.cards()
                .iter()
                .map(|c| (Color::from(side), c.key.clone())),
        );
    }
    cards
}

#[test]
fn a_rows_positions_and_cards_are_the_graphs_and_the_chapters_decks() {
    let ws = loaded(&["mixed_sides.pgn"]);
    let file = ws.loaded_repertoires().next().unwrap();
    let cards = ws.file_cards(file);
    let graph = PositionGraph::build(file.lines.iter().cloned()).graph;
    assert_eq!(cards.positions, graph.stats().nodes);
    let mine: HashSet<(Color, CardKey)> = cards.cards.iter().cloned().collect();
    assert_eq!(mine.len(), cards.cards.len(), "each card once");
    assert_eq!(mine, cards_by_deck(&ws));
    let row = RepertoireRow::new(
        file,
        &cards,
        ws.all_chapter_sides(file),
        true,
        &Schedule::default(),
        Timestamp::from_unix_ms(1_790_000_000_000, 0),
    );
    assert_eq!((row.sides.white, row.sides.black), (1, 2));
    assert_eq!(row.sides_text(), "White and Black");
    assert_eq!((row.chapters, row.lines), (3, 12));
    assert_eq!((row.new, row.due_today, row.due_week), (row.cards, 0, 0));
    assert_eq!(row.last_trained, None);
}

#[test]
fn a_side_set_for_a_chapter_makes_its_cards_that_sides() {
    let mut ws = loaded(&["mixed_sides.pgn"]);
    let path = fixture("mixed_sides.pgn");
    let mut choice = ws.choice().clone();
    // The Italian (chapter 1) said to be for Black: its Black positions are the cards.
    choice.set_chapter_side(&path, 1, Some(Side::Black));
    ws.set_choice(choice);
    let file = ws.loaded_repertoires().next().unwrap();
    assert_eq!(ws.all_chapter_sides(file).black, 3);
    let cards: HashSet<(Color, CardKey)> = ws.file_cards(file).cards.into_iter().collect();
    assert_eq!(cards, cards_by_deck(&ws));
    assert!(cards.iter().all(|(c, _)| *c == Color::Black));
}

#[test]
fn due_today_and_this_week_follow_the_review_log() {
    let ws = loaded(&["mixed_sides.pgn"]);
    let file = ws.loaded_repertoires().next().unwrap();
    let cards = ws.file_cards(file);
    let now = Timestamp::from_unix_ms(1_790_000_000_000, 60);
    // Three cards: failed yesterday, right yesterday, right a month ago.
    let review = |i: usize, days: i64, rating| {
        let (color, card) = cards.cards[i].clone();
        ReviewRecord {
            time: now.plus_days(-days),
            color,
            rating,
            seconds: 4.0,
            fuzz: false,
            card,
        }
    };
    let records = [
        review(0, 1, Rating::Again),
        review(1, 1, Rating::Good),
        review(2, 30, Rating::Good),
    ];
    let dir = temp_dir("my-repertoires-log");
    let log = dir.join("reviews.log");
    std::fs::write(&log, hastings::review::log::format(&records)).unwrap();
    let schedule = read_schedule(&log);
    let row = RepertoireRow::new(
        file,
        &cards,
        ws.all_chapter_sides(file),
        true,
        &schedule,
        now,
    );
    // The direct computation: each card's state in the log replayed.
    let direct = Schedule::replay(&Scheduler::default(), &records);
    let states: Vec<_> = cards
        .cards
        .iter()
        .filter_map(|(c, k)| direct.card(*c, k))
        .collect();
    assert_eq!(states.len(), 3);
    let due_today = states.iter().filter(|s| s.is_due(now)).count();
    let week = now.plus_days(6);
    let due_week = states.iter().filter(|s| s.is_due(week)).count();
    assert_eq!(row.due_today, due_today);
    assert_eq!(row.due_week, due_week);
    assert!(row.due_today >= 1, "the card failed yesterday is due");
    assert!(
        row.due_week > row.due_today,
        "the one right yesterday comes back this week"
    );
    assert_eq!(row.new, cards.cards.len() - 3);
    assert_eq!(row.last_trained, Some(now.plus_days(-1)));
}

#[test]
fn drilling_some_repertoires_alone_unticks_eco_and_the_others() {
    let ws = loaded(&["mixed_sides.pgn", "repertoire.pgn", "study_chapters.pgn"]);
    assert!(ws.choice().eco);
    let paths = [fixture("mixed_sides.pgn"), fixture("study_chapters.pgn")];
    let only = ws.choice().only(&paths);
    assert!(!only.eco);
    let ticked: Vec<_> = only
        .files
        .iter()
        .filter(|f| f.enabled)
        .map(|f| f.path.clone())
        .collect();
    assert_eq!(ticked, paths);
    assert_eq!(only.files.len(), 3, "the others stay, unticked");
}

#[test]
fn a_file_with_no_lines_has_an_empty_row() {
    let ws = loaded(&["mixed_sides.pgn"]);
    let file = ws.loaded_repertoires().next().unwrap();
    let empty = FileCards::new(
        &hastings::workspace::LoadedFile {
            lines: Arc::new(Vec::new()),
            ..file.clone()
        },
        |_| None,
    );
    assert_eq!(empty, FileCards::default());
}
