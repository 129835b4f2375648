//! What the user asked for, collected while drawing and applied afterwards.
//!
//! As in egui_demo_app's `wrap_app.rs` and rerun's `re_ui/src/command.rs`: drawing code
//! never mutates the drill; it pushes a [`Command`], and the [`Coach`](super::Coach)
//! carries the commands out once the frame is drawn. Each [`Action`] (a command without
//! data, with a button) carries its text and tooltip here; the window adds its keyboard
//! shortcuts (`ui::command`).

use std::path::PathBuf;

use shakmaty::{Color, Move};

use crate::sampler::Style;
use crate::workspace::{BookChoice, FileMode};

/// A command with a button and (maybe) a keyboard shortcut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Restart the drill from the start position.
    NewLine,
    /// Restart the drill from the position shown, keeping the moves up to it.
    NewLineFromHere,
    /// After the end of a line: start the next one.
    NextLine,
    /// Take the wrong move back and let the learner try again.
    TryAgain,
    /// Play the most popular book move instead of the wrong one.
    ShowMe,
    /// Highlight the piece of a book move; pressed again, show its arrow.
    Hint,
    /// Take back the learner's last move and the computer's reply.
    TakeBack,
    /// Show the position one move earlier, read-only (while playing on: take back).
    StepBack,
    /// Show the position one move later (back at the current position after the last).
    StepForward,
    /// Show the drill's first position, read-only.
    ToStart,
    /// Show the current position again.
    ToCurrent,
    /// Turn the board around.
    Flip,
    /// Continue the drill from the earlier position shown.
    ContinueFromHere,
    /// Sample lines from the shown position on a background thread.
    Explore,
    /// Play on against an engine from the position shown.
    PlayOn,
    /// Choose PGN files to load (a file dialog).
    Open,
    /// Close the window.
    Quit,
}

impl Action {
    /// Every action (`NewLineFromHere` before `NewLine`: Shift+N is matched first).
    pub const ALL: [Action; 17] = [
        Action::NewLineFromHere,
        Action::NewLine,
        Action::NextLine,
        Action::TryAgain,
        Action::ShowMe,
        Action::Hint,
        Action::TakeBack,
        Action::StepBack,
        Action::StepForward,
        Action::ToStart,
        Action::ToCurrent,
        Action::Flip,
        Action::ContinueFromHere,
        Action::Explore,
        Action::PlayOn,
        Action::Open,
        Action::Quit,
    ];

    /// The button text.
    pub const fn text(self) -> &'static str {
        match self {
            Action::NewLine => "New line",
            Action::NewLineFromHere => "New line from here",
            Action::NextLine => "Next line",
            Action::TryAgain => "Try again",
            Action::ShowMe => "Show me",
            Action::Hint => "Hint",
            Action::TakeBack => "Take back",
            Action::StepBack => "Back one move",
            Action::StepForward => "Forward one move",
            Action::ToStart => "To the start",
            Action::ToCurrent => "To the current position",
            Action::Flip => "Flip board",
            Action::ContinueFromHere => "Continue from here",
            Action::Explore => "Explore",
            Action::PlayOn => "Play on from here",
            Action::Open => "Open PGN…",
            Action::Quit => "Quit",
        }
    }

    /// What the button does, shown on hover (with the shortcut).
    pub const fn tooltip(self) -> &'static str {
        match self {
            Action::NewLine => "Start a new drill from the starting position",
            Action::NewLineFromHere => {
                "Start a new drill from the position shown; its moves are kept as given"
            }
            Action::NextLine => "Start the next drill",
            Action::TryAgain => "Take the move back and try another",
            Action::ShowMe => "Play the most popular book move for you",
            Action::Hint => "Highlight the piece of a book move; press again for its arrow",
            Action::TakeBack => "Take back your last move and the computer's reply",
            Action::StepBack => "Show the position one move earlier (read-only)",
            Action::StepForward => "Show the position one move later",
            Action::ToStart => "Show the first position of the line (read-only)",
            Action::ToCurrent => "Show the current position again",
            Action::Flip => "Turn the board around",
            Action::ContinueFromHere => "Drop the later moves and continue the drill from here",
            Action::Explore => {
                "Sample lines from this position in the background and show how often each \
                 move was chosen"
            }
            Action::PlayOn => {
                "Play the game on from this position against an engine, with an eval bar"
            }
            Action::Open => {
                "Load a repertoire or a game collection from PGN files (or drop them on the \
                 window)"
            }
            Action::Quit => "Close the window (the settings are saved)",
        }
    }
}

/// Everything the user can ask the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// A button or shortcut.
    Action(Action),
    /// A move made on the board.
    Play(Move),
    /// The move box: typing, Enter, Tab, a completion clicked.
    MoveEntry(super::drill::MoveEntryCommand),
    /// Show the position after this many plies (0: the start), read-only.
    ShowPly(usize),
    /// Show the current position again.
    ShowCurrent,
    /// The learner plays this colour (starts a new line).
    SetLearner(Color),
    /// A new style for the next reply and the chart.
    SetStyle(Style),
    /// Free drill, review, or mistakes only.
    SetDrillMode(super::review::DrillMode),
    /// The new card shown in review mode has been seen: ask it.
    GotIt,
    /// Turn the last Good grade into Easy.
    Easy,
    /// Start a line at the position after these moves.
    DrillFrom(Vec<Move>),
    /// Fit the FSRS parameters to the review log (a background job).
    Optimize,
    /// Files were chosen or dropped: ask how to read them.
    OpenFiles(Vec<PathBuf>),
    /// Import these files in this mode (the choice of the open dialog).
    Import(Vec<PathBuf>, FileMode),
    /// Close the open dialog without importing.
    CancelOpen,
    /// Stop the running import.
    CancelImport,
    /// Use these sources and filters for the book (the graph is rebuilt).
    SetBook(BookChoice),
    /// The learner said which side the repertoire file at this path is for (`None`:
    /// both, or not said); asked once.
    RepertoireSide(PathBuf, Option<crate::book::Side>),
    /// The next repertoire opened is for this side (said in Start here).
    RepertoireFor(crate::book::Side),
    /// Go on this many plies past the book with the move predictor (0: off).
    SetPastBook(u32),
    /// Forget a loaded file.
    RemoveFile(PathBuf),
    /// Show the import report of a loaded file again.
    ShowReport(PathBuf),
    /// Close the import report.
    CloseReport,
    /// Save a loaded file's lines, or the drilled line, as PGN (asks where).
    Export(ExportWhat),
    /// Copy the game on the board as PGN to the clipboard: the play-on game, else the
    /// drill's line (Ctrl+C where no text is selected).
    CopyPgn,
    /// Show this message in the drill panel (a finished job's result).
    Message(String),
    /// Choose a style profile file to load (a file dialog); with `play_like`, the
    /// player's games of a fitted profile are added to the book too.
    ChooseProfile {
        /// Also add the fitted player's games as a book source.
        play_like: bool,
    },
    /// Load the style profile at this path (a corrupt file changes nothing).
    LoadProfile {
        /// The file.
        path: PathBuf,
        /// Also add the fitted player's games as a book source.
        add_games: bool,
    },
    /// Save the current style, with the popularity in use, as a profile (asks where).
    SaveProfile,
    /// Add the games of the loaded fitted profile to the book.
    AddProfileGames,
    /// Let the computer's style follow the learner's (BayesChess's adaptive opponent), or stop.
    SetAdaptive(bool),
    /// Start a drill at the position after these moves, on this book (Coverage tab).
    DrillAt(Vec<Move>, DrillBook),
    /// Check the repertoire with an engine (Coverage tab), as a job.
    CheckRepertoire,
    /// Stop the running check (what was analysed is kept).
    CancelCheck,
    /// End a gap drill on the theory book: drill the repertoire again.
    BackToRepertoire,
    /// Choose a PGN file of the learner's games to compare with the repertoire.
    CheckGames,
    /// Compare the learner's games in this file with the repertoire.
    CompareGames(PathBuf),
    /// Record the compared games' deviations as failed reviews.
    RecordDeviations,
    /// Add these moves (a gap and its answer) to a copy of the repertoire, named by the
    /// theory.
    AddAnswer(Vec<Move>),
    /// Playing on against an engine.
    PlayOn(super::play_on::PlayOnCommand),
    /// The Repertoire tab: edit the repertoire file, walk its tree, save.
    Repertoire(super::repertoire::RepertoireCommand),
    /// The Explorer tab: open an index, change the filter.
    Explorer(super::explorer::ExplorerCommand),
    /// Accept a move outside the book found also good, or add it to the repertoire.
    Verdict(super::verdict::VerdictCommand),
    /// The settings as a panel edited them: the plain choices are taken as they are,
    /// and a changed style, colour, adaptive opponent or play past the book is carried
    /// out as its own command would.
    SetSettings(Box<super::settings::Settings>),
    /// The Coverage tab's depth, threshold and player.
    SetCoverage(super::coverage::CoverageParams),
    /// Make a Polyglot book of these PGN files at this path (a background job).
    MakeBook {
        /// The PGN files.
        inputs: Vec<PathBuf>,
        /// The book to write.
        output: PathBuf,
    },
    /// Stop making the book.
    CancelMakeBook,
    /// Write these lines to this file as PGN (where the user chose to export them).
    SaveLines(Vec<crate::book::OpeningLine>, PathBuf),
    /// Write this style profile to this file.
    SaveProfileTo(Box<crate::sampler::profile::StyleProfile>, PathBuf),
}

impl Command {
    /// Whether the command starts another drill (the play-on game ends then: the
    /// board shows the drill again).
    pub fn restarts_drill(&self) -> bool {
        matches!(
            self,
            Command::SetLearner(_)
                | Command::DrillFrom(_)
                | Command::DrillAt(..)
                | Command::SetDrillMode(_)
                | Command::BackToRepertoire
                | Command::Explorer(super::explorer::ExplorerCommand::Prepare)
        )
    }
}

pub use super::book::ExportWhat;
pub use super::coverage::DrillBook;
