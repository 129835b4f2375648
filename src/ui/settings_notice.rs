//! "Your settings were damaged": the window that says, at start, which settings file
//! was kept aside and which settings were reset (the others were kept).

use eframe::egui;

/// Draws the notice; returns whether the learner closed it ("OK").
pub(super) fn settings_notice_ui(ctx: &egui::Context, text: &str) -> bool {
    let mut closed = false;
    egui::Window::new("Your settings were damaged")
        .id(egui::Id::unique("hastings_settings_notice"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.set_max_width(420.0);
            ui.add(egui::Label::new(text).wrap());
            ui.add_space(6.0);
            if ui.button("OK").clicked() {
                closed = true;
            }
        });
    closed
}
