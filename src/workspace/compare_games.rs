//! "Compare my games": a PGN file of the learner's games against the repertoire, as one
//! workflow for `hastings compare` and the window's Coverage tab.
//!
//! The games are read as a game collection, cut a little past the repertoire's depth
//! ([`games_ply_limit`]); the player is the one named ([`Player`]; a name no game has is
//! an error listing the file's players); a deviation by the opponent counts as a *known gap* when the exposure of the
//! repertoire (how often a drill reaches each position, [`exposure_from`]) lists it
//! among its gaps. Both callers compute that exposure the same way; they differ only in
//! what they pass (the command line: the neutral style against ECO; the window: its
//! style, books and Coverage settings).

use std::path::{Path, PathBuf};

use shakmaty::Color;
use thiserror::Error;

use super::WorkspaceError;
use super::files::import_file;
use crate::book::{ImportMode, ImportOptions, PositionGraph, SourceId};
use crate::job::JobProgress;
use crate::sampler::{MoveSource, Style};
use crate::trainer::compare::{
    CompareOptions, Comparison, compare, games_ply_limit, players_by_frequency,
};
use crate::trainer::coverage::{CoverageOptions, Gap, exposure_from};

/// Why a comparison could not be made.
#[derive(Debug, Error)]
pub enum CompareGamesError {
    /// The games could not be read.
    #[error(transparent)]
    Read(#[from] WorkspaceError),
    /// No player was named and the games name none.
    #[error("the games in {path} name no players: give the player's name")]
    NoPlayer {
        /// The file.
        path: PathBuf,
    },
    /// No player was named, and the caller asked not to guess: the names to choose from.
    #[error("whose games? {path} has games of {}", players_text(.players))]
    PlayerNeeded {
        /// The file.
        path: PathBuf,
        /// The players of the file and their games, most frequent first.
        players: Vec<(String, u32)>,
    },
    /// No game names the player given (names match whole, in any case).
    #[error("no game in {path} has a player named \"{player}\"; its players are {}", players_text(.players))]
    UnknownPlayer {
        /// The file.
        path: PathBuf,
        /// The name given.
        player: String,
        /// The players of the file and their games, most frequent first.
        players: Vec<(String, u32)>,
    },
}

impl CompareGamesError {
    /// The players to choose from, when the error is that the player was not named or
    /// not found.
    pub fn players(&self) -> &[(String, u32)] {
        match self {
            CompareGamesError::PlayerNeeded { players, .. }
            | CompareGamesError::UnknownPlayer { players, .. } => players,
            _ => &[],
        }
    }
}

/// `"Carlsen (12 games), Caruana (3 games)"`, the first ten.
fn players_text(players: &[(String, u32)]) -> String {
    let mut text: Vec<String> = players
        .iter()
        .take(10)
        .map(|(name, n)| format!("{name} ({n} game{})", if *n == 1 { "" } else { "s" }))
        .collect();
    if players.len() > 10 {
        text.push(format!("and {} more", players.len() - 10));
    }
    text.join(", ")
}

/// Whose games to compare.
#[derive(Debug, Clone, Copy)]
pub enum Player<'a> {
    /// The player named so in the `White`/`Black` tags (in any case).
    Named(&'a str),
    /// The named player, or the file's most frequent when the name is empty (the
    /// command line's `--player ""`).
    NamedOrMostFrequent(&'a str),
}

/// Where the known gaps come from.
#[derive(Debug, Clone, Copy)]
pub enum KnownGaps<'a> {
    /// These gaps (an exposure computed already).
    Given(&'a [Gap]),
    /// The exposure of the repertoire against `theory` for this style and these options.
    Exposure {
        /// How the opponent replies.
        theory: &'a MoveSource<'a>,
        /// The opponent's style.
        style: &'a Style,
        /// The depth and the gap threshold.
        options: &'a CoverageOptions,
    },
}

/// A finished comparison and whose games it compared.
#[derive(Debug)]
pub struct ComparedGames {
    /// The player compared (named, or the file's most frequent).
    pub player: String,
    /// The comparison.
    pub comparison: Comparison,
}

/// The known gaps of `repertoire` as the neutral opponent of the command line sees
/// them: the exposure against `theory` with the default depth and threshold.
pub fn neutral_gaps(
    repertoire: &PositionGraph,
    theory: &PositionGraph,
    learner: Color,
) -> Vec<Gap> {
    let source = MoveSource::graph(theory);
    exposure_from(
        repertoire,
        &source,
        &Style::neutral(),
        &CoverageOptions::new(learner),
    )
    .gaps()
    .to_vec()
}

/// Compares the games of the PGN file at `path` with `repertoire`: `player`'s games with
/// `learner`'s colour; games are named by `names`.
///
/// # Errors
///
/// [`CompareGamesError`] when the file cannot be read or holds no game, when no game
/// has the player named, and when no player is named and [`Player::Named`] asks not to
/// guess (the last two list the file's players).
pub fn compare_games_file(
    path: &Path,
    repertoire: &PositionGraph,
    names: &PositionGraph,
    player: Player<'_>,
    learner: Color,
    gaps: KnownGaps<'_>,
    progress: &JobProgress,
) -> Result<ComparedGames, CompareGamesError> {
    let options = ImportOptions {
        mode: ImportMode::Games,
        max_plies: Some(games_ply_limit(repertoire)),
    };
    let (import, _) = import_file(path, SourceId(u16::MAX), &options, names, progress)?;
    let players = players_by_frequency(&import.lines);
    let (name, guess) = match player {
        Player::Named(name) => (name.trim(), false),
        Player::NamedOrMostFrequent(name) => (name.trim(), true),
    };
    let player = match name {
        "" if players.is_empty() => {
            return Err(CompareGamesError::NoPlayer {
                path: path.to_owned(),
            });
        }
        "" if guess => players[0].0.clone(),
        "" => {
            return Err(CompareGamesError::PlayerNeeded {
                path: path.to_owned(),
                players,
            });
        }
        named
            if !players.is_empty()
                && !players
                    .iter()
                    .any(|(p, _)| p.to_lowercase() == named.to_lowercase()) =>
        {
            return Err(CompareGamesError::UnknownPlayer {
                path: path.to_owned(),
                player: named.to_owned(),
                players,
            });
        }
        named => named.to_owned(),
    };
    let options = CompareOptions { player, learner };
    let computed;
    let gaps = match gaps {
        KnownGaps::Given(gaps) => gaps,
        KnownGaps::Exposure {
            theory,
            style,
            options: coverage,
        } => {
            computed = exposure_from(repertoire, theory, style, coverage);
            computed.gaps()
        }
    };
    let comparison = compare(repertoire, &import.lines, &options, gaps);
    Ok(ComparedGames {
        player: options.player,
        comparison,
    })
}
