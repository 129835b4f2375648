//! `hastings coverage`: what a repertoire will face against a theory book: reach of
//! positions, gaps, coverage by depth, redundant moves ([`crate::trainer::coverage`]).

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use shakmaty::Color;

use super::CliError;
use super::args::{BookArgs, PopularityArgs};
use crate::book::polyglot::SharedBook;
use crate::book::{LineFilter, PositionGraph};
use crate::sampler::{MoveSource, Style};
use crate::trainer::compare::repertoire_colour;
use crate::trainer::coverage::{
    CoverageOptions, CoverageRow, DEFAULT_DEPTH, DEFAULT_MIN_MASS, DEFAULT_THRESHOLD, Exposure,
    LearnerSplit, exposure_from, one_in, sans_at,
};
use crate::workspace::{BookChoice, FileMode, Workspace};

/// A colour on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<ColorArg> for Color {
    fn from(c: ColorArg) -> Color {
        match c {
            ColorArg::White => Color::White,
            ColorArg::Black => Color::Black,
        }
    }
}

/// How the learner's moves share a position's reach, on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SplitArg {
    /// Each repertoire move equally.
    Even,
    /// In proportion to the number of the repertoire's lines that play each move.
    Weights,
}

/// The opponent's style: `--params`, `--weights`, `--tau` (as `hastings sample`).
#[derive(Debug, Clone, Args)]
pub struct StyleArgs {
    /// The five style parameters (gambits, uncommon, 1.c4, 1.d4, 1.e4), 0 or 1 each.
    #[arg(long, value_delimiter = ',', default_values_t = [0u8; 5], value_parser = clap::value_parser!(u8).range(0..=1))]
    pub params: Vec<u8>,
    /// The five weights, each from 0 to 1.
    #[arg(long, value_delimiter = ',', default_values_t = [0.4f64; 5])]
    pub weights: Vec<f64>,
    /// The weight of implied transpositions, from 0 to 1.
    #[arg(long, default_value_t = 1.0)]
    pub tau: f64,
}

impl StyleArgs {
    /// The style these options give.
    ///
    /// # Errors
    ///
    /// [`CliError::Usage`] unless five parameters and five weights are given,
    /// [`CliError::Style`] for a value out of range.
    pub fn style(&self) -> Result<Style, CliError> {
        let five = |name: &str, n: usize| {
            if n == 5 {
                Ok(())
            } else {
                Err(CliError::Usage(format!(
                    "{name} takes 5 comma-separated values (gambits, uncommon, c4, d4, e4), got {n}"
                )))
            }
        };
        five("--params", self.params.len())?;
        five("--weights", self.weights.len())?;
        let mut params = [0u8; 5];
        let mut weights = [0.4f64; 5];
        params.copy_from_slice(&self.params);
        weights.copy_from_slice(&self.weights);
        Ok(Style::from_vectors(params, weights, self.tau)?)
    }
}

/// `hastings coverage`.
#[derive(Debug, Args)]
pub struct CoverageArgs {
    /// The opponent's book, repeatable: `eco` (the embedded list) or a PGN file (a
    /// games collection or a repertoire, decided from the file); `--theory eco,games.pgn`
    /// joins them.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "eco|FILE.pgn",
        default_value = "eco"
    )]
    pub theory: Vec<String>,
    /// The repertoire's colour (default: guessed from the repertoire's `[Orientation]`
    /// tags, else from the side that branches less).
    #[arg(long, value_enum)]
    pub color: Option<ColorArg>,
    /// How far to look, in plies from the start.
    #[arg(long, value_name = "PLIES", default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,
    /// The reach a gap (or a listed position) needs, from 0 to 1 (0.005: 1 drill in 200).
    #[arg(long, value_name = "P", default_value_t = DEFAULT_THRESHOLD)]
    pub threshold: f64,
    /// States with less reach are not expanded (their reach is reported as `mass_cut`).
    #[arg(long, value_name = "P", default_value_t = DEFAULT_MIN_MASS)]
    pub min_mass: f64,
    /// How the learner's moves share a position's reach.
    #[arg(long, value_enum, default_value_t = SplitArg::Even)]
    pub split: SplitArg,
    /// The opponent's style.
    #[command(flatten)]
    pub style: StyleArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// The repertoire: usually `--pgn rep.pgn --no-eco`.
    #[command(flatten)]
    pub book: BookArgs,
    /// The opponent's popularity: `--book FILE.bin` (a Polyglot games book added to the
    /// theory) and `--popularity`.
    #[command(flatten)]
    pub popularity: PopularityArgs,
}

/// One position of [`CoverageJson`].
#[derive(Debug, serde::Serialize)]
pub struct PositionJson {
    /// The position as EPD.
    pub epd: String,
    /// The most likely way there, in SAN from the start: `"e4 c6"`.
    pub moves: String,
    /// The probability that a drill reaches it.
    pub reach: f64,
    /// `"B10 Caro-Kann Defense"`, if a line names it.
    pub name: Option<String>,
}

/// One gap of [`CoverageJson`].
#[derive(Debug, serde::Serialize)]
pub struct GapJson {
    /// The position as EPD.
    pub epd: String,
    /// The most likely way there, in SAN from the start.
    pub moves: String,
    /// The probability that a drill reaches it.
    pub reach: f64,
    /// The opening's name, if a line names it.
    pub name: Option<String>,
    /// The theory's moves there, most popular first, in SAN.
    pub theory: Vec<String>,
}

/// One redundant position of [`CoverageJson`].
#[derive(Debug, serde::Serialize)]
pub struct RedundantJson {
    /// The position as EPD.
    pub epd: String,
    /// The most likely way there, in SAN from the start.
    pub moves: String,
    /// The repertoire's moves there, in SAN.
    pub repertoire: Vec<String>,
}

/// The report of `hastings coverage --json`.
#[derive(Debug, serde::Serialize)]
pub struct CoverageJson {
    /// Per ply before the depth limit where the learner moves: the reach of the
    /// learner's positions and the part answered by the repertoire.
    pub coverage: Vec<crate::trainer::coverage::DepthCoverage>,
    /// The reach left unexpanded below the minimum mass.
    pub mass_cut: f64,
    /// The positions reached at least as often as the threshold, most likely first.
    pub positions: Vec<PositionJson>,
    /// The gaps, most likely first.
    pub gaps: Vec<GapJson>,
    /// The learner's positions with more than one repertoire move, most likely first.
    pub redundant: Vec<RedundantJson>,
}

/// The JSON report of an exposure; names come from `theory`, then `repertoire`.
pub fn coverage_json(
    ex: &Exposure,
    repertoire: &PositionGraph,
    theory: &PositionGraph,
) -> CoverageJson {
    let names = [theory, repertoire];
    CoverageJson {
        coverage: ex.coverage().to_vec(),
        mass_cut: ex.mass_cut(),
        positions: ex
            .likely_positions()
            .map(|p| {
                let row = CoverageRow::new(&p.moves, &p.position, p.reach, &names);
                PositionJson {
                    epd: row.epd,
                    moves: row.sans,
                    reach: row.reach,
                    name: row.name,
                }
            })
            .collect(),
        gaps: ex
            .gaps()
            .iter()
            .map(|g| {
                let row = CoverageRow::gap(g, &names);
                GapJson {
                    epd: row.epd,
                    moves: row.sans,
                    reach: row.reach,
                    name: row.name,
                    theory: row.theory,
                }
            })
            .collect(),
        redundant: ex
            .redundant()
            .iter()
            .map(|r| {
                let row = CoverageRow::new(&r.moves, &r.position, r.reach, &names);
                RedundantJson {
                    epd: row.epd,
                    moves: row.sans,
                    repertoire: sans_at(&r.position, &r.repertoire),
                }
            })
            .collect(),
    }
}

/// The theory book of `--theory`: ECO and PGN files, in the order given.
///
/// # Errors
///
/// [`CliError::Workspace`] when a file cannot be read, [`CliError::Usage`] when nothing
/// is named.
pub fn theory_graph(theory: &[String]) -> Result<PositionGraph, CliError> {
    if theory.is_empty() {
        return Err(CliError::Usage(
            "--theory needs `eco` or a PGN file".to_owned(),
        ));
    }
    let eco = theory.iter().any(|t| t.eq_ignore_ascii_case("eco"));
    let mut ws = Workspace::new(BookChoice {
        eco,
        files: Vec::new(),
        filter: LineFilter::default(),
        ..BookChoice::default()
    })?;
    for t in theory.iter().filter(|t| !t.eq_ignore_ascii_case("eco")) {
        ws.import_now_with(
            &PathBuf::from(t),
            FileMode::Auto,
            None,
            &super::progress_bar::terminal_progress(t),
        )?;
    }
    let build = ws.build_now();
    if !build.issues.is_empty() {
        eprintln!(
            "hastings: {} theory lines could not be replayed and were left out; first: {}",
            build.issues.len(),
            build.issues[0]
        );
    }
    Ok(build.graph)
}

/// The repertoire's colour: `given`, else guessed.
///
/// # Errors
///
/// [`CliError::Usage`] when none is given and the repertoire does not tell.
pub fn learner_colour(
    given: Option<ColorArg>,
    repertoire: &PositionGraph,
) -> Result<Color, CliError> {
    given
        .map(Color::from)
        .or_else(|| repertoire_colour(repertoire))
        .ok_or_else(|| {
            CliError::Usage(
                "cannot tell the repertoire's colour from its lines: give --color white or --color black"
                    .to_owned(),
            )
        })
}

pub(super) fn run(args: &CoverageArgs, out: &mut impl Write) -> Result<(), CliError> {
    if !(0.0..=1.0).contains(&args.threshold) || !(0.0..=1.0).contains(&args.min_mass) {
        return Err(CliError::Usage(
            "--threshold and --min-mass are probabilities, from 0 to 1".to_owned(),
        ));
    }
    let style = args.style.style()?;
    let (repertoire, _) = args.book.build()?;
    if !args.book.no_eco {
        eprintln!(
            "hastings: the repertoire includes the ECO list (add --no-eco to use only --pgn files)"
        );
    }
    let theory = theory_graph(&args.theory)?;
    let options = CoverageOptions {
        learner: learner_colour(args.color, &repertoire)?,
        depth: args.depth,
        min_mass: args.min_mass,
        threshold: args.threshold,
        split: match args.split {
            SplitArg::Even => LearnerSplit::Even,
            SplitArg::Weights => LearnerSplit::ByWeight,
        },
    };
    let books = args.popularity.books()?;
    let explorer = args.popularity.explorer()?;
    let mut source = MoveSource::new(
        &theory,
        books.iter().map(SharedBook::book).collect(),
        args.popularity.popularity(),
    );
    if let Some(explorer) = &explorer {
        source = source.with_explorer(explorer);
    }
    let ex = exposure_from(&repertoire, &source, &style, &options);
    if let Some(e) = explorer.as_ref().and_then(|e| e.take_error()) {
        return Err(e.into());
    }
    let report = coverage_json(&ex, &repertoire, &theory);
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    write_text(out, &ex, &report)
}

fn write_text(out: &mut impl Write, ex: &Exposure, report: &CoverageJson) -> Result<(), CliError> {
    let o = ex.options();
    let colour = if o.learner.is_white() {
        "White"
    } else {
        "Black"
    };
    writeln!(
        out,
        "repertoire for {colour}, depth {} plies, threshold {:.2}% (1 drill in {})",
        o.depth,
        o.threshold * 100.0,
        one_in(o.threshold)
    )?;
    writeln!(
        out,
        "reach: {:.4} ended before the depth, {:.4} at the depth, {:.6} cut (below {})",
        ex.mass_ended(),
        ex.mass_at_depth(),
        ex.mass_cut(),
        o.min_mass
    )?;
    writeln!(out)?;
    writeln!(out, "coverage by depth:")?;
    writeln!(
        out,
        "{:>5} {:>9} {:>9} {:>8}",
        "ply", "reach", "covered", "share"
    )?;
    for c in &report.coverage {
        let share = if c.reach > 0.0 {
            c.covered / c.reach
        } else {
            0.0
        };
        writeln!(
            out,
            "{:>5} {:>9.4} {:>9.4} {:>7.1}%",
            c.ply,
            c.reach,
            c.covered,
            share * 100.0
        )?;
    }
    writeln!(out)?;
    if report.gaps.is_empty() {
        writeln!(out, "no gaps above the threshold")?;
    } else {
        writeln!(out, "gaps (you will meet these and have no answer):")?;
        for g in &report.gaps {
            writeln!(
                out,
                "  1 in {:<6} {:<28} {}  theory: {}",
                one_in(g.reach),
                g.moves,
                g.name.as_deref().unwrap_or("(unnamed)"),
                g.theory
                    .iter()
                    .take(5)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            )?;
        }
    }
    writeln!(out)?;
    writeln!(out, "most likely positions:")?;
    for p in report.positions.iter().take(20) {
        let at = if p.moves.is_empty() {
            "(start)"
        } else {
            p.moves.as_str()
        };
        writeln!(
            out,
            "  {:>7.4}  {at:<28} {}",
            p.reach,
            p.name.as_deref().unwrap_or("")
        )?;
    }
    if !report.redundant.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "positions where the repertoire has more than one move:"
        )?;
        for r in &report.redundant {
            let at = if r.moves.is_empty() {
                "(start)"
            } else {
                r.moves.as_str()
            };
            writeln!(out, "  {at:<28} {}", r.repertoire.join(", "))?;
        }
    }
    Ok(())
}
