//! Drawing the play-on game: the board with the eval bar beside it
//! ([`play_on_board_ui`]), the panel on the right with the game, the buttons, the move
//! box and the engine settings ([`play_on_panel_ui`]; the settings drawn by
//! [`super::play_on_settings`]), and the engine's line below the board
//! ([`engine_lines_ui`]). Drawing only: every change is a [`PlayOnCommand`].

use eframe::egui;
use egui::{Color32, RichText, Ui, UiBuilder, pos2, vec2};
use shakmaty::{Move, Position};

use super::app::{Animation, MOVE_ANIMATION};
use super::board::{Arrow, BoardView, SlidingPiece, board_ui};
use super::command::Command;
use super::eval_bar::{EvalBarView, eval_bar_ui};
use super::play_on_settings::settings_ui;
use crate::coach::Coach;
use crate::coach::play_on::PlayOnCommand;
use crate::trainer::play_on::{PlayOn, Turn};

/// The arrow of the best move (lichess's analysis blue).
const BEST_MOVE: Color32 = Color32::from_rgba_premultiplied(0, 30, 85, 170);

fn push(commands: &mut Vec<Command>, c: PlayOnCommand) {
    commands.push(Command::PlayOn(c));
}

/// The board of the play-on game, the eval bar on its left.
pub(super) fn play_on_board_ui(
    ui: &mut Ui,
    coach: &Coach,
    animation: Option<Animation>,
    commands: &mut Vec<Command>,
) {
    let Some(run) = coach.play_on().run.as_ref() else {
        return;
    };
    let game = run.game();
    let position = game.position().clone();
    let last_move = game.last_move();
    let arrows: Vec<Arrow> = run
        .best_move()
        .filter(|_| coach.settings().play_on.best_move_arrow)
        .and_then(|mv| Arrow::of_move(&mv, 0.7, BEST_MOVE))
        .into_iter()
        .collect();
    let now = ui.input(|i| i.time);
    let animation = animation
        .filter(|a| Some(a.mv) == last_move)
        .and_then(|a| SlidingPiece::of_move(&a.mv, ((now - a.started) / MOVE_ANIMATION) as f32));
    let view = BoardView {
        position: &position,
        last_move: last_move.as_ref(),
        interactive: game.turn() == Turn::Learner,
        arrows: &arrows,
        hint: None,
        animation,
    };
    // The board where the drill has it (centred), the bar to its left: the board does
    // not move when playing on starts. Where the panel is too narrow for both, the
    // board shrinks to leave the bar its room on each side.
    let area = ui.available_rect_before_wrap();
    let bar = (area.width() * 0.035).clamp(24.0, 30.0);
    let gap = 6.0;
    let side = (area.width() - 2.0 * (bar + gap))
        .min(area.height())
        .max(64.0);
    let board_rect = egui::Rect::from_center_size(area.center(), vec2(side, side));
    let response = ui
        .scope_builder(UiBuilder::new().max_rect(board_rect), |ui| {
            board_ui(ui, &view, coach.orientation())
        })
        .inner;
    // Beside the squares (left of the coordinates when they are outside), as tall as them.
    let drawn = response.squares;
    let bar_rect = egui::Rect::from_min_size(
        pos2(response.response.rect.left() - gap - bar, drawn.top()),
        vec2(bar, drawn.height()),
    );
    let bottom = match coach.orientation() {
        super::board::Orientation::WhiteBottom => shakmaty::Color::White,
        super::board::Orientation::BlackBottom => shakmaty::Color::Black,
    };
    eval_bar_ui(
        ui,
        bar_rect,
        &EvalBarView {
            learner_share: run.learner_share(),
            text: run.eval_text(),
            learner: game.learner(),
            bottom,
        },
    );
    if let Some(mv) = response.played {
        push(commands, PlayOnCommand::Play(mv));
    }
}

/// The right panel while playing on: whose turn, the notice, the buttons, the moves
/// (book part and engine part) and the engine settings.
pub(super) fn play_on_panel_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    // The panel scrolls as a whole, and keeps to its width: nothing in it can widen it
    // (a panel wider than its place slides under the board, which cuts its first
    // letters) or push the buttons below the window at 800×600.
    let height = ui.available_height();
    egui::ScrollArea::vertical()
        .id_salt("play_on_panel")
        .auto_shrink([false, false])
        .show(ui, |ui| panel_contents_ui(ui, coach, height, commands));
}

/// What [`play_on_panel_ui`] scrolls; `height`: the panel's.
fn panel_contents_ui(ui: &mut Ui, coach: &Coach, height: f32, commands: &mut Vec<Command>) {
    let Some(run) = coach.play_on().run.as_ref() else {
        return;
    };
    ui.add_space(4.0);
    // Sparring: the band's (or the player's) games first, the model past them.
    let opponent = match run.spar() {
        Some(spar) => format!("{}, then {}", spar.whose(), run.engine_name()),
        None => run.engine_name().to_owned(),
    };
    ui.add(egui::Label::new(RichText::new(format!("Your opponent: {opponent}")).heading()).wrap());
    if let Some(opening) = run.game().opening() {
        ui.add(egui::Label::new(format!("After the book: {opening}")).wrap());
    }
    ui.separator();
    status_ui(ui, run);
    // Ending a game that has moves asks first: a stray click must not lose it.
    let confirm_id = egui::Id::unique("confirm_back_to_book");
    let asking = ui.data(|d| d.get_temp::<bool>(confirm_id).unwrap_or(false));
    let has_moves = !run.game().played().is_empty();
    if asking {
        ui.add(
            egui::Label::new(
                RichText::new("End this game? Its moves are lost unless you copy or save them.")
                    .strong(),
            )
            .wrap(),
        );
    }
    ui.horizontal_wrapped(|ui| {
        if asking {
            if ui.button("End the game").clicked() {
                ui.data_mut(|d| d.remove::<bool>(confirm_id));
                push(commands, PlayOnCommand::BackToBook);
            }
            if ui.button("Keep playing").clicked() {
                ui.data_mut(|d| d.remove::<bool>(confirm_id));
            }
        } else if ui
            .button("Back to the book")
            .on_hover_text("End the game and return to the last book position and the drill")
            .clicked()
        {
            if has_moves {
                ui.data_mut(|d| d.insert_temp(confirm_id, true));
            } else {
                push(commands, PlayOnCommand::BackToBook);
            }
        }
        if ui
            .add_enabled(run.is_thinking(), egui::Button::new("Move now"))
            .on_hover_text("Ask the engine to play the best move it has found")
            .clicked()
        {
            push(commands, PlayOnCommand::MoveNow);
        }
    });
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Copy PGN")
            .on_hover_text("Copy the game as PGN; the end of the book is a comment")
            .clicked()
        {
            push(commands, PlayOnCommand::CopyPgn);
        }
        if ui
            .button("Save PGN…")
            .on_hover_text("Save the game as a PGN file; the end of the book is a comment")
            .clicked()
        {
            push(commands, PlayOnCommand::SavePgn);
        }
    });
    // Below the buttons, so that a message never moves them under the pointer.
    if let Some(notice) = &coach.play_on().notice {
        ui.add(
            egui::Label::new(RichText::new(notice).color(Color32::from_rgb(0x2a, 0x7a, 0xc0)))
                .wrap(),
        );
    }
    // Below them too: its completions come and go while typing.
    ui.add_space(4.0);
    super::move_box::move_box_ui(ui, coach, commands);
    ui.separator();
    settings_ui(ui, &coach.settings().play_on, commands);
    super::spar_panel::spar_ui(ui, coach, commands);
    ui.separator();
    moves_ui(ui, run, (height * 0.4).max(100.0));
}

fn status_ui(ui: &mut Ui, run: &PlayOn) {
    match run.game().turn() {
        Turn::Learner => {
            ui.label(RichText::new("Your move").strong());
        }
        Turn::Engine => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("{} is thinking…", run.engine_name()));
            });
        }
        Turn::Over(end) => {
            ui.label(RichText::new(format!("Game over: {end}, {}", run.game().result())).strong());
        }
    }
}

/// The moves: the book part in grey, then the moves played on; the switch marked. A long
/// game scrolls within `max_height`, its last move in view.
fn moves_ui(ui: &mut Ui, run: &PlayOn, max_height: f32) {
    ui.label(RichText::new("Moves").strong());
    let game = run.game();
    let mut pos = game.game().start().clone();
    egui::ScrollArea::vertical()
        .id_salt("play_on_moves")
        .auto_shrink([false, true])
        .max_height(max_height)
        .stick_to_bottom(true)
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing.x = 4.0;
                let weak = ui.visuals().weak_text_color();
                for (i, m) in game.moves().iter().enumerate() {
                    if i == game.book_plies() {
                        ui.label(RichText::new("(book ends)").italics().color(weak));
                    }
                    let number = pos.fullmoves().get();
                    let mut text = String::new();
                    if pos.turn() == shakmaty::Color::White {
                        text = format!("{number}. ");
                    } else if i == 0 || i == game.book_plies() {
                        text = format!("{number}… ");
                    }
                    text.push_str(&m.san);
                    let rich = if i < game.book_plies() {
                        RichText::new(text).color(weak)
                    } else if m.by_learner {
                        RichText::new(text).strong()
                    } else {
                        RichText::new(text)
                    };
                    // Whole, never broken at its space: a move cut at a line's end left its
                    // number dangling there ("cxd4 4." / "Nxd4").
                    ui.add(egui::Label::new(rich).wrap_mode(egui::TextWrapMode::Extend));
                    pos.play_unchecked(m.mv);
                }
                if game.book_plies() == game.moves().len() {
                    ui.label(RichText::new("(book ends)").italics().color(weak));
                }
            });
        });
}

/// Below the board while playing on: the engine's evaluation, depth, speed and line.
pub(super) fn engine_lines_ui(ui: &mut Ui, coach: &Coach) {
    let Some(run) = coach.play_on().run.as_ref() else {
        return;
    };
    ui.add_space(4.0);
    ui.label(RichText::new("Engine").strong());
    let Some(e) = run.evaluation() else {
        ui.label("No evaluation yet.");
        return;
    };
    let game = run.game();
    let speed = e
        .nps
        .map(|n| format!(", {} nodes/s", super::format::count(n)))
        .unwrap_or_default();
    ui.label(format!(
        "{} for you, looking {} ahead",
        e.score,
        super::format::moves_count(e.depth as usize)
    ))
    .on_hover_text(format!(
        "Depth {} (plies), {} nodes{speed}",
        e.depth,
        super::format::count(e.nodes)
    ));
    // The line in SAN from the position evaluated (if it is still on the board or
    // the one before it).
    let mut pos = game.game().start().clone();
    for m in game.moves().iter().take(e.plies) {
        pos.play_unchecked(m.mv);
    }
    let line = san_line(&pos, &e.pv);
    if !line.is_empty() {
        ui.add(egui::Label::new(RichText::new(line).monospace()).wrap());
    }
}

/// `pv` in SAN from `pos`, with move numbers.
fn san_line(pos: &shakmaty::Chess, pv: &[Move]) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::new();
    for (i, &mv) in pv.iter().enumerate().take(16) {
        if !pos.is_legal(mv) {
            break;
        }
        let n = pos.fullmoves().get();
        if pos.turn() == shakmaty::Color::White {
            words.push(format!("{n}."));
        } else if i == 0 {
            words.push(format!("{n}…"));
        }
        words.push(shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut pos, mv).to_string());
    }
    words.join(" ")
}
