//! "Explore": sampling lines from the position shown on a background thread, in chunks
//! so that the progress bar moves and a new request cancels the old one.

use std::sync::Arc;

use rand::SeedableRng;
use shakmaty::{Chess, Move};

use super::Coach;
use crate::book::{NodeId, PositionGraph};
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

impl Coach {
    /// The key of the position after `ply` moves of the drill.
    pub fn chart_key(&self, ply: usize) -> ChartKey {
        let moves = self.session.moves();
        ChartKey {
            moves: moves[..ply.min(moves.len())].iter().map(|m| m.mv).collect(),
            style: self.session.style().clone(),
            book: self.book_generation,
        }
    }
}

/// Where and how to sample.
pub(crate) struct ExploreStart {
    pub(crate) graph: Arc<PositionGraph>,
    pub(crate) node: NodeId,
    pub(crate) pos: Chess,
    pub(crate) style: Style,
    pub(crate) s_prev: f64,
    pub(crate) limits: ExploreLimits,
    pub(crate) seed: u64,
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
pub(crate) struct ExploreRun {
    job: Job<Sampled>,
    key: ChartKey,
    pub(crate) seed: u64,
    pub(crate) total: u32,
}

impl ExploreRun {
    /// Starts sampling on its own thread.
    pub(crate) fn start(
        wake: Wake,
        key: ChartKey,
        start: ExploreStart,
    ) -> Result<ExploreRun, JobError> {
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
    pub(crate) fn poll(&self) -> Option<Option<Explored>> {
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
    pub(crate) fn done(&self) -> u64 {
        self.job.progress().snapshot().done
    }

    /// Stops the sampling.
    pub(crate) fn cancel(&self) {
        self.job.cancel();
    }
}
