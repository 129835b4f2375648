//! What this build is: the version, the git commit it was built from (embedded by
//! `build.rs` when the source was a git checkout), and the credits the About window shows.

/// The package's version (`Cargo.toml`), as `hastings --version` prints it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit this binary was built from, or "unknown" (a source tarball).
pub fn commit() -> &'static str {
    option_env!("HASTINGS_GIT_COMMIT").unwrap_or("unknown")
}

/// The licence, in one line.
pub const LICENCE: &str =
    "Free software under the GNU General Public License, version 3 or later (GPL-3.0-or-later).";

/// The credits for the data and artwork the program ships, one line each.
pub const CREDITS: [&str; 5] = [
    "Opening names: lichess-org/chess-openings (CC0 1.0).",
    "Pieces: Colin M.L. Burnett (cburnett, GPLv2+), Alexis Luengas (Chessnut, Apache 2.0), \
     GNU XBoard (GPL-3.0-or-later).",
    "Move predictor: trained on GNU Chess's book_1.02.pgn (public domain).",
    "Sounds: synthesised by Hastings itself.",
    "Built with Rust, egui, shakmaty and pgn-reader.",
];
