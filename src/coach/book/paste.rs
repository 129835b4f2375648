//! Ctrl+V in the window: the clipboard's text read as PGN games, a line of moves or a
//! FEN ([`read_paste`]) on a background job, so that the window goes on drawing while a
//! paste of thousands of games is read. Games are kept as a file in the data folder
//! (`pasted/`, written by the job too), then asked how to read like a file opened; moves
//! start a line at the position they reach, and so does a FEN of a position of the book
//! (by the fewest book moves that reach it, [`PositionGraph::path_to`]); what cannot be
//! used is said in one line.
//!
//! [`PositionGraph::path_to`]: crate::book::PositionGraph::path_to

use std::path::PathBuf;

use shakmaty::{Chess, Move};

use crate::coach::context::Context;
use crate::job::{Job, JobPoll};
use crate::workspace::paste::{Pasted, read_paste};
use crate::workspace::store::create_unique;

/// The drill panel's line while a paste is read.
pub const READING: &str = "Reading the pasted text…";

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

/// What the job made of the text: all but a FEN's place in the book, which is looked
/// up in the book drilled when the job's result is taken.
#[derive(Debug)]
enum Read {
    Moves(Vec<Move>),
    Fen(Chess),
    Kept(PathBuf),
    /// Why nothing can be done with it, in one line.
    Said(String),
}

/// The paste being read, if any (runtime only).
#[derive(Debug, Default)]
pub(crate) struct PasteJob {
    job: Option<Job<Read>>,
}

impl PasteJob {
    /// Starts reading `text` on a job (PGN games are written to a new file in
    /// `data_dir/pasted/` there too) and says so in the drill panel; returns at once. A
    /// paste while one is read is left out: the panel still says it is reading.
    pub(crate) fn start(&mut self, text: String, data_dir: Option<PathBuf>, ctx: &mut Context) {
        if self.job.is_some() {
            return;
        }
        match Job::spawn("paste", ctx.wake(), move |_| read(&text, data_dir)) {
            Ok(job) => {
                self.job = Some(job);
                ctx.message = Some(READING.to_owned());
            }
            Err(e) => ctx.message = Some(format!("Nothing pasted: {e}.")),
        }
    }

    /// Whether a paste is being read (its result not taken yet).
    pub(crate) fn is_reading(&self) -> bool {
        self.job.is_some()
    }

    /// Takes the finished paste's result (waiting for it when `block`): what the coach
    /// does next; `None` while it is read or when no paste was.
    pub(crate) fn poll(&mut self, ctx: &mut Context, block: bool) -> Option<Pasting> {
        let job = self.job.as_ref()?;
        let polled = if block {
            job.poll_blocking()
        } else {
            job.poll()
        };
        if matches!(polled, JobPoll::Running) {
            return None;
        }
        self.job = None;
        if ctx.message.as_deref() == Some(READING) {
            ctx.message = None;
        }
        ctx.request_repaint();
        let read = match polled {
            JobPoll::Finished(read) => read,
            JobPoll::Running => return None,
            JobPoll::Died(e) => Read::Said(format!("Nothing pasted: {e}.")),
        };
        Some(match read {
            Read::Moves(moves) => Pasting::DrillFrom(moves),
            Read::Kept(path) => Pasting::OpenFile(path),
            Read::Fen(position) => place(&position, ctx),
            Read::Said(line) => {
                ctx.message = Some(line);
                Pasting::Said
            }
        })
    }
}

/// Reads `text` (on the job's thread); PGN games are written to a new file in
/// `data_dir/pasted/`.
fn read(text: &str, data_dir: Option<PathBuf>) -> Read {
    match read_paste(text) {
        Ok(Pasted::Moves { moves, .. }) => Read::Moves(moves),
        Ok(Pasted::Pgn { text, .. }) => {
            let Some(dir) = data_dir else {
                return Read::Said(
                    "Pasted games are kept in the data folder, and there is none.".to_owned(),
                );
            };
            match create_unique(&dir.join("pasted"), "pasted", "pgn", text.as_bytes()) {
                Ok(path) => Read::Kept(path),
                Err(e) => Read::Said(format!("The pasted games were not kept: {e}.")),
            }
        }
        Ok(Pasted::Fen { position, .. }) => Read::Fen(position),
        Err(e) => Read::Said(format!("Nothing to paste: {e}.")),
    }
}

/// A pasted position: the fewest book moves that reach it, or why not.
fn place(position: &Chess, ctx: &mut Context) -> Pasting {
    let path = ctx
        .graph
        .lookup(position)
        .and_then(|n| ctx.graph.path_to(n));
    match path {
        Some(moves) => Pasting::DrillFrom(moves),
        None => {
            ctx.message = Some(
                "The pasted position (FEN) is not in the book you drill from the start \
                 position: the board stays as it is."
                    .to_owned(),
            );
            Pasting::Said
        }
    }
}
