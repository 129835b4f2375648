//! "Add the most popular answer to my repertoire": a copy of the learner's repertoire
//! file with one more line, written beside it. The learner's own file is never touched.

use std::path::{Path, PathBuf};

use shakmaty::{Chess, Move};

use super::error::WorkspaceError;
use super::export::write_pgn_file;
use crate::book::line::sans_of;
use crate::book::{LineSource, OpeningLine};

/// Writes the repertoire `lines` (read from `original`) with the line `moves` (legal
/// moves from the standard start) added, as PGN, to a new file beside `original`:
/// `NAME-updated.pgn`, or `NAME-updated-2.pgn` and so on when that exists. Returns the
/// new file's path.
///
/// # Errors
///
/// [`WorkspaceError`] when the PGN cannot be made or written.
pub fn add_line_to_copy(
    original: &Path,
    lines: &[OpeningLine],
    moves: &[Move],
    name: &str,
) -> Result<PathBuf, WorkspaceError> {
    let sans = sans_of(&Chess::default(), moves);
    let source = match lines.first().map(|l| &l.source) {
        Some(LineSource::Pgn { source, .. }) => *source,
        _ => crate::book::SourceId(u16::MAX),
    };
    let mut all = lines.to_vec();
    all.push(OpeningLine {
        source: LineSource::Pgn {
            source,
            game: u32::try_from(lines.len() + 1).unwrap_or(u32::MAX),
        },
        eco: None,
        name: name.to_owned(),
        start: None,
        moves: sans,
        weight: 1.0,
        annotations: Vec::new(),
        truncated: false,
        tags: None,
    });
    let path = free_copy_path(original);
    write_pgn_file(&all, &path)?;
    Ok(path)
}

/// `NAME-updated.pgn` beside `original`, or the first `NAME-updated-N.pgn` that does
/// not exist.
fn free_copy_path(original: &Path) -> PathBuf {
    let stem = original.file_stem().map_or_else(
        || "repertoire".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    // A copy of a copy is named after the original, not `…-updated-updated`.
    let stem = match stem.rfind("-updated") {
        Some(i)
            if stem[i + "-updated".len()..]
                .chars()
                .all(|c| c == '-' || c.is_ascii_digit()) =>
        {
            stem[..i].to_owned()
        }
        _ => stem,
    };
    let dir = original.parent().unwrap_or_else(|| Path::new("."));
    (1..)
        .map(|n| {
            if n == 1 {
                dir.join(format!("{stem}-updated.pgn"))
            } else {
                dir.join(format!("{stem}-updated-{n}.pgn"))
            }
        })
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join(format!("{stem}-updated.pgn")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::pgn::{ImportMode, ImportOptions, read_pgn};

    fn read(path: &Path) -> Vec<OpeningLine> {
        let text = std::fs::read(path).unwrap();
        let options = ImportOptions {
            mode: ImportMode::Repertoire,
            max_plies: None,
        };
        read_pgn(&text[..], crate::book::SourceId(1), &options, None)
            .unwrap()
            .lines
    }

    #[test]
    fn the_copy_has_every_line_and_the_new_one_and_the_original_is_unchanged() {
        let dir = std::env::temp_dir().join(format!("hastings-rep-edit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let original = dir.join("rep.pgn");
        let text = "[Event \"Mine\"]\n[Result \"*\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n";
        std::fs::write(&original, text).unwrap();
        let lines = read(&original);
        let pos = Chess::default();
        let moves = crate::book::movelist::parse_moves(&pos, "e4 c6 d4").unwrap();
        let copy = add_line_to_copy(&original, &lines, &moves, "Caro-Kann").unwrap();
        assert_eq!(copy, dir.join("rep-updated.pgn"));
        assert_eq!(std::fs::read_to_string(&original).unwrap(), text);
        let sans = |l: &OpeningLine| {
            l.moves
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut got: Vec<String> = read(&copy).iter().map(sans).collect();
        got.sort();
        assert_eq!(got, ["e4 c5 Nf3", "e4 c6 d4", "e4 e5 Nf3"]);
        // A second copy does not overwrite the first, and is named after the original.
        let again = add_line_to_copy(&copy, &read(&copy), &moves, "").unwrap();
        assert_eq!(again, dir.join("rep-updated-2.pgn"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
