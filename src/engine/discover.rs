//! Finding engines: Stockfish on `PATH` or where distributions install it, or a path
//! the user chose.

use std::path::{Path, PathBuf};

use super::error::EngineError;

/// Where Stockfish is installed when it is not on `PATH` (Debian and Ubuntu put it in
/// `/usr/games`, which a login shell has on `PATH` but a service may not).
pub const STOCKFISH_PATHS: [&str; 4] = [
    "/usr/games/stockfish",
    "/usr/bin/stockfish",
    "/usr/local/bin/stockfish",
    "/opt/homebrew/bin/stockfish",
];

/// Whether `path` is a file this user may run.
pub fn is_executable(path: &Path) -> bool {
    let Ok(meta) = path.metadata() else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// The program `name` in one of the `PATH` directories.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let dirs = std::env::var_os("PATH")?;
    std::env::split_paths(&dirs)
        .flat_map(|dir| {
            let plain = dir.join(name);
            let exe = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
            [plain, exe]
        })
        .find(|p| is_executable(p))
}

/// Stockfish: on `PATH`, else at one of [`STOCKFISH_PATHS`].
pub fn stockfish() -> Option<PathBuf> {
    on_path("stockfish").or_else(|| {
        STOCKFISH_PATHS
            .iter()
            .map(PathBuf::from)
            .find(|p| is_executable(p))
    })
}

/// The engine a user named: `stockfish` (found as [`stockfish`] does), a program name
/// on `PATH`, or a path to a program.
///
/// # Errors
///
/// [`EngineError::NotFound`] naming where it looked.
pub fn resolve(name: &str) -> Result<PathBuf, EngineError> {
    let path = Path::new(name);
    if path.components().count() > 1 {
        return if is_executable(path) {
            Ok(path.to_path_buf())
        } else {
            Err(EngineError::NotFound {
                looked: format!("{name} (not an executable file)"),
            })
        };
    }
    if name == "stockfish" {
        return stockfish().ok_or_else(|| EngineError::NotFound {
            looked: format!("stockfish on PATH and at {}", STOCKFISH_PATHS.join(", ")),
        });
    }
    on_path(name).ok_or_else(|| EngineError::NotFound {
        looked: format!("{name} on PATH"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_engine_names_where_it_looked() {
        let err = resolve("/nonexistent/dir/engine").unwrap_err();
        assert!(err.to_string().contains("/nonexistent/dir/engine"), "{err}");
        let err = resolve("surely-no-such-engine-here").unwrap_err();
        assert!(err.to_string().contains("on PATH"), "{err}");
    }

    #[test]
    fn a_shell_is_found_on_path() {
        // `sh` is on PATH on every Unix machine the tests run on.
        #[cfg(unix)]
        assert!(on_path("sh").is_some());
    }
}
