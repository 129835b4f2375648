//! What a PGN file a fetch adds to already holds: the games' keys (their `[Link]` or
//! `[Site]`), the newest lichess game's time and the newest chess.com game's month,
//! read game by game (the file is never held whole).

use std::fs::File;
use std::io::{self, BufReader};
use std::path::Path;

use rustc_hash::FxHashSet;

use super::games::PgnGames;
use crate::workspace::store::StoreError;

/// What the file holds (nothing when it does not exist).
#[derive(Debug, Default, Clone)]
pub struct Existing {
    /// Whether the file exists.
    pub exists: bool,
    /// Its games.
    pub games: u64,
    /// The keys of its games that have one.
    pub keys: FxHashSet<String>,
    /// When the newest game from lichess (its `[Site]` on lichess) was played, in
    /// milliseconds since 1970 (UTC).
    pub newest_lichess_ms: Option<i64>,
    /// The month the newest game from chess.com (its `[Link]` on chess.com) ended in:
    /// the archive it came from.
    pub newest_chesscom_month: Option<(i16, i8)>,
}

impl Existing {
    /// Reads `path`.
    ///
    /// # Errors
    ///
    /// [`StoreError::Io`] when it exists but cannot be read.
    pub fn read(path: &Path) -> Result<Existing, StoreError> {
        let io_err = |source: io::Error| StoreError::Io {
            path: path.to_owned(),
            source,
        };
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Existing::default()),
            Err(e) => return Err(io_err(e)),
        };
        let mut found = Existing {
            exists: true,
            ..Existing::default()
        };
        let mut games = PgnGames::new(BufReader::new(file));
        while let Some(game) = games.next_game().map_err(io_err)? {
            found.games += 1;
            let Some(key) = game.key else {
                continue;
            };
            if key.contains("lichess.org/") {
                found.newest_lichess_ms = found.newest_lichess_ms.max(game.utc_ms);
            }
            if key.contains("chess.com/") {
                found.newest_chesscom_month = found.newest_chesscom_month.max(game.month);
            }
            found.keys.insert(key);
        }
        Ok(found)
    }
}
