//! Play-on's engine settings: the opponent in a club player's words ("Stockfish at about
//! 1500", "Human-like (trained on master games)", the built-in engine), its strength and
//! the time per move; under an "Advanced" fold that remembers being open, the other
//! engines (the search algorithms, another UCI program) and their settings (λ, the
//! search's depth). The exact terms are in the hover texts. A changed copy of the
//! settings becomes a command.

use eframe::egui;
use egui::Ui;

use super::command::Command;
use crate::coach::play_on::{EngineKind, PlayOnCommand, PlayOnSettings};
use crate::engine::discover;

/// The egui temporary-data key that opens "Engine settings" at the next frame (the
/// screenshot of play-on with its settings open: `hastings --screenshot --tab
/// play-on-settings`).
pub(super) const OPEN_SETTINGS: &str = "play_on_open_engine_settings";

/// The egui name of play-on's Advanced fold.
const ADVANCED: &str = "play_on_advanced";

/// A slider that keeps to the panel's width: its name on a line of its own, the slider
/// as wide as the value beside it leaves (a slider with its name beside it is wider
/// than the panel at 800×600, and pushes the panel's texts out of the window).
fn fitted_slider(ui: &mut Ui, name: &str, slider: egui::Slider<'_>) -> egui::Response {
    let label = ui.label(name);
    ui.scope(|ui| {
        ui.spacing_mut().slider_width = (ui.available_width() - 80.0).max(40.0);
        ui.add(slider)
    })
    .inner
    .labelled_by(label.id)
}

/// A menu of engines as wide as the panel, its name above it; a long name is cut in the
/// box (whole in the menu). Each entry's hover says what the engine is.
fn engine_menu(
    ui: &mut Ui,
    name: &str,
    salt: &str,
    s: &mut PlayOnSettings,
    kinds: &[EngineKind],
) -> egui::Response {
    let label = ui.label(name);
    let shown = s.clone();
    egui::ComboBox::from_id_salt(salt)
        .width(ui.available_width())
        .truncate()
        .selected_text(shown.summary())
        .show_ui(ui, |ui| {
            for &kind in kinds {
                let entry = PlayOnSettings {
                    engine: kind,
                    ..shown.clone()
                };
                ui.selectable_value(&mut s.engine, kind, entry.summary())
                    .on_hover_text(kind.exact());
            }
        })
        .response
        .labelled_by(label.id)
        .on_hover_text(shown.engine.exact())
}

/// The engine settings under their fold ("Engine settings", closed at first; opened at
/// the next frame when [`OPEN_SETTINGS`] is set), then the best
/// move arrow. Every line keeps to the panel's width.
pub(super) fn settings_ui(ui: &mut Ui, current: &PlayOnSettings, commands: &mut Vec<Command>) {
    let mut s = current.clone();
    let mut path_done = false;
    let open_id = egui::Id::unique(OPEN_SETTINGS);
    let open_now = ui.data_mut(|d| d.remove_temp::<bool>(open_id));
    egui::CollapsingHeader::new("Engine settings")
        .default_open(false)
        .open(open_now)
        .show(ui, |ui| {
            engine_menu(
                ui,
                "Engine",
                "play_on_engine",
                &mut s,
                &EngineKind::ORDINARY,
            );
            if !s.engine.is_ordinary() {
                ui.add(
                    egui::Label::new(format!("{}: chosen under Advanced.", s.engine.text())).wrap(),
                );
            }
            about_ui(ui, &s);
            strength_ui(ui, &mut s);
            fitted_slider(
                ui,
                "Time per move",
                egui::Slider::new(&mut s.movetime_ms, 50..=10_000)
                    .logarithmic(true)
                    .suffix(" ms"),
            );
            super::folding::advanced_fold_ui(ui, ADVANCED, |ui| {
                path_done = advanced_ui(ui, &mut s);
            });
        });
    ui.checkbox(&mut s.best_move_arrow, "Best move arrow")
        .on_hover_text("Show the engine's best move for you as an arrow");
    // A path is taken when its field is left, not at every key.
    let path_pending = s.path != current.path && !path_done;
    if s != *current && !path_pending {
        commands.push(Command::PlayOn(PlayOnCommand::Settings(s)));
    }
}

/// A line on the engine chosen: where Stockfish was found, what the human-like engine
/// plays.
fn about_ui(ui: &mut Ui, s: &PlayOnSettings) {
    let text = match s.engine {
        EngineKind::Stockfish => match discover::stockfish() {
            Some(p) => format!("Found at {}", p.display()),
            None => "Not found: install it (apt-get install stockfish) or choose its program \
                     under Advanced, \"Other UCI engine\""
                .to_owned(),
        },
        EngineKind::Human => "Plays what strong players play here; the eval bar comes from \
                              the built-in engine."
            .to_owned(),
        EngineKind::Blend => "A search tuned on games, overruled by the human-like engine's \
                              move as much as Advanced says; the eval bar comes from the \
                              built-in engine."
            .to_owned(),
        EngineKind::AlphaBeta | EngineKind::Mcts | EngineKind::Path => return,
    };
    ui.add(egui::Label::new(text).wrap());
}

/// The engine's strength in words: a rating or a level for the engines that have one,
/// how surprising the human-like engine is.
fn strength_ui(ui: &mut Ui, s: &mut PlayOnSettings) {
    let uci = matches!(s.engine, EngineKind::Stockfish | EngineKind::Path);
    if uci {
        ui.checkbox(&mut s.use_elo, "Play at a rating (Elo)")
            .on_hover_text(
                "Limit by Elo (UCI_Elo, UCI_LimitStrength): the engine limits its strength \
                 to this rating",
            );
    }
    match s.engine {
        EngineKind::Mcts => {
            ui.add(egui::Label::new("This engine has no strength setting.").wrap())
                .on_hover_text("Monte Carlo tree search (MCTS): it plays at full strength");
        }
        EngineKind::Human => {
            fitted_slider(
                ui,
                "How surprising",
                egui::Slider::new(&mut s.temperature, 0.0..=2.0),
            )
            .on_hover_text(
                "Temperature — 0: always the most likely move; 1: each move as often as \
                 strong players play it; higher: more surprising moves",
            );
        }
        EngineKind::Blend => {}
        _ if uci && s.use_elo => {
            fitted_slider(ui, "Rating", egui::Slider::new(&mut s.elo, 1350..=2850))
                .on_hover_text("UCI_Elo: Stockfish plays from 1350 to 2850");
        }
        _ => {
            fitted_slider(ui, "Skill level", egui::Slider::new(&mut s.skill, 0..=20))
                .on_hover_text("Skill Level: 0 is the weakest, 20 full strength");
        }
    }
}

/// Under "Advanced": every engine (the search algorithms named in the hovers), the
/// program of another UCI engine, the blend's λ and depth. Whether the program's field
/// was left (its path is taken then).
fn advanced_ui(ui: &mut Ui, s: &mut PlayOnSettings) -> bool {
    engine_menu(
        ui,
        "All engines",
        "play_on_all_engines",
        s,
        &EngineKind::ALL,
    );
    let mut path_done = false;
    match s.engine {
        EngineKind::Path => {
            let label = ui.label("Program");
            let r = ui
                .add(
                    egui::TextEdit::singleline(&mut s.path)
                        .hint_text("/path/to/engine")
                        .desired_width(ui.available_width()),
                )
                .labelled_by(label.id);
            path_done = r.lost_focus();
        }
        EngineKind::Blend => {
            fitted_slider(
                ui,
                "How human-like",
                egui::Slider::new(&mut s.lambda, 0.0..=1.0),
            )
            .on_hover_text(
                "λ — 0: the tuned evaluation alone; 1: the predictor's move unless the \
                 evaluation sees it lose more than a queen",
            );
            fitted_slider(
                ui,
                "Search depth (half-moves)",
                egui::Slider::new(&mut s.blend_depth, 1..=6),
            )
            .on_hover_text("Depth: how many half-moves (plies) the search looks ahead");
        }
        _ => {
            ui.add(
                egui::Label::new(
                    "Other engines: the built-in tree search, the tuned engine blended with \
                     the human-like one, or another UCI program.",
                )
                .wrap(),
            );
        }
    }
    path_done
}
