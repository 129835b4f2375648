//! What the coach asks of the window beyond a redraw ([`Notice`]): a dialog, a sound,
//! a move to animate, text for the clipboard.

use std::path::PathBuf;

use shakmaty::Move;

use super::sounds::Sound;
use crate::book::Side;
use crate::sampler::profile::StyleProfile;

/// What the coach asks of the window beyond a redraw.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// The computer (or "Show me") played `mv` in the drill: let it glide to its square.
    Animate(Move),
    /// The engine played `mv` in the play-on game: let it glide to its square.
    AnimatePlayOn(Move),
    /// The user asked to close the window.
    Close,
    /// Ask how to read these PGN files (the "read as" window).
    AskHowToRead(Vec<PathBuf>),
    /// Close the "read as" window.
    CloseHowToRead,
    /// Let the user choose files to open (a file dialog).
    ChooseFiles,
    /// Let the user choose a folder whose PGN files are opened (a folder dialog).
    ChooseFolder,
    /// Let the user choose a PGN file of their games to compare with the repertoire.
    ChooseGames,
    /// Show the drill (it was started from a tab that hides it: "Train this").
    ShowDrill,
    /// Show the Repertoire tab (a position was sent there).
    ShowRepertoire,
    /// Let the user choose a file for the Repertoire tab (a file dialog).
    ChooseRepertoireFile(RepertoireTarget),
    /// Let the user choose an explorer index (a directory).
    ChooseExplorer,
    /// Let the user choose a style profile to load.
    ChooseProfile {
        /// Also add the fitted player's games as a book source.
        play_like: bool,
    },
    /// Ask where to save this profile, then save it.
    SaveProfileAs(Box<StyleProfile>),
    /// Ask where to save these lines as PGN (the suggested file name), then save them.
    ExportAs(Vec<crate::book::OpeningLine>, String),
    /// Ask where to save the play-on game's PGN (then send `PlayOnCommand::SaveTo`).
    SaveGameAs,
    /// Put this text on the clipboard.
    CopyText(String),
    /// Play this sound (only sent while the settings have sounds on).
    Sound(Sound),
}

/// What a file is chosen for in a file dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepertoireTarget {
    /// A PGN file to open.
    Open,
    /// Where to create a new repertoire for this side.
    New(Side),
    /// Where to save the document instead (after a conflict).
    SaveAs,
}
