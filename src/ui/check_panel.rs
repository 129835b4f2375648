//! "Is it sound?" in the Coverage tab: check the repertoire with an engine (a job with
//! progress and cancel), then the learner's moves that lose (each with the better move,
//! how it is punished, a board preview and "Drill this"), which line to learn next, the
//! lines that end badly, and the repertoire's value ([`crate::coach::check`]).

use eframe::egui;
use egui::{RichText, Ui};

use super::board::{BoardView, Orientation, board_ui};
use super::command::{Command, DrillBook};
use super::format::count;
use crate::coach::check::{CheckState, CheckView, FindingRow, LearnRow, words};
use crate::coach::coverage::CoverageCommand;

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
            progress_ui(
                ui,
                snapshot.done,
                snapshot.total,
                snapshot.fraction(),
                commands,
            );
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

/// A running check: how far it is, and Stop. The count is on a line of its own, so that
/// a narrow panel wraps it (inside the bar it was cut: "checking 11 of 260 position").
fn progress_ui(ui: &mut Ui, done: u64, total: u64, fraction: f32, commands: &mut Vec<Command>) {
    ui.add(egui::Label::new(progress_text(done, total)).wrap());
    ui.horizontal(|ui| {
        ui.add(
            egui::ProgressBar::new(fraction)
                .show_percentage()
                .desired_width((ui.available_width() - 70.0).max(40.0)),
        );
        if ui.button("Stop").clicked() {
            commands.push(Command::CancelCheck);
        }
    });
}

/// `"Checking 11 of 260 positions"` (`"1 position"` for one).
pub(super) fn progress_text(done: u64, total: u64) -> String {
    let noun = if total == 1 { "position" } else { "positions" };
    format!("Checking {} of {} {noun}", count(done), count(total))
}

fn view_ui(ui: &mut Ui, view: &CheckView, orientation: Orientation, commands: &mut Vec<Command>) {
    let stopped = if view.cancelled { " (stopped)" } else { "" };
    ui.add(
        egui::Label::new(
            RichText::new(format!(
                "{}: {} positions analysed, {} kept from before{stopped}",
                view.engine,
                count(view.analysed as u64),
                count(view.cached as u64)
            ))
            .weak(),
        )
        .wrap(),
    );
    for w in &view.warnings {
        ui.add(egui::Label::new(RichText::new(w).italics()).wrap());
    }
    if let Some((minimax, expected)) = view.values {
        ui.add(egui::Label::new(words::value_words(minimax, expected)).wrap())
            .on_hover_text(words::value_terms(minimax, expected));
    }
    if view.blunders.is_empty() {
        ui.label("No move of yours loses a pawn or more.");
    } else {
        ui.add(
            egui::Label::new(format!(
                "Your moves that lose a pawn or more ({}), the most often met first:",
                view.blunders.len()
            ))
            .wrap(),
        );
        for (i, f) in view.blunders.iter().take(SHOWN).enumerate() {
            finding_ui(ui, i, f, orientation, commands);
        }
    }
    if !view.learn_next.is_empty() {
        ui.add(egui::Label::new("Learn next, where it pays most:").wrap())
            .on_hover_text(
                "Ranked by how often you meet the position, how likely you have forgotten \
                 your move there (your reviews), and what the line is worth (the engine's \
                 score after your move, at least a pawn)",
            );
        for (i, l) in view.learn_next.iter().enumerate() {
            learn_ui(ui, i, l, orientation, commands);
        }
    }
    if !view.bad_ends.is_empty() {
        ui.add(
            egui::Label::new("Lines that end badly for you (in pawns, + is good for you):").wrap(),
        );
        for (moves, score) in &view.bad_ends {
            ui.add(egui::Label::new(format!("{score}  {moves}")).wrap());
        }
    }
}

/// The position's board, for a hover.
fn preview_ui(ui: &mut Ui, position: &shakmaty::Chess, orientation: Orientation) {
    let view = BoardView {
        interactive: false,
        ..BoardView::new(position)
    };
    ui.allocate_ui(egui::vec2(176.0, 176.0), |ui| {
        board_ui(ui, &view, orientation);
    });
}

fn learn_ui(
    ui: &mut Ui,
    i: usize,
    l: &LearnRow,
    orientation: Orientation,
    commands: &mut Vec<Command>,
) {
    ui.push_id(("learn-next", i), |ui| {
        ui.add(egui::Label::new(&l.text).wrap())
            .on_hover_ui(|ui| preview_ui(ui, &l.position, orientation));
        ui.horizontal_wrapped(|ui| {
            ui.add(
                egui::Label::new(
                    RichText::new(words::learn_words(l.reach, l.recall, l.stake)).weak(),
                )
                .wrap(),
            )
            .on_hover_text(words::learn_terms(l.reach, l.recall, l.stake));
            if ui
                .small_button("Drill this")
                .on_hover_text("Start a drill at this position, on your repertoire")
                .clicked()
            {
                commands.push(Command::Coverage(CoverageCommand::DrillAt(
                    l.moves.clone(),
                    DrillBook::Repertoire,
                )));
            }
        });
    });
    ui.add_space(2.0);
}

fn finding_ui(
    ui: &mut Ui,
    i: usize,
    f: &FindingRow,
    orientation: Orientation,
    commands: &mut Vec<Command>,
) {
    ui.push_id(("check-finding", i), |ui| {
        ui.add(egui::Label::new(RichText::new(&f.text).strong()).wrap())
            .on_hover_ui(|ui| preview_ui(ui, &f.position, orientation));
        ui.add(
            egui::Label::new(words::punishment_words(
                f.best.as_deref(),
                &f.scores,
                &f.refutation,
            ))
            .wrap(),
        )
        .on_hover_text(
            "The engine's scores in pawns from your side (+ is good for you): after its best \
             move, after yours; then its best line after your move (the principal variation)",
        );
        ui.horizontal_wrapped(|ui| {
            ui.add(egui::Label::new(RichText::new(words::met_words(f.reach)).weak()).wrap())
                .on_hover_text(format!(
                    "Reach {:.3}: the probability that a drill meets this position",
                    f.reach
                ));
            if !f.moves.is_empty()
                && ui
                    .small_button("Drill this")
                    .on_hover_text("Start a drill at this position, on your repertoire")
                    .clicked()
            {
                commands.push(Command::Coverage(CoverageCommand::DrillAt(
                    f.moves.clone(),
                    DrillBook::Repertoire,
                )));
            }
        });
    });
    ui.add_space(2.0);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // tests may panic

    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable as _;

    use super::*;

    #[test]
    fn the_count_says_position_or_positions() {
        assert_eq!(progress_text(0, 1), "Checking 0 of 1 position");
        assert_eq!(progress_text(11, 260), "Checking 11 of 260 positions");
        assert_eq!(
            progress_text(1_200, 3_400),
            "Checking 1,200 of 3,400 positions"
        );
    }

    /// Issue 41: "checking 11 of 260 position" was cut inside the bar of the side panel
    /// at 800×600 (164 points of content); the count is whole inside it now.
    #[test]
    fn the_count_is_whole_inside_the_side_panels_width() {
        const WIDTH: f32 = 164.0;
        let mut harness = Harness::new_ui(|ui| {
            ui.set_max_width(WIDTH);
            progress_ui(ui, 11, 260, 11.0 / 260.0, &mut Vec::new());
        });
        harness.run();
        let text = harness.get_by_value("Checking 11 of 260 positions").rect();
        let stop = harness.get_by_label("Stop").rect();
        let left = text.min.x;
        for r in [text, stop] {
            assert!(
                r.max.x <= left + WIDTH + 0.5,
                "{r:?} past {WIDTH} from {left}"
            );
        }
    }
}
