//! The position graph built from the shipped ECO data.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

use std::collections::VecDeque;
use std::sync::LazyLock;

use hastings::book::{BoardMatrix, Flag, LineFilter, NodeId, OpeningLine, PositionGraph, eco};
use proptest::prelude::*;

use crate::common;
use common::{history, position_after as play};
use shakmaty::{Position, san::San};

static ECO: LazyLock<&PositionGraph> = LazyLock::new(common::eco_graph);

#[test]
fn embedded_eco_data_loads_with_zero_issues() {
    let eco = eco::embedded();
    assert!(eco.issues.is_empty(), "{:?}", eco.issues);
    assert!(eco.line_issues.is_empty(), "{:?}", eco.line_issues);
    assert_eq!(eco.lines.len(), 3807);
    let build = PositionGraph::build(eco.lines);
    assert!(build.issues.is_empty(), "{:?}", build.issues);
}

#[test]
fn eco_graph_has_the_reference_counts() {
    let s = ECO.stats();
    assert_eq!(s.lines, 3807, "lines");
    assert_eq!(s.nodes, 7851, "nodes");
    assert_eq!(s.book_edges, 8055, "book edges");
    assert_eq!(s.merge_points, 193, "merge points");
    assert_eq!(s.implied_transpositions, 952, "implied transpositions");
    assert_eq!(s.max_depth, 36, "longest line in plies");
}

#[test]
fn transposed_move_orders_share_one_node() {
    let a = ECO.lookup(&play("d4 Nf6 c4 e6")).unwrap();
    let b = ECO.lookup(&play("c4 e6 d4 Nf6")).unwrap();
    assert_eq!(a, b);
    assert!(
        ECO.parent_count(a) > 1,
        "two lines arrive from different parents"
    );
}

#[test]
fn start_matrix_has_the_thesis_rows() {
    let start = ECO.start().unwrap();
    let m = BoardMatrix::from_position(&ECO.position(start));
    let rows = m.rows();
    assert_eq!(rows[0], [12, 13, 14, 15, 16, 14, 13, 12]);
    assert_eq!(rows[1], [11; 8]);
    for row in &rows[2..6] {
        assert_eq!(*row, [0; 8]);
    }
    assert_eq!(rows[6], [1; 8]);
    assert_eq!(rows[7], [2, 3, 4, 5, 6, 4, 3, 2]);
}

#[test]
fn every_node_is_reachable_from_the_start() {
    let start = ECO.start().unwrap();
    assert_eq!(ECO.roots(), &[start]);
    let mut seen = vec![false; ECO.node_count()];
    let mut queue = VecDeque::from([start]);
    seen[start.index()] = true;
    while let Some(n) = queue.pop_front() {
        for c in ECO.continuations(n) {
            if !seen[c.to.index()] {
                seen[c.to.index()] = true;
                queue.push_back(c.to);
            }
        }
    }
    let unreached = seen.iter().filter(|s| !**s).count();
    assert_eq!(unreached, 0);
}

#[test]
fn name_at_names_the_ruy_lopez() {
    let h = history(&ECO, "e4 e5 Nf3 Nc6 Bb5");
    let line = ECO.name_at(&h).unwrap();
    assert_eq!(line.name, "Ruy Lopez");
    assert_eq!(line.eco.as_deref(), Some("C60"));
    // A position no line ends at takes the name of the deepest named one before it.
    let h = history(&ECO, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O");
    assert!(ECO.name_at(&h).unwrap().name.starts_with("Ruy Lopez"));
}

#[test]
fn subsample_of_five_moves_per_side_has_1747_lines() {
    let filter = LineFilter {
        min_moves_per_side: 5,
        ..LineFilter::default()
    };
    let graph = PositionGraph::eco_filtered(&filter).unwrap();
    assert_eq!(graph.stats().lines, 1747);
    assert!(graph.lines().iter().all(|l| l.moves.len() >= 10));
}

#[test]
fn weights_and_flags_add_up_at_the_start() {
    let start = ECO.start().unwrap();
    assert_eq!(ECO.weight(start), 3807.0);
    let by_move: f64 = ECO.continuations(start).iter().map(|c| c.weight).sum();
    assert_eq!(by_move, 3807.0, "every line leaves the start once");
    let f = ECO.flag_weights(start);
    let classes =
        f[Flag::Uncommon.index()] + f[Flag::C4.index()] + f[Flag::D4.index()] + f[Flag::E4.index()];
    assert_eq!(
        classes, 3807.0,
        "each line has exactly one first-move class"
    );
    let gambits = ECO
        .lines()
        .iter()
        .filter(|l| l.name.to_lowercase().contains("gambit"))
        .count();
    assert_eq!(f[Flag::Gambit.index()], gambits as f64);
}

#[test]
fn continuation_lines_play_the_continuation() {
    let start = ECO.start().unwrap();
    let e4 = ECO
        .continuations(start)
        .iter()
        .find(|c| ECO.san(start, c.mv).to_string() == "e4")
        .unwrap();
    let lines = ECO.continuation_lines(e4);
    assert_eq!(lines.len() as f64, e4.weight);
    assert!(
        lines
            .iter()
            .all(|&l| ECO.line(l).sans()[0].to_string() == "e4")
    );
}

#[test]
fn an_illegal_line_is_reported_and_left_out() {
    let text = "eco\tname\tpgn\nC20\tGood\t1. e4 e5\nC20\tBad\t1. e4 e5 2. Ke3\n";
    // The reader plays the moves: it reports the bad row and leaves it out.
    let eco = eco::parse_tsv("c.tsv", text);
    let build = PositionGraph::build(eco.lines);
    assert_eq!(build.graph.stats().lines, 1);
    assert_eq!(eco.line_issues.len(), 1);
    assert_eq!(
        eco.line_issues[0].to_string(),
        "c.tsv row 3: ply 3 `Ke3`: illegal move"
    );
    assert!(build.issues.is_empty());
    assert_eq!(
        build.graph.node_count(),
        3,
        "nothing of the bad line is inserted"
    );
}

/// 1.e4 e5 2.Ke3 as a line made in code (no reader makes one: they check their moves).
fn king_walk() -> OpeningLine {
    let text = "eco\tname\tpgn\nC20\tGood\t1. e4 e5\n";
    let mut line = eco::parse_tsv("c.tsv", text).lines.remove(0);
    line.moves.push(shakmaty::Move::Normal {
        role: shakmaty::Role::King,
        from: shakmaty::Square::E1,
        capture: None,
        to: shakmaty::Square::E3,
        promotion: None,
    });
    line
}

#[test]
fn a_line_made_in_code_with_a_move_that_is_not_legal_is_reported_not_played() {
    let good = eco::parse_tsv("c.tsv", "eco\tname\tpgn\nC20\tGood\t1. e4 e5\n").lines;
    let build = PositionGraph::build([king_walk(), good[0].clone()]);
    let issues: Vec<String> = build.issues.iter().map(ToString::to_string).collect();
    assert_eq!(issues, ["c.tsv row 2: ply 3 `e1e3`: illegal move"]);
    assert_eq!(build.graph.stats().lines, 1);
    assert_eq!(build.graph.node_count(), 3);
    // The export says so too, instead of writing a game that does not play.
    let mut out = Vec::new();
    let err = hastings::book::export::write_pgn([&good[0], &king_walk()], &mut out).unwrap_err();
    assert_eq!(err.to_string(), "c.tsv row 2: ply 3 `e1e3`: illegal move");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_continuation_and_transposition_is_legal(i in 0usize..7851) {
        let node = NodeId(i as u32);
        let pos = ECO.position(node);
        for c in ECO.continuations(node) {
            prop_assert!(pos.is_legal(c.mv));
            let mut next = pos.clone();
            next.play_unchecked(c.mv);
            prop_assert_eq!(ECO.lookup(&next), Some(c.to));
        }
        for t in ECO.transpositions(node) {
            prop_assert!(pos.is_legal(t.mv));
            let mut next = pos.clone();
            next.play_unchecked(t.mv);
            prop_assert_eq!(ECO.lookup(&next), Some(t.to));
            prop_assert!(ECO.continuations(node).iter().all(|c| c.to != t.to));
        }
    }
}

#[test]
fn lines_after_a_bad_line_and_a_new_start_replay_from_their_own_start() {
    let text = "eco\tname\tpgn\n\
                C20\tA\t1. e4 e5 2. Nf3\n\
                C20\tBad\t1. e4 e5 2. Ke3\n\
                C20\tC\t1. e4 e5 2. Nc3\n\
                C20\tD\t1. e4 e5 2. Nc3 Nf6\n";
    let eco = eco::parse_tsv("c.tsv", text);
    assert_eq!(
        eco.line_issues.len(),
        1,
        "the reader leaves out the bad row"
    );
    let mut lines = eco.lines;
    // The bad row as a line made in code (readers never make one): the build
    // reports it and leaves it out.
    let mut bad = lines[0].clone();
    bad.moves.truncate(2);
    bad.moves.push(shakmaty::Move::Normal {
        role: shakmaty::Role::King,
        from: shakmaty::Square::E1,
        capture: None,
        to: shakmaty::Square::E3,
        promotion: None,
    });
    lines.insert(1, bad);
    // A line from another start position between lines that share their first moves.
    let mut fen_line = lines[0].clone();
    let fen: shakmaty::fen::Fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap();
    let pos = fen.into_position(shakmaty::CastlingMode::Standard).unwrap();
    fen_line.moves = vec![San::from_ascii(b"e4").unwrap().to_move(&pos).unwrap()];
    fen_line.start = Some(hastings::book::line::Start::new(pos));
    lines.insert(3, fen_line);
    let build = PositionGraph::build(lines);
    assert_eq!(build.issues.len(), 1);
    let g = build.graph;
    assert_eq!(g.stats().lines, 4);
    assert_eq!(g.roots().len(), 2, "the FEN line has its own root");
    for moves in ["e4 e5 Nf3", "e4 e5 Nc3", "e4 e5 Nc3 Nf6"] {
        let node = g.lookup(&play(moves)).unwrap();
        assert!(g.name(node).is_some(), "{moves}");
    }
    let after_e5 = g.lookup(&play("e4 e5")).unwrap();
    assert_eq!(g.weight(after_e5), 3.0);
    assert_eq!(g.continuations(after_e5).len(), 2);
}

/// Every node's key, continuations and transpositions, by key (to compare graphs whose
/// node numbers differ).
fn by_key(g: &PositionGraph) -> Vec<(String, Vec<String>, Vec<String>)> {
    let mut out: Vec<_> = g
        .node_ids()
        .map(|n| {
            let name = |to: NodeId, mv: shakmaty::Move| format!("{}>{}", mv, g.fen(to));
            (
                g.fen(n),
                g.continuations(n)
                    .iter()
                    .map(|c| name(c.to, c.mv))
                    .collect(),
                g.transpositions(n)
                    .iter()
                    .map(|t| name(t.to, t.mv))
                    .collect(),
            )
        })
        .collect();
    out.sort();
    out
}

fn replay(moves: &[shakmaty::Move]) -> shakmaty::Chess {
    let mut pos = shakmaty::Chess::default();
    for &mv in moves {
        pos.play_unchecked(mv);
    }
    pos
}

/// A line `P a b c` for a line `P c b …` of `lines` and a new legal move `a`: the
/// position after `P c b`, in the graph, then reaches the new line's end by `a`.
fn transposing_line(lines: &[OpeningLine], rng: &mut impl rand::Rng) -> Option<OpeningLine> {
    use rand::RngExt as _;
    for _ in 0..50 {
        let line = &lines[rng.random_range(0..lines.len())];
        if line.moves.len() < 3 {
            continue;
        }
        let p = rng.random_range(0..line.moves.len() - 2);
        let sans = line.sans();
        let (c, b) = (&sans[p], &sans[p + 1]);
        let start = replay(&line.moves[..p]);
        let legal = start.legal_moves();
        let a = legal[rng.random_range(0..legal.len())];
        let mut moves = line.moves[..p].to_vec();
        let mut pos = start.clone();
        moves.push(a);
        pos.play_unchecked(a);
        let (Ok(mb), true) = (b.to_move(&pos), San::from_move(&start, a) != *c) else {
            continue;
        };
        moves.push(mb);
        pos.play_unchecked(mb);
        let Ok(mc) = c.to_move(&pos) else { continue };
        moves.push(mc);
        return Some(OpeningLine {
            moves,
            ..line.clone()
        });
    }
    None
}

#[test]
fn a_graph_built_after_an_edit_equals_one_built_from_nothing() {
    use rand::{RngExt as _, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(22);
    // Volume C of the ECO lines (1.e4 e5 and 1.e4 e6: rich in transpositions).
    let mut lines: Vec<OpeningLine> = eco::embedded()
        .lines
        .into_iter()
        .filter(|l| l.eco.as_deref().is_some_and(|e| e.starts_with('C')))
        .collect();
    let mut graph = PositionGraph::build(lines.clone()).graph;
    let mut changed = 0;
    for step in 0..60 {
        // An edit: lines deleted, a line played on by one to three random moves, or a
        // new line that a legal move from an old position reaches.
        match step % 3 {
            0 => {
                for _ in 0..rng.random_range(1..4) {
                    let at = rng.random_range(0..lines.len());
                    lines.remove(at);
                }
            }
            1 => {
                let mut line = lines[rng.random_range(0..lines.len())].clone();
                let mut pos = replay(&line.moves);
                for _ in 0..rng.random_range(1..4) {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let mv = legal[rng.random_range(0..legal.len())];
                    line.moves.push(mv);
                    pos.play_unchecked(mv);
                }
                let at = rng.random_range(0..=lines.len());
                lines.insert(at, line);
            }
            _ => {
                if let Some(line) = transposing_line(&lines, &mut rng) {
                    lines.push(line);
                }
            }
        }
        let after = PositionGraph::build_after(lines.clone(), &graph);
        let full = PositionGraph::build(lines.clone());
        assert_eq!(after.issues, full.issues, "step {step}");
        let (a, f) = (by_key(&after.graph), by_key(&full.graph));
        assert!(a == f, "step {step}: the graphs differ");
        // Old nodes with a transposition to a new position (found by the check for
        // moves into new positions, not taken from the old graph).
        let old: std::collections::HashSet<String> =
            by_key(&graph).into_iter().map(|n| n.0).collect();
        changed += f
            .iter()
            .filter(|n| {
                old.contains(&n.0)
                    && n.2
                        .iter()
                        .any(|t| !old.contains(t.split_once('>').map_or("", |s| s.1)))
            })
            .count();
        graph = after.graph;
    }
    // Some edits made such transpositions (so the check above was tested).
    assert!(changed > 0, "{changed}");
}
