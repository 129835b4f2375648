//! "Which side is this repertoire for?": asked once, when a repertoire file whose
//! chapters have no side tag is loaded. The moves' shape gives the suggestion.

use eframe::egui;
use egui::RichText;

use super::command::Command;
use crate::book::Side;
use crate::workspace::chapters::SideQuestion;
use crate::workspace::file_name;

/// The question, centred over the window until it is answered (Escape: "Both").
pub fn side_question_ui(ctx: &egui::Context, question: &SideQuestion, commands: &mut Vec<Command>) {
    let mut answer = None;
    egui::Window::new("Which side is this repertoire for?")
        .id(egui::Id::unique("side_question"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.set_max_width(420.0);
            let name = file_name(&question.path);
            let chapters = match question.untagged {
                1 => "It does not say".to_owned(),
                n => format!("{n} of its chapters do not say"),
            };
            ui.add(
                egui::Label::new(format!(
                    "{name}: {chapters} whether they are for White or Black. The drill \
                     plays the side you choose, and the computer the other."
                ))
                .wrap(),
            );
            if let Some(side) = question.guess {
                ui.add(
                    egui::Label::new(
                        RichText::new(format!(
                            "Its moves look like a repertoire for {}: {} has one answer \
                             where {} has several.",
                            side.name(),
                            side.name(),
                            side.other().name()
                        ))
                        .italics(),
                    )
                    .wrap(),
                );
            }
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                for side in [Side::White, Side::Black] {
                    let mut text = RichText::new(format!("For {}", side.name()));
                    if question.guess == Some(side) {
                        text = text.strong();
                    }
                    if ui.button(text).clicked() {
                        answer = Some(Some(side));
                    }
                }
                if ui
                    .button("Both / don't know")
                    .on_hover_text(
                        "Every chapter is drilled from the side you play; change it later \
                         in the Book tab",
                    )
                    .clicked()
                {
                    answer = Some(None);
                }
            });
        });
    if answer.is_none() && ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        answer = Some(None);
    }
    if let Some(side) = answer {
        commands.push(Command::RepertoireSide(question.path.clone(), side));
    }
}
