//! Review mode's parts of the window: the mode switch and the card being learned or
//! asked (top of the drill panel), and the review half of the Progress tab (counts,
//! the 30-day forecast, measured retention, per-line mastery, the most-lapsed
//! positions as small boards).

use eframe::egui;
use egui::{RichText, Ui, Vec2};
use egui_plot::{Bar, BarChart, Plot};
use shakmaty::{Chess, Position};

use super::board::{BoardView, Orientation, board_ui};
use super::chart::{no_bar_text, plot_tooltip_ui};
use super::command::Command;
use super::format::count;
use crate::coach::Coach;
use crate::coach::review::{DrillMode, now};
use crate::review::Rating;
use crate::trainer::review_drill::ReviewStep;

/// Days in the forecast.
const FORECAST_DAYS: usize = 30;
/// The side of a small board, in points.
const SMALL_BOARD: f32 = 120.0;
/// The least width for the texts beside a small board, in points.
const SIDE_TEXT: f32 = 90.0;

/// The mode switch and, in review mode, the card shown or asked and the Easy button.
pub(super) fn review_drill_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    let mode = coach.review().drill_mode();
    ui.horizontal_wrapped(|ui| {
        for m in [DrillMode::Free, DrillMode::Review, DrillMode::Mistakes] {
            if ui.selectable_label(mode == m, m.text()).clicked() && mode != m {
                commands.push(Command::SetDrillMode(m));
            }
        }
    });
    super::review_session::session_menu_ui(ui, coach, commands);
    let Some(review) = coach.review().mode() else {
        return;
    };
    if let Some(w) = &review.warning {
        ui.label(RichText::new(w).color(ui.visuals().warn_fg_color));
    }
    let drill = &review.drill;
    ui.label(format!(
        "Positions left: {}   graded: {}",
        count(drill.queue().len()),
        count(drill.graded())
    ));
    let step = drill.step();
    if let Some(lesson) = drill.lesson() {
        super::review_session::lesson_ui(ui, coach, lesson, &step, commands);
        ui.separator();
        return;
    }
    match step {
        ReviewStep::Learn(card) => {
            ui.label(RichText::new(format!("New card: the book plays {}", card.san)).strong());
            if let Some(c) = &card.comment {
                ui.add(egui::Label::new(RichText::new(c).italics()).wrap());
            }
            if ui
                .button("Got it")
                .on_hover_text("Now play the move yourself")
                .clicked()
            {
                commands.push(Command::GotIt);
            }
        }
        ReviewStep::Ask { .. } => {
            ui.label(RichText::new("Review: what do you play here?").strong());
        }
        ReviewStep::Done
            if mode == DrillMode::Mistakes
                && drill.graded() == 0
                && !review.elsewhere.is_empty() =>
        {
            // Missed positions the book drilled now cannot ask: say so, offer them.
            let theory = coach.is_repertoire() && !coach.coverage().is_drilling_theory();
            super::mistakes_elsewhere::mistakes_elsewhere_ui(
                ui,
                &review.elsewhere,
                theory,
                commands,
            );
        }
        ReviewStep::Done => {
            ui.label(RichText::new(done_text(mode, drill.graded())).strong());
            if mode == DrillMode::Review {
                super::review_session::practise_anyway_ui(ui, commands);
            }
        }
        ReviewStep::Play => {}
    }
    if let Some(grade) = review.last_grade {
        ui.horizontal(|ui| {
            ui.label(format!("Graded: {}", grade.as_str()));
            if grade == Rating::Good
                && ui
                    .button("Easy")
                    .on_hover_text("That was easy: show it less often")
                    .clicked()
            {
                commands.push(Command::Easy);
            }
        });
    }
    ui.separator();
}

/// What the drill panel says when the queue is empty, after `graded` grades.
fn done_text(mode: DrillMode, graded: u32) -> &'static str {
    match (mode, graded) {
        (DrillMode::Mistakes, 0) => {
            "No mistakes to go over: no card has lapsed and no position has a mistake in \
             your progress."
        }
        (DrillMode::Mistakes, _) => "Every mistake was gone over.",
        _ => "Nothing left to review now.",
    }
}

/// The review half of the Progress tab.
pub(super) fn review_progress_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    ui.heading("Review");
    let Some(drill) = coach.review().drill() else {
        ui.label("Switch to Review (drill panel) to see your cards.");
        ui.separator();
        return;
    };
    let study = drill.study(now());
    let c = study.counts(drill.settings().new_per_day);
    egui::Grid::new("review_counts").show(ui, |ui| {
        for (name, n) in [
            ("Due now", c.due),
            ("New left today", c.new_today),
            ("Learned", c.learned),
            ("Lapses", c.lapses as usize),
            ("Positions to review", c.cards),
        ] {
            ui.label(name);
            ui.label(count(n));
            ui.end_row();
        }
    });
    let (retention, n) = drill.schedule().measured_retention();
    ui.label(match retention {
        Some(r) => format!(
            "Remembered at review: {:.1}% ({} reviews)",
            r * 100.0,
            count(n)
        ),
        None => "Remembered at review: not yet (no review on a later day)".to_owned(),
    });
    ui.label(RichText::new("Reviews in the next 30 days").strong());
    let forecast = study.forecast(FORECAST_DAYS);
    let bars: Vec<Bar> = forecast
        .iter()
        .enumerate()
        .map(|(d, &n)| Bar::new(d as f64, f64::from(n)).width(0.8))
        .collect();
    let response = Plot::new("review_forecast")
        .height(90.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show_x(true)
        .show_y(true)
        // Days 0 to 30 and at least 0 to 5 reviews: an empty forecast has a plain axis,
        // never negative days or counts.
        .include_x(-0.5)
        .include_x(FORECAST_DAYS as f64 - 0.5)
        .include_y(0.0)
        .include_y(5.0)
        .auto_bounds([false, true])
        .show(ui, |p| {
            p.bar_chart(BarChart::new("Reviews", bars).element_formatter(no_bar_text()));
        });
    plot_tooltip_ui(ui, &response, |point| {
        let day = point.x.round();
        let d = usize::try_from(day as i64).ok()?;
        let n = forecast.get(d)?;
        let when = match d {
            0 => "Today".to_owned(),
            1 => "Tomorrow".to_owned(),
            _ => format!("In {d} days"),
        };
        let plural = if *n == 1 { "" } else { "s" };
        ((point.x - day).abs() <= 0.4).then(|| format!("{when}: {n} review{plural}"))
    });
    ui.label(
        RichText::new(format!(
            "Today {}, tomorrow {}, this week {}",
            forecast.first().copied().unwrap_or(0),
            forecast.get(1).copied().unwrap_or(0),
            forecast.iter().take(7).sum::<u32>()
        ))
        .small(),
    )
    .on_hover_text("Reviews due per day (overdue cards count today)");
    let mut mastery = study.line_mastery(coach.graph());
    mastery.retain(|m| m.mastery > 0.0);
    mastery.sort_by(|a, b| b.mastery.total_cmp(&a.mastery));
    if !mastery.is_empty() {
        ui.label(RichText::new("Line mastery").strong());
        for m in mastery.iter().take(10) {
            ui.horizontal(|ui| {
                ui.add(
                    egui::ProgressBar::new(m.mastery as f32)
                        .desired_width(50.0)
                        .text(format!("{:.0}%", m.mastery * 100.0)),
                );
                ui.add(egui::Label::new(&m.ending).truncate())
                    .on_hover_text(format!("{} ({} cards)", m.title, m.cards));
            });
        }
    }
    super::optimize_panel::optimize_ui(ui, coach, commands);
    let lapsed = study.most_lapsed(5);
    if !lapsed.is_empty() {
        ui.label(RichText::new("Most lapsed").strong());
        for (i, lapses) in lapsed {
            let Some(card) = drill.deck().cards().get(i) else {
                continue;
            };
            position_row_ui(
                ui,
                i,
                &card.moves,
                card.opening.as_deref(),
                commands,
                |ui| {
                    ui.label(format!("{lapses} lapses"));
                },
            );
        }
    }
    ui.separator();
}

/// One position as a small board, with the moves that lead there, the opening name,
/// `extra`, and "Drill this".
pub(super) fn position_row_ui(
    ui: &mut Ui,
    id: usize,
    moves: &[shakmaty::Move],
    opening: Option<&str>,
    commands: &mut Vec<Command>,
    extra: impl FnOnce(&mut Ui),
) {
    let pos = moves.iter().fold(Chess::default(), |mut pos, mv| {
        pos.play_unchecked(*mv);
        pos
    });
    position_board_row_ui(ui, id, &pos, Some(moves), opening, commands, extra);
}

/// One position as a small board seen from the side to move, with the moves that lead
/// there and "Drill this" when there are any, the opening name and `extra`.
pub(super) fn position_board_row_ui(
    ui: &mut Ui,
    id: usize,
    pos: &Chess,
    moves: Option<&[shakmaty::Move]>,
    opening: Option<&str>,
    commands: &mut Vec<Command>,
    extra: impl FnOnce(&mut Ui),
) {
    let orientation = Orientation::from_color(pos.turn());
    // The texts beside the board where they have room for a few words a line, else under
    // it (800×600: beside, they would break a word into letters).
    let beside = ui.available_width() >= SMALL_BOARD + ui.spacing().item_spacing.x + SIDE_TEXT;
    let layout = if beside {
        egui::Layout::left_to_right(egui::Align::Min)
    } else {
        egui::Layout::top_down(egui::Align::Min)
    };
    ui.push_id(("position_row", id), |ui| {
        ui.with_layout(layout, |ui| {
            ui.allocate_ui(Vec2::splat(SMALL_BOARD), |ui| {
                board_ui(
                    ui,
                    &BoardView {
                        position: pos,
                        last_move: moves.and_then(<[_]>::last),
                        interactive: false,
                        arrows: &[],
                        hint: None,
                        animation: None,
                    },
                    orientation,
                );
            });
            ui.vertical(|ui| {
                if let Some(name) = opening {
                    ui.add(egui::Label::new(RichText::new(name).strong()).wrap());
                }
                if let Some(moves) = moves {
                    let sans: Vec<String> = crate::book::line::sans_of(&Chess::default(), moves)
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    ui.add(egui::Label::new(RichText::new(sans.join(" ")).small()).wrap());
                }
                extra(ui);
                match moves {
                    Some(moves) => {
                        if ui
                            .button("Drill this")
                            .on_hover_text(
                                "Start a line at this position, playing the side to move",
                            )
                            .clicked()
                        {
                            commands.push(Command::DrillFrom(moves.to_vec()));
                        }
                    }
                    None => {
                        ui.add(
                            egui::Label::new(
                                RichText::new("Not in the book you drill now")
                                    .small()
                                    .weak(),
                            )
                            .wrap(),
                        );
                    }
                }
            });
        });
    });
}
