//! The commands with a button and (maybe) a keyboard shortcut ([`Action`]): their text
//! and tooltip. A shared module of the coach: it names no feature, so the drill (which
//! carries most of them out) and the dispatch both name it.

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
