//! "Mistakes only" with nothing to go over in the book drilled now while the progress
//! records mistakes elsewhere: the drill panel says how many missed positions are not in
//! that book, lists the first ones, and offers to go over them (as the other colour, or
//! with the theory book) ([`crate::coach::review::elsewhere`]).

use eframe::egui;
use egui::{RichText, Ui};
use shakmaty::{Chess, Position};

use super::command::Command;
use super::format::count;
use crate::coach::coverage::CoverageCommand;
use crate::coach::format::numbered_line;
use crate::coach::review::elsewhere::{ELSEWHERE_SHOWN, MissedAt, MissedElsewhere};

/// The panel's words and buttons; `theory_offered`: whether the theory book can be
/// drilled instead (a repertoire is drilled, not the theory already).
pub(super) fn mistakes_elsewhere_ui(
    ui: &mut Ui,
    elsewhere: &MissedElsewhere,
    theory_offered: bool,
    commands: &mut Vec<Command>,
) {
    ui.label(RichText::new("No mistakes to go over in the book you drill now.").strong());
    let n = elsewhere.positions.len();
    let positions = if n == 1 {
        "missed position is"
    } else {
        "missed positions are"
    };
    ui.add(
        egui::Label::new(format!(
            "{} {positions} not in the book you drill now:",
            count(n)
        ))
        .wrap(),
    );
    for p in elsewhere.positions.iter().take(ELSEWHERE_SHOWN) {
        let text = position_text(p.moves.as_deref(), &p.position, p.mistakes);
        ui.add(egui::Label::new(text).wrap());
    }
    if n > ELSEWHERE_SHOWN {
        ui.label(format!("and {} more", count(n - ELSEWHERE_SHOWN)));
    }
    if let Some(color) = elsewhere.other_side() {
        let side = if color.is_white() { "White" } else { "Black" };
        let k = elsewhere.count(&MissedAt::OtherSide);
        if ui
            .button(format!(
                "Go over {} as {side}",
                if k == 1 { "it" } else { "them" }
            ))
            .on_hover_text(format!(
                "Play {side}: Mistakes only then asks the {} you missed as {side}",
                if k == 1 {
                    "position".to_owned()
                } else {
                    format!("{} positions", count(k))
                }
            ))
            .clicked()
        {
            commands.push(Command::SetLearner(color));
        }
    }
    let in_theory = elsewhere.count(&MissedAt::Theory);
    if theory_offered
        && in_theory > 0
        && ui
            .button(format!(
                "Go over {} with the ECO book",
                if in_theory == 1 { "it" } else { "them" }
            ))
            .on_hover_text(
                "Drill the ECO book (the theory) instead of your repertoire while you go over \
                 your mistakes; \"Back to my repertoire\" in the Coverage tab returns",
            )
            .clicked()
    {
        commands.push(Command::Coverage(CoverageCommand::MistakesWithTheory));
    }
    let nowhere = elsewhere.count(&MissedAt::Nowhere);
    if nowhere > 0 {
        ui.add(
            egui::Label::new(
                RichText::new(format!(
                    "{} {} in no book you drill now: tick the source you drilled {} with in \
                     the Book tab.",
                    count(nowhere),
                    if nowhere == 1 { "is" } else { "are" },
                    if nowhere == 1 { "it" } else { "them" },
                ))
                .small()
                .weak(),
            )
            .wrap(),
        );
    }
}

/// `"1.d4 d5 2.c4 (2 mistakes)"`; the side to move and the board's FEN when the way
/// there is not known.
fn position_text(moves: Option<&[shakmaty::Move]>, position: &Chess, mistakes: u32) -> String {
    let way = match moves {
        Some(moves) => {
            let sans = crate::book::line::sans_of(&Chess::default(), moves);
            numbered_line(&sans)
        }
        None => format!(
            "{} to move, {}",
            if position.turn().is_white() {
                "White"
            } else {
                "Black"
            },
            shakmaty::fen::Fen::from_position(position, shakmaty::EnPassantMode::Legal)
        ),
    };
    let plural = if mistakes == 1 { "" } else { "s" };
    format!("{way} ({mistakes} mistake{plural})")
}
