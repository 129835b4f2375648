//! The chapter picker of a loaded repertoire (Book tab): which chapters are drilled,
//! and which side each is for.

use eframe::egui;
use egui::{RichText, Ui};

use crate::book::Side;
use crate::workspace::{BookFile, LoadedFile, Workspace};

/// The chapters of `file`, with a checkbox each, "only", "all", and the side the file
/// is for when its chapters do not say. Edits `chosen`; returns whether it changed.
pub fn chapters_ui(
    ui: &mut Ui,
    workspace: &Workspace,
    file: &LoadedFile,
    chosen: &mut BookFile,
) -> bool {
    let mut changed = false;
    let all = file.chapters.len();
    let picked = file
        .chapters
        .iter()
        .filter(|c| workspace.chapter_chosen(&file.path, c.game))
        .count();
    let title = if picked == all {
        format!("Chapters ({all})")
    } else {
        format!("Chapters ({picked} of {all} drilled)")
    };
    egui::CollapsingHeader::new(title)
        .id_salt(("chapters", &file.path))
        .show(ui, |ui| {
            if file.chapters.iter().any(|c| c.tagged.is_none()) {
                changed |= file_side_ui(ui, chosen);
            }
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(picked < all, egui::Button::new("all").small())
                    .on_hover_text("Drill every chapter")
                    .clicked()
                {
                    chosen.chapters = None;
                    changed = true;
                }
            });
            egui::ScrollArea::vertical()
                .id_salt(("chapter_list", &file.path))
                .max_height(220.0)
                .show(ui, |ui| {
                    for c in &file.chapters {
                        let mut on = workspace.chapter_chosen(&file.path, c.game);
                        let side = match workspace.chapter_side(&file.path, c) {
                            Some(s) => s.name(),
                            None => "side not said",
                        };
                        let hover = format!(
                            "Chapter {}: {} line{}; for {}{}",
                            c.game,
                            c.lines,
                            if c.lines == 1 { "" } else { "s" },
                            side,
                            if c.tagged.is_some() {
                                " (its tags say)"
                            } else {
                                ""
                            }
                        );
                        ui.horizontal_wrapped(|ui| {
                            if ui
                                .checkbox(&mut on, &c.title)
                                .on_hover_text(hover)
                                .changed()
                            {
                                toggle(chosen, file, c.game, on);
                                changed = true;
                            }
                            ui.label(RichText::new(side).small().weak());
                            if ui
                                .small_button("only")
                                .on_hover_text("Drill this chapter alone")
                                .clicked()
                            {
                                chosen.chapters = Some(vec![c.game]);
                                changed = true;
                            }
                        });
                    }
                });
        });
    changed
}

/// "This file is for: White / Black / each chapter's own".
fn file_side_ui(ui: &mut Ui, chosen: &mut BookFile) -> bool {
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        ui.label("Untagged chapters are for");
        for (side, text) in [
            (Some(Side::White), "White"),
            (Some(Side::Black), "Black"),
            (None, "either side"),
        ] {
            if ui
                .radio(chosen.side == side, text)
                .on_hover_text(
                    "The drill plays this side in them; chapters with a side tag keep theirs",
                )
                .clicked()
                && chosen.side != side
            {
                chosen.side = side;
                chosen.side_asked = true;
                changed = true;
            }
        }
    });
    changed
}

/// Ticks or unticks chapter `game`; every chapter ticked means all (`None`).
fn toggle(chosen: &mut BookFile, file: &LoadedFile, game: u32, on: bool) {
    let mut games: Vec<u32> = match &chosen.chapters {
        Some(g) => g.clone(),
        None => file.chapters.iter().map(|c| c.game).collect(),
    };
    games.retain(|g| *g != game);
    if on {
        games.push(game);
        games.sort_unstable();
    }
    chosen.chapters = (games.len() < file.chapters.len()).then_some(games);
}
