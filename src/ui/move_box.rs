//! The move box, in the drill panel and the play-on panel: type a move (`e4`, `Nf3`,
//! `g1f3`, `O-O`) and press Enter to play it. While typing, the legal moves that match
//! are buttons below it; Tab plays the only one (or completes the text as far as they
//! agree); why an entry was not played is one line below it. `/` gives the box the
//! keyboard from anywhere (not while another field has it or a dialog is open); Escape
//! gives it back, so the single-key shortcuts work again.
//!
//! Drawing only: the text, its reading and the completions are the coach's
//! ([`crate::coach::drill::move_entry`]); every change is a [`MoveEntryCommand`].

use eframe::egui;
use egui::{Key, Modifiers, RichText, Ui};

use super::command::Command;
use crate::coach::Coach;
use crate::coach::drill::MoveEntryCommand;

/// The box's accessible name.
pub const MOVE_BOX_LABEL: &str = "Your move";

/// The box's id (one box at a time: the drill's or the play-on game's).
fn box_id() -> egui::Id {
    egui::Id::unique("hastings_move_box")
}

fn push(commands: &mut Vec<Command>, c: MoveEntryCommand) {
    commands.push(Command::MoveEntry(c));
}

/// Whether `/` was pressed to type a move (the key and the `/` it types are consumed);
/// never while a widget has the keyboard or a dialog is open (`dialog_open`).
pub(super) fn focus_key_pressed(ctx: &egui::Context, dialog_open: bool) -> bool {
    if dialog_open || ctx.egui_wants_keyboard_input() {
        return false;
    }
    ctx.input_mut(|input| {
        let key = input.consume_key(Modifiers::NONE, Key::Slash);
        let before = input.events.len();
        input
            .events
            .retain(|e| !matches!(e, egui::Event::Text(t) if t == "/"));
        key || input.events.len() < before
    })
}

/// Gives the move box the keyboard.
pub(super) fn focus(ctx: &egui::Context) {
    ctx.memory_mut(|m| m.request_focus(box_id()));
}

/// The box, the reason the last entry was not played, and the completions.
pub(super) fn move_box_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    let mut text = coach.drill().move_entry().text().to_owned();
    let response = ui
        .add(
            egui::TextEdit::singleline(&mut text)
                .id(box_id())
                // Short enough for the box at 800×600 (the hover gives the examples).
                .hint_text("Type a move (/)")
                .desired_width(f32::INFINITY)
                // Tab completes the move instead of moving the keyboard on.
                .lock_focus(true),
        )
        .on_hover_text(
            "Type your move in SAN or UCI (Nf3, nf3, g1f3, e8=Q, O-O, 0-0) and press Enter; \
             Tab plays the only move that matches. / comes here, Escape leaves.",
        );
    ui.ctx()
        .accesskit_node_builder(response.id, |node| node.set_label(MOVE_BOX_LABEL));
    // No move has a `/`: the one that gave the box the keyboard is not typed.
    text.retain(|c| c != '/');
    let changed = text != coach.drill().move_entry().text();
    if changed {
        push(commands, MoveEntryCommand::Text(text.clone()));
    }
    if response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) && !text.trim().is_empty() {
        push(commands, MoveEntryCommand::Enter);
        // The next move is typed at once; Enter in an empty box leaves it.
        response.request_focus();
    }
    if response.has_focus() && ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Tab)) {
        push(commands, MoveEntryCommand::Complete);
    }
    if let Some(error) = coach.drill().move_entry().error().filter(|_| !changed) {
        ui.add(egui::Label::new(RichText::new(error).color(ui.visuals().error_fg_color)).wrap());
    }
    let completions = coach.move_completions(&text);
    if !completions.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 4.0;
            for c in completions {
                if ui
                    .button(&c.san)
                    .on_hover_text(format!("Play {}", c.san))
                    .clicked()
                {
                    push(commands, MoveEntryCommand::Pick(c.mv));
                }
            }
        });
    }
}
