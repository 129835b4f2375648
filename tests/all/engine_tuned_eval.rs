//! Seed 003's evaluation: each feature counted on hand-made positions, the score as the
//! documented weighted sum, and the symmetry of the two sides.

#![allow(clippy::unwrap_used)]

use hastings::engine::tuned::{Feature, PerFeature, TunedEval, Weights, count_features};
use shakmaty::fen::Fen;
use shakmaty::{ByColor, CastlingMode, Chess, EnPassantMode, FromSetup, Position};

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn counts(fen: &str) -> ByColor<PerFeature> {
    count_features(&pos(fen))
}

/// Asserts the listed features of one side.
fn check(side: &PerFeature, expected: &[(Feature, i32)], what: &str) {
    for &(f, v) in expected {
        assert_eq!(side[f], v, "{what}: {f:?}");
    }
}

#[test]
fn a_lone_passed_pawn_is_passed_isolated_central_and_far_from_the_king() {
    let c = counts("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
    check(
        &c.white,
        &[
            (Feature::Pawn, 1),
            (Feature::PassedPawn, 1),
            (Feature::IsolatedPawn, 1),
            (Feature::DoubledPawn, 0),
            (Feature::BackwardPawn, 0),
            (Feature::CentrePawn, 1),
            // Black's king e8 to d5: one file and three ranks.
            (Feature::PassedPawnKingDistance, 4),
            // Ahead of the king e1 on the next file, and off its first square.
            (Feature::KingShelterPawn, 0),
            (Feature::KingShelterPawnAdjacent, 1),
            (Feature::KingShelterPawnAdvanced, 1),
        ],
        "white",
    );
    // Four ranks ahead of Black's king on the next file.
    check(
        &c.black,
        &[
            (Feature::KingEnemyPawnAdjacent, 1),
            (Feature::KingEnemyPawn, 0),
        ],
        "black",
    );
    // An enemy pawn ahead on the next file stops it being passed.
    let c = counts("4k3/8/4p3/3P4/8/8/8/4K3 w - - 0 1");
    assert_eq!(c.white[Feature::PassedPawn], 0);
    assert_eq!(c.black[Feature::PassedPawn], 0);
    assert_eq!(c.white[Feature::PassedPawnKingDistance], 0);
}

#[test]
fn doubled_pawns_count_beyond_the_first_on_a_file() {
    let c = counts("4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1");
    check(
        &c.white,
        &[
            (Feature::DoubledPawn, 1),
            (Feature::IsolatedPawn, 2),
            (Feature::PassedPawn, 2),
        ],
        "white",
    );
    let c = counts("4k3/8/8/8/2P5/2P5/2P5/4K3 w - - 0 1");
    assert_eq!(c.white[Feature::DoubledPawn], 2);
}

#[test]
fn a_pawn_left_behind_with_its_stop_square_attacked_is_backward() {
    // d3 has c4 and e4 ahead of it, so nothing can defend it; c5 attacks d4.
    let c = counts("4k3/8/8/2p5/2P1P3/3P4/8/4K3 w - - 0 1");
    check(
        &c.white,
        &[
            (Feature::BackwardPawn, 1),
            (Feature::IsolatedPawn, 0),
            // e4: no black pawn on the d, e or f files.
            (Feature::PassedPawn, 1),
            (Feature::CentrePawn, 1),
            (Feature::PassedPawnKingDistance, 4),
        ],
        "white",
    );
    // c5 is isolated, and an isolated pawn is not also backward.
    check(
        &c.black,
        &[
            (Feature::IsolatedPawn, 1),
            (Feature::BackwardPawn, 0),
            (Feature::PassedPawn, 0),
        ],
        "black",
    );
}

#[test]
fn rooks_on_open_files_connect_and_count_their_squares() {
    let c = counts("6k1/5ppp/8/8/8/8/5PPP/R3R1K1 w - - 0 1");
    check(
        &c.white,
        &[
            (Feature::RookOpenFile, 2),
            (Feature::RookSemiOpenFile, 0),
            (Feature::RooksConnected, 1),
            // a1: seven up the file and b1-d1; e1: seven up, d1-b1 and f1.
            (Feature::RookMobility, 21),
            (Feature::RookKingFile, 0),
            (Feature::RookKingAdjacentFile, 0),
            (Feature::KingShelterPawn, 1),
            (Feature::KingShelterPawnAdjacent, 2),
            (Feature::KingShelterPawnAdvanced, 0),
            // a1 is 6 + 7 from g8, e1 is 2 + 7: (14 − 13) + (14 − 9).
            (Feature::KingPressure, 6),
            (Feature::IsolatedPawn, 0),
            (Feature::PassedPawn, 0),
        ],
        "white",
    );
    check(
        &c.black,
        &[
            (Feature::KingShelterPawn, 1),
            (Feature::KingShelterPawnAdjacent, 2),
            (Feature::RooksConnected, 0),
        ],
        "black",
    );
    // A knight between them: not connected.
    let c = counts("6k1/5ppp/8/8/8/8/5PPP/R1N1R1K1 w - - 0 1");
    assert_eq!(c.white[Feature::RooksConnected], 0);
}

#[test]
fn a_rook_on_a_half_open_file_eyes_the_weak_pawn_and_the_kings_side() {
    // Black's rook d8: no black pawn on the d-file, White's isolated d3 on it, and
    // White's king on the next file.
    let c = counts("3rk3/8/8/8/8/3P4/8/4K3 b - - 0 1");
    check(
        &c.black,
        &[
            (Feature::RookSemiOpenFile, 1),
            (Feature::RookOpenFile, 0),
            (Feature::RookAttacksWeakPawn, 1),
            (Feature::RookKingAdjacentFile, 1),
            (Feature::RookKingFile, 0),
            // In front of White's passed pawn, not behind it.
            (Feature::RookBehindPassedPawn, 0),
        ],
        "black",
    );
}

#[test]
fn a_rook_behind_a_passed_pawn_is_where_it_belongs() {
    let c = counts("4k3/8/8/8/P7/8/8/R3K3 w - - 0 1");
    assert_eq!(c.white[Feature::RookBehindPassedPawn], 1);
    assert_eq!(
        c.white[Feature::RookOpenFile] + c.white[Feature::RookSemiOpenFile],
        0
    );
    // Behind an enemy passed pawn: above a black pawn going down.
    let c = counts("r3k3/8/8/8/8/8/p7/4K3 w - - 0 1");
    assert_eq!(c.black[Feature::RookBehindPassedPawn], 1);
    let c = counts("4k3/r7/8/8/8/8/p7/4K3 w - - 0 1");
    assert_eq!(c.black[Feature::RookBehindPassedPawn], 1);
    let c = counts("4k3/8/8/8/8/8/p7/r3K3 w - - 0 1");
    assert_eq!(c.black[Feature::RookBehindPassedPawn], 0);
}

#[test]
fn a_knight_defended_by_a_pawn_where_no_pawn_can_chase_it_is_an_outpost() {
    let c = counts("4k3/2p5/8/4N3/3P4/8/8/4K3 w - - 0 1");
    check(
        &c.white,
        &[(Feature::KnightOutpost, 1), (Feature::KnightMobility, 8)],
        "white",
    );
    // A black pawn on the f-file can still come to f6.
    let c = counts("4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1");
    assert_eq!(c.white[Feature::KnightOutpost], 0);
    // Undefended.
    let c = counts("4k3/2p5/8/4N3/8/8/8/4K3 w - - 0 1");
    assert_eq!(c.white[Feature::KnightOutpost], 0);
    // On its own half.
    let c = counts("4k3/2p5/8/8/8/4N3/3P4/4K3 w - - 0 1");
    assert_eq!(c.white[Feature::KnightOutpost], 0);
}

#[test]
fn two_bishops_are_a_pair_and_see_their_diagonals() {
    let c = counts("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1");
    check(
        &c.white,
        &[
            (Feature::Bishop, 2),
            (Feature::BishopPair, 1),
            (Feature::BishopMobility, 14),
            // c1: 2 + 7 from e8; f1: 1 + 7.
            (Feature::KingPressure, 11),
            // Michniewski's bishop table on c1 and f1: −10 each.
            (Feature::BishopTable, -20),
        ],
        "white",
    );
    let c = counts("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert_eq!(c.white[Feature::BishopPair], 0);
}

#[test]
fn enemy_pawns_storming_the_king_are_counted_within_four_ranks() {
    let c = counts("6k1/8/8/8/6p1/7p/8/6K1 w - - 0 1");
    check(
        &c.white,
        &[
            (Feature::KingEnemyPawn, 1),
            (Feature::KingEnemyPawnAdjacent, 1),
        ],
        "white",
    );
    // Five ranks away is too far.
    let c = counts("6k1/8/8/8/8/8/8/6K1 w - - 0 1");
    assert_eq!(c.white[Feature::KingEnemyPawn], 0);
    let c = counts("6k1/8/6p1/8/8/8/8/6K1 w - - 0 1");
    assert_eq!(c.white[Feature::KingEnemyPawn], 0);
}

#[test]
fn the_queen_counts_its_free_squares() {
    let c = counts("4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1");
    assert_eq!(c.white[Feature::QueenMobility], 27);
    let c = counts("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
    // a-file 7, first rank b1-d1 3, the long diagonal 7.
    assert_eq!(c.white[Feature::QueenMobility], 17);
}

#[test]
fn only_the_mated_side_to_move_counts_checkmate() {
    // Fool's mate.
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let c = counts(mate);
    assert_eq!(c.white[Feature::Checkmate], 1);
    assert_eq!(c.black[Feature::Checkmate], 0);
    let eval = TunedEval::new(Weights::seed_coevolved());
    assert!(eval.evaluate(&pos(mate)) < -15_000);
    assert_eq!(
        counts("4k3/8/8/8/8/8/8/4K3 w - - 0 1").white[Feature::Checkmate],
        0
    );
}

#[test]
fn the_king_table_turns_to_the_endgame_when_the_pieces_are_off() {
    // A queen and a rook each (phase 12): the middlegame table, g1 is +30.
    let c = counts("3qk2r/8/8/8/8/8/8/3Q2KR w - - 0 1");
    assert_eq!(c.white[Feature::KingTable], 30);
    // Rooks only (phase 4): the endgame table, g1 is −30.
    let c = counts("4k2r/8/8/8/8/8/8/6KR w - - 0 1");
    assert_eq!(c.white[Feature::KingTable], -30);
}

#[test]
fn the_score_is_the_weighted_sum_of_the_differences() {
    // With the seed's co-evolved weights: pawn 100, passed +20, isolated −52, king
    // distance +27 × 10 (e8 to a2), the pawn table +41 × 5 tenths; the kings' endgame
    // squares cancel.
    let p = pos("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
    let eval = TunedEval::new(Weights::seed_coevolved());
    assert_eq!(eval.white_score(&p), 358);
    let black_to_move = pos("4k3/8/8/8/8/8/P7/4K3 b - - 0 1");
    assert_eq!(eval.evaluate(&black_to_move), -358);
}

/// The position with colours swapped and the board flipped top to bottom.
fn mirrored(p: &Chess) -> Chess {
    let mut setup = p.to_setup(EnPassantMode::Legal);
    setup.mirror();
    Chess::from_setup(setup, CastlingMode::Standard).unwrap()
}

#[test]
fn both_sides_count_alike_so_the_mirror_scores_the_same_for_the_side_to_move() {
    let eval = TunedEval::new(Weights::seed_ga());
    for fen in [
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "2r3k1/1q3pp1/p2p3p/1p1Pp3/1P2P1n1/P1N2RPP/2Q3K1/5R2 b - - 0 30",
    ] {
        let p = pos(fen);
        let m = mirrored(&p);
        let (a, b) = (count_features(&p), count_features(&m));
        assert_eq!(a.white, b.black, "{fen}");
        assert_eq!(a.black, b.white, "{fen}");
        assert_eq!(eval.white_score(&p), -eval.white_score(&m), "{fen}");
        assert_eq!(eval.evaluate(&p), eval.evaluate(&m), "{fen}");
        assert_ne!(
            eval.white_score(&p),
            0,
            "{fen}: the test needs asymmetric positions"
        );
    }
}

#[test]
fn every_shipped_weights_file_loads_and_names_its_command() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/eval");
    for name in ["seed003.ron", "seed003-ga.ron", "seed003-ga3k.ron"] {
        let (_, file) = hastings::workspace::eval_files::read_weights(&dir.join(name)).unwrap();
        assert!(
            file.made_by.starts_with("hastings train eval "),
            "{name}: {}",
            file.made_by
        );
    }
}
