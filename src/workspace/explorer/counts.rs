//! An index and a filter as the sampler's popularity ([`ExplorerCounts`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use shakmaty::Chess;

use super::{ExplorerError, ExplorerIndex};
use crate::book::explorer::{ExplorerCounts, ExplorerFilter, PositionStats};
use crate::book::polyglot::key;

/// How many positions' answers a [`FilteredExplorer`] keeps before it forgets them all.
const CACHED_POSITIONS: usize = 65_536;

/// An explorer index seen through one filter: what `hastings sample --explorer` and
/// the drill draw their shares from. Answers are cached by position (the sampler asks
/// for the same positions again and again); an error reading the index answers no
/// move and is kept for [`FilteredExplorer::take_error`].
///
/// ```no_run
/// use std::sync::Arc;
/// use hastings::book::PositionGraph;
/// use hastings::book::explorer::ExplorerFilter;
/// use hastings::sampler::MoveSource;
/// use hastings::workspace::explorer::{ExplorerIndex, FilteredExplorer};
///
/// let index = Arc::new(ExplorerIndex::open("games.explorer".as_ref())?);
/// let explorer = FilteredExplorer::new(index, ExplorerFilter::default().with_speeds("blitz")?);
/// let graph = PositionGraph::eco()?;
/// let source = MoveSource::graph(&graph).with_explorer(&explorer);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct FilteredExplorer {
    index: Arc<ExplorerIndex>,
    filter: ExplorerFilter,
    cache: Mutex<HashMap<u64, PositionStats>>,
    error: Mutex<Option<ExplorerError>>,
}

impl FilteredExplorer {
    /// `index` under `filter`.
    pub fn new(index: Arc<ExplorerIndex>, filter: ExplorerFilter) -> FilteredExplorer {
        FilteredExplorer {
            index,
            filter,
            cache: Mutex::new(HashMap::new()),
            error: Mutex::new(None),
        }
    }

    /// The index.
    pub fn index(&self) -> &Arc<ExplorerIndex> {
        &self.index
    }

    /// The filter.
    pub fn filter(&self) -> &ExplorerFilter {
        &self.filter
    }

    /// The first error met reading the index since the last call, if any (a position
    /// whose segment is damaged answered no move).
    pub fn take_error(&self) -> Option<ExplorerError> {
        self.error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

impl ExplorerCounts for FilteredExplorer {
    fn stats_at(&self, pos: &Chess) -> PositionStats {
        let k = key(pos);
        if let Some(stats) = self
            .cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&k)
        {
            return stats.clone();
        }
        let stats = match self.index.query(k, &self.filter) {
            Ok(stats) => stats,
            Err(e) => {
                self.error
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert(e);
                return PositionStats::default();
            }
        };
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if cache.len() >= CACHED_POSITIONS {
            cache.clear();
        }
        cache.insert(k, stats.clone());
        stats
    }
}
