//! Ctrl+V in the window: the clipboard's text read as PGN games, a line of moves or a
//! FEN ([`read_paste`]). Games are kept as a file in the data folder (`pasted/`), then
//! asked how to read like a file opened; moves start a line at the position they reach;
//! what cannot be used is said in one line.

use std::path::{Path, PathBuf};

use shakmaty::Move;

use crate::coach::context::Context;
use crate::workspace::paste::{Pasted, read_paste};
use crate::workspace::store::create_unique;

/// What a paste asks the coach to do next.
#[derive(Debug)]
pub(crate) enum Pasting {
    /// The games were kept in this file: ask how to read it.
    OpenFile(PathBuf),
    /// Start a line at the position after these moves.
    DrillFrom(Vec<Move>),
    /// Nothing more: the drill panel's message says why.
    Said,
}

/// Reads `text`; PGN games are written to a new file in `data_dir/pasted/`.
pub(crate) fn paste(text: &str, data_dir: Option<&Path>, ctx: &mut Context) -> Pasting {
    match read_paste(text) {
        Ok(Pasted::Moves { moves, .. }) => Pasting::DrillFrom(moves),
        Ok(Pasted::Pgn { text, .. }) => {
            let Some(dir) = data_dir else {
                ctx.message =
                    Some("Pasted games are kept in the data folder, and there is none.".to_owned());
                return Pasting::Said;
            };
            match create_unique(&dir.join("pasted"), "pasted", "pgn", text.as_bytes()) {
                Ok(path) => Pasting::OpenFile(path),
                Err(e) => {
                    ctx.message = Some(format!("The pasted games were not kept: {e}."));
                    Pasting::Said
                }
            }
        }
        Ok(Pasted::Fen { .. }) => {
            ctx.message = Some(
                "A position (FEN) was pasted: the drill starts from the moves that reach it, \
                 so paste those moves instead."
                    .to_owned(),
            );
            Pasting::Said
        }
        Err(e) => {
            ctx.message = Some(format!("Nothing to paste: {e}."));
            Pasting::Said
        }
    }
}
