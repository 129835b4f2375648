//! Under the board in the Repertoire tab: what the repertoire does not answer at the
//! move shown (the opponent's replies from the book, or from the explorer's games, with
//! how often a drill meets them; or, on the learner's move, whether there is one),
//! **Next gap** and **Train this**.

use eframe::egui;
use egui::Ui;

use super::command::Command;
use super::repertoire_panel::push;
use crate::coach::Coach;
use crate::coach::repertoire::{GapsState, MissingHere};
use crate::coach::repertoire::{RepertoireCommand, RepertoireState};

/// Under the board in the Repertoire tab: what the repertoire does not answer here.
pub(super) fn missing_panel_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    let w = coach.repertoire();
    let gaps = coach.repertoire_gaps();
    ui.horizontal_wrapped(|ui| {
        ui.strong("What is missing here");
        let open = w.file().is_some();
        if ui
            .add_enabled(open, egui::Button::new("Next gap"))
            .on_hover_text(
                "Go to the most likely position where your repertoire has no move and the \
                 book has (the Coverage tab's depth and threshold)",
            )
            .clicked()
        {
            push(commands, RepertoireCommand::NextGap);
        }
        if ui
            .add_enabled(open, egui::Button::new("Train this"))
            .on_hover_text(
                "Drill the repertoire from the move shown, in the chapters ticked: each new \
                 line starts here",
            )
            .clicked()
        {
            push(commands, RepertoireCommand::TrainThis);
        }
        let mut from_explorer = coach.settings().repertoire_explorer;
        let index_open = coach.explorer().index().is_some();
        if ui
            .add_enabled(
                index_open,
                egui::Checkbox::new(&mut from_explorer, "From the explorer's games"),
            )
            .on_hover_text(
                "The replies and how often they come from the Explorer tab's games (its \
                 index, source and filters) instead of the book; the book's where no game \
                 reached the position",
            )
            .on_disabled_hover_text("Open an explorer index in the Explorer tab first")
            .changed()
        {
            push(commands, RepertoireCommand::GapsFromExplorer(from_explorer));
        }
        if gaps.is_computing() {
            ui.spinner();
        }
        if let Some(book) = gaps.book() {
            ui.weak(format!("{} gaps in all", book.exposure.gaps().len()));
        }
    });
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| missing_ui(ui, w, gaps, commands));
}

fn missing_ui(ui: &mut Ui, w: &RepertoireState, gaps: &GapsState, commands: &mut Vec<Command>) {
    if w.file().is_none() {
        ui.label("Open a repertoire to see what it does not answer.");
        return;
    }
    if w.side().is_none() {
        ui.label("The file does not say which side it is for.")
            .on_hover_text("No [Orientation] tag, and its moves do not show the side");
        return;
    }
    match gaps.missing() {
        MissingHere::Unknown => {
            ui.weak("Working out the gaps…");
        }
        MissingHere::NotApplicable(why) => {
            ui.label(why);
        }
        MissingHere::NotReached => {
            ui.label(
                "A drill does not get here within the Coverage tab's depth (or too rarely \
                 to follow).",
            );
        }
        MissingHere::LearnerToMove {
            answered,
            theory,
            reach,
        } => {
            let odds = crate::trainer::coverage::one_in(*reach);
            if *answered {
                ui.label(format!(
                    "Your move here is in the repertoire (1 in {odds} games)."
                ));
            } else if theory.is_empty() {
                ui.label(format!("Your move is missing here (1 in {odds} games)."));
            } else {
                ui.label(format!(
                    "Your move is missing here (1 in {odds} games). The book plays {}.",
                    theory.join(", ")
                ));
            }
        }
        MissingHere::OpponentToMove(replies) if replies.is_empty() => {
            ui.label("Every book reply here has your answer.");
        }
        MissingHere::OpponentToMove(replies) => {
            ui.label("Book replies without your answer (click one to go there):");
            for r in replies {
                let text = format!(
                    "{}  1 in {} games{}",
                    r.san,
                    r.one_in(),
                    if r.gap { "  (gap)" } else { "" }
                );
                if ui.link(text).clicked() {
                    // Go there, adding nothing (even with "Add moves" on).
                    let mut moves = w.moves();
                    moves.push(r.mv);
                    push(commands, RepertoireCommand::GoToMoves(moves));
                }
            }
        }
    }
}
