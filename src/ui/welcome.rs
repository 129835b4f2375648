//! "Start here": the first run asks what the learner wants — which side they play, and
//! whether to drill the built-in openings or their own repertoire — and puts the drill in
//! front. Shown when eframe's storage holds no settings yet (a new user); the Style tab
//! keeps the sliders for later.

use eframe::egui;
use egui::{Color32, RichText};
use shakmaty::Color;

use super::command::Command;
use crate::coach::Action;

/// What the learner wants to drill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Drill {
    /// The built-in openings (ECO).
    BuiltIn,
    /// Their own repertoire (a PGN file or a lichess study).
    Repertoire,
}

/// The first-run window's choices so far.
#[derive(Debug, Clone)]
pub(super) struct Welcome {
    /// The side the learner plays (the side their repertoire is for).
    pub(super) learner: Color,
    pub(super) drill: Drill,
    /// Stockfish is not installed: the window says how to get it.
    pub(super) no_stockfish: bool,
}

impl Default for Welcome {
    fn default() -> Welcome {
        Welcome {
            learner: Color::White,
            drill: Drill::BuiltIn,
            no_stockfish: crate::engine::discover::stockfish().is_none(),
        }
    }
}

/// The one line a first start without Stockfish shows.
pub(super) const NO_STOCKFISH: &str = if cfg!(target_os = "linux") {
    "Stockfish is not installed (sudo apt install stockfish): the built-in engine judges \
     your moves and plays on meanwhile."
} else {
    "Stockfish is not installed (stockfishchess.org): the built-in engine judges your \
     moves and plays on meanwhile."
};

/// What the window asks for when it closes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Closed {
    /// Start the drill as chosen.
    Start,
    /// Close without changing anything.
    Skip,
}

/// Draws the window; on "Start", pushes the commands for the choices (the learner's
/// side; for a repertoire "Open…", the side being the caller's to take once the file is
/// chosen) and says it closed.
pub(super) fn welcome_ui(
    ctx: &egui::Context,
    form: &mut Welcome,
    current: Color,
    commands: &mut Vec<Command>,
) -> Option<Closed> {
    let mut closed = None;
    egui::Window::new("Start here")
        .id(egui::Id::unique("hastings_welcome"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.set_max_width(360.0);
            ui.label(RichText::new("Welcome to Hastings").heading());
            ui.add(
                egui::Label::new(
                    "You play moves on the board; the computer answers from an opening book, \
                     the way a human opponent with a style would, and tells you when you \
                     leave the book.",
                )
                .wrap(),
            );
            ui.add_space(6.0);
            ui.label(RichText::new("I play").strong());
            ui.horizontal(|ui| {
                ui.selectable_value(&mut form.learner, Color::White, "White");
                ui.selectable_value(&mut form.learner, Color::Black, "Black");
            });
            ui.add_space(6.0);
            ui.label(RichText::new("I want to drill").strong());
            ui.radio_value(
                &mut form.drill,
                Drill::BuiltIn,
                "The built-in openings (ECO: 3,807 named lines)",
            );
            ui.radio_value(
                &mut form.drill,
                Drill::Repertoire,
                "My repertoire (a PGN file or a lichess study)",
            );
            if form.drill == Drill::Repertoire {
                let side = match form.learner {
                    Color::White => "White",
                    Color::Black => "Black",
                };
                ui.add(
                    egui::Label::new(
                        RichText::new(format!(
                            "Your repertoire is drilled as {side}. Choose the file next, and \
                             read it as \"My repertoire\"."
                        ))
                        .small()
                        .color(Color32::from_rgb(0x2a, 0x7a, 0xc0)),
                    )
                    .wrap(),
                );
            }
            if form.no_stockfish {
                ui.add_space(6.0);
                ui.add(egui::Label::new(RichText::new(NO_STOCKFISH).small()).wrap());
            }
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                let start = match form.drill {
                    Drill::BuiltIn => "Start drilling",
                    Drill::Repertoire => "Choose my repertoire…",
                };
                if ui.button(RichText::new(start).strong()).clicked() {
                    closed = Some(Closed::Start);
                }
                if ui
                    .button("Skip")
                    .on_hover_text("Start with White and the built-in openings (Escape)")
                    .clicked()
                {
                    closed = Some(Closed::Skip);
                }
            });
        });
    // Escape skips, as it closes other windows.
    if closed.is_none() && ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        closed = Some(Closed::Skip);
    }
    if closed == Some(Closed::Start) {
        if form.drill == Drill::Repertoire {
            // Said here, the side is not asked again when the file has no side tags.
            // The side itself is taken once the file is chosen (the window does), so
            // that no built-in line starts before the repertoire is there.
            commands.push(Command::RepertoireFor(form.learner.into()));
            commands.push(Command::Action(Action::Open));
        } else if form.learner != current {
            commands.push(Command::SetLearner(form.learner));
        }
    }
    closed
}
