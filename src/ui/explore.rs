//! "Explore": sampling lines from the position shown on a background thread, in chunks
//! so that the progress bar moves and a new request cancels the old one.

use std::sync::Arc;

use eframe::egui;
use rand::SeedableRng;
use shakmaty::Chess;

use super::chart_panel::ChartKey;
use crate::book::{NodeId, PositionGraph};
use crate::sampler::{Exploration, ExploreLimits, Style, explore};
use crate::job::{Job, JobError, JobPoll};

/// Where and how to sample.
pub(super) struct ExploreStart {
    pub(super) graph: Arc<PositionGraph>,
    pub(super) node: NodeId,
    pub(super) pos: Chess,
    pub(super) style: Style,
    pub(super) s_prev: f64,
    pub(super) limits: ExploreLimits,
    pub(super) seed: u64,
}

/// A finished exploration and the position it was run from.
pub(super) struct Explored {
    pub(super) key: ChartKey,
    pub(super) exploration: Exploration,
    /// The line names the sampled lines ended in, most frequent first.
    pub(super) reached: Vec<(String, u32)>,
}

/// What the exploration thread gives back: the counts and the line names reached.
type Sampled = Option<(Exploration, Vec<(String, u32)>)>;

/// A running exploration.
pub(super) struct ExploreRun {
    job: Job<Sampled>,
    key: ChartKey,
    pub(super) seed: u64,
    pub(super) total: u32,
}

impl ExploreRun {
    /// Starts sampling on its own thread.
    pub(super) fn start(
        ctx: &egui::Context,
        key: ChartKey,
        start: ExploreStart,
    ) -> Result<ExploreRun, JobError> {
        let total = start.limits.iterations;
        let seed = start.seed;
        let repaint = ctx.clone();
        let wake = {
            let ctx = ctx.clone();
            Arc::new(move || ctx.request_repaint())
        };
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
                repaint.request_repaint();
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
    pub(super) fn poll(&self, ctx: &egui::Context) -> Option<Option<Explored>> {
        match self.job.poll() {
            JobPoll::Running => {
                ctx.request_repaint_after(std::time::Duration::from_millis(50));
                None
            }
            JobPoll::Finished(result) => Some(result.map(|(exploration, reached)| Explored {
                key: self.key.clone(),
                exploration,
                reached,
            })),
            JobPoll::Died(_) => Some(None),
        }
    }

    /// Lines sampled so far.
    pub(super) fn done(&self) -> u64 {
        self.job.progress().snapshot().done
    }

    /// Stops the sampling.
    pub(super) fn cancel(&self) {
        self.job.cancel();
    }
}
