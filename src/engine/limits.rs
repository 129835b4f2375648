//! How long a search may run: time, depth, nodes, and the stop flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The limits of one search. All `None` means "until stopped" (`go infinite`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Think for this long (`go movetime`).
    pub movetime: Option<Duration>,
    /// Search to this depth in plies (`go depth`).
    pub depth: Option<u32>,
    /// Search at most this many nodes (`go nodes`).
    pub nodes: Option<u64>,
}

impl Limits {
    /// Think for `ms` milliseconds.
    pub fn movetime_ms(ms: u64) -> Limits {
        Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        }
    }

    /// Search to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search at most `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
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
            max_nodes: limits.nodes,
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
