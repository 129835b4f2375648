//! The files of the evaluation of seed 003 (Klevansky, Ostroff and Offen, "Determining
//! the Optimal Tradeoff for building Chess Playing Agents: Genetically Tuned vs. Neural
//! Features", Technion, 2023; `ARCHITECTURE.md`, References): weights files (`eval.ron`)
//! and a tuning run's saved state (`eval.ron.state`), both written atomically, both read
//! with the file's name in every error.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::store::{StoreError, write_atomic};
use crate::engine::tuned::{Weights, WeightsError, WeightsFile};
use crate::engine::tuning::{StateError, TrainState};

/// A weights or state file that cannot be read or written.
#[derive(Debug, Error)]
pub enum EvalFileError {
    /// The file cannot be read.
    #[error("{}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file is not a valid weights file.
    #[error("{}: {source}", .path.display())]
    Weights {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: WeightsError,
    },
    /// The file is not a valid tuning state.
    #[error("{}: {source}", .path.display())]
    State {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: StateError,
    },
    /// Writing failed (an old file is intact).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Reads a weights file.
///
/// # Errors
///
/// [`EvalFileError::Read`] or [`EvalFileError::Weights`], naming the file.
pub fn read_weights(path: &Path) -> Result<(Weights, WeightsFile), EvalFileError> {
    let text = fs::read_to_string(path).map_err(|source| EvalFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    Weights::from_ron(&text).map_err(|source| EvalFileError::Weights {
        path: path.to_owned(),
        source,
    })
}

/// Writes a weights file atomically.
///
/// # Errors
///
/// [`EvalFileError::Store`] when writing fails.
pub fn write_weights(
    path: &Path,
    weights: &Weights,
    made_by: &str,
    fitness: Option<(u32, u32)>,
) -> Result<(), EvalFileError> {
    write_atomic(path, weights.to_ron(made_by, fitness).as_bytes())?;
    Ok(())
}

/// Where a run writing `output` keeps its state: `output` with `.state` appended.
pub fn state_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".state");
    PathBuf::from(name)
}

/// Reads a saved state; `None` when there is none.
///
/// # Errors
///
/// [`EvalFileError::Read`] or [`EvalFileError::State`], naming the file.
pub fn read_state(path: &Path) -> Result<Option<TrainState>, EvalFileError> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(EvalFileError::Read {
                path: path.to_owned(),
                source,
            });
        }
    };
    TrainState::from_ron(&text)
        .map(Some)
        .map_err(|source| EvalFileError::State {
            path: path.to_owned(),
            source,
        })
}

/// Writes a state atomically.
///
/// # Errors
///
/// [`EvalFileError::State`] if it cannot be written as text, [`EvalFileError::Store`]
/// when writing fails.
pub fn write_state(path: &Path, state: &TrainState) -> Result<(), EvalFileError> {
    let text = state.to_ron().map_err(|source| EvalFileError::State {
        path: path.to_owned(),
        source,
    })?;
    write_atomic(path, text.as_bytes())?;
    Ok(())
}
