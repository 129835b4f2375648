//! Ctrl+V in the window: the clipboard's text read as PGN games, a line of moves or a
//! FEN ([`read_paste`]). Games are kept as a file in the data folder (`pasted/`), then
//! asked how to read like a file opened; moves start a line at the position they reach,
//! and so does a FEN of a position of the book (by the fewest book moves that reach it,
//! [`PositionGraph::path_to`]); what cannot be used is said in one line.
//!
//! [`PositionGraph::path_to`]: crate::book::PositionGraph::path_to

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
    /// Start a line at the position after these moves (pasted, or the way to a pasted
    /// position).
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
        Ok(Pasted::Fen { position, .. }) => {
            let path = ctx
                .graph
                .lookup(&position)
                .and_then(|n| ctx.graph.path_to(n));
            match path {
                Some(moves) => Pasting::DrillFrom(moves),
                None => {
                    ctx.message = Some(
                        "The pasted position (FEN) is not in the book you drill from the \
                         start position: the board stays as it is."
                            .to_owned(),
                    );
                    Pasting::Said
                }
            }
        }
        Err(e) => {
            ctx.message = Some(format!("Nothing to paste: {e}."));
            Pasting::Said
        }
    }
}
