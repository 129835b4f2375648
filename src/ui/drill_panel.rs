//! The drill panel on the right: the opening's name and transpositions, what happened
//! (the computer's reply and why, a wrong move with the engine's verdict and the book
//! moves, the end of the line), the repertoire's comments, the move box, and the moves played with buttons
//! to step through them.
//!
//! The panel keeps its width: long texts wrap, line names are shortened to what tells
//! them apart (whole on hover), and long lists scroll.

use eframe::egui;
use egui::{Color32, RichText, Ui};
use shakmaty::{Color, Position as _};

use super::command::{Action, ActionUi, Command};
use crate::book::MoveAnnotation;
use crate::book::annotation::{annotation_text, move_annotation};
use crate::coach::Coach;
use crate::coach::book::REPERTOIRE_ALONE;
use crate::coach::book::empty::{EmptyBook, without_filter};
use crate::coach::format::{moves_count, numbered, short_line_names};
use crate::sampler::CandidateKind;
use crate::trainer::{BookMove, Phase, Session};

/// The drill panel.
pub(super) fn drill_panel_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    if coach.play_on().is_active() {
        return super::play_on_panel::play_on_panel_ui(ui, coach, commands);
    }
    ui.add_space(4.0);
    super::review_panel::review_drill_ui(ui, coach, commands);
    let title = coach
        .ctx
        .session
        .heading()
        .unwrap_or_else(|| "Starting position".to_owned());
    ui.add(egui::Label::new(RichText::new(title).heading()).wrap());
    if let Some(a) = coach.ctx.session.announcement() {
        ui.add(
            egui::Label::new(
                RichText::new(format!("Transposed to {a}"))
                    .color(Color32::from_rgb(0x2a, 0x7a, 0xc0)),
            )
            .wrap(),
        );
    }
    // (Not while the theory book is drilled instead: a gap, or the mistakes not in it.)
    if coach.is_repertoire() && !coach.coverage().is_drilling_theory() {
        ui.add(egui::Label::new(RichText::new(REPERTOIRE_ALONE).small().weak()).wrap());
    }
    ui.separator();
    feedback_ui(ui, coach, commands);
    ui.add_space(4.0);
    super::move_box::move_box_ui(ui, coach, commands);
    ui.separator();
    move_list_ui(ui, coach, commands);
}

fn feedback_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    let session = &coach.ctx.session;
    let learner = match session.learner() {
        Color::White => "White",
        Color::Black => "Black",
    };
    if let Some(ply) = session.viewing() {
        let after = match ply.checked_sub(1).and_then(|i| session.moves().get(i)) {
            Some(m) => {
                let before = session.position_at(ply - 1);
                format!(
                    "the position after {}",
                    numbered(before.fullmoves().get(), before.turn(), &m.san)
                )
            }
            None => "the starting position".to_owned(),
        };
        ui.label(RichText::new(format!("Viewing {after} (read-only)")).strong());
        ui.horizontal_wrapped(|ui| {
            Action::ContinueFromHere.button_ui(ui, true, commands);
            Action::NewLineFromHere.button_ui(ui, true, commands);
            Action::PlayOn.button_ui(ui, true, commands);
            if ui
                .button("Back to the game")
                .on_hover_text("Show the current position again")
                .clicked()
            {
                commands.push(Command::ShowCurrent);
            }
        });
        return;
    }
    match session.phase() {
        Phase::LearnerToMove => {
            ui.label(RichText::new(format!("Your move ({learner})")).strong());
            if let Some(reply) = &coach.ctx.last_reply
                && reply.candidate.kind == CandidateKind::Predicted
            {
                let c = &reply.candidate;
                ui.add(
                    egui::Label::new(format!(
                        "Past the book: the computer played {}, as {:.0}% of strong players \
                         would here.",
                        reply.san,
                        c.share * 100.0,
                    ))
                    .wrap(),
                );
            } else if let Some(reply) = &coach.ctx.last_reply {
                let c = &reply.candidate;
                ui.add(
                    egui::Label::new(format!(
                        "The computer played {}: it plays this {:.0}% of the time here.",
                        reply.san,
                        c.p * 100.0,
                    ))
                    .wrap(),
                )
                .on_hover_text(format!(
                    "P {:.1}%: share of the book {:.1}%, style bonus {:.2}{}",
                    c.p * 100.0,
                    c.share * 100.0,
                    c.bonus,
                    if c.review > 0.0 {
                        format!(", review term {:.2}", c.review)
                    } else {
                        String::new()
                    }
                ));
            }
            ui.horizontal_wrapped(|ui| {
                Action::Hint.button_ui(ui, true, commands);
                Action::ShowMe.button_ui(ui, true, commands);
                Action::PlayOn.button_ui(ui, true, commands);
            });
        }
        // "Quiz the replies I cover": the question is asked below.
        Phase::ComputerToMove if session.asks_replies() => {}
        Phase::ComputerToMove => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("The computer is thinking…");
            });
        }
        Phase::OutOfBook {
            san,
            book_moves,
            attempted,
        } => {
            ui.label(
                RichText::new(format!("{san} is not in the book."))
                    .strong()
                    .color(ui.visuals().error_fg_color),
            );
            super::verdict_panel::verdict_ui(ui, coach, commands);
            ui.label(format!(
                "Mistakes in this line: {}",
                session.mistakes_in_line()
            ));
            ui.horizontal_wrapped(|ui| {
                Action::TryAgain.button_ui(ui, true, commands);
                Action::ShowMe.button_ui(ui, true, commands);
            });
            ui.label("Book moves here:");
            book_moves_ui(ui, session, book_moves);
            // Last, so that its coming (from a background thread) moves no button.
            if let Some(sentence) = coach
                .predictor()
                .human_moves()
                .and_then(|moves| crate::coach::predictor::played_move_sentence(moves, *attempted))
            {
                ui.add(egui::Label::new(RichText::new(sentence).weak()).wrap());
            }
        }
        Phase::EndOfLine { .. } if coach.empty_book().is_some() => {
            empty_book_ui(ui, coach, commands);
        }
        Phase::EndOfLine {
            title,
            plies,
            mistakes,
        } => {
            let title = title.clone().unwrap_or_else(|| "unnamed line".to_owned());
            ui.add(
                egui::Label::new(
                    RichText::new(format!("End of line: {title} ({})", moves_count(*plies)))
                        .strong(),
                )
                .wrap(),
            );
            ui.label(format!("Mistakes in this line: {mistakes}"));
            ui.horizontal_wrapped(|ui| {
                Action::NextLine.button_ui(ui, true, commands);
                if ui
                    .button(RichText::new("Play on").strong())
                    .on_hover_text(Action::PlayOn.tooltip_with_shortcut(ui.ctx()))
                    .clicked()
                {
                    commands.push(Command::Action(Action::PlayOn));
                }
            });
        }
    }
    if let Some((san, a)) = last_move_annotation(session) {
        ui.add(egui::Label::new(RichText::new(annotation_text(&san, a)).italics()).wrap());
    }
    if let Some(note) = session.theory_note() {
        ui.add(
            egui::Label::new(RichText::new(note).color(Color32::from_rgb(0x2a, 0x7a, 0xc0))).wrap(),
        );
    }
    if let Some((all, left)) = session.replies_here().filter(|_| session.asks_replies()) {
        let side = match session.position().turn() {
            Color::White => "White",
            Color::Black => "Black",
        };
        ui.label(
            RichText::new(format!(
                "What can {side} play here that your repertoire answers? ({} of {all} named)",
                all - left
            ))
            .strong(),
        );
    }
    if let Some(note) = session.rank_note() {
        ui.add(
            egui::Label::new(RichText::new(note).color(Color32::from_rgb(0x2a, 0x7a, 0xc0))).wrap(),
        );
    }
    if let Some(message) = &coach.ctx.message {
        ui.add(egui::Label::new(message.as_str()).wrap());
    }
}

/// An empty book: why, with "Clear the filter" when a filter empties it; Next line and
/// Play on are there but disabled, their hover text saying why.
fn empty_book_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    let Some(empty) = coach.empty_book() else {
        return;
    };
    ui.add(
        egui::Label::new(
            RichText::new(empty.sentence())
                .strong()
                .color(ui.visuals().warn_fg_color),
        )
        .wrap(),
    );
    ui.horizontal_wrapped(|ui| {
        if matches!(empty, EmptyBook::Filtered { .. })
            && ui
                .button("Clear the filter")
                .on_hover_text("Drill every line of the sources ticked in the Book tab")
                .clicked()
        {
            let choice = without_filter(coach.workspace().choice());
            commands.push(Command::SetBook(choice));
        }
        for action in [Action::NextLine, Action::PlayOn] {
            ui.add_enabled(false, egui::Button::new(action.text()))
                .on_disabled_hover_text(empty.why_disabled());
        }
    });
}

/// The book moves after a wrong move: SAN, P and the line each leads to (its variation
/// where the position's name gives the family, wrapped to the panel; the whole name on
/// hover), with the repertoire's comment; the list scrolls.
fn book_moves_ui(ui: &mut Ui, session: &Session, book_moves: &[BookMove]) {
    let position = session.position();
    let titles: Vec<Option<&str>> = book_moves.iter().map(|b| b.leads_to.as_deref()).collect();
    let names = short_line_names(session.heading().as_deref(), &titles);
    egui::ScrollArea::vertical()
        .id_salt("book_moves")
        .max_height((ui.available_height() * 0.6).max(80.0))
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for (b, shown) in book_moves.iter().zip(&names) {
                // Top-aligned: the SAN beside the first line of a name that wraps.
                ui.horizontal_top(|ui| {
                    ui.label(RichText::new(&b.san).strong());
                    ui.label(format!("{:.1}%", b.p * 100.0))
                        .on_hover_text(format!(
                            "The computer would play {} {:.1}% of the time here (the chart's \
                         bar): its share of the book is {:.1}%, its style bonus {:.2}",
                            b.san,
                            b.p * 100.0,
                            b.share * 100.0,
                            b.bonus
                        ));
                    if let (Some(name), Some(shown)) = (&b.leads_to, shown) {
                        ui.add(egui::Label::new(shown.as_str()).wrap())
                            .on_hover_text(name.as_str());
                    }
                });
                if let Some(a) = move_annotation(session.graph(), position, b.mv) {
                    ui.add(
                        egui::Label::new(RichText::new(annotation_text(&b.san, a)).italics())
                            .wrap(),
                    );
                }
            }
        });
}

/// The moves played, each a link to its position, under buttons that step through them
/// (also ←, →, Home, End).
fn move_list_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    let session = &coach.ctx.session;
    ui.horizontal(|ui| {
        ui.label(RichText::new("Moves").strong());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.spacing_mut().item_spacing.x = 2.0;
            for (action, icon) in [
                (Action::ToCurrent, "»"),
                (Action::StepForward, "›"),
                (Action::StepBack, "‹"),
                (Action::ToStart, "«"),
            ] {
                action.icon_button_ui(ui, icon, coach.is_enabled(action), commands);
            }
        });
    });
    let moves = session.moves();
    let shown = session.viewing().unwrap_or(moves.len());
    egui::ScrollArea::vertical()
        .id_salt("move_list")
        .auto_shrink([false, true])
        .stick_to_bottom(true)
        .show(ui, |ui| {
            if ui
                .selectable_label(shown == 0, "Start")
                .on_hover_text("Show the starting position")
                .clicked()
            {
                commands.push(Command::ShowPly(0));
            }
            egui::Grid::new("move_list_grid")
                .num_columns(3)
                .min_col_width(24.0)
                .show(ui, |ui| {
                    for (i, pair) in moves.chunks(2).enumerate() {
                        ui.label(format!("{}.", i + 1));
                        for (j, m) in pair.iter().enumerate() {
                            let ply = 2 * i + j + 1;
                            let mut text = RichText::new(&m.san);
                            if m.by_learner {
                                text = text.strong();
                            }
                            let tip = format!(
                                "{} ({})",
                                if m.by_learner {
                                    "your move"
                                } else {
                                    "computer"
                                },
                                match m.kind {
                                    CandidateKind::Book => "book move",
                                    CandidateKind::Transposition => "transposition",
                                    CandidateKind::Predicted => "past the book",
                                }
                            );
                            if ui
                                .selectable_label(shown == ply, text)
                                .on_hover_text(tip)
                                .clicked()
                            {
                                commands.push(if ply == moves.len() {
                                    Command::ShowCurrent
                                } else {
                                    Command::ShowPly(ply)
                                });
                            }
                        }
                        ui.end_row();
                    }
                });
        });
}

/// The annotation of the last move on the board, from the book's lines.
pub(super) fn last_move_annotation(session: &Session) -> Option<(String, &MoveAnnotation)> {
    if session.viewing().is_some() {
        return None;
    }
    let moves = session.moves();
    let last = moves.last()?;
    let before = session.position_at(moves.len() - 1);
    move_annotation(session.graph(), before, last.mv).map(|a| (last.san.clone(), a))
}
