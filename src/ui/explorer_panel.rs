//! The Explorer tab, like lichess's opening explorer: the filters (rating bands and
//! speeds as toggle buttons), then each move at the position on the board with its
//! share, games, a white/draw/black bar with percentages and the average rating; a
//! click plays the move. The numbers come from the coach's cached view
//! ([`crate::coach::explorer`]); the panel does no work of its own.

use eframe::egui;
use egui::{Color32, RichText, Sense, Ui, WidgetInfo};

use super::command::Command;
use crate::book::explorer::{RatingBand, Speed, group_digits};
use crate::coach::explorer::{ExplorerCommand, ExplorerRow, ExplorerState};

/// The Explorer tab.
pub(super) fn explorer_panel_ui(ui: &mut Ui, state: &ExplorerState, commands: &mut Vec<Command>) {
    ui.heading("Explorer");
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Open explorer index…")
            .on_hover_text("A NAME.explorer folder made by `hastings explorer make`")
            .clicked()
        {
            commands.push(Command::Explorer(ExplorerCommand::Choose));
        }
        if state.index().is_some() && ui.button("Close").clicked() {
            commands.push(Command::Explorer(ExplorerCommand::Close));
        }
    });
    if let Some(message) = state.message() {
        ui.colored_label(ui.visuals().warn_fg_color, message);
    }
    let Some(index) = state.index() else {
        ui.label(
            "No index open. Make one with `hastings explorer make GAMES.pgn -o NAME.explorer`.",
        );
        return;
    };
    let name = index.dir().file_name().map_or_else(
        || index.dir().display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    ui.label(format!("{name}: {} games", group_digits(index.games())));
    filters_ui(ui, state, commands);
    ui.separator();
    let view = state.view();
    if let Some(error) = &view.error {
        ui.colored_label(ui.visuals().error_fg_color, error);
        return;
    }
    if view.hidden {
        ui.label("Hidden until you move: it would give the answer away.");
        return;
    }
    if view.rows.is_empty() {
        ui.label("No game reached this position under these filters.");
        return;
    }
    ui.label(format!("{} games here", group_digits(view.games)));
    for row in &view.rows {
        if move_row_ui(ui, row) {
            commands.push(Command::Play(row.mv));
        }
    }
}

/// The rating bands and speeds as toggle buttons.
fn filters_ui(ui: &mut Ui, state: &ExplorerState, commands: &mut Vec<Command>) {
    ui.label("Average rating");
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        for band in RatingBand::all() {
            let name = match band.lower_bound() {
                Some(b) => b.to_string(),
                None => "unrated".to_owned(),
            };
            if ui.selectable_label(state.counts_band(band), name).clicked() {
                commands.push(Command::Explorer(ExplorerCommand::ToggleBand(band)));
            }
        }
    });
    ui.label("Speed");
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 3.0;
        for speed in Speed::ALL {
            if ui
                .selectable_label(state.counts_speed(speed), speed.name())
                .clicked()
            {
                commands.push(Command::Explorer(ExplorerCommand::ToggleSpeed(speed)));
            }
        }
    });
}

/// One move: SAN, share, games, average rating, then the W/D/L bar. Whether it was
/// clicked.
fn move_row_ui(ui: &mut Ui, row: &ExplorerRow) -> bool {
    let rating = row
        .avg_rating
        .map_or_else(|| "-".to_owned(), |r| r.to_string());
    let games = if row.games == 1 { "game" } else { "games" };
    let text = format!(
        "{}  {:.0}%  {} {games}  avg {rating}",
        row.san,
        row.share * 100.0,
        group_digits(row.games)
    );
    let clicked = ui
        .add(egui::Button::new(RichText::new(text).monospace()).frame(false))
        .on_hover_text(format!("Play {}", row.san))
        .clicked();
    wdl_bar_ui(ui, row);
    clicked
}

/// The white / draw / black bar, each segment labelled with its percentage.
fn wdl_bar_ui(ui: &mut Ui, row: &ExplorerRow) {
    let games = row.games.max(1) as f32;
    let parts = [
        (row.white, Color32::from_gray(245), Color32::BLACK, "White"),
        (row.draws, Color32::from_gray(140), Color32::WHITE, "Draws"),
        (row.black, Color32::from_gray(30), Color32::WHITE, "Black"),
    ];
    let percents: Vec<f32> = parts.iter().map(|p| 100.0 * p.0 as f32 / games).collect();
    let label = format!(
        "{}: White {:.0}% Draws {:.0}% Black {:.0}%",
        row.san, percents[0], percents[1], percents[2]
    );
    let width = ui.available_width().max(60.0);
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, 16.0), Sense::hover());
    response.widget_info(|| WidgetInfo::labeled(egui::Role::Label, true, &label));
    let painter = ui.painter_at(rect);
    let mut x = rect.left();
    for ((n, fill, text, _), percent) in parts.iter().zip(&percents) {
        if *n == 0 {
            continue;
        }
        let w = rect.width() * percent / 100.0;
        let seg =
            egui::Rect::from_min_size(egui::pos2(x, rect.top()), egui::vec2(w, rect.height()));
        painter.rect_filled(seg, 0.0, *fill);
        if w > 28.0 {
            painter.text(
                seg.center(),
                egui::Align2::CENTER_CENTER,
                format!("{percent:.0}%"),
                egui::FontId::proportional(11.0),
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
