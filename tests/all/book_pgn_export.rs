//! PGN export through the public API: exported books, repertoires and games import
//! into the same graph, with their comments, arrows, circles and the games' tags;
//! property tests on random games with nested variations; several sources in one book.
// Helpers of a test file are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use std::sync::Arc;

use common::{import_fixture, import_options};
use hastings::book::export::{write_graph, write_pgn};
use hastings::book::pgn::{ImportMode, ImportOptions, read_pgn};
use hastings::book::{LineSource, NodeKey, OpeningLine, PositionGraph, SourceId};
use hastings::workspace::{BookChoice, FileMode, Workspace};
use proptest::prelude::*;
use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Color, Move, Position};

/// Adds a fixture to the workspace as the next source; returns its source id.
fn add_fixture(ws: &mut Workspace, name: &str) -> SourceId {
    ws.import_now(&common::fixture(name), FileMode::Auto, None)
        .unwrap()
        .id
}

/// The graph of ECO (if `eco`) and the files with the given ids.
fn graph_of(ws: &mut Workspace, eco: bool, files: &[SourceId]) -> PositionGraph {
    let mut choice = ws.choice().clone();
    choice.eco = eco;
    for (f, loaded) in choice.files.iter_mut().zip(ws.files()) {
        f.enabled = files.contains(&loaded.id);
    }
    ws.set_choice(choice);
    let build = ws.build_now();
    assert!(build.issues.is_empty());
    build.graph
}

#[test]
fn eco_and_pgn_sources_merge_and_the_choice_selects_sources() {
    let mut ws = Workspace::new(BookChoice::default()).unwrap();
    let rep = add_fixture(&mut ws, "repertoire.pgn");
    let twic = add_fixture(&mut ws, "twic1599_100k.pgn");
    assert_eq!((rep, twic), (SourceId(1), SourceId(2)));
    let all = graph_of(&mut ws, true, &[rep, twic]);
    assert_eq!(all.stats().lines, 3807 + 7 + 109);
    for (eco, files, lines) in [
        (true, vec![], 3807),
        (false, vec![rep], 7),
        (false, vec![twic], 109),
        (false, vec![rep, twic], 116),
    ] {
        let g = graph_of(&mut ws, eco, &files);
        assert_eq!(g.stats().lines, lines, "{files:?}");
        assert!(g.lines().iter().all(|l| {
            let id = l.source.source_id();
            files.contains(&id) || (eco && id == SourceId::ECO)
        }));
    }
    let eco_only = graph_of(&mut ws, true, &[]);
    assert_eq!(eco_only.stats(), common::eco_graph().stats());
    // The merged graph has every position of each part.
    let rep_graph = graph_of(&mut ws, false, &[rep]);
    for node in rep_graph.node_ids() {
        assert!(all.lookup(&rep_graph.position(node)).is_some());
    }
    assert_eq!(ws.files()[0].report.lines, 7);
}

/// A line without its source: start, name, moves, ECO code.
type LineShape = (Option<String>, String, Vec<String>, Option<String>);

/// Everything of a graph that does not depend on where its lines came from.
#[derive(Debug, PartialEq)]
struct Shape {
    stats: hastings::book::GraphStats,
    nodes: BTreeMap<String, u64>,
    edges: BTreeSet<(String, String, String)>,
    lines: Vec<LineShape>,
}

fn key(g: &PositionGraph, n: hastings::book::NodeId) -> String {
    let k = NodeKey::from_position(&g.position(n));
    format!("{} {:?}", k.matrix(), k.turn())
}

fn shape(g: &PositionGraph) -> Shape {
    let mut nodes = BTreeMap::new();
    let mut edges = BTreeSet::new();
    for n in g.node_ids() {
        nodes.insert(key(g, n), g.weight(n).to_bits());
        for c in g.continuations(n) {
            edges.insert((
                key(g, n),
                key(g, c.to),
                PositionGraph::uci(c.mv).to_string(),
            ));
        }
    }
    Shape {
        stats: g.stats(),
        nodes,
        edges,
        lines: g
            .lines()
            .iter()
            .map(|l| {
                let moves = l.sans().iter().map(ToString::to_string).collect();
                let start = l.start.as_ref().map(|s| s.fen().to_string());
                (start, l.name.clone(), moves, l.eco.clone())
            })
            .collect(),
    }
}

fn reimport(g: &PositionGraph, names: Option<&PositionGraph>) -> PositionGraph {
    let mut text = Vec::new();
    write_graph(g, None, &mut text).unwrap();
    let back = read_pgn(&text[..], SourceId(7), &ImportOptions::default(), names).unwrap();
    assert_eq!(
        back.report.issues,
        vec![],
        "{}",
        String::from_utf8_lossy(&text)
    );
    assert_eq!(back.report.mode, ImportMode::Repertoire);
    let build = PositionGraph::build(back.lines);
    assert!(build.issues.is_empty());
    build.graph
}

#[test]
fn the_exported_eco_book_imports_into_the_same_graph() {
    let eco = common::eco_graph();
    let back = reimport(eco, None);
    assert_eq!(shape(&back), shape(eco));
    assert_eq!(back.stats().lines, 3807);
}

#[test]
fn exported_repertoires_and_games_import_into_the_same_graph() {
    let eco = common::eco_graph();
    for (file, mode) in [
        ("repertoire.pgn", ImportMode::Auto),
        ("twic1599_100k.pgn", ImportMode::Games),
        ("twic1599_100k.pgn", ImportMode::Repertoire),
        ("lichess_db_100k.pgn", ImportMode::Games),
        ("fen_start.pgn", ImportMode::Auto),
    ] {
        let lines = import_fixture(file, mode).lines;
        let g = PositionGraph::build(lines).graph;
        let back = reimport(&g, Some(eco));
        assert_eq!(shape(&back), shape(&g), "{file} {mode}");
    }
    // Comments, NAGs and arrows survive too.
    let g = PositionGraph::build(import_fixture("repertoire.pgn", ImportMode::Auto).lines).graph;
    let mut text = Vec::new();
    write_graph(&g, Some(SourceId(1)), &mut text).unwrap();
    let back = read_pgn(&text[..], SourceId(1), &ImportOptions::default(), Some(eco)).unwrap();
    let notes = |lines: &[OpeningLine]| {
        lines
            .iter()
            .map(|l| l.annotations.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(notes(&back.lines), notes(g.lines()));
    let written = String::from_utf8(text).unwrap();
    let flat = written.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("3. Bc4 {Aiming at f7. [%cal Gc4f7]} 3... Bc5 (3... Nf6 $5"),
        "{written}"
    );
}

#[test]
fn export_can_write_a_single_source() {
    let mut ws = Workspace::new(BookChoice::default()).unwrap();
    let id = add_fixture(&mut ws, "repertoire.pgn");
    let g = graph_of(&mut ws, true, &[id]);
    let mut text = Vec::new();
    let games = write_graph(&g, Some(id), &mut text).unwrap();
    assert_eq!(games, 2);
    let back = read_pgn(&text[..], SourceId(1), &ImportOptions::default(), None).unwrap();
    assert_eq!(back.lines.len(), 7);
}

#[test]
fn a_study_keeps_its_chapters_tags_comments_and_arrows_through_export() {
    let first = import_fixture("study_chapters.pgn", ImportMode::Auto);
    assert_eq!(first.report.issues, vec![]);
    assert_eq!((first.report.games, first.report.lines), (4, 9));
    // The lines of a game share one copy of its tags, in file order.
    let chapter_8: Vec<&OpeningLine> = first
        .lines
        .iter()
        .filter(|l| matches!(l.source, LineSource::Pgn { game: 3, .. }))
        .collect();
    assert_eq!(chapter_8.len(), 2);
    let tags = chapter_8[0].tags.as_ref().unwrap();
    assert!(Arc::ptr_eq(tags, chapter_8[1].tags.as_ref().unwrap()));
    let names: Vec<&str> = tags.iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        [
            "Event",
            "Site",
            "Result",
            "Variant",
            "ECO",
            "Opening",
            "Annotator",
            "StudyName",
            "ChapterName",
            "UTCDate",
            "UTCTime"
        ]
    );
    assert_eq!(
        tags.get("Event"),
        Some("Playing the French: Chapter 8 - The Tarrasch Variation")
    );

    // Exported from the graph, as the app and the CLI do, and read back.
    let graph = PositionGraph::build(first.lines.clone()).graph;
    let mut text = Vec::new();
    assert_eq!(write_graph(&graph, None, &mut text).unwrap(), 4);
    let written = String::from_utf8(text).unwrap();
    assert!(
        written.contains("[Event \"Playing the French: Chapter 8 - The Tarrasch Variation\"]\n[Site \"https://lichess.org/study/Fr3nch01/Ch4pt08h\"]\n"),
        "{written}"
    );
    assert!(written.contains("[Annotator \"https://lichess.org/@/hastings_author\"]"));
    assert!(!written.contains("source 1"), "{written}");
    let back = read_pgn(
        written.as_bytes(),
        SourceId(1),
        &ImportOptions::default(),
        Some(common::eco_graph()),
    )
    .unwrap();
    assert_eq!(back.report.issues, vec![]);
    // The same lines: source, game, tags, name, ECO code, start, moves, annotations.
    assert_eq!(back.lines, first.lines);
    // Every comment, arrow and circle came back.
    let count = |lines: &[OpeningLine]| {
        let notes = || lines.iter().flat_map(|l| &l.annotations);
        (
            notes().filter(|a| a.comment.is_some()).count(),
            notes().map(|a| a.arrows.len()).sum::<usize>(),
            notes().map(|a| a.circles.len()).sum::<usize>(),
        )
    };
    assert_eq!(count(&back.lines), count(&first.lines));
    assert!(count(&first.lines).2 > 0);
}

#[test]
fn unknown_tags_are_filled_in_and_the_result_becomes_a_star() {
    let text = "[Event \"Club game\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[ECO \"?\"]\n[Round \"3\"]\n\n\
                1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n";
    let first = read_pgn(
        text.as_bytes(),
        SourceId(1),
        &import_options(ImportMode::Games),
        Some(common::eco_graph()),
    )
    .unwrap();
    let line = &first.lines[0];
    assert_eq!(
        (line.name.as_str(), line.eco.as_deref()),
        ("Ruy Lopez: Morphy Defense", Some("C70"))
    );
    let mut out = Vec::new();
    write_pgn(&first.lines, &mut out).unwrap();
    let written = String::from_utf8(out).unwrap();
    // The game's tags in order, ECO filled in at its place, the name added at the end.
    let expected = "[Event \"Club game\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[ECO \"C70\"]\n\
                    [Round \"3\"]\n[Opening \"Ruy Lopez\"]\n[Variation \"Morphy Defense\"]\n\n\
                    1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";
    assert_eq!(written.trim_end(), expected.trim_end());
    // Lines without tags still name their source.
    let mut out = Vec::new();
    write_pgn(&common::eco_graph().lines()[..1], &mut out).unwrap();
    assert!(
        String::from_utf8(out)
            .unwrap()
            .starts_with("[Event \"ECO a.tsv row 2\"]\n[Result \"*\"]\n[ECO \"A00\"]\n")
    );
}

// ---------------------------------------------------------------------------------------
// Property tests: random legal games with random nested variations.

/// A generated tree of moves: each node's children are distinct legal moves.
struct GenNode {
    mv: Move,
    children: Vec<GenNode>,
}

fn gen_children(pos: &Chess, choices: &mut impl Iterator<Item = u32>, depth: u32) -> Vec<GenNode> {
    let legal = pos.legal_moves();
    if legal.is_empty() || depth >= 24 {
        return Vec::new();
    }
    let Some(c) = choices.next() else {
        return Vec::new();
    };
    // Mostly one move, sometimes two or three alternatives; stop now and then.
    let count = match c % 16 {
        0 if depth > 0 => 0,
        1 | 2 => 2,
        3 => 3,
        _ => 1,
    };
    let mut picked: Vec<Move> = Vec::new();
    for k in 0..count {
        let m = legal[((c / 16) as usize + k * 7919) % legal.len()];
        if !picked.contains(&m) {
            picked.push(m);
        }
    }
    picked
        .into_iter()
        .map(|mv| {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            GenNode {
                mv,
                children: gen_children(&next, choices, depth + 1),
            }
        })
        .collect()
}

/// Writes the tree as PGN movetext, mainline first, with comments and NAGs sprinkled in
/// (independent of the exporter).
fn write_tree(
    pos: &Chess,
    children: &[GenNode],
    force_number: bool,
    noise: &mut u32,
    out: &mut String,
) {
    let Some((main, alternatives)) = children.split_first() else {
        return;
    };
    let write_move = |node: &GenNode, force: bool, noise: &mut u32, out: &mut String| {
        let n = pos.fullmoves();
        if pos.turn() == Color::White {
            out.push_str(&format!("{n}. "));
        } else if force {
            out.push_str(&format!("{n}... "));
        }
        out.push_str(&SanPlus::from_move(pos.clone(), node.mv).to_string());
        out.push(' ');
        *noise = noise.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        match *noise >> 28 {
            0 => out.push_str("{a comment} "),
            1 => out.push_str("$1 "),
            2 => out.push_str("!? {[%cal Ge2e4] more} "),
            _ => {}
        }
    };
    write_move(main, force_number, noise, out);
    for alt in alternatives {
        out.push('(');
        write_move(alt, true, noise, out);
        let mut next = pos.clone();
        next.play_unchecked(alt.mv);
        write_tree(&next, &alt.children, false, noise, out);
        out.push_str(") ");
    }
    let mut next = pos.clone();
    next.play_unchecked(main.mv);
    write_tree(&next, &main.children, !alternatives.is_empty(), noise, out);
}

fn leaf_paths(
    pos: &Chess,
    children: &[GenNode],
    prefix: &mut Vec<String>,
    out: &mut Vec<Vec<String>>,
) {
    for child in children {
        prefix.push(San::from_move(pos, child.mv).to_string());
        if child.children.is_empty() {
            out.push(prefix.clone());
        } else {
            let mut next = pos.clone();
            next.play_unchecked(child.mv);
            leaf_paths(&next, &child.children, prefix, out);
        }
        prefix.pop();
    }
}

fn random_pgn(games: &[Vec<u32>]) -> (String, Vec<Vec<String>>) {
    let mut text = String::new();
    let mut expected = Vec::new();
    let mut noise = 7;
    for (i, choices) in games.iter().enumerate() {
        let start = Chess::default();
        let tree = gen_children(&start, &mut choices.iter().copied(), 0);
        text.push_str(&format!("[Event \"Random {i}\"]\n[Result \"*\"]\n\n"));
        write_tree(&start, &tree, true, &mut noise, &mut text);
        text.push_str("*\n\n");
        leaf_paths(&start, &tree, &mut Vec::new(), &mut expected);
    }
    (text, expected)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_with_nested_variations_import_into_lines_that_replay(
        games in prop::collection::vec(prop::collection::vec(any::<u32>(), 1..60), 1..4)
    ) {
        let (text, expected) = random_pgn(&games);
        let out = read_pgn(text.as_bytes(), SourceId(1), &import_options(ImportMode::Repertoire), None).unwrap();
        prop_assert_eq!(&out.report.issues, &vec![], "{}", text);
        let got: Vec<Vec<String>> = out
            .lines
            .iter()
            .map(|l| l.sans().iter().map(ToString::to_string).collect())
            .collect();
        prop_assert_eq!(&got, &expected, "{}", text);
        let build = PositionGraph::build(out.lines.clone());
        prop_assert!(build.issues.is_empty());
        // Every line replays, and every move of it is a book continuation.
        let g = build.graph;
        for line in g.lines() {
            let mut pos = Chess::default();
            for &mv in &line.moves {
                let node = g.lookup(&pos).unwrap();
                prop_assert!(pos.is_legal(mv));
                pos.play_unchecked(mv);
                let to = g.lookup(&pos).unwrap();
                prop_assert!(g.continuations(node).iter().any(|c| c.to == to));
            }
        }
    }

    #[test]
    fn export_then_import_round_trips_the_graph(
        games in prop::collection::vec(prop::collection::vec(any::<u32>(), 1..60), 1..4)
    ) {
        let (text, _) = random_pgn(&games);
        let out = read_pgn(text.as_bytes(), SourceId(1), &import_options(ImportMode::Repertoire), None).unwrap();
        let g = PositionGraph::build(out.lines).graph;
        let back = reimport(&g, None);
        prop_assert_eq!(shape(&back), shape(&g));
        // Writing the lines themselves (not via a graph) gives the same text.
        let mut a = Vec::new();
        let mut b = Vec::new();
        write_graph(&g, None, &mut a).unwrap();
        write_pgn(g.lines(), &mut b).unwrap();
        prop_assert_eq!(a, b);
    }
}
