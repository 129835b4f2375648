//! Edge cases of the importer, through `read_pgn` on small texts.

use shakmaty::Square;

use super::*;
use crate::book::line::OpeningLine;
use crate::book::line::SourceId;

fn import(text: &str, mode: ImportMode) -> PgnImport {
    let options = ImportOptions {
        mode,
        max_plies: None,
    };
    read_pgn(text.as_bytes(), SourceId(1), &options, None).unwrap()
}

fn sans(line: &OpeningLine) -> String {
    line.sans()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The lines of `text` read as a repertoire, as SAN.
fn repertoire_lines(text: &str) -> Vec<String> {
    import(text, ImportMode::Repertoire)
        .lines
        .iter()
        .map(sans)
        .collect()
}

#[test]
fn a_variation_replaces_the_last_move() {
    assert_eq!(
        repertoire_lines("1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *"),
        ["e4 e5 Nf3", "e4 c5 Nf3"]
    );
}

#[test]
fn a_variation_at_the_start_is_an_alternative_first_move() {
    assert_eq!(repertoire_lines("( 1. d4 ) 1. e4 *"), ["d4", "e4"]);
}

#[test]
fn repeated_moves_in_variations_are_merged() {
    assert_eq!(
        repertoire_lines("1. e4 (1. e4 e6) e5 *"),
        ["e4 e6", "e4 e5"]
    );
}

#[test]
fn a_pre_move_comment_goes_to_the_next_move() {
    let out = import("{Intro} 1. e4 ( {Or} 1. d4 ) *", ImportMode::Repertoire);
    let d4 = &out.lines[1];
    assert_eq!(d4.annotations[0].comment.as_deref(), Some("Or"));
    assert_eq!(
        out.lines[0].annotations[0].comment.as_deref(),
        Some("Intro")
    );
}

#[test]
fn ply_limit_cuts_variations_too() {
    let options = ImportOptions {
        mode: ImportMode::Repertoire,
        max_plies: Some(2),
    };
    let out = read_pgn(
        "1. e4 e5 2. Nf3 (2. Nc3 Nf6) Nc6 *".as_bytes(),
        SourceId(1),
        &options,
        None,
    )
    .unwrap();
    let lines: Vec<String> = out.lines.iter().map(sans).collect();
    assert_eq!(lines, ["e4 e5"]);
    assert!(out.report.issues.is_empty());
}

#[test]
fn a_token_in_no_notation_is_an_unknown_token() {
    let out = import(
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. g1=f3 Nc6 *",
        ImportMode::Games,
    );
    assert_eq!(out.lines.len(), 1);
    assert_eq!(sans(&out.lines[0]), "e4 e5");
    assert!(out.lines[0].truncated);
    let issue = &out.report.issues[0];
    assert_eq!((issue.ply, issue.san.as_str()), (3, "g1=f3"));
    assert_eq!(issue.reason, IssueReason::UnknownToken);
    assert_eq!(
        issue.to_string(),
        "game 1 (byte 0, A – B): ply 3 `g1=f3`: unknown token"
    );
}

#[test]
fn uci_and_long_algebraic_moves_are_read_as_python_chess_reads_them() {
    let text = "1. e2e4 e7-e5 2. Ng1-f3 {a comment} b8c6 3. f1b5 (3. Bf1-c4 g8f6) a7a6 4. e1g1 *";
    for mode in [ImportMode::Repertoire, ImportMode::Games] {
        let out = import(text, mode);
        assert_eq!(issues(&out), [], "{mode}");
        let lines: Vec<String> = out.lines.iter().map(sans).collect();
        let expected: &[&str] = match mode {
            ImportMode::Games => &["e4 e5 Nf3 Nc6 Bb5 a6 O-O"],
            _ => &["e4 e5 Nf3 Nc6 Bb5 a6 O-O", "e4 e5 Nf3 Nc6 Bc4 Nf6"],
        };
        assert_eq!(lines, expected, "{mode}");
        let note = &out.lines[0].annotations[0];
        assert_eq!((note.ply, note.comment.as_deref()), (2, Some("a comment")));
    }
}

#[test]
fn uci_promotions_are_read_and_a_missing_piece_is_illegal() {
    let text = "[FEN \"8/4P1k1/8/8/8/8/6K1/8 w - - 0 1\"]\n\n1. e7e8q (1. e7e8n+ Kh6) Kf6 *\n\n\
                [FEN \"8/4P1k1/8/8/8/8/6K1/8 w - - 0 1\"]\n\n1. e7e8 *\n";
    let out = import(text, ImportMode::Repertoire);
    let lines: Vec<String> = out.lines.iter().map(sans).collect();
    assert_eq!(lines, ["e8=Q Kf6", "e8=N Kh6"]);
    assert_eq!(
        issues(&out),
        [(2, 1, "e7e8".to_owned(), IssueReason::IllegalMove)]
    );
}

fn issues(out: &PgnImport) -> Vec<(u32, u32, String, IssueReason)> {
    out.report
        .issues
        .iter()
        .map(|i| (i.game, i.ply, i.san.clone(), i.reason.clone()))
        .collect()
}

#[test]
fn an_unclosed_variation_is_reported_and_its_lines_kept() {
    let out = import("1. e4 e5 (1... c5 2. Nf3", ImportMode::Repertoire);
    let expected = (1, 4, String::new(), IssueReason::UnclosedVariation);
    assert_eq!(issues(&out), [expected]);
    let lines: Vec<String> = out.lines.iter().map(sans).collect();
    assert_eq!(lines, ["e4 e5", "e4 c5 Nf3"]);
    assert!(out.lines.iter().all(|l| l.truncated));
}

#[test]
fn a_missing_result_marks_the_game_truncated() {
    let out = import("1. e4 e5\n", ImportMode::Games);
    assert_eq!(
        issues(&out),
        [(1, 3, String::new(), IssueReason::Truncated)]
    );
    assert_eq!(sans(&out.lines[0]), "e4 e5");
}

#[test]
fn an_unterminated_comment_keeps_the_moves_before_it() {
    let text = "1. e4 e5 { oops 2. Nf3 *\n\n[Event \"next\"]\n\n1. d4 *\n";
    let out = import(text, ImportMode::Games);
    let expected = (1, 3, String::new(), IssueReason::UnterminatedComment);
    assert_eq!(issues(&out), [expected]);
    assert_eq!(out.lines.len(), 1);
    assert_eq!(sans(&out.lines[0]), "e4 e5");
    assert!(out.lines[0].truncated);
}

#[test]
fn null_and_ambiguous_moves_are_reported() {
    let out = import(
        "1. e4 -- *\n\n1. d4 d5 2. Nf3 Nf6 3. Nd2 *\n",
        ImportMode::Games,
    );
    assert_eq!(
        issues(&out),
        [
            (1, 2, "--".to_owned(), IssueReason::NullMove),
            (2, 5, "Nd2".to_owned(), IssueReason::AmbiguousMove),
        ]
    );
    let lines: Vec<String> = out.lines.iter().map(sans).collect();
    assert_eq!(lines, ["e4", "d4 d5 Nf3 Nf6"]);
}

#[test]
fn games_mode_reads_the_mainline_and_skips_variations() {
    let text = "[Result \"1-0\"]\n\n1. e4 (1. d4 d5) e5 (1... c5 xx) 2. Nf3 1-0\n";
    let out = import(text, ImportMode::Games);
    assert_eq!(issues(&out), []);
    let lines: Vec<String> = out.lines.iter().map(sans).collect();
    assert_eq!(lines, ["e4 e5 Nf3"]);
}

#[test]
fn a_long_comment_is_kept_whole() {
    let long = "word ".repeat(400);
    let text = format!("1. e4 {{{long}[%cal Ge2e4]}} e5 *");
    let out = import(&text, ImportMode::Repertoire);
    assert_eq!(issues(&out), []);
    let note = &out.lines[0].annotations[0];
    assert_eq!(note.comment.as_deref(), Some(long.trim_end()));
    assert_eq!(note.arrows, vec![('G', Square::E2, Square::E4)]);
}

#[test]
fn tokens_in_junk_tags_do_not_make_a_game() {
    let junk = b"[\x01\x02 \"x\"]\n\n";
    let out = read_pgn(&junk[..], SourceId(1), &ImportOptions::default(), None);
    assert!(matches!(out, Err(ImportError::NoGames { .. })));
}

#[test]
fn move_glyphs_keep_the_rescan_in_step_with_the_reader() {
    let out = import(
        "1. e4!? e5?! 2. Nf3!! Nc6?? 3. Bb5! a6? 4. g1=f3 *",
        ImportMode::Repertoire,
    );
    let expected = (1, 7, "g1=f3".to_owned(), IssueReason::UnknownToken);
    assert_eq!(issues(&out), [expected]);
    let nags: Vec<Vec<u8>> = out.lines[0]
        .annotations
        .iter()
        .map(|a| a.nags.clone())
        .collect();
    assert_eq!(nags, [[5], [6], [3], [4], [1], [2]]);
}

/// A report reads no comment (its lines are not kept): it is the report of the import
/// that reads them all, on every fixture and in every mode, clock comments, arrows and
/// comments cut by the end of the file included.
#[test]
fn a_report_that_skips_comments_is_the_report_of_the_import_that_reads_them() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let mut compared = 0;
    for entry in std::fs::read_dir(fixtures).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pgn") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        for mode in [ImportMode::Auto, ImportMode::Games, ImportMode::Repertoire] {
            let options = ImportOptions {
                mode,
                max_plies: None,
            };
            let read = read_pgn(&bytes[..], SourceId(1), &options, None).map(|i| i.report);
            let checked = check_pgn(&bytes[..], &options);
            assert_eq!(
                format!("{checked:?}"),
                format!("{read:?}"),
                "{} in {mode:?}",
                path.display()
            );
            compared += 1;
        }
    }
    assert!(compared >= 3 * 15, "{compared} reports compared");
}
