//! Writing fetched games into a file under its lock: the old games first (when adding),
//! then each new game as it arrives, into the file's own temporary file, renamed over
//! the file only when every answer was read to its end. A cut connection, an error or
//! a cancel leaves the old file as it was.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use rustc_hash::FxHashSet;

use super::client::{Answer, host_of};
use super::error::FetchError;
use super::games::PgnGames;
use crate::job::JobProgress;
use crate::workspace::store::{StoreError, WriteLock};

/// Why the writing stopped without renaming.
pub(super) enum Stop {
    /// A failure.
    Failed(FetchError),
    /// No new game: the file is left as it was.
    Nothing,
}

impl From<StoreError> for Stop {
    fn from(e: StoreError) -> Self {
        Stop::Failed(e.into())
    }
}

impl From<FetchError> for Stop {
    fn from(e: FetchError) -> Self {
        Stop::Failed(e)
    }
}

/// The games written into the temporary file, and the keys of all games in it.
pub(super) struct Sink<'a> {
    out: BufWriter<&'a mut File>,
    path: &'a Path,
    keys: FxHashSet<String>,
    /// Whether text was written (a game is then written after a blank line).
    started: bool,
    /// New games written.
    pub added: u64,
    /// Games received that the file had already.
    pub already: u64,
}

impl<'a> Sink<'a> {
    /// A sink writing into `file` (the temporary file of `path`), copying the old
    /// `path` first when `keep_old`; `keys` are the games the file has.
    pub fn new(
        file: &'a mut File,
        path: &'a Path,
        old: Option<&Path>,
        keys: FxHashSet<String>,
    ) -> Result<Sink<'a>, StoreError> {
        let mut out = BufWriter::with_capacity(64 << 10, file);
        let io_err = |source| StoreError::Io {
            path: path.to_owned(),
            source,
        };
        let mut started = false;
        if let Some(old) = old {
            let mut from = File::open(old).map_err(io_err)?;
            started = io::copy(&mut from, &mut out).map_err(io_err)? > 0;
        }
        Ok(Sink {
            out,
            path,
            keys,
            started,
            added: 0,
            already: 0,
        })
    }

    /// Writes the games of `answer` that the file does not have, counting them on
    /// `progress` (a cancel stops it with [`FetchError::Cancelled`]).
    pub fn take(&mut self, answer: Answer, progress: &JobProgress) -> Result<(), Stop> {
        let site = host_of(&answer.url);
        let mut games = PgnGames::new(answer.body);
        loop {
            if progress.is_cancelled() {
                return Err(Stop::Failed(FetchError::Cancelled {
                    games: self.added + self.already,
                    path: self.path.to_owned(),
                }));
            }
            let game = games.next_game().map_err(|e| FetchError::Cut {
                site: site.clone(),
                games: self.added + self.already,
                path: self.path.to_owned(),
                reason: e.to_string(),
            })?;
            let Some(mut game) = game else {
                return Ok(());
            };
            if let Some(key) = game.key.take() {
                if self.keys.contains(&key) {
                    self.already += 1;
                    continue;
                }
                self.keys.insert(key);
            }
            self.write_game(&game.text)?;
            self.added += 1;
            progress.add_items(1);
            progress.advance(1);
        }
    }

    /// Writes one game, separated from the text before it by a blank line.
    fn write_game(&mut self, text: &[u8]) -> Result<(), StoreError> {
        let end = text
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(0, |i| i + 1);
        let start = text
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(end);
        // A blank line before (the old file may end without one; a blank line more
        // between games is harmless).
        let gap: &[u8] = if self.started { b"\n" } else { b"" };
        self.started = true;
        let written = self
            .out
            .write_all(gap)
            .and_then(|()| self.out.write_all(&text[start..end]))
            .and_then(|()| self.out.write_all(b"\n"));
        written.map_err(|source| StoreError::Io {
            path: self.path.to_owned(),
            source,
        })
    }

    /// Flushes what is written; [`Stop::Nothing`] when no game was new, a cancel
    /// asked for by now stops it too.
    pub fn finish(mut self, progress: &JobProgress) -> Result<(u64, u64), Stop> {
        if progress.is_cancelled() {
            return Err(Stop::Failed(FetchError::Cancelled {
                games: self.added + self.already,
                path: self.path.to_owned(),
            }));
        }
        if self.added == 0 {
            return Err(Stop::Nothing);
        }
        self.out.flush().map_err(|source| StoreError::Io {
            path: self.path.to_owned(),
            source,
        })?;
        Ok((self.added, self.already))
    }
}

/// Runs `fill` into the temporary file of the locked file; the rename happens only
/// when it succeeds. `Ok(None)`: no new game, nothing written.
pub(super) fn write_games<T>(
    lock: &WriteLock,
    fill: impl FnOnce(&mut File) -> Result<T, Stop>,
) -> Result<Option<T>, FetchError> {
    match lock.write_with(fill) {
        Ok(v) => Ok(Some(v)),
        Err(Stop::Nothing) => Ok(None),
        Err(Stop::Failed(e)) => Err(e),
    }
}
