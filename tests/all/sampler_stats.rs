//! The sampler against docs/sampler.md: reference numbers, sampling statistics, invariants.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::sync::LazyLock;

use hastings::book::{NodeId, PositionGraph, eco};
use hastings::sampler::{CandidateKind, Distribution, ExploreLimits, Style, explore, move_share};

const LIMITS: ExploreLimits = ExploreLimits {
    iterations: 2000,
    ply_limit: 40,
};
use proptest::prelude::*;

use crate::common;
use common::position_after as play;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Position, san::San};

static ECO: LazyLock<&PositionGraph> = LazyLock::new(common::eco_graph);

/// `s_prev` after `moves`: the share of the last move where it was played.
fn game_s_prev(moves: &str, style: &Style) -> f64 {
    let sans: Vec<&str> = moves.split_whitespace().collect();
    let Some((last, before)) = sans.split_last() else {
        return 1.0;
    };
    let pos = play(&before.join(" "));
    let mv = San::from_ascii(last.as_bytes())
        .unwrap()
        .to_move(&pos)
        .unwrap();
    move_share(&ECO, &pos, mv, style)
}

/// (SAN, P) of every candidate at the position after `moves`, with `s_prev` from the game.
fn probabilities(moves: &str, style: &Style) -> Vec<(String, f64)> {
    let s_prev = game_s_prev(moves, style);
    let pos = play(moves);
    let node = ECO.lookup(&pos).unwrap();
    Distribution::at(&ECO, node, &pos, style, s_prev)
        .candidates
        .iter()
        .map(|c| (ECO.san(node, c.mv).to_string(), c.p))
        .collect()
}

fn p_of(table: &[(String, f64)], san: &str) -> f64 {
    table
        .iter()
        .find(|(s, _)| s == san)
        .map(|(_, p)| *p)
        .unwrap_or_else(|| panic!("no candidate {san} in {table:?}"))
}

fn assert_reference(table: &[(String, f64)], expected: &[(&str, f64)]) {
    for (san, p) in expected {
        let got = p_of(table, san);
        assert!((got - p).abs() < 1e-4, "P({san}) = {got:.6}, reference {p}");
    }
}

#[test]
fn start_without_style_matches_the_reference_for_any_tau() {
    for tau in [0.0, 0.5, 1.0] {
        let style = Style::from_vectors([0; 5], [0.4; 5], tau).unwrap();
        let table = probabilities("", &style);
        assert_reference(
            &table,
            &[
                ("e4", 0.5306),
                ("d4", 0.3381),
                ("c4", 0.0531),
                ("Nf3", 0.0286),
            ],
        );
    }
}

#[test]
fn prioritising_c4_lifts_it_to_the_reference() {
    let style = Style::from_vectors([0, 0, 1, 0, 0], [0.4; 5], 0.0).unwrap();
    let table = probabilities("", &style);
    assert_reference(&table, &[("e4", 0.3790), ("c4", 0.3236), ("d4", 0.2415)]);
}

#[test]
fn gambits_after_king_knight_match_the_reference() {
    let style = Style::from_vectors([1, 0, 0, 0, 0], [0.4; 5], 0.0).unwrap();
    // s_prev is the share 2.Nf3 had after 1.e4 e5 in this game (0.6705), not 1.
    assert!((game_s_prev("e4 e5 Nf3", &style) - 0.670_542_6).abs() < 1e-6);
    let table = probabilities("e4 e5 Nf3", &style);
    assert_reference(&table, &[("Nc6", 0.2660), ("f5", 0.1207), ("d5", 0.1087)]);
}

/// `P(y | x)` after 1.d4 Nf6 2.c4 with gambits, uncommon and 1.d4 on (weights 0.3, 0.2,
/// 0.1), τ = 0.7 and `s_prev` = 0.25: (SAN, implied transposition, P). Computed
/// independently of this crate by `python3 docs/sampler_reference.py` (plain Python
/// from docs/sampler.md; the same script reproduces the reference rows of §5).
const D4_NF6_C4: [(&str, bool, f64); 11] = [
    ("e6", false, 0.199_772_582_1),
    ("g6", false, 0.199_772_582_1),
    ("c5", false, 0.117_542_256_9),
    ("e5", false, 0.095_132_437_1),
    ("d5", true, 0.081_846_557_0),
    ("b5", false, 0.081_292_978_7),
    ("g5", false, 0.081_292_978_7),
    ("Nc6", false, 0.052_711_037_2),
    ("d6", false, 0.047_914_182_1),
    ("b6", false, 0.021_361_204_1),
    ("c6", false, 0.021_361_204_1),
];

#[test]
fn exact_probabilities_match_an_independent_computation() {
    let style = Style::from_vectors([1, 1, 0, 1, 0], [0.3, 0.2, 0.4, 0.1, 0.5], 0.7).unwrap();
    let pos = play("d4 Nf6 c4");
    let node = ECO.lookup(&pos).unwrap();
    let d = Distribution::at(&ECO, node, &pos, &style, 0.25);
    let mut got: Vec<(String, bool, f64)> = d
        .candidates
        .iter()
        .map(|c| {
            (
                ECO.san(node, c.mv).to_string(),
                c.kind == CandidateKind::Transposition,
                c.p,
            )
        })
        .collect();
    got.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
    assert_eq!(got.len(), D4_NF6_C4.len(), "{got:?}");
    for (san, transposition, p) in D4_NF6_C4 {
        let Some((_, kind, q)) = got.iter().find(|(s, _, _)| s == san) else {
            panic!("no candidate {san} in {got:?}");
        };
        assert_eq!(*kind, transposition, "{san}: {got:?}");
        assert!((q - p).abs() < 1e-9, "P({san}) = {q:.10}, reference {p}");
    }
}

/// Runs 100,000 MH steps with a fixed seed and checks the frequencies against `P`
/// with a chi-square test at p = 0.001. Returns the statistic.
fn check_frequencies(moves: &str, style: &Style, s_prev: f64, seed: u64) -> f64 {
    const N: usize = 100_000;
    let pos = play(moves);
    let node = ECO.lookup(&pos).unwrap();
    let d = Distribution::at(&ECO, node, &pos, style, s_prev);
    assert!(d.candidates.len() > 1, "a test position needs a choice");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts = vec![0usize; d.candidates.len()];
    let mut proposals = 0u64;
    for _ in 0..N {
        let step = d.step(&mut rng).unwrap();
        counts[step.index] += 1;
        proposals += u64::from(step.proposals);
    }
    let chi2: f64 = d
        .candidates
        .iter()
        .zip(&counts)
        .map(|(c, &o)| {
            let e = c.p * N as f64;
            (o as f64 - e).powi(2) / e
        })
        .sum();
    let bound = common::chi2_critical(d.candidates.len() - 1);
    assert!(
        chi2 < bound,
        "after `{moves}` chi2 = {chi2:.1} exceeds {bound:.1}; counts {counts:?}"
    );
    // Mean proposals per step is |Y| / Σ min(1, A).
    let norm: f64 = d.candidates.iter().map(|c| c.acceptance.min(1.0)).sum();
    let expected = d.candidates.len() as f64 / norm;
    let mean = proposals as f64 / N as f64;
    assert!(
        (mean - expected).abs() / expected < 0.02,
        "mean proposals {mean}, expected {expected}"
    );
    chi2
}

#[test]
fn sampled_replies_match_exact_probabilities_at_the_start() {
    check_frequencies("", &Style::neutral(), 1.0, 1);
    check_frequencies(
        "",
        &Style::from_vectors([0, 0, 1, 0, 0], [0.4; 5], 0.0).unwrap(),
        1.0,
        2,
    );
}

#[test]
fn sampled_replies_match_exact_probabilities_with_transpositions_and_style() {
    let thesis = Style::from_vectors([1, 0, 1, 0, 1], [0.2, 0.2, 0.05, 0.05, 0.05], 1.0).unwrap();
    check_frequencies("d4 Nf6 c4", &thesis, 1.0, 3);
    check_frequencies(
        "e4 e5 Nf3",
        &Style::from_vectors([1, 0, 0, 0, 0], [0.4; 5], 1.0).unwrap(),
        1.0,
        4,
    );
}

#[test]
fn sampled_replies_match_exact_probabilities_after_a_previous_move() {
    // After 1.e4 (a popular move): s_prev is e4's share at the start.
    let s_prev = game_s_prev("e4", &Style::neutral());
    assert!((s_prev - 0.5306).abs() < 1e-4);
    check_frequencies("e4", &Style::neutral(), s_prev, 5);
    // After a rare move every A ≥ 1: the reply is uniform.
    let pos = play("e4 c5 Nf3");
    let node = ECO.lookup(&pos).unwrap();
    let d = Distribution::at(&ECO, node, &pos, &Style::neutral(), 0.001);
    let uniform = 1.0 / d.candidates.len() as f64;
    assert!(d.candidates.iter().all(|c| (c.p - uniform).abs() < 1e-12));
    check_frequencies("e4 c5 Nf3", &Style::neutral(), 0.001, 6);
}

#[test]
fn castling_rights_of_the_actual_game_decide_the_candidates() {
    let text = "eco\tname\tpgn\n\
                C50\tA\t1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O\n\
                C50\tB\t1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Kf1 Ng8 5. Ke1 Bc5 6. d3\n";
    let graph = PositionGraph::build(eco::parse_tsv("c.tsv", text).lines).graph;
    let with_rights = play("e4 e5 Nf3 Nc6 Bc4 Bc5");
    let without = play("e4 e5 Nf3 Nc6 Bc4 Nf6 Kf1 Ng8 Ke1 Bc5");
    let node = graph.lookup(&with_rights).unwrap();
    assert_eq!(
        graph.lookup(&without),
        Some(node),
        "one node for both move orders"
    );
    let sans = |pos: &Chess| -> Vec<String> {
        Distribution::at(&graph, node, pos, &Style::neutral(), 1.0)
            .candidates
            .iter()
            .map(|c| graph.san(node, c.mv).to_string())
            .collect()
    };
    assert_eq!(sans(&with_rights), ["O-O", "d3"]);
    assert_eq!(
        sans(&without),
        ["d3"],
        "a king that has moved cannot castle"
    );
}

#[test]
fn exploration_counts_chains_and_reaches_named_lines() {
    let start = ECO.start().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let ex = explore(
        &ECO,
        start,
        &Chess::default(),
        &Style::neutral(),
        1.0,
        LIMITS,
        &mut rng,
    );
    assert_eq!(ex.first_steps.iter().sum::<u32>(), 2000);
    assert_eq!(ex.visits[&start], 2000);
    assert_eq!(ex.endings.values().sum::<u32>(), 2000);
    let next = ex.next_distribution(start);
    let total: f64 = next.iter().map(|(_, f)| f).sum();
    assert!((total - 1.0).abs() < 1e-9);
    // The first steps follow P at the start (chi-square at p = 0.001).
    let d = Distribution::at(&ECO, start, &Chess::default(), &Style::neutral(), 1.0);
    let chi2: f64 = d
        .candidates
        .iter()
        .zip(&ex.first_steps)
        .filter(|(c, _)| c.p * 2000.0 >= 5.0)
        .map(|(c, &o)| (f64::from(o) - c.p * 2000.0).powi(2) / (c.p * 2000.0))
        .sum();
    assert!(chi2 < common::chi2_critical(3), "chi2 {chi2}");
    let reached = ex.reached(&ECO);
    assert!(reached.len() > 50, "2,000 chains reach many lines");
    assert!(reached.windows(2).all(|w| w[0].1 >= w[1].1));
    // Same seed, same exploration.
    let again = explore(
        &ECO,
        start,
        &Chess::default(),
        &Style::neutral(),
        1.0,
        LIMITS,
        &mut ChaCha8Rng::seed_from_u64(7),
    );
    assert_eq!(again.first_steps, ex.first_steps);
    assert_eq!(again.reached(&ECO), reached);
}

fn arb_style() -> impl Strategy<Value = Style> {
    (
        prop::array::uniform5(0u8..2),
        prop::array::uniform5(0.0f64..=1.0),
        0.0f64..=1.0,
    )
        .prop_map(|(p, w, tau)| Style::from_vectors(p, w, tau).unwrap())
}

/// A random node and a game position of it (the representative).
fn arb_node() -> impl Strategy<Value = NodeId> {
    (0..ECO.node_count()).prop_map(|i| NodeId(i as u32))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn a_step_returns_a_legal_candidate(node in arb_node(), style in arb_style(), s_prev in 0.001f64..=1.0, seed in any::<u64>()) {
        let pos = ECO.position(node).clone();
        let d = Distribution::at(&ECO, node, &pos, &style, s_prev);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        match d.step(&mut rng) {
            None => prop_assert!(d.candidates.is_empty()),
            Some(step) => {
                let c = &d.candidates[step.index];
                prop_assert!(pos.is_legal(c.mv));
                let mut next = pos.clone();
                next.play_unchecked(c.mv);
                prop_assert_eq!(ECO.lookup(&next), c.to);
                prop_assert!(c.p > 0.0);
                prop_assert!(step.proposals >= 1);
            }
        }
    }

    #[test]
    fn exact_probabilities_sum_to_one(node in arb_node(), style in arb_style(), s_prev in 0.001f64..=1.0) {
        let d = Distribution::at(&ECO, node, &ECO.position(node), &style, s_prev);
        if !d.candidates.is_empty() {
            let sum: f64 = d.candidates.iter().map(|c| c.p).sum();
            prop_assert!((sum - 1.0).abs() < 1e-9);
            let shares: f64 = d.candidates.iter().map(|c| c.share).sum();
            prop_assert!((shares - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn zero_weights_make_parameters_irrelevant(node in arb_node(), p in prop::array::uniform5(0u8..2), tau in 0.0f64..=1.0, s_prev in 0.001f64..=1.0) {
        let on = Style::from_vectors(p, [0.0; 5], tau).unwrap();
        let off = Style::from_vectors([0; 5], [0.0; 5], tau).unwrap();
        let a = Distribution::at(&ECO, node, &ECO.position(node), &on, s_prev);
        let b = Distribution::at(&ECO, node, &ECO.position(node), &off, s_prev);
        prop_assert_eq!(a, b);
    }

    #[test]
    fn a_single_candidate_is_always_returned(node in arb_node(), style in arb_style(), s_prev in 0.001f64..=1.0, seed in any::<u64>()) {
        let d = Distribution::at(&ECO, node, &ECO.position(node), &style, s_prev);
        prop_assume!(d.candidates.len() == 1);
        prop_assert_eq!(d.candidates[0].p, 1.0);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..20 {
            prop_assert_eq!(d.step(&mut rng).map(|s| s.index), Some(0));
        }
    }
}

#[test]
fn many_nodes_have_a_single_candidate() {
    // Guards the proptest above against assuming away every case.
    let single = ECO
        .node_ids()
        .filter(|&n| {
            Distribution::at(&ECO, n, &ECO.position(n), &Style::neutral(), 1.0)
                .candidates
                .len()
                == 1
        })
        .count();
    assert!(single > 1000, "{single}");
}

#[test]
fn exploring_in_chunks_counts_the_same_as_one_run() {
    use hastings::sampler::Exploration;
    let graph = &*ECO;
    let pos = Chess::default();
    let start = graph.lookup(&pos).unwrap();
    let style = Style::neutral();
    let limits = |iterations| ExploreLimits {
        iterations,
        ply_limit: 12,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let whole = explore(graph, start, &pos, &style, 1.0, limits(300), &mut rng);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut merged = Exploration::default();
    for n in [100, 120, 80] {
        merged.merge(explore(
            graph,
            start,
            &pos,
            &style,
            1.0,
            limits(n),
            &mut rng,
        ));
    }
    assert_eq!(merged.iterations, 300);
    assert_eq!(merged.first_steps, whole.first_steps);
    assert_eq!(merged.visits, whole.visits);
    assert_eq!(merged.transitions, whole.transitions);
    assert_eq!(merged.endings, whole.endings);
    assert_eq!(
        (merged.proposals, merged.steps),
        (whole.proposals, whole.steps)
    );
}
