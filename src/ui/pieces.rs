//! The cburnett piece set, embedded in the binary and rasterised for the current size.
//!
//! The SVGs (credit and licence in `assets/pieces/README.md`) are compiled in with
//! [`egui::include_image!`]; egui_extras' SVG loader rasterises each one at exactly the
//! pixel size of the square it is painted into, so the pieces stay crisp at any window size
//! and any `pixels_per_point`. The loader caches one raster per size.

use eframe::egui;
use egui::emath::GuiRounding as _;
use egui::{Context, ImageSource, Painter, Rect};
use shakmaty::{Color, Piece, Role};

/// Installs egui_extras' image loaders (SVG) unless they already are.
///
/// Called by [`crate::ui::board::board_ui`] every frame, so the board works in any egui
/// context (the app, a test harness) without setup.
pub fn ensure_loaders(ctx: &Context) {
    if !ctx.is_loader_installed(egui_extras::loaders::svg_loader::SvgLoader::ID) {
        egui_extras::install_image_loaders(ctx);
    }
}

/// The image source of one piece (an embedded SVG, `bytes://` URI).
pub fn piece_source(piece: Piece) -> ImageSource<'static> {
    match (piece.color, piece.role) {
        (Color::White, Role::Pawn) => egui::include_image!("../../assets/pieces/cburnett/wP.svg"),
        (Color::White, Role::Knight) => {
            egui::include_image!("../../assets/pieces/cburnett/wN.svg")
        }
        (Color::White, Role::Bishop) => {
            egui::include_image!("../../assets/pieces/cburnett/wB.svg")
        }
        (Color::White, Role::Rook) => egui::include_image!("../../assets/pieces/cburnett/wR.svg"),
        (Color::White, Role::Queen) => egui::include_image!("../../assets/pieces/cburnett/wQ.svg"),
        (Color::White, Role::King) => egui::include_image!("../../assets/pieces/cburnett/wK.svg"),
        (Color::Black, Role::Pawn) => egui::include_image!("../../assets/pieces/cburnett/bP.svg"),
        (Color::Black, Role::Knight) => {
            egui::include_image!("../../assets/pieces/cburnett/bN.svg")
        }
        (Color::Black, Role::Bishop) => {
            egui::include_image!("../../assets/pieces/cburnett/bB.svg")
        }
        (Color::Black, Role::Rook) => egui::include_image!("../../assets/pieces/cburnett/bR.svg"),
        (Color::Black, Role::Queen) => egui::include_image!("../../assets/pieces/cburnett/bQ.svg"),
        (Color::Black, Role::King) => egui::include_image!("../../assets/pieces/cburnett/bK.svg"),
    }
}

/// Paints `piece` filling `rect` with `painter`, rasterised at exactly the rect's pixel
/// size (rounded to whole pixels).
pub fn paint_piece(ctx: &Context, painter: &Painter, piece: Piece, rect: Rect) {
    let ppp = ctx.pixels_per_point();
    let rect = rect.round_to_pixels(ppp);
    let size = (rect.size() * ppp).round();
    let poll = piece_source(piece).load(
        ctx,
        egui::TextureOptions::LINEAR,
        egui::SizeHint::Size {
            width: size.x as u32,
            height: size.y as u32,
            maintain_aspect_ratio: false,
        },
    );
    if let Ok(egui::load::TexturePoll::Ready { texture }) = poll {
        painter.image(
            texture.id,
            rect,
            Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
            egui::Color32::WHITE,
        );
    }
}

/// The English name of a piece, as in the square labels: `white knight`.
pub fn piece_name(piece: Piece) -> String {
    let color = match piece.color {
        Color::White => "white",
        Color::Black => "black",
    };
    format!("{color} {}", role_name(piece.role))
}

/// The English name of a role: `knight`.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_svg_rasterises_at_the_requested_size() {
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                let ImageSource::Bytes { bytes, uri } = piece_source(role.of(color)) else {
                    panic!("{role:?} is not embedded");
                };
                let image = egui_extras::image::load_svg_bytes_with_size(
                    &bytes,
                    egui::SizeHint::Size {
                        width: 57,
                        height: 57,
                        maintain_aspect_ratio: false,
                    },
                    &Default::default(),
                )
                .unwrap_or_else(|e| panic!("{uri}: {e}"));
                assert_eq!(image.size, [57, 57], "{uri}");
                assert!(
                    image.pixels.iter().any(|p| p.a() > 0),
                    "{uri} rasterised to nothing"
                );
            }
        }
    }

    #[test]
    fn piece_names_read_colour_then_role() {
        assert_eq!(piece_name(Role::Knight.of(Color::White)), "white knight");
        assert_eq!(piece_name(Role::Queen.of(Color::Black)), "black queen");
    }
}
