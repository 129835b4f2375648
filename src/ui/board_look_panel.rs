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
    egui::ComboBox::from_label("Squares")
        .selected_text(look.theme.name())
        .show_ui(ui, |ui| {
            for theme in BoardTheme::ALL {
                ui.selectable_value(&mut look.theme, theme, theme.name());
            }
        })
        .response
        .on_hover_text("The colours of the squares (lichess's boards)");
    egui::ComboBox::from_label("Pieces")
        .selected_text(look.pieces.name())
        .show_ui(ui, |ui| {
            for set in PieceSet::ALL {
                ui.selectable_value(&mut look.pieces, set, set.name())
                    .on_hover_text(piece_set_credit(set));
            }
        })
        .response
        .on_hover_text("The piece set (credits in assets/pieces/README.md)");
    egui::ComboBox::from_label("Coordinates")
        .selected_text(look.coordinates.name())
        .show_ui(ui, |ui| {
            for place in Coordinates::ALL {
                ui.selectable_value(&mut look.coordinates, place, place.name())
                    .on_hover_text(coordinates_detail(place));
            }
        })
        .response
        .on_hover_text("Where the files (a–h) and ranks (1–8) are written");
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
