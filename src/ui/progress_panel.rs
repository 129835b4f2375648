//! The Progress tab: lines drilled, the mistake rate, the positions most often missed,
//! the lines completed.

use eframe::egui;
use egui::{RichText, Ui};

use super::command::Command;
use super::format::count;
use super::review_panel::position_board_row_ui;
use crate::coach::coverage::missed::MissedPosition;
use crate::trainer::progress::Progress;

/// The progress panel: lines drilled, mistake rate, the positions most often missed
/// (small boards with the moves that lead there and "Drill this").
pub(super) fn progress_panel_ui(
    ui: &mut Ui,
    progress: &Progress,
    warning: Option<&str>,
    missed: &[MissedPosition],
    commands: &mut Vec<Command>,
) {
    ui.heading("Progress");
    if let Some(w) = warning {
        ui.label(RichText::new(w).color(ui.visuals().warn_fg_color));
    }
    let s = progress.summary();
    ui.label(format!(
        "Lines drilled: {} ({} completions)",
        count(s.lines_drilled),
        count(s.completions)
    ));
    ui.label(format!(
        "Moves tried: {}, mistakes: {} ({:.1}%)",
        count(s.attempts),
        count(s.mistakes),
        s.mistake_rate() * 100.0
    ));
    if !missed.is_empty() {
        ui.add_space(4.0);
        ui.label(RichText::new("Most often missed").strong());
        for (i, m) in missed.iter().enumerate() {
            position_board_row_ui(
                ui,
                1000 + i,
                &m.position,
                m.moves.as_deref(),
                m.name.as_deref(),
                commands,
                |ui| {
                    ui.label(m.tries_text());
                },
            );
        }
    }
    let mut lines: Vec<(&String, &u32)> = progress.lines_completed.iter().collect();
    lines.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    if !lines.is_empty() {
        ui.add_space(4.0);
        ui.label(RichText::new("Lines completed").strong());
        for (title, n) in lines.into_iter().take(15) {
            ui.label(format!("{n}× {title}"));
        }
    }
}
