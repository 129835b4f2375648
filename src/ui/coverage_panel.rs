//! The Coverage tab: what the learner's repertoire will face against the theory book
//! (the gaps with a board preview and "Drill this gap", coverage by depth, the most
//! likely positions) and "Check my games…" (a PGN of the learner's games against the
//! repertoire, each game clickable to its position). The work behind it runs off the UI
//! thread ([`crate::coach::coverage`]).

use std::sync::Arc;

use eframe::egui;
use egui::{RichText, Ui};
use egui_plot::{Bar, BarChart, Plot};

use super::board::{BoardView, Orientation, board_ui};
use super::chart::{no_bar_text, plot_tooltip_ui};
use super::command::{Command, DrillBook};
use super::format::count;
use crate::coach::check::CheckState;
use crate::coach::coverage::CoverageCommand;
use crate::coach::coverage::{CoverageParams, CoverageReport, CoverageRow, CoverageState};
use crate::trainer::coverage::{Exposure, GOALS, Goal, REVIEWS_TO_LEARN, one_in};

/// The Coverage tab.
pub(super) fn coverage_panel_ui(
    ui: &mut Ui,
    view: &CoverageState,
    given: &CoverageParams,
    check: &CheckState,
    repertoire: bool,
    orientation: Orientation,
    commands: &mut Vec<Command>,
) {
    ui.heading("Coverage");
    // The fields edit a copy of the parameters; a change becomes one command.
    let mut params = given.clone();
    coverage_ui(ui, view, &mut params, repertoire, orientation, commands);
    if repertoire {
        ui.separator();
        let settled = !view.is_computing() && view.report().is_some();
        super::check_panel::check_panel_ui(ui, check, settled, orientation, commands);
    }
    if params != *given {
        commands.push(Command::Coverage(CoverageCommand::SetParams(params)));
    }
}

fn coverage_ui(
    ui: &mut Ui,
    view: &CoverageState,
    params: &mut CoverageParams,
    repertoire: bool,
    orientation: Orientation,
    commands: &mut Vec<Command>,
) {
    if view.is_drilling_theory() {
        ui.label(RichText::new("Drilling the theory book (ECO), not your repertoire.").italics());
        if ui
            .button("Back to my repertoire")
            .on_hover_text("Drill your repertoire again")
            .clicked()
        {
            commands.push(Command::Coverage(CoverageCommand::BackToRepertoire));
        }
        ui.separator();
    }
    if !repertoire {
        ui.label(
            "Coverage compares your repertoire with ECO: untick ECO in the Book tab and load \
             your repertoire (read as “My repertoire”).",
        );
        return;
    }
    // Wrapped rows: at 800×600 the label and its value do not fit one line of the side
    // panel, and a row wider than the panel widens the whole tab past its edge.
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("How deep (half-moves)");
        ui.add(egui::DragValue::new(&mut params.depth).range(1..=40))
            .labelled_by(label.id)
            .on_hover_text("Depth (plies): how many half-moves from the start are looked at");
    });
    // Wrapped: the label alone is as wide as a narrow panel.
    visible_width_ui(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Gaps met in at least (% of games)");
            ui.add(
                egui::DragValue::new(&mut params.threshold_percent)
                    .range(0.01..=50.0)
                    .speed(0.05),
            )
            .labelled_by(label.id)
            .on_hover_text(
                "Gap threshold (%): a position without a repertoire move is listed when this \
             share of your games reaches it",
            );
        });
    });
    if view.is_computing() {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("computing…");
        });
    }
    if let Some(report) = view.report() {
        let report = Arc::clone(report);
        report_ui(ui, &report, orientation, commands);
    }
    ui.add_space(4.0);
    goals_ui(ui, view.report().map(|r| &**r), params);
    ui.separator();
    games_ui(ui, view, params, commands);
}

/// The coverage goals, "Basic" to "Bulletproof": each sets the threshold; how many
/// positions each needs and the study time at the learner's pace; whether the goal
/// chosen is reached.
fn goals_ui(ui: &mut Ui, report: Option<&CoverageReport>, params: &mut CoverageParams) {
    ui.label(RichText::new("Coverage goal").strong())
        .on_hover_text(
            "How rare a position may be and still need your move: a goal covers every \
         position met in at least its share of your games (it sets “Gaps met in at least” \
         above)",
        );
    let chosen = Goal::of_percent(params.threshold_percent);
    for (i, goal) in GOALS.into_iter().enumerate() {
        let goal_count = report.and_then(|r| r.goals.get(i));
        let text = goal.name;
        let mut hover = format!(
            "Gap threshold {:.2}% (1 in {} games): positions where you are to move, \
             within the depth, met at least that often",
            goal.percent(),
            goal.one_in
        );
        if let (Some(c), Some(r)) = (goal_count, report) {
            hover.push_str(&format!(
                ".\n\nStudy time: {} positions × {} answers each to learn × {:.0} s an \
                 answer ({})",
                count(c.needed),
                REVIEWS_TO_LEARN,
                r.pace(),
                if r.seconds_per_answer.is_some() {
                    "your median answer time in the review log"
                } else {
                    "no review yet: a guess"
                }
            ));
        }
        if ui
            .radio(chosen == Some(goal), text)
            .on_hover_text(hover)
            .clicked()
        {
            params.threshold_percent = goal.percent();
        }
        let line = match (goal_count, report) {
            (Some(c), Some(r)) => format!(
                "1 in {} games: {} positions, {} covered, about {} of study",
                goal.one_in,
                count(c.needed),
                count(c.covered),
                duration(c.study_minutes(r.pace()))
            ),
            _ => format!("1 in {} games", goal.one_in),
        };
        visible_width_ui(ui, |ui| {
            ui.add(egui::Label::new(RichText::new(line).small()).wrap());
        });
    }
    let (Some(goal), Some(report)) = (chosen, report) else {
        return;
    };
    let Some(reached) = report.goals.iter().find(|c| c.goal == goal) else {
        return;
    };
    if reached.reached() {
        ui.label(
            RichText::new("You have reached your coverage goal.")
                .strong()
                .color(COVERED),
        )
        .on_hover_text(format!(
            "Every position met in at least 1 game in {} has your move",
            goal.one_in
        ));
    } else {
        ui.add(
            egui::Label::new(format!(
                "{} positions still to add for {}.",
                count(reached.missing()),
                goal.name
            ))
            .wrap(),
        );
    }
}

/// `add_contents` no wider than what the panel shows from here: the tab's scroll area
/// can be wider than the panel, and text wrapped at its width would be cut.
fn visible_width_ui(ui: &mut Ui, add_contents: impl FnOnce(&mut Ui)) {
    let width = (ui.clip_rect().right() - ui.cursor().left())
        .min(ui.available_width())
        .max(60.0);
    ui.allocate_ui(egui::vec2(width, 0.0), add_contents);
}

/// "25 min", "3 h 20 min".
fn duration(minutes: f64) -> String {
    let minutes = minutes.round().max(1.0) as u64;
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    }
}

/// One gap: how often, where, its name, the theory's moves, "Drill this gap".
fn gap_ui(
    ui: &mut Ui,
    i: usize,
    g: &CoverageRow,
    orientation: Orientation,
    commands: &mut Vec<Command>,
) {
    ui.push_id(("gap", i), |ui| {
        let text = format!("1 in {} games: {}", count(one_in(g.reach)), g.sans);
        ui.add(egui::Label::new(text).wrap()).on_hover_ui(|ui| {
            ui.label(format!("reach {:.2}%", g.reach * 100.0));
            preview_ui(ui, g, orientation);
        });
        if let Some(name) = &g.name {
            ui.add(egui::Label::new(RichText::new(name).small()).truncate());
        }
        let theory: Vec<&str> = g.theory.iter().take(5).map(String::as_str).collect();
        ui.add(
            egui::Label::new(RichText::new(format!("theory: {}", theory.join(", "))).small())
                .truncate(),
        );
        if ui
            .small_button("Drill this gap")
            .on_hover_text("Start a drill at this position, with the theory book")
            .clicked()
        {
            commands.push(Command::Coverage(CoverageCommand::DrillAt(
                g.moves.clone(),
                DrillBook::Theory,
            )));
        }
        if let (Some(answer), Some(san)) = (g.answer, g.theory.first())
            && ui
                .small_button(format!("Add {san} to my repertoire"))
                .on_hover_text(
                    "The theory's most popular answer, written to a copy of your repertoire \
                     file beside it (your file is not changed); the book then uses the copy",
                )
                .clicked()
        {
            let mut moves = g.moves.clone();
            moves.push(answer);
            commands.push(Command::Coverage(CoverageCommand::AddAnswer(moves)));
        }
    });
    ui.add_space(2.0);
}

/// How many gaps the list shows before "Show all".
const GAPS_SHOWN: usize = 4;

/// A small board of the row's position, shown on hover.
fn preview_ui(ui: &mut Ui, row: &CoverageRow, orientation: Orientation) {
    let last = row.moves.last();
    let view = BoardView {
        last_move: last,
        interactive: false,
        ..BoardView::new(&row.position)
    };
    ui.allocate_ui(egui::vec2(176.0, 176.0), |ui| {
        board_ui(ui, &view, orientation);
    });
}

fn report_ui(
    ui: &mut Ui,
    report: &CoverageReport,
    orientation: Orientation,
    commands: &mut Vec<Command>,
) {
    let ex = &report.exposure;
    ui.label(RichText::new(format!("Gaps ({})", report.gaps.len())).strong())
        .on_hover_text(
            "Positions you will meet at least as often as the threshold, where your \
             repertoire has no move and theory has",
        );
    if report.gaps.is_empty() {
        ui.label("No gap above the threshold.");
    }
    // The first gaps, the others on demand: a list of its own inside the tab's scroll
    // area would take the mouse wheel from the tab, so the chart and the games stay in
    // reach this way instead.
    let all_id = ui.make_persistent_id("coverage_all_gaps");
    let all = ui.data(|d| d.get_temp::<bool>(all_id).unwrap_or(false));
    let shown = if all { report.gaps.len() } else { GAPS_SHOWN };
    for (i, g) in report.gaps.iter().enumerate().take(shown) {
        gap_ui(ui, i, g, orientation, commands);
    }
    if report.gaps.len() > GAPS_SHOWN {
        let text = if all {
            format!("Show the first {GAPS_SHOWN} gaps")
        } else {
            format!("Show all {} gaps", report.gaps.len())
        };
        if ui.button(text).clicked() {
            ui.data_mut(|d| d.insert_temp(all_id, !all));
        }
    }
    ui.add_space(4.0);
    ui.label(RichText::new("Coverage by depth").strong())
        .on_hover_text(format!(
            "Per move of yours: how likely you are still in a drill (grey) and have a \
             repertoire move (green).\n\nOf all drills: {:.1}% end inside the book, {:.1}% \
             reach the depth, {:.3}% are cut off as too unlikely.",
            ex.mass_ended() * 100.0,
            ex.mass_at_depth() * 100.0,
            ex.mass_cut() * 100.0
        ));
    coverage_chart_ui(ui, ex);
    ui.add_space(4.0);
    ui.label(RichText::new("Most likely positions").strong());
    for p in &report.likely {
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("{:>5.1}%", p.reach * 100.0)).monospace());
            ui.add(egui::Label::new(p.sans.as_str()).truncate())
                .on_hover_ui(|ui| {
                    ui.label(p.name.as_deref().unwrap_or("(unnamed)"));
                    preview_ui(ui, p, orientation);
                });
        });
    }
}

/// The button for the games' moves off the repertoire: `"Count my 2 moves off the
/// repertoire as forgotten"`, then `"2 moves off the repertoire counted as forgotten"`
/// (deviations recorded as failed reviews, the hover says).
fn deviations_label(n: usize, recorded: bool) -> String {
    let moves = if n == 1 { "move" } else { "moves" };
    if recorded {
        format!("{n} {moves} off the repertoire counted as forgotten")
    } else {
        format!("Count my {n} {moves} off the repertoire as forgotten")
    }
}

/// The bars of drills still going at a ply.
const REACH: egui::Color32 = egui::Color32::from_gray(160);
/// The bars of drills with a repertoire move at a ply.
const COVERED: egui::Color32 = egui::Color32::from_rgb(0x3a, 0xa0, 0x5a);

/// The chart's legend, in a row of its own above the plot: inside the plot it would
/// hide the bars.
fn legend_ui(ui: &mut Ui) {
    ui.horizontal(|ui| {
        for (color, text) in [(REACH, "in a drill"), (COVERED, "covered")] {
            let size = egui::Vec2::splat(ui.text_style_height(&egui::TextStyle::Body) * 0.7);
            let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, color);
            ui.label(text);
            ui.add_space(6.0);
        }
    });
}

fn coverage_chart_ui(ui: &mut Ui, ex: &Exposure) {
    legend_ui(ui);
    let reach: Vec<Bar> = ex
        .coverage()
        .iter()
        .map(|c| Bar::new(f64::from(c.ply), c.reach).width(0.8))
        .collect();
    let covered: Vec<Bar> = ex
        .coverage()
        .iter()
        .map(|c| Bar::new(f64::from(c.ply), c.covered).width(0.5))
        .collect();
    let response = Plot::new("hastings_coverage_chart")
        .width(ui.available_width())
        .height(110.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .include_y(0.0)
        .include_y(1.0)
        .x_axis_label("ply")
        .show(ui, |plot| {
            let bars = |name: &str, bars, color| {
                BarChart::new(name, bars)
                    .color(color)
                    .element_formatter(no_bar_text())
            };
            plot.bar_chart(bars("in a drill", reach, REACH));
            plot.bar_chart(bars("covered", covered, COVERED));
        });
    plot_tooltip_ui(ui, &response, |point| {
        let ply = point.x.round();
        let c = ex.coverage().iter().find(|c| f64::from(c.ply) == ply)?;
        ((point.x - ply).abs() <= 0.4).then(|| {
            format!(
                "ply {}: {:.1}% of drills get here, {:.1}% with a move of your repertoire",
                c.ply,
                c.reach * 100.0,
                c.covered * 100.0
            )
        })
    });
    let description: Vec<String> = ex
        .coverage()
        .iter()
        .map(|c| format!("ply {}: {:.0}% covered", c.ply, c.covered * 100.0))
        .collect();
    response.response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Figure, true, description.join(", "))
    });
}

fn games_ui(
    ui: &mut Ui,
    view: &CoverageState,
    params: &mut CoverageParams,
    commands: &mut Vec<Command>,
) {
    ui.label(RichText::new("Your games").strong());
    ui.horizontal(|ui| {
        let label = ui.label("Your name");
        ui.add(egui::TextEdit::singleline(&mut params.player).desired_width(100.0))
            .labelled_by(label.id)
            .on_hover_text(
                "As in the games' White and Black tags (the whole name, in any case); \
                 empty: choose from the names in the file",
            );
    });
    let busy = view.comparing().is_some();
    if ui
        .add_enabled(!busy, egui::Button::new("Check my games…"))
        .on_hover_text("Open a PGN file of your games and find where each left your repertoire")
        .clicked()
    {
        commands.push(Command::Coverage(CoverageCommand::CheckGames));
    }
    if let Some(file) = view.comparing() {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(format!("reading {file}…"));
        });
    }
    match view.games() {
        None => {}
        Some(Err(e)) => {
            ui.add(
                egui::Label::new(RichText::new(&e.message).color(ui.visuals().warn_fg_color))
                    .wrap(),
            );
            // The file's players, most frequent first: a click compares that player's
            // games.
            if let Some(path) = &e.path {
                ui.horizontal_wrapped(|ui| {
                    for (name, games) in e.players.iter().take(8) {
                        let games = if *games == 1 {
                            "1 game".to_owned()
                        } else {
                            format!("{games} games")
                        };
                        if ui
                            .button(name)
                            .on_hover_text(format!("{name}: {games} in the file"))
                            .clicked()
                        {
                            params.player.clone_from(name);
                            commands.push(Command::Coverage(CoverageCommand::SetParams(
                                params.clone(),
                            )));
                            commands.push(Command::Coverage(CoverageCommand::CompareGames(
                                path.clone(),
                            )));
                        }
                    }
                });
            }
        }
        Some(Ok(report)) => {
            ui.label(RichText::new(format!("{} ({})", report.file, report.player)).small());
            ui.add(egui::Label::new(RichText::new(&report.summary).small()).wrap());
            let n = report.failed_reviews.len();
            if n > 0 {
                let label = deviations_label(n, report.recorded);
                if ui
                    .add_enabled(!report.recorded, egui::Button::new(label))
                    .on_hover_text(
                        "Deviations as failed reviews: each position where you left your \
                         repertoire comes up for review again, as if you had failed it today",
                    )
                    .clicked()
                {
                    commands.push(Command::Coverage(CoverageCommand::RecordDeviations));
                }
            }
            for (i, g) in report.games.iter().enumerate() {
                ui.push_id(("game", i), |ui| {
                    ui.add(egui::Label::new(RichText::new(&g.title).strong()).truncate());
                    match &g.drill {
                        Some((moves, book)) => {
                            if ui
                                .link(&g.what)
                                .on_hover_text("Drill this position")
                                .clicked()
                            {
                                commands.push(Command::Coverage(CoverageCommand::DrillAt(
                                    moves.clone(),
                                    *book,
                                )));
                            }
                        }
                        None => {
                            ui.label(&g.what);
                        }
                    }
                });
            }
        }
    }
}
