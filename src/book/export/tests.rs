use super::*;
use crate::book::pgn::{ImportOptions, read_pgn};

fn round_trip(text: &str) -> String {
    let import = read_pgn(
        text.as_bytes(),
        SourceId(1),
        &ImportOptions::default(),
        None,
    )
    .expect("the PGN reads");
    let mut out = Vec::new();
    write_pgn(&import.lines, &mut out).expect("the lines write");
    String::from_utf8(out).expect("PGN is UTF-8")
}

#[test]
fn tag_values_are_escaped_and_bad_names_left_out() {
    let mut game = GameWriter::new();
    game.tag("White", r#"Say "hi" \ bye"#);
    game.tag("Bad Name", "x");
    game.tag("", "x");
    game.tag("Note", "two\nlines");
    let text = game.finish("*");
    assert_eq!(
        text,
        "[White \"Say \\\"hi\\\" \\\\ bye\"]\n[Note \"two lines\"]\n\n*\n\n"
    );
    // Read back, the value is the one written.
    let import = read_pgn(
        text.replace("*\n\n", "1. e4 *\n").as_bytes(),
        SourceId(1),
        &ImportOptions::default(),
        None,
    )
    .unwrap();
    let tags = import.lines[0].tags.as_ref().unwrap();
    assert_eq!(tags.get("White"), Some(r#"Say "hi" \ bye"#));
}

#[test]
fn movetext_wraps_numbers_black_after_comments_and_keeps_braces_out() {
    let mut pos = Chess::default();
    let mut game = GameWriter::new();
    for i in 0..40 {
        let mv = pos.legal_moves()[0];
        game.san(&pos, mv);
        if i == 0 {
            game.nag(1);
            game.comment(" a {nested}\ncomment ");
        }
        pos.play_unchecked(mv);
    }
    game.comment("   ");
    let text = game.finish("1/2-1/2");
    let movetext = text.trim_start_matches('\n');
    assert!(movetext.starts_with("1. "), "{movetext}");
    assert!(
        movetext.contains(" $1 {a (nested) comment} 1... "),
        "{movetext}"
    );
    assert!(
        movetext.lines().all(|l| l.chars().count() <= LINE),
        "{movetext}"
    );
    assert!(movetext.lines().count() > 2);
    assert!(text.ends_with(" 1/2-1/2\n\n") || text.ends_with("\n1/2-1/2\n\n"));
    assert!(!text.contains("{}"));
}

#[test]
fn a_game_s_own_tags_are_written_as_they_were() {
    let text = "[Event \"Endgame\"]\n[FEN \"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1\"]\n\
                [Result \"*\"]\n[Black \"?\"]\n[My_Tag \"a \\\"quoted\\\" word\"]\n\n\
                1. Kd2 *\n";
    assert_eq!(round_trip(text).trim_end(), text.trim_end());
    // Read again, the same text.
    assert_eq!(round_trip(&round_trip(text)), round_trip(text));
}
