//! Engines named on the command line: `builtin`, `mcts`, `random`, `human`, `eval`,
//! `blend`, `stockfish` or a path, each optionally followed by UCI options:
//! `stockfish,Skill Level=5`, `stockfish,UCI_LimitStrength=true,UCI_Elo=1350`,
//! `builtin,Skill Level=10`, `mcts,Exploration=0.5`, `eval,Depth=4`,
//! `blend,Lambda=0.5,Depth=1,Bonus=probability,Temperature=0`, `human,Temperature=0`.
//! `eval` and `blend` use
//! the shipped tuned weights unless the caller sets [`EngineSpec::weights`] (the
//! command line reads a `Weights=FILE` option into it).

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use thiserror::Error;

use super::Engine;
use super::alphabeta::AlphaBeta;
use super::blend::{Blend, BlendSettings};
use super::choice::UnknownChoice;
use super::client::UciEngine;
use super::discover;
use super::error::EngineError;
use super::evaluation::Evaluation;
use super::human::HumanLike;
use super::mcts::{EXPLORATION, Mcts};
use super::predictor::Predictor;
use super::random::RandomMover;
use super::strength::MAX_SKILL;
use super::tuned::TunedEval;

/// Which engine a spec names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// The built-in α-β engine (`builtin` or `alphabeta`).
    AlphaBeta,
    /// The built-in MCTS engine (`mcts`).
    Mcts,
    /// Random legal moves (`random`).
    Random,
    /// The move predictor sampled with a temperature (`human`; `Temperature=0`, the
    /// default here, always plays its most likely move).
    Human,
    /// The α-β engine with seed 003's tuned evaluation (`eval`).
    Eval,
    /// Seed 003's λ blend of the tuned evaluation and the move predictor (`blend`).
    Blend,
    /// A UCI engine: `stockfish`, a program on `PATH`, or a path.
    Uci(String),
}

/// An engine and its options, as written on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The spec as written, for reports.
    pub text: String,
    /// The engine.
    pub kind: EngineKind,
    /// UCI options, in order.
    pub options: Vec<(String, String)>,
    /// The tuned weights of `eval` and `blend` (`None`: the shipped ones).
    pub weights: Option<Arc<TunedEval>>,
}

/// A spec that cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SpecError {
    /// Nothing before the first comma.
    #[error(
        "an engine spec needs an engine: builtin, mcts, random, human, eval, blend, stockfish or \
         a path"
    )]
    Empty,
    /// An option without `=`.
    #[error("option `{0}` must be written NAME=VALUE")]
    Option(String),
}

impl FromStr for EngineSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<EngineSpec, SpecError> {
        let mut parts = text.split(',');
        let engine = parts.next().unwrap_or_default().trim();
        let kind = match engine.to_ascii_lowercase().as_str() {
            "" => return Err(SpecError::Empty),
            "builtin" | "alphabeta" => EngineKind::AlphaBeta,
            "mcts" => EngineKind::Mcts,
            "random" => EngineKind::Random,
            "human" => EngineKind::Human,
            "eval" => EngineKind::Eval,
            "blend" => EngineKind::Blend,
            _ => EngineKind::Uci(engine.to_string()),
        };
        let options = parts
            .map(|p| {
                p.split_once('=')
                    .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                    .filter(|(n, _)| !n.is_empty())
                    .ok_or_else(|| SpecError::Option(p.trim().to_string()))
            })
            .collect::<Result<_, _>>()?;
        Ok(EngineSpec {
            text: text.to_string(),
            kind,
            options,
            weights: None,
        })
    }
}

impl EngineSpec {
    /// Where a UCI spec's program is, `None` for the built-in engines.
    ///
    /// # Errors
    ///
    /// [`EngineError::NotFound`] when the program is not found.
    pub fn program(&self) -> Result<Option<PathBuf>, EngineError> {
        match &self.kind {
            EngineKind::Uci(name) => discover::resolve(name).map(Some),
            _ => Ok(None),
        }
    }

    /// Starts the engine and sets its options; `seed` fixes the built-in engines'
    /// random choices.
    ///
    /// # Errors
    ///
    /// [`EngineError`] when a UCI engine cannot be found or started, or an option is
    /// unknown or out of range.
    pub fn start(&self, seed: u64) -> Result<Box<dyn Engine>, EngineError> {
        match &self.kind {
            EngineKind::AlphaBeta => {
                let mut engine = AlphaBeta::new(16, seed);
                for (name, value) in &self.options {
                    let bad = |reason: String| EngineError::Option {
                        engine: self.text.clone(),
                        reason,
                    };
                    let n: u64 = value
                        .parse()
                        .map_err(|_| bad(format!("option `{name}` takes a number")))?;
                    match name.to_ascii_lowercase().as_str() {
                        "skill level" => {
                            engine.set_skill(
                                u8::try_from(n.min(u64::from(MAX_SKILL))).unwrap_or(MAX_SKILL),
                            );
                        }
                        "hash" => {
                            engine.resize_hash(usize::try_from(n.clamp(1, 1024)).unwrap_or(16))
                        }
                        _ => return Err(bad(format!("no option `{name}` (Skill Level, Hash)"))),
                    }
                }
                Ok(Box::new(engine))
            }
            EngineKind::Mcts => {
                let mut exploration = EXPLORATION;
                for (name, value) in &self.options {
                    let bad = |reason: String| EngineError::Option {
                        engine: self.text.clone(),
                        reason,
                    };
                    if !name.eq_ignore_ascii_case("exploration") {
                        return Err(bad(format!("no option `{name}` (Exploration)")));
                    }
                    exploration = value
                        .parse::<f64>()
                        .ok()
                        .filter(|c| c.is_finite() && *c >= 0.0)
                        .ok_or_else(|| {
                            bad(format!("Exploration takes a number ≥ 0, not `{value}`"))
                        })?;
                }
                Ok(Box::new(Mcts::new(exploration)))
            }
            EngineKind::Random => {
                self.no_options()?;
                Ok(Box::new(RandomMover::new(seed)))
            }
            EngineKind::Eval | EngineKind::Blend => self.start_tuned(seed),
            EngineKind::Human => {
                let mut temperature = 0.0;
                for (name, value) in &self.options {
                    let bad = |reason: String| EngineError::Option {
                        engine: self.text.clone(),
                        reason,
                    };
                    if !name.eq_ignore_ascii_case("temperature") {
                        return Err(bad(format!("no option `{name}` (Temperature)")));
                    }
                    temperature = value
                        .parse::<f64>()
                        .ok()
                        .filter(|t| t.is_finite() && *t >= 0.0)
                        .ok_or_else(|| {
                            bad(format!("Temperature takes a number ≥ 0, not `{value}`"))
                        })?;
                }
                let predictor =
                    Predictor::shared().map_err(|e| EngineError::Predictor(e.to_string()))?;
                Ok(Box::new(HumanLike::new(predictor, temperature, seed)))
            }
            EngineKind::Uci(name) => {
                let path = discover::resolve(name)?;
                let mut engine = UciEngine::start(&path)?;
                for (option, value) in &self.options {
                    engine.set_option(option, value)?;
                }
                Ok(Box::new(engine))
            }
        }
    }

    /// `eval` or `blend` with its options.
    fn start_tuned(&self, seed: u64) -> Result<Box<dyn Engine>, EngineError> {
        let bad = |reason: String| EngineError::Option {
            engine: self.text.clone(),
            reason,
        };
        let eval = match &self.weights {
            Some(w) => Arc::clone(w),
            None => TunedEval::shipped().map_err(|e| EngineError::TunedWeights(e.to_string()))?,
        };
        let mut settings = BlendSettings {
            depth: None,
            ..BlendSettings::default()
        };
        let blend = self.kind == EngineKind::Blend;
        for (name, value) in &self.options {
            let real = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .ok_or_else(|| bad(format!("{name} takes a number ≥ 0, not `{value}`")))
            };
            match name.to_ascii_lowercase().as_str() {
                "depth" => {
                    // 0 is no depth cap that means anything: refused, as everywhere.
                    let d: u32 = value.parse().ok().filter(|&d| d > 0).ok_or_else(|| {
                        bad(format!(
                            "Depth takes a whole number from 1 up, not `{value}`"
                        ))
                    })?;
                    settings.depth = Some(d);
                }
                "weights" => {}
                "lambda" if blend => settings.lambda = real()?.min(1.0),
                "temperature" if blend => settings.temperature = real()?,
                "bonus" if blend => {
                    settings.bonus = value
                        .parse()
                        .map_err(|e: UnknownChoice| bad(e.to_string()))?;
                }
                _ if blend => {
                    return Err(bad(format!(
                        "no option `{name}` (Lambda, Depth, Bonus, Temperature, Weights)"
                    )));
                }
                _ => return Err(bad(format!("no option `{name}` (Depth, Weights)"))),
            }
        }
        if !blend {
            let mut engine = AlphaBeta::with_evaluation(16, seed, Evaluation::Tuned(eval));
            if let Some(d) = settings.depth {
                // The depth cap is the engine's: a depth-capped full-strength search.
                engine.set_max_depth(Some(d));
            }
            return Ok(Box::new(engine));
        }
        let predictor = if settings.lambda > 0.0 {
            Some(Predictor::shared().map_err(|e| EngineError::Predictor(e.to_string()))?)
        } else {
            None
        };
        Ok(Box::new(Blend::new(eval, predictor, settings, seed)))
    }

    fn no_options(&self) -> Result<(), EngineError> {
        match self.options.first() {
            None => Ok(()),
            Some((name, _)) => Err(EngineError::Option {
                engine: self.text.clone(),
                reason: format!("no option `{name}`"),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_the_engine_and_its_options() {
        let s: EngineSpec = "stockfish,UCI_LimitStrength=true, UCI_Elo=1350"
            .parse()
            .unwrap();
        assert_eq!(s.kind, EngineKind::Uci("stockfish".into()));
        assert_eq!(
            s.options,
            vec![
                ("UCI_LimitStrength".to_string(), "true".to_string()),
                ("UCI_Elo".to_string(), "1350".to_string())
            ]
        );
        assert_eq!(
            "Builtin".parse::<EngineSpec>().unwrap().kind,
            EngineKind::AlphaBeta
        );
        assert_eq!("mcts".parse::<EngineSpec>().unwrap().kind, EngineKind::Mcts);
        assert_eq!(
            "builtin,Skill".parse::<EngineSpec>(),
            Err(SpecError::Option("Skill".into()))
        );
        assert_eq!(",x=1".parse::<EngineSpec>(), Err(SpecError::Empty));
    }

    #[test]
    fn builtin_options_are_checked() {
        let ok: EngineSpec = "builtin,Skill Level=3".parse().unwrap();
        assert!(ok.start(1).is_ok());
        let bad: EngineSpec = "builtin,Ponder=true".parse().unwrap();
        assert!(bad.start(1).is_err());
        let bad: EngineSpec = "mcts,Skill Level=3".parse().unwrap();
        assert!(bad.start(1).is_err());
        let ok: EngineSpec = "mcts,Exploration=0.5".parse().unwrap();
        assert!(ok.start(1).is_ok());
    }

    #[test]
    fn seed003_engines_take_their_options() {
        let spec = |s: &str| s.parse::<EngineSpec>().unwrap();
        assert_eq!(spec("eval,Depth=4").kind, EngineKind::Eval);
        assert_eq!(spec("Blend").kind, EngineKind::Blend);
        assert!(spec("eval,Depth=4").start(1).is_ok());
        assert!(spec("eval,Lambda=0.5").start(1).is_err());
        assert!(
            spec("blend,Lambda=0,Depth=1,Bonus=probability,Temperature=0")
                .start(1)
                .is_ok()
        );
        assert!(spec("blend,Lambda=x").start(1).is_err());
        for zero in ["eval,Depth=0", "blend,Lambda=0,Depth=0"] {
            let Err(e) = spec(zero).start(1) else {
                panic!("{zero} was taken")
            };
            assert!(e.to_string().contains("from 1 up"), "{zero}: {e}");
        }
        assert!(spec("blend,Bonus=most").start(1).is_err());
        assert!(spec("blend,Hash=4").start(1).is_err());
        assert_eq!(spec("human,Temperature=0").kind, EngineKind::Human);
        assert!(spec("human,Temperature=0").start(1).is_ok());
        assert!(spec("human,Lambda=1").start(1).is_err());
    }
}
