//! "The most common" session's exact reach (the chance a drill reaches each card,
//! `trainer::coverage::set_exact_reach`), found off the window's thread and kept per
//! book, colour and style: it takes a second on a 50,000-position repertoire in a
//! debug build, which the window must not wait for. Review mode starts finding it when
//! it opens, so that the menu's "most common" usually finds it ready; chosen before it
//! is, the session waits for it (the menu says "counting…") while the window goes on.

use std::sync::Arc;

use shakmaty::Color;

use crate::coach::context::Context;
use crate::job::{Job, JobPoll};
use crate::review::{Deck, SessionChoice};
use crate::sampler::Style;

/// What an exact reach was found for: the book (its generation and graph), the
/// learner's colour and the drill's style.
#[derive(Clone, Debug, PartialEq)]
struct ReachKey {
    generation: u64,
    graph: usize,
    learner: Color,
    style: Style,
}

impl ReachKey {
    /// The key of the book, colour and style drilled now.
    fn now(ctx: &Context) -> ReachKey {
        ReachKey {
            generation: ctx.book_generation,
            graph: Arc::as_ptr(&ctx.graph) as usize,
            learner: ctx.session.learner(),
            style: ctx.session.style().clone(),
        }
    }
}

/// The exact reach: the deck found last, the job finding one, the session waiting.
#[derive(Debug, Default)]
pub struct ExactReach {
    /// The deck with its exact reach, and what it was found for.
    found: Option<(ReachKey, Arc<Deck>)>,
    /// The job finding one, and what for.
    job: Option<(ReachKey, Job<Arc<Deck>>)>,
    /// A session chosen before the reach was found: started when it is.
    waiting: Option<SessionChoice>,
}

impl ExactReach {
    /// The deck of the book drilled now with its exact reach, if it was found.
    pub(super) fn deck(&self, ctx: &Context) -> Option<Arc<Deck>> {
        let key = ReachKey::now(ctx);
        self.found
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, deck)| Arc::clone(deck))
    }

    /// Starts finding the exact reach of the book drilled now, unless it is found or
    /// being found.
    pub(super) fn start(&mut self, ctx: &mut Context) {
        let key = ReachKey::now(ctx);
        let known = |k: Option<&ReachKey>| k == Some(&key);
        if known(self.found.as_ref().map(|(k, _)| k)) || known(self.job.as_ref().map(|(k, _)| k)) {
            return;
        }
        let graph = Arc::clone(&ctx.graph);
        let style = key.style.clone();
        let learner = key.learner;
        let job = Job::spawn("exact-reach", ctx.wake(), move |_| {
            let mut deck = Deck::new(&graph, learner);
            crate::trainer::coverage::set_exact_reach(&mut deck, &graph, &style);
            Arc::new(deck)
        });
        match job {
            Ok(job) => self.job = Some((key, job)),
            Err(e) => ctx.message = Some(format!("The most common positions: {e}")),
        }
    }

    /// Waits for the reach to start `choice` (the caller starts the job).
    pub(super) fn wait_for(&mut self, choice: SessionChoice) {
        self.waiting = Some(choice);
    }

    /// The session waiting for the reach, if one is.
    pub fn waiting(&self) -> Option<&SessionChoice> {
        self.waiting.as_ref()
    }

    /// Whether the reach is being found.
    pub fn is_counting(&self) -> bool {
        self.job.is_some()
    }

    /// Whether a reach was found (for the book drilled now or an earlier one).
    pub fn is_found(&self) -> bool {
        self.found.is_some()
    }

    /// Each frame: keeps the reach found; returns the session that waited for it, to
    /// start now (`None` while the job runs, or when none waited).
    pub(super) fn poll(&mut self, ctx: &mut Context) -> Option<SessionChoice> {
        let (_, job) = self.job.as_ref()?;
        let deck = match job.poll() {
            JobPoll::Running => {
                if self.waiting.is_some() {
                    ctx.request_repaint_after(std::time::Duration::from_millis(100));
                }
                return None;
            }
            JobPoll::Finished(deck) => Some(deck),
            JobPoll::Died(e) => {
                ctx.message = Some(format!("The most common positions: {e}"));
                None
            }
        };
        let (key, _) = self.job.take()?;
        ctx.request_repaint();
        let deck = deck?;
        self.found = Some((key, deck));
        self.waiting.take()
    }
}
