//! "Optimise my memory model": fits the FSRS parameters to the review log as a
//! background job with a progress bar, shows the old and new parameters with the
//! log-loss of each, and saves the new ones (used from the next review session).

use eframe::egui;
use egui::{RichText, Ui};

use super::app::TrainerApp;
use super::command::Command;
use crate::review::optimize::{MIN_REVIEWS, OptimizeError, Optimized, optimize};
use crate::job::{Job, JobPoll};
use crate::workspace::review_store::{ReviewParams, load_params, save_params};

/// The optimiser's job and its last result.
#[derive(Default)]
pub(super) struct OptimizeState {
    job: Option<Job<Result<Optimized, OptimizeError>>>,
    result: Option<Result<Optimized, String>>,
}

impl TrainerApp {
    /// Starts the optimiser on the review log.
    pub(super) fn start_optimize(&mut self, ctx: &egui::Context) {
        let Some(review) = &mut self.review else {
            return;
        };
        if review.optimize.job.is_some() {
            return;
        }
        let records = review.store.records().to_vec();
        let params_path = review
            .store
            .path()
            .with_file_name(super::review_mode::PARAMS_FILE);
        let current = load_params(&params_path).value.parameters;
        let ctx = ctx.clone();
        let wake = std::sync::Arc::new(move || ctx.request_repaint());
        match Job::spawn("optimize", wake, move |p| optimize(&records, &current, p)) {
            Ok(job) => {
                review.optimize.job = Some(job);
                review.optimize.result = None;
            }
            Err(e) => review.optimize.result = Some(Err(e.to_string())),
        }
    }

    /// Takes the optimiser's result when it is done and saves the new parameters.
    pub(super) fn poll_optimize(&mut self, ctx: &egui::Context) {
        let Some(review) = &mut self.review else {
            return;
        };
        let Some(job) = &review.optimize.job else {
            return;
        };
        let result = match job.poll() {
            JobPoll::Running => {
                ctx.request_repaint_after(std::time::Duration::from_millis(100));
                return;
            }
            JobPoll::Finished(Ok(o)) => {
                let path = review
                    .store
                    .path()
                    .with_file_name(super::review_mode::PARAMS_FILE);
                let mut params: ReviewParams = load_params(&path).value;
                params.parameters = o.new.clone();
                match save_params(&path, &params) {
                    Ok(()) => Ok(o),
                    Err(e) => Err(format!("The new parameters could not be saved: {e}")),
                }
            }
            JobPoll::Finished(Err(e)) => Err(e.to_string()),
            JobPoll::Died(e) => Err(e.to_string()),
        };
        review.optimize.job = None;
        review.optimize.result = Some(result);
    }
}

/// The optimiser's button, progress bar and result.
pub(super) fn optimize_ui(ui: &mut Ui, app: &TrainerApp, commands: &mut Vec<Command>) {
    let Some(review) = &app.review else {
        return;
    };
    let reviews = review.store.records().len();
    let state = &review.optimize;
    ui.label(RichText::new("Memory model").strong());
    if let Some(job) = &state.job {
        ui.add(
            egui::ProgressBar::new(job.progress().snapshot().fraction())
                .show_percentage()
                .desired_width(ui.available_width()),
        );
        return;
    }
    let enabled = reviews >= MIN_REVIEWS;
    if ui
        .add_enabled(enabled, egui::Button::new("Optimise my memory model"))
        .on_hover_text("Fit the FSRS parameters to your review log")
        .on_disabled_hover_text(format!(
            "Needs {MIN_REVIEWS} reviews in the log ({reviews} so far)"
        ))
        .clicked()
    {
        commands.push(Command::Optimize);
    }
    match &state.result {
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
            ui.label(RichText::new(e).color(ui.visuals().warn_fg_color));
        }
        None => {}
    }
}
