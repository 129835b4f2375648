//! Panels the learner can fold away for a bigger board: the side panel (Style, Book,
//! Progress, Coverage) and the chart. A folded panel leaves a narrow strip with one
//! button that unfolds it; which panels are folded is saved with the settings. And the
//! "Advanced" fold of the researcher's controls ([`advanced_fold_ui`]), in the Style tab
//! and in play-on's engine settings.

use eframe::egui;
use egui::{RichText, Ui};

use super::command::Command;
use crate::coach::settings::{PanelsShown, Settings};

/// The button that folds a panel away; `what` is the panel's name for the tooltip.
pub(super) fn fold_button_ui(ui: &mut Ui, label: &str, what: &str) -> bool {
    ui.small_button(label)
        .on_hover_text(format!("Hide {what} (a button brings it back)"))
        .clicked()
}

/// The strip of a folded panel: one button that unfolds it.
pub(super) fn unfold_button_ui(ui: &mut Ui, label: &str, what: &str) -> bool {
    ui.button(RichText::new(label).strong())
        .on_hover_text(format!("Show {what}"))
        .clicked()
}

/// The settings with the panels shown changed by `change`, as a command.
pub(super) fn set_panels(settings: &Settings, change: impl FnOnce(&mut PanelsShown)) -> Command {
    let mut next = settings.clone();
    change(&mut next.panels);
    Command::SetSettings(Box::new(next))
}

/// An "Advanced" fold: the researcher's controls under the ordinary ones, folded at
/// first. `id_salt` names it: egui keeps its state by that name within its panel,
/// saved with the window's between runs, so it opens as it was left.
pub(super) fn advanced_fold_ui<R>(
    ui: &mut Ui,
    id_salt: &str,
    add_contents: impl FnOnce(&mut Ui) -> R,
) -> Option<R> {
    egui::CollapsingHeader::new("Advanced")
        .id_salt(id_salt)
        .default_open(false)
        .show(ui, add_contents)
        .body_returned
}
