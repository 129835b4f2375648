//! The Repertoire tab's book: the repertoire being edited as a graph, its exposure to the
//! theory (the coverage code, [`crate::trainer::coverage`], on a background thread), and
//! what the tab shows of it: the opponent's replies at the cursor that the repertoire
//! does not answer, with their reach; **Next gap**, the most likely gap; **Train this**,
//! a drill of the subtree under the cursor.
//!
//! The exposure is that of the Coverage tab, computed for the repertoire editor's document (the
//! chapters of its side) instead of the loaded book: the same options (depth and
//! threshold of the Coverage tab), the same theory (ECO, with the Polyglot books as the
//! popularity says) and the same style. It is recomputed after each edit while the tab
//! is shown.

use std::sync::Arc;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

use super::{RepertoireState, RepertoireTab};
use crate::book::explorer::ExplorerFilter;
use crate::book::line::{LineSource, OpeningLine};
use crate::book::polyglot::SharedBook;
use crate::book::repertoire::{Document, GameTree};
use crate::book::{NodeKey, PositionGraph, Side, SourceId};
use crate::coach::context::Context;
use crate::job::{Job, JobPoll};
use crate::sampler::{MoveSource, Popularity, Style};
use crate::trainer::coverage::{CoverageOptions, Exposure, exposure_from, one_in};
use crate::workspace::explorer::{ExplorerIndex, FilteredExplorer};

/// What an exposure was computed for.
#[derive(Debug, Clone, PartialEq)]
struct GapsKey {
    generation: u64,
    chapter_side: Color,
    style: Style,
    depth: u32,
    threshold: f64,
    books: u64,
    popularity: Popularity,
    /// The chapters (titles) left out of the drill.
    left_out: Vec<String>,
    /// The sides the learner set for chapters.
    sides: std::collections::BTreeMap<u32, Side>,
    /// The explorer whose games give the replies (its folder and filter), if any.
    explorer: Option<(std::path::PathBuf, ExplorerFilter)>,
}

/// The repertoire's graph and exposure, computed together.
#[derive(Debug)]
pub struct RepertoireBook {
    /// The chapters of the learner's side as a graph.
    pub graph: Arc<PositionGraph>,
    /// Those that "Train this" drills (the same graph when it drills them all).
    pub drill: Arc<PositionGraph>,
    /// Its exposure to the theory.
    pub exposure: Exposure,
}

/// An opponent's reply at the cursor that the repertoire does not answer.
#[derive(Debug, Clone, PartialEq)]
pub struct MissingReply {
    /// The reply.
    pub mv: Move,
    /// It in SAN.
    pub san: String,
    /// How likely a drill reaches the position after it (all paths).
    pub reach: f64,
    /// Whether the coverage counts it as a gap (reach above the threshold, theory has a
    /// move there).
    pub gap: bool,
}

impl MissingReply {
    /// "1 in N games".
    pub fn one_in(&self) -> u64 {
        one_in(self.reach)
    }
}

/// What the tab says at the cursor.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum MissingHere {
    /// Nothing is known yet (no file, or the exposure is being computed).
    #[default]
    Unknown,
    /// The chapter does not start from the standard position, or is for no side.
    NotApplicable(String),
    /// The drill does not reach the cursor's position (deeper than the depth, or less
    /// likely than the cut).
    NotReached,
    /// The learner is to move: whether the repertoire has a move, and the theory's.
    LearnerToMove {
        /// The repertoire's moves here (all chapters, transpositions merged).
        answered: bool,
        /// The theory's moves where this is a gap, most popular first.
        theory: Vec<String>,
        /// The position's reach.
        reach: f64,
    },
    /// The opponent is to move: the replies the repertoire does not answer, most
    /// likely first.
    OpponentToMove(Vec<MissingReply>),
}

/// An action that waits for the repertoire's book.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Pending {
    NextGap,
    TrainThis(Vec<Move>),
}

/// What the view at the cursor was computed for: the book, the chapter, the moves.
type MissingKey = (GapsKey, usize, Vec<Move>);

/// The Repertoire tab's book: its job, its result, the gaps view (runtime only).
#[derive(Default)]
pub struct GapsState {
    job: Option<(GapsKey, Job<RepertoireBook>)>,
    book: Option<(GapsKey, Arc<RepertoireBook>)>,
    /// The view at the cursor, for (book key, chapter, cursor moves).
    missing: Option<(MissingKey, MissingHere)>,
    /// What waits for the exposure being computed: "Next gap", or "Train this" at
    /// these moves.
    pub(super) pending: Option<Pending>,
    /// While the drill trains the repertoire editor's subtree: the moves to its root.
    pub(crate) train_root: Option<Vec<Move>>,
    /// Whether the Repertoire tab is shown (the exposure is computed only then).
    pub(crate) shown: bool,
    /// The Explorer tab's open index and filter, as the coach last shared them (the
    /// missing replies come from its games when the settings say so).
    pub(crate) explorer: Option<ExplorerGames>,
}

/// An explorer index and the filter of its games.
pub(crate) type ExplorerGames = (Arc<ExplorerIndex>, ExplorerFilter);

impl GapsState {
    /// Whether the exposure is being computed.
    pub fn is_computing(&self) -> bool {
        self.job.is_some()
    }

    /// The last graph and exposure computed.
    pub fn book(&self) -> Option<&Arc<RepertoireBook>> {
        self.book.as_ref().map(|(_, b)| b)
    }

    /// What is missing at the cursor (as of the last frame's logic).
    pub fn missing(&self) -> &MissingHere {
        self.missing
            .as_ref()
            .map_or(&MissingHere::Unknown, |(_, m)| m)
    }

    /// The moves to the subtree the drill trains, if it does.
    pub fn train_root(&self) -> Option<&[Move]> {
        self.train_root.as_deref()
    }
}

/// The lines of `chapters` (their number in the file, from 1, and their tree): all of
/// them, and those of the chapters drilled when some are left out.
fn repertoire_lines(
    chapters: &[(u32, bool, Arc<GameTree>)],
) -> (Vec<OpeningLine>, Option<Vec<OpeningLine>>) {
    // The drilled chapters' lines are kept apart only when some are left out.
    let some_left_out = chapters.iter().any(|(_, drills, _)| !drills);
    let mut all = Vec::new();
    let mut drilled = some_left_out.then(Vec::new);
    for (number, drills, tree) in chapters {
        let lines = tree.opening_lines(LineSource::Pgn {
            source: SourceId(1),
            game: *number,
        });
        if let Some(drilled) = drilled.as_mut().filter(|_| *drills) {
            drilled.extend(lines.iter().cloned());
        }
        all.extend(lines);
    }
    (all, drilled)
}

/// The graph of `lines`, made after `previous` (the graph before the edit) when there
/// is one.
fn repertoire_graph(lines: Vec<OpeningLine>, previous: Option<&PositionGraph>) -> PositionGraph {
    match previous {
        Some(previous) => PositionGraph::build_after(lines, previous).graph,
        None => PositionGraph::build(lines).graph,
    }
}

/// The chapters of `doc` for `side` (or for no side) that could be read, with their
/// number in the file (from 1) and whether they are drilled (not in `left_out`).
fn chapters_of(
    w: &RepertoireState,
    doc: &Document,
    side: Side,
    left_out: &[String],
) -> Vec<(u32, bool, Arc<GameTree>)> {
    doc.chapters()
        .iter()
        .zip(1u32..)
        .filter(|(_, n)| w.chapter_side(*n as usize - 1).is_none_or(|s| s == side))
        .filter_map(|(c, number)| {
            let drilled = !left_out.contains(&c.title(number as usize));
            Some((number, drilled, c.shared_tree()?))
        })
        .collect()
}

/// The most likely moves from the standard position to `key` at `ply` according to the
/// exposure, summed over the states there: the states and their total reach.
fn states_at<'a>(
    tree: &'a [Vec<crate::trainer::coverage::TreeState<'a>>],
    ply: usize,
    key: NodeKey,
) -> Vec<&'a crate::trainer::coverage::TreeState<'a>> {
    tree.get(ply)
        .map(|layer| layer.iter().filter(|s| s.key == key).collect())
        .unwrap_or_default()
}

/// What is missing at `pos`, reached after `ply` moves from the standard position.
fn missing_at(book: &RepertoireBook, pos: &Chess, ply: usize, learner: Color) -> MissingHere {
    let ex = &book.exposure;
    let key = NodeKey::from_position(pos);
    let tree = ex.tree();
    let states = states_at(&tree, ply, key);
    if states.is_empty() {
        return MissingHere::NotReached;
    }
    if pos.turn() == learner {
        let gap = ex.gaps().iter().find(|g| g.key == key);
        let answered = ex
            .positions()
            .iter()
            .find(|p| p.key == key)
            .is_some_and(|p| !p.repertoire.is_empty());
        return MissingHere::LearnerToMove {
            answered,
            theory: gap.map_or_else(Vec::new, |g| {
                g.theory
                    .iter()
                    .map(|m| SanPlus::from_move(pos.clone(), *m).to_string())
                    .collect()
            }),
            reach: ex.reach(&key),
        };
    }
    let mut replies: Vec<MissingReply> = Vec::new();
    for state in states {
        for child in state.children {
            if replies.iter().any(|r| r.mv == child.mv) {
                continue;
            }
            let mut after = pos.clone();
            after.play_unchecked(child.mv);
            let child_key = NodeKey::from_position(&after);
            let answered = ex
                .positions()
                .iter()
                .find(|p| p.key == child_key)
                .is_some_and(|p| !p.repertoire.is_empty());
            if answered {
                continue;
            }
            replies.push(MissingReply {
                mv: child.mv,
                san: SanPlus::from_move(pos.clone(), child.mv).to_string(),
                reach: ex.reach(&child_key),
                gap: ex.gaps().iter().any(|g| g.key == child_key),
            });
        }
    }
    replies.sort_by(|a, b| b.reach.total_cmp(&a.reach));
    MissingHere::OpponentToMove(replies)
}

impl RepertoireTab {
    fn gaps_key(&self, side: Side, ctx: &Context) -> GapsKey {
        let explorer = self
            .gaps_explorer(ctx)
            .map(|(index, filter)| (index.dir().to_owned(), filter));
        GapsKey {
            generation: self.editor.generation,
            chapter_side: Color::from(side),
            style: ctx.settings.style.clone(),
            depth: ctx.settings.coverage.depth,
            threshold: ctx.settings.coverage.threshold_percent / 100.0,
            books: ctx.workspace.open_books().generation(),
            popularity: match explorer {
                Some(_) => Popularity::Explorer,
                None => ctx.settings.book.popularity,
            },
            explorer,
            left_out: self
                .editor
                .file()
                .and_then(|f| ctx.settings.repertoire_train.left_out.get(f.path()))
                .cloned()
                .unwrap_or_default(),
            sides: self.editor.chapter_sides.clone(),
        }
    }

    /// The frame's work for the Repertoire tab: the finished exposure, a new one when
    /// the document or the options changed (while the tab is shown), the view at the
    /// cursor.
    pub(crate) fn poll(&mut self, ctx: &mut Context) {
        self.sync_chapter_sides(ctx);
        if let Some((key, job)) = &self.gaps.job {
            match job.poll() {
                JobPoll::Running => {
                    ctx.request_repaint_after(std::time::Duration::from_millis(50));
                }
                JobPoll::Finished(book) => {
                    let key = key.clone();
                    self.gaps.job = None;
                    self.book_ready(key, book, ctx);
                }
                JobPoll::Died(e) => {
                    self.editor
                        .set_message(format!("The repertoire's gaps were not computed: {e}"));
                    self.gaps.job = None;
                }
            }
        }
        if self.gaps.shown {
            self.start_exposure(ctx);
        }
        self.refresh_missing(ctx);
        if self.gaps.job.is_none() {
            self.run_pending(ctx);
        }
    }

    pub(super) fn start_exposure(&mut self, ctx: &mut Context) {
        let Some(side) = self.editor.side() else {
            return;
        };
        let Some(doc) = self.editor.document() else {
            return;
        };
        let key = self.gaps_key(side, ctx);
        let done = self.gaps.book.as_ref().is_some_and(|(k, _)| *k == key);
        let running = self.gaps.job.as_ref().is_some_and(|(k, _)| *k == key);
        if done || running {
            return;
        }
        let chapters = chapters_of(&self.editor, doc, side, &key.left_out);
        // The graphs before the edit, whose transpositions the new ones take where the
        // edit cannot have changed them.
        let previous = self
            .gaps
            .book
            .as_ref()
            .filter(|(k, _)| k.chapter_side == key.chapter_side)
            .map(|(_, b)| (Arc::clone(&b.graph), Arc::clone(&b.drill)));
        if let Some((_, old)) = self.gaps.job.take() {
            old.cancel();
        }
        let theory = Arc::clone(ctx.workspace.eco());
        let books = ctx.workspace.books();
        let explorer = self
            .gaps_explorer(ctx)
            .map(|(index, filter)| Arc::new(FilteredExplorer::new(index, filter)));
        let style = key.style.clone();
        let popularity = key.popularity;
        let options = CoverageOptions {
            depth: key.depth,
            threshold: key.threshold,
            ..CoverageOptions::new(key.chapter_side)
        };
        let job = Job::spawn("repertoire gaps", ctx.wake(), move |_| {
            let (lines, drilled) = repertoire_lines(&chapters);
            // The trees are the document's: an edit made now copies them while they
            // are held here.
            drop(chapters);
            let graph = Arc::new(repertoire_graph(
                lines,
                previous.as_ref().map(|(g, _)| &**g),
            ));
            let drill = match drilled {
                None => Arc::clone(&graph),
                Some(lines) => Arc::new(repertoire_graph(
                    lines,
                    previous.as_ref().map(|(_, d)| &**d),
                )),
            };
            let source = MoveSource::new(
                &theory,
                books.iter().map(SharedBook::book).collect(),
                popularity,
            );
            let source = match &explorer {
                Some(counts) => source.with_explorer(&**counts),
                None => source,
            };
            let exposure = exposure_from(&graph, &source, &style, &options);
            RepertoireBook {
                graph,
                drill,
                exposure,
            }
        });
        match job {
            Ok(job) => self.gaps.job = Some((key, job)),
            Err(e) => self
                .editor
                .set_message(format!("Cannot compute the repertoire's gaps: {e}")),
        }
    }

    /// The Explorer tab's games when the missing replies come from them (the index and
    /// the filter); `None` when they come from the book (not chosen, no index open, or a
    /// player the index does not keep).
    fn gaps_explorer(&self, ctx: &Context) -> Option<ExplorerGames> {
        if !ctx.settings.repertoire_explorer {
            return None;
        }
        self.gaps.explorer.clone()
    }

    /// Computes the exposure now when it is not up to date, and waits for it (tests,
    /// and "Next gap" and "Train this", which need it).
    pub(crate) fn finish_gaps(&mut self, ctx: &mut Context) {
        self.sync_chapter_sides(ctx);
        self.start_exposure(ctx);
        if let Some((key, job)) = self.gaps.job.take() {
            match job.poll_blocking() {
                JobPoll::Finished(book) => self.book_ready(key, book, ctx),
                JobPoll::Died(e) => self
                    .editor
                    .set_message(format!("The repertoire's gaps were not computed: {e}")),
                JobPoll::Running => {}
            }
        }
        self.refresh_missing(ctx);
        self.run_pending(ctx);
    }

    /// Keeps the book just made; a drill of the repertoire being edited goes on with it.
    fn book_ready(&mut self, key: GapsKey, book: RepertoireBook, ctx: &mut Context) {
        self.gaps.book = Some((key, Arc::new(book)));
        if self.gaps.train_root.is_some() {
            self.take_edits(ctx);
        }
    }

    /// Carries out what waited for the book, once it is there (or cannot be).
    fn run_pending(&mut self, ctx: &mut Context) {
        match self.gaps.pending.take() {
            Some(Pending::NextGap) => self.next_gap(ctx),
            Some(Pending::TrainThis(moves)) => match self.current_book(ctx) {
                Some(book) => self.start_training(&book, moves, ctx),
                None => self
                    .editor
                    .set_message("The repertoire could not be read for the drill.".to_owned()),
            },
            None => {}
        }
    }

    /// The book when it is that of the document as it is now.
    pub(super) fn current_book(&self, ctx: &Context) -> Option<Arc<RepertoireBook>> {
        let side = self.editor.side()?;
        let key = self.gaps_key(side, ctx);
        self.gaps
            .book
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, b)| Arc::clone(b))
    }

    fn refresh_missing(&mut self, ctx: &Context) {
        let Some(side) = self.editor.side() else {
            self.gaps.missing = None;
            return;
        };
        let Some((key, book)) = self.gaps.book.clone() else {
            self.gaps.missing = None;
            return;
        };
        let cache = (key, self.editor.chapter(), self.editor.moves());
        if self.gaps.missing.as_ref().is_some_and(|(k, _)| *k == cache) {
            return;
        }
        let view = if cache.0 != self.gaps_key(side, ctx) {
            MissingHere::Unknown
        } else if !self.editor.starts_at_standard() {
            MissingHere::NotApplicable(
                "This chapter starts from another position than the standard one.".to_owned(),
            )
        } else if let Some(pos) = self.editor.position() {
            missing_at(&book, &pos, cache.2.len(), Color::from(side))
        } else {
            MissingHere::Unknown
        };
        self.gaps.missing = Some((cache, view));
    }

    /// Goes to the most likely gap of the repertoire (after the one at the cursor,
    /// when the cursor is at one): in the chapter that holds most of the way there,
    /// the moves past the tree on the board.
    pub(crate) fn next_gap(&mut self, ctx: &mut Context) {
        let Some(book) = self.current_book(ctx) else {
            if self.editor.side().is_some() {
                self.gaps.pending = Some(Pending::NextGap);
                self.start_exposure(ctx);
            }
            return;
        };
        let gaps = book.exposure.gaps();
        if gaps.is_empty() {
            self.editor.set_message(
                "No gaps: every likely position within the Coverage tab's depth has your move."
                    .to_owned(),
            );
            return;
        }
        let here = self.editor.position().map(|p| NodeKey::from_position(&p));
        let at = gaps
            .iter()
            .position(|g| Some(g.key) == here)
            .map_or(0, |i| (i + 1) % gaps.len());
        let gap = &gaps[at];
        self.editor.go_to_moves(&gap.moves);
        self.editor.set_message(format!(
            "Gap {} of {}: 1 in {} games.",
            at + 1,
            gaps.len(),
            gap.one_in()
        ));
        ctx.request_repaint();
    }
}
