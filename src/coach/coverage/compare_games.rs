//! "Check my games…" in the Coverage tab: the learner's games compared with the
//! repertoire on a background thread, the games listed with where each side left it,
//! and their deviations recorded as failed reviews.

use std::path::PathBuf;

use shakmaty::Move;

use super::{CoverageState, DrillBook};
use crate::book::polyglot::SharedBook;
use crate::clock::Clock;
use crate::coach::context::{Context, Event};
use crate::coach::format::{count, numbered_ply};
use crate::job::Job;
use crate::review::{ReviewRecord, Timestamp};
use crate::sampler::MoveSource;
use crate::trainer::compare::{Comparison, Mover};
use crate::trainer::coverage::{CoverageOptions, Gap};
use crate::workspace::compare_games::{CompareGamesError, KnownGaps, Player, compare_games_file};
use crate::workspace::file_name;
use crate::workspace::review_store::ReviewStore;

/// One game of a comparison, as listed.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRow {
    /// `"12. Me - You 1-0"`.
    pub title: String,
    /// `"you left the repertoire with 3.Bc4 (repertoire: 3.Bb5)"`.
    pub what: String,
    /// Where a click starts a drill, if anywhere.
    pub drill: Option<(Vec<Move>, DrillBook)>,
}

/// A finished comparison, as listed.
#[derive(Debug, Clone, PartialEq)]
pub struct GamesReport {
    /// The file compared.
    pub file: String,
    /// The player whose games were compared.
    pub player: String,
    /// The counts, one line.
    pub summary: String,
    /// The games compared, in file order.
    pub games: Vec<GameRow>,
    /// The player's deviations as failed reviews, one per card left.
    pub failed_reviews: Vec<ReviewRecord>,
    /// Whether they were recorded in the review log.
    pub recorded: bool,
}

/// A comparison of the learner's games: the games listed, or why it failed.
pub type CompareResult = Result<GamesReport, CompareFailure>;

/// Why the learner's games could not be compared.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareFailure {
    /// What the tab says.
    pub message: String,
    /// When the player was not named or not found: the file's players and their games,
    /// most frequent first, for the learner to choose from.
    pub players: Vec<(String, u32)>,
    /// The file, to compare again once a player is chosen.
    pub path: Option<PathBuf>,
}

impl From<String> for CompareFailure {
    fn from(message: String) -> CompareFailure {
        CompareFailure {
            message,
            players: Vec::new(),
            path: None,
        }
    }
}

impl CoverageState {
    /// Appends the compared games' deviations to the review log as failed reviews (the
    /// button under the games), so that real games feed the schedule.
    pub(crate) fn record_deviations(&mut self, ctx: &mut Context) {
        let Some(Ok(report)) = &mut self.games else {
            return;
        };
        let Some(log) = ctx.review_log.clone() else {
            ctx.message = Some("There is no review log (no data directory).".to_owned());
            return;
        };
        let appended = ReviewStore::open(&log).and_then(|mut store| {
            for r in &report.failed_reviews {
                store.append(r)?;
            }
            Ok(report.failed_reviews.len())
        });
        ctx.message = Some(match appended {
            Ok(n) => {
                report.recorded = true;
                format!("{n} failed review(s) recorded: those positions come up for review.")
            }
            Err(e) => format!("The reviews could not be recorded: {e}"),
        });
        ctx.send(Event::RestartReview);
    }

    /// Compares the learner's games in `path` with the repertoire on a background thread
    /// (what "Check my games…" does once a file is chosen).
    pub(crate) fn check_games(&mut self, path: PathBuf, ctx: &mut Context) {
        let Some((repertoire, theory)) = self.books(ctx) else {
            self.games = Some(Err(
                "Checking games needs your repertoire: untick ECO in the Book tab and load it."
                    .to_owned()
                    .into(),
            ));
            return;
        };
        // The known gaps: the exposure's, as the tab shows it (computed here when it
        // is not yet).
        let key = self.key(ctx);
        let gaps: Option<Vec<Gap>> = self
            .report
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, r)| r.exposure.gaps().to_vec());
        let books = ctx.workspace.books();
        let learner = ctx.session.learner();
        let player = ctx.settings.coverage.player.clone();
        let label = file_name(&path);
        let job = Job::spawn("compare", ctx.wake(), move |progress| {
            let source = MoveSource::new(
                &theory,
                books.iter().map(SharedBook::book).collect(),
                key.popularity,
            );
            let options = CoverageOptions {
                depth: key.depth,
                threshold: key.threshold,
                ..CoverageOptions::new(key.learner)
            };
            let known = match &gaps {
                Some(gaps) => KnownGaps::Given(gaps),
                None => KnownGaps::Exposure {
                    theory: &source,
                    style: &key.style,
                    options: &options,
                },
            };
            let compared = compare_games_file(
                &path,
                &repertoire,
                &theory,
                Player::Named(&player),
                learner,
                known,
                progress,
            )
            .map_err(|e| {
                let message = match &e {
                    CompareGamesError::NoPlayer { .. } => {
                        "The games name no players: type your name.".to_owned()
                    }
                    CompareGamesError::PlayerNeeded { .. } => {
                        "Whose games are these? Choose your name:".to_owned()
                    }
                    CompareGamesError::UnknownPlayer { player, .. } => {
                        format!("No game has a player named \"{player}\". Choose your name:")
                    }
                    CompareGamesError::Read(e) => e.to_string(),
                };
                CompareFailure {
                    message,
                    players: e.players().to_vec(),
                    path: Some(path.clone()),
                }
            })?;
            let result = &compared.comparison;
            let mut report = games_report(file_name(&path), &compared.player, result);
            report.failed_reviews = result.failed_reviews(Timestamp::from_clock(Clock::local()));
            Ok(report)
        });
        match job {
            Ok(job) => {
                self.compare_job = Some((label, job));
                self.games = None;
            }
            Err(e) => self.games = Some(Err(e.to_string().into())),
        }
    }
}

/// The listed games of a comparison.
fn games_report(file: String, player: &str, c: &Comparison) -> GamesReport {
    let s = &c.summary;
    let summary = format!(
        "{} of {} games compared; you left the repertoire in {}, your opponents in {} \
         ({} into a known gap); {} reached its end",
        count(s.compared),
        count(s.games),
        count(s.player_left),
        count(s.opponent_left),
        count(s.known_gaps),
        count(s.repertoire_ended)
    );
    let games = c
        .games
        .iter()
        .map(|g| {
            let title = format!("{}. {} - {} {}", g.game, g.white, g.black, g.result);
            let (what, drill) = match g.first_exit() {
                Some((Mover::Player, d)) => (
                    format!(
                        "you left the repertoire with {} (repertoire: {})",
                        numbered_ply(d.ply, &d.san),
                        d.repertoire
                            .iter()
                            .map(|san| numbered_ply(d.ply, san))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    Some((d.moves.clone(), DrillBook::Repertoire)),
                ),
                Some((Mover::Opponent, d)) => {
                    let mut after = d.moves.clone();
                    after.push(d.played);
                    (
                        format!(
                            "your opponent left the repertoire with {}{}",
                            numbered_ply(d.ply, &d.san),
                            if d.known_gap { " (a known gap)" } else { "" }
                        ),
                        Some((after, DrillBook::Theory)),
                    )
                }
                None => (
                    match g.repertoire_end {
                        Some(ply) => format!(
                            "followed the repertoire to its end (move {})",
                            ply.div_ceil(2)
                        ),
                        None => "stayed in the repertoire".to_owned(),
                    },
                    None,
                ),
            };
            GameRow { title, what, drill }
        })
        .collect();
    GamesReport {
        file,
        player: player.to_owned(),
        summary,
        games,
        failed_reviews: Vec::new(),
        recorded: false,
    }
}
