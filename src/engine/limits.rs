//! How long a search may run: time, depth, nodes, and the stop flag.

use std::num::{NonZeroU32, NonZeroU64};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;

/// A limit of 0 given where a search limit was asked for: depth 0, movetime 0 or
/// nodes 0 is no limit that means anything (Stockfish reads `go depth 0` as "no limit"
/// and never answers), so it is refused wherever limits are made.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[error("{what} must be at least 1, not 0")]
pub struct ZeroLimit {
    /// Which limit: `depth`, `movetime` or `nodes`.
    pub what: &'static str,
}

/// The limits of one search. None set means "until stopped" (`go infinite`).
///
/// No limit is ever 0: the constructors refuse it with [`ZeroLimit`], so a caller (the
/// command line, the window, a UCI command) cannot send an engine a zero it would read
/// as "no limit".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    movetime: Option<Duration>,
    depth: Option<NonZeroU32>,
    nodes: Option<NonZeroU64>,
}

impl Limits {
    /// One ply: the least search there is.
    pub const ONE_PLY: Limits = Limits {
        movetime: None,
        depth: Some(NonZeroU32::MIN),
        nodes: None,
    };

    /// Think for `ms` milliseconds.
    ///
    /// # Errors
    ///
    /// [`ZeroLimit`] for 0.
    pub fn movetime_ms(ms: u64) -> Result<Limits, ZeroLimit> {
        Limits::default().with_movetime(Duration::from_millis(ms))
    }

    /// Think for `time`.
    ///
    /// # Errors
    ///
    /// [`ZeroLimit`] for a zero duration.
    pub fn movetime(time: Duration) -> Result<Limits, ZeroLimit> {
        Limits::default().with_movetime(time)
    }

    /// Search to `depth` plies.
    ///
    /// # Errors
    ///
    /// [`ZeroLimit`] for 0.
    pub fn depth(depth: u32) -> Result<Limits, ZeroLimit> {
        Limits::default().with_depth(depth)
    }

    /// Search at most `nodes` nodes.
    ///
    /// # Errors
    ///
    /// [`ZeroLimit`] for 0.
    pub fn nodes(nodes: u64) -> Result<Limits, ZeroLimit> {
        Limits::default().with_nodes(nodes)
    }

    /// Search to `depth` plies (a depth that cannot be 0).
    pub fn plies(depth: NonZeroU32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Think for `ms` milliseconds (a time that cannot be 0).
    pub fn millis(ms: NonZeroU64) -> Limits {
        Limits {
            movetime: Some(Duration::from_millis(ms.get())),
            ..Limits::default()
        }
    }

    /// Search at most `nodes` nodes (a count that cannot be 0).
    pub fn node_count(nodes: NonZeroU64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// These limits, and think for at most `time`.
    ///
    /// # Errors
    ///
    /// [`ZeroLimit`] for a zero duration.
    pub fn with_movetime(self, time: Duration) -> Result<Limits, ZeroLimit> {
        if time.is_zero() {
            return Err(ZeroLimit { what: "movetime" });
        }
        Ok(Limits {
            movetime: Some(time),
            ..self
        })
    }

    /// These limits, and search to at most `depth` plies.
    ///
    /// # Errors
    ///
    /// [`ZeroLimit`] for 0.
    pub fn with_depth(self, depth: u32) -> Result<Limits, ZeroLimit> {
        let depth = NonZeroU32::new(depth).ok_or(ZeroLimit { what: "depth" })?;
        Ok(Limits {
            depth: Some(depth),
            ..self
        })
    }

    /// These limits, and search at most `nodes` nodes.
    ///
    /// # Errors
    ///
    /// [`ZeroLimit`] for 0.
    pub fn with_nodes(self, nodes: u64) -> Result<Limits, ZeroLimit> {
        let nodes = NonZeroU64::new(nodes).ok_or(ZeroLimit { what: "nodes" })?;
        Ok(Limits {
            nodes: Some(nodes),
            ..self
        })
    }

    /// These limits with the depth at most `cap` (a depth cap of an engine's own).
    pub fn capped_depth(self, cap: NonZeroU32) -> Limits {
        Limits {
            depth: Some(self.depth.map_or(cap, |d| d.min(cap))),
            ..self
        }
    }

    /// These limits without a node limit.
    pub fn without_nodes(self) -> Limits {
        Limits {
            nodes: None,
            ..self
        }
    }

    /// The move time, if set (never zero).
    pub fn movetime_limit(&self) -> Option<Duration> {
        self.movetime
    }

    /// The depth in plies, if set (at least 1).
    pub fn depth_limit(&self) -> Option<u32> {
        self.depth.map(NonZeroU32::get)
    }

    /// The node limit, if set (at least 1).
    pub fn nodes_limit(&self) -> Option<u64> {
        self.nodes.map(NonZeroU64::get)
    }

    /// True when no limit is set: the search runs until stopped.
    pub fn is_infinite(&self) -> bool {
        self.movetime.is_none() && self.depth.is_none() && self.nodes.is_none()
    }
}

/// The limits in words, as caches and reports name them: `movetime 300`, `depth 12`,
/// `nodes 5000` (joined by `, ` when several are set), `infinite` when none is.
impl std::fmt::Display for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = [
            self.movetime.map(|t| format!("movetime {}", t.as_millis())),
            self.depth.map(|d| format!("depth {d}")),
            self.nodes.map(|n| format!("nodes {n}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() {
            f.write_str("infinite")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// The clock of a running search: the limits, the start time and the stop flag.
///
/// Searches call [`Clock::should_stop`] every few thousand nodes; it reads the time only
/// then, so the check costs nothing per node.
#[derive(Debug)]
pub struct Clock<'a> {
    started: Instant,
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    stop: &'a AtomicBool,
}

impl<'a> Clock<'a> {
    /// Starts the clock for `limits`; `stop` ends the search early when set.
    pub fn start(limits: &Limits, stop: &'a AtomicBool) -> Clock<'a> {
        let started = Instant::now();
        Clock {
            started,
            deadline: limits.movetime.map(|t| started + t),
            max_nodes: limits.nodes_limit(),
            stop,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Whether the search must stop now, having searched `nodes` nodes.
    pub fn should_stop(&self, nodes: u64) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.max_nodes.is_some_and(|max| nodes >= max)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether another iteration of iterative deepening is worth starting: not when
    /// more than half the move time is gone (the next iteration takes longer than all
    /// before it together, so it would not finish).
    pub fn may_start_iteration(&self, nodes: u64) -> bool {
        if self.should_stop(nodes) {
            return false;
        }
        match self.deadline {
            Some(d) => {
                let total = d.saturating_duration_since(self.started);
                self.elapsed() < total / 2
            }
            None => true,
        }
    }

    /// Nodes per second after `nodes` nodes.
    pub fn nps(&self, nodes: u64) -> u64 {
        let micros = self.elapsed().as_micros().max(1);
        u64::try_from(u128::from(nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_no_limit_and_refused() {
        assert_eq!(Limits::depth(0), Err(ZeroLimit { what: "depth" }));
        assert_eq!(Limits::nodes(0), Err(ZeroLimit { what: "nodes" }));
        assert_eq!(Limits::movetime_ms(0), Err(ZeroLimit { what: "movetime" }));
        assert_eq!(
            Limits::movetime(Duration::ZERO),
            Err(ZeroLimit { what: "movetime" })
        );
        assert_eq!(
            Limits::ONE_PLY.with_nodes(0).unwrap_err().to_string(),
            "nodes must be at least 1, not 0"
        );
    }

    #[test]
    fn limits_combine_and_read_back() {
        let limits = Limits::depth(9)
            .and_then(|l| l.with_nodes(500))
            .and_then(|l| l.with_movetime(Duration::from_millis(40)))
            .unwrap();
        assert_eq!(limits.depth_limit(), Some(9));
        assert_eq!(limits.nodes_limit(), Some(500));
        assert_eq!(limits.movetime_limit(), Some(Duration::from_millis(40)));
        assert_eq!(limits.to_string(), "movetime 40, depth 9, nodes 500");
        let cap = NonZeroU32::new(4).unwrap();
        assert_eq!(limits.capped_depth(cap).depth_limit(), Some(4));
        assert_eq!(Limits::default().capped_depth(cap), Limits::plies(cap));
        assert_eq!(limits.without_nodes().nodes_limit(), None);
        assert!(Limits::default().is_infinite());
        assert!(!Limits::ONE_PLY.is_infinite());
    }
}
