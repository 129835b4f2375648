//! The window of a top game opened from the Explorer tab: the players and details, a
//! board at the ply shown (it opens just after the game's move at the tab's position),
//! buttons to step through it, its moves (a click shows that ply), and "Show in my
//! repertoire" (the Repertoire tab's file at the position shown). While it shows a
//! game, ←/→ and Home/End step through it (before the drill's and the Repertoire tab's
//! keys). The state is the
//! coach's ([`crate::coach::explorer_game`]); the window only draws it and sends
//! commands.

use eframe::egui;
use egui::{RichText, Ui};

use super::board::{BoardView, Orientation, board_ui};
use super::command::Command;
use crate::coach::explorer::ExplorerCommand;
use crate::coach::explorer::{ExplorerGameState, ShownGameView};

/// The game window's keys: ←/→ a move, Home/End the start and the end, while it shows
/// a game and no dialog or text field has the keyboard.
pub(super) fn explorer_game_keys(
    ctx: &egui::Context,
    state: &ExplorerGameState,
    dialog_open: bool,
) -> Vec<Command> {
    let Some(game) = state.shown() else {
        return Vec::new();
    };
    if dialog_open || ctx.egui_wants_keyboard_input() {
        return Vec::new();
    }
    let ply = game.ply();
    let keys = [
        (egui::Key::ArrowLeft, ply.saturating_sub(1)),
        (egui::Key::ArrowRight, (ply + 1).min(game.len())),
        (egui::Key::Home, 0),
        (egui::Key::End, game.len()),
    ];
    ctx.input_mut(|input| {
        keys.into_iter()
            .filter(|(key, _)| input.consume_key(egui::Modifiers::NONE, *key))
            .map(|(_, to)| Command::Explorer(ExplorerCommand::GameTo(to)))
            .collect()
    })
}

/// The game window, while a game is shown, read, or could not be.
pub(super) fn explorer_game_ui(
    ctx: &egui::Context,
    state: &ExplorerGameState,
    repertoire_open: bool,
    orientation: Orientation,
    commands: &mut Vec<Command>,
) {
    if !state.is_open() {
        return;
    }
    let mut open = true;
    let rect = ctx.content_rect();
    egui::Window::new("Game from the explorer")
        .id(egui::Id::unique("explorer_game"))
        .open(&mut open)
        .collapsible(false)
        .default_width(360.0_f32.min(rect.width() - 40.0))
        .pivot(egui::Align2::CENTER_TOP)
        .default_pos(egui::pos2(rect.center().x, rect.top() + 30.0))
        .constrain(true)
        .show(ctx, |ui| {
            if let Some(players) = state.loading() {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("Reading {players}…"));
                });
            }
            if let Some(message) = state.message() {
                ui.colored_label(ui.visuals().error_fg_color, message);
            }
            if let Some(game) = state.shown() {
                shown_ui(ui, game, orientation, commands);
                to_repertoire_ui(ui, game, repertoire_open, commands);
            }
        });
    if !open {
        commands.push(Command::Explorer(ExplorerCommand::CloseGame));
    }
}

/// "Show in my repertoire": the Repertoire tab's file at the position shown (where the
/// game leaves the repertoire, its moves are past the cursor, ready to add).
fn to_repertoire_ui(
    ui: &mut Ui,
    game: &ShownGameView,
    repertoire_open: bool,
    commands: &mut Vec<Command>,
) {
    let why_not = if !game.starts_at_standard() {
        Some("The game does not start from the standard position.")
    } else if !repertoire_open {
        Some("Open your repertoire in the Repertoire tab first.")
    } else {
        None
    };
    let button = ui
        .add_enabled(why_not.is_none(), egui::Button::new("Show in my repertoire"))
        .on_hover_text("The Repertoire tab's file at this position: the chapter that holds most of these moves, the rest ready to add")
        .on_disabled_hover_text(why_not.unwrap_or_default());
    if button.clicked() {
        commands.push(Command::Explorer(ExplorerCommand::ShowGameInRepertoire));
    }
}

fn shown_ui(
    ui: &mut Ui,
    game: &ShownGameView,
    orientation: Orientation,
    commands: &mut Vec<Command>,
) {
    let to = |ply: usize| Command::Explorer(ExplorerCommand::GameTo(ply));
    ui.label(RichText::new(&game.title).strong());
    ui.label(RichText::new(&game.details).weak());
    // The board, the buttons and a few rows of moves fit the window's height (800×600).
    let height = ui.ctx().content_rect().height();
    let side = ui
        .available_width()
        .min(320.0)
        .min(height - 340.0)
        .max(128.0);
    ui.allocate_ui(egui::vec2(side, side), |ui| {
        let view = BoardView {
            interactive: false,
            last_move: game.last_move(),
            ..BoardView::new(game.position())
        };
        board_ui(ui, &view, orientation);
    });
    ui.horizontal(|ui| {
        let ply = game.ply();
        let back = ply > 0;
        let forward = ply < game.len();
        if ui
            .add_enabled(back, egui::Button::new("Game start"))
            .on_hover_text("The start")
            .clicked()
        {
            commands.push(to(0));
        }
        if ui
            .add_enabled(back, egui::Button::new("Back"))
            .on_hover_text("Back a move")
            .clicked()
        {
            commands.push(to(ply - 1));
        }
        if ui
            .add_enabled(forward, egui::Button::new("Forward"))
            .on_hover_text("Forward a move")
            .clicked()
        {
            commands.push(to(ply + 1));
        }
        if ui
            .add_enabled(forward, egui::Button::new("Game end"))
            .on_hover_text("The end")
            .clicked()
        {
            commands.push(to(game.len()));
        }
        ui.label(format!("{} / {} half-moves", ply, game.len()))
            .on_hover_text("Plies: the half-move shown and the game's half-moves");
    });
    egui::ScrollArea::vertical()
        .max_height((height - side - 250.0).clamp(60.0, 160.0))
        .auto_shrink([false, true])
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing.x = 4.0;
                let black_first = game.starts_black();
                let mut number = game.first_move_number();
                for (i, san) in game.sans.iter().enumerate() {
                    let white = (i % 2 == 0) != black_first;
                    let numbered = (white || i == 0).then(|| {
                        let dots = if white { "." } else { "…" };
                        format!("{number}{dots} ")
                    });
                    if !white {
                        number += 1;
                    }
                    // The number and its move in one widget, whole: a move wrapped to the
                    // next line left its number dangling ("cxd4 4." / "Nxd4").
                    let text = numbered_move(ui, numbered.as_deref(), san);
                    let item = egui::Button::selectable(game.ply() == i + 1, text)
                        .wrap_mode(egui::TextWrapMode::Extend);
                    if ui.add(item).clicked() {
                        commands.push(to(i + 1));
                    }
                }
            });
            if let Some(note) = &game.note {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!("The moves stop here: {note}."),
                );
            }
        });
}

/// A move of the list as one text: its number (weak), then the move.
fn numbered_move(ui: &Ui, number: Option<&str>, san: &str) -> egui::text::LayoutJob {
    let font = egui::TextStyle::Button.resolve(ui.style());
    let mut job = egui::text::LayoutJob::default();
    if let Some(number) = number {
        job.append(
            number,
            0.0,
            egui::TextFormat::simple(font.clone(), ui.visuals().weak_text_color()),
        );
    }
    job.append(
        san,
        0.0,
        egui::TextFormat::simple(font, ui.visuals().text_color()),
    );
    job
}
