//! Sparring at a rating in the play-on panel: the switch, the band and speed (or "like
//! my opponent"), `K`, the fit's state, and where the computer's last move came from.
//! Drawing only: a changed copy of the settings is a [`PlayOnCommand::Settings`].

use eframe::egui;
use egui::{RichText, Ui};

use super::command::Command;
use crate::book::explorer::{BAND_BOUNDS, RatingBand, Speed};
use crate::coach::Coach;
use crate::coach::play_on::PlayOnCommand;
use crate::trainer::spar::{band_range, possessive};

/// The speeds offered (a game of unknown speed is nobody's sparring partner).
const SPEEDS: [Speed; 5] = [
    Speed::Bullet,
    Speed::Blitz,
    Speed::Rapid,
    Speed::Classical,
    Speed::Correspondence,
];

/// The sparring settings and state; every line keeps to the panel's width.
pub(super) fn spar_ui(ui: &mut Ui, coach: &Coach, commands: &mut Vec<Command>) {
    let current = &coach.settings().play_on;
    let mut s = current.clone();
    let state = &coach.play_on().spar;
    ui.checkbox(&mut s.spar.on, "Spar at a rating")
        .on_hover_text(
            "Past the book, the computer plays the explorer's games of a rating band (each \
             move as often as they played it) while enough games reach the position, then \
             the human-like model, its temperature fitted to that band's games",
        );
    if s.spar.on {
        let player = state.player();
        if let Some(player) = player {
            ui.checkbox(
                &mut s.spar.like_opponent,
                format!("Like my opponent ({player})"),
            )
            .on_hover_text("Play the games of the player the Explorer tab shows");
        }
        if !(s.spar.like_opponent && player.is_some()) {
            band_and_speed_ui(ui, &mut s.spar.band, &mut s.spar.speed);
        }
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Games needed");
            ui.add(egui::DragValue::new(&mut s.spar.min_games).range(1..=1000))
                .labelled_by(label.id)
                .on_hover_text("K: below this many games at a position, the model plays");
        });
        status_ui(ui, coach, &s.spar);
    }
    if s != *current {
        commands.push(Command::PlayOn(PlayOnCommand::Settings(s)));
    }
}

/// The band and speed menus, each as wide as the panel.
fn band_and_speed_ui(ui: &mut Ui, band: &mut u16, speed: &mut String) {
    let text = |b: u16| RatingBand::from_bound(b).map_or_else(|| b.to_string(), band_range);
    let label = ui.label("Rating band");
    egui::ComboBox::from_id_salt("spar_band")
        .width(ui.available_width())
        .selected_text(text(*band))
        .show_ui(ui, |ui| {
            for b in BAND_BOUNDS {
                ui.selectable_value(band, b, text(b));
            }
        })
        .response
        .labelled_by(label.id);
    let label = ui.label("Speed");
    let shown = if speed.is_empty() {
        "Every speed"
    } else {
        speed.as_str()
    };
    egui::ComboBox::from_id_salt("spar_speed")
        .width(ui.available_width())
        .selected_text(shown.to_owned())
        .show_ui(ui, |ui| {
            ui.selectable_value(speed, String::new(), "Every speed");
            for s in SPEEDS {
                ui.selectable_value(speed, s.name().to_owned(), s.name());
            }
        })
        .response
        .labelled_by(label.id);
}

/// The explorer, the fit, and where the computer's last move came from.
fn status_ui(ui: &mut Ui, coach: &Coach, settings: &crate::coach::play_on::SparSettings) {
    let state = &coach.play_on().spar;
    let wrap = |ui: &mut Ui, text: String| {
        ui.add(egui::Label::new(text).wrap());
    };
    let Some(target) = state.target(settings) else {
        wrap(
            ui,
            "Open an explorer index in the Explorer tab to spar.".to_owned(),
        );
        return;
    };
    if let Some(whose) = state.fitting() {
        ui.horizontal_wrapped(|ui| {
            ui.spinner();
            let whose = possessive(whose);
            ui.add(egui::Label::new(format!("Fitting the model to {whose} games…")).wrap());
        });
    } else if let Some(fit) = state.fit(&target) {
        wrap(
            ui,
            format!(
                "The model's temperature for {}: {:.2} (top choice {:.0}% of their moves).",
                target.whose,
                fit.temperature,
                100.0 * fit.top_choice
            ),
        );
    } else if let Some(message) = state.message() {
        wrap(ui, message.to_owned());
    }
    let Some(run) = coach.play_on().run.as_ref() else {
        return;
    };
    let (Some(spar), Some((ply, source))) = (run.spar(), run.sources().last()) else {
        return;
    };
    if let Some(m) = run.game().moves().get(*ply) {
        ui.label(RichText::new(format!("{}: {}", m.san, source.describe(spar.whose()))).italics());
    }
}
