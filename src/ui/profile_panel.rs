//! Style profiles and the adaptive opponent, in the Style tab: load and save profiles,
//! "Play like …" a fitted player, and the computer following the learner's style.

use eframe::egui;
use egui::{RichText, Ui};

use super::command::Command;
use crate::coach::Coach;
use crate::sampler::profile::Provenance;
use crate::trainer::learner_style::Adaptation;

/// Draws the profile controls and the adaptive opponent.
pub(super) fn profile_panel_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    ui.separator();
    ui.label(RichText::new("Profiles").strong());
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Load profile…")
            .on_hover_text("Use the style of a profile file (RON)")
            .clicked()
        {
            commands.push(Command::ChooseProfile { play_like: false });
        }
        if ui
            .button("Save profile…")
            .on_hover_text(
                "Save this style and where popularity comes from as a profile file to share",
            )
            .clicked()
        {
            commands.push(Command::SaveProfile);
        }
        if ui
            .button("Play like…")
            .on_hover_text(
                "Load a profile fitted by `hastings fit` and add the player's games to the book",
            )
            .clicked()
        {
            commands.push(Command::ChooseProfile { play_like: true });
        }
    });
    if let Some(profile) = coach.style().profile() {
        let current = profile.style == coach.settings().style;
        ui.label(format!(
            "Profile: {}{}",
            profile.name,
            if current { "" } else { " (changed since)" }
        ));
        if !profile.description.is_empty() {
            ui.label(RichText::new(&profile.description).small());
        }
        if let Provenance::Fitted(fit) = &profile.provenance {
            ui.label(
                RichText::new(format!(
                    "Log-likelihood per move {:.3} (neutral {:.3}); top-1 {:.0}% (neutral {:.0}%).",
                    fit.log_likelihood / fit.moves_scored.max(1) as f64,
                    fit.log_likelihood_neutral / fit.moves_scored.max(1) as f64,
                    fit.top1 * 100.0,
                    fit.top1_neutral * 100.0
                ))
                .small(),
            );
            let loaded = coach
                .workspace()
                .files()
                .iter()
                .any(|f| f.path.as_os_str() == fit.games.as_str());
            if !loaded
                && ui
                    .button(format!("Add {}'s games to the book", fit.player))
                    .on_hover_text(format!("Load {} as a game collection", fit.games))
                    .clicked()
            {
                commands.push(Command::AddProfileGames);
            }
        }
    }

    ui.separator();
    let mut adaptive = coach.settings().adaptive;
    if ui
        .checkbox(&mut adaptive, "Adapt to my style")
        .on_hover_text(
            "The computer's style follows yours (BayesChess): against an attacking player \
             solid lines, against a positional one sharp lines (gambits); for a mixed one, \
             one of the two, drawn once per session",
        )
        .changed()
    {
        commands.push(Command::SetAdaptive(adaptive));
    }
    if coach.settings().adaptive {
        let text = match coach.style().learner_style_class() {
            Some((p, class)) => {
                let a = Adaptation::for_class(class, coach.style().adaptation_coin());
                format!(
                    "You look {} ({:.2}), so the computer plays {}.",
                    class.label(),
                    p.p(class),
                    a.describe()
                )
            }
            None => "No style yet: drill a few lines to the end.".to_owned(),
        };
        ui.label(RichText::new(text).small());
    }
}
