//! A player's games against a repertoire (`trainer::compare`), on fixture games written
//! for it: the player as White and as Black, a game leaving at move 1, a transposition
//! back into the repertoire, the end of the repertoire, known gaps.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use hastings::book::{ImportMode, NodeKey, PositionGraph};
use hastings::sampler::Style;
use hastings::trainer::compare::{
    CompareOptions, Comparison, GameComparison, Mover, compare, most_frequent_player,
    repertoire_colour,
};
use hastings::trainer::coverage::{CoverageOptions, describe, exposure};
use shakmaty::Color;

use crate::common;
use common::{eco_graph, import_fixture, position_after};

fn repertoire(name: &str) -> PositionGraph {
    PositionGraph::build(import_fixture(name, ImportMode::Repertoire).lines).graph
}

/// The games fixture compared with `rep` for the player "hastings learner" (any case),
/// with the gaps of the exposure against ECO.
fn compare_fixture(rep: &PositionGraph, learner: Color) -> Comparison {
    let games = import_fixture("compare_games.pgn", ImportMode::Games).lines;
    let ex = exposure(
        rep,
        eco_graph(),
        &Style::neutral(),
        &CoverageOptions::new(learner),
    );
    compare(
        rep,
        &games,
        &CompareOptions {
            player: "hastings learner".to_owned(),
            learner,
        },
        ex.gaps(),
    )
}

fn game(c: &Comparison, number: u32) -> &GameComparison {
    c.games
        .iter()
        .find(|g| g.game == number)
        .unwrap_or_else(|| panic!("game {number} not compared"))
}

#[test]
fn the_colour_of_a_repertoire_is_the_side_that_branches_less() {
    assert_eq!(
        repertoire_colour(&repertoire("compare_white.pgn")),
        Some(Color::White)
    );
    assert_eq!(
        repertoire_colour(&repertoire("compare_black.pgn")),
        Some(Color::Black)
    );
    assert_eq!(
        repertoire_colour(&repertoire("coverage_e4.pgn")),
        Some(Color::White)
    );
}

#[test]
fn games_as_white_find_the_players_first_deviation() {
    let rep = repertoire("compare_white.pgn");
    let c = compare_fixture(&rep, Color::White);
    let s = &c.summary;
    assert_eq!(s.games, 9);
    assert_eq!(
        (s.compared, s.other_colour, s.not_player),
        (5, 3, 1),
        "games 1, 2, 3, 4 and 8 are the player's as White"
    );
    assert_eq!(
        c.games.iter().map(|g| g.game).collect::<Vec<_>>(),
        [1, 2, 3, 4, 8]
    );

    // Game 1: 3.Bc4 instead of the repertoire's 3.Bb5.
    let g1 = game(&c, 1);
    let d = g1.player_left.as_ref().unwrap();
    assert_eq!((d.ply, d.san.as_str()), (5, "Bc4"));
    assert_eq!(d.repertoire, ["Bb5"]);
    assert_eq!(describe(&d.moves, &[]).sans, "e4 e5 Nf3 Nc6");
    assert_eq!(
        d.epd,
        describe(&d.moves, &[]).epd,
        "the position before the move"
    );
    assert!(g1.opponent_left.is_none() && g1.repertoire_end.is_none());
    assert_eq!(g1.first_exit().unwrap().0, Mover::Player);

    // Game 4 leaves at move 1.
    let d = game(&c, 4).player_left.as_ref().unwrap();
    assert_eq!((d.ply, d.san.as_str()), (1, "d4"));
    assert_eq!(d.repertoire, ["e4"]);
    assert!(d.moves.is_empty());

    // Game 3 follows the repertoire to its end (after 4.Ba4, ply 7).
    let g3 = game(&c, 3);
    assert_eq!(g3.repertoire_end, Some(7));
    assert!(g3.player_left.is_none() && g3.opponent_left.is_none());
    assert!(g3.first_exit().is_none());

    // The same deviation in games 1 and 8 ("HASTINGS LEARNER") is the most frequent.
    let top = &s.deviations[0];
    assert_eq!(
        (top.by, top.played.as_str(), top.count),
        (Mover::Player, "Bc4", 2)
    );
    assert_eq!(s.player_left, 3);
}

#[test]
fn an_opponent_move_into_a_known_gap_is_marked() {
    let rep = repertoire("compare_white.pgn");
    let c = compare_fixture(&rep, Color::White);
    // Game 2: 1...c6, which the repertoire does not answer and which is likely.
    let d = game(&c, 2).opponent_left.as_ref().unwrap();
    assert_eq!((d.ply, d.san.as_str()), (2, "c6"));
    assert_eq!(d.repertoire, ["e5", "c5", "e6"]);
    assert!(d.known_gap);
    let ex = exposure(
        &rep,
        eco_graph(),
        &Style::neutral(),
        &CoverageOptions::new(Color::White),
    );
    let after = NodeKey::from_position(&position_after("e4 c6"));
    assert!(ex.gaps().iter().any(|g| g.key == after));
    assert_eq!(c.summary.known_gaps, 1);
    // Without the exposure's gaps nothing is known.
    let games = import_fixture("compare_games.pgn", ImportMode::Games).lines;
    let plain = compare(
        &rep,
        &games,
        &CompareOptions {
            player: "Hastings Learner".to_owned(),
            learner: Color::White,
        },
        &[],
    );
    assert!(!game(&plain, 2).opponent_left.as_ref().unwrap().known_gap);
}

#[test]
fn games_as_black_find_deviations_and_transpositions_back() {
    let rep = repertoire("compare_black.pgn");
    let c = compare_fixture(&rep, Color::Black);
    assert_eq!(
        c.games.iter().map(|g| g.game).collect::<Vec<_>>(),
        [5, 6, 9]
    );
    assert_eq!(c.summary.other_colour, 5);

    // Game 5: 1.c4 leaves at move 1; 3.d4 transposes back (1.d4 Nf6 2.c4 e6 3.Nc3);
    // the repertoire ends after 3...Bb4.
    let g5 = game(&c, 5);
    let d = g5.opponent_left.as_ref().unwrap();
    assert_eq!((d.ply, d.san.as_str()), (1, "c4"));
    assert_eq!(d.repertoire, ["d4", "e4"]);
    assert!(d.known_gap, "1.c4 is likely and unanswered");
    assert_eq!(g5.returns.len(), 1);
    assert_eq!(g5.returns[0].ply, 5);
    assert_eq!(describe(&g5.returns[0].moves, &[]).sans, "c4 e6 Nc3 Nf6 d4");
    assert_eq!(
        NodeKey::from_position(&position_after("c4 e6 Nc3 Nf6 d4")),
        NodeKey::from_position(&position_after("d4 Nf6 c4 e6 Nc3"))
    );
    assert_eq!(g5.repertoire_end, Some(6));
    assert!(g5.player_left.is_none());

    // Game 6: 5...g6 instead of 5...a6.
    let d = game(&c, 6).player_left.as_ref().unwrap();
    assert_eq!((d.ply, d.san.as_str()), (10, "g6"));
    assert_eq!(d.repertoire, ["a6"]);

    // Game 9: 2.Nf3 leaves, 3.c4 comes back (the 3.Nf3 line), then 3...Bb4+ leaves.
    let g9 = game(&c, 9);
    assert_eq!(g9.opponent_left.as_ref().unwrap().ply, 3);
    assert_eq!(g9.returns[0].ply, 5);
    let d = g9.player_left.as_ref().unwrap();
    assert_eq!((d.ply, d.san.as_str()), (6, "Bb4+"));
    assert_eq!(d.repertoire, ["b6"]);
    assert_eq!(g9.first_exit().unwrap().0, Mover::Opponent);
    assert_eq!(c.summary.returned, 2);
}

#[test]
fn the_most_frequent_player_of_a_file_is_its_owner() {
    let games = import_fixture("compare_games.pgn", ImportMode::Games).lines;
    assert_eq!(
        most_frequent_player(&games).as_deref(),
        Some("Hastings Learner")
    );
}
