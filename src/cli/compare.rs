//! `hastings compare`: a player's games against a repertoire: where each game left it,
//! and the most frequent deviations ([`crate::trainer::compare`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use shakmaty::{Color, Move};

use super::CliError;
use super::args::BookArgs;
use super::coverage::{ColorArg, learner_colour};
use crate::book::PositionGraph;
use crate::sampler::{MoveSource, Style};
use crate::trainer::compare::{CompareSummary, Comparison, Deviation, GameComparison, Mover};
use crate::trainer::coverage::{CoverageOptions, describe};
use crate::workspace::compare_games::{CompareGamesError, KnownGaps, Player, compare_games_file};

/// `hastings compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The games: a PGN file (read as a game collection).
    #[arg(long, value_name = "FILE.pgn")]
    pub games: PathBuf,
    /// The player whose games to compare, as in the `White`/`Black` tags (any case).
    #[arg(long, value_name = "NAME")]
    pub player: String,
    /// The repertoire's colour (default: guessed from the repertoire).
    #[arg(long, value_enum)]
    pub color: Option<ColorArg>,
    /// Count each card the player left the repertoire at as a failed review (`again`,
    /// now) in the review log, so that real games feed the schedule.
    #[arg(long)]
    pub record_reviews: bool,
    /// The review log for `--record-reviews` (default: `reviews.log` in the app's data
    /// directory, the one `hastings review` and the window use).
    #[arg(long, value_name = "FILE", requires = "record_reviews")]
    pub progress: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// The repertoire: usually `--pgn rep.pgn --no-eco`.
    #[command(flatten)]
    pub book: BookArgs,
}

/// Where a game left the repertoire, in [`DeviationJson`] and [`DeviationCountJson`].
#[derive(Debug, serde::Serialize)]
pub struct LeftJson {
    /// The game's moves before the move, in SAN.
    pub moves: String,
    /// The move played, in SAN.
    pub played: String,
    /// The repertoire's moves there, in SAN.
    pub repertoire: Vec<String>,
    /// The position before the move, as EPD.
    pub epd: String,
    /// For the opponent: whether the position after the move is a known gap.
    pub known_gap: bool,
}

/// A deviation in [`GameJson`].
#[derive(Debug, serde::Serialize)]
pub struct DeviationJson {
    /// The move's number in plies (1: White's first move).
    pub ply: u32,
    /// The moves, the move and the position.
    #[serde(flatten)]
    pub left: LeftJson,
}

/// A return into the repertoire in [`GameJson`].
#[derive(Debug, serde::Serialize)]
pub struct ReturnJson {
    /// The moves played when the game was back in the repertoire.
    pub ply: u32,
    /// The game's moves up to there, in SAN.
    pub moves: String,
    /// The position, as EPD.
    pub epd: String,
}

/// One game of [`CompareJson`].
#[derive(Debug, serde::Serialize)]
pub struct GameJson {
    /// The game's number in the file.
    pub game: u32,
    /// The `White` tag.
    pub white: String,
    /// The `Black` tag.
    pub black: String,
    /// The `Result` tag.
    pub result: String,
    /// The player's colour, `"white"` or `"black"`.
    pub color: String,
    /// Plies read.
    pub plies: u32,
    /// Where the player first left the repertoire.
    pub player_left: Option<DeviationJson>,
    /// Where the opponent first left it.
    pub opponent_left: Option<DeviationJson>,
    /// The ply at which the game stood where the repertoire has no move.
    pub repertoire_end: Option<u32>,
    /// Returns into the repertoire by transposition.
    pub returns: Vec<ReturnJson>,
}

/// One frequent deviation of [`SummaryJson`].
#[derive(Debug, serde::Serialize)]
pub struct DeviationCountJson {
    /// `"player"` or `"opponent"`.
    pub by: Mover,
    /// How many games.
    pub count: u32,
    /// The moves (of the first game), the move and the position.
    #[serde(flatten)]
    pub left: LeftJson,
}

/// The summary of [`CompareJson`]: the counts of [`CompareSummary`], then the most
/// frequent deviations in SAN.
#[derive(Debug, serde::Serialize)]
pub struct SummaryJson<'c> {
    /// Games in the file, compared, left out (and why), left, ended and returned.
    #[serde(flatten)]
    pub counts: &'c CompareSummary,
    /// The first deviations, most frequent first.
    pub deviations: Vec<DeviationCountJson>,
}

/// The report of `hastings compare --json`.
#[derive(Debug, serde::Serialize)]
pub struct CompareJson<'c> {
    /// The games compared, in file order.
    pub games: Vec<GameJson>,
    /// The counts and the most frequent deviations.
    pub summary: SummaryJson<'c>,
}

fn san_path(moves: &[Move]) -> String {
    describe(moves, &[]).sans
}

fn left_json(
    moves: &[Move],
    played: &str,
    repertoire: &[String],
    epd: &str,
    gap: bool,
) -> LeftJson {
    LeftJson {
        moves: san_path(moves),
        played: played.to_owned(),
        repertoire: repertoire.to_vec(),
        epd: epd.to_owned(),
        known_gap: gap,
    }
}

fn deviation_json(d: &Deviation) -> DeviationJson {
    DeviationJson {
        ply: d.ply,
        left: left_json(&d.moves, &d.san, &d.repertoire, &d.epd, d.known_gap),
    }
}

fn game_json(g: &GameComparison) -> GameJson {
    GameJson {
        game: g.game,
        white: g.white.clone(),
        black: g.black.clone(),
        result: g.result.clone(),
        color: if g.colour.is_white() {
            "white"
        } else {
            "black"
        }
        .to_owned(),
        plies: g.plies,
        player_left: g.player_left.as_ref().map(deviation_json),
        opponent_left: g.opponent_left.as_ref().map(deviation_json),
        repertoire_end: g.repertoire_end,
        returns: g
            .returns
            .iter()
            .map(|r| ReturnJson {
                ply: r.ply,
                moves: san_path(&r.moves),
                epd: r.epd.clone(),
            })
            .collect(),
    }
}

/// The JSON report of a comparison.
pub fn compare_json(c: &Comparison) -> CompareJson<'_> {
    let s = &c.summary;
    CompareJson {
        games: c.games.iter().map(game_json).collect(),
        summary: SummaryJson {
            counts: s,
            deviations: s
                .deviations
                .iter()
                .map(|d| DeviationCountJson {
                    by: d.by,
                    count: d.count,
                    left: left_json(&d.moves, &d.played, &d.repertoire, &d.epd, d.known_gap),
                })
                .collect(),
        },
    }
}

impl From<CompareGamesError> for CliError {
    fn from(e: CompareGamesError) -> CliError {
        match e {
            CompareGamesError::Read(e) => CliError::Workspace(e),
            e @ (CompareGamesError::NoPlayer { .. }
            | CompareGamesError::PlayerNeeded { .. }
            | CompareGamesError::UnknownPlayer { .. }) => CliError::Usage(e.to_string()),
        }
    }
}

pub(super) fn run(
    args: &CompareArgs,
    data_dir: Option<&Path>,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let (repertoire, _) = args.book.build()?;
    let learner = learner_colour(args.color, &repertoire)?;
    let eco = PositionGraph::eco()?;
    let theory = MoveSource::graph(&eco);
    let progress = super::progress_bar::terminal_progress(&args.games.display().to_string());
    let gaps = KnownGaps::Exposure {
        theory: &theory,
        style: &Style::neutral(),
        options: &CoverageOptions::new(learner),
    };
    let result = compare_games_file(
        &args.games,
        &repertoire,
        &eco,
        Player::NamedOrMostFrequent(&args.player),
        learner,
        gaps,
        &progress,
    )?
    .comparison;
    if args.record_reviews {
        record_reviews(args, data_dir, &result)?;
    }
    let report = compare_json(&result);
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    write_text(out, &args.player, learner, &result, &report)
}

/// Appends the player's deviations to the review log as failed reviews; says so on
/// stderr (stdout stays the report).
fn record_reviews(
    args: &CompareArgs,
    data_dir: Option<&Path>,
    result: &Comparison,
) -> Result<(), CliError> {
    use crate::workspace::review_store::{ReviewCommandError, ReviewStore};
    let log = super::review::review_log(args.progress.as_deref(), data_dir)?;
    let now = crate::review::Timestamp::from_clock(crate::clock::Clock::local());
    let failed = result.failed_reviews(now);
    let store_error = |e| CliError::Review(ReviewCommandError::Store(e));
    let mut store = ReviewStore::open(&log).map_err(store_error)?;
    for w in store.warnings() {
        eprintln!("hastings: {w}");
    }
    for r in &failed {
        store.append(r).map_err(store_error)?;
    }
    eprintln!(
        "hastings: {} failed review(s) recorded in {}",
        failed.len(),
        log.display()
    );
    Ok(())
}

fn write_text(
    out: &mut impl Write,
    player: &str,
    learner: Color,
    result: &Comparison,
    report: &CompareJson,
) -> Result<(), CliError> {
    let s = report.summary.counts;
    let colour = if learner.is_white() { "White" } else { "Black" };
    writeln!(
        out,
        "{} games; {} of {player} with {colour} compared ({} with the other colour, {} not {player}'s, {} from another start)",
        s.games, s.compared, s.other_colour, s.not_player, s.other_start
    )?;
    writeln!(
        out,
        "{player} left the repertoire in {}, the opponent in {} ({} into a known gap); the repertoire ended in {}; {} came back by transposition",
        s.player_left, s.opponent_left, s.known_gaps, s.repertoire_ended, s.returned
    )?;
    writeln!(out)?;
    for (g, j) in result.games.iter().zip(&report.games) {
        let what = match g.first_exit() {
            Some((Mover::Player, d)) => format!(
                "{player} left at ply {}: {} (repertoire: {})",
                d.ply,
                d.san,
                d.repertoire.join(", ")
            ),
            Some((Mover::Opponent, d)) => format!(
                "the opponent left at ply {}: {}{}",
                d.ply,
                d.san,
                if d.known_gap { " (a known gap)" } else { "" }
            ),
            None => match g.repertoire_end {
                Some(ply) => format!("followed the repertoire to its end (ply {ply})"),
                None => "stayed in the repertoire".to_owned(),
            },
        };
        let back = if j.returns.is_empty() {
            String::new()
        } else {
            format!("; back at ply {}", j.returns[0].ply)
        };
        writeln!(
            out,
            "game {:>4}  {} - {}  {}  {what}{back}",
            g.game, g.white, g.black, g.result
        )?;
    }
    let deviations = &report.summary.deviations;
    if !deviations.is_empty() {
        writeln!(out)?;
        writeln!(out, "most frequent deviations:")?;
        for (by, count, d) in deviations.iter().take(10).map(|d| (d.by, d.count, &d.left)) {
            let at = if d.moves.is_empty() {
                "the start".to_owned()
            } else {
                d.moves.clone()
            };
            match by {
                Mover::Player => writeln!(
                    out,
                    "  {count:>4}x  {player} played {} after {at} (repertoire: {})",
                    d.played,
                    d.repertoire.join(", ")
                )?,
                Mover::Opponent => writeln!(
                    out,
                    "  {count:>4}x  the opponent played {} after {at}{}",
                    d.played,
                    if d.known_gap { " (a known gap)" } else { "" }
                )?,
            }
        }
    }
    Ok(())
}
