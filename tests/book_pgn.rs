//! PGN import, merging and export, through the public API, on real and handmade files.
// Helpers of a test file are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet, HashSet};

use hastings::book::export::{write_graph, write_pgn};
use hastings::book::pgn::{
    ImportError, ImportIssue, ImportMode, ImportOptions, IssueReason, PgnImport, read_pgn,
};
use hastings::book::{
    BookSources, Flag, LineFilter, LineSource, NodeKey, OpeningLine, PositionGraph, SourceId,
};
use proptest::prelude::*;
use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Color, Move, Position, Square};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn options(mode: ImportMode) -> ImportOptions {
    ImportOptions {
        mode,
        max_plies: None,
    }
}

fn import(name: &str, mode: ImportMode) -> PgnImport {
    let eco = PositionGraph::eco().unwrap();
    read_pgn(&fixture(name)[..], SourceId(1), &options(mode), Some(&eco)).unwrap()
}

fn sans(line: &OpeningLine) -> String {
    line.moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// (game, ply, san, reason) of each issue.
fn brief(issues: &[ImportIssue]) -> Vec<(u32, u32, String, IssueReason)> {
    issues
        .iter()
        .map(|i| (i.game, i.ply, i.san.clone(), i.reason.clone()))
        .collect()
}

/// Positions of the first `max_plies` plies of every game, read without pgn-reader or
/// the importer: tags and `{}` comments removed, tokens split at whitespace, move
/// numbers and results dropped, the rest played as SAN. Keys are the board FEN and the
/// side to move. Returns (games with moves, positions).
fn independent_positions(text: &str, max_plies: usize) -> (usize, HashSet<(String, Color)>) {
    let mut positions = HashSet::new();
    let mut games = 0;
    let mut movetext = String::new();
    let mut flush = |movetext: &mut String| {
        let mut clean = String::new();
        let mut depth = 0;
        for c in movetext.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                c if depth == 0 => clean.push(c),
                _ => {}
            }
        }
        let mut pos = Chess::default();
        let mut keys = vec![(pos.board().to_string(), pos.turn())];
        for token in clean.split_whitespace() {
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                continue;
            }
            let token = token.trim_start_matches(|c: char| c.is_ascii_digit());
            let token = token.trim_start_matches('.').trim_end_matches(['!', '?']);
            if token.is_empty() {
                continue;
            }
            if keys.len() > max_plies {
                break;
            }
            let san = SanPlus::from_ascii(token.as_bytes()).unwrap_or_else(|_| panic!("{token}"));
            let mv = san.san.to_move(&pos).unwrap();
            pos.play_unchecked(mv);
            keys.push((pos.board().to_string(), pos.turn()));
        }
        if keys.len() > 1 {
            games += 1;
            positions.extend(keys);
        }
        movetext.clear();
    };
    for line in text.lines() {
        if line.starts_with("[Event ") {
            flush(&mut movetext);
        }
        if !line.starts_with('[') {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    flush(&mut movetext);
    (games, positions)
}

#[test]
fn twic_master_games_import_with_zero_issues_and_known_position_count() {
    let out = import("twic1599_100k.pgn", ImportMode::Games);
    let r = &out.report;
    assert_eq!(r.issues, vec![], "no issues");
    assert_eq!(r.issue_count, 0);
    assert_eq!(r.mode, ImportMode::Games);
    // 110 games; game 64 is an unplayed tiebreak game (`1/2-1/2` without moves).
    assert_eq!((r.games, r.imported, r.lines), (110, 109, 109));
    assert_eq!(r.positions, 2658);
    assert!(
        out.lines
            .iter()
            .all(|l| l.moves.len() <= 30 && l.weight == 1.0)
    );
    assert_eq!(
        out.lines.iter().filter(|l| l.moves.len() == 30).count(),
        108
    );
    let text = String::from_utf8(fixture("twic1599_100k.pgn")).unwrap();
    let (games, positions) = independent_positions(&text, 30);
    assert_eq!((games, positions.len()), (109, 2658), "independent count");
    let graph = PositionGraph::build(out.lines);
    assert!(graph.issues.is_empty());
    assert_eq!(graph.graph.node_count(), 2658);
    let first = graph.graph.line(hastings::book::LineId(0));
    assert_eq!(first.name, "King's Indian: Saemisch, 5...O-O");
    assert_eq!(first.eco.as_deref(), Some("E81"));
    assert_eq!(
        first.source,
        LineSource::Pgn {
            source: SourceId(1),
            game: 1
        }
    );
}

#[test]
fn lichess_games_with_clock_comments_import_with_zero_issues_and_known_position_count() {
    let out = import("lichess_db_100k.pgn", ImportMode::Games);
    let r = &out.report;
    assert_eq!(r.issues, vec![], "no issues");
    assert_eq!((r.games, r.imported, r.lines), (47, 47, 47));
    assert_eq!(r.positions, 1269);
    let text = String::from_utf8(fixture("lichess_db_100k.pgn")).unwrap();
    let (games, positions) = independent_positions(&text, 30);
    assert_eq!((games, positions.len()), (47, 1269), "independent count");
    // Clock comments are not kept as comments; the NAGs of analysed games are.
    let notes: Vec<_> = out.lines.iter().flat_map(|l| &l.annotations).collect();
    assert!(
        notes
            .iter()
            .all(|a| a.comment.is_none() && a.arrows.is_empty())
    );
    assert!(notes.iter().any(|a| a.nags == [6]), "`?!` is NAG 6");
    assert_eq!(out.lines[0].name, "Three Knights Opening");
}

#[test]
fn auto_detection_reads_played_games_as_games_and_studies_as_repertoires() {
    assert_eq!(
        import("twic1599_100k.pgn", ImportMode::Auto).report.mode,
        ImportMode::Games
    );
    assert_eq!(
        import("lichess_db_100k.pgn", ImportMode::Auto).report.mode,
        ImportMode::Games
    );
    assert_eq!(
        import("repertoire.pgn", ImportMode::Auto).report.mode,
        ImportMode::Repertoire
    );
}

#[test]
fn the_ply_limit_of_games_mode_can_be_changed() {
    let eco = PositionGraph::eco().unwrap();
    let opts = ImportOptions {
        mode: ImportMode::Games,
        max_plies: Some(8),
    };
    let out = read_pgn(
        &fixture("lichess_db_100k.pgn")[..],
        SourceId(1),
        &opts,
        Some(&eco),
    )
    .unwrap();
    assert!(out.lines.iter().all(|l| l.moves.len() == 8));
    let text = String::from_utf8(fixture("lichess_db_100k.pgn")).unwrap();
    assert_eq!(
        out.report.positions,
        independent_positions(&text, 8).1.len()
    );
}

#[test]
fn repertoire_with_nested_variations_imports_every_path_with_comments_attached() {
    let out = import("repertoire.pgn", ImportMode::Repertoire);
    assert_eq!(out.report.issues, vec![]);
    assert_eq!((out.report.games, out.report.lines), (2, 7));
    let lines: Vec<String> = out.lines.iter().map(sans).collect();
    assert_eq!(
        lines,
        [
            "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4 exd4 cxd4 Bb4",
            "e4 e5 Nf3 Nc6 Bc4 Nf6 Ng5 d5 exd5 Na5 Bb5",
            "e4 e5 Nf3 Nc6 Bc4 Nf6 Ng5 d5 exd5 Nxd5 Nxf7 Kxf7 Qf3",
            "e4 e5 Nf3 Nc6 Bc4 Nf6 Ng5 d5 exd5 Nxd5 d4",
            "e4 e5 Nf3 Nc6 Bc4 Nf6 d3",
            "e4 c5 c3 Nf6 e5 Nd5",
            "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6",
        ]
    );
    for line in &out.lines[..5] {
        assert_eq!(line.name, "Italian Game");
        assert_eq!(line.eco.as_deref(), Some("C50"));
        assert_eq!(
            line.source,
            LineSource::Pgn {
                source: SourceId(1),
                game: 1
            }
        );
        assert!(!line.truncated);
    }
    // Comments, NAGs, arrows and circles, per move (0-based ply).
    let notes = |i: usize| -> BTreeMap<u32, String> {
        out.lines[i]
            .annotations
            .iter()
            .map(|a| {
                let mut s = a.comment.clone().unwrap_or_default();
                for n in &a.nags {
                    s.push_str(&format!(" ${n}"));
                }
                for (c, from, to) in &a.arrows {
                    s.push_str(&format!(" {c}{from}{to}"));
                }
                for (c, sq) in &a.circles {
                    s.push_str(&format!(" ({c}{sq})"));
                }
                (a.ply, s)
            })
            .collect()
    };
    let main = notes(0);
    assert_eq!(main[&0], "The Italian, main ideas.");
    assert_eq!(main[&4], "Aiming at f7. Gc4f7");
    assert_eq!(main[&6], "Preparing d4. Gd2d4 Ge4e5 (Gd4)");
    assert_eq!(main.len(), 3);
    let two_knights = notes(2);
    assert_eq!(two_knights[&5], "The Two Knights. $5");
    assert_eq!(two_knights[&9], "Risky: $6");
    assert_eq!(two_knights[&10], " $5");
    assert_eq!(notes(4)[&6], "Quiet.");
    assert_eq!(notes(6)[&9], "Najdorf: the sharpest. $1");
    // The second game has no Opening tag: its lines take ECO names.
    assert_eq!(out.lines[5].name, "Sicilian Defense: Alapin Variation");
    assert_eq!(out.lines[6].name, "Sicilian Defense: Najdorf Variation");
    assert_eq!(out.lines[6].eco.as_deref(), Some("B90"));
    let graph = PositionGraph::build(out.lines.clone());
    assert!(graph.issues.is_empty());
    let g = graph.graph;
    assert_eq!(g.stats().lines, 7);
    let e4 = g.line_flags(hastings::book::LineId(0));
    assert!(e4.contains(Flag::E4) && !e4.contains(Flag::Gambit));
}

#[test]
fn illegal_san_reports_game_and_ply_and_keeps_the_valid_prefix() {
    let out = import("illegal.pgn", ImportMode::Auto);
    assert_eq!(
        brief(&out.report.issues),
        [(2, 7, "Bxf7".to_owned(), IssueReason::IllegalMove)]
    );
    assert_eq!(
        out.report.issues[0].to_string(),
        "game 2 (byte 124, Carol – Dave): ply 7 `Bxf7`: illegal move"
    );
    assert_eq!(&fixture("illegal.pgn")[124..131], b"[Event ");
    let lines: Vec<(u32, String, bool)> = out
        .lines
        .iter()
        .map(|l| match l.source {
            LineSource::Pgn { game, .. } => (game, sans(l), l.truncated),
            LineSource::Eco { .. } => unreachable!(),
        })
        .collect();
    assert_eq!(
        lines,
        [
            (1, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7".to_owned(), false),
            (2, "d4 d5 c4 e6 Nc3 Nf6".to_owned(), true),
            (3, "c4 e5 Nc3 Nf6 g3 d5 cxd5 Nxd5".to_owned(), false),
        ]
    );
    assert_eq!((out.report.games, out.report.imported), (3, 3));
}

#[test]
fn a_truncated_last_game_is_reported_and_its_prefix_kept() {
    let out = import("truncated.pgn", ImportMode::Games);
    assert_eq!(
        brief(&out.report.issues),
        [(3, 11, "Be".to_owned(), IssueReason::Truncated)]
    );
    assert_eq!(out.lines.len(), 3);
    assert_eq!(sans(&out.lines[2]), "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6");
    assert!(out.lines[2].truncated);
    assert!(!out.lines[0].truncated && !out.lines[1].truncated);
}

#[test]
fn garbage_bytes_are_reported_and_the_games_around_them_load() {
    let out = import("garbage.pgn", ImportMode::Auto);
    let issues = brief(&out.report.issues);
    assert_eq!(issues.len(), 2, "{issues:?}");
    // The junk between games 1 and 3 takes number 2.
    assert_eq!((issues[0].0, issues[0].1), (2, 1));
    assert_eq!(issues[0].3, IssueReason::UnknownToken);
    assert!(issues[0].2.starts_with("\u{fffd}PNG"), "{}", issues[0].2);
    // Junk inside the movetext of game 4 cuts it after 2. Nc3.
    assert_eq!(
        (issues[1].0, issues[1].1, issues[1].3.clone()),
        (4, 4, IssueReason::UnknownToken)
    );
    assert_eq!(out.report.games, 3);
    let lines: Vec<String> = out.lines.iter().map(sans).collect();
    assert_eq!(lines, ["e4 e5 Nf3 Nc6", "d4 Nf6 c4 e6", "c4 e5 Nc3"]);
    assert!(out.lines[2].truncated);
    let names: Vec<u32> = out
        .lines
        .iter()
        .map(|l| match l.source {
            LineSource::Pgn { game, .. } => game,
            LineSource::Eco { .. } => 0,
        })
        .collect();
    assert_eq!(names, [1, 3, 4]);
}

#[test]
fn an_empty_file_has_no_games() {
    let err = read_pgn(
        &fixture("empty.pgn")[..],
        SourceId(1),
        &ImportOptions::default(),
        None,
    )
    .unwrap_err();
    assert!(matches!(&err, ImportError::NoGames { issues } if issues.is_empty()));
    assert_eq!(err.to_string(), "no games found");
    let blank = read_pgn(
        &b"\n\n  \r\n\t\n"[..],
        SourceId(1),
        &ImportOptions::default(),
        None,
    );
    assert!(matches!(blank, Err(ImportError::NoGames { .. })));
}

#[test]
fn a_binary_file_has_no_games() {
    // 4 MiB of xorshift noise: every byte value, `{`, `[` and newlines included.
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let bytes: Vec<u8> = (0..4 << 20)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    for mode in [ImportMode::Auto, ImportMode::Games, ImportMode::Repertoire] {
        let err = read_pgn(&bytes[..], SourceId(1), &options(mode), None).unwrap_err();
        assert!(err.to_string().starts_with("no games found"), "{err}");
    }
}

#[test]
fn fen_starts_begin_the_line_at_their_position() {
    let out = import("fen_start.pgn", ImportMode::Auto);
    assert_eq!(out.report.issues.len(), 1, "{:#?}", out.report.issues);
    let issue = &out.report.issues[0];
    assert_eq!((issue.game, issue.ply), (4, 0));
    assert!(
        matches!(&issue.reason, IssueReason::BadFen { fen, .. } if fen.ends_with("RNBQKBNX w KQkq - 0 1"))
    );
    assert_eq!(out.lines.len(), 3);
    let lucena = &out.lines[0];
    assert_eq!(
        lucena.start.as_deref(),
        Some("1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1")
    );
    assert_eq!(
        sans(lucena),
        "Rd1 Ke7 Rd4 Ra1 Kc7 Rc1 Kb6 Rb1 Kc6 Rc1 Kb5 Rb1 Rb4"
    );
    // The standard position written as a FEN is the standard start.
    assert_eq!(out.lines[1].start, None);
    assert_eq!(
        out.lines[2].start.as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );
    let graph = PositionGraph::build(out.lines).graph;
    // Three roots: the Lucena position, the standard start, and after 1. e4.
    assert_eq!(graph.roots().len(), 3);
    let flags = graph.line_flags(hastings::book::LineId(0));
    assert_eq!(
        flags.iter().count(),
        0,
        "no first-move flag away from the standard start"
    );
    assert!(
        graph
            .line_flags(hastings::book::LineId(1))
            .contains(Flag::E4)
    );
}

#[test]
fn chess960_and_other_variants_are_skipped_with_a_message() {
    let out = import("chess960.pgn", ImportMode::Auto);
    let issues = brief(&out.report.issues);
    assert_eq!(issues.len(), 3);
    assert_eq!(issues[0].3, IssueReason::Variant("Chess960".into()));
    assert_eq!(
        issues[1].3,
        IssueReason::Chess960("nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1".into())
    );
    assert_eq!(issues[2].3, IssueReason::Variant("Crazyhouse".into()));
    assert_eq!(issues.iter().map(|i| i.0).collect::<Vec<_>>(), [2, 3, 4]);
    assert_eq!(
        out.report.issues[0].to_string(),
        "game 2 (byte 95, Carol – Dave): variant `Chess960` is not supported; game skipped"
    );
    assert_eq!(&fixture("chess960.pgn")[95..102], b"[Event ");
    assert_eq!(out.lines.len(), 1);
    assert_eq!(sans(&out.lines[0]), "e4 e5 Nf3 Nc6");
    assert_eq!(out.report.games, 4);
}

#[test]
fn eco_and_pgn_sources_merge_and_filters_select_sources() {
    let mut book = BookSources::new();
    book.add_eco().unwrap();
    let rep = book
        .add_pgn(
            "repertoire.pgn",
            &fixture("repertoire.pgn")[..],
            &ImportOptions::default(),
        )
        .unwrap()
        .id;
    let twic = book
        .add_pgn(
            "twic.pgn",
            &fixture("twic1599_100k.pgn")[..],
            &ImportOptions::default(),
        )
        .unwrap()
        .id;
    assert_eq!((rep, twic), (SourceId(1), SourceId(2)));
    let all = book.graph(&LineFilter::default());
    assert!(all.issues.is_empty());
    assert_eq!(all.graph.stats().lines, 3807 + 7 + 109);
    for (sources, lines) in [
        (vec![SourceId::ECO], 3807),
        (vec![rep], 7),
        (vec![twic], 109),
        (vec![rep, twic], 116),
    ] {
        let filter = LineFilter {
            sources: Some(sources.clone()),
            ..LineFilter::default()
        };
        let g = book.graph(&filter).graph;
        assert_eq!(g.stats().lines, lines, "{sources:?}");
        assert!(
            g.lines()
                .iter()
                .all(|l| sources.contains(&l.source.source_id()))
        );
    }
    let eco_only = book.graph(&LineFilter {
        sources: Some(vec![SourceId::ECO]),
        ..LineFilter::default()
    });
    assert_eq!(
        eco_only.graph.stats(),
        PositionGraph::eco().unwrap().stats()
    );
    // The merged graph has every position of each part.
    let rep_graph = book
        .graph(&LineFilter {
            sources: Some(vec![rep]),
            ..LineFilter::default()
        })
        .graph;
    for node in rep_graph.node_ids() {
        assert!(all.graph.lookup(rep_graph.position(node)).is_some());
    }
    let report = book.sources()[1].report.as_ref().unwrap();
    assert_eq!(report.lines, 7);
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
    let k = NodeKey::from_position(g.position(n));
    format!("{} {:?}", k.matrix, k.turn)
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
                let moves = l.moves.iter().map(ToString::to_string).collect();
                (l.start.clone(), l.name.clone(), moves, l.eco.clone())
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
    let eco = PositionGraph::eco().unwrap();
    let back = reimport(&eco, None);
    assert_eq!(shape(&back), shape(&eco));
    assert_eq!(back.stats().lines, 3807);
}

#[test]
fn exported_repertoires_and_games_import_into_the_same_graph() {
    let eco = PositionGraph::eco().unwrap();
    for (file, mode) in [
        ("repertoire.pgn", ImportMode::Auto),
        ("twic1599_100k.pgn", ImportMode::Games),
        ("twic1599_100k.pgn", ImportMode::Repertoire),
        ("lichess_db_100k.pgn", ImportMode::Games),
        ("fen_start.pgn", ImportMode::Auto),
    ] {
        let lines = import(file, mode).lines;
        let g = PositionGraph::build(lines).graph;
        let back = reimport(&g, Some(&eco));
        assert_eq!(shape(&back), shape(&g), "{file} {mode}");
    }
    // Comments, NAGs and arrows survive too.
    let g = PositionGraph::build(import("repertoire.pgn", ImportMode::Auto).lines).graph;
    let mut text = Vec::new();
    write_graph(&g, Some(SourceId(1)), &mut text).unwrap();
    let back = read_pgn(
        &text[..],
        SourceId(1),
        &ImportOptions::default(),
        Some(&eco),
    )
    .unwrap();
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
    let mut book = BookSources::new();
    book.add_eco().unwrap();
    let id = book
        .add_pgn(
            "rep",
            &fixture("repertoire.pgn")[..],
            &ImportOptions::default(),
        )
        .unwrap()
        .id;
    let g = book.graph(&LineFilter::default()).graph;
    let mut text = Vec::new();
    let games = write_graph(&g, Some(id), &mut text).unwrap();
    assert_eq!(games, 2);
    let back = read_pgn(&text[..], SourceId(1), &ImportOptions::default(), None).unwrap();
    assert_eq!(back.lines.len(), 7);
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
        let out = read_pgn(text.as_bytes(), SourceId(1), &options(ImportMode::Repertoire), None).unwrap();
        prop_assert_eq!(&out.report.issues, &vec![], "{}", text);
        let got: Vec<Vec<String>> = out
            .lines
            .iter()
            .map(|l| l.moves.iter().map(ToString::to_string).collect())
            .collect();
        prop_assert_eq!(&got, &expected, "{}", text);
        let build = PositionGraph::build(out.lines.clone());
        prop_assert!(build.issues.is_empty());
        // Every line replays, and every move of it is a book continuation.
        let g = build.graph;
        for line in g.lines() {
            let mut pos = Chess::default();
            for san in &line.moves {
                let node = g.lookup(&pos).unwrap();
                let mv = san.to_move(&pos).unwrap();
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
        let out = read_pgn(text.as_bytes(), SourceId(1), &options(ImportMode::Repertoire), None).unwrap();
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

#[test]
fn arrows_and_circles_keep_their_squares() {
    let out = import("repertoire.pgn", ImportMode::Auto);
    let bc4 = out.lines[0]
        .annotations
        .iter()
        .find(|a| a.ply == 4)
        .unwrap();
    assert_eq!(bc4.arrows, vec![('G', Square::C4, Square::F7)]);
}

#[test]
fn a_game_longer_than_the_capture_limit_does_not_hide_the_next_game() {
    // 12 MB of knight moves back and forth, then an ordinary game.
    let mut text = String::from("[Event \"Shuffle\"]\n[Result \"*\"]\n\n");
    let mut n = 1;
    while text.len() < 12 << 20 {
        text.push_str(&format!("{n}. Nf3 Nf6 {}. Ng1 Ng8 ", n + 1));
        n += 2;
    }
    text.push_str("*\n\n[Event \"Next\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n");
    let out = read_pgn(
        text.as_bytes(),
        SourceId(1),
        &options(ImportMode::Games),
        None,
    )
    .unwrap();
    assert_eq!(out.report.issues, vec![]);
    assert_eq!(out.report.games, 2);
    let lines: Vec<String> = out.lines.iter().map(sans).collect();
    assert_eq!(lines[0].split(' ').count(), 30);
    assert_eq!(lines[1], "e4 e5 Nf3");
    let second = out.lines[1].source;
    assert_eq!(
        second,
        LineSource::Pgn {
            source: SourceId(1),
            game: 2
        }
    );
}
