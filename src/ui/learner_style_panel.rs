//! The learner's style in the Progress tab: the posterior, what it is based on, the name
//! field (the state is the coach's [`LearnerStyleState`]).

use eframe::egui;
use egui::{RichText, Ui};

use crate::coach::style::LearnerStyleState;

/// Draws the learner's style: the posterior, what it is based on, the name field.
pub(super) fn learner_style_panel_ui(ui: &mut Ui, state: &LearnerStyleState, name: &mut String) {
    ui.separator();
    ui.heading("Your style");
    let (drilled, imported) = state.counts();
    match state.posterior() {
        Some(p) => {
            ui.label(RichText::new(p.to_string()).strong());
            ui.label(format!(
                "You look {}: from {drilled} drilled line{} and {imported} of your games.",
                p.class().label(),
                if drilled == 1 { "" } else { "s" }
            ));
        }
        None => {
            ui.label("Drill a few lines to the end (or name yourself below) to see your style.");
        }
    }
    let label = ui.label("Your name in PGN files");
    ui.add(
        egui::TextEdit::singleline(name)
            .hint_text("e.g. Carlsen")
            .desired_width(ui.available_width() - 8.0),
    )
    .labelled_by(label.id)
    .on_hover_text(
        "Your games among the loaded PGN files count too (a part of the name is enough)",
    );
    ui.label(
        RichText::new(
            "Guessed from your first move, where the kings go, and how far your pieces and \
             pawns advance in your first 10 moves.",
        )
        .small()
        .weak(),
    )
    .on_hover_text(
        "A naive Bayes classifier over those features, trained on Fischer and Kasparov \
         (attacking), Karpov (positional) and Illescas (mixed); right 55% of the time in \
         10-fold cross-validation (always guessing positional: 47%).",
    );
}
