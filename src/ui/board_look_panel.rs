//! The Board section of the Style tab: the board theme, the piece set and where the
//! coordinates go, three combo boxes that change the learner's [`BoardLook`] (saved with
//! the settings, applied to every board at once).

use eframe::egui;
use egui::{RichText, Ui};

use crate::coach::board_look::{BoardLook, BoardTheme, Coordinates, PieceSet};

/// Draws the Board section, editing `look` in place.
pub(super) fn board_look_ui(ui: &mut Ui, look: &mut BoardLook) {
    ui.label(RichText::new("Board").strong())
        .on_hover_text("How the boards look; remembered between runs");
    named_combo(
        ui,
        "Squares",
        look.theme.name(),
        "The colours of the squares (lichess's boards)",
        |ui| {
            for theme in BoardTheme::ALL {
                ui.selectable_value(&mut look.theme, theme, theme.name());
            }
        },
    );
    named_combo(
        ui,
        "Pieces",
        look.pieces.name(),
        "The piece set (credits in assets/pieces/README.md)",
        |ui| {
            for set in PieceSet::ALL {
                ui.selectable_value(&mut look.pieces, set, set.name())
                    .on_hover_text(piece_set_credit(set));
            }
        },
    );
    named_combo(
        ui,
        "Coordinates",
        look.coordinates.name(),
        "Where the files (a–h) and ranks (1–8) are written",
        |ui| {
            for place in Coordinates::ALL {
                ui.selectable_value(&mut look.coordinates, place, place.name())
                    .on_hover_text(coordinates_detail(place));
            }
        },
    );
}

/// A menu with its name on its left, whole (a name beside a menu wider than the side
/// panel was broken mid-word: "Coordina tes"); the menu takes the width left, its
/// choice cut in the box where it is too long (whole in the menu).
fn named_combo(
    ui: &mut Ui,
    name: &str,
    selected: &str,
    hover: &str,
    add_contents: impl FnOnce(&mut Ui),
) {
    ui.horizontal(|ui| {
        let label = ui.add(egui::Label::new(name).wrap_mode(egui::TextWrapMode::Extend));
        egui::ComboBox::from_id_salt(("board_look", name))
            .width(ui.available_width().max(40.0))
            .truncate()
            .selected_text(selected)
            .show_ui(ui, add_contents)
            .response
            .labelled_by(label.id)
            .on_hover_text(hover);
    });
}

fn piece_set_credit(set: PieceSet) -> &'static str {
    match set {
        PieceSet::Cburnett => "Colin M.L. Burnett's pieces (GPLv2+), as on lichess",
        PieceSet::Chessnut => "Alexis Luengas's Chessnut pieces (Apache 2.0)",
        PieceSet::Xboard => "The pieces of GNU XBoard (GPLv3+)",
    }
}

fn coordinates_detail(place: Coordinates) -> &'static str {
    match place {
        Coordinates::Inside => "In the corners of the edge squares, as on lichess",
        Coordinates::Outside => "Beside the board, left of the ranks and below the files",
        Coordinates::Off => "No coordinates",
    }
}
