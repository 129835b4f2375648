//! `hastings train eval`: tune the evaluation of seed 003 (Klevansky, Ostroff and Offen,
//! "Determining the Optimal Tradeoff for building Chess Playing Agents: Genetically Tuned
//! vs. Neural Features", Technion, 2023; `ARCHITECTURE.md`, References) with the genetic
//! algorithm, on the moves of master games (`--games`) or by co-evolution of earlier
//! runs' winners (`--coevolve`). The run saves its state after every generation
//! (`OUTPUT.state`) and resumes from it when started again with the same settings.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::CliError;
use super::progress_bar::GenerationBar;
use crate::engine::tuned::Weights;
use crate::engine::tuning::{
    CoEvolution, GenerationStats, MoveMatching, Stage, TrainState, coevolution_config,
    first_population, generation_rng, next_generation, random_population, sample_positions,
    state::{samples_from_text, samples_to_text},
};
use crate::genetic::{GaConfig, Population, Problem};
use crate::workspace::eval_files::{
    read_state, read_weights, state_path, write_state, write_weights,
};

/// The held-out benchmark files: never training data.
const HELD_OUT: [&str; 2] = ["twic1599_1000k.pgn", "lichess_db_1000k.pgn"];

/// `hastings train`.
#[derive(Debug, Subcommand)]
pub enum TrainCommand {
    /// Tune the engine's evaluation (after Klevansky, Ostroff and Offen, 2023): a
    /// genetic algorithm on master moves (`--games`), or co-evolution
    /// of earlier runs' weights (`--coevolve`).
    Eval(TrainEvalArgs),
}

/// `hastings train eval`.
#[derive(Debug, Args)]
pub struct TrainEvalArgs {
    /// PGN files of master games to draw the training positions from.
    #[arg(long, num_args = 1.., required_unless_present = "coevolve")]
    pub games: Vec<PathBuf>,
    /// Co-evolve these weights files (earlier runs' winners) and their crossovers.
    #[arg(long, num_args = 2.., conflicts_with = "games")]
    pub coevolve: Vec<PathBuf>,
    /// Training positions, one from each of as many random games.
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Draw positions from this ply on (half-moves played).
    #[arg(long, default_value_t = 8)]
    pub min_ply: u32,
    /// Organisms (default 75; co-evolution always starts from the winners and their
    /// pairwise crossovers).
    #[arg(long)]
    pub population: Option<usize>,
    /// Generations (default 150; co-evolution 4).
    #[arg(long)]
    pub generations: Option<usize>,
    /// Search depth of the fitness (default 1; co-evolution's games 3).
    #[arg(long, value_name = "PLIES", value_parser = super::args::positive::<u32>)]
    pub depth: Option<u32>,
    /// Seed: the same seed gives the same weights.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Where to write the tuned weights (RON).
    #[arg(short = 'o', long)]
    pub output: PathBuf,
    /// Also write each generation's best and mean fitness to this CSV file.
    #[arg(long)]
    pub history: Option<PathBuf>,
    /// Start afresh even if a saved state of another run is there.
    #[arg(long)]
    pub fresh: bool,
}

pub(super) fn run(command: &TrainCommand, out: &mut impl Write) -> Result<(), CliError> {
    match command {
        TrainCommand::Eval(args) => train_eval(args, out),
    }
}

/// The command line as typed, the program named `hastings` (for the weights file's
/// `made_by`, and the state's record of how the run started).
fn command_line() -> String {
    std::iter::once("hastings".to_string())
        .chain(std::env::args().skip(1))
        .map(|a| {
            if a.is_empty() || a.contains(char::is_whitespace) {
                format!("'{a}'")
            } else {
                a
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn train_eval(args: &TrainEvalArgs, out: &mut impl Write) -> Result<(), CliError> {
    let inputs = || args.games.iter().chain(&args.coevolve).map(|f| f.as_path());
    super::outputs::refuse_input_as_output(&args.output, inputs())?;
    if let Some(history) = &args.history {
        super::outputs::refuse_input_as_output(history, inputs())?;
    }
    let seed = args.seed;
    let state_file = state_path(&args.output);
    let saved = if args.fresh {
        None
    } else {
        read_state(&state_file)?
    };
    let (config, stage) = if args.coevolve.is_empty() {
        matching_setup(args, saved.as_ref())?
    } else {
        coevolution_setup(args)?
    };
    let resumed = match saved {
        Some(state) => {
            state.continues(seed, &config, &stage).map_err(|why| {
                CliError::Usage(format!(
                    "{} holds another run ({why}): use the same settings to resume it, or \
                     --fresh to start afresh",
                    state_file.display()
                ))
            })?;
            writeln!(
                out,
                "resuming {} at generation {}",
                state_file.display(),
                state.population.generation
            )?;
            Some(state)
        }
        None => None,
    };
    let command = resumed
        .as_ref()
        .map_or_else(command_line, |s| s.command.clone());
    let done = resumed.as_ref().map_or(0, |s| s.population.generation);
    let (label, per_generation) = match &stage {
        Stage::Matching { .. } => ("scoring", config.population),
        Stage::Coevolution { .. } => ("playing", CoEvolution::pairs(config.population)),
    };
    let left = config.generations.saturating_sub(done) as u64 + 1;
    let bar = GenerationBar::new(label, per_generation as u64 * left);
    let run = Run {
        args,
        config,
        stage: stage.clone(),
        command,
        bar: &bar,
    };
    let state = match &stage {
        Stage::Matching {
            depth, positions, ..
        } => {
            let samples = samples_from_text(positions)
                .map_err(|e| CliError::Usage(format!("{}: {e}", state_file.display())))?;
            let problem =
                MoveMatching::new(&samples, *depth, args.threads).on_scored(|| bar.tick());
            let first = |p: &MoveMatching<'_>| random_population(p, config.population, seed);
            run.evolve(problem, resumed, first, out)?
        }
        Stage::Coevolution { depth, winners } => {
            let winners: Vec<Weights> = winners
                .iter()
                .filter_map(|c| Weights::from_chromosome(c).ok())
                .collect();
            let problem = CoEvolution::new(*depth, args.threads)?.on_pair(|| bar.tick());
            let first =
                |_: &CoEvolution<'_>| first_population(&winners, &mut generation_rng(seed, 0));
            run.evolve(problem, resumed, first, out)?
        }
    };
    finish(args, &state, out)
}

/// A run about to evolve.
struct Run<'a> {
    args: &'a TrainEvalArgs,
    config: GaConfig,
    stage: Stage,
    command: String,
    bar: &'a GenerationBar,
}

impl Run<'_> {
    /// Scores the first population (or takes the saved run's) and breeds the remaining
    /// generations, saving the state after each.
    fn evolve<P: Problem>(
        self,
        mut problem: P,
        resumed: Option<TrainState>,
        first: impl FnOnce(&P) -> Vec<crate::genetic::Chromosome>,
        out: &mut impl Write,
    ) -> Result<TrainState, CliError> {
        let state_file = state_path(&self.args.output);
        let mut state = match resumed {
            Some(state) => state,
            None => {
                let population = Population::initial(first(&problem), &mut problem);
                let state = TrainState {
                    command: self.command,
                    seed: self.args.seed,
                    config: self.config,
                    stage: self.stage,
                    history: vec![GenerationStats::of(&population)],
                    population,
                };
                write_state(&state_file, &state)?;
                report(out, self.bar, &state)?;
                state
            }
        };
        state.config.generations = self.config.generations;
        while state.population.generation < self.config.generations {
            state.population = next_generation(
                &state.population,
                &self.config,
                &mut problem,
                self.args.seed,
            );
            state.history.push(GenerationStats::of(&state.population));
            write_state(&state_file, &state)?;
            report(out, self.bar, &state)?;
        }
        Ok(state)
    }
}

/// One line per generation, and the bar's message.
fn report(out: &mut impl Write, bar: &GenerationBar, state: &TrainState) -> Result<(), CliError> {
    if let Some(s) = state.history.last() {
        let line = format!(
            "generation {}/{}: best {}, mean {:.1}",
            s.generation, state.config.generations, s.best, s.mean
        );
        bar.message(&line);
        bar.println(&line);
        if !bar.is_drawn() {
            writeln!(out, "{line}")?;
            out.flush()?;
        }
    }
    Ok(())
}

/// Writes the best organism's weights (and the history when asked).
fn finish(args: &TrainEvalArgs, state: &TrainState, out: &mut impl Write) -> Result<(), CliError> {
    let best = state
        .population
        .best()
        .ok_or_else(|| CliError::Usage("the population is empty".into()))?;
    let weights = Weights::from_chromosome(&best.chromosome)
        .map_err(|e| CliError::Usage(format!("the best organism: {e}")))?;
    let fitness = match &state.stage {
        Stage::Matching { positions, .. } => Some((
            best.score.max(0.0) as u32,
            u32::try_from(positions.len()).unwrap_or(u32::MAX),
        )),
        Stage::Coevolution { .. } => None,
    };
    // The command that finished the run: it gives these weights from scratch too (a
    // resumed run is the run its last command starts).
    write_weights(&args.output, &weights, &command_line(), fitness)?;
    if let Some(path) = &args.history {
        let mut csv = String::from("generation,best,mean\n");
        for s in &state.history {
            csv.push_str(&format!("{},{},{:.3}\n", s.generation, s.best, s.mean));
        }
        crate::workspace::store::write_atomic(path, csv.as_bytes())
            .map_err(crate::workspace::eval_files::EvalFileError::from)?;
    }
    writeln!(
        out,
        "wrote {} (best fitness {}, generation {})",
        args.output.display(),
        best.score,
        state.population.generation
    )?;
    Ok(())
}

/// The GA on master moves: its settings, and its positions (drawn now, or the saved
/// run's).
fn matching_setup(
    args: &TrainEvalArgs,
    saved: Option<&TrainState>,
) -> Result<(GaConfig, Stage), CliError> {
    for path in &args.games {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if HELD_OUT.contains(&name) {
            return Err(CliError::Usage(format!(
                "{}: a held-out benchmark file, never training data",
                path.display()
            )));
        }
    }
    let config = GaConfig {
        population: args.population.unwrap_or(75).max(2),
        generations: args.generations.unwrap_or(150),
        ..GaConfig::seed003()
    };
    let depth = args.depth.unwrap_or(1).max(1);
    let games: Vec<String> = args
        .games
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let mut stage = Stage::Matching {
        depth,
        games,
        min_ply: args.min_ply,
        wanted: args.positions,
        positions: Vec::new(),
    };
    let same_run = saved.is_some_and(|s| s.continues(args.seed, &config, &stage).is_ok());
    let positions = match saved {
        Some(state) if same_run => match &state.stage {
            Stage::Matching { positions, .. } => positions.clone(),
            Stage::Coevolution { .. } => Vec::new(),
        },
        _ => {
            let mut files = Vec::new();
            for path in &args.games {
                let file = std::fs::File::open(path).map_err(|source| CliError::Create {
                    path: path.clone(),
                    source,
                })?;
                files.push(std::io::BufReader::new(file));
            }
            let samples = sample_positions(files, args.positions, args.min_ply, args.seed)?;
            if samples.is_empty() {
                return Err(CliError::Usage(format!(
                    "no game of {:?} reaches ply {}",
                    args.games, args.min_ply
                )));
            }
            samples_to_text(&samples)
        }
    };
    if let Stage::Matching { positions: p, .. } = &mut stage {
        *p = positions;
    }
    Ok((config, stage))
}

/// Co-evolution: its settings and the winners it starts from.
fn coevolution_setup(args: &TrainEvalArgs) -> Result<(GaConfig, Stage), CliError> {
    let winners = args
        .coevolve
        .iter()
        .map(|p| read_weights(p).map(|(w, _)| w.to_chromosome()))
        .collect::<Result<Vec<_>, _>>()?;
    let n = winners.len();
    let mut config = coevolution_config(n + n * (n - 1) / 2);
    if let Some(g) = args.generations {
        config.generations = g;
    }
    let depth = args.depth.unwrap_or(3).max(1);
    Ok((config, Stage::Coevolution { depth, winners }))
}
