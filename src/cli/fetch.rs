//! `hastings fetch lichess-study`, `lichess-games` and `chesscom-games`: games and
//! studies from the sites into a PGN file (the workspace's [`fetch`]).

use std::io::Write;
use std::path::PathBuf;

use clap::{ArgGroup, Args, Subcommand, ValueEnum};

use super::CliError;
use super::progress_bar::terminal_counter;
use crate::workspace::fetch::{
    ChesscomGames, Fetch, FetchReport, LichessGames, Sites, chesscom, fetch, lichess,
};

/// `hastings fetch …`.
#[derive(Debug, Subcommand)]
pub enum FetchCommand {
    /// A lichess study, all its chapters with their sides (`[Orientation]`), or all
    /// of a user's studies (`--user`); the file is replaced.
    #[command(group(ArgGroup::new("which").required(true).args(["study", "user"])))]
    LichessStudy(LichessStudyArgs),
    /// A lichess user's games, added to the file (only the new ones are asked for).
    LichessGames(LichessGamesArgs),
    /// A chess.com player's games, added to the file (months already complete are
    /// not asked for again).
    ChesscomGames(ChesscomGamesArgs),
}

/// Where the games go and which addresses are asked.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// The PGN file to write (a user's games are added to it).
    #[arg(short = 'o', long = "output", value_name = "FILE.pgn")]
    pub output: PathBuf,
    /// lichess's address (default `https://lichess.org`, or `HASTINGS_LICHESS_URL`).
    #[arg(long, value_name = "URL")]
    pub lichess_url: Option<String>,
    /// chess.com's API address (default `https://api.chess.com`, or
    /// `HASTINGS_CHESSCOM_URL`).
    #[arg(long, value_name = "URL")]
    pub chesscom_url: Option<String>,
}

/// `hastings fetch lichess-study`.
#[derive(Debug, Args)]
pub struct LichessStudyArgs {
    /// The study's link or id (`https://lichess.org/study/XtFCFYlM`, `XtFCFYlM`).
    #[arg(value_name = "ID|URL")]
    pub study: Option<String>,
    /// All the public studies of this lichess user instead.
    #[arg(long, value_name = "NAME")]
    pub user: Option<String>,
    /// The file and addresses.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// A colour a player had.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ColorArg {
    /// Games with white.
    White,
    /// Games with black.
    Black,
}

/// `hastings fetch lichess-games`.
#[derive(Debug, Args)]
pub struct LichessGamesArgs {
    /// The lichess user.
    #[arg(value_name = "NAME")]
    pub user: String,
    /// Games from this day on (`YYYY-MM-DD`, UTC).
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Games up to the end of this day (`YYYY-MM-DD`, UTC).
    #[arg(long, value_name = "DATE")]
    pub until: Option<String>,
    /// At most this many games (the newest).
    #[arg(long, value_name = "N", value_parser = super::args::positive::<u64>)]
    pub max: Option<u64>,
    /// Only these speeds, comma-separated: ultraBullet, bullet, blitz, rapid,
    /// classical, correspondence.
    #[arg(long, value_name = "SPEEDS", value_delimiter = ',')]
    pub speeds: Vec<String>,
    /// Only rated games.
    #[arg(long)]
    pub rated: bool,
    /// Only games the user played with this colour.
    #[arg(long, value_name = "COLOR")]
    pub color: Option<ColorArg>,
    /// Keep the clock times on the moves (off: the file is smaller).
    #[arg(long)]
    pub clocks: bool,
    /// Keep lichess's engine evaluations on the moves where it has them.
    #[arg(long)]
    pub evals: bool,
    /// The file and addresses.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `hastings fetch chesscom-games`.
#[derive(Debug, Args)]
pub struct ChesscomGamesArgs {
    /// The chess.com user.
    #[arg(value_name = "NAME")]
    pub user: String,
    /// Only the months from this one on (`YYYY-MM`).
    #[arg(long, value_name = "YYYY-MM")]
    pub since: Option<String>,
    /// The file and addresses.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Runs `hastings fetch …`, with a count of the games on a terminal.
///
/// # Errors
///
/// [`CliError::Usage`] for a malformed date or speed, [`CliError::Fetch`] when the
/// fetch fails (the file is then as it was).
pub fn run(command: &FetchCommand, out: &mut impl Write) -> Result<(), CliError> {
    let (what, output) = match command {
        FetchCommand::LichessStudy(a) => {
            let what = match (&a.study, &a.user) {
                (Some(study), _) => Fetch::LichessStudy(lichess::study_id(study)?),
                (None, Some(user)) => Fetch::LichessUserStudies(user.clone()),
                (None, None) => {
                    return Err(CliError::Usage("give a study or --user NAME".to_owned()));
                }
            };
            (what, &a.output)
        }
        FetchCommand::LichessGames(a) => {
            for s in &a.speeds {
                if !lichess::SPEEDS.contains(&s.as_str()) {
                    return Err(CliError::Usage(format!(
                        "--speeds: `{s}` is not a speed ({})",
                        lichess::SPEEDS.join(", ")
                    )));
                }
            }
            let games = LichessGames {
                user: a.user.clone(),
                since_ms: a.since.as_deref().map(|d| day_ms(d, 0)).transpose()?,
                until_ms: a.until.as_deref().map(|d| day_ms(d, 1)).transpose()?,
                max: a.max,
                speeds: a.speeds.clone(),
                rated: a.rated,
                color: a.color.map(|c| {
                    match c {
                        ColorArg::White => "white",
                        ColorArg::Black => "black",
                    }
                    .to_owned()
                }),
                clocks: a.clocks,
                evals: a.evals,
            };
            (Fetch::LichessGames(games), &a.output)
        }
        FetchCommand::ChesscomGames(a) => {
            let games = ChesscomGames {
                user: a.user.clone(),
                since: a.since.as_deref().map(chesscom::parse_month).transpose()?,
            };
            (Fetch::ChesscomGames(games), &a.output)
        }
    };
    let sites = Sites::resolve(
        output.lichess_url.as_deref(),
        output.chesscom_url.as_deref(),
    );
    let progress = terminal_counter("games");
    let report = fetch(&sites, &what, &output.output, &progress);
    progress.finish();
    writeln!(out, "{}", summary(&report?))?;
    Ok(())
}

/// One line on what a fetch did.
fn summary(r: &FetchReport) -> String {
    let file = r.path.display();
    let again = if r.already > 0 {
        format!(", {} already there", r.already)
    } else {
        String::new()
    };
    let requests = format!(
        "{} request{}",
        r.requests,
        if r.requests == 1 { "" } else { "s" }
    );
    let waited = if r.waited.is_zero() {
        String::new()
    } else {
        format!(", waited {} s as the site asked", r.waited.as_secs())
    };
    if !r.written {
        format!("{file}: no new games{again}; the file is unchanged ({requests}{waited})")
    } else if r.kept > 0 {
        format!(
            "{file}: {} new games added to {}{again} ({requests}{waited})",
            r.added, r.kept
        )
    } else {
        format!(
            "{file}: {} games written{again} ({requests}{waited})",
            r.added
        )
    }
}

/// The start of day `date` (`YYYY-MM-DD`, UTC) plus `days`, in milliseconds since 1970.
fn day_ms(date: &str, days: i64) -> Result<i64, CliError> {
    let bad = || CliError::Usage(format!("`{date}` is not a date: give YYYY-MM-DD"));
    let day: jiff::civil::Date = date.trim().parse().map_err(|_| bad())?;
    let day = day
        .checked_add(jiff::Span::new().days(days))
        .map_err(|_| bad())?;
    let at = day.to_zoned(jiff::tz::TimeZone::UTC).map_err(|_| bad())?;
    Ok(at.timestamp().as_millisecond())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_its_utc_midnight_in_milliseconds() {
        assert_eq!(day_ms("2025-05-01", 0).unwrap(), 1_746_057_600_000);
        assert_eq!(day_ms("2025-05-01", 1).unwrap(), 1_746_144_000_000);
        assert!(day_ms("May 1st", 0).is_err());
    }
}
