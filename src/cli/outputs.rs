//! An output never overwrites an input: `-o` naming a file a command reads (the same
//! file, after symbolic links) is refused before anything is read or written.

use std::path::Path;

use super::CliError;
use crate::workspace::file_lock::same_file;

/// Refuses `output` when it is one of `inputs` (the same file: same device and inode
/// on Unix, the same canonical path elsewhere).
///
/// # Errors
///
/// [`CliError::OutputIsInput`] naming both.
pub fn refuse_input_as_output<'a>(
    output: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<(), CliError> {
    match inputs.into_iter().find(|input| same_file(input, output)) {
        Some(input) => Err(CliError::OutputIsInput {
            output: output.to_owned(),
            input: input.to_owned(),
        }),
        None => Ok(()),
    }
}
