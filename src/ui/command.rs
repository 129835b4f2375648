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

    /// A small button showing `icon`, named by the action's text for screen readers;
    /// pushes the action onto `commands` when clicked.
    fn icon_button_ui(self, ui: &mut Ui, icon: &str, enabled: bool, commands: &mut Vec<Command>);

    /// The actions whose shortcut was pressed this frame (consumed from the input);
    /// `dialog_open`: a dialog window is open, which keeps the keys that type.
    fn consume_shortcuts(ctx: &egui::Context, dialog_open: bool) -> Vec<Self>;
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
            Action::TakeBack => &const { [KeyboardShortcut::new(Modifiers::COMMAND, Key::Z)] },
            // While playing on, ← takes back (the coach's StepBack does there).
            Action::StepBack => &const { [KeyboardShortcut::new(NONE, Key::ArrowLeft)] },
            Action::StepForward => &const { [KeyboardShortcut::new(NONE, Key::ArrowRight)] },
            Action::ToStart => &const { [KeyboardShortcut::new(NONE, Key::Home)] },
            Action::ToCurrent => &const { [KeyboardShortcut::new(NONE, Key::End)] },
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

    /// A small button showing `icon`, named by the action's text for screen readers.
    fn icon_button_ui(self, ui: &mut Ui, icon: &str, enabled: bool, commands: &mut Vec<Command>) {
        let tooltip = format!("{}: {}", self.text(), self.tooltip_with_shortcut(ui.ctx()));
        let response = ui
            .add_enabled(enabled, egui::Button::new(icon))
            .on_hover_text(&tooltip)
            .on_disabled_hover_text(tooltip);
        // The glyph means nothing to a screen reader: the action's text names it.
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, self.text()));
        if response.clicked() {
            commands.push(Command::Action(self));
        }
    }

    /// The actions whose shortcut was pressed this frame (consumed from the input).
    ///
    /// The shortcuts of keys that type (no modifier, or only Shift: `N`, `Shift+N`,
    /// Enter, the arrows) are skipped while a widget has the keyboard (a text field,
    /// a slider) or a dialog is open (`dialog_open`: the path field, "read as"), so
    /// typing a seed or a path does not flip the board or start a new line.
    fn consume_shortcuts(ctx: &egui::Context, dialog_open: bool) -> Vec<Action> {
        let keyboard_taken = dialog_open || ctx.egui_wants_keyboard_input();
        let mut pressed = Vec::new();
        ctx.input_mut(|input| {
            for action in Action::ALL {
                for shortcut in action.shortcuts() {
                    if keyboard_taken && types(shortcut.modifiers) {
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

/// Whether a key pressed with `modifiers` may be typing (none, or only Shift), rather
/// than a command (Ctrl, Alt, ⌘).
fn types(modifiers: Modifiers) -> bool {
    !(modifiers.alt || modifiers.ctrl || modifiers.command || modifiers.mac_cmd)
}
