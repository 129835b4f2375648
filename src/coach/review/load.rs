//! What a review session is built on (the log, the cards, the scheduler, the card
//! states): read from the data folder when review mode starts, or kept from the session
//! before when the learner chooses another one, so that a session menu choice starts at
//! once (a large repertoire's cards and a long log take a while to build and replay).

use std::sync::Arc;

use super::{PARAMS_FILE, ReviewState};
use crate::coach::context::Context;
use crate::review::{Deck, Schedule, Scheduler};
use crate::workspace::review_store::{ReviewStore, load_params};

/// A review session's base.
pub(super) struct Loaded {
    pub(super) store: ReviewStore,
    pub(super) deck: Arc<Deck>,
    /// Whether the deck's reach is the drill's exact one.
    pub(super) exact_reach: bool,
    pub(super) scheduler: Scheduler,
    pub(super) schedule: Schedule,
    /// The log's and the parameters' warnings.
    pub(super) warning: Option<String>,
}

/// Reads the review log and the parameters of the data folder and builds the cards of
/// the book for the learner's colour; `None` (and the reason in the context's message)
/// without a data folder or when the log cannot be opened.
pub(super) fn load(ctx: &mut Context) -> Option<Loaded> {
    let Some(log) = ctx.review_log.clone() else {
        ctx.message = Some("Review mode needs a data directory to keep its log.".into());
        return None;
    };
    let store = match ReviewStore::open(&log) {
        Ok(s) => s,
        Err(e) => {
            ctx.message = Some(format!("Cannot open the review log: {e}"));
            return None;
        }
    };
    let loaded = load_params(&log.with_file_name(PARAMS_FILE));
    let (scheduler, bad) = loaded.value.scheduler();
    let warning = store
        .warnings()
        .iter()
        .chain(&loaded.warning)
        .chain(&bad)
        .cloned()
        .collect::<Vec<_>>();
    let schedule = store.schedule(&scheduler);
    let deck = Arc::new(Deck::new(&ctx.graph, ctx.session.learner()));
    Some(Loaded {
        store,
        deck,
        exact_reach: false,
        scheduler,
        schedule,
        warning: (!warning.is_empty()).then(|| warning.join("; ")),
    })
}

/// The running session's base, its last grade committed and appended, when review mode
/// is on for the book and colour drilled now; review mode is then off.
pub(super) fn keep(state: &mut ReviewState, ctx: &mut Context) -> Option<Loaded> {
    let review = state.mode.as_ref()?;
    let same_book = std::ptr::eq(review.drill.session().graph(), ctx.session.graph());
    if !same_book || review.drill.session().learner() != ctx.session.learner() {
        return None;
    }
    let records = state.with_drill(ctx, |d| d.finish()).unwrap_or_default();
    state.append_reviews(records);
    let review = state.mode.take()?;
    Some(Loaded {
        deck: review.drill.deck_arc(),
        scheduler: review.drill.scheduler().clone(),
        schedule: review.drill.schedule().clone(),
        store: review.store,
        exact_reach: review.exact_reach,
        warning: review.warning,
    })
}
