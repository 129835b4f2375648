//! The regular players of a collection of games: those with at least N games (by the
//! `White` and `Black` tags, ignoring case), most games first, so that an index keeps
//! a tree for each of them ("Prepare against" then offers any regular opponent).
//!
//! A first, quick pass over the files before the index is made: only the tag lines are
//! looked at.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use rustc_hash::FxHashMap;

use super::ExplorerError;
use crate::book::explorer::Partition;

/// The default of `explorer make --players-min`: a tree for every player with at
/// least 20 games.
pub const DEFAULT_PLAYERS_MIN: u32 = 20;

/// The value of a `[White "…"]` or `[Black "…"]` line, if it is one.
fn player_tag(line: &str) -> Option<&str> {
    let rest = line
        .strip_prefix("[White \"")
        .or_else(|| line.strip_prefix("[Black \""))?;
    let name = rest.trim_end().strip_suffix("\"]")?.trim();
    (!name.is_empty() && name != "?").then_some(name)
}

/// The players of `inputs` with at least `min` games, most games first (then by name),
/// at most `room` of them, each as first spelled.
///
/// # Errors
///
/// [`ExplorerError::Read`] naming the file that cannot be read.
pub fn regular_players(
    inputs: &[PathBuf],
    min: u32,
    room: usize,
) -> Result<Vec<String>, ExplorerError> {
    let mut counts: FxHashMap<String, (String, u64)> = FxHashMap::default();
    for path in inputs {
        let at = |source| ExplorerError::Read {
            path: path.clone(),
            source,
        };
        let mut reader = BufReader::new(File::open(path).map_err(at)?);
        let mut line = Vec::new();
        loop {
            line.clear();
            if reader.read_until(b'\n', &mut line).map_err(at)? == 0 {
                break;
            }
            if line.first() != Some(&b'[') {
                continue;
            }
            let text = String::from_utf8_lossy(&line);
            if let Some(name) = player_tag(&text) {
                let entry = counts
                    .entry(name.to_lowercase())
                    .or_insert_with(|| (name.to_owned(), 0));
                entry.1 += 1;
            }
        }
    }
    let mut regulars: Vec<(String, u64)> = counts
        .into_values()
        .filter(|(_, n)| *n >= u64::from(min.max(1)))
        .collect();
    regulars.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    regulars.truncate(room.min(Partition::MAX_PLAYERS));
    Ok(regulars.into_iter().map(|(name, _)| name).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_give_the_names_and_unknown_ones_are_passed_over() {
        assert_eq!(
            player_tag("[White \"Carlsen, Magnus\"]\n"),
            Some("Carlsen, Magnus")
        );
        assert_eq!(player_tag("[Black \"ams56\"]\r\n"), Some("ams56"));
        assert_eq!(player_tag("[Black \"?\"]"), None);
        assert_eq!(player_tag("[WhiteElo \"1500\"]"), None);
        assert_eq!(player_tag("1. e4 e5"), None);
    }
}
