//! Exposure (reach probabilities), gaps, coverage and redundancy of repertoires against
//! the ECO book: hand-checked cases, numbers from an independent implementation
//! (`docs/coverage_reference.py`), and sampled drills.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::Arc;

use hastings::book::polyglot::SharedBook;
use hastings::book::{ImportMode, NodeKey, PositionGraph, eco};
use hastings::sampler::{Distribution, MoveSource, Popularity, Style, move_share};
use hastings::trainer::coverage::{
    CoverageOptions, LearnerSplit, Outcome, exposure, exposure_from,
};
use hastings::trainer::{MoveOutcome, Phase, Session};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;
use shakmaty::{Chess, Color, Move, Position};

use crate::common;
use common::{eco_graph, import_fixture, position_after, san_moves};

/// A repertoire fixture's graph (read as a repertoire).
fn repertoire(name: &str) -> PositionGraph {
    PositionGraph::build(import_fixture(name, ImportMode::Repertoire).lines).graph
}

fn key(sans: &str) -> NodeKey {
    NodeKey::from_position(&position_after(sans))
}

fn options(learner: Color, depth: u32) -> CoverageOptions {
    CoverageOptions {
        depth,
        min_mass: 0.0,
        ..CoverageOptions::new(learner)
    }
}

fn tau0() -> Style {
    Style::from_vectors([0; 5], [0.4; 5], 0.0).unwrap()
}

/// The exact distribution at the position after `sans` (s_prev from the last move, as
/// the drill computes it).
fn exact(graph: &PositionGraph, sans: &str, style: &Style) -> Distribution {
    let moves = san_moves(sans);
    let (pos, s_prev) = hastings::sampler::replay(graph, &moves, style);
    let node = graph.lookup(&pos).unwrap();
    Distribution::at(graph, node, &pos, style, s_prev)
}

fn san_of(pos: &Chess, mv: Move) -> String {
    shakmaty::san::San::from_move(pos, mv).to_string()
}

#[test]
fn unanswered_first_replies_to_e4_are_the_gaps_with_their_exact_probability() {
    // docs/coverage.md: White plays 1.e4 and answers only e5, c5 and e6; ECO, neutral, τ = 0.
    let rep = repertoire("coverage_e4.pgn");
    let style = tau0();
    let ex = exposure(&rep, eco_graph(), &style, &options(Color::White, 3));
    let after_e4 = position_after("e4");
    let d = exact(eco_graph(), "e4", &style);
    let mut expected: Vec<(String, f64)> = d
        .candidates
        .iter()
        .filter(|c| c.p >= 0.005)
        .map(|c| (san_of(&after_e4, c.mv), c.p))
        .filter(|(san, _)| !["e5", "c5", "e6"].contains(&san.as_str()))
        .collect();
    expected.sort_by(|a, b| b.1.total_cmp(&a.1));
    let gaps: Vec<(String, f64)> = ex
        .gaps()
        .iter()
        .map(|g| (san_of(&after_e4, g.moves[1]), g.reach))
        .collect();
    assert_eq!(
        gaps.iter().map(|g| &g.0).collect::<Vec<_>>(),
        expected.iter().map(|e| &e.0).collect::<Vec<_>>(),
        "the gaps are the likely unanswered replies, most likely first"
    );
    for ((san, reach), (_, p)) in gaps.iter().zip(&expected) {
        assert!((reach - p).abs() < 1e-4, "{san}: reach {reach}, P {p}");
    }
    // The same numbers from docs/coverage_reference.py (python-chess, path enumeration).
    for (san, reference) in [
        ("c6", 0.0544824170),
        ("Nf6", 0.0277365032),
        ("d5", 0.0237741456),
        ("d6", 0.0217929668),
        ("Nc6", 0.0217929668),
        ("g6", 0.0217929668),
    ] {
        let got = ex.reach(&key(&format!("e4 {san}")));
        assert!(
            (got - reference).abs() < 1e-9,
            "{san}: {got} vs {reference}"
        );
    }
    assert!(ex.gaps().iter().all(|g| g.ply == 2 && !g.theory.is_empty()));
}

#[test]
fn reach_is_the_product_of_exact_probabilities_summed_over_both_move_orders() {
    let rep = repertoire("coverage_transposition.pgn");
    let style = Style::neutral();
    let eco = eco_graph();
    let ex = exposure(&rep, eco, &style, &options(Color::White, 6));

    // By hand: 1.d4 and 1.c4 get half each; Black's reply its exact P; White's move into
    // the shared position carries its own share as s_prev, which differs by move order.
    let p_d4_nf6 = exact(eco, "d4", &style)
        .candidate_for(san_moves("d4 Nf6")[1])
        .unwrap()
        .p;
    let p_c4_nf6 = exact(eco, "c4", &style)
        .candidate_for(san_moves("c4 Nf6")[1])
        .unwrap()
        .p;
    let via_d4 = 0.5 * p_d4_nf6;
    let via_c4 = 0.5 * p_c4_nf6;
    let merged = key("d4 Nf6 c4");
    assert_eq!(merged, key("c4 Nf6 d4"), "one position, two move orders");
    assert!((ex.reach(&merged) - (via_d4 + via_c4)).abs() < 1e-12);

    let s_d4 = move_share(
        eco,
        &position_after("d4 Nf6"),
        san_moves("d4 Nf6 c4")[2],
        &style,
    );
    let s_c4 = move_share(
        eco,
        &position_after("c4 Nf6"),
        san_moves("c4 Nf6 d4")[2],
        &style,
    );
    assert!(
        (s_d4 - s_c4).abs() > 1e-3,
        "the two paths bring different s_prev"
    );
    let pos = position_after("d4 Nf6 c4");
    let node = eco.lookup(&pos).unwrap();
    let e6 = san_moves("d4 Nf6 c4 e6")[3];
    let p_e6 = |s| {
        Distribution::at(eco, node, &pos, &style, s)
            .candidate_for(e6)
            .unwrap()
            .p
    };
    assert!(
        (p_e6(s_d4) - p_e6(s_c4)).abs() > 1e-4,
        "so 2...e6 has two probabilities"
    );
    let want = via_d4 * p_e6(s_d4) + via_c4 * p_e6(s_c4);
    let got = ex.reach(&key("d4 Nf6 c4 e6"));
    assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    // Merging the paths before the reply (one s_prev per position) would be wrong:
    let merged_wrong = (via_d4 + via_c4) * p_e6(s_d4);
    assert!((got - merged_wrong).abs() > 1e-4);

    // docs/coverage_reference.py, which enumerates every path separately.
    for (sans, reference) in [
        ("d4", 0.5),
        ("d4 Nf6 c4", 0.2857046339),
        ("d4 d5 c4", 0.2109410666),
        ("d4 Nf6 c4 e6", 0.1242247147),
        ("d4 Nf6 c4 g6", 0.0837152711),
        ("d4 Nf6 c4 e6 Nc3", 0.1242247147),
        ("d4 Nf6 c4 e6 Nc3 Bb4", 0.0903933030),
        ("d4 Nf6 c4 e6 Nc3 d5", 0.0317169484),
    ] {
        let got = ex.reach(&key(sans));
        assert!(
            (got - reference).abs() < 1e-9,
            "{sans}: {got} vs {reference}"
        );
    }
}

#[test]
fn a_style_and_tau_change_the_reach_as_the_reference_says() {
    let rep = repertoire("coverage_transposition.pgn");
    let style = Style::from_vectors([0, 0, 1, 0, 0], [0.4; 5], 0.5).unwrap();
    let ex = exposure(&rep, eco_graph(), &style, &options(Color::White, 6));
    // docs/coverage_reference.py, second block.
    for (sans, reference) in [
        ("d4 Nf6 c4", 0.2659601896),
        ("d4 Nf6 c4 e6", 0.1202325208),
        ("d4 Nf6 c4 e6 Nc3 Bb4", 0.0874883449),
        ("d4 Nf6 c4 e6 Nc3 d5", 0.0306976649),
    ] {
        let got = ex.reach(&key(sans));
        assert!(
            (got - reference).abs() < 1e-9,
            "{sans}: {got} vs {reference}"
        );
    }
    let gaps: Vec<(String, f64)> = ex
        .gaps()
        .iter()
        .take(4)
        .map(|g| {
            (
                hastings::trainer::coverage::describe(&g.moves, &[]).sans,
                g.reach,
            )
        })
        .collect();
    for ((sans, reach), (want, reference)) in gaps.iter().zip([
        ("d4 Nf6 c4 g6", 0.0799276114),
        ("d4 d5 c4 e6", 0.0781993362),
        ("d4 d5 c4 c6", 0.0716279634),
    ]) {
        assert_eq!(sans, want);
        assert!((reach - reference).abs() < 1e-9, "{sans}: {reach}");
    }
}

#[test]
fn castling_rights_keep_two_paths_into_one_position_apart() {
    // The position after ...Bc5 is reached with White's castling rights (O-O is legal)
    // and, after Kf1 … Ke1, without them (only d3).
    let text = "eco\tname\tpgn\n\
                C50\tA\t1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O\n\
                C50\tB\t1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Kf1 Ng8 5. Ke1 Bc5 6. d3\n";
    let theory = PositionGraph::build(eco::parse_tsv("c.tsv", text).lines).graph;
    // Black's repertoire plays both lines.
    let rep = PositionGraph::build(eco::parse_tsv("c.tsv", text).lines).graph;
    let style = Style::neutral();
    let ex = exposure(&rep, &theory, &style, &options(Color::Black, 12));
    let with_rights = position_after("e4 e5 Nf3 Nc6 Bc4 Bc5");
    let without = position_after("e4 e5 Nf3 Nc6 Bc4 Nf6 Kf1 Ng8 Ke1 Bc5");
    assert_eq!(
        NodeKey::from_position(&with_rights),
        NodeKey::from_position(&without)
    );
    // Each Black choice at move 3 has half; s_prev after ...Bc5 differs by path.
    let node = theory.lookup(&with_rights).unwrap();
    let p = |pos: &Chess, s_prev: f64, san: &str| {
        let mv = shakmaty::san::San::from_ascii(san.as_bytes())
            .unwrap()
            .to_move(pos)
            .unwrap();
        Distribution::at(&theory, node, pos, &style, s_prev)
            .candidate_for(mv)
            .map_or(0.0, |c| c.p)
    };
    let s_a = move_share(
        &theory,
        &position_after("e4 e5 Nf3 Nc6 Bc4"),
        san_moves("e4 e5 Nf3 Nc6 Bc4 Bc5")[5],
        &style,
    );
    let castled = ex.reach(&key("e4 e5 Nf3 Nc6 Bc4 Bc5 O-O"));
    assert!((castled - 0.5 * p(&with_rights, s_a, "O-O")).abs() < 1e-12);
    assert!(
        castled > 0.0 && castled < 0.5,
        "only the path with rights castles"
    );
    // Without the rights only d3 is legal. That path is half as likely: back at the
    // position after 3.Bc4 (without rights now) Black again chooses ...Bc5 or ...Nf6.
    assert_eq!(p(&without, s_a, "d3"), 1.0);
    let d3 = ex.reach(&key("e4 e5 Nf3 Nc6 Bc4 Bc5 d3"));
    let want = 0.5 * p(&with_rights, s_a, "d3") + 0.25 * 1.0;
    assert!((d3 - want).abs() < 1e-12, "{d3} vs {want}");
    assert!((castled + d3 - 0.75).abs() < 1e-12, "{castled} + {d3}");
}

#[test]
fn the_masses_add_up_and_a_minimum_mass_cuts() {
    // ECO as White's repertoire: many moves everywhere, so small states are cut.
    let rep = eco_graph();
    let style = Style::neutral();
    let full = exposure(rep, eco_graph(), &style, &options(Color::White, 8));
    assert_eq!(full.mass_cut(), 0.0);
    let total = full.mass_cut() + full.mass_ended() + full.mass_at_depth();
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    let endings: f64 = full.endings().iter().map(|e| e.reach).sum();
    assert!((endings - 1.0).abs() < 1e-12);

    let cut = exposure(
        rep,
        eco_graph(),
        &style,
        &CoverageOptions {
            min_mass: 0.01,
            ..options(Color::White, 8)
        },
    );
    assert!(cut.mass_cut() > 0.0);
    let total = cut.mass_cut() + cut.mass_ended() + cut.mass_at_depth();
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    let cut_endings: f64 = cut
        .endings()
        .iter()
        .filter(|e| e.outcome == Outcome::Cut)
        .map(|e| e.reach)
        .sum();
    assert!((cut_endings - cut.mass_cut()).abs() < 1e-12);
    assert!(
        cut.endings()
            .iter()
            .filter(|e| e.outcome == Outcome::Cut)
            .all(|e| e.reach < 0.01 + 1e-12)
    );
    // What is above the cut is unchanged.
    assert_eq!(cut.reach(&key("e4 e5")), full.reach(&key("e4 e5")));
    assert!(cut.state_count() < full.state_count());
}

#[test]
fn coverage_by_depth_counts_the_answered_learner_positions() {
    let rep = repertoire("coverage_e4.pgn");
    let style = tau0();
    let ex = exposure(&rep, eco_graph(), &style, &options(Color::White, 5));
    let c = ex.coverage();
    assert_eq!(c.iter().map(|d| d.ply).collect::<Vec<_>>(), [0, 2, 4]);
    assert_eq!((c[0].reach, c[0].covered), (1.0, 1.0));
    let answered: f64 = ["e4 e5", "e4 c5", "e4 e6"]
        .iter()
        .map(|s| ex.reach(&key(s)))
        .sum();
    assert!((c[1].reach - 1.0).abs() < 1e-12);
    assert!((c[1].covered - answered).abs() < 1e-12);
    // At ply 4 the repertoire has ended everywhere: nothing is covered.
    assert!((c[2].reach - answered).abs() < 1e-12);
    assert_eq!(c[2].covered, 0.0);
}

#[test]
fn redundancy_and_the_weighted_split_follow_the_repertoires_moves() {
    let rep = repertoire("coverage_transposition.pgn");
    let style = Style::neutral();
    let even = exposure(&rep, eco_graph(), &style, &options(Color::White, 4));
    let red = even.redundant();
    assert_eq!(red.len(), 1, "{red:?}");
    assert_eq!(red[0].ply, 0);
    assert_eq!(red[0].reach, 1.0);
    let sans: Vec<String> = red[0]
        .repertoire
        .iter()
        .map(|m| san_of(&Chess::default(), *m))
        .collect();
    assert_eq!(sans, ["d4", "c4"]);
    assert_eq!(even.reach(&key("d4")), 0.5);
    // By weight: two lines start 1.d4, one 1.c4.
    let weighted = exposure(
        &rep,
        eco_graph(),
        &style,
        &CoverageOptions {
            split: LearnerSplit::ByWeight,
            ..options(Color::White, 4)
        },
    );
    assert!((weighted.reach(&key("d4")) - 2.0 / 3.0).abs() < 1e-12);
    assert!((weighted.reach(&key("c4")) - 1.0 / 3.0).abs() < 1e-12);
}

/// Plays `n` drills with a [`Session`] on the theory book, the learner picking one of
/// the repertoire's moves uniformly, each until `depth` plies or the end; counts where
/// they stopped (ply, position).
fn sample_drills(
    rep: &PositionGraph,
    theory: Arc<PositionGraph>,
    style: &Style,
    depth: u32,
    n: u32,
    seed: u64,
    books: &[(SharedBook, Popularity)],
) -> FxHashMap<(u32, NodeKey), u32> {
    let mut session = Session::new(theory, Color::White, style.clone(), seed);
    if let Some((book, popularity)) = books.first() {
        session.set_books(vec![book.clone()], *popularity);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut counts = FxHashMap::default();
    for _ in 0..n {
        session.new_line();
        let mut ply = 0;
        while ply < depth {
            match session.phase() {
                Phase::LearnerToMove => {
                    let pos = session.position().clone();
                    let moves: Vec<Move> = rep
                        .lookup(&pos)
                        .map(|node| {
                            rep.continuations(node)
                                .iter()
                                .filter(|c| pos.is_legal(c.mv))
                                .map(|c| c.mv)
                                .collect()
                        })
                        .unwrap_or_default();
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[rng.random_range(0..moves.len())];
                    assert!(matches!(session.play(mv), MoveOutcome::Accepted { .. }));
                }
                Phase::ComputerToMove => {
                    session.reply().unwrap();
                }
                _ => break,
            }
            ply += 1;
        }
        *counts
            .entry((ply, NodeKey::from_position(session.position())))
            .or_default() += 1;
    }
    counts
}

fn assert_drills_match(
    rep_name: &str,
    style: &Style,
    depth: u32,
    seed: u64,
    books: &[(SharedBook, Popularity)],
) {
    const N: u32 = 20_000;
    let rep = repertoire(rep_name);
    let theory = common::eco();
    let source = match books.first() {
        Some((book, popularity)) => MoveSource::new(&theory, vec![book.book()], *popularity),
        None => MoveSource::graph(&theory),
    };
    let ex = exposure_from(&rep, &source, style, &options(Color::White, depth));
    let counts = sample_drills(&rep, Arc::clone(&theory), style, depth, N, seed, books);
    let expected: Vec<((u32, NodeKey), f64)> = ex
        .endings()
        .iter()
        .map(|e| ((e.ply, e.key), e.reach * f64::from(N)))
        .collect();
    for k in counts.keys() {
        assert!(
            expected.iter().any(|(e, _)| e == k),
            "a drill stopped where the exposure has no ending: ply {}",
            k.0
        );
    }
    // Cells with fewer than 5 expected drills are pooled.
    let (mut chi2, mut cells) = (0.0, 0usize);
    let (mut pooled_e, mut pooled_o) = (0.0, 0.0);
    for (k, e) in &expected {
        let o = f64::from(counts.get(k).copied().unwrap_or(0));
        if *e >= 5.0 {
            chi2 += (o - e).powi(2) / e;
            cells += 1;
        } else {
            pooled_e += e;
            pooled_o += o;
        }
    }
    if pooled_e > 0.0 {
        chi2 += (pooled_o - pooled_e).powi(2) / pooled_e;
        cells += 1;
    }
    assert!(cells > 10, "a test needs many cells, got {cells}");
    let bound = common::chi2_critical(cells - 1);
    assert!(
        chi2 < bound,
        "{rep_name}: chi2 = {chi2:.1} over {cells} cells exceeds {bound:.1}"
    );
}

#[test]
fn sampled_drills_end_where_the_exposure_says() {
    assert_drills_match("coverage_transposition.pgn", &Style::neutral(), 6, 11, &[]);
}

#[test]
fn sampled_drills_with_style_and_no_transpositions_end_where_the_exposure_says() {
    let style = Style::from_vectors([1, 0, 0, 0, 1], [0.4; 5], 0.0).unwrap();
    assert_drills_match("coverage_e4.pgn", &style, 4, 12, &[]);
}

#[test]
fn sampled_drills_with_a_games_book_end_where_the_exposure_says() {
    // ECO blended half and half with the gnuchess book, implied transpositions on: the
    // opponent replies as a drill with that book does, past the ECO lines too.
    let book = SharedBook::gnuchess().unwrap();
    let style = Style::from_vectors([1, 0, 0, 0, 1], [0.3, 0.4, 0.4, 0.4, 0.2], 1.0).unwrap();
    assert_drills_match(
        "coverage_e4.pgn",
        &style,
        4,
        13,
        &[(book, Popularity::Blend(0.5))],
    );
}
