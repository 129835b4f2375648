//! The Explorer tab's moves as lichess lays them out: one row per move with its SAN,
//! games, share and one white/draw/black bar, then the position's total as a last "Σ"
//! row. The engine's evaluation after the move and the performance of the move's games
//! (from 5 games on) sit on the row when the panel is wide enough, else on a small line
//! under it. A click on a row plays its move.

use eframe::egui;
use egui::{Align2, Color32, FontId, Rect, Sense, Ui, WidgetInfo, pos2, vec2};

use crate::book::explorer::{MIN_PERFORMANCE_GAMES, group_digits};
use crate::coach::explorer::{ExplorerRow, ExplorerView};

/// The height of a row.
const ROW_HEIGHT: f32 = 18.0;
/// The space between columns.
const GAP: f32 = 5.0;
/// The narrowest bar that keeps the eval and the performance on its row.
const MIN_BAR: f32 = 60.0;
/// The size of the rows' text.
const TEXT_SIZE: f32 = 12.5;

/// A move's share as the tab writes it: `45%`, and `<1%` for a rare move (not `0%`).
pub(super) fn share_text(share: f64) -> String {
    let percent = share * 100.0;
    if percent > 0.0 && percent < 1.0 {
        "<1%".to_owned()
    } else {
        format!("{percent:.0}%")
    }
}

/// The evaluation as the row writes it: `+0.32`, `#3`, `…` while it is analysed.
fn eval_text(row: &ExplorerRow) -> String {
    row.eval.map_or_else(|| "…".to_owned(), |s| s.to_string())
}

/// The columns' widths: the move, the games, the share, the eval, the performance.
struct Columns {
    san: f32,
    games: f32,
    share: f32,
    eval: f32,
    performance: f32,
    /// Whether the eval and the performance fit on the row (else under it).
    inline: bool,
}

impl Columns {
    fn measure(ui: &Ui, view: &ExplorerView, width: f32, evals: bool) -> Columns {
        let font = FontId::proportional(TEXT_SIZE);
        let text_width = |text: String| {
            ui.painter()
                .layout_no_wrap(text, font.clone(), Color32::WHITE)
                .size()
                .x
        };
        let widest = |texts: &mut dyn Iterator<Item = String>| {
            texts.map(&text_width).fold(0.0_f32, f32::max).ceil()
        };
        let head = |text: &str| header_width(ui, text);
        let rows = &view.rows;
        let san = widest(
            &mut rows
                .iter()
                .map(|r| r.counts.san.clone())
                .chain(["Σ".to_owned()]),
        )
        .max(head("Move"));
        let games = widest(
            &mut rows
                .iter()
                .map(|r| group_digits(r.counts.games))
                .chain([group_digits(view.games)]),
        )
        .max(head("Games"));
        let share = widest(
            &mut rows
                .iter()
                .map(|r| share_text(r.share))
                .chain(["100%".into()]),
        );
        let eval = if evals {
            widest(&mut rows.iter().map(eval_text).chain(["+0.00".to_owned()])).max(head("Eval"))
        } else {
            0.0
        };
        let performance = if rows.iter().any(|r| r.counts.performance.is_some()) {
            widest(
                &mut rows
                    .iter()
                    .filter_map(|r| r.counts.performance)
                    .map(|p| p.to_string()),
            )
            .max(head("Perf"))
        } else {
            0.0
        };
        let fixed = san + games + share + 3.0 * GAP;
        let extra = [eval, performance]
            .iter()
            .filter(|w| **w > 0.0)
            .map(|w| w + GAP)
            .sum::<f32>();
        Columns {
            san,
            games,
            share,
            eval,
            performance,
            inline: width - fixed - extra >= MIN_BAR,
        }
    }

    /// Whether a row has a line under it for the eval and the performance.
    fn has_details(&self) -> bool {
        !self.inline && (self.eval > 0.0 || self.performance > 0.0)
    }
}

/// The moves of `view` and its total; `evals`: whether the engine evaluates them.
/// Returns the move clicked, if any.
pub(super) fn explorer_rows_ui(ui: &mut Ui, view: &ExplorerView, evals: bool) -> Option<usize> {
    let width = ui.available_width();
    let columns = Columns::measure(ui, view, width, evals);
    header_ui(ui, &columns, width);
    let mut clicked = None;
    for (i, row) in view.rows.iter().enumerate() {
        if move_row_ui(ui, row, &columns, width) {
            clicked = Some(i);
        }
    }
    total_row_ui(ui, view, &columns, width);
    clicked
}

/// The font of the columns' names.
fn header_font() -> FontId {
    FontId::proportional(TEXT_SIZE - 2.0)
}

/// The width of a column's name.
fn header_width(ui: &Ui, text: &str) -> f32 {
    ui.painter()
        .layout_no_wrap(text.to_owned(), header_font(), Color32::WHITE)
        .size()
        .x
        .ceil()
}

/// The columns' names, small, over the rows: what the numbers are.
fn header_ui(ui: &mut Ui, columns: &Columns, width: f32) {
    let (rect, response) = ui.allocate_exact_size(vec2(width, ROW_HEIGHT - 4.0), Sense::hover());
    let font = header_font();
    let weak = ui.visuals().weak_text_color();
    let painter = ui.painter_at(rect);
    let y = rect.center().y;
    let head = |x: f32, text: &str, anchor: Align2| {
        painter.text(pos2(x, y), anchor, text, font.clone(), weak);
    };
    let mut x = rect.left();
    head(x, "Move", Align2::LEFT_CENTER);
    x += columns.san + GAP + columns.games;
    head(x, "Games", Align2::RIGHT_CENTER);
    x += GAP + columns.share;
    head(x, "%", Align2::RIGHT_CENTER);
    x += GAP;
    if columns.inline {
        if columns.eval > 0.0 {
            head(x + columns.eval, "Eval", Align2::RIGHT_CENTER);
            x += columns.eval + GAP;
        }
        if columns.performance > 0.0 {
            head(x + columns.performance, "Perf", Align2::RIGHT_CENTER);
            x += columns.performance + GAP;
        }
    }
    let results = if rect.right() - x >= header_width(ui, "White / Draw / Black") {
        "White / Draw / Black"
    } else {
        "W / D / B"
    };
    head(x, results, Align2::LEFT_CENTER);
    response.on_hover_text(
        "Each move played here: its games, its share of the games, the engine's \
         evaluation after it (pawns, + good for White), the performance of its games \
         (Perf: the rating its results are worth, lichess's formula, from 5 games on) and \
         how the games ended",
    );
}

/// The text painted at `x` in `rect`, left or right aligned in a column of `width`.
fn cell(ui: &Ui, rect: Rect, x: f32, width: f32, text: &str, color: Color32, right: bool) {
    let (anchor, at) = if right {
        (Align2::RIGHT_CENTER, x + width)
    } else {
        (Align2::LEFT_CENTER, x)
    };
    ui.painter_at(rect).text(
        pos2(at, rect.center().y),
        anchor,
        text,
        FontId::proportional(TEXT_SIZE),
        color,
    );
}

/// A row's move, games and share painted in `rect`; the x where the bar may start.
fn counts_cells(ui: &Ui, rect: Rect, columns: &Columns, texts: [&str; 3], strong: bool) -> f32 {
    let visuals = ui.visuals();
    let color = if strong {
        visuals.strong_text_color()
    } else {
        visuals.text_color()
    };
    let mut x = rect.left();
    cell(ui, rect, x, columns.san, texts[0], color, false);
    x += columns.san + GAP;
    cell(ui, rect, x, columns.games, texts[1], color, true);
    x += columns.games + GAP;
    cell(
        ui,
        rect,
        x,
        columns.share,
        texts[2],
        visuals.weak_text_color(),
        true,
    );
    x + columns.share + GAP
}

/// One move's row (and the line under it when the eval and performance do not fit);
/// whether it was clicked.
fn move_row_ui(ui: &mut Ui, row: &ExplorerRow, columns: &Columns, width: f32) -> bool {
    let (rect, response) = ui.allocate_exact_size(vec2(width, ROW_HEIGHT), Sense::click());
    let label = format!(
        "{}  {}  {}",
        row.counts.san,
        group_digits(row.counts.games),
        share_text(row.share)
    );
    response.widget_info(|| WidgetInfo::labeled(egui::Role::Button, true, &label));
    if response.hovered() {
        ui.painter()
            .rect_filled(rect, 2.0, ui.visuals().widgets.hovered.weak_bg_fill);
    }
    let texts = [
        row.counts.san.as_str(),
        &group_digits(row.counts.games),
        &share_text(row.share),
    ];
    let mut x = counts_cells(ui, rect, columns, texts, true);
    let performance = row.counts.performance.map(|p| p.to_string());
    if columns.inline {
        let weak = ui.visuals().weak_text_color();
        if columns.eval > 0.0 {
            let text = eval_text(row);
            detail_node(ui, rect, x, columns.eval, &row.counts.san, "eval", &text);
            cell(ui, rect, x, columns.eval, &text, weak, true);
            x += columns.eval + GAP;
        }
        if columns.performance > 0.0 {
            if let Some(p) = &performance {
                detail_node(
                    ui,
                    rect,
                    x,
                    columns.performance,
                    &row.counts.san,
                    "performance",
                    p,
                );
                cell(ui, rect, x, columns.performance, p, weak, true);
            }
            x += columns.performance + GAP;
        }
    }
    let bar = Rect::from_min_max(
        pos2(x, rect.top() + 1.0),
        pos2(rect.right(), rect.bottom() - 1.0),
    );
    wdl_bar(
        ui,
        bar,
        &row.counts.san,
        row.counts.games,
        [row.counts.white, row.counts.draws, row.counts.black],
    );
    let response = response.on_hover_text(row_hover(row));
    if columns.has_details() {
        details_line_ui(ui, row, columns, width, performance.as_deref());
    }
    response.clicked()
}

/// The small line under a row in a narrow panel: `eval +0.32   perf 1854`.
fn details_line_ui(
    ui: &mut Ui,
    row: &ExplorerRow,
    columns: &Columns,
    width: f32,
    performance: Option<&str>,
) {
    let (rect, _) = ui.allocate_exact_size(vec2(width, ROW_HEIGHT - 4.0), Sense::hover());
    let weak = ui.visuals().weak_text_color();
    let font = FontId::proportional(TEXT_SIZE - 1.5);
    let mut x = rect.left() + columns.san + GAP;
    let mut part = |ui: &Ui, what: &str, short: &str, text: &str| {
        let shown = format!("{short} {text}");
        let w = ui
            .painter()
            .layout_no_wrap(shown.clone(), font.clone(), weak)
            .size()
            .x;
        detail_node(ui, rect, x, w, &row.counts.san, what, text);
        ui.painter_at(rect).text(
            pos2(x, rect.center().y),
            Align2::LEFT_CENTER,
            shown,
            font.clone(),
            weak,
        );
        x += w + 3.0 * GAP;
    };
    if columns.eval > 0.0 {
        part(ui, "eval", "eval", &eval_text(row));
    }
    if let Some(p) = performance {
        part(ui, "performance", "perf", p);
    }
}

/// A node for the accessibility tree (and tests) over a painted detail:
/// `"e4: eval +0.32"`, `"e4: performance 1854"`.
fn detail_node(ui: &Ui, rect: Rect, x: f32, width: f32, san: &str, what: &str, text: &str) {
    let at = Rect::from_min_size(pos2(x, rect.top()), vec2(width, rect.height()));
    let id = ui.make_persistent_id(("explorer_detail", san, what));
    let label = format!("{san}: {what} {text}");
    ui.interact(at, id, Sense::hover())
        .widget_info(|| WidgetInfo::labeled(egui::Role::Label, true, &label));
}

/// The row's hover text: every number in words, the exact terms named.
fn row_hover(row: &ExplorerRow) -> String {
    let games = row.counts.games.max(1) as f64;
    let percent = |n: u64| 100.0 * n as f64 / games;
    let mut text = format!(
        "Play {}: {} games ({} of the games here); White won {:.0}%, drawn {:.0}%, Black won {:.0}%",
        row.counts.san,
        group_digits(row.counts.games),
        share_text(row.share),
        percent(row.counts.white),
        percent(row.counts.draws),
        percent(row.counts.black)
    );
    if let Some(r) = row.counts.avg_rating {
        text.push_str(&format!("\nAverage rating of the players: {r}"));
    }
    match row.counts.performance {
        Some(p) => text.push_str(&format!(
            "\nPerformance {p}: the rating these results are worth against players of the \
             games' average rating (lichess's formula: the FIDE table of rating differences)"
        )),
        None => text.push_str(&format!(
            "\nNo performance under {MIN_PERFORMANCE_GAMES} rated games"
        )),
    }
    if let Some(eval) = row.eval {
        text.push_str(&format!(
            "\nEngine's evaluation after {}: {eval} (pawns, + good for White)",
            row.counts.san
        ));
    }
    text
}

/// The last row: "Σ", every game at the position, and their bar.
fn total_row_ui(ui: &mut Ui, view: &ExplorerView, columns: &Columns, width: f32) {
    let (rect, response) = ui.allocate_exact_size(vec2(width, ROW_HEIGHT), Sense::hover());
    let games = group_digits(view.games);
    let label = format!("Σ  {games}  100%");
    response.widget_info(|| WidgetInfo::labeled(egui::Role::Label, true, &label));
    response.on_hover_text(format!("All {games} games at this position"));
    ui.painter().line_segment(
        [rect.left_top(), rect.right_top()],
        ui.visuals().widgets.noninteractive.bg_stroke,
    );
    let x = counts_cells(ui, rect, columns, ["Σ", &games, "100%"], false);
    let mut x = x;
    if columns.inline {
        x += [columns.eval, columns.performance]
            .iter()
            .filter(|w| **w > 0.0)
            .map(|w| w + GAP)
            .sum::<f32>();
    }
    let bar = Rect::from_min_max(
        pos2(x, rect.top() + 1.0),
        pos2(rect.right(), rect.bottom() - 1.0),
    );
    wdl_bar(ui, bar, "All moves", view.games, view.results);
}

/// The white / draw / black bar of `games` games (`results`: white wins, draws, black
/// wins) in `rect`, each segment labelled with its percentage where it fits; a node
/// labelled `"{what}: White 40% Draws 10% Black 50%"`.
fn wdl_bar(ui: &Ui, rect: Rect, what: &str, games: u64, results: [u64; 3]) {
    let games = games.max(1) as f32;
    let [white, draws, black] = results;
    let parts = [
        (white, Color32::from_gray(245), Color32::BLACK),
        (draws, Color32::from_gray(140), Color32::WHITE),
        (black, Color32::from_gray(30), Color32::WHITE),
    ];
    let percents: Vec<f32> = parts.iter().map(|p| 100.0 * p.0 as f32 / games).collect();
    let label = format!(
        "{what}: White {:.0}% Draws {:.0}% Black {:.0}%",
        percents[0], percents[1], percents[2]
    );
    let id = ui.make_persistent_id(("explorer_bar", what));
    ui.interact(rect, id, Sense::hover())
        .widget_info(|| WidgetInfo::labeled(egui::Role::Label, true, &label));
    let painter = ui.painter_at(rect);
    let mut x = rect.left();
    for ((n, fill, text), percent) in parts.iter().zip(&percents) {
        if *n == 0 {
            continue;
        }
        let w = rect.width() * percent / 100.0;
        let seg = Rect::from_min_size(pos2(x, rect.top()), vec2(w, rect.height()));
        painter.rect_filled(seg, 0.0, *fill);
        if w > 28.0 {
            painter.text(
                seg.center(),
                Align2::CENTER_CENTER,
                format!("{percent:.0}%"),
                FontId::proportional(11.0),
                *text,
            );
        }
        x += w;
    }
    painter.rect_stroke(
        rect,
        0.0,
        egui::Stroke::new(1.0, Color32::from_gray(100)),
        egui::StrokeKind::Inside,
    );
}

#[cfg(test)]
mod tests {
    use super::share_text;

    #[test]
    fn a_rare_move_is_under_one_percent_not_zero() {
        assert_eq!(share_text(0.004), "<1%");
        assert_eq!(share_text(0.0), "0%");
        assert_eq!(share_text(0.412), "41%");
        assert_eq!(share_text(1.0), "100%");
    }
}
