//! The piece sets (cburnett, Chessnut, XBoard), embedded in the binary and rasterised for
//! the current size.
//!
//! The SVGs (credits and licences in `assets/pieces/README.md`) are compiled in with
//! [`egui::include_image!`]; egui_extras' SVG loader rasterises each one at exactly the
//! pixel size of the square it is painted into, so the pieces stay crisp at any window size
//! and any `pixels_per_point`. The loader caches one raster per image and size.

use eframe::egui;
use egui::emath::GuiRounding as _;
use egui::{Context, ImageSource, Painter, Rect};
use shakmaty::{Color, Piece, Role};

use crate::coach::board_look::PieceSet;

pub use crate::trainer::verdict::role_name;

/// Installs egui_extras' image loaders (SVG) unless they already are.
///
/// Called by [`crate::ui::board::board_ui`] every frame, so the board works in any egui
/// context (the app, a test harness) without setup.
pub fn ensure_loaders(ctx: &Context) {
    if !ctx.is_loader_installed(egui_extras::loaders::svg_loader::SvgLoader::ID) {
        egui_extras::install_image_loaders(ctx);
    }
}

/// The twelve pieces of the set in folder `$dir` of `assets/pieces`, in the order of
/// [`piece_index`].
macro_rules! piece_set {
    ($dir:literal) => {
        [
            egui::include_image!(concat!("../../assets/pieces/", $dir, "/wP.svg")),
            egui::include_image!(concat!("../../assets/pieces/", $dir, "/wN.svg")),
            egui::include_image!(concat!("../../assets/pieces/", $dir, "/wB.svg")),
            egui::include_image!(concat!("../../assets/pieces/", $dir, "/wR.svg")),
            egui::include_image!(concat!("../../assets/pieces/", $dir, "/wQ.svg")),
            egui::include_image!(concat!("../../assets/pieces/", $dir, "/wK.svg")),
            egui::include_image!(concat!("../../assets/pieces/", $dir, "/bP.svg")),
            egui::include_image!(concat!("../../assets/pieces/", $dir, "/bN.svg")),
            egui::include_image!(concat!("../../assets/pieces/", $dir, "/bB.svg")),
            egui::include_image!(concat!("../../assets/pieces/", $dir, "/bR.svg")),
            egui::include_image!(concat!("../../assets/pieces/", $dir, "/bQ.svg")),
            egui::include_image!(concat!("../../assets/pieces/", $dir, "/bK.svg")),
        ]
    };
}

/// Where `piece` is in a set: white pawn to king, then black.
fn piece_index(piece: Piece) -> usize {
    let role = match piece.role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    };
    match piece.color {
        Color::White => role,
        Color::Black => 6 + role,
    }
}

/// The image source of one piece of `set` (an embedded SVG, `bytes://` URI).
pub fn piece_source(set: PieceSet, piece: Piece) -> ImageSource<'static> {
    let sources = match set {
        PieceSet::Cburnett => piece_set!("cburnett"),
        PieceSet::Chessnut => piece_set!("chessnut"),
        PieceSet::Xboard => piece_set!("xboard"),
    };
    // `piece_index` is below 12 by construction.
    sources[piece_index(piece)].clone()
}

/// Paints `piece` of `set` filling `rect` with `painter`, rasterised at exactly the rect's
/// pixel size (rounded to whole pixels).
pub fn paint_piece(ctx: &Context, painter: &Painter, set: PieceSet, piece: Piece, rect: Rect) {
    let ppp = ctx.pixels_per_point();
    let rect = rect.round_to_pixels(ppp);
    let size = (rect.size() * ppp).round();
    let poll = piece_source(set, piece).load(
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Rasterises `piece` of `set` at 57x57 pixels.
    fn rasterise(set: PieceSet, piece: Piece) -> egui::ColorImage {
        let ImageSource::Bytes { bytes, uri } = piece_source(set, piece) else {
            panic!("{set:?} {piece:?} is not embedded");
        };
        let file = format!("/{}{}.svg", piece.color.char(), piece.role.upper_char());
        assert!(uri.ends_with(&file), "{uri} is not {file}");
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
        image
    }

    #[test]
    fn every_piece_svg_of_every_set_rasterises_at_the_requested_size() {
        for set in PieceSet::ALL {
            for role in Role::ALL {
                let mut brightness = [0.0; 2];
                for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
                    let image = rasterise(set, role.of(color));
                    let opaque: Vec<_> = image.pixels.iter().filter(|p| p.a() > 128).collect();
                    let share = opaque.len() as f64 / image.pixels.len() as f64;
                    assert!(
                        share > 0.1,
                        "{set:?} {color:?} {role:?} covers {share:.2} of its square"
                    );
                    brightness[i] = opaque
                        .iter()
                        .map(|p| f64::from(p.r()) + f64::from(p.g()) + f64::from(p.b()))
                        .sum::<f64>()
                        / opaque.len() as f64;
                }
                assert!(
                    brightness[0] > brightness[1] + 100.0,
                    "{set:?} {role:?}: the white piece is not lighter than the black one"
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
