use super::*;

#[test]
fn nags_parse_like_btou() {
    assert_eq!(parse_nag(b"12"), Some(12));
    assert_eq!(parse_nag(b"0255"), Some(255));
    assert_eq!(parse_nag(b"256"), None);
    assert_eq!(parse_nag(b""), None);
    assert_eq!(parse_nag(b"1a"), None);
}

/// `written_as` writes moves as shakmaty does, and takes a token only when the
/// reader's parse of it is the move and ends where the token ends.
#[test]
fn moves_written_as_san_are_matched_as_parsing_would() {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "3k4/8/8/8/8/8/7K/N3N1N1 w - - 0 1",
    ];
    let mut checked = 0;
    for fen in fens {
        let pos: Chess = Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        for mv in pos.legal_moves() {
            let san = San::from_move(&pos, mv);
            let text = san.to_string();
            for suffix in ["", "+", "#", " 2.", "!", "{x}", ")"] {
                let token = format!("{text}{suffix}");
                let parsed = SanPlus::from_ascii_prefix(token.as_bytes()).unwrap();
                let ends = token
                    .as_bytes()
                    .get(parsed.1)
                    .is_none_or(|&b| is_token_end(b));
                let expected = (parsed.0.san == san && ends).then_some(parsed.1);
                assert_eq!(written_as(token.as_bytes(), san), expected, "{token}");
                checked += 1;
            }
            // Other spellings are left to the parser.
            for other in [format!("{text}x"), format!("{text}++"), format!("{text}=")] {
                assert_eq!(written_as(other.as_bytes(), san), None, "{other}");
            }
            if let San::Normal {
                promotion: Some(_), ..
            } = san
            {
                let no_equals = text.replace('=', "");
                assert_eq!(written_as(no_equals.as_bytes(), san), None);
            }
        }
    }
    assert!(checked > 500, "{checked}");
}
