//! Reading what an engine prints, leniently, with shakmaty-uci doing the parsing.
//!
//! shakmaty-uci parses whole lines strictly: one unknown token (Stockfish's
//! `wdl 50 900 50`, a future field) and the whole `info` line fails. Here an `info` line
//! is cut into its fields first; each known field is parsed on its own and the
//! results merged, and unknown or malformed fields are skipped and counted. A
//! `bestmove (none)` (no legal move) is understood too.

use std::io::BufRead;

use shakmaty::uci::UciMove;
use shakmaty_uci::{UciInfo, UciMessage, UciOptionConfig};

/// One line from an engine.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineLine {
    /// `id name …` / `id author …`.
    Id {
        /// The engine's name.
        name: Option<String>,
        /// Its author.
        author: Option<String>,
    },
    /// `option name … type …`.
    Option(UciOptionConfig),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// An `info` line, with the number of fields that were skipped.
    Info {
        /// The fields that could be read.
        info: UciInfo,
        /// Fields that were unknown or malformed.
        skipped: usize,
    },
    /// `bestmove …`: `None` for `bestmove (none)` or `bestmove 0000`.
    BestMove {
        /// The move.
        best: Option<UciMove>,
        /// The expected reply.
        ponder: Option<UciMove>,
    },
    /// Anything else (a banner, a message for the GUI's log, garbage).
    Other(String),
}

/// Keywords that start an `info` field, with how many value tokens follow: `Some(n)`
/// for a fixed count, `None` for "until the next keyword" (or the end of the line).
const INFO_FIELDS: [(&str, Option<usize>); 16] = [
    ("depth", Some(1)),
    ("seldepth", Some(1)),
    ("time", Some(1)),
    ("nodes", Some(1)),
    ("multipv", Some(1)),
    ("currmove", Some(1)),
    ("currmovenumber", Some(1)),
    ("hashfull", Some(1)),
    ("nps", Some(1)),
    ("tbhits", Some(1)),
    ("sbhits", Some(1)),
    ("cpuload", Some(1)),
    ("score", None),
    ("pv", None),
    ("refutation", None),
    ("currline", None),
];

fn is_info_keyword(token: &str) -> bool {
    token == "string" || INFO_FIELDS.iter().any(|(k, _)| *k == token)
}

/// Reads one line an engine printed.
///
/// ```
/// use hastings::engine::protocol::{parse_line, EngineLine};
/// let line = "info depth 3 multipv 1 score cp 20 wdl 390 420 190 nodes 100 pv e2e4";
/// let EngineLine::Info { info, skipped } = parse_line(line) else { panic!() };
/// assert_eq!((info.depth, info.nodes, info.pv.len(), skipped), (Some(3), Some(100), 1, 1));
/// ```
pub fn parse_line(line: &str) -> EngineLine {
    let line = line.trim();
    let mut tokens = line.split_whitespace();
    match tokens.next() {
        Some("info") => {
            let (info, skipped) = parse_info(line);
            EngineLine::Info { info, skipped }
        }
        Some("bestmove") => parse_bestmove(line, tokens),
        _ => match line.parse::<UciMessage>() {
            Ok(UciMessage::Id { name, author }) => EngineLine::Id { name, author },
            Ok(UciMessage::Option(option)) => EngineLine::Option(option),
            Ok(UciMessage::UciOk) => EngineLine::UciOk,
            Ok(UciMessage::ReadyOk) => EngineLine::ReadyOk,
            _ => EngineLine::Other(line.to_string()),
        },
    }
}

fn parse_bestmove<'a>(line: &str, mut tokens: impl Iterator<Item = &'a str>) -> EngineLine {
    let best = tokens.next();
    if matches!(best, Some("(none)" | "0000" | "none")) {
        return EngineLine::BestMove {
            best: None,
            ponder: None,
        };
    }
    match line.parse::<UciMessage>() {
        Ok(UciMessage::BestMove { best_move, ponder }) => EngineLine::BestMove {
            best: Some(best_move),
            ponder,
        },
        // `bestmove e2e4 ponder (none)` and the like: keep the move.
        _ => match best.and_then(|b| b.parse::<UciMove>().ok()) {
            Some(m) => EngineLine::BestMove {
                best: Some(m),
                ponder: None,
            },
            None => EngineLine::Other(line.to_string()),
        },
    }
}

/// Reads `reader` line by line, what is not UTF-8 replaced (an engine's output, a
/// GUI's commands: one stray Latin-1 byte must not end the conversation), calling
/// `each` with the line (line end removed) until it returns false or the input ends,
/// then `done`.
pub fn read_lines_lossy(
    mut reader: impl BufRead,
    mut each: impl FnMut(String) -> bool,
    done: impl FnOnce(),
) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                if !each(line) {
                    break;
                }
            }
        }
    }
    done();
}

/// The fields of an `info` line, each parsed alone and merged; returns the number of
/// fields skipped.
fn parse_info(line: &str) -> (UciInfo, usize) {
    let tokens: Vec<&str> = line.split_whitespace().skip(1).collect();
    let mut info = UciInfo::default();
    let mut skipped = 0;
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        if key == "string" {
            // The rest of the line is the string, spaces and all.
            let rest = line
                .split_once(" string ")
                .map_or(String::new(), |(_, s)| s.to_string());
            info.string = Some(rest);
            break;
        }
        let Some((_, count)) = INFO_FIELDS.iter().find(|(k, _)| *k == key) else {
            // Unknown field: skip it and its values, up to the next known keyword.
            skipped += 1;
            i += 1;
            while i < tokens.len() && !is_info_keyword(tokens[i]) {
                i += 1;
            }
            continue;
        };
        let end = match count {
            Some(n) => (i + 1 + n).min(tokens.len()),
            None => field_end(&tokens, i),
        };
        let field = format!("info {}", tokens[i..end].join(" "));
        match field.parse::<UciMessage>() {
            Ok(UciMessage::Info(part)) => merge(&mut info, part),
            _ => skipped += 1,
        }
        i = end;
    }
    (info, skipped)
}

/// The end of the variable-length field starting at `tokens[start]`: a score is
/// `cp|mate N` and an optional bound; a line (`pv`, `refutation`, `currline`) is the
/// moves that follow (after a CPU number for `currline`). So an unknown field after
/// them (Stockfish's `wdl 44 915 41`) is not swallowed.
fn field_end(tokens: &[&str], start: usize) -> usize {
    let mut j = start + 1;
    if tokens[start] == "score" {
        j = (j + 2).min(tokens.len());
        if tokens
            .get(j)
            .is_some_and(|t| *t == "lowerbound" || *t == "upperbound")
        {
            j += 1;
        }
        return j;
    }
    if tokens[start] == "currline" && tokens.get(j).is_some_and(|t| t.parse::<u16>().is_ok()) {
        j += 1;
    }
    while tokens.get(j).is_some_and(|t| t.parse::<UciMove>().is_ok()) {
        j += 1;
    }
    j
}

/// Copies the fields set in `part` into `info`.
fn merge(info: &mut UciInfo, part: UciInfo) {
    macro_rules! take {
        ($($field:ident),*) => {
            $(if part.$field.is_some() { info.$field = part.$field; })*
        };
    }
    take!(
        depth,
        sel_depth,
        time,
        nodes,
        multi_pv,
        score,
        curr_move,
        curr_move_num,
        hash_full,
        nps,
        tb_hits,
        sb_hits,
        cpu_load,
        string
    );
    if !part.pv.is_empty() {
        info.pv = part.pv;
    }
    if !part.refutation.is_empty() {
        info.refutation = part.refutation;
    }
    if !part.curr_line.is_empty() {
        info.curr_line = part.curr_line;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stockfish_info_line_with_wdl_keeps_every_known_field() {
        let line = "info depth 14 seldepth 22 multipv 1 score cp -29 lowerbound wdl 44 915 41 \
                    nodes 105394 nps 347834 hashfull 44 tbhits 0 time 303 pv c7c5 g1f3";
        let EngineLine::Info { info, skipped } = parse_line(line) else {
            panic!("not info")
        };
        assert_eq!(skipped, 1);
        assert_eq!(info.depth, Some(14));
        assert_eq!(info.sel_depth, Some(22));
        assert_eq!(info.multi_pv, Some(1));
        let score = info.score.unwrap();
        assert_eq!((score.cp, score.lower_bound), (Some(-29), true));
        assert_eq!(info.nodes, Some(105_394));
        assert_eq!(info.nps, Some(347_834));
        assert_eq!(info.time.unwrap().as_millis(), 303);
        assert_eq!(info.pv.len(), 2);
    }

    #[test]
    fn malformed_fields_are_skipped_not_fatal() {
        let EngineLine::Info { info, skipped } =
            parse_line("info depth x score mate -3 nodes 12 pv e2e4 zz99 e7e5")
        else {
            panic!("not info")
        };
        assert_eq!(info.depth, None);
        assert_eq!(info.score.unwrap().mate, Some(-3));
        assert_eq!(info.nodes, Some(12));
        // The variation ends at the first token that is not a move; `zz99 e7e5` is an
        // unknown field.
        assert_eq!(info.pv.len(), 1);
        assert_eq!(skipped, 2);
    }

    #[test]
    fn wdl_after_the_score_and_after_the_variation_is_skipped() {
        let line = "info depth 2 score cp 13 wdl 35 952 13 nodes 5 pv e2e4 e7e5 wdl 1 2 3";
        let EngineLine::Info { info, skipped } = parse_line(line) else {
            panic!("not info")
        };
        assert_eq!(info.score.unwrap().cp, Some(13));
        assert_eq!((info.nodes, info.pv.len(), skipped), (Some(5), 2, 2));
    }

    #[test]
    fn info_string_keeps_its_spaces() {
        let EngineLine::Info { info, .. } =
            parse_line("info string NNUE evaluation using nn-ad9b42354671.nnue enabled")
        else {
            panic!("not info")
        };
        assert_eq!(
            info.string.as_deref(),
            Some("NNUE evaluation using nn-ad9b42354671.nnue enabled")
        );
    }

    #[test]
    fn bestmove_none_means_no_legal_move() {
        for line in ["bestmove (none)", "bestmove 0000"] {
            assert_eq!(
                parse_line(line),
                EngineLine::BestMove {
                    best: None,
                    ponder: None
                }
            );
        }
        let EngineLine::BestMove { best, ponder } = parse_line("bestmove e7e8q ponder a2a1") else {
            panic!()
        };
        assert_eq!(best.unwrap().to_string(), "e7e8q");
        assert_eq!(ponder.unwrap().to_string(), "a2a1");
    }

    #[test]
    fn handshake_lines_and_banners() {
        assert_eq!(parse_line("uciok"), EngineLine::UciOk);
        assert_eq!(parse_line("readyok\r"), EngineLine::ReadyOk);
        assert!(matches!(
            parse_line("id name Stockfish 15.1"),
            EngineLine::Id { name: Some(n), .. } if n == "Stockfish 15.1"
        ));
        assert!(matches!(
            parse_line("option name Skill Level type spin default 20 min 0 max 20"),
            EngineLine::Option(UciOptionConfig::Spin { max: Some(20), .. })
        ));
        assert!(matches!(
            parse_line("Stockfish 15.1 by the Stockfish developers (see AUTHORS file)"),
            EngineLine::Other(_)
        ));
    }
}
