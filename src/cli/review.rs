//! `hastings review`: the spaced-repetition queue, and grading a card; the work is in
//! [`crate::workspace::review_store`].

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::CliError;
use super::args::BookArgs;

/// `hastings review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The learner's colour: white or black.
    #[arg(long, default_value = "white", value_parser = parse_color)]
    pub color: shakmaty::Color,
    /// The review log (default: `reviews.log` in the app's data directory).
    #[arg(long, value_name = "FILE")]
    pub progress: Option<PathBuf>,
    /// The time to act at, RFC 3339 (`2025-03-01T09:30:00+01:00`); default: now.
    #[arg(long, value_name = "RFC3339", value_parser = parse_now)]
    pub now: Option<crate::review::Timestamp>,
    /// Grade the card at the position after these moves (SAN from the start).
    #[arg(long, value_name = "SAN", requires = "rating")]
    pub grade: Option<String>,
    /// The grade: again, hard, good or easy.
    #[arg(long, requires = "grade", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<crate::review::Rating>()))]
    pub rating: Option<crate::review::Rating>,
    /// Do not fuzz the interval of a grade.
    #[arg(long)]
    pub no_fuzz: bool,
    /// List only cards with lapses (the window's mistakes-only session also drills the
    /// positions missed in its progress).
    #[arg(long)]
    pub mistakes: bool,
    /// New cards a day.
    #[arg(long, value_name = "N", default_value_t = crate::review::study::DEFAULT_NEW_PER_DAY)]
    pub new_per_day: u32,
    /// Which positions the session draws, listed in order: due (the daily queue), week
    /// (due this week), common:N (the N a drill reaches most), difficult or difficult:N
    /// (highest FSRS difficulty), all, branch:"SAN moves" (at or after that position),
    /// chapter:N (the lines of game N of the PGN file).
    #[arg(long, value_name = "SESSION", conflicts_with = "mistakes", value_parser = clap::builder::ValueParser::new(|s: &str| s.parse::<crate::review::SessionChoice>()))]
    pub session: Option<crate::review::SessionChoice>,
    /// How many queued cards to list (default: 20; with `--session`, all).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Which lines make the book.
    #[command(flatten)]
    pub book: BookArgs,
}

/// The review log: `--progress FILE`, else `reviews.log` in the data directory.
pub(super) fn review_log(
    progress: Option<&Path>,
    data_dir: Option<&Path>,
) -> Result<PathBuf, CliError> {
    match progress {
        Some(p) => Ok(p.to_owned()),
        None => data_dir
            .map(crate::workspace::data_dir::review_log_in)
            .ok_or_else(|| CliError::Usage("no data directory; pass --progress FILE".into())),
    }
}

fn parse_color(s: &str) -> Result<shakmaty::Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(shakmaty::Color::White),
        "black" | "b" => Ok(shakmaty::Color::Black),
        _ => Err(format!("`{s}` is not a colour: white or black")),
    }
}

fn parse_now(s: &str) -> Result<crate::review::Timestamp, String> {
    crate::review::Timestamp::parse_rfc3339(s).map_err(|e| e.to_string())
}

pub(super) fn run(
    args: &ReviewArgs,
    data_dir: Option<&Path>,
    out: &mut impl Write,
) -> Result<(), CliError> {
    use crate::workspace::review_store::{self as rs, ReviewCommand, ReviewOutput};
    let log = review_log(args.progress.as_deref(), data_dir)?;
    let (graph, _) = args.book.build()?;
    let cmd = ReviewCommand {
        color: args.color,
        log,
        now: args.now.unwrap_or_else(|| {
            let clock = crate::clock::Clock::local();
            if let Some(warning) = clock.warning() {
                eprintln!("hastings: {warning}");
            }
            crate::review::Timestamp::from_clock(clock)
        }),
        grade: args.grade.clone().zip(args.rating),
        fuzz: !args.no_fuzz,
        kind: if args.mistakes {
            crate::review::SessionKind::MistakesOnly
        } else {
            crate::review::SessionKind::Due
        },
        new_per_day: args.new_per_day,
        limit: args.limit.unwrap_or(if args.session.is_some() {
            usize::MAX
        } else {
            20
        }),
        session: args.session.clone().unwrap_or_default(),
    };
    let output = rs::review_command(&graph, &cmd, |w| eprintln!("hastings: {w}"))?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&output)?)?;
        return Ok(());
    }
    match output {
        ReviewOutput::Queue(q) => {
            writeln!(out, "cards      {}", q.cards)?;
            writeln!(out, "new        {} ({} left today)", q.new, q.new_today)?;
            writeln!(out, "due        {}", q.due)?;
            writeln!(out, "learned    {}", q.learned)?;
            writeln!(out, "lapses     {}", q.lapses)?;
            if let Some(r) = q.retention {
                writeln!(out, "retention  {:.1}%", r * 100.0)?;
            }
            writeln!(out)?;
            for n in &q.next {
                let r = n
                    .retrievability
                    .map_or_else(|| "new".to_owned(), |r| format!("R {r:.2}"));
                let line = if n.line.is_empty() {
                    "(start)"
                } else {
                    &n.line
                };
                writeln!(out, "{r:<8} {line}  {}", n.opening.as_deref().unwrap_or(""))?;
            }
        }
        ReviewOutput::Card(c) => {
            let c = c.card;
            writeln!(out, "card       {}", c.epd)?;
            writeln!(out, "line       {}", c.line)?;
            if let (Some(s), Some(d)) = (c.stability, c.difficulty) {
                writeln!(out, "stability  {s:.2} days, difficulty {d:.2}")?;
            }
            writeln!(out, "due        {}", c.due.unwrap_or_default())?;
            writeln!(out, "reps       {}, lapses {}", c.reps, c.lapses)?;
        }
    }
    Ok(())
}
