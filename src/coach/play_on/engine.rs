//! The engine the learner plays on against, as the settings choose it
//! ([`PlayOnSettings`], saved between runs): which engine ([`EngineKind`]), its
//! strength and time, and the engine started for them ([`PlayOnSettings::opponent`]).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::engine::blend::BlendSettings;
use crate::engine::{EngineChoice, Strength, discover};
use crate::trainer::play_on::Opponent;

/// Which engine the learner plays on against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum EngineKind {
    /// Human-like: the move predictor's moves, as strong players would play.
    #[default]
    Human,
    /// The built-in α-β engine (needs nothing installed).
    AlphaBeta,
    /// The built-in MCTS engine.
    Mcts,
    /// Seed 003's blend: the tuned evaluation's search and the move predictor, mixed
    /// by λ.
    Blend,
    /// Stockfish, found on `PATH` or where distributions install it.
    Stockfish,
    /// Another UCI engine, by its path.
    Path,
}

impl EngineKind {
    /// Every kind, in the order of the menu.
    pub const ALL: [EngineKind; 6] = [
        EngineKind::Human,
        EngineKind::AlphaBeta,
        EngineKind::Mcts,
        EngineKind::Blend,
        EngineKind::Stockfish,
        EngineKind::Path,
    ];

    /// The engines a club player picks from (the rest are under "Advanced").
    pub const ORDINARY: [EngineKind; 3] = [
        EngineKind::Human,
        EngineKind::Stockfish,
        EngineKind::AlphaBeta,
    ];

    /// Whether the kind is one of [`EngineKind::ORDINARY`].
    pub fn is_ordinary(self) -> bool {
        EngineKind::ORDINARY.contains(&self)
    }

    /// The menu text (in words; the search algorithm is in [`EngineKind::exact`]).
    pub fn text(self) -> &'static str {
        match self {
            EngineKind::Human => "Human-like (trained on master games)",
            EngineKind::AlphaBeta => "Built-in engine",
            EngineKind::Mcts => "Built-in engine (tree search)",
            EngineKind::Blend => "Tuned engine + human-like",
            EngineKind::Stockfish => "Stockfish",
            EngineKind::Path => "Other UCI engine",
        }
    }

    /// The exact term: what the engine is, for a hover text.
    pub fn exact(self) -> &'static str {
        match self {
            EngineKind::Human => {
                "Move predictor: a network trained on 146,000 master games, sampled at its \
                 temperature"
            }
            EngineKind::AlphaBeta => "α-β search with the built-in evaluation",
            EngineKind::Mcts => "Monte Carlo tree search (MCTS) with the built-in evaluation",
            EngineKind::Blend => {
                "The tuned evaluation's α-β search blended with the move predictor by λ"
            }
            EngineKind::Stockfish => "Stockfish over UCI, found on PATH",
            EngineKind::Path => "Any UCI engine, by the path of its program",
        }
    }
}

/// The engine settings for playing on, saved between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayOnSettings {
    /// Which engine.
    pub engine: EngineKind,
    /// The program of [`EngineKind::Path`].
    pub path: String,
    /// Skill Level 0–20 (20: full strength).
    pub skill: u8,
    /// UCI engines: limit the strength by Elo (`UCI_LimitStrength`) instead of the
    /// skill level.
    pub use_elo: bool,
    /// The Elo of `use_elo` (Stockfish: 1350 to 2850).
    pub elo: u32,
    /// Time per move, in milliseconds.
    pub movetime_ms: u32,
    /// Whether the best move for the learner is drawn as an arrow.
    pub best_move_arrow: bool,
    /// The human-like engine's temperature: 0 plays the most likely move, 1 as often as
    /// strong players do, more is wilder.
    pub temperature: f64,
    /// The blend's λ: 0 the tuned evaluation alone, 1 the predictor decides.
    pub lambda: f64,
    /// The blend's search depth.
    pub blend_depth: u32,
    /// Sparring at a rating past the book (the explorer's games, then the model).
    pub spar: super::spar::SparSettings,
}

impl Default for PlayOnSettings {
    fn default() -> PlayOnSettings {
        PlayOnSettings {
            engine: EngineKind::Human,
            path: String::new(),
            // Full strength: a weakened α-β picks among moves up to 1.5 pawns worse
            // than the best (at level 10), which looks random; the learner lowers it.
            skill: 20,
            use_elo: false,
            elo: 1350,
            movetime_ms: 500,
            best_move_arrow: false,
            temperature: crate::engine::human::DEFAULT_TEMPERATURE,
            lambda: BlendSettings::default().lambda,
            blend_depth: 3,
            spar: super::spar::SparSettings::default(),
        }
    }
}

impl PlayOnSettings {
    /// The human-like engine at `temperature`, with the settings' time: the model a
    /// sparring game plays on with.
    pub fn sparring_opponent(&self, temperature: f64) -> Opponent {
        Opponent {
            choice: EngineChoice::Human {
                temperature,
                seed: 0,
            },
            movetime: Duration::from_millis(u64::from(self.movetime_ms.max(10))),
        }
    }

    /// The engine and its strength in a club player's words: "Stockfish at about 1500",
    /// "Built-in engine, level 7 of 20", "Human-like (trained on master games)".
    pub fn summary(&self) -> String {
        let level = if self.skill >= 20 {
            " at full strength".to_owned()
        } else {
            format!(", level {} of 20", self.skill)
        };
        match self.engine {
            EngineKind::Stockfish | EngineKind::Path if self.use_elo => {
                format!("{} at about {}", self.engine_name(), self.elo)
            }
            EngineKind::Stockfish | EngineKind::Path | EngineKind::AlphaBeta => {
                format!("{}{level}", self.engine_name())
            }
            EngineKind::Human | EngineKind::Mcts | EngineKind::Blend => {
                self.engine.text().to_owned()
            }
        }
    }

    /// The engine's name: its menu text, or the file name of another UCI engine's
    /// program.
    fn engine_name(&self) -> String {
        let program = std::path::Path::new(self.path.trim()).file_name();
        match (self.engine, program) {
            (EngineKind::Path, Some(name)) => name.to_string_lossy().into_owned(),
            (kind, _) => kind.text().to_owned(),
        }
    }

    /// The engine to start: Stockfish and a path are looked up first (a few file
    /// checks); when they cannot be found, the built-in engine and why.
    pub fn opponent(&self) -> (Opponent, Option<String>) {
        let strength = if self.skill >= 20 {
            Strength::Full
        } else {
            Strength::Skill(self.skill)
        };
        let uci_strength = if self.use_elo {
            Strength::Elo(self.elo)
        } else {
            strength
        };
        let uci = |name: &str| {
            discover::resolve(name).map(|path| EngineChoice::Uci {
                path,
                args: Vec::new(),
                strength: uci_strength,
            })
        };
        let (choice, problem) = match self.engine {
            EngineKind::Human => (
                EngineChoice::Human {
                    temperature: self.temperature,
                    seed: 0,
                },
                None,
            ),
            EngineKind::AlphaBeta => (EngineChoice::Builtin(strength), None),
            EngineKind::Mcts => (EngineChoice::Mcts, None),
            EngineKind::Blend => (
                EngineChoice::Blend(BlendSettings {
                    lambda: self.lambda,
                    depth: Some(self.blend_depth.max(1)),
                    ..BlendSettings::default()
                }),
                None,
            ),
            EngineKind::Stockfish | EngineKind::Path => {
                let name = if self.engine == EngineKind::Stockfish {
                    "stockfish"
                } else {
                    self.path.trim()
                };
                match uci(name) {
                    Ok(choice) => (choice, None),
                    Err(e) => (
                        EngineChoice::Builtin(strength),
                        Some(format!("{e}; the built-in engine plays instead.")),
                    ),
                }
            }
        };
        let opponent = Opponent {
            choice,
            movetime: Duration::from_millis(u64::from(self.movetime_ms.max(10))),
        };
        (opponent, problem)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_choose_the_engine_and_its_strength() {
        let builtin = PlayOnSettings {
            engine: EngineKind::AlphaBeta,
            skill: 7,
            movetime_ms: 250,
            ..PlayOnSettings::default()
        };
        let (o, problem) = builtin.opponent();
        assert_eq!(o.choice, EngineChoice::Builtin(Strength::Skill(7)));
        assert_eq!(o.movetime, Duration::from_millis(250));
        assert_eq!(problem, None);
        let full = PlayOnSettings {
            engine: EngineKind::AlphaBeta,
            ..PlayOnSettings::default()
        }
        .opponent()
        .0;
        assert_eq!(full.choice, EngineChoice::Builtin(Strength::Full));
        // Human-like is the default, at its temperature.
        let human = PlayOnSettings::default().opponent().0;
        assert_eq!(
            human.choice,
            EngineChoice::Human {
                temperature: 1.0,
                seed: 0
            }
        );
        let mcts = PlayOnSettings {
            engine: EngineKind::Mcts,
            ..PlayOnSettings::default()
        };
        assert_eq!(mcts.opponent().0.choice, EngineChoice::Mcts);
    }

    #[test]
    fn the_summary_says_the_engine_and_its_strength_in_words() {
        let at = |engine, use_elo, skill| {
            PlayOnSettings {
                engine,
                use_elo,
                elo: 1500,
                skill,
                path: "/opt/engines/dragon-3".to_owned(),
                ..PlayOnSettings::default()
            }
            .summary()
        };
        assert_eq!(
            at(EngineKind::Stockfish, true, 20),
            "Stockfish at about 1500"
        );
        assert_eq!(
            at(EngineKind::Stockfish, false, 20),
            "Stockfish at full strength"
        );
        assert_eq!(
            at(EngineKind::AlphaBeta, false, 7),
            "Built-in engine, level 7 of 20"
        );
        assert_eq!(at(EngineKind::Path, true, 20), "dragon-3 at about 1500");
        assert_eq!(
            at(EngineKind::Human, true, 3),
            "Human-like (trained on master games)"
        );
        for kind in EngineKind::ALL {
            assert!(!at(kind, false, 20).contains('λ'), "{kind:?}");
        }
    }

    #[test]
    fn a_missing_uci_engine_is_replaced_by_the_builtin_one_with_the_reason() {
        let missing = PlayOnSettings {
            engine: EngineKind::Path,
            path: " /nonexistent/dragon ".to_owned(),
            skill: 3,
            use_elo: true,
            ..PlayOnSettings::default()
        };
        let (o, problem) = missing.opponent();
        assert_eq!(o.choice, EngineChoice::Builtin(Strength::Skill(3)));
        let problem = problem.unwrap();
        assert!(problem.contains("/nonexistent/dragon"), "{problem}");
        assert!(problem.ends_with("the built-in engine plays instead."));
    }

    #[test]
    #[cfg(unix)]
    fn a_uci_engine_limited_by_elo_gets_the_elo() {
        let sh = PlayOnSettings {
            engine: EngineKind::Path,
            path: "/bin/sh".to_owned(),
            use_elo: true,
            elo: 1500,
            ..PlayOnSettings::default()
        };
        let (o, problem) = sh.opponent();
        assert_eq!(problem, None);
        assert!(matches!(
            o.choice,
            EngineChoice::Uci {
                strength: Strength::Elo(1500),
                ..
            }
        ));
    }
}
