//! The Coverage tab's state and work ([`CoverageState`]): the exposure of the repertoire
//! and the comparison of the learner's games ([`compare_games`]), run as [`Job`]s off
//! the UI thread, the drills they start, and the Progress tab's most-missed positions
//! ([`missed`]).
//!
//! The exposure ([`crate::trainer::coverage`]) is recomputed while the tab is shown
//! whenever the book, the style, the colour, the depth or the threshold changed; names
//! and SAN are computed on the job's thread too. A gap is drilled on the theory book (the
//! repertoire has no move there by definition) until "Back to my repertoire" or a new
//! book. The window's Coverage tab draws this state.

use std::path::PathBuf;
use std::sync::Arc;

use shakmaty::{Color, Move};

pub mod compare_games;
pub mod missed;

pub use self::compare_games::{CompareFailure, CompareResult, GameRow, GamesReport};
use crate::book::polyglot::SharedBook;
use crate::book::{ImportMode, PositionGraph};
use crate::coach::context::{Context, Event};
pub use crate::coach::settings::CoverageParams;
use crate::job::{Job, JobPoll};
use crate::sampler::{MoveSource, Popularity, Style};
use crate::trainer::Session;
use crate::trainer::coverage::{CoverageOptions, Exposure, describe, exposure_from};
use crate::workspace::{Workspace, file_name};

/// The book a position is drilled on (Coverage tab).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrillBook {
    /// The learner's repertoire.
    Repertoire,
    /// The theory book: for gaps, where the repertoire has no move.
    Theory,
}

/// How many likely positions the tab lists.
const LIKELY_SHOWN: usize = 12;

/// What an exposure was computed for.
#[derive(Debug, Clone, PartialEq)]
pub struct CoverageKey {
    book: u64,
    pub(crate) style: Style,
    pub(crate) learner: Color,
    pub(crate) depth: u32,
    pub(crate) threshold: f64,
    /// The workspace's books generation and the popularity.
    books: u64,
    pub(crate) popularity: Popularity,
}

/// A position described for the tab (as `hastings coverage` describes it).
pub use crate::trainer::coverage::CoverageRow;

/// An exposure with its rows described (names and SAN computed off the UI thread).
#[derive(Debug)]
pub struct CoverageReport {
    /// The exposure.
    pub exposure: Exposure,
    /// The gaps, most likely first.
    pub gaps: Vec<CoverageRow>,
    /// The most likely positions.
    pub likely: Vec<CoverageRow>,
    /// What each coverage goal, "Basic" to "Bulletproof", needs of the repertoire.
    pub goals: Vec<crate::trainer::coverage::GoalCount>,
    /// The learner's pace: the median seconds an answer took in the review log (`None`:
    /// no review yet).
    pub seconds_per_answer: Option<f64>,
}

impl CoverageReport {
    /// The seconds an answer takes, the learner's or the default.
    pub fn pace(&self) -> f64 {
        self.seconds_per_answer
            .unwrap_or(crate::trainer::coverage::DEFAULT_SECONDS_PER_ANSWER)
    }
}

/// The median seconds an answer took in the review log at `log` (`None`: no log, or no
/// review in it).
fn pace_in(log: Option<&std::path::Path>) -> Option<f64> {
    let bytes = std::fs::read(log?).ok()?;
    let read = crate::review::log::parse(&bytes);
    crate::trainer::coverage::seconds_per_answer(read.records.iter().map(|r| r.seconds))
}

/// The Coverage tab's jobs and results (runtime only; its parameters are the
/// settings', `Settings::coverage`).
#[derive(Default)]
pub struct CoverageState {
    /// Counts the books, so a new book recomputes the exposure.
    generation: u64,
    pub(crate) job: Option<(CoverageKey, Job<CoverageReport>)>,
    pub(crate) report: Option<(CoverageKey, Arc<CoverageReport>)>,
    pub(crate) compare_job: Option<(String, Job<CompareResult>)>,
    pub(crate) games: Option<CompareResult>,
    /// The repertoire while a gap is drilled on the theory book.
    pub(crate) set_aside: Option<Arc<PositionGraph>>,
    /// Whether the Coverage tab is shown (its exposure is computed only then).
    pub(crate) shown: bool,
    /// "Most often missed", as the Progress tab shows it.
    pub(crate) missed: missed::MissedState,
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

    /// The positions most often missed, most mistakes first (at most
    /// [`missed::MISSED_SHOWN`]), as of the last frame.
    pub fn most_missed(&self) -> &[missed::MissedPosition] {
        self.missed.rows()
    }

    /// Tells the coverage whether the Coverage tab is shown: its exposure is computed
    /// (and kept up to date) only then.
    pub fn set_shown(&mut self, shown: bool) {
        self.shown = shown;
    }

    /// A gap drill is over (another book is drilled): the repertoire is no longer set
    /// aside.
    pub(crate) fn end_gap_drill(&mut self) {
        self.set_aside = None;
    }
}

fn describe_rows(
    ex: Exposure,
    repertoire: &PositionGraph,
    theory: &PositionGraph,
) -> CoverageReport {
    let names = [theory, repertoire];
    let gaps = ex
        .gaps()
        .iter()
        .map(|g| CoverageRow::gap(g, &names))
        .collect();
    let likely = ex
        .positions()
        .iter()
        .filter(|p| !p.moves.is_empty())
        .take(LIKELY_SHOWN)
        .map(|p| CoverageRow::new(&p.moves, &p.position, p.reach, &names))
        .collect();
    CoverageReport {
        goals: ex.goal_counts(),
        exposure: ex,
        gaps,
        likely,
        seconds_per_answer: None,
    }
}

/// The Coverage tab's commands.
#[derive(Debug, Clone, PartialEq)]
pub enum CoverageCommand {
    /// Drill at the position after these moves, on this book.
    DrillAt(Vec<Move>, DrillBook),
    /// End a gap drill: drill the repertoire again.
    BackToRepertoire,
    /// "Mistakes only" with the theory book: the missed positions that are not in the
    /// repertoire are there ("Back to my repertoire" returns).
    MistakesWithTheory,
    /// Choose a PGN file of the learner's games (asks which).
    CheckGames,
    /// Compare the learner's games in this file with the repertoire.
    CompareGames(PathBuf),
    /// Record the compared games' deviations as failed reviews.
    RecordDeviations,
    /// Add these moves to a copy of the repertoire.
    AddAnswer(Vec<Move>),
    /// The depth, threshold and player.
    SetParams(CoverageParams),
}

impl CoverageState {
    /// Carries out one of the Coverage tab's commands.
    pub(crate) fn apply(&mut self, command: CoverageCommand, ctx: &mut Context) {
        match command {
            CoverageCommand::DrillAt(moves, book) => self.drill_at(&moves, book, ctx),
            CoverageCommand::BackToRepertoire => self.back_to_repertoire(ctx),
            CoverageCommand::MistakesWithTheory => self.mistakes_with_theory(ctx),
            CoverageCommand::CheckGames => ctx.notify(crate::coach::notice::Notice::ChooseGames),
            CoverageCommand::CompareGames(path) => self.check_games(path, ctx),
            CoverageCommand::RecordDeviations => self.record_deviations(ctx),
            CoverageCommand::AddAnswer(moves) => self.add_answer(&moves, ctx),
            CoverageCommand::SetParams(params) => ctx.settings.coverage = params,
        }
    }
}

/// The learner's repertoire file in use (the first loaded as a repertoire and enabled
/// in the book), which "Add answer" adds lines to a copy of.
pub(crate) fn repertoire_file(workspace: &Workspace) -> Option<PathBuf> {
    workspace
        .files()
        .iter()
        .find(|f| {
            f.mode == ImportMode::Repertoire
                && workspace.choice().file(&f.path).is_some_and(|c| c.enabled)
        })
        .map(|f| f.path.clone())
}

impl CoverageState {
    /// The repertoire the exposure is computed for (set aside while a gap is drilled),
    /// and the theory; `None` unless the book is a repertoire.
    pub(crate) fn books(
        &self,
        ctx: &mut Context,
    ) -> Option<(Arc<PositionGraph>, Arc<PositionGraph>)> {
        let theory = ctx.workspace.theory()?;
        let repertoire = self
            .set_aside
            .clone()
            .unwrap_or_else(|| Arc::clone(&ctx.graph));
        Some((repertoire, theory))
    }

    pub(crate) fn key(&self, ctx: &Context) -> CoverageKey {
        CoverageKey {
            book: self.generation,
            style: ctx.settings.style.clone(),
            learner: ctx.session.learner(),
            depth: ctx.settings.coverage.depth,
            threshold: ctx.settings.coverage.threshold_percent / 100.0,
            books: ctx.workspace.open_books().generation(),
            popularity: ctx.settings.book.popularity,
        }
    }

    /// Each frame: takes finished coverage work and, while the tab is shown, starts the
    /// exposure when what it depends on changed; the most-missed rows.
    pub(crate) fn poll(&mut self, ctx: &mut Context) {
        let mut running = false;
        if let Some((key, job)) = &self.job {
            match job.poll() {
                JobPoll::Running => running = true,
                JobPoll::Finished(report) => {
                    self.report = Some((key.clone(), Arc::new(report)));
                    self.job = None;
                }
                JobPoll::Died(_) => self.job = None,
            }
        }
        if let Some((_, job)) = &self.compare_job {
            match job.poll() {
                JobPoll::Running => running = true,
                JobPoll::Finished(result) => {
                    self.games = Some(result);
                    self.compare_job = None;
                }
                JobPoll::Died(e) => {
                    self.games = Some(Err(e.to_string().into()));
                    self.compare_job = None;
                }
            }
        }
        if running {
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
        if self.shown {
            self.start(ctx);
        }
    }

    /// Starts the exposure unless it is computed (or being computed) for the current key.
    fn start(&mut self, ctx: &mut Context) {
        let key = self.key(ctx);
        let done = self.report.as_ref().is_some_and(|(k, _)| *k == key);
        let running = self.job.as_ref().is_some_and(|(k, _)| *k == key);
        if done || running {
            return;
        }
        let Some((repertoire, theory)) = self.books(ctx) else {
            return;
        };
        if let Some((_, old)) = self.job.take() {
            old.cancel();
        }
        let style = key.style.clone();
        let books = ctx.workspace.books();
        let popularity = key.popularity;
        let options = CoverageOptions {
            depth: key.depth,
            threshold: key.threshold,
            ..CoverageOptions::new(key.learner)
        };
        let log = ctx.review_log.clone();
        let job = Job::spawn("coverage", ctx.wake(), move |_| {
            // The opponent replies as the drill does: the theory with the games book as
            // the popularity says.
            let source = MoveSource::new(
                &theory,
                books.iter().map(SharedBook::book).collect(),
                popularity,
            );
            let ex = exposure_from(&repertoire, &source, &style, &options);
            CoverageReport {
                seconds_per_answer: pace_in(log.as_deref()),
                ..describe_rows(ex, &repertoire, &theory)
            }
        });
        match job {
            Ok(job) => self.job = Some((key, job)),
            Err(e) => ctx.message = Some(format!("Cannot compute the coverage: {e}")),
        }
    }

    /// Waits for the running exposure and comparison and takes their results (tests wait;
    /// the window never does).
    pub fn finish(&mut self) {
        if let Some((key, job)) = self.job.take()
            && let JobPoll::Finished(report) = job.poll_blocking()
        {
            self.report = Some((key, Arc::new(report)));
        }
        if let Some((_, job)) = self.compare_job.take() {
            self.games = Some(match job.poll_blocking() {
                JobPoll::Finished(result) => result,
                JobPoll::Running => Err("still running".to_owned().into()),
                JobPoll::Died(e) => Err(e.to_string().into()),
            });
        }
    }

    /// Adds `moves` (a gap and the theory's answer) to a copy of the learner's repertoire
    /// file, written beside it, and drills the copy instead (the learner's file is not
    /// touched).
    pub(crate) fn add_answer(&self, moves: &[Move], ctx: &mut Context) {
        let Some(original) = repertoire_file(&ctx.workspace) else {
            ctx.message = Some("No repertoire file is loaded to add the answer to.".to_owned());
            return;
        };
        // The opening's name and ECO code from the theory (else the repertoire), as the
        // gap's row shows them.
        let naming = self
            .books(ctx)
            .and_then(|(repertoire, theory)| describe(moves, &[&theory, &repertoire]).naming);
        let added = crate::workspace::repertoire_edit::add_line_to_copy(
            &original,
            moves,
            naming.as_ref().and_then(|l| l.eco.as_deref()),
            naming.as_ref().map(|l| l.name.as_str()),
        );
        match added {
            Ok(copy) => {
                ctx.workspace.remove(&original);
                ctx.workspace
                    .open(vec![copy.clone()], crate::workspace::FileMode::Repertoire);
                ctx.message = Some(format!(
                    "Added {} to a copy of your repertoire, {}; {} is unchanged. The book now \
                     uses the copy.",
                    describe(moves, &[]).sans,
                    file_name(&copy),
                    file_name(&original),
                ));
            }
            Err(e) => ctx.message = Some(format!("The answer could not be added: {e}")),
        }
    }

    /// Starts a drill at the position after `moves`: on the repertoire, or on the theory
    /// book (a gap, which the repertoire cannot drill). Falls back to the other book when
    /// the game reached the position through positions outside the first.
    pub(crate) fn drill_at(&mut self, moves: &[Move], book: DrillBook, ctx: &mut Context) {
        ctx.send(Event::StopRepertoireTraining);
        let Some((repertoire, theory)) = self.books(ctx) else {
            ctx.message = Some("Drilling a position needs your repertoire.".to_owned());
            return;
        };
        let seed = ctx.settings.fixed_seed().unwrap_or_else(rand::random);
        let learner = ctx.session.learner();
        let style = ctx.session.style().clone();
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
            session.continue_counts(&ctx.session);
            if on_theory {
                self.set_aside = Some(Arc::clone(&repertoire));
            } else {
                self.set_aside = None;
                session.set_theory(Some(Arc::clone(&theory)));
            }
            ctx.session = session;
            ctx.graph = graph;
            ctx.book_generation += 1;
            ctx.send(Event::NewSession);
            let at = describe(moves, &[]).sans;
            ctx.send(Event::Message(if on_theory {
                format!(
                    "Drilling after {at} with the theory book (your repertoire has no move here). \
                     \"Back to my repertoire\" in the Coverage tab returns."
                )
            } else {
                format!("Drilling your repertoire after {at}.")
            }));
            return;
        }
        ctx.message = Some(
            "This position cannot be drilled: the game reached it through positions outside \
             the books."
                .to_owned(),
        );
    }

    /// Drills the theory book instead of the repertoire (set aside, as for a gap) and
    /// has review mode start again on it: "Mistakes only" then asks the missed
    /// positions that are in the theory and not in the repertoire.
    pub(crate) fn mistakes_with_theory(&mut self, ctx: &mut Context) {
        ctx.send(Event::StopRepertoireTraining);
        let Some((repertoire, theory)) = self.books(ctx) else {
            ctx.message = Some("Only a repertoire has a theory book beside it.".to_owned());
            return;
        };
        let seed = ctx.settings.fixed_seed().unwrap_or_else(rand::random);
        let style = ctx.session.style().clone();
        let mut session = Session::new(Arc::clone(&theory), ctx.session.learner(), style, seed);
        session.continue_counts(&ctx.session);
        self.set_aside = Some(repertoire);
        ctx.session = session;
        ctx.graph = theory;
        ctx.book_generation += 1;
        ctx.send(Event::NewSession);
        ctx.send(Event::RestartReview);
        ctx.send(Event::Message(
            "Going over your mistakes with the ECO book (they are not in your repertoire). \
             \"Back to my repertoire\" in the Coverage tab returns."
                .to_owned(),
        ));
    }

    /// Ends a gap drill: the repertoire is the book again.
    pub(crate) fn back_to_repertoire(&mut self, ctx: &mut Context) {
        let Some(repertoire) = self.set_aside.take() else {
            return;
        };
        ctx.send(Event::StopRepertoireTraining);
        let theory = ctx.workspace.theory();
        ctx.session.set_graph(Arc::clone(&repertoire));
        ctx.session.set_theory(theory);
        ctx.graph = repertoire;
        ctx.book_generation += 1;
        ctx.send(Event::NewSession);
        // Review mode's cards are the repertoire's again.
        ctx.send(Event::RestartReview);
        ctx.send(Event::Message("Back to your repertoire.".to_owned()));
    }
}
