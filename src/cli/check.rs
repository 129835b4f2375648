//! `hastings check`: is a repertoire sound? Every position analysed by an engine
//! (cached between runs), then the learner's moves that lose, the replies met badly,
//! the lines' ends and the backed-up value ([`crate::trainer::check`]).

use std::io::Write;
use std::num::{NonZeroU32, NonZeroU64};
use std::path::PathBuf;

use clap::Args;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

use super::CliError;
use super::args::{positive, probability};
use super::coverage::{ColorArg, StyleArgs, learner_colour, theory_graph};
use super::progress_bar::terminal_count_progress;
use crate::book::PositionGraph;
use crate::coach::check::words;
use crate::engine::Score;
use crate::engine::spec::EngineSpec;
use crate::trainer::check::{
    AnalysisStore, DEFAULT_THRESHOLD_CP, Finding, LearnNext, MemoryStore, Path, Report, epd_key,
};
use crate::trainer::coverage::{CoverageOptions, DEFAULT_DEPTH, DEFAULT_MIN_MASS};
use crate::trainer::verdict::numbered_line;
use crate::workspace::analysis_cache::{AnalysisCache, AnalysisEngine, default_cache_dir};
use crate::workspace::check::{CheckPlan, Recall, learn_text, san_line};
use crate::workspace::data_dir::review_log_in;

/// `hastings check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The repertoire (repeatable).
    #[arg(long = "pgn", value_name = "FILE", required = true)]
    pub pgn: Vec<PathBuf>,
    /// The repertoire's colour (default: from its tags, else from its shape).
    #[arg(long, value_enum)]
    pub color: Option<ColorArg>,
    /// The engine: `stockfish`, `builtin`, or a UCI engine's path, with options
    /// (`stockfish,Hash=64`). Default: Stockfish when installed, else built-in.
    #[arg(long, value_name = "ENGINE")]
    pub engine: Option<EngineSpec>,
    /// Search each position to this depth (default 12 for a UCI engine, 6 built-in).
    #[arg(long, value_name = "PLIES", conflicts_with = "movetime", value_parser = positive::<NonZeroU32>)]
    pub depth: Option<NonZeroU32>,
    /// Search each position this long instead (not reproducible between runs).
    #[arg(long, value_name = "MS", value_parser = positive::<NonZeroU64>)]
    pub movetime: Option<NonZeroU64>,
    /// Report learner moves that lose at least this many centipawns.
    #[arg(long, value_name = "CP", default_value_t = DEFAULT_THRESHOLD_CP)]
    pub threshold: i32,
    /// Engines to run at once (default: one per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Where analyses are kept between runs (default: `analysis/` in the data folder).
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    pub cache: Option<PathBuf>,
    /// Keep no analyses between runs.
    #[arg(long)]
    pub no_cache: bool,
    /// The opponent's book besides the repertoire's own moves: `eco` or PGN files.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "eco|FILE.pgn",
        default_value = "eco"
    )]
    pub theory: Vec<String>,
    /// How far the drill's tree goes, in plies (the repertoire's own lines are analysed
    /// to their ends whatever this says).
    #[arg(long, value_name = "PLIES", default_value_t = DEFAULT_DEPTH)]
    pub plies: u32,
    /// Drill positions less likely than this are not expanded.
    #[arg(long, value_name = "P", default_value_t = DEFAULT_MIN_MASS, value_parser = probability)]
    pub min_mass: f64,
    /// The opponent's style.
    #[command(flatten)]
    pub style: StyleArgs,
    /// The review log whose recall ranks "learn next" (default: `reviews.log` in the
    /// data folder).
    #[arg(long, value_name = "FILE")]
    pub progress: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// One finding of [`CheckJson`].
#[derive(Debug, serde::Serialize)]
pub struct FindingJson {
    /// The position where the move is played, as EPD.
    pub epd: String,
    /// The way there in SAN, from the standard position (or from `start`).
    pub moves: String,
    /// The set-up position the moves start from, when not the standard one (FEN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The repertoire's move (SAN).
    pub played: String,
    /// The engine's best move (SAN).
    pub best: Option<String>,
    /// What the played move loses against the best, in centipawns (mates count as
    /// ±20,000 less their distance).
    pub loss_cp: i32,
    /// The score after the best move, from the learner's side (`+0.35`, `#3`, `#-1`).
    pub best_eval: String,
    /// The score after the played move, from the learner's side.
    pub played_eval: String,
    /// The probability that a drill meets it.
    pub reach: f64,
    /// The engine's line after the played move, in SAN.
    pub refutation: Vec<String>,
}

/// One line end of [`CheckJson`].
#[derive(Debug, serde::Serialize)]
pub struct LineEndJson {
    /// The line in SAN.
    pub moves: String,
    /// The set-up position the moves start from, when not the standard one (FEN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The score at the end, centipawns from the learner's side (mates beyond ±10,000).
    pub eval_cp: Option<i32>,
    /// The probability that a drill reaches it.
    pub reach: f64,
    /// Whether a reported blunder of the line explains a bad end.
    pub after_blunder: bool,
}

/// The report of `hastings check --json`.
#[derive(Debug, serde::Serialize)]
pub struct CheckJson {
    /// Positions the engine analysed in this run.
    pub positions_analysed: usize,
    /// Positions found in the cache.
    pub cached: usize,
    /// The engine (its UCI name, version included) and limit.
    pub engine: String,
    /// Learner moves that lose at least the threshold, by reach × loss.
    pub blunders: Vec<FindingJson>,
    /// Opponent replies after which the prepared answer loses at least the threshold:
    /// the blunders again, seen from each reply before them (the text report names only
    /// the replies other than a blunder's own line, under it).
    pub weak_answers: Vec<FindingJson>,
    /// Where each line stops.
    pub line_ends: Vec<LineEndJson>,
    /// The min-max back-up, centipawns from the learner's side (scores capped at ±1000).
    pub minimax_cp: Option<i32>,
    /// The expected score under the drill's reply distribution (capped likewise).
    pub expected_cp: Option<f64>,
    /// Which line to learn next: the positions where learning pays most, the most
    /// paying first (`reach × (1 − recall) × stake`).
    pub learn_next: Vec<LearnJson>,
}

/// A position worth learning, in [`CheckJson`].
#[derive(Debug, serde::Serialize)]
pub struct LearnJson {
    /// The position, the learner to move, as EPD.
    pub epd: String,
    /// The likeliest way there in SAN, from the standard position.
    pub moves: String,
    /// The repertoire's move there (SAN).
    pub answer: String,
    /// `"e4 e5 Nf3: Nc6"`: the way there and the answer.
    pub text: String,
    /// How often a drill meets it.
    pub reach: f64,
    /// The probability that the learner remembers the answer now (0 if never reviewed).
    pub recall: f64,
    /// What the line is worth, in centipawns (at least 100).
    pub stake_cp: i32,
    /// `reach × (1 − recall) × stake in pawns`.
    pub priority: f64,
}

fn start_fen(path: &Path) -> Option<String> {
    (path.start != Chess::default()).then(|| {
        shakmaty::fen::Fen::from_position(&path.start, shakmaty::EnPassantMode::Legal).to_string()
    })
}

fn finding_json(f: &Finding) -> FindingJson {
    let mut after = f.position.clone();
    let played = SanPlus::from_move_and_play_unchecked(&mut after, f.played).to_string();
    FindingJson {
        epd: epd_key(&f.position),
        moves: san_line(&f.path.start, &f.path.moves).join(" "),
        start: start_fen(&f.path),
        played,
        best: f
            .best
            .map(|m| SanPlus::from_move(f.position.clone(), m).to_string()),
        loss_cp: f.loss_cp,
        best_eval: f.best_score.to_string(),
        played_eval: f.played_score.to_string(),
        reach: f.reach,
        refutation: san_line(&after, &f.refutation),
    }
}

/// The JSON report of a check.
pub fn check_json(report: &Report, analysed: usize, cached: usize, engine: &str) -> CheckJson {
    CheckJson {
        positions_analysed: analysed,
        cached,
        engine: engine.to_owned(),
        blunders: report.blunders.iter().map(finding_json).collect(),
        weak_answers: report.weak_answers.iter().map(finding_json).collect(),
        line_ends: report
            .line_ends
            .iter()
            .map(|e| LineEndJson {
                moves: san_line(&e.path.start, &e.path.moves).join(" "),
                start: start_fen(&e.path),
                eval_cp: e.score.map(Score::to_centipawns),
                reach: e.reach,
                after_blunder: e.after_blunder,
            })
            .collect(),
        minimax_cp: report.minimax_cp,
        expected_cp: report.expected_cp,
        learn_next: Vec::new(),
    }
}

pub(super) fn run(
    args: &CheckArgs,
    data_dir: Option<&std::path::Path>,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let style = args.style.style()?;
    let repertoire = repertoire_graph(&args.pgn)?;
    let theory = theory_graph(&args.theory)?;
    let learner = learner_colour(args.color, &repertoire)?;
    let check = CheckPlan {
        repertoire: &repertoire,
        theory: &theory,
        style: &style,
        options: CoverageOptions {
            depth: args.plies,
            min_mass: args.min_mass,
            ..CoverageOptions::new(learner)
        },
        engine: AnalysisEngine::choose(args.engine.clone(), args.depth, args.movetime),
        threshold: args.threshold,
        threads: args.threads,
        learn_shown: LEARN_SHOWN,
    }
    .prepare()?;
    let name = check.name();

    let mut store: Box<dyn AnalysisStore> = if args.no_cache {
        Box::new(MemoryStore::new())
    } else {
        let dir = args
            .cache
            .clone()
            .or_else(|| data_dir.map(|d| d.join("analysis")))
            .or_else(default_cache_dir)
            .ok_or_else(|| {
                CliError::Usage(
                    "no data folder for the cache: give --cache DIR or --no-cache".to_owned(),
                )
            })?;
        let cache = AnalysisCache::open(&dir, name, check.limit())?;
        for w in cache.warnings() {
            eprintln!("hastings: {w}");
        }
        Box::new(cache)
    };
    let log = match &args.progress {
        Some(p) => Some(p.clone()),
        None => data_dir.map(review_log_in),
    };
    let recall = Recall::open(log.as_deref(), learner);
    if let Some(w) = recall.warning() {
        eprintln!("hastings: {w}");
    }
    let progress = terminal_count_progress(&format!("analysing with {name}"));
    let outcome = check.run(store.as_mut(), &recall, &progress);
    progress.finish();
    let stats = outcome
        .stats
        .map_err(|e| CliError::Usage(format!("the check stopped: {e}")))?;
    let mut json = check_json(
        &outcome.report,
        stats.analysed,
        stats.cached,
        &check.engine_text(),
    );
    json.learn_next = outcome.learn_next.iter().map(learn_json).collect();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
        return Ok(());
    }
    write_text(out, &json, &outcome.report, learner, args.threshold)
}

/// How many positions "learn next" lists.
const LEARN_SHOWN: usize = 10;

fn learn_json(l: &LearnNext) -> LearnJson {
    LearnJson {
        epd: epd_key(&l.position),
        moves: san_line(&Chess::default(), &l.moves).join(" "),
        answer: SanPlus::from_move(l.position.clone(), l.answer).to_string(),
        text: learn_text(l),
        reach: l.reach,
        recall: l.recall,
        stake_cp: l.stake_cp,
        priority: l.priority,
    }
}

/// The repertoire's own lines, without the ECO list.
fn repertoire_graph(pgn: &[PathBuf]) -> Result<PositionGraph, CliError> {
    let book = super::BookArgs {
        min_moves: 0,
        volumes: Vec::new(),
        eco: None,
        name: None,
        pgn: pgn.to_vec(),
        no_eco: true,
        sources: Vec::new(),
    };
    Ok(book.build()?.0)
}

fn write_text(
    out: &mut impl Write,
    json: &CheckJson,
    report: &Report,
    learner: shakmaty::Color,
    threshold: i32,
) -> Result<(), CliError> {
    let colour = if learner.is_white() { "White" } else { "Black" };
    writeln!(
        out,
        "repertoire for {colour}, checked by {}: {} positions analysed, {} from the cache",
        json.engine, json.positions_analysed, json.cached
    )?;
    match (json.minimax_cp, json.expected_cp) {
        (Some(m), Some(e)) => writeln!(out, "{}", words::value_words(m, e))?,
        _ => writeln!(out, "value: not every position is analysed yet")?,
    }
    writeln!(out)?;
    let losing = match threshold {
        100 => "a pawn".to_owned(),
        cp => format!("{} pawns", f64::from(cp) / 100.0),
    };
    if report.blunders.is_empty() {
        writeln!(out, "your moves that lose {losing} or more: none")?;
    } else {
        writeln!(
            out,
            "your moves that lose {losing} or more ({}), the most often met first:",
            report.blunders.len()
        )?;
        for f in &report.blunders {
            finding_text(out, f, &report.weak_answers)?;
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "where your lines end (in pawns, + is good for you; the most often met and worst first):"
    )?;
    for e in report.line_ends.iter().take(20) {
        writeln!(
            out,
            "  {:>7}  {}{}{}",
            e.score.map_or("?".to_owned(), words::score_words),
            if e.path.start == Chess::default() {
                String::new()
            } else {
                let fen = shakmaty::fen::Fen::from_position(
                    &e.path.start,
                    shakmaty::EnPassantMode::Legal,
                );
                format!("from {fen}: ")
            },
            numbered_line(&e.path.start, &e.path.moves),
            if e.after_blunder {
                "  (after a move that loses)"
            } else {
                ""
            }
        )?;
    }
    writeln!(out)?;
    if json.learn_next.is_empty() {
        writeln!(
            out,
            "learn next: none (no sound line of yours that a drill meets)"
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "learn next, where it pays most (how often you meet it, how likely you forgot it, what it is worth):"
    )?;
    for l in &json.learn_next {
        writeln!(
            out,
            "  {}  ({})",
            l.text,
            words::learn_words(l.reach, l.recall, f64::from(l.stake_cp) / 100.0)
        )?;
    }
    Ok(())
}

/// A losing move in the text report: the numbered line, how often a drill meets it,
/// the better move and the punishment, and the other replies that lead to it (the weak
/// answers of the same move reached another way; the likeliest way is the line itself).
fn finding_text(out: &mut impl Write, f: &Finding, weak: &[Finding]) -> std::io::Result<()> {
    writeln!(
        out,
        "  {}  ({})",
        words::mistake_line(&f.path.start, &f.path.moves, f.played),
        words::how_often(f.reach)
    )?;
    let mut after = f.position.clone();
    after.play_unchecked(f.played);
    let best = f.best.map(|m| numbered_line(&f.position, &[m]));
    let scores = (
        words::score_words(f.best_score),
        words::score_words(f.played_score),
    );
    writeln!(
        out,
        "      {}",
        words::punishment_words(
            best.as_deref(),
            &scores,
            &numbered_line(&after, &f.refutation)
        )
    )?;
    let key = epd_key(&f.position);
    for w in weak
        .iter()
        .filter(|w| w.played == f.played && w.path != f.path && epd_key(&w.position) == key)
    {
        writeln!(
            out,
            "      also met after {} ({})",
            numbered_line(&w.path.start, &w.path.moves),
            words::how_often(w.reach)
        )?;
    }
    Ok(())
}
