//! The evaluation bar beside the board: [`eval_bar_ui`].
//!
//! A vertical bar split between the two colours by the expected score, the side at the
//! bottom of the board at the bottom of the bar (as lichess draws it), with the score
//! from the learner's side written on it. An accessible label ("Evaluation +0.35 for
//! you") lets screen readers and tests read it.

use eframe::egui;
use egui::{Align2, Color32, FontId, Rect, Sense, Stroke, Ui, WidgetInfo};
use shakmaty::Color;

/// What the bar shows.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalBarView {
    /// The learner's expected share of the points, 0 to 1 (`None`: no evaluation yet).
    pub learner_share: Option<f64>,
    /// The score from the learner's side (`+0.35`, `#3`) or the result (`1-0`).
    pub text: Option<String>,
    /// The learner's colour.
    pub learner: Color,
    /// The colour at the bottom of the board.
    pub bottom: Color,
}

const WHITE: Color32 = Color32::from_rgb(0xf2, 0xf2, 0xf2);
const BLACK: Color32 = Color32::from_rgb(0x40, 0x3d, 0x39);

fn fill(color: Color) -> Color32 {
    match color {
        Color::White => WHITE,
        Color::Black => BLACK,
    }
}

/// The accessible label of the bar: `"Evaluation +0.35 for you"`, or `"Evaluation
/// pending"` before the first evaluation.
pub fn eval_label(text: Option<&str>) -> String {
    match text {
        Some(t) if t.contains('-') && !t.starts_with(['+', '-', '#']) => {
            format!("Evaluation {t}")
        }
        Some(t) => format!("Evaluation {t} for you"),
        None => "Evaluation pending".to_owned(),
    }
}

/// Draws the bar in `rect`.
pub fn eval_bar_ui(ui: &mut Ui, rect: Rect, view: &EvalBarView) -> egui::Response {
    let response = ui.allocate_rect(rect, Sense::hover());
    let label = eval_label(view.text.as_deref());
    response.widget_info(|| WidgetInfo::labeled(egui::Role::Meter, true, &label));
    let painter = ui.painter_at(rect);
    let share = view.learner_share.unwrap_or(0.5).clamp(0.0, 1.0) as f32;
    let bottom_share = if view.bottom == view.learner {
        share
    } else {
        1.0 - share
    };
    let split = rect.bottom() - rect.height() * bottom_share;
    painter.rect_filled(rect, 2.0, fill(!view.bottom));
    painter.rect_filled(
        Rect::from_min_max(egui::pos2(rect.left(), split), rect.max),
        2.0,
        fill(view.bottom),
    );
    // The middle line: an equal position.
    painter.line_segment(
        [
            egui::pos2(rect.left(), rect.center().y),
            egui::pos2(rect.right(), rect.center().y),
        ],
        Stroke::new(1.0, Color32::from_rgb(0xd0, 0x60, 0x20)),
    );
    painter.rect_stroke(
        rect,
        2.0,
        Stroke::new(1.0, ui.visuals().widgets.noninteractive.bg_stroke.color),
        egui::StrokeKind::Inside,
    );
    if let Some(text) = &view.text {
        // The score sits at the end of the side that is better, in the other colour.
        let learner_ahead = share >= 0.5;
        let at_bottom = learner_ahead == (view.bottom == view.learner);
        let (pos, anchor, side) = if at_bottom {
            (
                rect.center_bottom() - egui::vec2(0.0, 3.0),
                Align2::CENTER_BOTTOM,
                view.bottom,
            )
        } else {
            (
                rect.center_top() + egui::vec2(0.0, 3.0),
                Align2::CENTER_TOP,
                !view.bottom,
            )
        };
        let size = (rect.width() * 0.4).clamp(8.0, 11.0);
        painter.text(
            pos,
            anchor,
            short(text),
            FontId::proportional(size),
            fill(!side),
        );
    }
    response.on_hover_text(label)
}

/// The score short enough for the bar, as lichess writes it there: one decimal and no
/// plus sign (`+1.26` → `1.3`), whole pawns from ten up, mates and results as they are
/// (a draw as `½`).
fn short(text: &str) -> String {
    if text == "1/2-1/2" {
        return "½".to_owned();
    }
    match text.parse::<f64>() {
        Ok(pawns) if pawns.abs() < 10.0 => format!("{pawns:.1}").replace("-0.0", "0.0"),
        Ok(pawns) => format!("{pawns:.0}"),
        Err(_) => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_label_reads_the_score_for_the_learner_or_the_result() {
        assert_eq!(eval_label(Some("+0.35")), "Evaluation +0.35 for you");
        assert_eq!(eval_label(Some("#-2")), "Evaluation #-2 for you");
        assert_eq!(eval_label(Some("1-0")), "Evaluation 1-0");
        assert_eq!(eval_label(Some("1/2-1/2")), "Evaluation 1/2-1/2");
        assert_eq!(eval_label(None), "Evaluation pending");
        assert_eq!(short("+1.26"), "1.3");
        assert_eq!(short("-1.20"), "-1.2");
        assert_eq!(short("-0.04"), "0.0");
        assert_eq!(short("+12.50"), "12");
        assert_eq!(short("#-3"), "#-3");
        assert_eq!(short("1/2-1/2"), "½");
    }
}
