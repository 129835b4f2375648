//! "Compare my games": a PGN file of the learner's games against the repertoire, as one
//! workflow for `hastings compare` and the window's Coverage tab.
//!
//! The games are read as a game collection, cut a little past the repertoire's depth
//! ([`games_ply_limit`]); the player is the one named, or the file's most frequent
//! player; a deviation by the opponent counts as a *known gap* when the exposure of the
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
    CompareOptions, Comparison, compare, games_ply_limit, most_frequent_player,
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

/// Compares the games of the PGN file at `path` with `repertoire`: `player`'s games (the
/// file's most frequent player when empty) with `learner`'s colour; games are named by
/// `names`.
///
/// # Errors
///
/// [`CompareGamesError`] when the file cannot be read, holds no game, or names no
/// player where none was given.
pub fn compare_games_file(
    path: &Path,
    repertoire: &PositionGraph,
    names: &PositionGraph,
    player: &str,
    learner: Color,
    gaps: KnownGaps<'_>,
    progress: &JobProgress,
) -> Result<ComparedGames, CompareGamesError> {
    let options = ImportOptions {
        mode: ImportMode::Games,
        max_plies: Some(games_ply_limit(repertoire)),
    };
    let (import, _) = import_file(path, SourceId(u16::MAX), &options, names, progress)?;
    let player = match player.trim() {
        "" => most_frequent_player(&import.lines).ok_or_else(|| CompareGamesError::NoPlayer {
            path: path.to_owned(),
        })?,
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
