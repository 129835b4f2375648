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
pub use super::compare_games::{CompareFailure, CompareResult, GameRow, GamesReport};
use crate::book::polyglot::SharedBook;
use crate::book::{ImportMode, PositionGraph};
use crate::job::{Job, JobPoll};
use crate::sampler::{MoveSource, Popularity, Style};
use crate::trainer::Session;
use crate::trainer::coverage::{
    CoverageOptions, DEFAULT_DEPTH, DEFAULT_THRESHOLD, Exposure, describe, exposure_from,
};
use crate::workspace::file_name;

/// How many likely positions the tab lists.
const LIKELY_SHOWN: usize = 12;

/// What an exposure was computed for.
#[derive(Debug, Clone, PartialEq)]
pub struct CoverageKey {
    book: u64,
    pub(super) style: Style,
    pub(super) learner: Color,
    pub(super) depth: u32,
    pub(super) threshold: f64,
    /// The workspace's books generation and the popularity.
    books: u64,
    pub(super) popularity: Popularity,
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
    /// Whether the Coverage tab is shown (its exposure is computed only then).
    pub(crate) shown: bool,
    /// "Most often missed", as the Progress tab shows it.
    pub(crate) missed: super::missed::MissedState,
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
    pub(super) fn coverage_books(&mut self) -> Option<(Arc<PositionGraph>, Arc<PositionGraph>)> {
        let theory = self.ctx.workspace.theory()?;
        let repertoire = self
            .coverage
            .set_aside
            .clone()
            .unwrap_or_else(|| Arc::clone(&self.ctx.graph));
        Some((repertoire, theory))
    }

    pub(super) fn coverage_key(&self) -> CoverageKey {
        CoverageKey {
            book: self.coverage.generation,
            style: self.ctx.settings.style.clone(),
            learner: self.ctx.session.learner(),
            depth: self.coverage.params.depth,
            threshold: self.coverage.params.threshold_percent / 100.0,
            books: self.ctx.workspace.open_books().generation(),
            popularity: self.ctx.settings.book.popularity,
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
            self.ctx
                .request_repaint_after(std::time::Duration::from_millis(50));
        }
        if self.coverage.shown {
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
        let books = self.ctx.workspace.books();
        let popularity = key.popularity;
        let options = CoverageOptions {
            depth: key.depth,
            threshold: key.threshold,
            ..CoverageOptions::new(key.learner)
        };
        let job = Job::spawn("coverage", self.ctx.wake(), move |_| {
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
            Err(e) => self.ctx.message = Some(format!("Cannot compute the coverage: {e}")),
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

    /// The learner's repertoire file in use (the first loaded as a repertoire and
    /// enabled in the book), which "Add answer" adds lines to a copy of.
    pub fn repertoire_file(&self) -> Option<PathBuf> {
        self.ctx
            .workspace
            .files()
            .iter()
            .find(|f| {
                f.mode == ImportMode::Repertoire
                    && self
                        .ctx
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
            self.ctx.message =
                Some("No repertoire file is loaded to add the answer to.".to_owned());
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
                self.ctx.workspace.remove(&original);
                self.ctx
                    .workspace
                    .open(vec![copy.clone()], crate::workspace::FileMode::Repertoire);
                self.ctx.message = Some(format!(
                    "Added {} to a copy of your repertoire, {}; {} is unchanged. The book now \
                     uses the copy.",
                    describe(moves, &[]).sans,
                    file_name(&copy),
                    file_name(&original),
                ));
            }
            Err(e) => self.ctx.message = Some(format!("The answer could not be added: {e}")),
        }
    }

    /// Starts a drill at the position after `moves`: on the repertoire, or on the theory
    /// book (a gap, which the repertoire cannot drill). Falls back to the other book when
    /// the game reached the position through positions outside the first.
    pub(crate) fn drill_at(&mut self, moves: &[Move], book: DrillBook) {
        self.stop_repertoire_training();
        let Some((repertoire, theory)) = self.coverage_books() else {
            self.ctx.message = Some("Drilling a position needs your repertoire.".to_owned());
            return;
        };
        let seed = self.ctx.settings.fixed_seed().unwrap_or_else(rand::random);
        let learner = self.ctx.session.learner();
        let style = self.ctx.session.style().clone();
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
            session.continue_counts(&self.ctx.session);
            if on_theory {
                self.coverage.set_aside = Some(Arc::clone(&repertoire));
            } else {
                self.coverage.set_aside = None;
                session.set_theory(Some(Arc::clone(&theory)));
            }
            self.ctx.session = session;
            self.ctx.graph = graph;
            self.ctx.book_generation += 1;
            self.after_new_session();
            let at = describe(moves, &[]).sans;
            self.ctx.message = Some(if on_theory {
                format!(
                    "Drilling after {at} with the theory book (your repertoire has no move here). \
                     \"Back to my repertoire\" in the Coverage tab returns."
                )
            } else {
                format!("Drilling your repertoire after {at}.")
            });
            return;
        }
        self.ctx.message = Some(
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
        self.stop_repertoire_training();
        let theory = self.ctx.workspace.theory();
        self.ctx.session.set_graph(Arc::clone(&repertoire));
        self.ctx.session.set_theory(theory);
        self.ctx.graph = repertoire;
        self.ctx.book_generation += 1;
        self.after_new_session();
        self.ctx.message = Some("Back to your repertoire.".to_owned());
    }

    pub(crate) fn after_new_session(&mut self) {
        self.sync_books();
        self.sampled_lines.reset();
        self.ctx.invalidate_chart();
        self.ctx.last_reply = None;
    }
}
