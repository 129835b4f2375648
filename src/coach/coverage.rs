//! The Coverage tab's state and work: the exposure of the repertoire and the comparison
//! of the learner's games, run as [`Job`]s off the UI thread, and the drills they start.
//!
//! The exposure ([`crate::trainer::coverage`]) is recomputed while the tab is shown
//! whenever the book, the style, the colour, the depth or the threshold changed; names
//! and SAN are computed on the job's thread too. A gap is drilled on the theory book (the
//! repertoire has no move there by definition) until "Back to my repertoire" or a new
//! book. The window's Coverage tab draws this state.

use std::path::PathBuf;
use std::sync::Arc;

use shakmaty::{Chess, Color, Move};

use super::Coach;
use super::command::DrillBook;
use super::format::{count, numbered_ply};
use crate::book::polyglot::SharedBook;
use crate::book::{ImportMode, PositionGraph};
use crate::clock::Clock;
use crate::job::{Job, JobPoll};
use crate::review::{ReviewRecord, Timestamp};
use crate::sampler::{MoveSource, Popularity, Style};
use crate::trainer::Session;
use crate::trainer::compare::{Comparison, Mover};
use crate::trainer::coverage::{
    CoverageOptions, DEFAULT_DEPTH, DEFAULT_THRESHOLD, Exposure, Gap, describe, exposure_from,
};
use crate::workspace::compare_games::{CompareGamesError, KnownGaps, Player, compare_games_file};
use crate::workspace::file_name;
use crate::workspace::review_store::ReviewStore;

/// How many likely positions the tab lists.
const LIKELY_SHOWN: usize = 12;

/// What an exposure was computed for.
#[derive(Debug, Clone, PartialEq)]
pub struct CoverageKey {
    book: u64,
    style: Style,
    learner: Color,
    depth: u32,
    threshold: f64,
    /// The workspace's books generation and the popularity.
    books: u64,
    popularity: Popularity,
}

/// A position described for the tab.
#[derive(Debug, Clone, PartialEq)]
pub struct CoverageRow {
    /// The most likely way there from the start.
    pub moves: Vec<Move>,
    /// It in SAN: `"e4 c6"`.
    pub sans: String,
    /// `"B10 Caro-Kann Defense"`, if a line names it.
    pub name: Option<String>,
    /// The probability that a drill reaches it.
    pub reach: f64,
    /// For a gap: the theory's moves there in SAN, most popular first.
    pub theory: Vec<String>,
    /// For a gap: the theory's most popular move there.
    pub answer: Option<Move>,
    /// The position, for the board preview.
    pub position: Chess,
}

/// An exposure with its rows described (names and SAN computed off the UI thread).
#[derive(Debug)]
pub struct CoverageReport {
    /// The exposure.
    pub exposure: Exposure,
    /// The gaps, most likely first.
    pub gaps: Vec<CoverageRow>,
    /// The most likely positions.
    pub likely: Vec<CoverageRow>,
}

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

/// What the Coverage tab computes: the depth, the threshold and whose games to compare.
#[derive(Debug, Clone, PartialEq)]
pub struct CoverageParams {
    /// The depth of the exposure, in plies.
    pub depth: u32,
    /// The gap threshold, in percent.
    pub threshold_percent: f64,
    /// The player whose games "Check my games…" compares (empty: the file's most
    /// frequent player).
    pub player: String,
}

impl Default for CoverageParams {
    fn default() -> CoverageParams {
        CoverageParams {
            depth: DEFAULT_DEPTH,
            threshold_percent: DEFAULT_THRESHOLD * 100.0,
            player: String::new(),
        }
    }
}

/// The Coverage tab's parameters, jobs and results (runtime only).
#[derive(Default)]
pub struct CoverageState {
    /// What to compute.
    pub params: CoverageParams,
    /// Counts the books, so a new book recomputes the exposure.
    generation: u64,
    pub(crate) job: Option<(CoverageKey, Job<CoverageReport>)>,
    pub(crate) report: Option<(CoverageKey, Arc<CoverageReport>)>,
    pub(crate) compare_job: Option<(String, Job<CompareResult>)>,
    pub(crate) games: Option<CompareResult>,
    /// The repertoire while a gap is drilled on the theory book.
    pub(crate) set_aside: Option<Arc<PositionGraph>>,
}

impl CoverageState {
    /// The book was rebuilt: the exposure is recomputed, a gap drill is over.
    pub(crate) fn book_changed(&mut self) {
        self.generation += 1;
        self.set_aside = None;
        if let Some((_, job)) = self.job.take() {
            job.cancel();
        }
    }

    /// Whether the exposure is being computed.
    pub fn is_computing(&self) -> bool {
        self.job.is_some()
    }

    /// The file whose games are being compared, if any.
    pub fn comparing(&self) -> Option<&str> {
        self.compare_job.as_ref().map(|(label, _)| label.as_str())
    }

    /// The last exposure computed, with its described rows.
    pub fn report(&self) -> Option<&Arc<CoverageReport>> {
        self.report.as_ref().map(|(_, r)| r)
    }

    /// The last comparison of the learner's games: the games listed, or why it failed.
    pub fn games(&self) -> Option<&CompareResult> {
        self.games.as_ref()
    }

    /// Whether a gap is being drilled on the theory book.
    pub fn is_drilling_theory(&self) -> bool {
        self.set_aside.is_some()
    }
}

fn describe_rows(
    ex: Exposure,
    repertoire: &PositionGraph,
    theory: &PositionGraph,
) -> CoverageReport {
    let names = [theory, repertoire];
    let row = |moves: &[Move], position: &Chess, reach: f64, theory: Vec<String>| {
        let info = describe(moves, &names);
        CoverageRow {
            moves: moves.to_vec(),
            sans: info.sans,
            name: info.name,
            reach,
            theory,
            answer: None,
            position: position.clone(),
        }
    };
    let gaps = ex
        .gaps()
        .iter()
        .map(|g| {
            let sans = g
                .theory
                .iter()
                .map(|m| shakmaty::san::SanPlus::from_move(g.position.clone(), *m).to_string())
                .collect();
            CoverageRow {
                answer: g.theory.first().copied(),
                ..row(&g.moves, &g.position, g.reach, sans)
            }
        })
        .collect();
    let likely = ex
        .positions()
        .iter()
        .filter(|p| !p.moves.is_empty())
        .take(LIKELY_SHOWN)
        .map(|p| row(&p.moves, &p.position, p.reach, Vec::new()))
        .collect();
    CoverageReport {
        exposure: ex,
        gaps,
        likely,
    }
}

impl Coach {
    /// The repertoire the exposure is computed for (set aside while a gap is drilled),
    /// and the theory; `None` unless the book is a repertoire.
    fn coverage_books(&mut self) -> Option<(Arc<PositionGraph>, Arc<PositionGraph>)> {
        let theory = self.workspace.theory()?;
        let repertoire = self
            .coverage
            .set_aside
            .clone()
            .unwrap_or_else(|| Arc::clone(&self.graph));
        Some((repertoire, theory))
    }

    fn coverage_key(&self) -> CoverageKey {
        CoverageKey {
            book: self.coverage.generation,
            style: self.settings.style.clone(),
            learner: self.session.learner(),
            depth: self.coverage.params.depth,
            threshold: self.coverage.params.threshold_percent / 100.0,
            books: self.workspace.open_books().generation(),
            popularity: self.settings.book.popularity,
        }
    }

    /// Takes finished coverage work and, while the tab is shown, starts the exposure
    /// when what it depends on changed.
    pub(crate) fn poll_coverage(&mut self) {
        let mut running = false;
        let view = &mut self.coverage;
        if let Some((key, job)) = &view.job {
            match job.poll() {
                JobPoll::Running => running = true,
                JobPoll::Finished(report) => {
                    view.report = Some((key.clone(), Arc::new(report)));
                    view.job = None;
                }
                JobPoll::Died(_) => view.job = None,
            }
        }
        if let Some((_, job)) = &view.compare_job {
            match job.poll() {
                JobPoll::Running => running = true,
                JobPoll::Finished(result) => {
                    view.games = Some(result);
                    view.compare_job = None;
                }
                JobPoll::Died(e) => {
                    view.games = Some(Err(e.to_string().into()));
                    view.compare_job = None;
                }
            }
        }
        if running {
            self.request_repaint_after(std::time::Duration::from_millis(50));
        }
        if self.coverage_shown {
            self.start_coverage();
        }
    }

    /// Starts the exposure unless it is computed (or being computed) for the current key.
    fn start_coverage(&mut self) {
        let key = self.coverage_key();
        let done = self
            .coverage
            .report
            .as_ref()
            .is_some_and(|(k, _)| *k == key);
        let running = self.coverage.job.as_ref().is_some_and(|(k, _)| *k == key);
        if done || running {
            return;
        }
        let Some((repertoire, theory)) = self.coverage_books() else {
            return;
        };
        if let Some((_, old)) = self.coverage.job.take() {
            old.cancel();
        }
        let style = key.style.clone();
        let books = self.workspace.books();
        let popularity = key.popularity;
        let options = CoverageOptions {
            depth: key.depth,
            threshold: key.threshold,
            ..CoverageOptions::new(key.learner)
        };
        let job = Job::spawn("coverage", self.wake(), move |_| {
            // The opponent replies as the drill does: the theory with the games book as
            // the popularity says.
            let source = MoveSource::new(
                &theory,
                books.iter().map(SharedBook::book).collect(),
                popularity,
            );
            let ex = exposure_from(&repertoire, &source, &style, &options);
            describe_rows(ex, &repertoire, &theory)
        });
        match job {
            Ok(job) => self.coverage.job = Some((key, job)),
            Err(e) => self.message = Some(format!("Cannot compute the coverage: {e}")),
        }
    }

    /// Waits for the running exposure and comparison and takes their results (tests wait;
    /// the window never does).
    pub fn finish_coverage(&mut self) {
        if let Some((key, job)) = self.coverage.job.take()
            && let JobPoll::Finished(report) = job.poll_blocking()
        {
            self.coverage.report = Some((key, Arc::new(report)));
        }
        if let Some((_, job)) = self.coverage.compare_job.take() {
            self.coverage.games = Some(match job.poll_blocking() {
                JobPoll::Finished(result) => result,
                JobPoll::Running => Err("still running".to_owned().into()),
                JobPoll::Died(e) => Err(e.to_string().into()),
            });
        }
    }

    /// Whether a position is being drilled on the theory book (a gap) instead of the
    /// repertoire.
    pub fn is_drilling_theory(&self) -> bool {
        self.coverage.set_aside.is_some()
    }

    /// What the Coverage tab computes with: depth, threshold, whose games.
    pub fn coverage_params(&self) -> &CoverageParams {
        &self.coverage.params
    }

    /// The last exposure computed, with its described rows.
    pub fn coverage_report(&self) -> Option<&CoverageReport> {
        self.coverage.report.as_ref().map(|(_, r)| r.as_ref())
    }

    /// The last comparison of the learner's games: the games listed, or why it failed.
    pub fn games_report(&self) -> Option<&CompareResult> {
        self.coverage.games.as_ref()
    }

    /// Appends the compared games' deviations to the review log as failed reviews (the
    /// button under the games), so that real games feed the schedule.
    pub(crate) fn record_deviations(&mut self) {
        let Some(Ok(report)) = &mut self.coverage.games else {
            return;
        };
        let Some(log) = self.review_log.clone() else {
            self.message = Some("There is no review log (no data directory).".to_owned());
            return;
        };
        let appended = ReviewStore::open(&log).and_then(|mut store| {
            for r in &report.failed_reviews {
                store.append(r)?;
            }
            Ok(report.failed_reviews.len())
        });
        self.message = Some(match appended {
            Ok(n) => {
                report.recorded = true;
                format!("{n} failed review(s) recorded: those positions come up for review.")
            }
            Err(e) => format!("The reviews could not be recorded: {e}"),
        });
        self.restart_review();
    }

    /// The learner's repertoire file in use (the first loaded as a repertoire and
    /// enabled in the book), which "Add answer" adds lines to a copy of.
    pub fn repertoire_file(&self) -> Option<PathBuf> {
        self.workspace
            .files()
            .iter()
            .find(|f| {
                f.mode == ImportMode::Repertoire
                    && self
                        .workspace
                        .choice()
                        .file(&f.path)
                        .is_some_and(|c| c.enabled)
            })
            .map(|f| f.path.clone())
    }

    /// Adds `moves` (a gap and the theory's answer) to a copy of the learner's repertoire
    /// file, written beside it, and drills the copy instead (the learner's file is not
    /// touched).
    pub(crate) fn add_answer(&mut self, moves: &[Move]) {
        let Some(original) = self.repertoire_file() else {
            self.message = Some("No repertoire file is loaded to add the answer to.".to_owned());
            return;
        };
        // The opening's name and ECO code from the theory (else the repertoire), as the
        // gap's row shows them.
        let naming = self
            .coverage_books()
            .and_then(|(repertoire, theory)| describe(moves, &[&theory, &repertoire]).naming);
        let added = crate::workspace::repertoire_edit::add_line_to_copy(
            &original,
            moves,
            naming.as_ref().and_then(|l| l.eco.as_deref()),
            naming.as_ref().map(|l| l.name.as_str()),
        );
        match added {
            Ok(copy) => {
                self.workspace.remove(&original);
                self.workspace
                    .open(vec![copy.clone()], crate::workspace::FileMode::Repertoire);
                self.message = Some(format!(
                    "Added {} to a copy of your repertoire, {}; {} is unchanged. The book now \
                     uses the copy.",
                    describe(moves, &[]).sans,
                    file_name(&copy),
                    file_name(&original),
                ));
            }
            Err(e) => self.message = Some(format!("The answer could not be added: {e}")),
        }
    }

    /// Compares the learner's games in `path` with the repertoire on a background thread
    /// (what "Check my games…" does once a file is chosen).
    pub fn check_games(&mut self, path: PathBuf) {
        let Some((repertoire, theory)) = self.coverage_books() else {
            self.coverage.games = Some(Err(
                "Checking games needs your repertoire: untick ECO in the Book tab and load it."
                    .to_owned()
                    .into(),
            ));
            return;
        };
        // The known gaps: the exposure's, as the tab shows it (computed here when it
        // is not yet).
        let key = self.coverage_key();
        let gaps: Option<Vec<Gap>> = self
            .coverage
            .report
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, r)| r.exposure.gaps().to_vec());
        let books = self.workspace.books();
        let learner = self.session.learner();
        let player = self.coverage.params.player.clone();
        let label = file_name(&path);
        let job = Job::spawn("compare", self.wake(), move |progress| {
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
                self.coverage.compare_job = Some((label, job));
                self.coverage.games = None;
            }
            Err(e) => self.coverage.games = Some(Err(e.to_string().into())),
        }
    }

    /// Starts a drill at the position after `moves`: on the repertoire, or on the theory
    /// book (a gap, which the repertoire cannot drill). Falls back to the other book when
    /// the game reached the position through positions outside the first.
    pub(crate) fn drill_at(&mut self, moves: &[Move], book: DrillBook) {
        self.stop_workshop_training();
        let Some((repertoire, theory)) = self.coverage_books() else {
            self.message = Some("Drilling a position needs your repertoire.".to_owned());
            return;
        };
        let seed = self.settings.fixed_seed().unwrap_or_else(rand::random);
        let learner = self.session.learner();
        let style = self.session.style().clone();
        let order = match book {
            DrillBook::Repertoire => [(repertoire.clone(), false), (theory.clone(), true)],
            DrillBook::Theory => [(theory.clone(), true), (repertoire.clone(), false)],
        };
        for (graph, on_theory) in order {
            let Ok(mut session) =
                Session::from_moves(Arc::clone(&graph), learner, style.clone(), seed, moves)
            else {
                continue;
            };
            // The top bar's counts go on.
            session.continue_counts(&self.session);
            if on_theory {
                self.coverage.set_aside = Some(Arc::clone(&repertoire));
            } else {
                self.coverage.set_aside = None;
                session.set_theory(Some(Arc::clone(&theory)));
            }
            self.session = session;
            self.graph = graph;
            self.book_generation += 1;
            self.after_new_session();
            let at = describe(moves, &[]).sans;
            self.message = Some(if on_theory {
                format!(
                    "Drilling after {at} with the theory book (your repertoire has no move here). \
                     \"Back to my repertoire\" in the Coverage tab returns."
                )
            } else {
                format!("Drilling your repertoire after {at}.")
            });
            return;
        }
        self.message = Some(
            "This position cannot be drilled: the game reached it through positions outside \
             the books."
                .to_owned(),
        );
    }

    /// Ends a gap drill: the repertoire is the book again.
    pub(crate) fn back_to_repertoire(&mut self) {
        let Some(repertoire) = self.coverage.set_aside.take() else {
            return;
        };
        self.stop_workshop_training();
        let theory = self.workspace.theory();
        self.session.set_graph(Arc::clone(&repertoire));
        self.session.set_theory(theory);
        self.graph = repertoire;
        self.book_generation += 1;
        self.after_new_session();
        self.message = Some("Back to your repertoire.".to_owned());
    }

    pub(crate) fn after_new_session(&mut self) {
        self.sync_books();
        if let Some(run) = self.explore.take() {
            run.cancel();
        }
        self.explored = None;
        self.invalidate_chart();
        self.last_reply = None;
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
