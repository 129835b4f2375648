//! The move checker's analyses kept on disk: once its engine has given its name, the
//! data folder's cache for that engine and limit is opened on a background thread
//! (holding in memory too the repertoire check's analyses by the same engine), and the
//! analyses are kept there from then on.

use std::sync::{Arc, Mutex};

use super::VerdictState;
use crate::coach::context::Context;
use crate::job::{Job, JobError, JobPoll};
use crate::trainer::verdict::checker::SharedStore;
use crate::workspace::analysis_cache::{AnalysisCache, AnalysisEngine};

/// Why the data folder's cache of analyses could not be opened (the analyses are then
/// kept in memory only; the drill panel says why).
#[derive(Debug, thiserror::Error)]
pub enum CacheOpenError {
    /// The cache file could not be read or created.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The thread opening it could not start, or ended without a result.
    #[error("{0}")]
    Job(#[from] JobError),
}

/// The move checker's cache of `engine` at `limit` in `dir`, holding in memory too the
/// repertoire check's analyses by that engine at its default limit.
fn open_caches(
    dir: &std::path::Path,
    engine: &str,
    limit: &str,
) -> Result<AnalysisCache, CacheOpenError> {
    let mut cache = AnalysisCache::open(dir, engine, limit)?;
    let check = AnalysisEngine::choose(None, None, None).limit;
    if check != limit {
        let checked = AnalysisCache::open(dir, engine, &check)?;
        cache.absorb(checked);
    }
    Ok(cache)
}

impl VerdictState {
    /// Once the move checker's engine has given its name, opens its cache in the data
    /// folder on a background thread (with the repertoire check's analyses by the same
    /// engine), and keeps the analyses there from then on.
    pub(super) fn open_analysis_cache(&mut self, ctx: &mut Context) {
        let waiting = self.opening.is_none() && !self.store_given;
        let dir = if waiting { ctx.analysis_dir() } else { None };
        match &self.opening {
            None if waiting => {
                let Some(checker) = self.checker.as_ref().filter(|c| c.is_ready()) else {
                    return;
                };
                let Some(dir) = dir else {
                    self.opening = Some(None);
                    return;
                };
                let engine = checker.engine_name().to_owned();
                let limit = self.limits.to_string();
                let job = Job::spawn("analysis cache", ctx.wake(), move |_| {
                    open_caches(&dir, &engine, &limit)
                });
                self.opening = Some(job.ok());
            }
            Some(Some(job)) => {
                let opened = match job.poll() {
                    JobPoll::Running => return,
                    JobPoll::Finished(opened) => opened,
                    JobPoll::Died(e) => Err(CacheOpenError::Job(e)),
                };
                self.opening = Some(None);
                match opened {
                    Ok(cache) if !self.store_given => {
                        if let Some(warning) = cache.warnings().first() {
                            ctx.message = Some(format!("Analysis cache: {warning}"));
                        }
                        let store: SharedStore = Arc::new(Mutex::new(cache));
                        if let Some(checker) = &mut self.checker {
                            checker.set_store(Arc::clone(&store));
                        }
                        self.store = store;
                    }
                    Ok(_) => {}
                    Err(reason) => {
                        ctx.message = Some(format!(
                            "Analyses of wrong moves are kept only until the window closes: {reason}"
                        ));
                    }
                }
            }
            _ => {}
        }
    }
}
