//! The Progress tab: lines drilled, the mistake rate, the positions most often missed,
//! the lines completed.

use eframe::egui;
use egui::{RichText, Ui};

use super::command::Command;
use super::format::count;
use super::review_panel::{path_to, position_row_ui};
use crate::book::PositionGraph;
use crate::trainer::progress::Progress;

/// The progress panel: lines drilled, mistake rate, the positions most often missed
/// (small boards with the moves that lead there and "Drill this").
pub(super) fn progress_panel_ui(
    ui: &mut Ui,
    progress: &Progress,
    warning: Option<&str>,
    graph: &PositionGraph,
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
    let missed = progress.most_missed(10);
    if !missed.is_empty() {
        ui.add_space(4.0);
        ui.label(RichText::new("Most often missed").strong());
        for (i, (epd, r)) in missed.into_iter().enumerate() {
            let found = shakmaty::fen::Epd::from_ascii(epd.as_bytes())
                .ok()
                .and_then(|e| {
                    e.into_position::<shakmaty::Chess>(shakmaty::CastlingMode::Standard)
                        .ok()
                })
                .and_then(|pos| graph.lookup(&pos))
                .and_then(|node| Some((node, path_to(graph, node)?)));
            let tries = format!("{} mistakes in {} tries", r.mistakes, r.attempts);
            match found {
                Some((node, moves)) => {
                    let name = graph.name(node).map(|l| graph.line(l).title());
                    position_row_ui(ui, 1000 + i, &moves, name.as_deref(), commands, |ui| {
                        ui.label(tries);
                    });
                }
                // Not in the book drilled now: the position as text.
                None => {
                    ui.label(tries);
                    ui.label(RichText::new(epd).small().monospace());
                }
            }
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
