//! Issue 41, item 4: the default popularity. The shipped games book
//! (`assets/books/gnuchess.bin`, 180,358 entries from master games) against the ECO
//! line counts at the positions the issue names; the blend with the games book
//! ([`Popularity::RECOMMENDED`]) is the window's default where the learner never chose,
//! for a first run and for a settings file written before the choice was recorded.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use hastings::book::polyglot::SharedBook;
use hastings::coach::settings::Settings;
use hastings::sampler::{MoveSource, Popularity, Style};
use hastings::ui::TrainerApp;
use hastings::workspace::{BookChoice, BookFile, FileMode};

use crate::common;

/// The book's weights at the position after `sans`, each move in SAN, most first.
fn book_weights(sans: &str) -> Vec<(String, u32)> {
    let book = SharedBook::gnuchess().unwrap();
    let pos = common::position_after(sans);
    let moves = book.book().moves(&pos);
    moves
        .moves
        .iter()
        .map(|m| {
            (
                shakmaty::san::San::from_move(&pos, m.mv).to_string(),
                m.weight,
            )
        })
        .collect()
}

/// The drill's share of `san` after `sans` under `popularity`, without style bonuses.
fn share(sans: &str, san: &str, popularity: Popularity) -> f64 {
    let book = SharedBook::gnuchess().unwrap();
    let source = MoveSource::new(common::eco_graph(), vec![book.book()], popularity);
    let style = Style::from_vectors([0; 5], [0.4; 5], 0.0).unwrap();
    let pos = common::position_after(sans);
    let d = source.distribution(&pos, &style, 1.0, None);
    d.candidates
        .iter()
        .find(|c| shakmaty::san::San::from_move(&pos, c.mv).to_string() == san)
        .map_or(0.0, |c| c.share)
}

/// The shipped games book's numbers, read here (python-chess reads the same file the
/// same way: `tests/all/popularity.rs`): after 1.e4 Nf6, 2.e5 in 1,484 of 1,739 games;
/// after 1.e4, 1...c5 14,550 times and 1...e5 10,621.
#[test]
fn the_games_book_plays_2_e5_against_alekhine_and_1_c5_first_against_1_e4() {
    let alekhine = book_weights("e4 Nf6");
    assert_eq!(alekhine[0], ("e5".to_owned(), 1_484));
    let total: u32 = alekhine.iter().map(|m| m.1).sum();
    assert_eq!(total, 1_739, "{alekhine:?}");
    let e4 = book_weights("e4");
    assert_eq!(e4[0], ("c5".to_owned(), 14_550));
    assert_eq!(e4[1], ("e5".to_owned(), 10_621));
}

/// The lines alone put 1...e5 far ahead of 1...c5; the recommended blend follows the
/// games (1...c5 first) and keeps 2.e5 the likeliest after 1.e4 Nf6.
#[test]
fn the_recommended_blend_follows_the_games() {
    let (c5, e5) = (
        share("e4", "c5", Popularity::Lines),
        share("e4", "e5", Popularity::Lines),
    );
    assert!(e5 > 2.0 * c5, "the lines: 1...e5 {e5}, 1...c5 {c5}");
    let blend = Popularity::RECOMMENDED;
    let (c5, e5) = (share("e4", "c5", blend), share("e4", "e5", blend));
    assert!(c5 > e5, "{blend}: 1...c5 {c5}, 1...e5 {e5}");
    let e5 = share("e4 Nf6", "e5", blend);
    for other in ["Nc3", "Bc4", "d4", "d3"] {
        let s = share("e4 Nf6", other, blend);
        assert!(e5 > 4.0 * s, "{blend}: 2.e5 {e5}, 2.{other} {s}");
    }
}

/// A first run and a settings file that never chose (written with the old default,
/// without `popularity_chosen`) get the blend; a choice made is kept; a repertoire the
/// learner never chose for keeps its own lines.
#[test]
fn the_blend_is_the_default_where_the_learner_never_chose() {
    let dir = common::temp_dir("popularity-default");
    // A first run: no settings file.
    let first = TrainerApp::restore(common::eco(), None, Some(dir.join("none.json")), None);
    assert_eq!(
        first.coach().settings().book.popularity,
        Popularity::RECOMMENDED
    );
    assert_eq!(
        first.coach().session().popularity(),
        Popularity::RECOMMENDED
    );
    // A file of before the choice was recorded: the lines, no popularity_chosen.
    let mut old = serde_json::to_value(Settings::default()).unwrap();
    let book = old["book"].as_object_mut().unwrap();
    book.remove("popularity_chosen").unwrap();
    assert_eq!(book["popularity"], serde_json::json!("Lines"));
    let path = dir.join("old.json");
    std::fs::write(&path, serde_json::to_string(&old).unwrap()).unwrap();
    let migrated = TrainerApp::restore(common::eco(), None, Some(path), None);
    assert_eq!(
        migrated.coach().settings().book.popularity,
        Popularity::RECOMMENDED
    );
    // A choice made stays.
    let chosen = Settings {
        book: BookChoice {
            popularity: Popularity::Lines,
            popularity_chosen: true,
            ..BookChoice::default()
        },
        ..Settings::default()
    };
    let path = dir.join("chosen.json");
    std::fs::write(&path, serde_json::to_string(&chosen).unwrap()).unwrap();
    let kept = TrainerApp::restore(common::eco(), None, Some(path), None);
    assert_eq!(kept.coach().settings().book.popularity, Popularity::Lines);
    // A repertoire never chosen for drills on its lines; chosen, on the choice.
    let mut choice = BookChoice::default();
    choice.migrate_popularity();
    assert_eq!(choice.drill_popularity(), Popularity::RECOMMENDED);
    choice.files.push(BookFile {
        path: common::fixture("compare_white.pgn"),
        mode: FileMode::Repertoire,
        ..BookFile::default()
    });
    assert_eq!(choice.drill_popularity(), Popularity::Lines);
    choice.popularity_chosen = true;
    assert_eq!(choice.drill_popularity(), Popularity::RECOMMENDED);
}
