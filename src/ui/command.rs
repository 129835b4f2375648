//! The window's side of the commands: each [`Action`]'s keyboard shortcuts, its button
//! and tooltip with the shortcut (the commands themselves, with their text and tooltip,
//! are the coach's: [`crate::coach::command`]).

use eframe::egui;
use egui::{Key, KeyboardShortcut, Modifiers, Ui};

pub use crate::coach::command::{Action, Command, DrillBook, ExportWhat};

/// What the window adds to an [`Action`]: shortcuts and a button.
pub trait ActionUi: Sized {
    /// The keyboard shortcuts, the first one shown in the tooltip.
    fn shortcuts(self) -> &'static [KeyboardShortcut];

    /// The tooltip followed by the shortcuts, formatted for this platform.
    fn tooltip_with_shortcut(self, ctx: &egui::Context) -> String;

    /// A button for the action; pushes it onto `commands` when clicked.
    fn button_ui(self, ui: &mut Ui, enabled: bool, commands: &mut Vec<Command>);

    /// The actions whose shortcut was pressed this frame (consumed from the input).
    fn consume_shortcuts(ctx: &egui::Context) -> Vec<Self>;
}

impl ActionUi for Action {
    /// The keyboard shortcuts, the first one shown in the tooltip.
    fn shortcuts(self) -> &'static [KeyboardShortcut] {
        const NONE: Modifiers = Modifiers::NONE;
        match self {
            Action::NewLine => &const { [KeyboardShortcut::new(NONE, Key::N)] },
            Action::NewLineFromHere => &const { [KeyboardShortcut::new(Modifiers::SHIFT, Key::N)] },
            Action::NextLine => &const { [KeyboardShortcut::new(NONE, Key::Enter)] },
            Action::TryAgain => &const { [KeyboardShortcut::new(NONE, Key::R)] },
            Action::ShowMe => &const { [KeyboardShortcut::new(NONE, Key::S)] },
            Action::Hint => &const { [KeyboardShortcut::new(NONE, Key::H)] },
            Action::TakeBack => {
                &const {
                    [
                        KeyboardShortcut::new(Modifiers::COMMAND, Key::Z),
                        KeyboardShortcut::new(NONE, Key::ArrowLeft),
                    ]
                }
            }
            Action::Flip => &const { [KeyboardShortcut::new(NONE, Key::F)] },
            Action::ContinueFromHere => &const { [KeyboardShortcut::new(NONE, Key::C)] },
            Action::Explore => &const { [KeyboardShortcut::new(NONE, Key::E)] },
            Action::PlayOn => &const { [KeyboardShortcut::new(NONE, Key::P)] },
            Action::Open => &const { [KeyboardShortcut::new(Modifiers::COMMAND, Key::O)] },
            Action::Quit => &const { [KeyboardShortcut::new(Modifiers::COMMAND, Key::Q)] },
        }
    }

    /// The tooltip followed by the shortcuts, formatted for this platform.
    fn tooltip_with_shortcut(self, ctx: &egui::Context) -> String {
        let keys: Vec<String> = self
            .shortcuts()
            .iter()
            .map(|s| ctx.format_shortcut(s))
            .collect();
        if keys.is_empty() {
            self.tooltip().to_owned()
        } else {
            format!("{} ({})", self.tooltip(), keys.join(" or "))
        }
    }

    /// A button for the action; pushes it onto `commands` when clicked.
    fn button_ui(self, ui: &mut Ui, enabled: bool, commands: &mut Vec<Command>) {
        let tooltip = self.tooltip_with_shortcut(ui.ctx());
        let response = ui
            .add_enabled(enabled, egui::Button::new(self.text()))
            .on_hover_text(&tooltip)
            .on_disabled_hover_text(tooltip);
        if response.clicked() {
            commands.push(Command::Action(self));
        }
    }

    /// The actions whose shortcut was pressed this frame (consumed from the input).
    ///
    /// Shortcuts without a modifier are skipped while a text field has the keyboard, so
    /// typing a seed does not flip the board, and arrow keys are left to a focused
    /// widget (a slider).
    fn consume_shortcuts(ctx: &egui::Context) -> Vec<Action> {
        let typing = ctx.egui_wants_keyboard_input();
        let focused = ctx.memory(|m| m.focused().is_some());
        let mut pressed = Vec::new();
        ctx.input_mut(|input| {
            for action in Action::ALL {
                for shortcut in action.shortcuts() {
                    let arrow = matches!(
                        shortcut.logical_key,
                        Key::ArrowLeft | Key::ArrowRight | Key::ArrowUp | Key::ArrowDown
                    );
                    if shortcut.modifiers.is_none() && (typing || (arrow && focused)) {
                        continue;
                    }
                    if input.consume_shortcut(shortcut) {
                        pressed.push(action);
                        break;
                    }
                }
            }
        });
        pressed
    }
}
