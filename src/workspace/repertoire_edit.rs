//! "Add the most popular answer to my repertoire": a copy of the learner's repertoire
//! file with one more game, written beside it. The learner's own file is never touched,
//! and the copy keeps it byte for byte (tags, results, comments, variations): the new
//! line is a game appended at the end.

use std::path::{Path, PathBuf};

use shakmaty::{Chess, Move, Position};

use super::error::WorkspaceError;
use super::store::{StoreError, WriteLock};
use crate::book::export::GameWriter;

/// The `[Event]` of an added line.
pub const ADDED_EVENT: &str = "Added by Hastings";

/// Writes a copy of the repertoire file `original` with the line `moves` (legal moves
/// from the standard start) appended as a game of its own, to a new file beside it:
/// `NAME-updated.pgn`, or `NAME-updated-2.pgn` and so on when that exists. The game's
/// tags are `[Event "Added by Hastings"]`, `[Result "*"]` and, when `eco` or `opening`
/// are given, `[ECO]` and `[Opening]`/`[Variation]` (the opening's name split at its
/// first `": "`, as the ECO list writes names). Written atomically; returns the new
/// file's path.
///
/// # Errors
///
/// [`WorkspaceError::Open`] when `original` cannot be read, [`WorkspaceError::Store`]
/// when the copy cannot be written.
pub fn add_line_to_copy(
    original: &Path,
    moves: &[Move],
    eco: Option<&str>,
    opening: Option<&str>,
) -> Result<PathBuf, WorkspaceError> {
    let mut text = std::fs::read(original).map_err(|source| WorkspaceError::Open {
        path: original.to_path_buf(),
        source,
    })?;
    let mut game = GameWriter::new();
    game.tag("Event", ADDED_EVENT);
    game.tag("Result", "*");
    if let Some(eco) = eco.filter(|e| !e.is_empty()) {
        game.tag("ECO", eco);
    }
    if let Some(name) = opening.filter(|n| !n.is_empty()) {
        match name.split_once(": ") {
            Some((opening, variation)) => {
                game.tag("Opening", opening);
                game.tag("Variation", variation);
            }
            None => game.tag("Opening", name),
        }
    }
    let mut pos = Chess::default();
    for &mv in moves {
        if !pos.is_legal(mv) {
            break;
        }
        game.san(&pos, mv);
        pos.play_unchecked(mv);
    }
    // A blank line between the file's last game and the new one.
    while text.last().is_some_and(|b| b.is_ascii_whitespace()) {
        text.pop();
    }
    if !text.is_empty() {
        text.extend_from_slice(b"\n\n");
    }
    text.extend_from_slice(game.finish("*").as_bytes());
    // The first name free, taken under its lock: two copies made at once get two names.
    for path in copy_paths(original) {
        if WriteLock::acquire(&path)?.write_new(&text)? {
            return Ok(path);
        }
    }
    Err(WorkspaceError::Store(StoreError::Io {
        path: original.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "every name for an updated copy is taken",
        ),
    }))
}

/// `NAME-updated.pgn` beside `original`, then `NAME-updated-2.pgn` and so on.
fn copy_paths(original: &Path) -> impl Iterator<Item = PathBuf> {
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
    let dir = dir.to_path_buf();
    (1..=10_000).map(move |n| {
        if n == 1 {
            dir.join(format!("{stem}-updated.pgn"))
        } else {
            dir.join(format!("{stem}-updated-{n}.pgn"))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::OpeningLine;
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
        let pos = Chess::default();
        let moves = crate::book::movelist::parse_moves(&pos, "e4 c6 d4").unwrap();
        let copy = add_line_to_copy(&original, &moves, None, Some("Caro-Kann")).unwrap();
        assert_eq!(copy, dir.join("rep-updated.pgn"));
        assert_eq!(std::fs::read_to_string(&original).unwrap(), text);
        let sans = |l: &OpeningLine| {
            l.sans()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut got: Vec<String> = read(&copy).iter().map(sans).collect();
        got.sort();
        assert_eq!(got, ["e4 c5 Nf3", "e4 c6 d4", "e4 e5 Nf3"]);
        // A second copy does not overwrite the first, and is named after the original.
        let again = add_line_to_copy(&copy, &moves, None, None).unwrap();
        assert_eq!(again, dir.join("rep-updated-2.pgn"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_copy_keeps_the_file_byte_for_byte_and_appends_one_named_game() {
        let dir =
            std::env::temp_dir().join(format!("hastings-rep-edit-tags-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let original = dir.join("games.pgn");
        // A game the learner played, as lichess exports it: its result and tags stay.
        let text = "[Event \"Rated Blitz game\"]\n[White \"me\"]\n[Black \"you\"]\n\
                    [Result \"1-0\"]\n\n1. e4 { A comment } 1... c6 (1... e5) 2. d4 1-0\n\n\n";
        std::fs::write(&original, text).unwrap();
        let moves =
            crate::book::movelist::parse_moves(&Chess::default(), "e4 c6 d4 d5 e5").unwrap();
        let copy = add_line_to_copy(
            &original,
            &moves,
            Some("B12"),
            Some("Caro-Kann Defense: Advance Variation"),
        )
        .unwrap();
        let written = std::fs::read_to_string(&copy).unwrap();
        let kept = text.trim_end();
        assert!(written.starts_with(kept), "{written}");
        assert_eq!(
            &written[kept.len()..],
            "\n\n[Event \"Added by Hastings\"]\n[Result \"*\"]\n[ECO \"B12\"]\n\
             [Opening \"Caro-Kann Defense\"]\n[Variation \"Advance Variation\"]\n\n\
             1. e4 c6 2. d4 d5 3. e5 *\n\n"
        );
        // Both games read back, the first with its own result.
        assert_eq!(read(&copy).len(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
