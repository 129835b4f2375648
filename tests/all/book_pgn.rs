//! PGN import through the public API, on real and handmade files: counts checked
//! against an independent reading, issues with game and ply, other notations.
// Helpers of a test file are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::{BTreeMap, HashSet};

use common::{fixture_bytes, import_fixture, import_options, line_sans};
use hastings::book::pgn::{
    ImportError, ImportIssue, ImportMode, ImportOptions, IssueReason, StartIssue, read_pgn,
};
use hastings::book::{Flag, LineSource, OpeningLine, PositionGraph, SourceId};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, EnPassantMode, Position, Square};

/// The FEN of a line's start, as its `[FEN]` tag is written.
fn start_fen(line: &OpeningLine) -> Option<String> {
    line.start.as_ref().map(|s| s.fen().to_string())
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
    let out = import_fixture("twic1599_100k.pgn", ImportMode::Games);
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
    let text = String::from_utf8(fixture_bytes("twic1599_100k.pgn")).unwrap();
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
    let out = import_fixture("lichess_db_100k.pgn", ImportMode::Games);
    let r = &out.report;
    assert_eq!(r.issues, vec![], "no issues");
    assert_eq!((r.games, r.imported, r.lines), (47, 47, 47));
    assert_eq!(r.positions, 1269);
    let text = String::from_utf8(fixture_bytes("lichess_db_100k.pgn")).unwrap();
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
        import_fixture("twic1599_100k.pgn", ImportMode::Auto)
            .report
            .mode,
        ImportMode::Games
    );
    assert_eq!(
        import_fixture("lichess_db_100k.pgn", ImportMode::Auto)
            .report
            .mode,
        ImportMode::Games
    );
    assert_eq!(
        import_fixture("repertoire.pgn", ImportMode::Auto)
            .report
            .mode,
        ImportMode::Repertoire
    );
}

#[test]
fn the_ply_limit_of_games_mode_can_be_changed() {
    let eco = common::eco_graph();
    let opts = ImportOptions {
        mode: ImportMode::Games,
        max_plies: Some(8),
    };
    let out = read_pgn(
        &fixture_bytes("lichess_db_100k.pgn")[..],
        SourceId(1),
        &opts,
        Some(eco),
    )
    .unwrap();
    assert!(out.lines.iter().all(|l| l.moves.len() == 8));
    let text = String::from_utf8(fixture_bytes("lichess_db_100k.pgn")).unwrap();
    assert_eq!(
        out.report.positions,
        independent_positions(&text, 8).1.len()
    );
}

#[test]
fn repertoire_with_nested_variations_imports_every_path_with_comments_attached() {
    let out = import_fixture("repertoire.pgn", ImportMode::Repertoire);
    assert_eq!(out.report.issues, vec![]);
    assert_eq!((out.report.games, out.report.lines), (2, 7));
    let lines: Vec<String> = out.lines.iter().map(line_sans).collect();
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
    let out = import_fixture("illegal.pgn", ImportMode::Auto);
    assert_eq!(
        brief(&out.report.issues),
        [(2, 7, "Bxf7".to_owned(), IssueReason::IllegalMove)]
    );
    assert_eq!(
        out.report.issues[0].to_string(),
        "game 2 (byte 124, Carol – Dave): ply 7 `Bxf7`: illegal move"
    );
    assert_eq!(&fixture_bytes("illegal.pgn")[124..131], b"[Event ");
    let lines: Vec<(u32, String, bool)> = out
        .lines
        .iter()
        .map(|l| match l.source {
            LineSource::Pgn { game, .. } => (game, line_sans(l), l.truncated),
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
    let out = import_fixture("truncated.pgn", ImportMode::Games);
    assert_eq!(
        brief(&out.report.issues),
        [(3, 11, "Be".to_owned(), IssueReason::Truncated)]
    );
    assert_eq!(out.lines.len(), 3);
    assert_eq!(
        line_sans(&out.lines[2]),
        "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"
    );
    assert!(out.lines[2].truncated);
    assert!(!out.lines[0].truncated && !out.lines[1].truncated);
}

#[test]
fn garbage_bytes_are_reported_and_the_games_around_them_load() {
    let out = import_fixture("garbage.pgn", ImportMode::Auto);
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
    let lines: Vec<String> = out.lines.iter().map(line_sans).collect();
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
        &fixture_bytes("empty.pgn")[..],
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
        let err = read_pgn(&bytes[..], SourceId(1), &import_options(mode), None).unwrap_err();
        assert!(err.to_string().starts_with("no games found"), "{err}");
    }
}

#[test]
fn fen_starts_begin_the_line_at_their_position() {
    let out = import_fixture("fen_start.pgn", ImportMode::Auto);
    assert_eq!(out.report.issues.len(), 1, "{:#?}", out.report.issues);
    let issue = &out.report.issues[0];
    assert_eq!((issue.game, issue.ply), (4, 0));
    assert!(
        matches!(&issue.reason, IssueReason::Start(StartIssue::BadFen { fen, .. }) if fen.ends_with("RNBQKBNX w KQkq - 0 1"))
    );
    assert_eq!(out.lines.len(), 3);
    let lucena = &out.lines[0];
    assert_eq!(
        start_fen(lucena).as_deref(),
        Some("1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1")
    );
    assert_eq!(
        line_sans(lucena),
        "Rd1 Ke7 Rd4 Ra1 Kc7 Rc1 Kb6 Rb1 Kc6 Rc1 Kb5 Rb1 Rb4"
    );
    // The standard position written as a FEN is the standard start.
    assert_eq!(out.lines[1].start, None);
    assert_eq!(
        start_fen(&out.lines[2]).as_deref(),
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
    let out = import_fixture("chess960.pgn", ImportMode::Auto);
    let issues = brief(&out.report.issues);
    assert_eq!(issues.len(), 3);
    assert_eq!(
        issues[0].3,
        IssueReason::Start(StartIssue::Variant("Chess960".into()))
    );
    assert_eq!(
        issues[1].3,
        IssueReason::Start(StartIssue::Chess960(
            "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1".into()
        ))
    );
    assert_eq!(
        issues[2].3,
        IssueReason::Start(StartIssue::Variant("Crazyhouse".into()))
    );
    assert_eq!(issues.iter().map(|i| i.0).collect::<Vec<_>>(), [2, 3, 4]);
    assert_eq!(
        out.report.issues[0].to_string(),
        "game 2 (byte 95, Carol – Dave): variant `Chess960` is not supported; game skipped"
    );
    assert_eq!(&fixture_bytes("chess960.pgn")[95..102], b"[Event ");
    assert_eq!(out.lines.len(), 1);
    assert_eq!(line_sans(&out.lines[0]), "e4 e5 Nf3 Nc6");
    assert_eq!(out.report.games, 4);
}

#[test]
fn arrows_and_circles_keep_their_squares() {
    let out = import_fixture("repertoire.pgn", ImportMode::Auto);
    let bc4 = out.lines[0]
        .annotations
        .iter()
        .find(|a| a.ply == 4)
        .unwrap();
    assert_eq!(bc4.arrows, vec![('G', Square::C4, Square::F7)]);
    assert_eq!(bc4.circles, vec![]);
    // `4. c3 { [%csl Gd4][%cal Gd2d4,Ge4e5] Preparing d4. }`
    let c3 = out.lines[0]
        .annotations
        .iter()
        .find(|a| a.ply == 6)
        .unwrap();
    assert_eq!(c3.circles, vec![('G', Square::D4)]);
    assert_eq!(
        c3.arrows,
        vec![('G', Square::D2, Square::D4), ('G', Square::E4, Square::E5)]
    );
    assert_eq!(c3.comment.as_deref(), Some("Preparing d4."));
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
        &import_options(ImportMode::Games),
        None,
    )
    .unwrap();
    assert_eq!(out.report.issues, vec![]);
    assert_eq!(out.report.games, 2);
    let lines: Vec<String> = out.lines.iter().map(line_sans).collect();
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

/// The fixture's lines as python-chess reads them: SAN of every root-to-leaf path and
/// the FEN at its end, printed by `docs/pgn_uci_reference.py` (python-chess 1.11.2).
const UCI_REFERENCE: [(&str, &str); 6] = [
    (
        "e4 d5 e5 f5 exf6 Nc6 fxg7 Qd6 Nf3 Bd7 Bc4 O-O-O O-O h5 gxh8=N Qxh2+ Nxh2 dxc4 Nf7 \
         Nf6 Nxd8 Ng4 Nxg4 hxg4 Nxc6 Bxc6 d3 cxd3 cxd3 g3 Qb3 gxf2+ Rxf2 e5 Qe6+ Kb8 Qxe5 Bd6",
        "1k6/ppp5/2bb4/4Q3/8/3P4/PP3RP1/RNB3K1 w - - 1 20",
    ),
    (
        "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O f6",
        "r1bqkbnr/1pp3pp/p1p2p2/4p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 0 6",
    ),
    (
        "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 Nc3 f6 d4 exd4 Qxd4 Qxd4 Nxd4 Bd6 Be3 Ne7 O-O-O",
        "r1b1k2r/1pp1n1pp/p1pb1p2/8/3NP3/2N1B3/PPP2PPP/2KR3R b kq - 4 10",
    ),
    (
        "e4 e5 f4 exf4 Nf3 g5",
        "rnbqkbnr/pppp1p1p/8/6p1/4Pp2/5N2/PPPP2PP/RNBQKB1R w KQkq - 0 4",
    ),
    ("e8=Q b1=Q Qe5+ Kg8", "6k1/8/8/4Q3/8/8/6K1/1q6 w - - 2 3"),
    ("e8=N+ Kh6 Kf3 b1=N", "4N3/8/7k/8/8/5K2/8/1n6 w - - 0 3"),
];

/// SAN without `+` and `#`, moves separated by one space (lines keep no check marks).
fn without_checks(sans: &str) -> String {
    sans.split_whitespace()
        .map(|s| s.trim_end_matches(['+', '#']))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn uci_and_long_algebraic_moves_read_as_python_chess_reads_them() {
    let out = import_fixture("uci_moves.pgn", ImportMode::Auto);
    assert_eq!(out.report.issues, vec![]);
    assert_eq!(out.report.mode, ImportMode::Repertoire);
    assert_eq!((out.report.games, out.report.lines), (3, 6));
    for (line, (sans, fen)) in out.lines.iter().zip(UCI_REFERENCE) {
        assert_eq!(line_sans(line), without_checks(sans));
        let mut pos = line.start_position();
        for &mv in &line.moves {
            assert!(pos.is_legal(mv));
            pos.play_unchecked(mv);
        }
        assert_eq!(
            Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
            fen
        );
    }
    // Comments and arrows stay on their moves: `3. Bf1-b5 $1 {The Spanish.}`.
    let bb5 = out.lines[1]
        .annotations
        .iter()
        .find(|a| a.ply == 4)
        .unwrap();
    assert_eq!(
        (bb5.nags.as_slice(), bb5.comment.as_deref()),
        (&[1][..], Some("The Spanish."))
    );
    // The lines build into a graph, and the export reads back in SAN.
    let graph = PositionGraph::build(out.lines.clone());
    assert!(graph.issues.is_empty());
    let mut text = Vec::new();
    hastings::book::export::write_pgn(&out.lines, &mut text).unwrap();
    let back = read_pgn(&text[..], SourceId(2), &ImportOptions::default(), None).unwrap();
    let again: Vec<String> = back.lines.iter().map(line_sans).collect();
    let first: Vec<String> = out.lines.iter().map(line_sans).collect();
    assert_eq!(again, first);
    assert!(!String::from_utf8(text).unwrap().contains("e2e4"));
}

#[test]
fn uci_games_read_in_games_mode_stop_at_the_ply_limit() {
    let out = import_fixture("uci_moves.pgn", ImportMode::Games);
    assert_eq!(out.report.issues, vec![]);
    let lines: Vec<String> = out.lines.iter().map(line_sans).collect();
    let first = without_checks(UCI_REFERENCE[0].0);
    let first: Vec<&str> = first.split(' ').take(30).collect();
    assert_eq!(lines[0], first.join(" "));
    assert_eq!(lines[1], without_checks(UCI_REFERENCE[1].0));
    assert_eq!(lines[2], without_checks(UCI_REFERENCE[4].0));
}
