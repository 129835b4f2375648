//! "Is it sound?" in the Coverage tab: check the repertoire with an engine (a job with
//! progress and cancel), then the learner's moves that lose (each with the better move,
//! how it is punished, a board preview and "Drill this"), which line to learn next, the
//! lines that end badly, and the repertoire's value ([`crate::coach::check`]).

use eframe::egui;
use egui::{RichText, Ui};

use super::board::{BoardView, Orientation, board_ui};
use super::command::{Command, DrillBook};
use super::format::count;
use crate::coach::check::{CheckState, CheckView, FindingRow, LearnRow};
use crate::trainer::coverage::one_in;

/// Over how many frames a finished check is scrolled into view.
const SCROLL_FRAMES: u8 = 5;

/// How many findings the tab lists.
const SHOWN: usize = 12;

/// The check's section of the Coverage tab.
pub(super) fn check_panel_ui(
    ui: &mut Ui,
    state: &CheckState,
    settled: bool,
    orientation: Orientation,
    commands: &mut Vec<Command>,
) {
    let heading = ui.strong("Is it sound?");
    // A finished check is scrolled into view, when the coverage above it is laid out
    // (`settled`): over a few frames, as the scroll area learns how far it can scroll.
    let frames = egui::Id::unique("hastings_check_result_scrolls");
    let done = ui.memory(|m| m.data.get_temp::<u8>(frames).unwrap_or(0));
    // (Not a report kept from an earlier run: the tab opens at its top then.)
    let fresh = state.result().is_some() && state.restored().is_none();
    if settled && fresh && done < SCROLL_FRAMES {
        heading
            .scroll_to_me_animation(Some(egui::Align::Min), egui::style::ScrollAnimation::none());
        ui.memory_mut(|m| m.data.insert_temp(frames, done + 1));
        ui.ctx().request_repaint();
    }
    match state.progress() {
        Some(snapshot) => {
            ui.horizontal(|ui| {
                ui.add(
                    egui::ProgressBar::new(snapshot.fraction())
                        .text(format!(
                            "checking {} of {} positions",
                            count(snapshot.done),
                            count(snapshot.total)
                        ))
                        .desired_width(ui.available_width() - 70.0),
                );
                if ui.button("Stop").clicked() {
                    commands.push(Command::CancelCheck);
                }
            });
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
        None => {
            if ui
                .button("Check with an engine")
                .on_hover_text(
                    "Every position of your repertoire analysed by Stockfish (or the built-in \
                     engine); analyses are kept, so a second check only looks at new positions",
                )
                .clicked()
            {
                commands.push(Command::CheckRepertoire);
            }
        }
    }
    if let (Some(when), Some(Ok(_))) = (state.restored(), state.result()) {
        ui.label(RichText::new(format!("Your last check ({when}):")).small())
            .on_hover_text(
                "Kept from an earlier session; check again after changing your repertoire",
            );
    }
    match state.result() {
        Some(Ok(view)) => view_ui(ui, view, orientation, commands),
        Some(Err(why)) => {
            ui.label(RichText::new(why.to_string()).italics());
        }
        None => {}
    }
}

fn view_ui(ui: &mut Ui, view: &CheckView, orientation: Orientation, commands: &mut Vec<Command>) {
    let stopped = if view.cancelled { " (stopped)" } else { "" };
    ui.label(
        RichText::new(format!(
            "{}: {} positions analysed, {} kept from before{stopped}",
            view.engine,
            count(view.analysed as u64),
            count(view.cached as u64)
        ))
        .small(),
    );
    for w in &view.warnings {
        ui.label(RichText::new(w).small().italics());
    }
    if let Some((minimax, expected)) = view.values {
        ui.add(
            egui::Label::new(format!(
                "Value for you: {:+.2} on average in drills, {:+.2} if the opponent always \
                 finds the best book reply",
                expected / 100.0,
                f64::from(minimax) / 100.0
            ))
            .wrap(),
        );
    }
    if view.blunders.is_empty() {
        ui.label("No move of yours loses a pawn or more.");
    } else {
        ui.label(format!(
            "Your moves that lose ({}), most likely first:",
            view.blunders.len()
        ));
        for (i, f) in view.blunders.iter().take(SHOWN).enumerate() {
            finding_ui(ui, i, f, orientation, commands);
        }
    }
    if !view.learn_next.is_empty() {
        ui.label("Learn next, where it pays most:").on_hover_text(
            "Ranked by how often you meet the position, how likely you have forgotten your \
             move there (your reviews), and what the line is worth (the engine's score after \
             your move, at least a pawn)",
        );
        for (i, l) in view.learn_next.iter().enumerate() {
            learn_ui(ui, i, l, orientation, commands);
        }
    }
    if !view.bad_ends.is_empty() {
        ui.label("Lines that end badly for you:");
        for (moves, score) in &view.bad_ends {
            ui.add(egui::Label::new(RichText::new(format!("{score}  {moves}")).small()).wrap());
        }
    }
}

fn learn_ui(
    ui: &mut Ui,
    i: usize,
    l: &LearnRow,
    orientation: Orientation,
    commands: &mut Vec<Command>,
) {
    ui.push_id(("learn-next", i), |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(&l.text).on_hover_ui(|ui| {
                let view = BoardView {
                    interactive: false,
                    ..BoardView::new(&l.position)
                };
                ui.allocate_ui(egui::vec2(176.0, 176.0), |ui| {
                    board_ui(ui, &view, orientation);
                });
            });
            ui.label(
                RichText::new(format!(
                    "1 in {} games, recall {:.0}%, worth {:.1}",
                    count(one_in(l.reach)),
                    l.recall * 100.0,
                    l.stake
                ))
                .small(),
            );
            if ui
                .small_button("Drill this")
                .on_hover_text("Start a drill at this position, on your repertoire")
                .clicked()
            {
                commands.push(Command::DrillAt(l.moves.clone(), DrillBook::Repertoire));
            }
        });
    });
}

fn finding_ui(
    ui: &mut Ui,
    i: usize,
    f: &FindingRow,
    orientation: Orientation,
    commands: &mut Vec<Command>,
) {
    ui.push_id(("check-finding", i), |ui| {
        let often = if f.reach > 0.0 {
            format!("1 in {} games: ", count(one_in(f.reach)))
        } else {
            String::new()
        };
        ui.add(egui::Label::new(format!("{often}{}", f.text)).wrap())
            .on_hover_ui(|ui| {
                let view = BoardView {
                    interactive: false,
                    ..BoardView::new(&f.position)
                };
                ui.allocate_ui(egui::vec2(176.0, 176.0), |ui| {
                    board_ui(ui, &view, orientation);
                });
            });
        let better = f.best.as_deref().unwrap_or("?");
        ui.add(
            egui::Label::new(
                RichText::new(format!(
                    "{} after {better}, {} after yours. Then {}",
                    f.scores.0, f.scores.1, f.refutation
                ))
                .small(),
            )
            .wrap(),
        );
        if !f.moves.is_empty()
            && ui
                .small_button("Drill this")
                .on_hover_text("Start a drill at this position, on your repertoire")
                .clicked()
        {
            commands.push(Command::DrillAt(f.moves.clone(), DrillBook::Repertoire));
        }
    });
    ui.add_space(2.0);
}
