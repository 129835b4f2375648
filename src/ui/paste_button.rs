//! The Paste button of the Book and Repertoire tabs: it asks the window for the
//! clipboard, which comes back as a paste event, read as Ctrl+V's is.

use eframe::egui;

/// A "Paste" button with `hover` as its hover text; a click asks the window for the
/// clipboard's text.
pub fn paste_button_ui(ui: &mut egui::Ui, hover: &str) {
    if ui.button("Paste").on_hover_text(hover).clicked() {
        ui.ctx()
            .send_viewport_cmd(egui::ViewportCommand::RequestPaste);
    }
}
