//! `hastings predict`: the move predictor's distribution at a position (`--fen`), or its
//! accuracy on the moves of games (`--eval`).

use std::io::Write;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Move};

use super::CliError;
use super::args::positive;
use crate::book::polyglot::{PlySink, RawMove, gnuchess, read_games};
use crate::engine::blend::{Blend, BlendSettings, Bonus};
use crate::engine::evaluation::Evaluation;
use crate::engine::matching::{
    BlendRanker, BookRanker, EngineRanker, MatchReport, PredictorRanker, match_moves,
    match_moves_each,
};
use crate::engine::predictor::Predictor;
use crate::engine::tuned::TunedEval;
use crate::engine::{AlphaBeta, Limits, UciEngine, discover};
use crate::workspace::eval_files::read_weights;

/// `hastings predict`.
#[derive(Debug, Args)]
pub struct PredictArgs {
    /// The position (default: the starting position).
    #[arg(long, conflicts_with = "eval")]
    pub fen: Option<String>,
    /// Print only the N most likely moves (0: all).
    #[arg(long, default_value_t = 0)]
    pub top: usize,
    /// Measure the accuracy on every game move of these PGN files instead.
    #[arg(long, num_args = 1..)]
    pub eval: Vec<PathBuf>,
    /// With `--eval`: leave out positions before this ply (half-moves played).
    #[arg(long, default_value_t = 8)]
    pub min_ply: u32,
    /// With `--eval`: at most this many positions (the first, in file order).
    #[arg(long)]
    pub max_positions: Option<usize>,
    /// With `--eval`: whose moves to score: `cnn` (the move predictor), `book` (the
    /// gnuchess book's most played move, where it has one), `alphabeta` or `stockfish`
    /// (their best move at `--depth`), `eval` (α-β with the evaluation tuned by a genetic
    /// algorithm, after Klevansky, Ostroff and Offen, 2023, at `--depth`) or `blend`
    /// (their λ blend of that evaluation and the predictor).
    #[arg(long, value_enum, default_value_t = EvalAgent::Cnn)]
    pub agent: EvalAgent,
    /// With `--agent blend`: the predictor's share λ (0: the evaluation alone, 1: the
    /// predictor decides); several (`0,0.1,…,1`) are scored with one prediction a
    /// position (the same moves as separate runs).
    #[arg(long, value_delimiter = ',', default_value = "0.5")]
    pub lambda: Vec<f64>,
    /// With `--agent blend`: `top` (λ × 3000 for the predictor's move, the seed's) or
    /// `probability` (λ × 3000 × p for every move); both: `top,probability`.
    #[arg(long, value_delimiter = ',', default_value = "top")]
    pub bonus: Vec<Bonus>,
    /// With `--agent eval|blend`: tuned weights (a `train eval` output) instead of the
    /// shipped ones.
    #[arg(long, value_name = "FILE")]
    pub eval_weights: Option<PathBuf>,
    /// With `--eval` and a search agent: the search depth.
    #[arg(long, value_name = "PLIES", default_value = "1", value_parser = positive::<NonZeroU32>)]
    pub depth: NonZeroU32,
    /// With `--eval`: worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Weights to use instead of the shipped ones (a trainer's `predictor.safetensors`).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// One move of `predict --fen --json`.
#[derive(Debug, Serialize)]
pub struct MoveJson {
    /// UCI (standard castling: `e1g1`).
    pub uci: String,
    /// SAN.
    pub san: String,
    /// Probability.
    pub p: f64,
}

/// `predict --fen --json`.
#[derive(Debug, Serialize)]
pub struct PredictJson {
    /// The legal moves, most likely first.
    pub moves: Vec<MoveJson>,
}

/// The agents `predict --eval` scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalAgent {
    /// The move predictor.
    Cnn,
    /// The gnuchess book's most played move.
    Book,
    /// The built-in α-β search.
    Alphabeta,
    /// Stockfish.
    Stockfish,
    /// The α-β search with the genetically tuned evaluation (Klevansky, Ostroff and
    /// Offen, 2023).
    Eval,
    /// The λ blend of the tuned evaluation and the predictor (Klevansky, Ostroff and
    /// Offen, 2023).
    Blend,
}

pub(super) fn run(args: &PredictArgs, out: &mut impl Write) -> Result<(), CliError> {
    if args.eval.is_empty() {
        predict_fen(args, &load_predictor(args)?, out)
    } else {
        evaluate(args, out)
    }
}

/// `--weights`, or the shipped predictor.
fn load_predictor(args: &PredictArgs) -> Result<Predictor, CliError> {
    match &args.weights {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|source| CliError::Read {
                path: path.clone(),
                source,
            })?;
            Ok(Predictor::from_safetensors(&bytes)?)
        }
        None => Ok(Predictor::shipped()?),
    }
}

fn predict_fen(
    args: &PredictArgs,
    predictor: &Predictor,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let pos: Chess = match &args.fen {
        None => Chess::default(),
        Some(text) => text
            .parse::<Fen>()
            .map_err(|e| CliError::Usage(format!("--fen: {e}")))?
            .into_position(CastlingMode::Standard)
            .map_err(|e| CliError::Usage(format!("--fen: {e}")))?,
    };
    let mut moves = predictor.predict(&pos);
    if args.top > 0 {
        moves.truncate(args.top);
    }
    let moves: Vec<MoveJson> = moves
        .into_iter()
        .map(|m| MoveJson {
            uci: m.mv.to_uci(CastlingMode::Standard).to_string(),
            san: SanPlus::from_move(pos.clone(), m.mv).to_string(),
            p: m.p,
        })
        .collect();
    if args.json {
        serde_json::to_writer(&mut *out, &PredictJson { moves })?;
        writeln!(out)?;
    } else {
        for m in &moves {
            writeln!(out, "{:<8} {:>6.2} %", m.san, 100.0 * m.p)?;
        }
    }
    Ok(())
}

/// The positions and moves of games from `min_ply` on.
struct Collect {
    min_ply: u32,
    positions: Vec<(Chess, Move)>,
}

impl PlySink for Collect {
    type Ply = ();

    fn ply(&mut self, _: u64, ply: u32, pos: &Chess, mv: Move, _: RawMove) {
        if ply >= self.min_ply {
            self.positions.push((pos.clone(), mv));
        }
    }

    fn add(&mut self, (): (), _: u8) {}
}

/// The game moves from `min_ply` on of `files`, at most `max` of them.
///
/// # Errors
///
/// [`CliError::Read`] for a file that cannot be read, [`CliError::NoGames`] for one
/// that holds no game (empty, or not PGN), [`CliError::Usage`] when no game reaches
/// `min_ply`.
fn game_positions(
    files: &[PathBuf],
    min_ply: u32,
    max: Option<usize>,
) -> Result<Vec<(Chess, Move)>, CliError> {
    let mut sink = Collect {
        min_ply,
        positions: Vec::new(),
    };
    for path in files {
        let file = std::fs::File::open(path).map_err(|source| CliError::Read {
            path: path.clone(),
            source,
        })?;
        let read =
            read_games(std::io::BufReader::new(file), u32::MAX, &mut sink).map_err(|source| {
                CliError::Read {
                    path: path.clone(),
                    source,
                }
            })?;
        if read.plies == 0 {
            return Err(CliError::NoGames { path: path.clone() });
        }
        if max.is_some_and(|max| sink.positions.len() >= max) {
            break;
        }
    }
    let mut positions = sink.positions;
    if positions.is_empty() {
        return Err(CliError::Usage(format!(
            "--eval: no game move from ply {min_ply} on (see --min-ply)"
        )));
    }
    if let Some(max) = max {
        positions.truncate(max);
    }
    Ok(positions)
}

/// `--eval-weights`, or the shipped tuned weights.
fn tuned(args: &PredictArgs) -> Result<Arc<TunedEval>, CliError> {
    match &args.eval_weights {
        Some(path) => Ok(Arc::new(TunedEval::new(read_weights(path)?.0))),
        None => TunedEval::shipped()
            .map_err(|e| CliError::Usage(format!("the shipped tuned weights: {e}"))),
    }
}

fn evaluate(args: &PredictArgs, out: &mut impl Write) -> Result<(), CliError> {
    let positions = game_positions(&args.eval, args.min_ply, args.max_positions)?;
    let depth = Limits::plies(args.depth);
    let report = match args.agent {
        EvalAgent::Cnn => {
            let predictor = load_predictor(args)?;
            match_moves(&positions, args.threads, || {
                Ok(PredictorRanker::new(&predictor))
            })?
        }
        EvalAgent::Book => {
            let book =
                gnuchess().map_err(|e| CliError::Usage(format!("the gnuchess book: {e}")))?;
            match_moves(&positions, args.threads, || Ok(BookRanker::new(&book)))?
        }
        EvalAgent::Alphabeta => match_moves(&positions, args.threads, || {
            Ok(EngineRanker::new(AlphaBeta::new(16, 0), depth))
        })?,
        EvalAgent::Eval => {
            let eval = Evaluation::Tuned(tuned(args)?);
            match_moves(&positions, args.threads, || {
                Ok(EngineRanker::new(
                    AlphaBeta::with_evaluation(1, 0, eval.clone()),
                    depth,
                ))
            })?
        }
        EvalAgent::Blend => return blend(args, &positions, out),
        EvalAgent::Stockfish => {
            let path = discover::stockfish().ok_or_else(|| {
                CliError::Usage("--agent stockfish: Stockfish is not installed".into())
            })?;
            match_moves(&positions, args.threads, || {
                Ok(EngineRanker::new(UciEngine::start(&path)?, depth))
            })?
        }
    };
    if args.json {
        serde_json::to_writer(&mut *out, &report)?;
        writeln!(out)?;
    } else {
        writeln!(out, "{}", summary(&report))?;
    }
    Ok(())
}

/// `positions: top-1 …, top-3 …, from-square …`.
fn summary(report: &MatchReport) -> String {
    let top3 = report
        .top3
        .map_or(String::new(), |t| format!(", top-3 {:.1} %", 100.0 * t));
    format!(
        "{} positions: top-1 {:.1} %{top3}, from-square {:.1} %",
        report.positions,
        100.0 * report.top1,
        100.0 * report.from_accuracy
    )
}

/// One blend of `predict --eval --agent blend` with several λ or bonuses.
#[derive(Debug, Serialize)]
pub struct BlendReportJson {
    /// λ.
    pub lambda: f64,
    /// `top` or `probability`.
    pub bonus: String,
    /// Its scores.
    #[serde(flatten)]
    pub report: MatchReport,
}

/// `--agent blend`: every λ × bonus with one prediction a position; one report as the
/// other agents print it, several as a list.
fn blend(
    args: &PredictArgs,
    positions: &[(Chess, Move)],
    out: &mut impl Write,
) -> Result<(), CliError> {
    if let Some(bad) = args.lambda.iter().find(|l| !(0.0..=1.0).contains(*l)) {
        return Err(CliError::Usage(format!(
            "--lambda: numbers from 0 to 1, not {bad}"
        )));
    }
    let eval = tuned(args)?;
    let predictor = Arc::new(load_predictor(args)?);
    let settings = BlendSettings {
        depth: Some(args.depth.get()),
        ..BlendSettings::default()
    };
    let reports = match_moves_each(positions, args.threads, || {
        let mut blend = Blend::new(Arc::clone(&eval), Some(Arc::clone(&predictor)), settings, 0);
        blend.resize_hash(1);
        Ok(BlendRanker::new(
            blend,
            Limits::plies(args.depth),
            args.lambda.clone(),
            args.bonus.clone(),
        ))
    })?;
    let labelled: Vec<BlendReportJson> = args
        .lambda
        .iter()
        .flat_map(|&lambda| args.bonus.iter().map(move |b| (lambda, b.to_string())))
        .zip(reports)
        .map(|((lambda, bonus), report)| BlendReportJson {
            lambda,
            bonus,
            report,
        })
        .collect();
    match (args.json, labelled.as_slice()) {
        (true, [one]) => serde_json::to_writer(&mut *out, &one.report)?,
        (true, _) => serde_json::to_writer(&mut *out, &labelled)?,
        (false, _) => {
            for r in &labelled {
                write!(out, "λ {} ({} bonus): ", r.lambda, r.bonus)?;
                writeln!(out, "{}", summary(&r.report))?;
            }
        }
    }
    if args.json {
        writeln!(out)?;
    }
    Ok(())
}
