//! The top bar's Help menu: the user guide (opened with the system's browser) and the
//! About window.

use eframe::egui;
use egui::Ui;

use super::about::About;
use super::open_path::{guide_path, open_or_say};

/// Draws the Help menu; "About Hastings" opens `about`.
pub(super) fn help_menu_ui(ui: &mut Ui, about: &mut About) {
    ui.menu_button("Help", |ui| {
        let guide = guide_path();
        let button = ui
            .add_enabled(guide.is_some(), egui::Button::new("User guide"))
            .on_hover_text("The user guide, in your browser")
            .on_disabled_hover_text(
                "The guide is not installed beside this program (the package and the \
                 portable archive have it; from source: mdbook build docs/guide)",
            );
        if button.clicked()
            && let Some(path) = &guide
        {
            about.set_problem(open_or_say(path));
            ui.close();
        }
        if ui.button("About Hastings").clicked() {
            about.open = true;
            ui.close();
        }
    });
}
