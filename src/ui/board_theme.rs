//! The board's colours for each [`BoardTheme`], and the [`BoardLook`] every board of the
//! window draws with.
//!
//! The look is window-wide, like egui's visuals: the app stores the learner's choice in
//! the context each frame ([`set_board_look`]) and every board, the big one and the small
//! ones in the side panels, reads it ([`board_look`]); a board in a context where nobody
//! set it (a test of the widget alone) uses the default look.

use eframe::egui;
use egui::{Color32, Context, Id};

use crate::coach::board_look::{BoardLook, BoardTheme};

/// The colours a board is painted with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardColors {
    /// Light squares.
    pub light: Color32,
    /// Dark squares.
    pub dark: Color32,
    /// The tint of the last move's squares.
    pub last_move: Color32,
    /// The selected square, the dots of its moves and the rings of its captures.
    pub move_hint: Color32,
    /// The tint of the hinted piece's square.
    pub hint: Color32,
}

/// lichess's last-move tint, rgba(155, 199, 0, 0.41).
const LICHESS_LAST_MOVE: Color32 = Color32::from_rgba_premultiplied(64, 82, 0, 105);
/// A dark green for the selected square and its moves.
const GREEN_MOVE_HINT: Color32 = Color32::from_rgba_premultiplied(10, 43, 15, 128);
/// A blue for the hinted piece.
const BLUE_HINT: Color32 = Color32::from_rgba_premultiplied(0, 60, 110, 130);

/// The colours of `theme`: lichess's squares, and highlights that stay readable on them
/// (the green board, whose dark squares are themselves green, takes an amber last move
/// and a teal selection instead of lichess's greens).
pub fn board_colors(theme: BoardTheme) -> BoardColors {
    match theme {
        BoardTheme::Brown => BoardColors {
            light: Color32::from_rgb(0xf0, 0xd9, 0xb5),
            dark: Color32::from_rgb(0xb5, 0x88, 0x63),
            last_move: LICHESS_LAST_MOVE,
            move_hint: GREEN_MOVE_HINT,
            hint: BLUE_HINT,
        },
        BoardTheme::Blue => BoardColors {
            light: Color32::from_rgb(0xde, 0xe3, 0xe6),
            dark: Color32::from_rgb(0x8c, 0xa2, 0xad),
            last_move: LICHESS_LAST_MOVE,
            move_hint: GREEN_MOVE_HINT,
            hint: BLUE_HINT,
        },
        BoardTheme::Green => BoardColors {
            light: Color32::from_rgb(0xff, 0xff, 0xdd),
            dark: Color32::from_rgb(0x86, 0xa6, 0x66),
            last_move: Color32::from_rgba_unmultiplied(255, 160, 0, 110),
            move_hint: Color32::from_rgba_unmultiplied(0, 90, 130, 120),
            hint: BLUE_HINT,
        },
    }
}

fn look_id() -> Id {
    Id::unique("hastings_board_look")
}

/// Makes every board drawn in `ctx` from now on use `look`.
pub fn set_board_look(ctx: &Context, look: BoardLook) {
    ctx.data_mut(|d| d.insert_temp(look_id(), look));
}

/// The look the boards of `ctx` use (the default until [`set_board_look`]).
pub fn board_look(ctx: &Context) -> BoardLook {
    ctx.data(|d| d.get_temp(look_id())).unwrap_or_default()
}

/// How far `tint` painted over `square` moves its colour (RGB distance, 0 to 441): how
/// well a highlight or an arrow stands out on it (tests).
#[cfg(test)]
pub(super) fn tint_distance(square: Color32, tint: Color32) -> f32 {
    let a = f32::from(tint.a()) / 255.0;
    let (t, s) = (tint.to_array(), square.to_array());
    (0..3)
        .map(|i| {
            let mixed = f32::from(t[i]) + f32::from(s[i]) * (1.0 - a);
            (mixed - f32::from(s[i])).powi(2)
        })
        .sum::<f32>()
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tint` painted over `square`, as the painter blends it (premultiplied alpha).
    fn over(square: Color32, tint: Color32) -> [f32; 3] {
        let a = f32::from(tint.a()) / 255.0;
        let [r, g, b, _] = tint.to_array();
        let [sr, sg, sb, _] = square.to_array();
        [r, g, b]
            .iter()
            .zip([sr, sg, sb])
            .map(|(t, s)| f32::from(*t) + f32::from(s) * (1.0 - a))
            .collect::<Vec<_>>()
            .try_into()
            .unwrap_or([0.0; 3])
    }

    fn distance(a: [f32; 3], b: Color32) -> f32 {
        let [r, g, bl, _] = b.to_array();
        let d = [
            a[0] - f32::from(r),
            a[1] - f32::from(g),
            a[2] - f32::from(bl),
        ];
        d.iter().map(|x| x * x).sum::<f32>().sqrt()
    }

    #[test]
    fn every_highlight_stands_out_on_both_squares_of_every_theme() {
        // A highlighted square must differ from the plain square under it and must not
        // pass for a square of the other colour.
        const MIN: f32 = 40.0;
        for theme in BoardTheme::ALL {
            let c = board_colors(theme);
            for (name, tint) in [
                ("last move", c.last_move),
                ("selection", c.move_hint),
                ("hint", c.hint),
            ] {
                for (square, other) in [(c.light, c.dark), (c.dark, c.light)] {
                    let mixed = over(square, tint);
                    let (own, across) = (distance(mixed, square), distance(mixed, other));
                    assert!(
                        own >= MIN && across >= MIN,
                        "{theme:?} {name} on {square:?}: {own:.0} from it, {across:.0} from \
                         the other squares"
                    );
                }
            }
        }
    }

    #[test]
    fn the_squares_are_lichesss() {
        let hex = |c: Color32| format!("#{:02x}{:02x}{:02x}", c.r(), c.g(), c.b());
        let pairs = BoardTheme::ALL.map(|t| {
            let c = board_colors(t);
            (hex(c.light), hex(c.dark))
        });
        assert_eq!(
            pairs,
            [
                ("#f0d9b5".to_owned(), "#b58863".to_owned()),
                ("#dee3e6".to_owned(), "#8ca2ad".to_owned()),
                ("#ffffdd".to_owned(), "#86a666".to_owned()),
            ]
        );
    }

    #[test]
    fn the_look_is_the_default_until_set() {
        let ctx = Context::default();
        assert_eq!(board_look(&ctx), BoardLook::default());
        let look = BoardLook {
            theme: BoardTheme::Blue,
            ..BoardLook::default()
        };
        set_board_look(&ctx, look);
        assert_eq!(board_look(&ctx), look);
    }
}
