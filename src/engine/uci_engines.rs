//! The engines `hastings uci` serves and their options: which agent `go` uses
//! ([`Agent`]), the settings it starts with ([`ServeOptions`]), `setoption`, and the
//! option list of the `uci` answer.
//!
//! Options: `Search` (`alphabeta`, `mcts`, `human`: the move predictor sampled with a
//! temperature, `eval`: the α-β search with the tuned evaluation of seed 003 (Klevansky,
//! Ostroff and Offen, "Determining the Optimal Tradeoff for building Chess Playing
//! Agents: Genetically Tuned vs. Neural Features", Technion, 2023; `ARCHITECTURE.md`,
//! References), `blend`: seed 003's λ blend of that search and the predictor), `Skill
//! Level` (0–20, as Stockfish),
//! `Hash` (MB), `Temperature` (of `human` and `blend`, which start at 1 and 0), `Lambda`
//! and `Bonus` (`top` or
//! `probability`, of `blend`), `Depth` (the depth cap of `eval` and `blend`, 0: none)
//! and `Seed` (for the weaker levels' and the samplers' random choices).

use std::io::{self, Write};
use std::num::NonZeroU32;
use std::sync::Arc;

use shakmaty_uci::{UciMessage, UciOptionConfig};

use super::Engine;
use super::alphabeta::AlphaBeta;
use super::blend::{Blend, BlendSettings, Bonus};
use super::choice::UnknownChoice;
use super::evaluation::Evaluation;
use super::human::{DEFAULT_TEMPERATURE, HumanLike, MAX_TEMPERATURE};
use super::limits::Limits;
use super::mcts::Mcts;
use super::option_error::OptionError;
use super::predictor::Predictor;
use super::strength::MAX_SKILL;
use super::tuned::TunedEval;

/// The hash table's size when none is set, in MB.
pub const DEFAULT_HASH_MB: i64 = 16;

/// Which built-in engine `go` uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Agent {
    /// The α-β search.
    #[default]
    AlphaBeta,
    /// Monte Carlo tree search.
    Mcts,
    /// The move predictor, sampled with a temperature.
    Human,
    /// The α-β search with seed 003's tuned evaluation.
    Eval,
    /// Seed 003's λ blend of the tuned evaluation's search and the move predictor.
    Blend,
}

impl Agent {
    /// Every agent, in the order of the `Search` option.
    pub const ALL: [Agent; 5] = [
        Agent::AlphaBeta,
        Agent::Mcts,
        Agent::Human,
        Agent::Eval,
        Agent::Blend,
    ];

    /// Its name on the command line and in the `Search` option.
    pub fn name(self) -> &'static str {
        match self {
            Agent::AlphaBeta => "alphabeta",
            Agent::Mcts => "mcts",
            Agent::Human => "human",
            Agent::Eval => "eval",
            Agent::Blend => "blend",
        }
    }
}

impl std::str::FromStr for Agent {
    type Err = UnknownChoice;

    /// `alphabeta`, `mcts`, `human`, `eval` or `blend`.
    fn from_str(s: &str) -> Result<Agent, UnknownChoice> {
        let s = s.trim().to_ascii_lowercase();
        Agent::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or(UnknownChoice {
                setting: "the agent is",
                choices: "alphabeta, mcts, human, eval or blend",
                given: s,
            })
    }
}

/// How `hastings uci` starts: the agent and its settings, as the command line gives
/// them (the GUI can change them with `setoption`).
#[derive(Clone, Debug, PartialEq)]
pub struct ServeOptions {
    /// The engine `go` uses.
    pub agent: Agent,
    /// The human-like agent's temperature.
    pub temperature: f64,
    /// The blend's temperature.
    pub blend_temperature: f64,
    /// The blend's λ.
    pub lambda: f64,
    /// The blend's bonus.
    pub bonus: Bonus,
    /// The depth cap of `eval` and `blend` (`None`: as `go` says).
    pub depth: Option<u32>,
    /// The tuned evaluation's weights (`None`: the shipped ones).
    pub weights: Option<Arc<TunedEval>>,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            agent: Agent::AlphaBeta,
            temperature: DEFAULT_TEMPERATURE,
            blend_temperature: BlendSettings::default().temperature,
            lambda: BlendSettings::default().lambda,
            bonus: Bonus::Top,
            depth: None,
            weights: None,
        }
    }
}

/// The built-in engines, owned by whichever thread searches.
pub struct Engines {
    alphabeta: AlphaBeta,
    mcts: Mcts,
    /// Made when first chosen (they read weights).
    human: Option<HumanLike>,
    eval: Option<AlphaBeta>,
    blend: Option<Blend>,
    options: ServeOptions,
    seed: u64,
}

impl Engines {
    /// The engines of `options`.
    pub fn new(options: ServeOptions) -> Engines {
        let options = ServeOptions {
            temperature: options.temperature.clamp(0.0, MAX_TEMPERATURE),
            blend_temperature: options.blend_temperature.clamp(0.0, MAX_TEMPERATURE),
            lambda: options.lambda.clamp(0.0, 1.0),
            ..options
        };
        Engines {
            alphabeta: AlphaBeta::new(DEFAULT_HASH_MB as usize, 0),
            mcts: Mcts::default(),
            human: None,
            eval: None,
            blend: None,
            options,
            seed: 0,
        }
    }

    fn tuned(&self) -> Result<Arc<TunedEval>, OptionError> {
        match &self.options.weights {
            Some(w) => Ok(Arc::clone(w)),
            None => TunedEval::shipped().map_err(OptionError::NoTunedWeights),
        }
    }

    fn blend_settings(&self) -> BlendSettings {
        BlendSettings {
            lambda: self.options.lambda,
            bonus: self.options.bonus,
            temperature: self.options.blend_temperature,
            depth: None,
        }
    }

    /// Makes the chosen agent's engine if it is not there yet (reading its weights).
    fn prepare(&mut self, agent: Agent) -> Result<(), OptionError> {
        match agent {
            Agent::Human if self.human.is_none() => {
                let predictor = predictor()?;
                self.human = Some(HumanLike::new(
                    predictor,
                    self.options.temperature,
                    self.seed,
                ));
            }
            Agent::Eval if self.eval.is_none() => {
                let eval = Evaluation::Tuned(self.tuned()?);
                self.eval = Some(AlphaBeta::with_evaluation(
                    DEFAULT_HASH_MB as usize,
                    self.seed,
                    eval,
                ));
            }
            Agent::Blend if self.blend.is_none() => {
                let predictor = if self.options.lambda > 0.0 {
                    Some(predictor()?)
                } else {
                    None
                };
                let tuned = self.tuned()?;
                self.blend = Some(Blend::new(
                    tuned,
                    predictor,
                    self.blend_settings(),
                    self.seed,
                ));
            }
            Agent::Blend if self.options.lambda > 0.0 => {
                if let Some(blend) = self.blend.as_mut() {
                    blend.set_predictor(predictor()?);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Forgets the last game (`ucinewgame`).
    pub fn new_game(&mut self) {
        let _ = self.alphabeta.new_game();
        let _ = self.mcts.new_game();
        if let Some(e) = self.eval.as_mut() {
            let _ = e.new_game();
        }
        if let Some(b) = self.blend.as_mut() {
            let _ = b.new_game();
        }
    }

    /// The engine `go` uses and the limits capped by its depth; the α-β engine with a
    /// reason when the chosen one cannot be made.
    pub fn current(&mut self, limits: &Limits) -> (&mut dyn Engine, Limits, Option<OptionError>) {
        let agent = self.options.agent;
        let problem = self.prepare(agent).err();
        let mut limits = *limits;
        if let (Agent::Eval | Agent::Blend, Some(cap)) =
            (agent, self.options.depth.and_then(NonZeroU32::new))
        {
            limits = limits.capped_depth(cap);
        }
        let engine: &mut dyn Engine = match agent {
            Agent::Human if problem.is_none() => match self.human.as_mut() {
                Some(h) => h,
                None => &mut self.alphabeta,
            },
            Agent::Eval if problem.is_none() => match self.eval.as_mut() {
                Some(e) => e,
                None => &mut self.alphabeta,
            },
            Agent::Blend if problem.is_none() => match self.blend.as_mut() {
                Some(b) => b,
                None => &mut self.alphabeta,
            },
            Agent::Mcts => &mut self.mcts,
            _ => &mut self.alphabeta,
        };
        (engine, limits, problem)
    }

    /// `setoption name NAME value VALUE`.
    ///
    /// # Errors
    ///
    /// A sentence for `info string`: an unknown option, a value out of range, weights
    /// that cannot be read.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let number = || -> Result<i64, OptionError> {
            value.trim().parse().map_err(|_| OptionError::NotANumber {
                name: name.to_owned(),
                value: value.to_owned(),
            })
        };
        let real = |max: f64| -> Result<f64, OptionError> {
            value
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|t| t.is_finite() && *t >= 0.0)
                .map(|t| t.min(max))
                .ok_or_else(|| OptionError::OutOfRange {
                    name: name.to_owned(),
                    max,
                    value: value.to_owned(),
                })
        };
        match name.to_ascii_lowercase().as_str() {
            "search" => {
                let agent = value.parse::<Agent>()?;
                self.prepare(agent)?;
                self.options.agent = agent;
            }
            "temperature" => {
                self.options.temperature = real(MAX_TEMPERATURE)?;
                self.options.blend_temperature = self.options.temperature;
                if let Some(human) = self.human.as_mut() {
                    human.set_temperature(self.options.temperature);
                }
                self.update_blend();
            }
            "lambda" => {
                self.options.lambda = real(1.0)?;
                if self.options.agent == Agent::Blend {
                    self.prepare(Agent::Blend)?;
                }
                self.update_blend();
            }
            "bonus" => {
                self.options.bonus = value.parse()?;
                self.update_blend();
            }
            "depth" => {
                let depth = number()?.clamp(0, 64);
                self.options.depth = u32::try_from(depth).ok().filter(|&d| d > 0);
            }
            "skill level" => {
                let level = number()?.clamp(0, i64::from(MAX_SKILL));
                self.alphabeta
                    .set_skill(u8::try_from(level).unwrap_or(MAX_SKILL));
            }
            "hash" => {
                let mb = usize::try_from(number()?.clamp(1, 1024)).unwrap_or(1);
                self.alphabeta.resize_hash(mb);
                if let Some(e) = self.eval.as_mut() {
                    e.resize_hash(mb);
                }
                if let Some(b) = self.blend.as_mut() {
                    b.resize_hash(mb);
                }
            }
            "seed" => {
                let seed = number()?.unsigned_abs();
                self.alphabeta.reseed(seed);
                self.seed = seed;
                if let Some(human) = self.human.as_mut() {
                    human.reseed(seed);
                }
                if let Some(e) = self.eval.as_mut() {
                    e.reseed(seed);
                }
                if let Some(b) = self.blend.as_mut() {
                    b.reseed(seed);
                }
            }
            _ => {
                return Err(OptionError::Unknown {
                    name: name.to_owned(),
                });
            }
        }
        Ok(())
    }

    fn update_blend(&mut self) {
        let settings = self.blend_settings();
        if let Some(b) = self.blend.as_mut() {
            b.set_settings(settings);
        }
    }
}

fn predictor() -> Result<Arc<Predictor>, OptionError> {
    Predictor::shared().map_err(OptionError::NoPredictor)
}

/// The answer to `uci`: names, options, `uciok`.
///
/// # Errors
///
/// When writing fails.
pub fn identify(out: &mut impl Write, options: &ServeOptions) -> io::Result<()> {
    writeln!(out, "id name hastings {}", env!("CARGO_PKG_VERSION"))?;
    writeln!(out, "id author the Hastings authors")?;
    let options = [
        UciOptionConfig::Combo {
            name: "Search".into(),
            default: Some(options.agent.name().into()),
            var: Agent::ALL.iter().map(|a| a.name().to_string()).collect(),
        },
        UciOptionConfig::String {
            name: "Temperature".into(),
            default: Some(
                if options.agent == Agent::Blend {
                    options.blend_temperature
                } else {
                    options.temperature
                }
                .to_string(),
            ),
        },
        UciOptionConfig::String {
            name: "Lambda".into(),
            default: Some(options.lambda.to_string()),
        },
        UciOptionConfig::Combo {
            name: "Bonus".into(),
            default: Some(options.bonus.to_string()),
            var: vec!["top".into(), "probability".into()],
        },
        UciOptionConfig::Spin {
            name: "Depth".into(),
            default: Some(options.depth.map_or(0, i64::from)),
            min: Some(0),
            max: Some(64),
        },
        UciOptionConfig::Spin {
            name: "Skill Level".into(),
            default: Some(i64::from(MAX_SKILL)),
            min: Some(0),
            max: Some(i64::from(MAX_SKILL)),
        },
        UciOptionConfig::Spin {
            name: "Hash".into(),
            default: Some(DEFAULT_HASH_MB),
            min: Some(1),
            max: Some(1024),
        },
        UciOptionConfig::Spin {
            name: "Seed".into(),
            default: Some(0),
            min: Some(0),
            max: Some(i64::from(u32::MAX)),
        },
    ];
    for option in options {
        writeln!(out, "{}", UciMessage::Option(option))?;
    }
    writeln!(out, "uciok")
}
