//! The learner's style (seed 001) in the Progress tab: the naive Bayes posterior over
//! attacking, positional and mixed, from the lines drilled in this session and the
//! learner's games among the loaded files.

use std::collections::HashSet;

use eframe::egui;
use egui::{RichText, Ui};

use crate::book::LineSource;
use crate::sampler::fit::names_player;
use crate::trainer::learner_style::{
    Adaptation, Posterior, StyleFeatures, StyleModel, game_features, learner_posterior, line_moves,
};
use crate::workspace::Workspace;

/// What the panel shows, kept between frames.
pub(super) struct LearnerStyleState {
    /// The features of each line the learner drilled to its end in this session.
    pub(super) drilled: Vec<StyleFeatures>,
    /// The features of the learner's games among the loaded files.
    imported: Vec<StyleFeatures>,
    /// What `imported` was computed from: files, lines, the learner's name.
    key: Option<(usize, usize, String)>,
    /// The adaptive opponent's pick for a mixed learner, drawn once per session.
    pub(super) coin: Adaptation,
    model: StyleModel,
}

impl LearnerStyleState {
    /// Empty; `coin` is the pick for a mixed learner.
    pub(super) fn new(coin: Adaptation) -> LearnerStyleState {
        LearnerStyleState {
            drilled: Vec::new(),
            imported: Vec::new(),
            key: None,
            coin,
            model: StyleModel::shipped(),
        }
    }

    /// Recomputes the imported games' features when the files or the name changed.
    pub(super) fn refresh(&mut self, workspace: &Workspace, name: &str) {
        let lines: usize = workspace.files().iter().map(|f| f.lines.len()).sum();
        let key = (workspace.files().len(), lines, name.trim().to_owned());
        if self.key.as_ref() == Some(&key) {
            return;
        }
        self.imported.clear();
        if !key.2.is_empty() {
            let mut seen = HashSet::new();
            for file in workspace.files() {
                for line in file.lines.iter() {
                    // The lines of one game share their tags: the game counts once.
                    if let LineSource::Pgn { game, .. } = line.source
                        && !seen.insert((file.id, game))
                    {
                        continue;
                    }
                    let Some(tags) = &line.tags else { continue };
                    let Some(moves) = line_moves(line) else {
                        continue;
                    };
                    for (color, tag) in [
                        (shakmaty::Color::White, "White"),
                        (shakmaty::Color::Black, "Black"),
                    ] {
                        if tags.get(tag).is_some_and(|t| names_player(t, &key.2))
                            && let Some(f) = game_features(&moves, color)
                        {
                            self.imported.push(f);
                        }
                    }
                }
            }
        }
        self.key = Some(key);
    }

    /// Records a drilled line: the moves from the standard position, the learner's side.
    pub(super) fn record(&mut self, moves: &[shakmaty::Move], learner: shakmaty::Color) {
        if let Some(f) = game_features(moves, learner) {
            self.drilled.push(f);
        }
    }

    /// The posterior over all games, `None` without any.
    pub(super) fn posterior(&self) -> Option<Posterior> {
        let all: Vec<StyleFeatures> = self.drilled.iter().chain(&self.imported).copied().collect();
        learner_posterior(&self.model, &all)
    }

    /// (drilled lines, imported games).
    pub(super) fn counts(&self) -> (usize, usize) {
        (self.drilled.len(), self.imported.len())
    }
}

/// Draws the learner's style: the posterior, what it is based on, the name field.
pub(super) fn learner_style_panel_ui(ui: &mut Ui, state: &LearnerStyleState, name: &mut String) {
    ui.separator();
    ui.heading("Your style");
    let (drilled, imported) = state.counts();
    match state.posterior() {
        Some(p) => {
            ui.label(RichText::new(p.to_string()).strong());
            ui.label(format!(
                "You look {}: from {drilled} drilled line{} and {imported} of your games.",
                p.class().label(),
                if drilled == 1 { "" } else { "s" }
            ));
        }
        None => {
            ui.label("Drill a few lines to the end (or name yourself below) to see your style.");
        }
    }
    let label = ui.label("Your name in PGN files");
    ui.add(
        egui::TextEdit::singleline(name)
            .hint_text("e.g. Carlsen")
            .desired_width(ui.available_width() - 8.0),
    )
    .labelled_by(label.id)
    .on_hover_text(
        "Your games among the loaded PGN files count too (a part of the name is enough)",
    );
    ui.label(
        RichText::new(
            "Naive Bayes over your first move, where the kings are, your pieces beyond your \
             third rank and your pawns storming the enemy king, after 10 moves; trained on \
             Fischer and Kasparov (attacking), Karpov (positional) and Illescas (mixed). \
             10-fold cross-validated accuracy 55% (always guessing positional: 47%).",
        )
        .small()
        .weak(),
    );
}
