//! The learner's style (BayesChess's naive Bayes classes): the posterior over
//! attacking, positional and mixed, from the lines drilled (kept in the progress) and the
//! learner's games among the loaded files; the Progress tab shows it.

use std::collections::HashSet;

use crate::book::LineSource;
use crate::sampler::fit::names_player;
use crate::trainer::learner_style::{
    Adaptation, Posterior, StyleFeatures, StyleModel, game_features, learner_posterior, line_moves,
};
use crate::workspace::Workspace;

/// What the panel shows, kept between frames.
pub struct LearnerStyleState {
    /// The features of each line the learner drilled to its end (the progress keeps the
    /// lines, so earlier sessions count).
    pub(crate) drilled: Vec<StyleFeatures>,
    /// The features of the learner's games among the loaded files.
    imported: Vec<StyleFeatures>,
    /// What `imported` was computed from: files, lines, the learner's name.
    key: Option<(usize, usize, String)>,
    /// The adaptive opponent's pick for a mixed learner, drawn once per session.
    pub(crate) coin: Adaptation,
    model: StyleModel,
}

impl LearnerStyleState {
    /// Empty; `coin` is the pick for a mixed learner.
    pub(crate) fn new(coin: Adaptation) -> LearnerStyleState {
        LearnerStyleState {
            drilled: Vec::new(),
            imported: Vec::new(),
            key: None,
            coin,
            model: StyleModel::shipped(),
        }
    }

    /// Recomputes the imported games' features when the files or the name changed.
    pub(crate) fn refresh(&mut self, workspace: &Workspace, name: &str) {
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
                            && let Some(f) = game_features(moves, color)
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
    pub(crate) fn record(&mut self, moves: &[shakmaty::Move], learner: shakmaty::Color) {
        if let Some(f) = game_features(moves, learner) {
            self.drilled.push(f);
        }
    }

    /// The posterior over all games, `None` without any.
    pub fn posterior(&self) -> Option<Posterior> {
        let all: Vec<StyleFeatures> = self.drilled.iter().chain(&self.imported).copied().collect();
        learner_posterior(&self.model, &all)
    }

    /// (drilled lines, imported games).
    pub fn counts(&self) -> (usize, usize) {
        (self.drilled.len(), self.imported.len())
    }
}
