//! The engine's evaluation after each move of the Explorer tab ([`ExplorerEvals`]):
//! the positions after the moves shown are analysed one after another, most played
//! first, on the engine's own thread (never the window's), each looked up first in the
//! analysis store the wrong-move verdict keeps (the data folder's cache once it is
//! open) and kept there, each sent back as it is found so that the column fills as the
//! analyses arrive. A new position stops the analyses of the one before.
//!
//! The engine is the verdict's (Stockfish when installed, else the built-in one), at
//! its limit, so that the analyses one keeps serve the other.

use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, Sender};

use shakmaty::{Chess, Color, Position as _};

use super::view::ExplorerView;
use crate::engine::analysis::Analysis;
use crate::engine::handle::{EngineTask, TaskContext};
use crate::engine::{Engine, EngineEvent, EngineHandle, Limits, Score};
use crate::job::Wake;
use crate::trainer::verdict::checker::{CHECK_TIME, CheckEngine, SharedStore, stored_or_analysed};

/// What the engine's thread sends back: the analysis after move `index` of the view
/// analysed for `id`, or why one failed.
enum Found {
    Eval {
        id: u64,
        index: usize,
        analysis: Analysis,
    },
    Failed(String),
}

/// The engine evaluating the Explorer tab's moves, started when first needed.
pub struct ExplorerEvals {
    engine: Option<CheckEngine>,
    limits: Limits,
    handle: Option<EngineHandle>,
    outbox: Sender<Found>,
    inbox: Receiver<Found>,
    /// The id of the analyses under way (one per view).
    id: u64,
    /// Why the last analysis failed, for the tab.
    failure: Option<String>,
}

impl std::fmt::Debug for ExplorerEvals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExplorerEvals")
            .field("limits", &self.limits)
            .field("started", &self.handle.is_some())
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl Default for ExplorerEvals {
    fn default() -> ExplorerEvals {
        ExplorerEvals::new(
            None,
            Limits::movetime(CHECK_TIME).unwrap_or(Limits::ONE_PLY),
        )
    }
}

impl ExplorerEvals {
    /// Evaluations by `engine` (`None`: Stockfish when installed, else the built-in
    /// engine), each search within `limits`.
    pub fn new(engine: Option<CheckEngine>, limits: Limits) -> ExplorerEvals {
        let (outbox, inbox) = mpsc::channel();
        ExplorerEvals {
            engine,
            limits,
            handle: None,
            outbox,
            inbox,
            id: 0,
            failure: None,
        }
    }

    /// Why the last evaluation failed, if it did.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// Starts evaluating the positions after the moves of `view` (those `store` knows
    /// at once), dropping the analyses of the view before.
    pub(super) fn start(&mut self, view: &mut ExplorerView, store: &SharedStore, wake: Wake) {
        self.id += 1;
        let pos = view.position.clone();
        let after: Vec<(usize, Chess)> = view
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| pos.is_legal(r.mv))
            .map(|(i, r)| {
                let mut p = pos.clone();
                p.play_unchecked(r.mv);
                (i, p)
            })
            .collect();
        let mut missing = Vec::new();
        match store.try_lock() {
            Ok(kept) => {
                for (i, p) in after {
                    match (kept.get(&p), view.rows.get_mut(i)) {
                        (Some(a), Some(row)) => row.eval = Some(white_view(&a, p.turn())),
                        _ => missing.push((i, p)),
                    }
                }
            }
            Err(_) => missing = after,
        }
        if let Some(handle) = &mut self.handle {
            handle.stop();
        }
        if missing.is_empty() {
            return;
        }
        let task = eval_task(
            self.id,
            missing,
            std::sync::Arc::clone(store),
            self.limits,
            (self.outbox.clone(), wake.clone()),
        );
        self.handle(wake).run(task);
    }

    /// The engine's handle, started now if it was not.
    fn handle(&mut self, wake: Wake) -> &mut EngineHandle {
        let engine = &mut self.engine;
        self.handle.get_or_insert_with(|| {
            match engine.take().unwrap_or_else(CheckEngine::discover) {
                CheckEngine::Choice(choice) => EngineHandle::spawn_waking(choice, wake),
                CheckEngine::Given(engine) => EngineHandle::spawn_engine(engine, wake),
            }
        })
    }

    /// Stops the analyses under way (no index, the tab hidden).
    pub(super) fn stop(&mut self) {
        self.id += 1;
        if let Some(handle) = &mut self.handle {
            handle.stop();
        }
    }

    /// Puts the evaluations found since the last frame into `view`; never waits.
    pub(super) fn poll(&mut self, view: &mut ExplorerView) {
        if let Some(handle) = &self.handle {
            while let Some(event) = handle.try_recv() {
                match event {
                    EngineEvent::Warning(text) => self.failure = Some(text),
                    EngineEvent::Died(gone) => self.failure = Some(gone.to_string()),
                    _ => {}
                }
            }
        }
        while let Ok(found) = self.inbox.try_recv() {
            match found {
                Found::Eval {
                    id,
                    index,
                    analysis,
                } if id == self.id => {
                    let turn = !view.position.turn();
                    if let Some(row) = view.rows.get_mut(index) {
                        row.eval = Some(white_view(&analysis, turn));
                    }
                }
                Found::Eval { .. } => {}
                Found::Failed(why) => self.failure = Some(why),
            }
        }
    }
}

/// `analysis`'s score from White's point of view, `turn` the side to move there.
fn white_view(analysis: &Analysis, turn: Color) -> Score {
    analysis.score_for(Color::White, turn)
}

/// The task for the engine's thread: each position from the store if it has come there
/// meanwhile, else analysed and kept; each sent back as it is found. A search cut short
/// (another position came) is neither kept nor sent.
fn eval_task(
    id: u64,
    missing: Vec<(usize, Chess)>,
    store: SharedStore,
    limits: Limits,
    (outbox, wake): (Sender<Found>, Wake),
) -> EngineTask {
    Box::new(move |engine: &mut dyn Engine, context: &TaskContext<'_>| {
        for (index, pos) in &missing {
            if context.stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            let analysis = match stored_or_analysed(engine, pos, &store, &limits, context) {
                Ok(Some(found)) => {
                    if let Some(e) = found.not_kept {
                        let _ = outbox.send(Found::Failed(format!(
                            "an evaluation could not be kept: {e}"
                        )));
                    }
                    found.analysis
                }
                Ok(None) => return Ok(()),
                Err(e) => {
                    let _ = outbox.send(Found::Failed(e.to_string()));
                    continue;
                }
            };
            let found = Found::Eval {
                id,
                index: *index,
                analysis,
            };
            if outbox.send(found).is_err() {
                return Ok(());
            }
            wake();
        }
        Ok(())
    })
}
