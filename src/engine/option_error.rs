//! Why `hastings uci` refused a `setoption` or could not make the agent asked for: the
//! sentence after `info string`.

use thiserror::Error;

use super::choice::UnknownChoice;
use super::predictor::WeightsError;
use super::tuned::WeightsError as TunedWeightsError;

/// Why an option of `hastings uci` was not set, or its agent not made.
#[derive(Debug, Error)]
pub enum OptionError {
    /// The option takes a whole number.
    #[error("option {name} takes a number, not `{value}`")]
    NotANumber {
        /// The option.
        name: String,
        /// What was given.
        value: String,
    },
    /// The option takes a number from 0 to `max`.
    #[error("{name} takes a number from 0 to {max}, not `{value}`")]
    OutOfRange {
        /// The option.
        name: String,
        /// The largest value.
        max: f64,
        /// What was given.
        value: String,
    },
    /// No option of that name.
    #[error("unknown option `{name}`")]
    Unknown {
        /// The option.
        name: String,
    },
    /// A name that is none of the option's choices.
    #[error(transparent)]
    Choice(#[from] UnknownChoice),
    /// The move predictor's weights cannot be read.
    #[error("no move predictor: {0}")]
    NoPredictor(WeightsError),
    /// The tuned evaluation's weights cannot be read.
    #[error("no tuned weights: {0}")]
    NoTunedWeights(TunedWeightsError),
    /// A search is running: options are set between searches.
    #[error("busy")]
    Busy,
}
