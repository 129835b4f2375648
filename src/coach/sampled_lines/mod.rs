//! Sampled lines, the chart's "Explore" button ([`SampledLinesState`]): sampling lines
//! from the position shown on a background thread, in chunks so that the progress bar
//! moves and a new request cancels the old one; the last finished exploration is kept
//! for the chart, under the key of the position it was run from ([`ChartKey`]).

use std::sync::Arc;
use std::time::Duration;

use rand::SeedableRng;
use shakmaty::{Chess, Move};

use crate::book::{NodeId, PositionGraph};
use crate::coach::context::Context;
use crate::job::{Job, JobError, JobPoll, Wake};
use crate::sampler::{Exploration, ExploreLimits, Style, explore};

/// What a chart (or an exploration) was computed for: the game up to the position, the
/// style, the book.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartKey {
    moves: Vec<Move>,
    style: Style,
    book: u64,
}

/// The key of the position after `ply` moves of the drill.
pub(crate) fn chart_key(ctx: &Context, ply: usize) -> ChartKey {
    let moves = ctx.session.moves();
    ChartKey {
        moves: moves[..ply.min(moves.len())].iter().map(|m| m.mv).collect(),
        style: ctx.session.style().clone(),
        book: ctx.book_generation,
    }
}

/// The running exploration and the last finished one.
#[derive(Default)]
pub struct SampledLinesState {
    run: Option<ExploreRun>,
    explored: Option<Explored>,
}

impl SampledLinesState {
    /// Whether an exploration is running.
    pub fn is_running(&self) -> bool {
        self.run.is_some()
    }

    /// The running exploration: lines sampled so far, in all, and its seed.
    pub fn progress(&self) -> Option<(u64, u32, u64)> {
        self.run.as_ref().map(|r| (r.done(), r.total, r.seed))
    }

    /// The last finished exploration, if any.
    pub fn explored(&self) -> Option<&Explored> {
        self.explored.as_ref()
    }

    /// Starts sampling lines from the drill's position shown on a background thread
    /// (one running is cancelled).
    pub(crate) fn start(&mut self, ctx: &mut Context) {
        self.cancel();
        let session = &ctx.session;
        let ply = session.viewing().unwrap_or(session.moves().len());
        let pos = session.position_at(ply).clone();
        let Some(node) = ctx.graph.lookup(&pos) else {
            ctx.message = Some("This position is not in the book.".to_owned());
            return;
        };
        let key = chart_key(ctx, ply);
        let seed = ctx.settings.fixed_seed().unwrap_or_else(rand::random);
        let limits = ExploreLimits {
            iterations: ctx.settings.iterations.max(1),
            ply_limit: ctx.settings.ply_limit.max(1),
        };
        let start = ExploreStart {
            graph: Arc::clone(&ctx.graph),
            node,
            pos,
            style: session.style().clone(),
            s_prev: session.s_prev_at(ply),
            limits,
            seed,
        };
        match ExploreRun::start(ctx.wake(), key, start) {
            Ok(run) => self.run = Some(run),
            Err(e) => ctx.message = Some(format!("Cannot start the exploration: {e}")),
        }
    }

    /// Each frame: takes the finished exploration (the chart changes then).
    pub(crate) fn poll(&mut self, ctx: &mut Context) {
        let Some(run) = &self.run else {
            return;
        };
        match run.poll() {
            Some(done) => {
                self.run = None;
                if let Some(explored) = done {
                    self.explored = Some(explored);
                    ctx.invalidate_chart();
                }
            }
            None => ctx.request_repaint_after(Duration::from_millis(50)),
        }
    }

    /// Stops the running exploration, if any.
    pub(crate) fn cancel(&mut self) {
        if let Some(run) = self.run.take() {
            run.cancel();
        }
    }

    /// Forgets the explorations (the book changed): stops the running one.
    pub(crate) fn reset(&mut self) {
        self.cancel();
        self.explored = None;
    }
}

/// Where and how to sample.
struct ExploreStart {
    graph: Arc<PositionGraph>,
    node: NodeId,
    pos: Chess,
    style: Style,
    s_prev: f64,
    limits: ExploreLimits,
    seed: u64,
}

/// A finished exploration and the position it was run from.
pub struct Explored {
    /// Where it was run.
    pub key: ChartKey,
    /// How often each move was chosen.
    pub exploration: Exploration,
    /// The line names the sampled lines ended in, most frequent first.
    pub reached: Vec<(String, u32)>,
}

/// What the exploration thread gives back: the counts and the line names reached.
type Sampled = Option<(Exploration, Vec<(String, u32)>)>;

/// A running exploration.
struct ExploreRun {
    job: Job<Sampled>,
    key: ChartKey,
    seed: u64,
    total: u32,
}

impl ExploreRun {
    /// Starts sampling on its own thread.
    fn start(wake: Wake, key: ChartKey, start: ExploreStart) -> Result<ExploreRun, JobError> {
        let total = start.limits.iterations;
        let seed = start.seed;
        let repaint = Arc::clone(&wake);
        let job = Job::spawn("explore", wake, move |progress| {
            progress.set_total(u64::from(total));
            let ExploreStart {
                graph,
                node,
                pos,
                style,
                s_prev,
                limits,
                seed,
            } = start;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let chunks = 20u32.min(limits.iterations);
            let mut sum = Exploration::default();
            for i in 0..chunks {
                if progress.is_cancelled() {
                    return None;
                }
                let n = limits.iterations / chunks + u32::from(i < limits.iterations % chunks);
                let part = ExploreLimits {
                    iterations: n,
                    ..limits
                };
                sum.merge(explore(&graph, node, &pos, &style, s_prev, part, &mut rng));
                progress.advance(u64::from(n));
                repaint();
            }
            let reached = sum.reached(&graph);
            Some((sum, reached))
        })?;
        Ok(ExploreRun {
            job,
            key,
            seed,
            total,
        })
    }

    /// `Some` once the job has ended: the result, or `None` when it was cancelled or died.
    fn poll(&self) -> Option<Option<Explored>> {
        match self.job.poll() {
            JobPoll::Running => None,
            JobPoll::Finished(result) => Some(result.map(|(exploration, reached)| Explored {
                key: self.key.clone(),
                exploration,
                reached,
            })),
            JobPoll::Died(_) => Some(None),
        }
    }

    /// Lines sampled so far.
    fn done(&self) -> u64 {
        self.job.progress().snapshot().done
    }

    /// Stops the sampling.
    fn cancel(&self) {
        self.job.cancel();
    }
}
