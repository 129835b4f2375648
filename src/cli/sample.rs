//! `hastings sample`: the reply distribution at a position, and sampled lines from it.

use std::io::Write;

use clap::Args;

use super::CliError;
use super::args::{BookArgs, PopularityArgs};
use crate::book::PositionGraph;
use crate::book::polyglot::SharedBook;
use crate::sampler::{MoveSource, Style};
use crate::workspace::explorer::FilteredExplorer;

/// `hastings sample`.
#[derive(Debug, Args)]
pub struct SampleArgs {
    /// The moves from the start position, in SAN: `--moves "e4 e5 Nf3"`.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Or an opening found by name or ECO code, as the window's "Find an opening" finds
    /// it (the best match): `--opening Najdorf`, `--opening C65`.
    #[arg(long, value_name = "NAME", conflicts_with = "moves")]
    pub opening: Option<String>,
    /// The five style parameters (gambits, uncommon, 1.c4, 1.d4, 1.e4), 0 or 1 each.
    #[arg(long, value_delimiter = ',', default_values_t = [0u8; 5], value_parser = clap::value_parser!(u8).range(0..=1))]
    pub params: Vec<u8>,
    /// The five weights, each from 0 to 1.
    #[arg(long, value_delimiter = ',', default_values_t = [0.4f64; 5])]
    pub weights: Vec<f64>,
    /// The weight of implied transpositions, from 0 to 1.
    #[arg(long, default_value_t = 1.0)]
    pub tau: f64,
    /// A style profile (RON, e.g. written by `hastings fit -o`) instead of
    /// `--params/--weights/--tau`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["params", "weights", "tau"])]
    pub style: Option<std::path::PathBuf>,
    /// How many lines to sample from the position (at least 1).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub iterations: u32,
    /// The most moves a sampled line plays.
    #[arg(long, default_value_t = 40)]
    pub ply_limit: u32,
    /// The random seed (printed; random when not given).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Which lines to use.
    #[command(flatten)]
    pub book: BookArgs,
    /// Where popularity comes from.
    #[command(flatten)]
    pub popularity: PopularityArgs,
}

impl SampleArgs {
    /// The style, and the popularity a `--style` profile asks for.
    fn style(&self) -> Result<(Style, Option<crate::sampler::Popularity>), CliError> {
        if let Some(path) = &self.style {
            let profile = crate::workspace::profiles::load_profile(path)?;
            return Ok((profile.style, Some(profile.popularity)));
        }
        for (name, n) in [
            ("--params", self.params.len()),
            ("--weights", self.weights.len()),
        ] {
            if n != 5 {
                return Err(CliError::Usage(format!(
                    "{name} takes 5 comma-separated values (gambits, uncommon, c4, d4, e4), got {n}"
                )));
            }
        }
        let mut params = [0u8; 5];
        let mut weights = [0.4f64; 5];
        for (dst, src) in params.iter_mut().zip(&self.params) {
            *dst = *src;
        }
        for (dst, src) in weights.iter_mut().zip(&self.weights) {
            *dst = *src;
        }
        Ok((Style::from_vectors(params, weights, self.tau)?, None))
    }
}

/// The report of `hastings sample --json`.
#[derive(Debug, serde::Serialize)]
pub struct SampleReport {
    /// The position (the game's own FEN).
    pub fen: String,
    /// The share of the last move, as the formulas use it.
    pub s_prev: f64,
    /// The number of sampled lines.
    pub iterations: u32,
    /// The seed used.
    pub seed: u64,
    /// Every candidate, most probable first.
    pub candidates: Vec<CandidateReport>,
    /// The ten line names the sampled lines reached most.
    pub reached: Vec<ReachedReport>,
}

/// One candidate of [`SampleReport`].
#[derive(Debug, serde::Serialize)]
pub struct CandidateReport {
    /// The move in SAN.
    pub san: String,
    /// The move in UCI.
    pub uci: String,
    /// `"book"` or `"transposition"`.
    pub kind: crate::sampler::CandidateKind,
    /// Popularity share.
    pub share: f64,
    /// Style bonus.
    pub bonus: f64,
    /// Acceptance `A`.
    pub acceptance: f64,
    /// Exact probability `P`.
    pub p: f64,
    /// Frequency among the first steps of the sampled lines.
    pub sampled: f64,
    /// Why it is a candidate, from the explorer's games (`--explorer`): its games and
    /// score, e.g. `"1,234 of 5,678 games, White scores 54% (+40% =28% -32%)"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
}

/// One reached name of [`SampleReport`].
#[derive(Debug, serde::Serialize)]
pub struct ReachedReport {
    /// `"ECO name"` of the line a sampled line ended in.
    pub name: String,
    /// How many sampled lines ended there.
    pub count: u32,
}

/// Computes the report of `hastings sample` from `source` (the graph, and a Polyglot
/// book as `--popularity` says).
///
/// # Errors
///
/// [`CliError`] when a move cannot be played or the position is not in the book.
pub fn sample_report(
    source: &MoveSource<'_>,
    moves: &str,
    style: &Style,
    limits: crate::sampler::ExploreLimits,
    seed: u64,
) -> Result<SampleReport, CliError> {
    use rand::SeedableRng;
    use shakmaty::{Chess, EnPassantMode, fen::Fen, san::SanPlus};

    use crate::book::movelist::parse_moves;
    let graph = source.graph_ref();
    let played = parse_moves(&Chess::default(), moves)?;
    let (pos, s_prev) = source.replay(&played, style);
    let not_in_book = || CliError::NotInBook {
        moves: moves.to_owned(),
    };
    if !source.knows(&pos) {
        return Err(not_in_book());
    }
    let named = source.name_of(&played);
    let dist = source.distribution(&pos, style, s_prev, named);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let ex = source
        .explore(&pos, style, s_prev, named, limits, &mut rng)
        .unwrap_or_default();
    let first_steps = if ex.first_steps.is_empty() {
        vec![0; dist.candidates.len()]
    } else {
        ex.first_steps.clone()
    };
    let n = f64::from(limits.iterations.max(1));
    let mut candidates: Vec<CandidateReport> = dist
        .candidates
        .iter()
        .zip(&first_steps)
        .map(|(c, &count)| CandidateReport {
            san: SanPlus::from_move(pos.clone(), c.mv).to_string(),
            uci: PositionGraph::uci(c.mv).to_string(),
            kind: c.kind,
            share: c.share,
            bonus: c.bonus,
            acceptance: c.acceptance,
            p: c.p,
            sampled: f64::from(count) / n,
            explanation: source.explain(&pos, c.mv),
        })
        .collect();
    candidates.sort_by(|a, b| b.p.total_cmp(&a.p));
    let reached = ex
        .reached(graph)
        .into_iter()
        .take(10)
        .map(|(name, count)| ReachedReport { name, count })
        .collect();
    Ok(SampleReport {
        fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
        s_prev: dist.s_prev,
        iterations: limits.iterations,
        seed,
        candidates,
        reached,
    })
}

pub(super) fn run(args: &SampleArgs, out: &mut impl Write) -> Result<(), CliError> {
    let (style, profile_popularity) = args.style()?;
    // A profile's popularity applies unless the command line says otherwise (a book it
    // needs is the embedded gnuchess book unless `--book` names one).
    let mut popularity = args.popularity.clone();
    if popularity.popularity.is_none()
        && popularity.books.is_empty()
        && popularity.explorer.explorer.is_none()
    {
        popularity.popularity = profile_popularity;
    }
    let (graph, _) = args.book.build()?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let limits = crate::sampler::ExploreLimits {
        iterations: args.iterations,
        ply_limit: args.ply_limit,
    };
    let books = popularity.books()?;
    let explorer = popularity.explorer()?;
    let mut source = MoveSource::new(
        &graph,
        books.iter().map(SharedBook::book).collect(),
        popularity.popularity(),
    );
    if let Some(explorer) = &explorer {
        source = source.with_explorer(explorer);
    }
    let opening = args
        .opening
        .as_deref()
        .map(|name| find_opening(&graph, name))
        .transpose()?;
    let moves = opening.as_ref().map_or(args.moves.as_str(), |o| &o.sans);
    let report = sample_report(&source, moves, &style, limits, seed)?;
    if let Some(e) = explorer.as_ref().and_then(FilteredExplorer::take_error) {
        return Err(e.into());
    }
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    if let Some(opening) = &opening {
        writeln!(out, "opening   {opening}")?;
    }
    writeln!(out, "position  {}", report.fen)?;
    writeln!(
        out,
        "s_prev    {:.4}    iterations {}    seed {}",
        report.s_prev, report.iterations, report.seed
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "{:<8} {:<6} {:<13} {:>7} {:>7} {:>7} {:>7} {:>8}",
        "move", "uci", "kind", "share", "bonus", "A", "P", "sampled"
    )?;
    for c in &report.candidates {
        let kind = match c.kind {
            crate::sampler::CandidateKind::Book => "book",
            crate::sampler::CandidateKind::Transposition => "transposition",
            crate::sampler::CandidateKind::Predicted => "predicted",
        };
        writeln!(
            out,
            "{:<8} {:<6} {:<13} {:>7.4} {:>7.4} {:>7.4} {:>7.4} {:>8.4}",
            c.san, c.uci, kind, c.share, c.bonus, c.acceptance, c.p, c.sampled
        )?;
        if let Some(why) = &c.explanation {
            writeln!(out, "         {why}")?;
        }
    }
    if report.candidates.is_empty() {
        writeln!(out, "(no book move: the line ends here)")?;
    }
    writeln!(out)?;
    writeln!(out, "most reached lines:")?;
    for r in &report.reached {
        writeln!(out, "{:>7}  {}", r.count, r.name)?;
    }
    Ok(())
}

/// The opening `--opening` names: its title and its moves in SAN.
struct FoundOpening {
    title: String,
    sans: String,
}

impl std::fmt::Display for FoundOpening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.title, self.sans)
    }
}

/// The best match of `name` among the book's openings.
///
/// # Errors
///
/// [`CliError::Usage`] when nothing matches, saying so.
fn find_opening(graph: &PositionGraph, name: &str) -> Result<FoundOpening, CliError> {
    use crate::book::search::{OpeningIndex, not_found};
    let index = OpeningIndex::new(graph);
    let Some(hit) = index.search(graph, name, 1).into_iter().next() else {
        return Err(CliError::Usage(not_found(name)));
    };
    let sans = crate::book::line::sans_of(&shakmaty::Chess::default(), &hit.moves);
    Ok(FoundOpening {
        title: graph.line(hit.line).title(),
        sans: sans
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" "),
    })
}
