//! The ECO opening list (lichess-org/chess-openings), embedded in the binary.
//!
//! Parsing works on `&str`, so the same code reads the embedded files and any
//! TSV a caller provides.

use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Move};

use super::error::{EcoError, LineError};
use super::line::{LineSource, OpeningLine, SanPathError, san_path_visiting};
use super::movelist::strip_move_number;

/// The five embedded volumes as (file name, contents), in file order.
pub const EMBEDDED: [(&str, &str); 5] = [
    ("a.tsv", include_str!("../../data/eco/a.tsv")),
    ("b.tsv", include_str!("../../data/eco/b.tsv")),
    ("c.tsv", include_str!("../../data/eco/c.tsv")),
    ("d.tsv", include_str!("../../data/eco/d.tsv")),
    ("e.tsv", include_str!("../../data/eco/e.tsv")),
];

/// The lines read from ECO files, and the rows that could not be read.
#[derive(Debug, Default, Clone)]
pub struct EcoLines {
    /// Lines in file order, then row order.
    pub lines: Vec<OpeningLine>,
    /// Rows that were skipped, with the reason.
    pub issues: Vec<EcoError>,
    /// Rows that were read but whose moves cannot be played (an illegal or ambiguous
    /// move), left out, with the row and the ply.
    pub line_issues: Vec<LineError>,
}

/// Reads the embedded ECO list (3,807 lines).
pub fn embedded() -> EcoLines {
    let mut out = EcoLines::default();
    for (file, text) in EMBEDDED {
        parse_tsv_into(file, text, &mut out);
    }
    out
}

/// Reads one ECO file (`eco<TAB>name<TAB>pgn` with a header line).
///
/// Bad rows are reported with the file, line number and token and skipped; the rest
/// of the file still loads. Each row's moves are played as they are read: a row with
/// an illegal or ambiguous move is left out and reported in
/// [`EcoLines::line_issues`].
///
/// ```
/// let text = "eco\tname\tpgn\nC60\tRuy Lopez\t1. e4 e5 2. Nf3 Nc6 3. Bb5\n";
/// let eco = hastings::book::eco::parse_tsv("c.tsv", text);
/// assert!(eco.issues.is_empty());
/// assert_eq!(eco.lines[0].moves.len(), 5);
/// ```
pub fn parse_tsv(file: &str, text: &str) -> EcoLines {
    let mut out = EcoLines::default();
    parse_tsv_into(file, text, &mut out);
    out
}

fn parse_tsv_into(file: &str, text: &str, out: &mut EcoLines) {
    let mut previous = PreviousRow::default();
    let mut rows = text.lines();
    match rows.next() {
        Some(h) if h.trim_end() == "eco\tname\tpgn" => {}
        other => {
            out.issues.push(EcoError::BadHeader {
                file: file.to_owned(),
                found: other.unwrap_or_default().to_owned(),
            });
            return;
        }
    }
    // One vector for every row's SAN moves.
    let mut sans = Vec::new();
    for (i, row_text) in rows.enumerate() {
        let row = u32::try_from(i + 2).unwrap_or(u32::MAX);
        if row_text.trim().is_empty() {
            continue;
        }
        let mut line = match parse_row(file, row, row_text, &mut sans) {
            Ok(read) => read,
            Err(e) => {
                out.issues.push(e);
                continue;
            }
        };
        match previous.play(&sans) {
            Ok(moves) => {
                line.moves = moves;
                out.lines.push(line);
            }
            Err((shared, e)) => {
                out.line_issues
                    .push(LineError::from_san_path(line.source, shared, e))
            }
        }
    }
}

/// A row's line (its moves not played yet); its SAN moves go to `moves`.
fn parse_row(
    file: &str,
    row: u32,
    text: &str,
    moves: &mut Vec<San>,
) -> Result<OpeningLine, EcoError> {
    let text = text.trim_end_matches('\r');
    let mut cols = text.split('\t');
    let (Some(code), Some(name), Some(pgn), None) =
        (cols.next(), cols.next(), cols.next(), cols.next())
    else {
        return Err(EcoError::ColumnCount {
            file: file.to_owned(),
            row,
            found: text.split('\t').count(),
        });
    };
    let bytes = code.as_bytes();
    let volume = match bytes {
        [v @ b'A'..=b'E', d1, d2] if d1.is_ascii_digit() && d2.is_ascii_digit() => char::from(*v),
        _ => {
            return Err(EcoError::BadCode {
                file: file.to_owned(),
                row,
                code: code.to_owned(),
            });
        }
    };
    moves.clear();
    for token in pgn.split_ascii_whitespace() {
        let san_text = strip_move_number(token);
        if san_text.is_empty() {
            continue;
        }
        match SanPlus::from_ascii(san_text.as_bytes()) {
            Ok(san) => moves.push(san.san),
            Err(_) => {
                return Err(EcoError::BadSan {
                    file: file.to_owned(),
                    row,
                    ply: moves.len() + 1,
                    san: san_text.to_owned(),
                });
            }
        }
    }
    let line = OpeningLine {
        eco: Some(code.to_owned()),
        name: name.to_owned(),
        ..OpeningLine::new(LineSource::Eco { volume, row }, Vec::new())
    };
    Ok(line)
}

/// The previous row played: a row that shares its first moves with it (the list is in
/// prefix order) plays only the rest.
#[derive(Default)]
struct PreviousRow {
    sans: Vec<San>,
    moves: Vec<Move>,
    /// The position before each move, and after the last.
    positions: Vec<Chess>,
}

impl PreviousRow {
    /// The moves of `sans` from the standard position; on an error, the number of
    /// moves shared with the previous row and the error after them.
    fn play(&mut self, sans: &[San]) -> Result<Vec<Move>, (usize, SanPathError)> {
        if self.positions.is_empty() {
            self.positions.push(Chess::default());
        }
        let shared = self
            .sans
            .iter()
            .zip(sans)
            .take_while(|(a, b)| a == b)
            .count();
        self.sans.truncate(shared);
        self.moves.truncate(shared);
        self.positions.truncate(shared + 1);
        // Each move played once: the positions are kept as the path is played (a row
        // that fails leaves some, cut off by the next row's `truncate`).
        let positions = &mut self.positions;
        let start = positions[shared].clone();
        let rest = san_path_visiting(&start, &sans[shared..], |pos| positions.push(pos.clone()))
            .map_err(|e| (shared, e))?;
        self.sans.extend_from_slice(&sans[shared..]);
        self.moves.extend(rest);
        Ok(self.moves.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_rows_are_reported_with_file_and_line_and_the_rest_loads() {
        let text = "eco\tname\tpgn\n\
                    A00\tGood\t1. e4\n\
                    A00\tMissing column\n\
                    A00\tBad san\t1. e4 Zz9\n\
                    X99\tBad code\t1. d4\n\
                    A01\tAlso good\t1. b3 e5\n";
        let eco = parse_tsv("a.tsv", text);
        assert_eq!(eco.lines.len(), 2);
        assert_eq!(
            eco.issues,
            vec![
                EcoError::ColumnCount {
                    file: "a.tsv".into(),
                    row: 3,
                    found: 2
                },
                EcoError::BadSan {
                    file: "a.tsv".into(),
                    row: 4,
                    ply: 2,
                    san: "Zz9".into()
                },
                EcoError::BadCode {
                    file: "a.tsv".into(),
                    row: 5,
                    code: "X99".into()
                },
            ]
        );
        assert_eq!(
            eco.issues[1].to_string(),
            "a.tsv: line 4: move 2 `Zz9` is not SAN"
        );
    }

    #[test]
    fn a_row_that_does_not_play_is_reported_by_the_reader_and_left_out() {
        let text = "eco\tname\tpgn\n\
                    C20\tGood\t1. e4 e5\n\
                    C20\tBad\t1. e4 e5 2. Ke3\n\
                    C20\tAfter\t1. e4 e5 2. Nf3\n\
                    C20\tAmbiguous\t1. d4 d5 2. Nf3 Nf6 3. Nd2\n\
                    C20\tLast\t1. d4 d5 2. Nf3\n";
        let eco = parse_tsv("c.tsv", text);
        assert!(eco.issues.is_empty());
        let errors: Vec<String> = eco.line_issues.iter().map(ToString::to_string).collect();
        assert_eq!(
            errors,
            [
                "c.tsv row 3: ply 3 `Ke3`: illegal move",
                "c.tsv row 5: ply 5 `Nd2`: ambiguous move"
            ]
        );
        let sans: Vec<String> = eco
            .lines
            .iter()
            .map(|l| l.sans().iter().map(ToString::to_string).collect())
            .map(|s: Vec<String>| s.join(" "))
            .collect();
        // The rows after a bad one share its legal moves.
        assert_eq!(sans, ["e4 e5", "e4 e5 Nf3", "d4 d5 Nf3"]);
    }

    #[test]
    fn a_missing_header_is_an_issue() {
        let eco = parse_tsv("b.tsv", "B00\tx\t1. e4\n");
        assert!(matches!(eco.issues[..], [EcoError::BadHeader { .. }]));
        assert!(eco.lines.is_empty());
    }
}
