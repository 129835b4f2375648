//! The piece sets (cburnett, Chessnut, XBoard), embedded in the binary and rasterised for
//! the current size.
//!
//! The SVGs (credits and licences in `assets/pieces/README.md`) are compiled in with
//! [`egui::include_image!`] and rasterised here (by egui_extras' SVG reader) at the pixel
//! size of the square they are painted into, rounded up to a step of [`SIZE_STEP`]
//! pixels: the GPU scales the raster down by less than a step, so the pieces stay crisp
//! at any window size and `pixels_per_point`, and a window resized within a step
//! rasterises nothing. A raster is made when a piece is first painted at a step; the
//! rasters of a step no board painted in the last frame are freed when another is made.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use eframe::egui;
use egui::emath::GuiRounding as _;
use egui::{Context, Id, ImageSource, Painter, Rect, TextureHandle};
use shakmaty::{Color, Piece, Role};

use crate::coach::board_look::PieceSet;

pub use crate::trainer::verdict::role_name;

/// Pieces are rasterised at whole multiples of this many pixels.
pub const SIZE_STEP: u32 = 8;

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

/// Paints `piece` of `set` filling `rect` with `painter`: the raster of the rect's pixel
/// size rounded up to a step, made if this is the first time at that step.
pub fn paint_piece(ctx: &Context, painter: &Painter, set: PieceSet, piece: Piece, rect: Rect) {
    let ppp = ctx.pixels_per_point();
    let rect = rect.round_to_pixels(ppp);
    let px = (rect.size() * ppp).round();
    let size = raster_size(px.x.max(px.y));
    if let Some(texture) = raster(ctx, set, piece, size) {
        painter.image(
            texture.id(),
            rect,
            Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
            egui::Color32::WHITE,
        );
    }
}

/// The side of the raster for a square of `pixels` pixels: rounded up to a whole step.
fn raster_size(pixels: f32) -> u32 {
    let px = pixels.max(1.0).round() as u32;
    px.div_ceil(SIZE_STEP) * SIZE_STEP
}

/// A piece's raster: which set, which piece ([`piece_index`]), the side in pixels.
type RasterKey = (u8, usize, u32);

/// The rasters made, kept in the context's memory.
#[derive(Default)]
struct Rasters {
    /// Each raster (`None`: the SVG did not rasterise) and the last frame it was painted.
    textures: HashMap<RasterKey, (Option<TextureHandle>, u64)>,
    /// How many rasters were made, for the tests.
    made: u64,
}

/// The context's rasters.
#[derive(Clone, Default)]
struct SharedRasters(Arc<Mutex<Rasters>>);

fn shared_rasters(ctx: &Context) -> SharedRasters {
    ctx.data_mut(|d| {
        d.get_temp_mut_or_default::<SharedRasters>(Id::unique("hastings piece rasters"))
            .clone()
    })
}

/// The texture of `piece` of `set` at `size` pixels, made if new (the rasters not
/// painted in this frame or the last are then freed).
fn raster(ctx: &Context, set: PieceSet, piece: Piece, size: u32) -> Option<TextureHandle> {
    let shared = shared_rasters(ctx);
    let mut rasters = shared.0.lock().unwrap_or_else(PoisonError::into_inner);
    let frame = ctx.cumulative_frame_nr();
    let key = (set as u8, piece_index(piece), size);
    if let Some((texture, used)) = rasters.textures.get_mut(&key) {
        *used = frame;
        return texture.clone();
    }
    rasters
        .textures
        .retain(|_, (_, used)| used.saturating_add(1) >= frame);
    let texture = rasterise(set, piece, size).map(|image| {
        let name = format!("piece {set:?} {} {size}px", piece_name(piece));
        ctx.load_texture(name, image, egui::TextureOptions::LINEAR)
    });
    rasters.made += 1;
    rasters.textures.insert(key, (texture.clone(), frame));
    texture
}

/// The SVG of `piece` of `set` rasterised at `size` × `size` pixels.
fn rasterise(set: PieceSet, piece: Piece, size: u32) -> Option<egui::ColorImage> {
    let ImageSource::Bytes { bytes, .. } = piece_source(set, piece) else {
        return None;
    };
    let hint = egui::SizeHint::Size {
        width: size,
        height: size,
        maintain_aspect_ratio: false,
    };
    egui_extras::image::load_svg_bytes_with_size(&bytes, hint, &Default::default()).ok()
}

/// How many rasters the context has made, and how many it keeps.
#[cfg(test)]
fn raster_counts(ctx: &Context) -> (u64, usize) {
    let shared = shared_rasters(ctx);
    let rasters = shared.0.lock().unwrap_or_else(PoisonError::into_inner);
    (rasters.made, rasters.textures.len())
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

    /// Paints the pieces of one side at `square` points per square, `frames` frames.
    fn paint_at(ctx: &Context, square: f32, frames: usize) {
        for _ in 0..frames {
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                let painter = ui.painter().clone();
                for (i, role) in Role::ALL.into_iter().enumerate() {
                    let min = egui::pos2(i as f32 * square, 0.0);
                    let rect = Rect::from_min_size(min, egui::vec2(square, square));
                    paint_piece(
                        ui.ctx(),
                        &painter,
                        PieceSet::Cburnett,
                        role.of(Color::White),
                        rect,
                    );
                }
            });
            // No renderer: the textures made and freed are dropped.
            output.textures_delta.clear();
        }
    }

    #[test]
    fn a_resize_within_a_step_rasterises_nothing_and_old_steps_are_freed() {
        let ctx = Context::default();
        // 57 to 64 pixels: one step (rounded up to 64).
        paint_at(&ctx, 57.0, 2);
        assert_eq!(raster_counts(&ctx), (6, 6));
        for square in [58.0, 60.3, 63.0, 64.0] {
            paint_at(&ctx, square, 1);
        }
        assert_eq!(
            raster_counts(&ctx),
            (6, 6),
            "rasterised again within a step"
        );
        // The next step: six new rasters; the old step's are freed once they are not
        // painted for a frame.
        paint_at(&ctx, 65.0, 1);
        assert_eq!(raster_counts(&ctx).0, 12);
        paint_at(&ctx, 80.0, 1);
        assert_eq!(
            raster_counts(&ctx),
            (18, 12),
            "the 64-pixel rasters are freed"
        );
        paint_at(&ctx, 72.0, 2);
        assert_eq!(
            raster_counts(&ctx),
            (18, 12),
            "a step still kept is painted again"
        );
        assert_eq!(raster_size(57.0), 64);
        assert_eq!(raster_size(64.0), 64);
        assert_eq!(raster_size(64.4), 64);
        assert_eq!(raster_size(65.0), 72);
    }

    #[test]
    fn piece_names_read_colour_then_role() {
        assert_eq!(piece_name(Role::Knight.of(Color::White)), "white knight");
        assert_eq!(piece_name(Role::Queen.of(Color::Black)), "black queen");
    }
}
