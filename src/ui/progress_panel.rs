//! The Progress tab: lines drilled, the mistake rate, the positions most often missed,
//! the lines completed.

use eframe::egui;
use egui::{RichText, Ui};

use super::format::count;
use crate::trainer::progress::Progress;

/// The progress panel: lines drilled, mistake rate, the positions most often missed.
pub fn progress_panel_ui(ui: &mut Ui, progress: &Progress, warning: Option<&str>) {
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
    let missed = progress.most_missed(10);
    if !missed.is_empty() {
        ui.add_space(4.0);
        ui.label(RichText::new("Most often missed").strong());
        egui::Grid::new("most_missed").striped(true).show(ui, |ui| {
            for (epd, r) in missed {
                ui.label(format!("{} / {}", r.mistakes, r.attempts))
                    .on_hover_text("mistakes / tries");
                ui.label(RichText::new(epd).small().monospace());
                ui.end_row();
            }
        });
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
