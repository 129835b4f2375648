//! "Optimise my memory model": fits the FSRS parameters to the review log as a
//! background job with a progress bar, shows the old and new parameters with the
//! log-loss of each, and saves the new ones (used from the next review session).

use eframe::egui;
use egui::{RichText, Ui};

use super::command::Command;
use crate::coach::Coach;
use crate::review::optimize::MIN_REVIEWS;

/// The optimiser's button, progress bar and result.
pub(super) fn optimize_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    let Some(review) = coach.review().mode() else {
        return;
    };
    let reviews = review.store.records().len();
    let state = &review.optimize;
    ui.label(RichText::new("Memory model").strong());
    if let Some(progress) = state.progress() {
        ui.add(
            egui::ProgressBar::new(progress.fraction())
                .show_percentage()
                .desired_width(ui.available_width()),
        );
        return;
    }
    let enabled = reviews >= MIN_REVIEWS;
    if ui
        .add_enabled(
            enabled,
            egui::Button::new("Fit review timing to my results"),
        )
        .on_hover_text(
            "Optimise my memory model: fit the FSRS parameters to your review log, so that \
             reviews come when you are about to forget",
        )
        .on_disabled_hover_text(format!(
            "Needs {MIN_REVIEWS} reviews in the log ({reviews} so far)"
        ))
        .clicked()
    {
        commands.push(Command::Optimize);
    }
    match state.result() {
        Some(Ok(o)) => {
            ui.label(format!(
                "Log-loss on {} reviews: {:.4} (old) → {:.4} (new). Saved; used from the \
                 next review session.",
                o.reviews, o.old_log_loss, o.new_log_loss
            ));
            let fmt = |p: &[f32]| {
                p.iter()
                    .map(|x| format!("{x:.3}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            ui.add(egui::Label::new(RichText::new(format!("old: {}", fmt(&o.old))).small()).wrap());
            ui.add(egui::Label::new(RichText::new(format!("new: {}", fmt(&o.new))).small()).wrap());
        }
        Some(Err(e)) => {
            ui.label(RichText::new(e.to_string()).color(ui.visuals().warn_fg_color));
        }
        None => {}
    }
}
