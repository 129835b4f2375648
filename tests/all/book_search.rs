//! Finding an opening by name or ECO code (issue 41, item 15) in the shipped ECO data:
//! names and codes, case and accents ignored, ranked, one result per position.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::collections::HashSet;
use std::sync::LazyLock;

use hastings::book::search::{OpeningHit, OpeningIndex, not_found};

use crate::common;

static INDEX: LazyLock<OpeningIndex> = LazyLock::new(|| OpeningIndex::new(common::eco_graph()));

fn search(query: &str, limit: usize) -> Vec<OpeningHit> {
    INDEX.search(common::eco_graph(), query, limit)
}

fn codes(hits: &[OpeningHit]) -> Vec<&str> {
    hits.iter().map(|h| h.eco.as_deref().unwrap()).collect()
}

#[test]
fn every_eco_line_is_indexed() {
    assert_eq!(INDEX.len(), common::eco_graph().lines().len());
}

#[test]
fn najdorf_finds_the_najdorf_position_first_then_its_lines() {
    let hits = search("Najdorf", 20);
    assert_eq!(hits.len(), 20, "{:?}", codes(&hits));
    // The Najdorf itself: the position after 5...a6, where every Najdorf line passes.
    assert_eq!(hits[0].eco.as_deref(), Some("B90"));
    assert_eq!(hits[0].name, "Sicilian Defense: Najdorf Variation");
    assert_eq!(
        hits[0].moves,
        common::san_moves("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6")
    );
    for h in &hits {
        assert!(h.name.contains("Najdorf"), "{}", h.name);
    }
    // The Najdorf's own volume, B90–B99, is what a player gets.
    let in_range = codes(&hits).iter().filter(|c| c.starts_with("B9")).count();
    assert!(in_range >= 18, "{:?}", codes(&hits));
    let found: HashSet<&str> = codes(&hits).into_iter().collect();
    for c in ["B90", "B92", "B94", "B96", "B97"] {
        assert!(found.contains(c), "{c} missing from {found:?}");
    }
}

#[test]
fn a_code_finds_its_lines_and_the_opening_itself_first() {
    let hits = search("C65", 50);
    assert!(hits.len() > 5);
    assert!(
        codes(&hits).iter().all(|c| *c == "C65"),
        "{:?}",
        codes(&hits)
    );
    assert_eq!(hits[0].name, "Ruy Lopez: Berlin Defense");
    assert_eq!(hits[0].moves, common::san_moves("e4 e5 Nf3 Nc6 Bb5 Nf6"));
    // Lower case is a code too, and a range gives every code in it.
    assert_eq!(search("c65", 50), hits);
    let range = search("B90-B99", 500);
    let found: HashSet<&str> = codes(&range).into_iter().collect();
    assert_eq!(found.len(), 10, "{found:?}");
    assert!(found.iter().all(|c| c.starts_with("B9")));
}

#[test]
fn berlin_finds_the_ruy_lopez_berlin_before_the_other_berlins() {
    let hits = search("berlin", 30);
    assert_eq!(hits[0].eco.as_deref(), Some("C65"));
    assert_eq!(hits[0].name, "Ruy Lopez: Berlin Defense");
    let found: HashSet<&str> = codes(&hits).into_iter().collect();
    for c in ["C65", "C66", "C67"] {
        assert!(found.contains(c), "{c} missing from {found:?}");
    }
    // The Berlins of other openings are still there, after.
    assert!(found.contains("C24"), "{found:?}");
}

#[test]
fn words_are_matched_in_any_case_without_accents_or_apostrophes() {
    let hits = search("sicilian najdorf", 5);
    assert_eq!(hits[0].name, "Sicilian Defense: Najdorf Variation");
    let hits = search("grunfeld", 5);
    assert!(!hits.is_empty());
    assert!(hits.iter().all(|h| h.name.contains("Grünfeld")), "{hits:?}");
    assert_eq!(search("GRÜNFELD", 5), hits);
    let hits = search("kings indian", 5);
    assert!(
        hits[0].name.starts_with("King's Indian"),
        "{}",
        hits[0].name
    );
    assert_eq!(search("king's indian", 5), hits);
    // A code and a word narrow each other.
    let hits = search("B90 english", 10);
    assert!(!hits.is_empty());
    assert!(
        hits.iter()
            .all(|h| h.eco.as_deref() == Some("B90") && h.name.contains("English Attack"))
    );
}

#[test]
fn names_that_start_with_the_words_come_before_names_that_contain_them() {
    // "Dragon Variation" starts a part of the name; "Accelerated Dragon" or
    // "Hyperaccelerated Dragon" only has the word.
    let starts = |name: &str| {
        name.split([':', ','])
            .any(|part| part.trim_start().starts_with("Dragon"))
    };
    let hits = search("dragon", 200);
    let first_other = hits.iter().position(|h| !starts(&h.name)).unwrap();
    assert!(first_other > 10, "{first_other}");
    assert!(
        hits[first_other..].iter().all(|h| !starts(&h.name)),
        "{:?}",
        hits.iter().map(|h| &h.name).collect::<Vec<_>>()
    );
    assert!(
        hits[first_other..]
            .iter()
            .any(|h| h.name.contains("Accelerated Dragon"))
    );
}

#[test]
fn one_result_per_position_and_at_most_the_limit() {
    let graph = common::eco_graph();
    let all = search("A00-E99", 10_000);
    let nodes: HashSet<_> = all.iter().map(|h| h.node).collect();
    assert_eq!(nodes.len(), all.len());
    // Lines that end at the same position (another move order, a longer name) are one
    // result: as many results as positions lines end at, fewer than lines.
    let ends: HashSet<_> = (0..graph.lines().len())
        .map(|i| graph.line_end(hastings::book::LineId(i as u32)))
        .collect();
    assert_eq!(all.len(), ends.len());
    assert!(ends.len() < graph.lines().len());
    let hits = search("sicilian", 1000);
    assert_eq!(search("sicilian", 7).len(), 7);
    assert_eq!(search("sicilian", 7), hits[..7]);
}

#[test]
fn nonsense_finds_nothing_and_says_so() {
    assert!(search("xyzzy plugh", 10).is_empty());
    assert!(search("   ", 10).is_empty());
    let message = not_found(" xyzzy plugh ");
    assert!(message.contains("\"xyzzy plugh\""), "{message}");
    assert!(message.contains("Najdorf"), "{message}");
}
