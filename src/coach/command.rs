//! What the user asked for, collected while drawing and applied afterwards.
//!
//! As in egui_demo_app's `wrap_app.rs` and rerun's `re_ui/src/command.rs`: drawing code
//! never mutates the drill; it pushes a [`Command`], and the [`Coach`](super::Coach)
//! carries the commands out once the frame is drawn. Each [`Action`] (a command without
//! data, with a button) carries its text and tooltip here; the window adds its keyboard
//! shortcuts (`ui::command`).

use std::path::PathBuf;

use shakmaty::{Color, Move};

pub use super::action::Action;

use crate::sampler::Style;
use crate::workspace::{BookChoice, FileMode};

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
    /// A review session of these positions (the session menu).
    ReviewSession(crate::review::SessionChoice),
    /// "Learn new lines": show the new lines, then ask them.
    LearnNewLines,
    /// The review session menu was opened: what its choices need is prepared.
    PrepareSessions,
    /// Start a line at the position after these moves.
    DrillFrom(Vec<Move>),
    /// Start a line at the position after these moves, an opening found by name: the
    /// learner keeps their colour (the computer answers from the book when it is to
    /// move there).
    DrillOpening(Vec<Move>),
    /// Text pasted into the window (Ctrl+V): PGN games, moves or a FEN.
    Paste(String),
    /// Games or a study from lichess or chess.com (Book tab), as a job.
    Fetch(super::book::fetch::FetchCommand),
    /// Choose a folder whose PGN files are opened, at any depth (a folder dialog).
    ChooseFolder,
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
    /// The learner set the side of one chapter of a repertoire file: the file, the
    /// chapter's game number (from 1), the side (`None`: as its tags say).
    ChapterSide(PathBuf, u32, Option<crate::book::Side>),
    /// Drill these repertoire files alone (My repertoires' Train, or those ticked to
    /// train together): ECO and the other files unticked, ECO kept as the theory.
    TrainRepertoires(Vec<PathBuf>),
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
    /// Check the repertoire with an engine (Coverage tab), as a job.
    CheckRepertoire,
    /// Stop the running check (what was analysed is kept).
    CancelCheck,
    /// The Coverage tab: gaps, drills on the theory, the learner's games compared.
    Coverage(super::coverage::CoverageCommand),
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
                | Command::DrillOpening(_)
                | Command::SetDrillMode(_)
                | Command::ReviewSession(_)
                | Command::LearnNewLines
                | Command::Coverage(
                    super::coverage::CoverageCommand::DrillAt(..)
                        | super::coverage::CoverageCommand::BackToRepertoire
                        | super::coverage::CoverageCommand::MistakesWithTheory
                )
                | Command::Explorer(super::explorer::ExplorerCommand::Prepare)
        )
    }
}

/// Where a [`Command`] goes: the feature that carries it out, or the coach itself for
/// what crosses features (the drill's moves and actions, the colour, the settings).
pub(crate) enum Route {
    /// The Book tab.
    Book(super::book::BookCommand),
    /// The style feature.
    Style(super::style::StyleCommand),
    /// Review mode.
    Review(super::review::ReviewCommand),
    /// The Coverage tab.
    Coverage(super::coverage::CoverageCommand),
    /// Making a book.
    Jobs(super::jobs::JobsCommand),
    /// Playing on.
    PlayOn(super::play_on::PlayOnCommand),
    /// The Repertoire tab.
    Repertoire(super::repertoire::RepertoireCommand),
    /// The Explorer tab.
    Explorer(super::explorer::ExplorerCommand),
    /// The verdict on a move outside the book.
    Verdict(super::verdict::VerdictCommand),
    /// The coach's own.
    Coach(Command),
}

impl Command {
    /// The feature this command is for.
    pub(crate) fn route(self) -> Route {
        use super::book::BookCommand as B;
        use super::review::ReviewCommand as R;
        use super::style::StyleCommand as S;
        match self {
            Command::OpenFiles(paths) => Route::Book(B::OpenFiles(paths)),
            Command::Import(paths, mode) => Route::Book(B::Import(paths, mode)),
            Command::CancelOpen => Route::Book(B::CancelOpen),
            Command::CancelImport => Route::Book(B::CancelImport),
            Command::SetBook(choice) => Route::Book(B::SetBook(choice)),
            Command::RemoveFile(path) => Route::Book(B::RemoveFile(path)),
            Command::ShowReport(path) => Route::Book(B::ShowReport(path)),
            Command::CloseReport => Route::Book(B::CloseReport),
            Command::Export(what) => Route::Book(B::Export(what)),
            Command::SaveLines(lines, path) => Route::Book(B::SaveLines(lines, path)),
            Command::Paste(text) => Route::Book(B::Paste(text)),
            Command::Fetch(c) => Route::Book(B::Fetch(c)),
            Command::ChooseFolder => Route::Book(B::ChooseFolder),
            Command::RepertoireSide(path, side) => Route::Style(S::RepertoireSide(path, side)),
            Command::RepertoireFor(side) => Route::Style(S::RepertoireFor(side)),
            Command::ChapterSide(path, game, side) => {
                Route::Style(S::ChapterSide(path, game, side))
            }
            Command::TrainRepertoires(paths) => Route::Book(B::TrainRepertoires(paths)),
            Command::SetStyle(style) => Route::Style(S::SetStyle(style)),
            Command::ChooseProfile { play_like } => Route::Style(S::ChooseProfile(play_like)),
            Command::LoadProfile { path, add_games } => {
                Route::Style(S::LoadProfile(path, add_games))
            }
            Command::SaveProfile => Route::Style(S::SaveProfile),
            Command::AddProfileGames => Route::Style(S::AddProfileGames),
            Command::SetAdaptive(on) => Route::Style(S::SetAdaptive(on)),
            Command::SaveProfileTo(profile, path) => Route::Style(S::SaveProfileTo(profile, path)),
            Command::SetDrillMode(mode) => Route::Review(R::SetDrillMode(mode)),
            Command::GotIt => Route::Review(R::GotIt),
            Command::Easy => Route::Review(R::Easy),
            Command::ReviewSession(choice) => Route::Review(R::Session(choice)),
            Command::LearnNewLines => Route::Review(R::LearnNewLines),
            Command::PrepareSessions => Route::Review(R::PrepareSessions),
            Command::Optimize => Route::Review(R::Optimize),
            Command::Coverage(c) => Route::Coverage(c),
            Command::MakeBook { inputs, output } => {
                Route::Jobs(super::jobs::JobsCommand::MakeBook { inputs, output })
            }
            Command::CancelMakeBook => Route::Jobs(super::jobs::JobsCommand::CancelMakeBook),
            Command::PlayOn(c) => Route::PlayOn(c),
            Command::Repertoire(c) => Route::Repertoire(c),
            Command::Explorer(c) => Route::Explorer(c),
            Command::Verdict(c) => Route::Verdict(c),
            other => Route::Coach(other),
        }
    }
}

pub use super::book::ExportWhat;
pub use super::coverage::DrillBook;
