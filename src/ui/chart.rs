//! The next-move chart: exact reply probabilities as bars labelled in SAN, and the
//! frequencies of sampled lines beside them (the thesis's figures).

use eframe::egui;
use egui::{Color32, RichText, Ui, WidgetInfo};
use egui_plot::{
    AxisHints, Bar, BarChart, GridMark, Legend, Plot, PlotPoint, PlotResponse, uniform_grid_spacer,
};
use shakmaty::{Chess, Color, Move, Position};

use crate::sampler::{CandidateKind, Distribution, Exploration};

/// One candidate move in the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartRow {
    /// The move in SAN (`Nf3`, `O-O`, `exd5+`).
    pub san: String,
    /// The move.
    pub mv: Move,
    /// Exact probability `P(y | x)` that the computer plays it.
    pub p: f64,
    /// Popularity share among the candidates.
    pub share: f64,
    /// Style bonus `Σ w_i p_i f_i`.
    pub bonus: f64,
    /// Review term `w_r · d(y)` (0 outside review mode).
    pub review: f64,
    /// Acceptance `A(y)` (may exceed 1).
    pub acceptance: f64,
    /// Whether it is an implied transposition rather than a book continuation.
    pub transposition: bool,
    /// The share of sampled lines that took this move first, after "Explore".
    pub sampled: Option<f64>,
}

/// What the chart shows: the distribution at one position, maybe with sampled lines.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChartData {
    /// The side to move at the position.
    pub side_to_move: Option<Color>,
    /// The candidates, most probable first.
    pub rows: Vec<ChartRow>,
    /// How many lines were sampled (0: not explored yet).
    pub sampled_lines: u32,
    /// The line names the sampled lines reached, most frequent first.
    pub reached: Vec<(String, u32)>,
}

impl ChartData {
    /// The chart of the distribution `dist` at `pos`, with the first steps of the lines
    /// sampled from there (`explored`, aligned with `dist.candidates`) and the line
    /// names they reached.
    pub fn new(
        dist: &Distribution,
        pos: &Chess,
        explored: Option<(&Exploration, &[(String, u32)])>,
    ) -> ChartData {
        let explored = explored
            .filter(|(e, _)| e.iterations > 0 && e.first_steps.len() == dist.candidates.len());
        let mut rows: Vec<ChartRow> = dist
            .candidates
            .iter()
            .enumerate()
            .map(|(i, c)| ChartRow {
                san: shakmaty::san::SanPlus::from_move(pos.clone(), c.mv).to_string(),
                mv: c.mv,
                p: c.p,
                share: c.share,
                bonus: c.bonus,
                review: c.review,
                acceptance: c.acceptance,
                transposition: c.kind == CandidateKind::Transposition,
                sampled: explored.and_then(|(e, _)| {
                    let n = e.first_steps.get(i)?;
                    Some(f64::from(*n) / f64::from(e.iterations))
                }),
            })
            .collect();
        rows.sort_by(|a, b| b.p.total_cmp(&a.p));
        ChartData {
            side_to_move: Some(pos.turn()),
            rows,
            sampled_lines: explored.map_or(0, |(e, _)| e.iterations),
            reached: explored.map(|(_, r)| r.to_vec()).unwrap_or_default(),
        }
    }

    /// The row of a move given in SAN.
    pub fn row(&self, san: &str) -> Option<&ChartRow> {
        self.rows.iter().find(|r| r.san == san)
    }

    /// A text description of the bars, the chart's accessible label:
    /// `Next move for White: e4 P 53.06%, d4 P 33.81%, …`.
    pub fn describe(&self) -> String {
        let side = match self.side_to_move {
            Some(Color::White) => "White",
            Some(Color::Black) => "Black",
            None => "nobody",
        };
        if self.rows.is_empty() {
            return format!("Next move for {side}: no book move");
        }
        let bars: Vec<String> = self
            .rows
            .iter()
            .map(|r| match r.sampled {
                Some(s) => format!("{} P {:.2}% sampled {:.2}%", r.san, r.p * 100.0, s * 100.0),
                None => format!("{} P {:.2}%", r.san, r.p * 100.0),
            })
            .collect();
        format!("Next move for {side}: {}", bars.join(", "))
    }
}

/// Exact-probability bars.
const EXACT: Color32 = Color32::from_rgb(0x3f, 0x7f, 0xbf);
/// Sampled-frequency bars.
const SAMPLED: Color32 = Color32::from_rgb(0xe0, 0x8a, 0x2c);

/// Draws the chart and the table of reached lines into the available space (the table
/// beside the chart when there is room, else behind a "Where the lines went" button).
pub fn chart_ui(ui: &mut Ui, data: &ChartData) {
    let wide = ui.available_width() >= 600.0;
    let table_width = if wide {
        (ui.available_width() * 0.38).clamp(200.0, 360.0)
    } else {
        0.0
    };
    let button = !wide && !data.reached.is_empty();
    let height = (ui.available_height() - if button { 26.0 } else { 0.0 }).max(80.0);
    ui.horizontal_top(|ui| {
        let plot_width = (ui.available_width() - table_width - 16.0).max(120.0);
        let column = egui::Layout::top_down(egui::Align::Min);
        ui.allocate_ui_with_layout(egui::vec2(plot_width, height), column, |ui| {
            plot_ui(ui, data, plot_width, height);
        });
        if wide {
            ui.separator();
            ui.allocate_ui_with_layout(egui::vec2(table_width, height), column, |ui| {
                ui.set_max_width(table_width);
                reached_ui(ui, data);
            });
        }
    });
    if button {
        ui.menu_button("Where the lines went", |ui| {
            ui.set_max_width(360.0);
            reached_ui(ui, data);
        });
    }
}

/// The most bars that fit `width` with readable SAN labels under them.
fn bars_that_fit(width: f32) -> usize {
    ((width - 60.0) / 40.0).floor().max(4.0) as usize
}

fn plot_ui(ui: &mut Ui, data: &ChartData, width: f32, height: f32) {
    if data.rows.is_empty() {
        ui.label("No book move here: the line has ended or left the book.");
        return;
    }
    let shown = bars_that_fit(width).min(data.rows.len());
    let rows = &data.rows[..shown];
    let hidden = data.rows.len() - shown;
    let height = if hidden > 0 { height - 20.0 } else { height };
    let explored = data.sampled_lines > 0;
    let offset = if explored { 0.2 } else { 0.0 };
    let bar_width = if explored { 0.38 } else { 0.6 };
    let exact: Vec<Bar> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            Bar::new(i as f64 - offset, r.p)
                .width(bar_width)
                .name(&r.san)
                .fill(if r.transposition {
                    EXACT.gamma_multiply(0.6)
                } else {
                    EXACT
                })
        })
        .collect();
    // The bars' hover text is shown on a tooltip (`plot_tooltip_ui`).
    let exact = BarChart::new("how often (exact)", exact)
        .color(EXACT)
        .element_formatter(no_bar_text());
    let sampled: Vec<Bar> = rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            Some(
                Bar::new(i as f64 + offset, r.sampled?)
                    .width(bar_width)
                    .name(&r.san),
            )
        })
        .collect();
    let lines = data.sampled_lines;
    let sampled = BarChart::new(format!("in {lines} explored lines"), sampled)
        .color(SAMPLED)
        .element_formatter(no_bar_text());
    let labels: Vec<String> = rows.iter().map(|r| r.san.clone()).collect();
    let top = rows
        .iter()
        .map(|r| r.p.max(r.sampled.unwrap_or(0.0)))
        .fold(0.0, f64::max);
    let response = Plot::new("hastings_next_move_chart")
        .width(width)
        .height(height)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .show_grid([false, true])
        .include_x(-0.6)
        .include_x(shown as f64 - 0.4)
        .include_y(0.0)
        // A little room above the tallest bar, but never past 100 %.
        .include_y((top * 1.1).clamp(0.05, 1.0))
        .legend(Legend::default())
        .x_grid_spacer(|input| {
            let (lo, hi) = input.bounds;
            (lo.ceil() as i64..=hi.floor() as i64)
                .map(|v| GridMark {
                    value: v as f64,
                    step_size: 1.0,
                })
                .collect()
        })
        .custom_x_axes(vec![
            AxisHints::new_x()
                .label_spacing(24.0..=30.0)
                .formatter(move |mark, _| {
                    let i = mark.value.round();
                    if (mark.value - i).abs() > 1e-6 || i < 0.0 {
                        return String::new();
                    }
                    labels.get(i as usize).cloned().unwrap_or_default()
                }),
        ])
        .y_grid_spacer(uniform_grid_spacer(|_| [0.05, 0.1, 0.2]))
        .custom_y_axes(vec![
            AxisHints::new_y()
                .label_spacing(14.0..=20.0)
                .formatter(|mark, _| format!("{:.0}%", mark.value * 100.0)),
        ])
        .show(ui, |plot| {
            plot.bar_chart(exact);
            if explored {
                plot.bar_chart(sampled);
            }
        });
    plot_tooltip_ui(ui, &response, |point| hover_text(rows, lines, point.x));
    if hidden > 0 {
        let rest: f64 = data.rows[shown..].iter().map(|r| r.p).sum();
        ui.label(
            RichText::new(format!(
                "{hidden} more moves not drawn, played {:.1}% of the time together",
                rest * 100.0
            ))
            .small(),
        )
        .on_hover_text("Their exact probabilities (P) added up");
    }
    let description = data.describe();
    response
        .response
        .widget_info(|| WidgetInfo::labeled(egui::Role::Figure, true, &description));
}

/// A bar chart's element formatter: the hover text of a bar.
pub(super) type BarText = Box<dyn Fn(&Bar, &BarChart) -> String>;

/// An element formatter that gives bars no hover text: egui_plot would draw it above the
/// bar without a background, cut off above a tall bar. [`plot_tooltip_ui`] shows it.
pub(super) fn no_bar_text() -> BarText {
    Box::new(|_, _| String::new())
}

/// While the pointer is over the plot of `response`, the text `text_at` gives for the
/// point under it, on a tooltip at the pointer: framed, and kept inside the window.
pub(super) fn plot_tooltip_ui<R>(
    ui: &Ui,
    response: &PlotResponse<R>,
    text_at: impl FnOnce(PlotPoint) -> Option<String>,
) {
    let r = &response.response;
    let Some(pointer) = r.hover_pos() else {
        return;
    };
    let Some(text) = text_at(response.transform.value_from_position(pointer)) else {
        return;
    };
    egui::Tooltip::always_open(
        ui.ctx().clone(),
        r.layer_id,
        r.id,
        egui::PopupAnchor::Pointer,
    )
    .gap(12.0)
    .show(|ui| ui.label(text));
}

/// The bar under the plot's abscissa `x` (the pointer's): the row's index and whether
/// it is the sampled bar. With sampled lines each move has two bars side by side (the
/// exact one left of the move's mark, the sampled one right of it); without, one bar
/// centred on it. Anywhere in a bar's column counts, so that short bars are easy to hover.
fn bar_at(x: f64, bars: usize, explored: bool) -> Option<(usize, bool)> {
    let i = x.round();
    let within = if explored { 0.4 } else { 0.3 };
    if i < 0.0 || i >= bars as f64 || (x - i).abs() > within {
        return None;
    }
    Some((i as usize, explored && x > i))
}

/// The hover text at the plot's abscissa `x`, where a bar is: the move and the terms of
/// its P, or how often the sampled lines chose it (`lines` sampled lines; 0 when none).
fn hover_text(rows: &[ChartRow], lines: u32, x: f64) -> Option<String> {
    let (i, sampled) = bar_at(x, rows.len(), lines > 0)?;
    let r = rows.get(i)?;
    if sampled {
        let share = r.sampled?;
        return Some(format!(
            "{}: chosen first in {:.1}% of {lines} sampled lines",
            r.san,
            share * 100.0
        ));
    }
    let kind = if r.transposition {
        "transposition"
    } else {
        "book move"
    };
    Some(format!(
        "{} ({kind})\nThe computer plays it {:.1}% of the time here.\nP = {:.4}\nshare = {:.4}\nstyle bonus = {:.4}\nreview term = {:.4}\nacceptance A = {:.4}",
        r.san,
        r.p * 100.0,
        r.p,
        r.share,
        r.bonus,
        r.review,
        r.acceptance
    ))
}

fn reached_ui(ui: &mut Ui, data: &ChartData) {
    if data.reached.is_empty() {
        ui.label(RichText::new("Where the lines went").strong());
        ui.label("Press Explore to play lines out from this position and see where they end.");
        return;
    }
    ui.label(RichText::new(format!("Where {} explored lines went", data.sampled_lines)).strong())
        .on_hover_text(
            "Lines reached: the openings the sampled lines ended in, the most often first",
        );
    egui::ScrollArea::vertical()
        .id_salt("reached_lines")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for (title, n) in data.reached.iter().take(20) {
                ui.horizontal(|ui| {
                    ui.add_sized([36.0, 16.0], egui::Label::new(n.to_string()));
                    ui.add(egui::Label::new(title).truncate());
                });
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(san: &str, p: f64, sampled: Option<f64>) -> ChartRow {
        ChartRow {
            san: san.to_owned(),
            mv: shakmaty::Move::Put {
                role: shakmaty::Role::Pawn,
                to: shakmaty::Square::E4,
            },
            p,
            share: p,
            bonus: 0.0,
            review: 0.0,
            acceptance: 1.0,
            transposition: false,
            sampled,
        }
    }

    #[test]
    fn a_bars_whole_column_finds_it_and_the_gaps_between_bars_find_none() {
        assert_eq!(bar_at(0.0, 3, false), Some((0, false)));
        assert_eq!(bar_at(-0.29, 3, false), Some((0, false)));
        assert_eq!(bar_at(1.25, 3, false), Some((1, false)));
        assert_eq!(bar_at(0.5, 3, false), None);
        assert_eq!(bar_at(-0.45, 3, false), None);
        assert_eq!(bar_at(2.9, 3, false), None);
        assert_eq!(bar_at(3.0, 3, false), None);
        // Explored: the exact bar left of the mark, the sampled one right of it.
        assert_eq!(bar_at(0.8, 3, true), Some((1, false)));
        assert_eq!(bar_at(1.2, 3, true), Some((1, true)));
        assert_eq!(bar_at(1.45, 3, true), None);
    }

    #[test]
    fn the_hover_text_names_the_move_and_its_numbers() {
        let rows = [row("e4", 0.53, Some(0.5)), row("d4", 0.34, Some(0.36))];
        let text = hover_text(&rows, 0, 0.1).unwrap();
        assert!(text.starts_with("e4 (book move)\n"), "{text}");
        assert!(text.contains("53.0% of the time"), "{text}");
        assert!(text.contains("P = 0.5300"), "{text}");
        assert_eq!(hover_text(&rows, 0, 0.5), None);
        assert_eq!(
            hover_text(&rows, 1000, 1.2).as_deref(),
            Some("d4: chosen first in 36.0% of 1000 sampled lines")
        );
        assert!(
            hover_text(&rows, 1000, 0.8)
                .unwrap()
                .starts_with("d4 (book move)")
        );
    }
}
