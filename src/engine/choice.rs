//! A name that is not among the choices of a setting (`--agent`, `--openings`, the
//! blend's bonus): the one error of their `FromStr`.

use thiserror::Error;

/// A value that is none of a setting's names.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{setting} {choices}, not `{given}`")]
pub struct UnknownChoice {
    /// The setting, as a sentence starts ("the agent is", "openings are").
    pub setting: &'static str,
    /// The names it takes ("top or probability").
    pub choices: &'static str,
    /// What was given.
    pub given: String,
}
