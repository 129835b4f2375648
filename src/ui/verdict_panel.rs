//! The verdict on a move outside the book, in the drill panel: "Checking your move…"
//! while the engine works, then the judgement in its colour ("Blunder: after 3.Ng5
//! Qxg5 Black wins a knight"), what the move gives up against the book's main move, the
//! engine's line ("Refutation" only when it wins something concrete, else "The
//! engine's line"), and for a move that is also good the buttons to accept it or add it
//! to the repertoire. On the board, the opponent's first moves in a refutation are red
//! arrows; the reply of a line that is no refutation is a blue one.

use eframe::egui;
use egui::{Color32, RichText, Ui};

use super::board::Arrow;
use super::command::Command;
use crate::coach::Coach;
use crate::coach::verdict::VerdictCommand;
use crate::trainer::verdict::{BLUNDER, INACCURACY, Judgement, MISTAKE, REFUTATION_SWING, Verdict};

/// How many of the opponent's moves in the refutation are drawn as arrows.
const ARROW_MOVES: usize = 2;

/// The colour of a judgement's text.
fn judgement_color(judgement: Judgement) -> Color32 {
    match judgement {
        Judgement::AlsoGood => Color32::from_rgb(0x2a, 0x8a, 0x3a),
        Judgement::Inaccuracy => Color32::from_rgb(0x9a, 0x7a, 0x00),
        Judgement::Mistake => Color32::from_rgb(0xd0, 0x64, 0x00),
        Judgement::Blunder => Color32::from_rgb(0xc8, 0x28, 0x28),
    }
}

/// The verdict block (drawn under "… is not in the book.").
pub(super) fn verdict_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    if let Some(v) = coach.verdict().answer() {
        verdict_shown_ui(ui, coach, v, commands);
    } else if let Some(reason) = coach.verdict().failure() {
        ui.add(
            egui::Label::new(
                RichText::new(format!("Your move could not be checked: {reason}.")).weak(),
            )
            .wrap(),
        );
    } else if coach.is_checking_move() {
        // No spinner: it would redraw the window every frame while the engine works;
        // the engine's thread wakes the window when the verdict is ready.
        ui.label(RichText::new("Checking your move…").italics().weak())
            .on_hover_text(format!(
                "{} compares it with the book's main move",
                coach.verdict().engine().unwrap_or("The engine")
            ));
    }
    if let Some(notice) = coach.verdict().notice() {
        ui.add(egui::Label::new(RichText::new(notice).small().weak()).wrap());
    }
}

fn verdict_shown_ui(ui: &mut Ui, coach: &Coach, v: &Verdict, commands: &mut Vec<Command>) {
    let color = judgement_color(v.judgement);
    ui.add(egui::Label::new(RichText::new(v.headline()).strong().color(color)).wrap())
        .on_hover_text(format!(
            "{} at depth {}: {} after your move, {} after {}. Winning chances drop by {:.2} \
             (lichess's thresholds: {INACCURACY} inaccuracy, {MISTAKE} mistake, {BLUNDER} \
             blunder); a move whose line wins material is at least a mistake.",
            coach.verdict().engine().unwrap_or("The engine"),
            v.depth,
            v.played_outlook.for_white(v.learner),
            v.book_outlook.for_white(v.learner),
            v.book_san,
            v.book_outlook.winning_chances() - v.played_outlook.winning_chances(),
        ));
    if v.judgement.is_good() {
        ui.add(egui::Label::new(format!("Then {}.", v.sentence)).wrap());
    } else {
        ui.add(egui::Label::new(v.comparison()).wrap());
    }
    if !v.refutation_san.is_empty() {
        let hover = format!(
            "The engine's best line after your move (its principal variation). It is called \
             a refutation only when it wins material, mates, or leaves you {} pawns or more \
             worse than {}.",
            f64::from(REFUTATION_SWING) / 100.0,
            v.book_san
        );
        ui.add(
            egui::Label::new(
                RichText::new(format!("{}: {}", v.line_name(), v.refutation_san)).italics(),
            )
            .wrap(),
        )
        .on_hover_text(hover);
    }
    if !v.judgement.is_good() {
        return;
    }
    if coach.verdict().is_forgiven() {
        ui.label(RichText::new("Not counted as a mistake.").color(color));
    }
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Accept")
            .on_hover_text(format!(
                "Do not count {} as a mistake, and go on with the book's main move {}",
                v.played_san, v.book_san
            ))
            .clicked()
        {
            commands.push(Command::Verdict(VerdictCommand::Accept));
        }
        if coach.repertoire_file().is_some()
            && ui
                .button("Add to my repertoire")
                .on_hover_text(format!(
                    "Add {} to a copy of your repertoire file (yours is not changed)",
                    v.played_san
                ))
                .clicked()
        {
            commands.push(Command::Verdict(VerdictCommand::AddToRepertoire));
        }
    });
}

/// The refutation's first moves by the opponent as red arrows, the reply strong and the
/// next one lighter (the board shows the position after the move played, where the
/// refutation starts); for an engine's line that is no refutation, its reply only, in
/// blue; none for a move that is also good.
pub(super) fn refutation_arrows(coach: &Coach) -> Vec<Arrow> {
    let Some(v) = coach.verdict().answer().filter(|v| !v.judgement.is_good()) else {
        return Vec::new();
    };
    let shown = if v.refuted { ARROW_MOVES } else { 1 };
    v.refutation
        .iter()
        .step_by(2)
        .take(shown)
        .enumerate()
        .filter_map(|(i, mv)| {
            let (weight, alpha) = if i == 0 { (0.9, 210) } else { (0.5, 130) };
            let color = if v.refuted {
                Color32::from_rgba_unmultiplied(190, 30, 30, alpha)
            } else {
                Color32::from_rgba_unmultiplied(30, 70, 170, 170)
            };
            Arrow::of_move(mv, weight, color)
        })
        .collect()
}
